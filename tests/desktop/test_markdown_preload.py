"""The Markdown parser's import starts once the host's start is through, never during it:
its thread would take the interpreter's lock in turns with every answer of the start."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from nib_desktop.main_role import Hooks, MainRole
from nib_desktop.state import markdown
from nib_desktop.state.store import AppState


class Link:
    def __init__(self, told: list[str]) -> None:
        self.told = told

    async def call(self, method: Any, params: Any, timeout: float | None = None) -> Any:
        raise AssertionError("no call is made here")

    async def start(self) -> bool:
        self.told.append("start begins")
        await asyncio.sleep(0)  # the host's answers arrive
        self.told.append("start ends")
        return True

    async def shutdown(self) -> None:
        self.told.append("shutdown")


@pytest.mark.usefixtures("qapp")
def test_parser_import_starts_after_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    told: list[str] = []
    monkeypatch.setattr(markdown, "preload", lambda: told.append("preload"))

    def make(_hooks: Hooks) -> Link:
        return Link(told)

    async def enter() -> bool:
        role = MainRole(AppState(), make, None)
        async with role:
            return role.ready

    assert asyncio.run(enter()) is True
    assert told[:3] == ["start begins", "start ends", "preload"]
