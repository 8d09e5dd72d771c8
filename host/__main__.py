import gc
import sys

# Start-up's imports (pydantic, the contract's models) make tens of thousands of objects
# that live as long as the host and no garbage worth a pass: the collector is paused
# until the host serves (`host.process`, where what start-up made is frozen).
gc.disable()

from host.process import main  # noqa: E402 - after the collector is paused

sys.exit(main())
