"""The composer's input: what it may send, and each session's unsent draft."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import slash, store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from ui.views.rows import ImageModel, qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask


QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class ComposerView(QObject):
    changed = Signal()
    filesChanged = Signal()
    wordsAsked = Signal(str)  # the input takes these words (asking for changes to a plan)

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        self.image_rows = ImageModel(self)
        state.subscribe(self._changed)

    def _changed(self, _event: ev.Event, change: Change) -> None:
        if {store.IMAGES, store.CURRENT} & change.aspects:
            self.image_rows.set_rows(list(self._state.images.get(self._state.current or "", ())))
        shown = {store.QUEUED, store.CURRENT, store.CHECKLIST, store.STEERING, store.AGENTS}
        if shown & change.aspects or store.IMAGES in change:
            self.changed.emit()
        if store.FILES in change:
            self.filesChanged.emit()

    @Slot(str, result=bool)
    def send(self, text: str) -> bool:
        """Send `text` in the session shown (a new one if none is); False, and the text
        stays in the input, when it cannot be sent now."""
        shown = self._state.shown
        command = slash.slash_command(text)
        if slash.for_the_agent(text, self._state.agent_commands(self._state.current)):
            command = None  # the agent's own: sent to it as the message
        if command is not None:  # answered in words by the Main role, whatever the case
            self._ask(it.Send(command))
            return command in slash.COMMANDS  # answered: the input is free again
        if not text.strip() or self._state.connection != "ready":
            return False
        if shown is not None and shown.running:  # goes when the turn completes
            self._ask(it.Queue(text))
            return True
        if shown is not None and not shown.reachable:
            return False
        editing = self._state.editing
        edited = (
            editing is not None and shown is not None and editing.session_id == shown.session_id
        )
        self._ask(it.Resend(text) if edited else it.Send(text))
        return True

    def _queued(self) -> str:
        return self._state.queued.get(self._state.current or "", "")

    def _queued_held(self) -> bool:
        """The queued message waits for the user: its turn ended but did not complete."""
        shown = self._state.shown
        return bool(self._queued()) and shown is not None and not shown.running

    def _agent_commands(self) -> bool:
        """Whether the shown agent session's own "/" commands are known yet (an agent
        tells them once its session is open: at its first prompt, or after a restart)."""
        return bool(self._state.agent_commands(self._state.current))

    def _steering(self) -> str:
        """What the agent offers to steer the session, in words; while its process starts
        (the first prompt, or after a restart), that it is starting."""
        shown = self._state.shown
        agent = next((a for a in self._state.agents if shown and a.name == shown.agent), None)
        if shown is not None and not shown.remote and agent and agent.state == "starting":
            return f"Starting {agent.name}…"
        told = self._state.steering.get(self._state.current or "")
        return told.words() if told else ""

    @Slot(str, str)
    def setOption(self, option_id: str, value: str) -> None:
        """The shown agent session's option `option_id` set to `value`; "" its mode."""
        self._ask(it.Steer(option_id, value))

    def _attachable(self) -> bool:
        """Files may go with a message: an agent session with a folder (a remote one's
        listed by its host while it is linked)."""
        shown = self._state.shown
        return shown is not None and bool(shown.agent and shown.cwd) and shown.reachable

    @Slot(result="QVariantList")
    def files(self) -> list[dict[str, str]]:
        """The files the newest "@" query matched, as completions ("@path"); anew at
        each `filesChanged`."""
        session_id, query, paths = self._state.files_found
        if session_id != self._state.current:
            return []
        what = "a file in the folder"
        return [{"name": "@" + path, "what": what, "query": query} for path in paths]

    @Slot(str)
    def findFiles(self, query: str) -> None:
        """ "@query" typed: the files it matches arrive as `fileMatches`."""
        self._ask(it.FindFiles(query))

    @Slot(result=bool)
    def pasteImage(self) -> bool:
        """An image on the clipboard held to go with the message (True: it was one, and
        the paste is done; a refusal is the notice); False: paste the text as usual."""
        from PySide6.QtCore import QBuffer, QByteArray, QIODevice
        from PySide6.QtGui import QGuiApplication

        clipboard = QGuiApplication.clipboard()
        mime = clipboard.mimeData()
        if mime is None or not mime.hasImage():
            return False
        image = clipboard.image()
        if image.isNull():
            return False
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs want bytes, Qt a str
        encoded = bytes(data.toBase64().data()).decode("ascii")
        self._ask(it.HoldImage("image/png", encoded, data.size()))
        return True

    @Slot(int)
    def dropImage(self, index: int) -> None:
        self._ask(it.DropImage(index))

    def _get_images(self) -> ImageModel:
        return self.image_rows

    def _images_held(self) -> bool:
        return self.image_rows.rowCount() > 0

    images = Property(ImageModel, _get_images, constant=True)
    imagesHeld = Property(bool, _images_held, notify=changed)
    attachable = Property(bool, _attachable, notify=changed)
    agentCommands = Property(bool, _agent_commands, notify=changed)
    steering = Property(str, _steering, notify=changed)
    queuedText = Property(str, _queued, notify=changed)
    queuedHeld = Property(bool, _queued_held, notify=changed)

    @Slot(str, result="QVariantList")
    def completions(self, text: str) -> list[dict[str, str]]:
        """The commands that complete what is typed ("/", "/co"): name, what it does, and
        whose it is (the agent's own, by its name, or Nib's; "" for a file)."""
        theirs = self._state.agent_commands(self._state.current)
        shown = self._state.shown
        agent = shown.agent if shown is not None and shown.agent else ""
        own = {f"/{name}" for name, _ in theirs or ()}
        return [
            {"name": name, "what": what, "whose": agent if name in own else "Nib"}
            for name, what in slash.command_completions(text, theirs)
        ]

    @Slot()
    def cancelQueued(self) -> None:
        self._ask(it.Queue(""))

    @Slot(result=str)
    def takeQueued(self) -> str:
        """The queued message, taken back to be edited."""
        text = self._queued()
        self._ask(it.Queue(""))
        return text

    @Slot()
    def sendQueued(self) -> None:
        self._ask(it.SendQueued())

    @Slot()
    def stop(self) -> None:
        self._ask(it.Stop())

    @Slot(result=bool)
    def escape(self) -> bool:
        """Escape in the input: stops the running turn; else gives up editing an earlier
        message, or dismisses the notice; False when it does none of them."""
        shown = self._state.shown
        if shown is not None and shown.running:
            self.stop()
        elif self._state.editing is not None:
            self._ask(ev.EditingSet(None))
        elif self._state.notice:
            self._ask(ev.NoticeShown(""))
        else:
            return False
        return True

    @Slot(str, str)
    def saveDraft(self, session_id: str, text: str) -> None:
        """Keep the unsent `text` of a session ("": the input with no session shown)."""
        self._ask(ev.DraftSaved(session_id, text))

    @Slot(str, str, str, result=str)
    def swapDraft(self, left: str, shown: str, text: str) -> str:
        """What the input shows as it goes from session `left` to `shown` ("": none)
        holding `text`. A session left keeps its text and the shown one's draft comes
        back. Text typed with no session shown (at launch, before the last session is
        shown again) stays in the input as the shown one's, after its kept draft: nothing
        typed is lost either way."""
        kept = self._state.drafts.get(shown, "")
        if left == shown:
            return text or kept
        if left or not text:
            self._ask(ev.DraftSaved(left, text))
            return kept
        joined = f"{kept}\n{text}" if kept else text
        self._ask(ev.DraftSaved("", ""))
        self._ask(ev.DraftSaved(shown, joined))
        return joined

    @Slot(str, result=str)
    def draft(self, session_id: str) -> str:
        return self._state.drafts.get(session_id, "")
