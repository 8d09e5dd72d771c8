"""The contract between the desktop process and the host process.

Everything both sides share lives here: the wire models, the method table, the error
codes, the framing and the JSON-RPC endpoint. Nothing here imports Qt GUI modules or apsw.
"""

import os

# Neither process uses pydantic plugins: without this, building the first model's
# validator scans every installed distribution's entry points for them (about 16 ms on
# the way to the host's ready line and to the window's first answer).
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

PROTOCOL_VERSION = 1
SCHEMA_VERSION = 25
