"""A repository's own set-up for a new worktree (issue 49: e.g. `npm ci`), named by the
user in settings.json, never taken from the repository itself (and, with `run`, an
attempt's check, run the same way in each run's worktree):

    {"worktreeSetup": {"~/src/app": "npm ci"}}

It runs in the new worktree (split as a shell would, never run by one), with the user's
environment less Nib's own variables, before the session's first turn is prompted; what
it printed (its end) and how it ended are in the session's transcript."""

from __future__ import annotations

import asyncio
import os
import shlex
from pathlib import Path
from typing import Any

from host.protocol.settings_file import SettingsFileError, read_settings_file

KEY = "worktreeSetup"
SETUP_TIMEOUT_S = 30 * 60.0
MAX_OUTPUT = 8 * 1024  # the end of what it printed, kept in the transcript


def command_for(data_dir: Path, repo: Path) -> list[str] | None:
    """The set-up the user named for `repo` (its main work tree), if any."""
    try:
        settings: Any = read_settings_file(data_dir) or {}
    except SettingsFileError:
        return None
    table = settings.get(KEY) if isinstance(settings, dict) else None
    if not isinstance(table, dict):
        return None
    for folder, command in table.items():
        if not isinstance(folder, str) or not isinstance(command, str) or not command.strip():
            continue
        if Path(folder).expanduser().resolve() == repo.resolve():
            try:
                return shlex.split(command)
            except ValueError:
                return None
    return None


async def run(command: list[str], cwd: Path) -> tuple[int | None, str]:
    """(its exit status, None when it could not start or was stopped; the end of what it
    printed, or why)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NIB_")}
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            cwd=str(cwd),
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as exc:
        return None, f"it could not start: {exc.strerror or exc}"
    tail = b""
    try:
        async with asyncio.timeout(SETUP_TIMEOUT_S):
            assert process.stdout is not None
            while chunk := await process.stdout.read(65536):
                tail = (tail + chunk)[-MAX_OUTPUT:]
            code = await process.wait()
    except TimeoutError:
        process.kill()
        await process.wait()
        return None, tail.decode("utf-8", "replace") + "\n… stopped after 30 minutes"
    return code, tail.decode("utf-8", "replace")
