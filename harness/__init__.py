"""The real parts both the tests and the benchmarks run, so neither depends on the other's
tree: a host process on a real socket, scripted model endpoints on 127.0.0.1, the real
agents and their calls, a real sshd, the window driven in-process, a flood, the bundle,
and waiting on a condition. Test-only helpers stay in tests/helpers/."""

from pathlib import Path

# the scripted ACP agent on the official SDK, run as its own process (`python ACP_AGENT`)
ACP_AGENT = Path(__file__).resolve().parent / "acp_agent.py"
