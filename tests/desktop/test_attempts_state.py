"""An attempt's runs in words, as its view shows them (no Qt)."""

from __future__ import annotations

from nib_desktop.state.attempts import (
    Run,
    change_words,
    check_words,
    progress_of,
    progress_words,
    turn_words,
)
from nib_desktop.state.types import Item, Snapshot

BLANK = Run("s", "codex", "", "", 0, 0, 0, 0, 0, "", None, "", "")


def run(**given: object) -> Run:
    return BLANK._replace(**given)  # type: ignore[arg-type]


def test_each_run_in_words() -> None:
    assert turn_words(run()) == "not started"
    assert turn_words(run(state="running")) == "running"
    assert turn_words(run(state="completed", duration_ms=72_400)) == "done in 1 min 12 s"
    assert turn_words(run(state="completed", duration_ms=300)) == "done in <1 s"
    assert turn_words(run(state="failed", error="it exited", duration_ms=2000)) == (
        "failed in 2 s: it exited"
    )
    assert turn_words(run(state="cancelled")) == "stopped"
    assert progress_words(progress_of(run(), None)) == "no checklist"
    assert progress_words(progress_of(run(completed=3, total=5), None)) == "3 / 5 steps"
    assert change_words(run()) == "no changes"
    assert change_words(run(files=1, additions=12, deletions=3)) == "1 file +12 −3"
    assert check_words(run()) == "" and check_words(run(check_state="failed")) == "check failed"
    assert check_words(run(check_state="failed", check_exit=1)) == "check failed (exit status 1)"


def test_a_runs_count_is_of_the_steps_shown_beside_it() -> None:
    """The runs' view shows each run's steps from its session's checklist, which the
    window hears before the attempt's next count: the count is of those steps (as its dock
    counts them: a cancelled step for neither), the attempt's only when there are none."""
    steps = (
        Item("read", "completed"),
        Item("change", "in_progress"),
        Item("dropped", "cancelled"),
        Item("test", "pending"),
    )
    told_late = run(completed=0, total=0)  # the attempt has not counted them yet
    assert progress_words(progress_of(told_late, Snapshot("s", 3, steps))) == "1 / 3 steps"
    assert progress_words(progress_of(told_late, Snapshot("s", 4, ()))) == "no checklist"
    counted = run(completed=2, total=4)
    assert progress_words(progress_of(counted, Snapshot("s", 1, ()))) == "2 / 4 steps"


def test_an_agent_tried_twice_is_told_apart() -> None:
    from host.protocol import plain_models as m
    from nib_desktop.inbound.convert import attempt

    def told(agent: str, sid: str) -> dict[str, object]:
        return {
            "sessionId": sid,
            "agent": agent,
            "turn": None,
            "todos": {"completed": 0, "total": 0},
            "files": 0,
            "additions": 0,
            "deletions": 0,
            "usage": None,
            "durationMs": None,
            "check": None,
        }

    wire = m.Attempt.from_wire(
        {
            "attemptId": "a",
            "cwd": "/r",
            "text": "t",
            "base": "main",
            "baseCommit": "c",
            "createdAt": "2026-12-05T00:00:00.000Z",
            "sessions": [told("nib", "1"), told("codex", "2"), told("nib", "3")],
        }
    )
    assert [r.agent for r in attempt(wire).runs] == ["nib", "codex", "nib #2"]
