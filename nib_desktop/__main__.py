import sys

from nib_desktop.shell.app import main

sys.exit(main())
