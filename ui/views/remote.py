"""The remote session dialog: the endpoint's problem as typed, the sessions a host has,
and attaching one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from ui.views.rows import RemoteChoiceModel, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class RemoteView(QObject):
    choicesChanged = Signal()
    folderChecked = Signal()  # a folder typed for a session there was checked there

    def __init__(
        self,
        state: AppState,
        ask: Ask,
        problem: Callable[[str], str],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        state.subscribe(self._changed)
        self._problem = problem
        self.model = RemoteChoiceModel(self)

    def _changed(self, event: ev.Event, change: Change) -> None:
        if isinstance(event, ev.RemoteFolderChecked):
            self.folderChecked.emit()
        elif store.REMOTE_CHOICES in change:
            self.model.set_rows(list(self._state.remote_choices))
            self.choicesChanged.emit()

    def _choices(self) -> RemoteChoiceModel:
        return self.model

    def _note(self) -> str:
        return self._state.remote_choices_note

    choices = Property(RemoteChoiceModel, _choices, constant=True)
    note = Property(str, _note, notify=choicesChanged)

    @Slot(result="QStringList")
    def agentNames(self) -> list[str]:
        """The agents a new session there may run on: Nib's own first, then those the
        host's own settings name (listed with its sessions)."""
        return ["nib", *self._state.remote_agents]

    @Slot(str, result=str)
    def problem(self, endpoint: str) -> str:
        """What is wrong with a remote endpoint as typed, or "" if nothing."""
        return self._problem(endpoint)

    @Slot(str, str)
    def checkFolder(self, endpoint: str, folder: str) -> None:
        """The folder typed for a new session at `endpoint`, checked on that host."""
        from nib_desktop.state.folder_intents import CheckRemoteFolder

        if endpoint.strip() and folder.strip() and not self._problem(endpoint):
            self._ask(CheckRemoteFolder(endpoint.strip(), folder.strip()))

    @Slot(str, str, result="QVariantMap")
    def folderCheck(self, endpoint: str, folder: str) -> dict[str, object]:
        """What that host said of `folder` (`problem` in words, `sure`, `repository`),
        once it has; all empty until then, or for another folder."""
        told = self._state.remote_folder
        if told is None or (told.endpoint, told.folder) != (endpoint.strip(), folder.strip()):
            return {"problem": "", "sure": False, "repository": True}
        return {"problem": told.problem, "sure": told.sure, "repository": told.repository}

    @Slot(str)
    def list(self, endpoint: str) -> None:
        """The sessions the host at `endpoint` has, into `choices` ("": none)."""
        self._ask(it.ListRemoteSessions(endpoint))

    @Slot(str, str, str, str, bool)
    def attach(
        self, endpoint: str, remote_session_id: str, agent: str, folder: str, worktree: bool
    ) -> None:
        """Attach `remote_session_id` there, or with "" make a session there on `agent`
        ("nib": Nib's own) in `folder`, in a new worktree of it if `worktree`."""
        agent = "" if agent == "nib" else agent
        self._ask(it.AttachRemote(endpoint, remote_session_id, agent, folder, worktree))
