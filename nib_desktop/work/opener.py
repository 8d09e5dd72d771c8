"""A place a tool call touched (a file, a line), opened in the user's editor: `$VISUAL`,
else `$EDITOR`, where it is a program with a window of its own; else (a terminal editor,
or none set) the desktop's opener for the file. Started detached: the window never waits
on it."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState

# editors that need a terminal: the desktop's opener serves better from a window
TERMINAL_EDITORS = {"vi", "vim", "nvim", "nano", "pico", "micro", "hx", "helix", "ed", "joe",
                    "mg", "kak", "ne"}  # fmt: skip
# editors that take "file:line" (with -g for the Code family) instead of "+line file"
COLON_EDITORS = {"code": ["-g"], "codium": ["-g"], "cursor": ["-g"], "zed": [], "subl": [],
                 "sublime_text": []}  # fmt: skip


def editor_command(path: str, line: int | None, env: dict[str, str]) -> list[str]:
    """The editor's command that opens `path` at `line`; [] where the desktop's opener
    should (no editor set, a terminal editor, or one that cannot be split into words)."""
    given = env.get("VISUAL") or env.get("EDITOR") or ""
    try:
        words = shlex.split(given)
    except ValueError:
        return []
    if not words:
        return []
    name = Path(words[0]).name
    if name in TERMINAL_EDITORS or (name == "emacs" and "-nw" in words):
        return []
    if name in COLON_EDITORS:
        return [*words, *COLON_EDITORS[name], f"{path}:{line}" if line else path]
    return [*words, f"+{line}", path] if line else [*words, path]


def open_place(state: AppState, path: str, line: int | None) -> None:
    """Open `path` (relative to the shown session's folder where it is not absolute) at
    `line`; where it cannot be, the notice says why."""
    shown = state.shown
    said = opened(path, line, shown.cwd if shown is not None else "")
    if said:
        state.apply(ev.NoticeShown(said))


def opened(path: str, line: int | None, folder: str) -> str:
    """Open `path` (relative to `folder` where it is not absolute) at `line`; "" once
    asked of the editor or the desktop, else why not, in words."""
    # named here, not when the Main role loads on the way to "connected": PySide makes a
    # class's type when it is first named (these three, about 1.5 ms)
    from PySide6.QtCore import QProcess, QUrl
    from PySide6.QtGui import QDesktopServices

    where = Path(folder, path) if folder and not Path(path).is_absolute() else Path(path)
    if not where.exists():
        return f"Could not open {path}: it is not there"
    command = editor_command(str(where), line, dict(os.environ))
    if command:
        if QProcess.startDetached(command[0], command[1:])[0]:
            return ""
        return f"Could not open {path}: {command[0]} did not start"
    if QDesktopServices.openUrl(QUrl.fromLocalFile(str(where))):
        return ""
    return f"Could not open {path}: the desktop has no program for it"


# terminals tried, in order, where $TERMINAL is not set; each runs what follows its flag
TERMINALS = (("x-terminal-emulator", "-e"), ("gnome-terminal", "--"), ("konsole", "-e"),
             ("xfce4-terminal", "-x"), ("kitty", "--"), ("alacritty", "-e"),
             ("xterm", "-e"))  # fmt: skip


def open_terminal(command: tuple[str, ...], env: dict[str, str]) -> str:
    """`command` run in the user's terminal (`$TERMINAL`, else the first of TERMINALS
    installed), with `env` added to the command's environment only (`env(1)` inside the
    terminal; the terminal itself runs in the window's); "" once it started, else why
    not, in words."""
    import shutil
    import subprocess
    import threading

    chosen = os.environ.get("TERMINAL", "")
    found = [(chosen, "-e")] if chosen else [(t, flag) for t, flag in TERMINALS if shutil.which(t)]
    if not found:
        return (
            "No terminal was found to run the sign-in in: set $TERMINAL, or run it "
            f"yourself: {shlex.join(command)}"
        )
    terminal, flag = found[0]
    if any("=" in name or not name for name in env) or (command and "=" in command[0]):
        return f"The sign-in's command cannot be run as given: {shlex.join(command)}"
    inside = ["env", "--", *(f"{name}={value}" for name, value in env.items())] if env else []
    try:
        started = subprocess.Popen(
            [*shlex.split(terminal), flag, *inside, *command],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except (OSError, ValueError) as exc:
        return f"The terminal {terminal!r} could not be started: {exc}"
    # reaped when it ends, on a thread of its own: the window never waits for it
    threading.Thread(target=started.wait, name="terminal", daemon=True).start()
    return ""
