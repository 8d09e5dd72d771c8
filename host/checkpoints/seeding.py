"""A store's first record of a git checkout's top folder, started from git's own index
(issue 49: a new worktree ready for its first turn near `git worktree add` alone).

git hashed every tracked file when it checked them out, and its index holds each one's
blob and stat data. A copy of that index is the store's first index, so `update-index`
reads again only the files whose stat data differ (and the untracked ones); the blobs it
names are read from the repository's objects, borrowed (git's alternates), until the
store owns them (`own`, a packing that copies what its records use, run when the store is
tidied, after the turn has started). Anything unusual (a subfolder of the checkout, SHA-256
objects, an index git cannot read as the store's) leaves the store to read every file."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

from host.git_child import run_git


async def checkout_index(cwd: Path) -> tuple[Path, Path] | None:
    """The index and the objects folder of the git checkout whose top `cwd` is, or None."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    asked = ["rev-parse", "--show-toplevel", "--git-path", "index", "--git-common-dir"]
    code, out, _err = await run_git(
        [*asked, "--show-object-format"], cwd=str(cwd), env=env, niceness=0
    )
    lines = out.decode("utf-8", "replace").splitlines()
    if code != 0 or len(lines) != 4 or lines[3] != "sha1":
        return None
    top, index, common = (Path(x) if os.path.isabs(x) else cwd / x for x in lines[:3])
    if top.resolve() != cwd.resolve() or not index.is_file():
        return None
    objects = common / "objects"
    return (index, objects) if objects.is_dir() else None


async def copy_index(index: Path, to: Path) -> None:
    """The index copied with its own time: git reads again an entry whose file time is not
    before the index file's ("racy git": a file changed in the second it was indexed, its
    size kept). A copy stamped now would have git trust such an entry's old blob."""
    await asyncio.to_thread(shutil.copy2, index, to)
