"""The bundle's entry point: the app, and with `--host` the host process."""

import sys

from nib_desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
