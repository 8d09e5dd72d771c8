"""An attempt's runs in words, as its view shows them (no Qt)."""

from __future__ import annotations

from nib_desktop.state.attempts import Run, change_words, check_words, progress_words, turn_words

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
    assert progress_words(run()) == "no checklist"
    assert progress_words(run(completed=3, total=5)) == "3 / 5 steps"
    assert change_words(run()) == "no changes"
    assert change_words(run(files=1, additions=12, deletions=3)) == "1 file +12 −3"
    assert check_words(run()) == "" and check_words(run(check_state="failed")) == "check failed"
