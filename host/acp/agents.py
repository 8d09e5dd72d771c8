"""The configured ACP agents (contract section 15): one process per agent (`process.py`),
several sessions on each, and the turns on them (`turn.py`), ended here whatever happens."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp import RequestError

from host.acp import attachments as attached
from host.acp.config import check_agent, load_agents
from host.acp.controls import Controls, Unusable, bounded, modes_of, options_of, updated
from host.acp.process import AgentFailure, AgentProcess
from host.acp.recorder import Recorder
from host.acp.turn import AgentTurn
from host.events import Publisher
from host.execution_path import ExecutionContext, ExecutionPath
from host.protocol import errors, methods as rpc, models as m
from host.sessions.service import SessionService
from host.store.errors import StorageFailure
from host.todos.service import TodoService
from host.tools.asks import Asks

if TYPE_CHECKING:
    from host.tools.approvals import Approvals

log = logging.getLogger(__name__)

Attachments = tuple[m.FileAttachment | m.ImageAttachment, ...]

_WHAT = {"current_mode_update": "mode changes", "config_option_update": "options",
         "available_commands_update": "commands", "usage_update": "usage figures"}  # fmt: skip


class Agents:
    """Every configured agent, the running turns of their sessions, and `agents.list`."""

    def __init__(
        self,
        data_dir: Path | None,
        sessions: SessionService,
        todos: TodoService,
        publisher: Publisher,
        approvals: Callable[[], Approvals],
    ) -> None:
        self._data_dir = data_dir
        self.sessions = sessions
        self._todos = todos
        self._publisher = publisher
        self.approvals = approvals
        self._asks = Asks(publisher)  # forms and URLs an agent asks the user for
        self._processes: dict[str, AgentProcess] = {}
        self._running: dict[str, Recorder] = {}  # Nib session id -> its turn's recorder
        self._said_dropped: dict[str, str | None] = {}  # session id: the turn that was told
        self._stopping: set[asyncio.Future[None]] = set()  # agents removed from settings
        self._ahead: dict[str, asyncio.Task[None]] = {}  # sessions being opened ahead
        self._controls = Controls(lambda c: publisher.publish(rpc.AGENTS_CONTROLS_CHANGED, c))
        self._reload()

    def asks(self) -> Asks:
        return self._asks

    def _reload(self) -> None:
        """Settings are read again whenever agents are listed or a turn starts; a changed
        command is used the next time the agent starts."""
        configs = load_agents(self._data_dir)
        names = {config.name for config in configs}
        for name in [n for n in self._processes if n not in names]:
            gone = self._processes.pop(name)
            if gone.conn is not None:  # its running turns end saying why
                stopped = gone.stop("it was removed from settings.json")
                self._stopping.add(asyncio.ensure_future(stopped))
        for config in configs:
            known = self._processes.get(config.name)
            if known is None:
                self._processes[config.name] = AgentProcess(config, self)
            elif known.config != config:
                known.config = config
                known.outdated = known.conn is not None  # started again at its next turn

    def listing(self) -> m.AgentsList:
        self._reload()
        return m.AgentsList(agents=tuple(p.entry() for p in self._processes.values()))

    def changed(self) -> None:
        """An agent's state changed: told as it stands (the settings are not read again)."""
        listing = m.AgentsList(agents=tuple(p.entry() for p in self._processes.values()))
        self._publisher.publish(rpc.AGENTS_CHANGED, listing)

    def check(self, name: str) -> None:
        """-32602 for an agent a session cannot be created on."""
        self._reload()
        check_agent([p.config for p in self._processes.values()], name)

    def running(self, session_id: str) -> Recorder | None:
        return self._running.get(session_id)

    @property
    def todos(self) -> TodoService:
        return self._todos

    @property
    def publisher(self) -> Publisher:
        return self._publisher

    def process(self, name: str) -> AgentProcess:
        return self._processes[name]

    def replaying(self, session_id: str, replay: Recorder | None) -> None:
        """An import's replay takes the session's updates (None: it ended)."""
        if replay is None:
            self._running.pop(session_id, None)
        else:
            self._running[session_id] = replay

    async def sessions_of(self, params: m.AgentSessionsParams) -> m.AgentSessions:
        from host.acp.importing import listing

        return await listing(self, params)

    async def import_session(self, params: m.ImportParams) -> m.Session:
        from host.acp.importing import import_session

        return await import_session(self, params)

    async def _renew(self, process: AgentProcess, session_id: str, recorder: Recorder) -> None:
        """An agent whose settings changed while it ran is stopped before this turn, so
        the turn starts the new command, and says so; not while another session's turn
        runs on it (then at a later turn)."""
        if not process.outdated or process.conn is None:
            return
        if any(
            self.sessions.get(s).agent == process.name for s in self._running if s != session_id
        ):
            return
        process.outdated = False
        await process.stop()
        recorder.say(
            f"{process.name}'s settings changed in settings.json: it is started again with them"
        )

    async def close(self) -> None:
        for task in list(self._ahead.values()):
            task.cancel()
        processes = list(self._processes.values())
        if processes:
            await asyncio.gather(*(process.stop() for process in processes))
        if self._stopping:
            await asyncio.wait(self._stopping)

    # --- a session opened ahead of its first turn ---------------------------------------

    def open_ahead(self, session_id: str) -> None:
        """The session's agent started and its agent-side session opened now, in the
        background, so what it offers (modes, options, commands) is told before the first
        prompt; nothing when it is open, opening or running a turn. A failure is logged:
        the first prompt tries again and says it in words."""
        process, session = self._agent_session(session_id)
        if process is None or session_id in self._running or session_id in self._ahead:
            return
        if self.sessions.agent_session(session_id) in process.routing.owned:
            return
        task = asyncio.ensure_future(self._opening_ahead(process, session))
        self._ahead[session_id] = task
        task.add_done_callback(lambda _done: self._ahead.pop(session_id, None))

    async def _opening_ahead(self, process: AgentProcess, session: m.Session) -> None:
        driver = AgentTurn(process, self.sessions, self._todos, self._data_dir, self.opened)
        try:
            await driver.open_ahead(session)
        except (AgentFailure, RequestError, StorageFailure) as exc:
            log.info("agent %s did not open session %s ahead: %s", process.name, session.id, exc)
        finally:
            if process.conn is not None:  # what its start told (prompt content, sign-in)
                self._controls.set(self._full(self._controls.of(session.id), process))

    # --- a turn ------------------------------------------------------------------------

    def check_attachments(self, session: m.Session, attachments: Attachments) -> None:
        process = self._processes.get(session.agent)
        started = process is not None and process.conn is not None
        attached.check(
            session, attachments, process.offers.prompt_kinds if started and process else None
        )

    async def ready_for(self, session_id: str) -> None:
        """The session's agent started (its `initialize` answer says what a prompt may
        hold); a start that fails is -32050 in words."""
        process, _session = self._agent_session(session_id)
        if process is None:
            raise errors.InvalidParams("this agent is no longer configured in settings.json")
        try:
            await process.ensure_started()
        except AgentFailure as exc:
            raise errors.AgentRefused(f"{process.name}: {exc}") from None

    async def run(
        self, session: m.Session, turn: m.Turn, text: str, attachments: Attachments = ()
    ) -> None:
        """The turn on the session's agent, ended here whatever happens."""
        ctx = ExecutionContext(session.id, turn.id, ExecutionPath.AGENT)
        recorder = Recorder(self.sessions, self._todos, ctx)
        self._running[session.id] = recorder
        state, error = "completed", None
        try:
            self._reload()
            process = self._processes.get(session.agent)
            if process is None:
                raise AgentFailure("this agent is no longer configured in settings.json")
            await self._renew(process, session.id, recorder)
            driver = AgentTurn(process, self.sessions, self._todos, self._data_dir, self.opened)
            state, error = await driver.prompt(session, recorder, text, attachments)
        except asyncio.CancelledError:
            state, error = "cancelled", None
        except AgentFailure as exc:
            state, error = "failed", f"{session.agent}: {exc}"
        except StorageFailure as exc:
            if exc.reason is None:
                log.exception("turn %s failed in storage", turn.id)
            state, error = "failed", f"storage: {exc.reason or exc.kind}"
        except Exception as exc:
            log.exception("turn %s on agent %s failed", turn.id, session.agent)
            state, error = "failed", f"internal error: {type(exc).__name__}: {exc}"
        finally:
            recorder.close()
            self._running.pop(session.id, None)
            # what its start told (prompt content, sign-in methods), even for a turn
            # that failed before the agent opened the session
            started = self._processes.get(session.agent)
            if started is not None and started.conn is not None:
                self._controls.set(self._full(self._controls.of(session.id), started))
            self.sessions.turns.end(session.id, turn.id, state, error)

    # --- steering an agent's session (section 17) ----------------------------------------

    def _full(self, controls: m.AgentControls, process: AgentProcess | None) -> m.AgentControls:
        if process is None:
            return controls
        return controls.model_copy(
            update={"prompt": process.offers.prompt_kinds, "auth_methods": process.offers.auth}
        )

    def told(self, process: AgentProcess, session_id: str, update: dict[str, Any]) -> None:
        """One of the agent's updates of its modes, options, commands or usage."""
        try:
            controls = updated(self._controls.of(session_id), update)
        except (Unusable, ValueError) as exc:
            self.dropped(session_id, _WHAT.get(str(update.get("sessionUpdate")), "update"), exc)
            return
        self._controls.set(self._full(controls, process))

    def opened(self, process: AgentProcess, session_id: str, answer: Any) -> None:
        """A session/new or session/load answer: the session's modes and options."""
        raw = answer.model_dump(mode="json", by_alias=True, exclude_none=True)
        try:
            change = {
                "modes": modes_of(raw.get("modes")),
                "options": options_of(raw.get("configOptions")),
            }
        except (Unusable, ValueError) as exc:
            self.dropped(session_id, "modes and options", exc)
            change = {}
        held = self._controls.of(session_id).model_copy(update=change)
        try:
            held = bounded(held)
        except Unusable as exc:
            self.dropped(session_id, "modes and options", exc)
            held = self._controls.of(session_id)
        self._controls.set(self._full(held, process))

    def dropped(self, session_id: str, what: object, exc: Exception) -> None:
        """An update the agent sent that could not be used: logged, and said once per
        turn in the transcript (once between two turns), as a note, not an error of the
        user's work."""
        words = exc if isinstance(exc, Unusable) else "a field is not of its form"
        log.warning("dropped %s from session %s: %s", what, session_id, words)
        recorder = self._running.get(session_id)
        turn_id = recorder.ctx.turn_id if recorder is not None else None
        if session_id in self._said_dropped and self._said_dropped[session_id] == turn_id:
            return
        self._said_dropped[session_id] = turn_id
        self.sessions.transcript.append(
            session_id, turn_id, "tool", f"The agent's {what} were not used: {words}"
        )

    def _agent_session(self, session_id: str) -> tuple[AgentProcess | None, m.Session]:
        session = self.sessions.require_local(session_id)
        if session.agent == m.NIB_AGENT:
            raise errors.InvalidParams("this session is Nib's own: it has no agent to steer")
        self._reload()
        return self._processes.get(session.agent), session

    def forget(self, session_id: str) -> None:
        """The session was deleted: what its agent told of it goes too."""
        self._controls.forget(session_id)

    def controls(self, params: m.SessionRef) -> m.AgentControls:
        process, session = self._agent_session(params.session_id)
        return self._full(self._controls.of(session.id), process)

    def _opened_session(self, session_id: str) -> tuple[AgentProcess, str]:
        process, session = self._agent_session(session_id)
        agent_session = self.sessions.agent_session(session.id)
        if process is None or process.conn is None or agent_session not in process.routing.owned:
            raise errors.InvalidParams(
                "the agent has not opened this session yet: send it a message first"
            )
        return process, str(agent_session)

    async def set_mode(self, params: m.SetModeParams) -> m.AgentControls:
        process, agent_session = self._opened_session(params.session_id)
        held = self._controls.of(params.session_id)
        if held.modes is None or params.mode_id not in {x.id for x in held.modes.available}:
            raise errors.InvalidParams(f"the agent offers no mode {params.mode_id!r}")
        assert process.conn is not None
        try:
            await process.conn.set_session_mode(session_id=agent_session, mode_id=params.mode_id)
        except RequestError as exc:
            raise errors.AgentRefused(f"{process.name} refused the mode: {exc}") from None
        now = self._controls.of(params.session_id)
        if now.modes is not None:
            now = now.model_copy(
                update={"modes": now.modes.model_copy(update={"current": params.mode_id})}
            )
        self._controls.set(self._full(now, process))
        return self._full(self._controls.of(params.session_id), process)

    async def set_option(self, params: m.SetOptionParams) -> m.AgentControls:
        process, agent_session = self._opened_session(params.session_id)
        held = self._controls.of(params.session_id)
        option = next((o for o in held.options if o.id == params.option_id), None)
        if option is None:
            raise errors.InvalidParams(f"the agent offers no option {params.option_id!r}")
        if isinstance(params.value, bool) != (option.type == "boolean") or (
            option.type == "select" and params.value not in {c.value for c in option.choices}
        ):
            raise errors.InvalidParams(f"{params.value!r} is not a value of {option.name!r}")
        assert process.conn is not None
        try:
            answer = await process.conn.set_config_option(
                config_id=params.option_id, session_id=agent_session, value=params.value
            )
        except RequestError as exc:
            raise errors.AgentRefused(f"{process.name} refused the option: {exc}") from None
        self.opened_options(process, params.session_id, answer)
        return self._full(self._controls.of(params.session_id), process)

    def opened_options(self, process: AgentProcess, session_id: str, answer: Any) -> None:
        raw = answer.model_dump(mode="json", by_alias=True, exclude_none=True)
        try:
            options = options_of(raw.get("configOptions"))
        except (Unusable, ValueError) as exc:
            self.dropped(session_id, "options", exc)
            return
        held = self._controls.of(session_id).model_copy(update={"options": options})
        self._controls.set(self._full(held, process))

    async def authenticate(self, params: m.AuthenticateParams) -> m.OkResult:
        self._reload()
        process = self._processes.get(params.agent)
        if params.agent == m.NIB_AGENT or process is None:
            raise errors.InvalidParams(f"no agent {params.agent!r} is configured")
        try:
            conn = await process.ensure_started()
        except AgentFailure as exc:
            raise errors.AgentRefused(f"{process.name}: {exc}") from None
        if params.method_id not in {a.id for a in process.offers.auth}:
            raise errors.InvalidParams(f"{process.name} offers no sign-in {params.method_id!r}")
        try:
            await conn.authenticate(method_id=params.method_id)
        except RequestError as exc:
            raise errors.AgentRefused(f"{process.name} refused the sign-in: {exc}") from None
        return m.OkResult()
