"""Leaving a plan mode never turns approvals off (issue 47, point 2): an approved plan
goes on in the mode the user left for it; where that is not known, in the agent's mode
that reads as asking the most, never its first one."""

from __future__ import annotations

from nib_desktop.state.steering import Steering, plan_exit, remembered

CLAUDE = (
    ("auto", "Auto"),
    ("default", "Default"),
    ("acceptEdits", "Accept Edits"),
    ("plan", "Plan Mode"),
    ("bypassPermissions", "Bypass Permissions"),
)


def told(mode: str, modes: tuple[tuple[str, str], ...] = CLAUDE) -> Steering:
    return Steering("s", mode=mode, modes=modes)


def test_the_mode_left_for_the_plan_is_where_it_goes_on() -> None:
    held = remembered(None, told("Accept Edits"))
    planning = remembered(held, told("Plan Mode"))
    assert planning.left_for_plan == "acceptEdits"
    assert plan_exit(planning) == ("acceptEdits", "Accept Edits")
    again = remembered(planning, told("Plan Mode"))  # told again while planning: kept
    assert plan_exit(again) == ("acceptEdits", "Accept Edits")
    assert remembered(again, told("Default")).left_for_plan == ""  # out of it: forgotten
    assert plan_exit(told("Default")) is None


def test_unknown_it_is_the_mode_that_asks_the_most() -> None:
    assert plan_exit(remembered(None, told("Plan Mode"))) == ("default", "Default")
    codex_like = (("read-only", "Read Only"), ("full-access", "Full Access"), ("plan", "Plan"))
    assert plan_exit(told("Plan", codex_like)) == ("read-only", "Read Only")
    only_risky = (("yolo", "YOLO"), ("plan", "Plan"))
    assert plan_exit(told("Plan", only_risky)) == ("yolo", "YOLO")  # named on the button
