import gc
import sys

gc.disable()  # until the window has started (nib_desktop.shell.lean.pause_collector)

from nib_desktop.shell.app import main  # noqa: E402 - after the collector is paused

sys.exit(main())
