"""A restore a kill stopped part-way, finished at the host's start (host/checkpoints/
restoring.recover) on a real store and folder: when its finishing is said, the folder is
already whole and its writer's temporary files gone, and its journal is still there (a
kill then finishes and says it again); the journal goes only after. Read in the other
order, a start that removed the journal first let a reader see no restore under way while
the folder still held a temporary file, and a kill before the saying lost it for good."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from host.checkpoints import journal
from host.checkpoints.restoring import recover
from host.core import HostCore

SID = "s1"


def written(folder: Path, version: str) -> dict[str, str]:
    for i in range(6):
        (folder / f"f{i}.txt").write_text(f"{version} {i}\n")
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


@pytest.fixture
def killed(core: HostCore, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder whose restore from A to B a kill stopped after three files and part of a
    fourth (its temporary file left beside it); B's contents."""
    folder = tmp_path / "work"
    folder.mkdir()
    store = core.checkpoints.store(SID)
    written(folder, "A")
    now = asyncio.run(store.record(folder)).tree
    wanted = written(folder, "B")
    then = asyncio.run(store.record(folder)).tree
    written(folder, "A")
    for i in range(3):
        (folder / f"f{i}.txt").write_text(wanted[f"f{i}.txt"])
    (folder / ".f3.txt.0123abcd.nib-restore").write_text("B 3")
    journal.begin(store.root, journal.Underway(str(folder), now, then, None))
    return folder, wanted


def test_the_finishing_is_said_with_the_folder_whole_and_its_journal_kept(
    core: HostCore, killed: tuple[Path, dict[str, str]]
) -> None:
    folder, wanted = killed
    store = core.checkpoints.store(SID)
    seen: list[tuple[bool, dict[str, str], bool]] = []

    def tell(session_id: str, said: str, failed: bool) -> None:
        found = {p.name: p.read_text() for p in sorted(folder.iterdir())}
        seen.append(((store.root / journal.JOURNAL).exists(), found, failed))
        assert session_id == SID and "finished when Nib started again (6 files" in said

    asyncio.run(recover(core.checkpoints, tell))
    assert seen == [(True, wanted, False)]
    assert not (store.root / journal.JOURNAL).exists()


def test_a_finishing_that_fails_is_said_before_its_journal_goes(
    core: HostCore, killed: tuple[Path, dict[str, str]]
) -> None:
    folder, _wanted = killed
    store = core.checkpoints.store(SID)
    (folder / "f4.txt").unlink()
    (folder / "f4.txt").mkdir()  # a folder where the restore writes a file
    seen: list[tuple[bool, bool, list[str]]] = []

    def tell(session_id: str, said: str, failed: bool) -> None:
        leftovers = [p.name for p in folder.iterdir() if p.name.endswith(".nib-restore")]
        seen.append(((store.root / journal.JOURNAL).exists(), failed, leftovers))
        assert "could not be finished" in said and "a folder stands where the file was" in said

    asyncio.run(recover(core.checkpoints, tell))
    assert seen == [(True, True, [])]
    assert not (store.root / journal.JOURNAL).exists()
