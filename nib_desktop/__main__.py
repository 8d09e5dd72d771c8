import sys

from nib_desktop.app import main

sys.exit(main())
