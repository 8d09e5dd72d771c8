"""The real agents as a host's settings name them, and the calls their scripted model makes
of their own tools: the checklist (each agent's own plan tool) and one it asks permission
for. Shared by the real-agent tests and the benchmarks that run the same agents."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import real_agents
from harness.fake_models import Call

Entry = Callable[[Path, Path, str], dict[str, Any]]
AGENTS: dict[str, Entry] = {
    "codex": real_agents.codex,
    "claude": real_agents.claude,
    "gemini": real_agents.gemini,
}


def plan_call(agent: str, *statuses: str) -> Call:
    """The agent's own checklist tool, as its model would call it."""
    if agent == "codex":
        steps = [{"step": f"Step {i + 1}", "status": s} for i, s in enumerate(statuses)]
        return Call("update_plan", {"plan": steps})
    todos = [
        {"content": f"Step {i + 1}", "status": s, "activeForm": f"Doing step {i + 1}"}
        for i, s in enumerate(statuses)
    ]
    return Call("TodoWrite", {"todos": todos})


def risky_call(agent: str, work: Path) -> Call:
    """A call the agent asks permission for."""
    if agent == "gemini":
        return Call("write_file", {"file_path": str(work / "made.txt"), "content": "made\n"})
    if agent == "codex":
        return Call(
            "exec_command",
            {
                "cmd": "touch made.txt",
                "justification": "make a file",
                "sandbox_permissions": "require_escalated",
            },
        )
    return Call("Write", {"file_path": str(work / "made.txt"), "content": "made\n"})
