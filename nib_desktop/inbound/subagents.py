"""A sub-agent's tool calls, nested under the call that started it (Claude Code's Task):
no line of their own, but their count and state on that call's line, and each of them,
folded, under it. The host tells which call a call ran under (`ToolCall.parentId`)."""

from __future__ import annotations

GLYPHS = {"running": "◐", "done": "✓", "failed": "✕"}


class _Sub:
    """One sub-agent call: its name, and its state as it changes."""

    __slots__ = ("name", "state")

    def __init__(self, name: str, state: str = "running") -> None:
        self.name, self.state = name, state


class SubCalls:
    """The sub-agent calls of the calls still running, by the call they ran under."""

    def __init__(self) -> None:
        self._under: dict[str, dict[str, _Sub]] = {}  # parent call id -> its calls, in order
        self._parent: dict[str, str] = {}  # a sub-agent call's id -> its parent's

    def add(self, parent: str, call_id: str, name: str) -> None:
        self._under.setdefault(parent, {})[call_id] = _Sub(name)
        self._parent[call_id] = parent

    def parent_of(self, call_id: str) -> str | None:
        return self._parent.get(call_id)

    def finish(self, call_id: str, failed: bool) -> str | None:
        """A sub-agent call's result: its parent's id (None when it is not one held)."""
        parent = self._parent.pop(call_id, None)
        sub = self._under.get(parent or "", {}).get(call_id)
        if sub is not None:
            sub.state = "failed" if failed else "done"
        return parent if sub is not None else None

    def told(self, parent: str) -> tuple[str, str]:
        """The count and state for the parent's line ("" for none), and the calls, one a
        line, for under it, below a first line that names them (the folded form)."""
        subs = list(self._under.get(parent, {}).values())
        if not subs:
            return "", ""
        count = f"{len(subs)} sub-agent call{'s' if len(subs) != 1 else ''}"
        states = [
            f"{n} {state}"
            for state in ("running", "failed")
            if (n := sum(sub.state == state for sub in subs))
        ]
        summary = ", ".join([count, *states])
        listing = "\n".join(f"  {GLYPHS[sub.state]} {sub.name}" for sub in subs)
        return summary, f"Its sub-agent's calls:\n{listing}"

    def close(self, parent: str) -> tuple[str, str]:
        """The parent's own result: what `told` says, then its calls are let go."""
        said = self.told(parent)
        for call_id in self._under.pop(parent, {}):
            self._parent.pop(call_id, None)
        return said
