import sys

from host.process import main

sys.exit(main())
