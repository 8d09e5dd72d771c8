"""The contract between the desktop process and the host process.

Everything both sides share lives here: the wire models, the method table, the error
codes, the framing and the JSON-RPC endpoint. Nothing here imports Qt GUI modules or apsw.
"""

PROTOCOL_VERSION = 1
SCHEMA_VERSION = 25
