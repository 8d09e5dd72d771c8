"""The words before and after a restore (issue 47, point 3; issue 46, points 2-3): the
question names every file the restore will write back, make again or remove, with a
count past a screenful, and the notice names the files left as they are."""

from __future__ import annotations

from host.protocol import plain_models as m
from nib_desktop.state.changes import FileDiff, restore_question
from nib_desktop.work.restore_work import restored_words


def change(path: str, status: str, old_path: str = "") -> FileDiff:
    return FileDiff(path, old_path, status, 1, 1, False, "", False)


def test_the_question_names_every_file_the_restore_changes() -> None:
    since = (
        change("app.py", "modified"),
        change(".claude/settings.local.json", "added"),
        change("gone.txt", "deleted"),
        change("new_name.py", "renamed", "old_name.py"),
    )
    assert restore_question("Step: Edit", since, None) == (
        "Restore the folder to before “Step: Edit”? It writes back 1 file: app.py; it makes"
        " again 2 files: gone.txt, old_name.py; it removes 2 files:"
        " .claude/settings.local.json, new_name.py. It can be undone."
    )
    one = restore_question("Step: Edit", since, ("new_name.py", "old_name.py"))
    assert one == (
        "Restore this file to before “Step: Edit”? It makes again 1 file: old_name.py; it"
        " removes 1 file: new_name.py. It can be undone."
    )
    assert restore_question("Step: Edit", (), None) == ""


def test_past_a_screenful_the_question_counts() -> None:
    since = tuple(change(f"f{i:03}.txt", "modified") for i in range(250))
    words = restore_question("The whole session", since, None)
    assert "It writes back 250 files: f000.txt, f001.txt" in words
    assert "f009.txt and 240 more." in words and "f010.txt" not in words


def test_the_notice_names_what_was_left_as_it_is() -> None:
    point = m.Checkpoint(
        id="c",
        session_id="s",
        reason="restore",
        revision=0,
        turn_id=None,
        created_at="2026-01-01T00:00:00Z",
        files=1,
        partial=False,
        partial_reason=None,
    )
    done = m.Restored(checkpoint=point, restored=("app.py",), skipped=("results.csv",))
    assert restored_words(done) == (
        "Restored 1 file: app.py. Left as it is: results.csv (over 1 MiB or ignored now, so"
        " no copy of it could be kept to undo with)"
    )
