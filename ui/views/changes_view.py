"""The Changes view (contract section 16): the shown session's steps, its last turn and
the whole session with the files each changed, the chosen file's diff, and restoring the
folder or a file to before the chosen scope, with its undo. Read-only over the state;
every action is an intent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.changes import (
    Changes,
    FileDiff,
    RestoreQuestion,
    Scope,
    counts,
    file_line,
)
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.rich import detail_html
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.tuples import NamedTuple
from ui.views.rows import ChangeRowModel, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


class ChangeRow(NamedTuple):
    title: str
    summary: str
    accessible_name: str


def _scope_row(scope: Scope) -> ChangeRow:
    summary = counts(scope.files) + (" · up to now" if scope.running else "")
    return ChangeRow(scope.title, summary, f"{scope.title}: {summary}")


def _file_row(change: FileDiff) -> ChangeRow:
    lines = "binary" if change.binary else f"+{change.additions} −{change.deletions}"
    moved = f" from {change.old_path}" if change.old_path else ""
    return ChangeRow(change.path, f"{change.status}{moved} · {lines}", file_line(change))


@QmlElement
@qml_uncreatable("made by the views")
class ChangesView(QObject):
    changed = Signal()
    # the window opens the view on that step (a dock row's "3 files") or revision
    asked = Signal(str, int)

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        self.scope_model = ChangeRowModel(self)
        self.file_model = ChangeRowModel(self)
        self._changes = Changes()
        self._scope = 0
        self._file = 0
        self._wanted = ""  # the scope to choose once loaded
        state.subscribe(self._heard)

    def _heard(self, _event: ev.Event, change: Change) -> None:
        if not ({store.CHANGES, store.CURRENT, store.SESSIONS} & change.aspects):
            return
        changes = self._state.changes
        if changes.scopes != self._changes.scopes:  # the same choice, kept where it exists
            titles = [s.title for s in changes.scopes]
            if self._wanted in titles:
                self._scope, self._wanted = titles.index(self._wanted), ""
            self._scope = min(self._scope, max(len(changes.scopes) - 1, 0))
        self._changes = changes
        self.scope_model.set_rows([_scope_row(s) for s in changes.scopes])
        self._show_files()

    def _chosen(self) -> Scope | None:
        scopes = self._changes.scopes
        return scopes[self._scope] if 0 <= self._scope < len(scopes) else None

    def _chosen_file(self) -> FileDiff | None:
        scope = self._chosen()
        files = scope.files if scope is not None else ()
        return files[self._file] if 0 <= self._file < len(files) else None

    def _show_files(self) -> None:
        scope = self._chosen()
        files = scope.files if scope is not None else ()
        self._file = min(self._file, max(len(files) - 1, 0))
        self.file_model.set_rows([_file_row(f) for f in files])
        self.changed.emit()

    # --- what QML reads -------------------------------------------------------------------

    def _is_open(self) -> bool:
        return self._changes.session_id is not None

    def _note(self) -> str:
        if self._changes.loading and not self._changes.scopes:
            return "Loading the changes…"
        return self._changes.note

    def _scope_index(self) -> int:
        return self._scope

    def _file_index(self) -> int:
        return self._file

    def _diff_html(self) -> str:
        chosen = self._chosen_file()
        if chosen is None:
            scope = self._chosen()
            return "" if scope is None or scope.files else "<p>No files changed.</p>"
        if chosen.binary:
            return "<p>A binary file: no diff to show.</p>"
        if not chosen.diff:
            return "<p>Only its name or mode changed.</p>"
        more = "\n… the diff is cut here (over 256 KiB)" if chosen.truncated else ""
        return detail_html(chosen.diff + more, "diff", hunks=True)

    def _question(self) -> str:
        question = self._changes.question
        return question.words if question is not None else ""

    def _reverting(self) -> bool:
        """The question is about one part of a file (else a restore)."""
        question = self._changes.question
        return question is not None and question.hunk >= 0

    def _undo_words(self) -> str:
        return self._changes.undo_words if self._changes.undo_id else ""

    def _restorable(self) -> bool:
        scope = self._chosen()
        return scope is not None and bool(scope.from_id)

    def _running(self) -> bool:
        session = self._state.session(self._changes.session_id)
        return session is not None and session.running

    # --- what QML asks ----------------------------------------------------------------------

    @Slot(str, int)
    def open(self, step: str, revision: int) -> None:
        """Opened on the shown session; on the step `step`, or the interval of the
        checklist's `revision`, when given."""
        self._scope, self._file = 0, 0
        self._wanted = f"Step: {step}" if step else f"Revision {revision}" if revision else ""
        self._ask(it.OpenChanges(step, revision))

    @Slot(str)
    def ask(self, step: str) -> None:
        """The window is asked to open the view on the step `step`."""
        self.asked.emit(step, 0)

    @Slot()
    def close(self) -> None:
        self._ask(it.CloseChanges())

    @Slot(int)
    def chooseScope(self, index: int) -> None:
        if index != self._scope and 0 <= index < len(self._changes.scopes):
            self._scope, self._file = index, 0
            self._show_files()

    @Slot(int)
    def chooseFile(self, index: int) -> None:
        if index != self._file:
            self._file = index
            self.changed.emit()

    @Slot(bool)
    def askRestore(self, file: bool) -> None:
        """Ask before restoring the folder (or the chosen file) to before the chosen
        scope; the question (`question`) names every file that will change."""
        scope, chosen = self._chosen(), self._chosen_file()
        if scope is None or not scope.files or not scope.from_id:  # a branch: merged instead
            return
        if not file:
            self._ask(it.AskRestore(scope.from_id, scope.title))
        elif chosen is not None:
            paths = (chosen.path, chosen.old_path) if chosen.old_path else (chosen.path,)
            self._ask(it.AskRestore(scope.from_id, scope.title, paths))

    @Slot()
    def confirmRestore(self) -> None:
        asked = self._changes.question
        if asked is not None and asked.hunk >= 0 and asked.paths:
            self._ask(it.RevertHunk(asked.checkpoint_id, asked.to_id, asked.paths[0], asked.hunk))
        elif asked is not None:
            self._ask(it.Restore(asked.checkpoint_id, asked.paths))

    @Slot()
    def dropQuestion(self) -> None:
        if self._changes.question is not None:
            self._ask(it.DropRestoreQuestion())

    @Slot(int)
    def revertHunk(self, hunk: int) -> None:
        """Ask before undoing the `hunk`-th part (from 0) of the chosen file's change in
        the file, as before any restore."""
        scope, chosen = self._chosen(), self._chosen_file()
        if scope is None or not scope.from_id or chosen is None or hunk < 0:
            return
        words = (
            f"Revert part {hunk + 1} of {chosen.path}? Its lines go back to how they were"
            f" before “{scope.title}”; the rest of the file stays as it is. You can undo it."
        )
        asked = RestoreQuestion(scope.from_id, (chosen.path,), words, hunk, scope.to_id)
        self._ask(ev.ChangesShown(self._changes._replace(question=asked)))

    @Slot()
    def undo(self) -> None:
        if self._changes.undo_id:
            self._ask(it.Restore(self._changes.undo_id))

    def _scopes(self) -> ChangeRowModel:
        return self.scope_model

    def _files(self) -> ChangeRowModel:
        return self.file_model

    scopes = Property(ChangeRowModel, _scopes, constant=True)
    files = Property(ChangeRowModel, _files, constant=True)
    isOpen = Property(bool, _is_open, notify=changed)
    note = Property(str, _note, notify=changed)
    scopeIndex = Property(int, _scope_index, notify=changed)
    fileIndex = Property(int, _file_index, notify=changed)
    diffHtml = Property(str, _diff_html, notify=changed)
    question = Property(str, _question, notify=changed)
    reverting = Property(bool, _reverting, notify=changed)
    undoWords = Property(str, _undo_words, notify=changed)
    running = Property(bool, _running, notify=changed)
    restorable = Property(bool, _restorable, notify=changed)  # a branch's scope is merged
