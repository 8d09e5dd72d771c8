"""What Python compiles from source while a test runs: every `exec` call, counted."""

from __future__ import annotations

import builtins
from typing import Any

import pytest


def counted_execs(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The sources `exec` runs from now on, in order (a dataclass compiles its methods
    this way, `collections.namedtuple` its `__new__`)."""
    ran: list[object] = []
    real_exec = builtins.exec

    def counted(*args: Any, **kwargs: Any) -> None:
        ran.append(args[0])
        real_exec(*args, **kwargs)

    monkeypatch.setattr(builtins, "exec", counted)
    return ran
