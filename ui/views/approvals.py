"""Tool calls waiting for the user: the one the composer shows (the shown session's
oldest) and how many wait elsewhere."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtQml import QmlElement

from nib_desktop.state import rich, store
from nib_desktop.state.lazy import events as ev, intents as it
from nib_desktop.state.store import AppState, Change
from nib_desktop.state.tool_types import Approval
from ui.views.rows import qml_uncreatable

if TYPE_CHECKING:
    from nib_desktop.state.intents import Ask

MAX_ASKED_LINES = 400  # of a diff shown in the approval row (it scrolls), then how many more
MAX_PLAN_CHARS = 20_000  # of a plan to approve, rendered

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@qml_uncreatable("made by the views")
class ApprovalsView(QObject):
    changed = Signal()
    announced = Signal(str)  # said to assistive technology when a call waits here

    def __init__(self, state: AppState, ask: Ask, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state, self._ask = state, ask
        self._version = 0
        state.subscribe(self._changed)

    def _changed(self, event: ev.Event, change: Change) -> None:
        if not ({store.APPROVALS, store.CURRENT, store.SESSIONS} & change.aspects):
            return
        if isinstance(event, ev.ApprovalRequested) and event.approval.session_id == (
            self._state.current
        ):
            self.announced.emit(f"{event.approval.tool} waits for your approval")
        self._version += 1
        self.changed.emit()

    def _shown(self) -> Approval | None:
        shown = self._state.current
        return next((a for a in self._state.approvals if a.session_id == shown), None)

    def _id(self) -> str:
        waiting = self._shown()
        return waiting.approval_id if waiting else ""

    def _tool(self) -> str:
        waiting = self._shown()
        return waiting.tool if waiting else ""

    def _arguments(self) -> str:
        waiting = self._shown()
        return waiting.arguments if waiting else ""

    def _detail_html(self) -> str:
        """What the call shown would do (its diff, its command) as the window's rich
        text, made from escaped text; "" when its arguments say it all."""
        waiting = self._shown()
        if waiting is None or not waiting.detail:
            return ""
        if waiting.detail_kind == "markdown":  # a plan: rendered, as an agent's message is
            from nib_desktop.state import markdown

            return markdown.to_html(waiting.detail[:MAX_PLAN_CHARS])
        return rich.detail_html(waiting.detail, waiting.detail_kind, MAX_ASKED_LINES)

    def _detail_markdown(self) -> bool:
        """Whether the detail is a plan, rendered (drawn in the text's font, not code's)."""
        waiting = self._shown()
        return waiting is not None and waiting.detail_kind == "markdown"

    def _agent_asks(self) -> bool:
        waiting = self._shown()
        return waiting is not None and bool(waiting.options)

    def _elsewhere(self) -> int:
        shown = self._state.current
        return sum(1 for a in self._state.approvals if a.session_id != shown)

    def _others(self) -> list[str]:
        """The other sessions with a call waiting, oldest call first, each once."""
        shown = self._state.current
        return list(
            dict.fromkeys(a.session_id for a in self._state.approvals if a.session_id != shown)
        )

    def _elsewhere_text(self) -> str:
        """The footer's words for calls waiting in other sessions, naming the session."""
        others = self._others()
        if not others:
            return ""
        session = self._state.session(others[0])
        title = session.title if session is not None else "another session"
        count = self._elsewhere()
        calls = "A tool call waits" if count == 1 else f"{count} tool calls wait"
        where = f"“{title}”" + ("" if len(others) == 1 else f" and {len(others) - 1} more")
        return f"{calls} for you in {where} · Alt+Y, Alt+A, Alt+S or Alt+N goes there"

    def _get_version(self) -> int:
        return self._version

    approvalId = Property(str, _id, notify=changed)
    tool = Property(str, _tool, notify=changed)
    arguments = Property(str, _arguments, notify=changed)
    detailHtml = Property(str, _detail_html, notify=changed)
    detailMarkdown = Property(bool, _detail_markdown, notify=changed)
    agentAsks = Property(bool, _agent_asks, notify=changed)
    elsewhere = Property(int, _elsewhere, notify=changed)
    elsewhereText = Property(str, _elsewhere_text, notify=changed)
    # bumped at every change: a binding on `waits(id)` reads it to be evaluated again
    version = Property(int, _get_version, notify=changed)

    @Slot(str, result=bool)
    def waits(self, session_id: str) -> bool:
        """Whether a tool call in `session_id` waits for the user."""
        return any(a.session_id == session_id for a in self._state.approvals)

    @Slot()
    def goToWaiting(self) -> None:
        """Show the session whose call has waited longest."""
        others = self._others()
        if others:
            self._ask(ev.SessionShown(others[0]))

    @Slot(result="QVariantList")
    def options(self) -> list[dict[str, str | bool]]:
        """The agent's own answers to the call shown, as it named them, each with the
        decision of the key that picks it ("" for none): none for an MCP or plugin tool,
        which is offered Nib's three decisions."""
        waiting = self._shown()
        if waiting is None:
            return []
        keyed: dict[str, str] = {}  # the option each key picks -> that key's decision
        for decision, kinds in _KINDS.items():
            option = waiting.option(kinds)
            if option is not None:
                keyed.setdefault(option.option_id, decision)
        # the one drawn as the default: the least an allowing answer gives (this call
        # once), never a lasting or sweeping one, whatever the agent listed first
        once = next((o.option_id for o in waiting.options if o.kind == "allow_once"), "")
        return [
            {
                "optionId": o.option_id,
                "name": o.name,
                "kind": o.kind,
                "key": keyed.get(o.option_id, ""),
                "primary": o.option_id == once,
            }
            for o in waiting.options
        ]

    @Slot(str)
    def respond(self, decision: str) -> None:
        """Decide the call shown by a key: allow_once, allow_session, allow_always or
        deny. An agent's call is answered with its own option of that kind (allow_always:
        its lasting one, as it scopes it); allow_session is Nib's for MCP and plugin
        tools and never picks an agent's option. With none here and one waiting in
        another session, go there first (the key never answers a call the user has not
        seen)."""
        waiting = self._shown()
        if waiting is None:
            self.goToWaiting()
        elif not waiting.options:
            if decision != "allow_always":
                self._ask(it.Answer(waiting.approval_id, decision))
        else:
            option = waiting.option(_KINDS.get(decision, ()))
            if option is not None:
                self.pick(option.option_id)

    @Slot(str)
    def pick(self, option_id: str) -> None:
        """Answer the call shown with the agent's option `option_id`."""
        waiting = self._shown()
        option = (
            next((o for o in waiting.options if o.option_id == option_id), None)
            if (waiting is not None)
            else None
        )
        if waiting is not None and option is not None:
            self._ask(it.Answer(waiting.approval_id, option.decision, option.option_id))


# a key's decision -> the kinds of the agent's options it picks, the closest first
_KINDS = {
    "allow_once": ("allow_once",),
    "allow_always": ("allow_always",),
    "deny": ("reject_once", "reject_always"),
}
