"""An MCP server over stdio that answers `initialize` properly and `tools/list` with a
shape no client can read (`tools` is not a list); it exits when its input closes."""

from __future__ import annotations

import json
import sys


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        if message["method"] == "initialize":
            result = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "bad", "version": "1"},
            }
        else:
            result = {"tools": "not a list"}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}))
        sys.stdout.write("\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
