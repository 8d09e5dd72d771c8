"""What Python compiles from source while a test runs: every `exec` or `compile` call,
counted."""

from __future__ import annotations

import builtins
from typing import Any

import pytest


def counted_sources(monkeypatch: pytest.MonkeyPatch, builtin: str = "exec") -> list[object]:
    """The sources the builtin `builtin` ("exec" or "compile") is given from now on, in
    order (a dataclass compiles its methods with `exec`, `collections.namedtuple` its
    `__new__`; `typing` compiles a string annotation with `compile`)."""
    ran: list[object] = []
    real = getattr(builtins, builtin)

    def counted(*args: Any, **kwargs: Any) -> Any:
        ran.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(builtins, builtin, counted)
    return ran
