"""One configured ACP agent's process (contract section 15): started on the first turn
that needs it and again after it exits, its connection through the SDK's
`ClientSideConnection` over `LineTransport`, the agent's updates routed to the session's
recorder, its permission requests made approvals, and what makes it be disconnected."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from acp import RequestError
from acp.client.connection import ClientSideConnection
from acp.schema import (
    AuthCapabilities,
    ClientCapabilities,
    ElicitationCapabilities,
    ElicitationFormCapabilities,
    ElicitationUrlCapabilities,
    Implementation,
    PlanCapabilities,
)

from host.acp.config import AgentConfig, not_installed
from host.acp.offers import Offers, offers_of
from host.acp.permissions import SdkClient
from host.acp.recorder import Recorder
from host.acp.routing import Routing
from host.acp.trace import Trace
from host.acp.transport import MAX_AGENT_LINE, LineTransport
from host.protocol import models as m
from host.protocol.appinfo import app_version
from host.protocol.text import shorten
from host.sessions.service import SessionService

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


class AgentProcess:
    """One configured agent's process and its connection."""

    def __init__(self, config: AgentConfig, agents: Owner) -> None:
        self.config = config
        self.agents = agents
        self.state: m.AgentState = "idle"
        self.error: str | None = None
        self.offers = Offers()  # what its initialize answer offered
        self.conn: ClientSideConnection | None = None
        # its updates to the transcript, the checklist and the controls, by session
        self.routing = Routing(self)
        self._process: asyncio.subprocess.Process | None = None
        self._stderr: deque[str] = deque(maxlen=20)
        self._trace: Trace | None = None  # its traffic, where NIB_ACP_TRACE asks for it
        self._tasks: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self._opening: dict[str, asyncio.Lock] = {}  # Nib session id -> its opening's lock
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
            agent_info=self.offers.info,
        )

    def _set(self, state: m.AgentState, error: str | None = None) -> None:
        if (state, error) != (self.state, self.error):
            self.state, self.error = state, error
            self.agents.changed()

    def opening(self, session_id: str) -> asyncio.Lock:
        """Held while the session's agent-side session is opened: a prompt waits for an
        opening ahead of it instead of opening a second one."""
        return self._opening.setdefault(session_id, asyncio.Lock())

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
                process.stdout, process.stdin, self.routing.update, self.break_off, self._trace
            )
            # the unstable protocol: elicitation (forms and URLs for the user) is in it
            conn = ClientSideConnection(
                SdkClient(self),  # type: ignore[arg-type]
                transport,
                use_unstable_protocol=True,
            )
            self._watch(self._read_stderr(process))
            self._watch(self._wait_exit(process))
            try:
                answer = await asyncio.wait_for(
                    conn.initialize(
                        protocol_version=PROTOCOL_VERSION,
                        # plan_update and plan_removed (ACP, unstable): told in the transcript
                        # and sign-in methods that run in a terminal (the window opens one)
                        # and forms and URLs for the user (elicitation, unstable)
                        client_capabilities=ClientCapabilities(
                            plan=PlanCapabilities(),
                            auth=AuthCapabilities(terminal=True),
                            elicitation=ElicitationCapabilities(
                                form=ElicitationFormCapabilities(), url=ElicitationUrlCapabilities()
                            ),
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
            self.offers = offers_of(answer, entry)
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
        self.routing.owned.clear()
        self.routing.unprompted.clear()
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

    def controls_told(self, session_id: str, update: dict[str, Any]) -> None:
        """One of its updates of a session's modes, options, commands or usage."""
        self.agents.told(self, session_id, update)

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
