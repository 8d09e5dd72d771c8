"""One configured ACP agent's process (contract section 15): started on the first turn
that needs it and again after it exits, its connection through the SDK's
`ClientSideConnection` over `LineTransport`, the agent's updates routed to the session's
recorder, its permission requests made approvals, and what makes it be disconnected."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from acp import RequestError
from acp.client.connection import ClientSideConnection
from acp.schema import (
    AuthCapabilities,
    ClientCapabilities,
    Implementation,
    PlanCapabilities,
)
from pydantic import ValidationError

from host.acp.config import AgentConfig, not_installed
from host.acp.controls import CONTROL_UPDATES, MAX_ENTRIES, MAX_TEXT
from host.acp.permissions import MAX_NAME, SdkClient
from host.acp.recorder import Recorder, late_plan
from host.acp.trace import Trace
from host.acp.transport import MAX_AGENT_LINE, AgentBroken, LineTransport
from host.acp.updates import read_update
from host.protocol import models as m
from host.protocol.appinfo import app_version
from host.protocol.text import shorten
from host.sessions.service import SessionService
from host.store.errors import StorageFailure

if TYPE_CHECKING:
    from host.tools.approvals import Approvals

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
STOP_GRACE_S = 2.0  # after stdin closes, before SIGTERM, and again before SIGKILL
GROUP_POLL_S = 0.05  # how often a stopped agent's group is looked at until it is empty
# the minimal base an agent's configured env goes over: never the host's token, the
# remote token or the model key (contract section 15)
BASE_ENV = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "TMPDIR")


class Owner(Protocol):
    """What a process needs of the agents it is one of."""

    sessions: SessionService

    def changed(self) -> None: ...
    def running(self, session_id: str) -> Recorder | None: ...
    def told(self, process: AgentProcess, session_id: str, update: dict[str, Any]) -> None: ...
    def dropped(self, session_id: str, what: object, exc: Exception) -> None: ...
    def approvals(self) -> Approvals: ...


class AgentFailure(Exception):
    """The turn cannot go on, for the reason in words."""


def agent_env(configured: dict[str, str]) -> dict[str, str]:
    env = {key: os.environ[key] for key in BASE_ENV if key in os.environ}
    env.update(configured)
    return env


EARLY_UPDATES = 200  # held while a session/new is unanswered; more is a broken agent
EARLY_BYTES = 4 * 1024 * 1024  # ...and at most this much of them (their JSON)


class AgentProcess:
    """One configured agent's process and its connection."""

    def __init__(self, config: AgentConfig, agents: Owner) -> None:
        self.config = config
        self.agents = agents
        self.state: m.AgentState = "idle"
        self.error: str | None = None
        self.info: m.AgentInfo | None = None
        self.load_session = False
        self.list_sessions = False  # section 20: session/list
        self.resume_session = False
        self.fork_session = False  # it offers session/fork (ACP, unstable)
        self.auth_methods: list[str] = []  # their names
        self.auth: tuple[m.AuthInfo, ...] = ()  # as section 17 tells them
        self._late_told: set[str] = set()  # sessions told of a plan after their turn
        self.prompt_kinds = m.PromptKinds()  # what a prompt may hold beside text
        self.conn: ClientSideConnection | None = None
        self.owned: dict[str, str] = {}  # agent-side session id -> Nib session id
        # updates for a session id not known yet, while a session/new is unanswered:
        # an agent may send them before its answer (or the answer's waiter runs after
        # them); they are replayed once the session is known
        self._opening = 0
        self._early: list[Any] = []
        self._early_bytes = 0
        self._process: asyncio.subprocess.Process | None = None
        self._stderr: deque[str] = deque(maxlen=20)
        self._trace: Trace | None = None  # its traffic, where NIB_ACP_TRACE asks for it
        self._tasks: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self._broken: str | None = None
        self._stop_reason: str | None = None  # why it was stopped, told to its turns
        self.outdated = False  # its settings changed while it ran: started again later
        self._stopping = False

    @property
    def name(self) -> str:
        return self.config.name

    def entry(self) -> m.AgentEntry:
        """As `agents.list` tells it: one whose command cannot be found is failed before
        it is ever started (the New menu says so before it is picked)."""
        if self.state == "idle" and self.config.problem:
            return m.AgentEntry(
                name=self.name,
                command=self.config.command,
                state="failed",
                error=self.config.problem,
                agent_info=None,
            )
        return m.AgentEntry(
            name=self.name,
            command=self.config.command,
            state=self.state,
            error=self.error,
            agent_info=self.info,
        )

    def _set(self, state: m.AgentState, error: str | None = None) -> None:
        if (state, error) != (self.state, self.error):
            self.state, self.error = state, error
            self.agents.changed()

    # --- start and stop ------------------------------------------------------------------

    async def ensure_started(self) -> ClientSideConnection:
        async with self._lock:
            if self.conn is not None and self.state == "ready":
                return self.conn
            entry = self.config.entry
            if entry is None:
                raise AgentFailure(f"{self.name}: {self.config.problem}")
            if self.config.problem:  # its command cannot be found
                raise self._failed(self.config.problem)
            self._set("starting")
            self._broken, self._stopping, self._stop_reason = None, False, None
            self._stderr.clear()
            try:  # stopped meanwhile, asyncio ends the process it was starting
                process = await asyncio.create_subprocess_exec(
                    entry.command,
                    *entry.args,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                    env=agent_env(entry.env),
                    cwd=str(Path.home()),
                    limit=MAX_AGENT_LINE + 1,
                    start_new_session=True,
                )
            except asyncio.CancelledError:
                self._set("idle")
                raise
            except FileNotFoundError:
                raise self._failed(not_installed(entry)) from None
            except OSError as exc:
                raise self._failed(f"{entry.command!r} could not be started: {exc}") from None
            assert process.stdout is not None and process.stdin is not None
            self._process = process
            self._trace = Trace.open(self.name, process.pid)
            transport = LineTransport(
                process.stdout, process.stdin, self._update, self.break_off, self._trace
            )
            conn = ClientSideConnection(SdkClient(self), transport)  # type: ignore[arg-type]
            self._watch(self._read_stderr(process))
            self._watch(self._wait_exit(process))
            try:
                answer = await asyncio.wait_for(
                    conn.initialize(
                        protocol_version=PROTOCOL_VERSION,
                        # plan_update and plan_removed (ACP, unstable): told in the transcript
                        # and sign-in methods that run in a terminal (the window opens one)
                        client_capabilities=ClientCapabilities(
                            plan=PlanCapabilities(), auth=AuthCapabilities(terminal=True)
                        ),
                        client_info=Implementation(
                            name="nib-desktop", title="Nib Desktop", version=app_version()
                        ),
                    ),
                    entry.timeout,
                )
            except TimeoutError:
                await self._kill(process)
                why = f"it did not answer initialize within {entry.timeout:g} s"
                raise self._failed(why) from None
            except (ConnectionError, RequestError) as exc:
                await self._kill(process)
                raise self._failed(await self.gone_reason(exc)) from None
            except asyncio.CancelledError:  # the turn was stopped while the agent started
                await asyncio.shield(self._kill(process))
                self._set("idle")
                raise
            info = answer.agent_info
            # its words bounded: a name of megabytes is not drawn in every view that names it
            self.info = (
                None
                if info is None
                else m.AgentInfo(
                    name=shorten(info.name, MAX_NAME), version=shorten(info.version, MAX_NAME)
                )
            )
            caps = answer.agent_capabilities
            self.load_session = bool(caps is not None and caps.load_session)
            sessions = caps.session_capabilities if caps is not None else None
            self.fork_session = bool(sessions is not None and sessions.fork is not None)
            self.list_sessions = bool(sessions is not None and sessions.list is not None)
            self.resume_session = bool(sessions is not None and sessions.resume is not None)
            self.auth_methods = [method.name for method in answer.auth_methods or ()]
            self.auth = tuple(
                m.AuthInfo(
                    id=shorten(str(getattr(a, "id", "")), MAX_TEXT),
                    name=shorten(str(getattr(a, "name", "")), MAX_TEXT),
                    description=shorten(str(getattr(a, "description", "") or ""), MAX_TEXT),
                    terminal=self._in_terminal(a, entry),
                )
                for a in (answer.auth_methods or ())[:MAX_ENTRIES]
            )
            kinds = caps.prompt_capabilities if caps is not None else None
            self.prompt_kinds = m.PromptKinds(
                image=bool(kinds and kinds.image),
                audio=bool(kinds and kinds.audio),
                embedded_context=bool(kinds and kinds.embedded_context),
            )
            self.conn = conn
            self._set("ready")
            return conn

    def _failed(self, why: str) -> AgentFailure:
        self.conn = None
        self._set("failed", why)
        return AgentFailure(why)

    def _watch(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read_stderr(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        while True:
            try:
                line = await process.stderr.readline()
            except ValueError:  # a line over the stream's limit: skip what was read
                continue
            if not line:
                return
            text = line.decode("utf-8", "replace").strip()
            if text:
                self._stderr.append(shorten(text, 500))
                if self._trace is not None:
                    self._trace.write("!", line)
                log.debug("agent %s: %s", self.name, text)

    async def _wait_exit(self, process: asyncio.subprocess.Process) -> None:
        code = await process.wait()
        if process is not self._process:
            return
        self.owned.clear()
        conn, self.conn = self.conn, None
        if conn is not None:
            await conn.close()
        if self._stopping and self._broken is None:
            self._set("idle")
        elif self.state != "failed":
            self._set("failed", await self.gone_reason(None, code))

    async def gone_reason(self, exc: BaseException | None, code: int | None = None) -> str:
        """Why the agent cannot be talked to: what it broke, else its last standard-error
        line and exit status."""
        if self._broken is not None:
            return f"disconnected: {self._broken}"
        if self._stop_reason is not None:
            return self._stop_reason
        process = self._process
        if process is not None and code is None:
            with contextlib.suppress(TimeoutError):
                code = await asyncio.wait_for(process.wait(), STOP_GRACE_S)
        if isinstance(exc, RequestError):
            return f"it answered an error: {exc}"
        last = self._stderr[-1] if self._stderr else None
        if code is None:
            return f"it closed its connection{f': {last}' if last else ''}"
        status = f"exit status {code}" if code >= 0 else f"signal {-code}"
        return f"it exited ({status}){f': {last}' if last else ''}"

    def break_off(self, why: str) -> None:
        """The agent sent what the host will not read: say so and disconnect it."""
        if self._broken is None:
            self._broken = why
            log.warning("agent %s disconnected: %s", self.name, why)
            self._set("failed", f"disconnected: {why}")
            if self._process is not None:
                self._watch(self._kill(self._process))

    async def _kill(self, process: asyncio.subprocess.Process) -> None:
        """Ask the agent to exit (its input closes), then its whole process group; what
        it started in its group ends with it even when it exits at once."""
        self._stopping = True
        if process.stdin is not None and not process.stdin.is_closing():
            process.stdin.close()
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), STOP_GRACE_S)
                break
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, sig)
        await process.wait()
        await end_group(process.pid)

    async def stop(self, reason: str | None = None) -> None:
        """The agent ended; its running turns end with `reason` where one is given."""
        self._stop_reason = reason
        if self._process is not None and self._process.returncode is None:
            await self._kill(self._process)
        elif self._process is not None:
            await end_group(self._process.pid)  # it exited; its children may not have
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks))

    # --- from the agent ----------------------------------------------------------------

    def _update(self, params: Any) -> None:
        if not isinstance(params, dict) or not isinstance(params.get("update"), dict):
            raise AgentBroken("it sent a session/update without an update")
        session_id = self.owned.get(str(params.get("sessionId")))
        if session_id is None and self._opening and len(self._early) < EARLY_UPDATES:
            self._early_bytes += len(json.dumps(params))
            if self._early_bytes > EARLY_BYTES:
                raise AgentBroken("it sent over 4 MiB of updates for a session not opened yet")
            self._early.append(params)
            return
        if session_id is None:
            raise AgentBroken("it sent updates for a session it does not own")
        update = params["update"]
        if update.get("sessionUpdate") in CONTROL_UPDATES:  # section 17: kept, not stored
            self.agents.told(self, session_id, update)
            return
        recorder = self.agents.running(session_id)
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
                late_plan(self.agents.sessions, session_id)
        except ValidationError as exc:  # a kind the transcript keeps, sent malformed
            self.agents.dropped(session_id, "updates", exc)
        except StorageFailure:
            log.exception("an update of agent %s could not be stored", self.name)

    def adopt(self, agent_session: str, nib_session: str) -> None:
        """The agent's session is this Nib session's: the updates it sent for it before
        the answer are taken now, in their order."""
        self.owned[agent_session] = nib_session
        early, self._early = self._early, []
        self._early_bytes = 0  # what stays held is counted again below
        for params in early:
            if params.get("sessionId") != agent_session:
                self._early.append(params)
                self._early_bytes += len(json.dumps(params))
                continue
            try:
                self._update(params)
            except AgentBroken as exc:
                self.break_off(str(exc))
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
                self.break_off("it sent updates for a session it does not own")

    @staticmethod
    def _in_terminal(method: Any, entry: Any) -> m.TerminalSignIn | None:
        """A `terminal` sign-in method as the window runs it: the agent's configured
        command and arguments, then the method's, with its environment and the method's
        (bounded, valid text)."""
        if getattr(method, "type", None) != "terminal":
            return None
        extra = [shorten(str(x), MAX_TEXT) for x in (getattr(method, "args", None) or ())][:50]
        given = getattr(method, "env", None) or {}
        added = {
            **entry.env,
            **{shorten(str(k), 200): shorten(str(v), MAX_TEXT) for k, v in given.items()},
        }
        return m.TerminalSignIn(command=(entry.command, *entry.args, *extra), env=added)


async def end_group(pgid: int) -> None:
    """The processes left in an agent's group (it runs as its group's leader): SIGTERM,
    then SIGKILL after STOP_GRACE_S. A group has nothing to wait on, so it is looked at
    every GROUP_POLL_S until it is empty."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            return  # empty: nothing is left
        deadline = time.monotonic() + STOP_GRACE_S
        while time.monotonic() < deadline:
            await asyncio.sleep(GROUP_POLL_S)
            try:
                os.killpg(pgid, 0)
            except (ProcessLookupError, PermissionError):
                return
