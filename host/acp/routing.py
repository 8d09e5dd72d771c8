"""One agent's `session/update`s to where they go: by the agent-side session it owns, to
the controls (modes, options, commands, usage), or typed (`updates.py`) to the running
turn's recorder; a plan after the turn is told once. Updates for a session whose
`session/new` is unanswered are held, as their JSON text, until it is known."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import ValidationError

from host.acp.controls import CONTROL_UPDATES
from host.acp.recorder import late_plan
from host.acp.transport import AgentBroken
from host.acp.updates import read_update
from host.store.errors import StorageFailure

if TYPE_CHECKING:
    from host.acp.recorder import Recorder
    from host.sessions.service import SessionService

log = logging.getLogger(__name__)

EARLY_UPDATES = 200  # held while a session/new is unanswered; more is a broken agent
EARLY_BYTES = 4 * 1024 * 1024  # ...and at most this much of them (their JSON text)


class Recorders(Protocol):
    sessions: SessionService

    def running(self, session_id: str) -> Recorder | None: ...
    def dropped(self, session_id: str, what: object, exc: Exception) -> None: ...


class Process(Protocol):
    """What routing needs of the agent's process."""

    @property
    def name(self) -> str: ...
    @property
    def agents(self) -> Recorders: ...
    def break_off(self, why: str) -> None: ...
    def controls_told(self, session_id: str, update: dict[str, Any]) -> None: ...


class Routing:
    def __init__(self, process: Process) -> None:
        self._process = process
        self.owned: dict[str, str] = {}  # agent-side session id -> Nib session id
        # agent-side sessions opened empty and not prompted yet: the first prompt still
        # carries the checklist (and a fork's conversation) though they were opened ahead
        self.unprompted: set[str] = set()
        # Nib sessions whose agent-side session is being loaded with no turn running: the
        # agent's replay of the history is not stored again, nor told as a late plan
        self.quiet: set[str] = set()
        self._late_told: set[str] = set()  # sessions told of a plan after their turn
        # updates for a session id not known yet, while a session/new is unanswered: an
        # agent may send them before its answer (or the answer's waiter runs after them);
        # replayed once the session is known. Held as their JSON text (agent session id,
        # text), so what is held is what is counted: parsed, 4 MiB of dense JSON (many
        # small objects) took over 150 MB
        self._opening = 0
        self._early: list[tuple[str, str]] = []
        self._early_bytes = 0

    def update(self, params: Any) -> None:
        if not isinstance(params, dict) or not isinstance(params.get("update"), dict):
            raise AgentBroken("it sent a session/update without an update")
        agent_session = str(params.get("sessionId"))
        session_id = self.owned.get(agent_session)
        if session_id is None and self._opening and len(self._early) < EARLY_UPDATES:
            text = json.dumps(params, ensure_ascii=False)
            self._early_bytes += len(text)
            if self._early_bytes > EARLY_BYTES:
                raise AgentBroken("it sent over 4 MiB of updates for a session not opened yet")
            self._early.append((agent_session, text))
            return
        if session_id is None:
            raise AgentBroken("it sent updates for a session it does not own")
        self._route(session_id, params["update"])

    def _route(self, session_id: str, update: dict[str, Any]) -> None:
        agents = self._process.agents
        if update.get("sessionUpdate") in CONTROL_UPDATES:  # section 17: kept, not stored
            self._process.controls_told(session_id, update)
            return
        if session_id in self.quiet:
            return
        recorder = agents.running(session_id)
        try:
            if recorder is not None:
                self._late_told.discard(session_id)
                told = read_update(update)
                if told is not None:
                    recorder.update(told)
            elif update.get("sessionUpdate") in ("plan", "plan_update") and (
                session_id not in self._late_told  # told once until its next turn, not a
            ):  # line for each of thousands
                self._late_told.add(session_id)
                late_plan(agents.sessions, session_id)
        except ValidationError as exc:  # a kind the transcript keeps, sent malformed
            agents.dropped(session_id, "updates", exc)
        except StorageFailure:
            log.exception("an update of agent %s could not be stored", self._process.name)

    def adopt(self, agent_session: str, nib_session: str) -> None:
        """The agent's session is this Nib session's: the updates it sent for it before
        the answer are taken now, in their order."""
        self.owned[agent_session] = nib_session
        early, self._early = self._early, []
        self._early_bytes = 0  # what stays held is counted again below
        for held_for, text in early:
            if held_for != agent_session:
                self._early.append((held_for, text))
                self._early_bytes += len(text)
                continue
            try:
                self.update(json.loads(text))
            except AgentBroken as exc:
                self._process.break_off(str(exc))
                return

    @contextlib.contextmanager
    def opening(self) -> Iterator[None]:
        """While a session/new is unanswered: updates for a session id not known yet are
        held (see `adopt`). Once none is left unanswered, an update still held was for a
        session nobody opened: a broken agent."""
        self._opening += 1
        try:
            yield
        finally:
            self._opening -= 1
            if not self._opening and self._early:
                self._early.clear()
                self._early_bytes = 0
                self._process.break_off("it sent updates for a session it does not own")
