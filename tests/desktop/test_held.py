"""The window's state (`Held`, `AppState`) is a plain class: made without compiling, and
each state holds containers of its own."""

from __future__ import annotations

from nib_desktop.state.store import AppState
from nib_desktop.state.types import Session
from tests.helpers.fresh_python import python_says

COUNT_EXECS = """
import builtins, sys
compiled = []
real = builtins.exec
def counted(source, *args, **kwargs):
    compiled.append(source if isinstance(source, str) else "")
    return real(source, *args, **kwargs)
builtins.exec = counted
import nib_desktop.state.store
builtins.exec = real
print(sum("connection_error" in text or "_listeners" in text for text in compiled))
"""


def test_the_state_class_is_made_without_compiling() -> None:
    """A dataclass of Held's 45 fields compiled its methods (exec) as the module was
    imported before the first frame, and again for AppState."""
    assert python_says(COUNT_EXECS) == "0"


def test_each_state_holds_its_own_containers() -> None:
    first, second = AppState(), AppState()
    first.drafts["s1"] = "typed"
    first.asks_queued.add("s1")
    first.set_sessions((Session("s1", "One", "auto"),))
    assert (second.drafts, second.asks_queued, second.session("s1")) == ({}, set(), None)
    assert first.session("s1") is not None
    heard: list[object] = []
    first.subscribe(lambda event, change: heard.append(event))
    assert second._listeners == []
