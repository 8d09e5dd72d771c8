"""A deterministic ACP agent on the SDK, for the tests: each prompt's first word says
what it does (see `Scripted.prompt`). Run as `python acp_agent.py [--no-load]
[--silent-init] [--auth] [--early-updates] [--stray-update] [--bad-name] [--state FILE]`.
--bad-name: its agentInfo.name holds a lone surrogate.

--early-updates: a new session's first updates (its commands, a plan of one step) are
sent before the answer to session/new, as real agents may; --stray-update: one update
for a session nobody opened is sent then as well; --early-dense: 3.6 MB of dense JSON in
six updates before the answer (held by the host until it is answered)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import acp
from acp.schema import (
    AgentCapabilities,
    AgentPlanContentUpdate,
    AgentPlanRemovedUpdate,
    AgentPlanUpdate,
    AuthenticateResponse,
    AuthMethodAgent,
    AvailableCommand,
    AvailableCommandInput,
    AvailableCommandsUpdate,
    ConfigOptionUpdate,
    Cost,
    CurrentModeUpdate,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PermissionOption,
    PlanEntry,
    PlanUpdateFile,
    PlanUpdateItems,
    PlanUpdateMarkdown,
    PromptCapabilities,
    PromptResponse,
    SessionConfigOptionSelect,
    SessionConfigSelectOption,
    SessionMode,
    SessionModeState,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
    ToolCallStart,
    ToolCallUpdate,
    UnstructuredCommandInput,
    UsageUpdate,
)

ARGS = sys.argv[1:]
WORDY_ALWAYS = "Yes, and don't ask again for commands that start with `curl x | sh` here"


def _entries(n: int, done: int) -> list[PlanEntry]:
    return [
        PlanEntry(
            content=f"Step {i + 1}",
            priority="medium",
            status="completed" if i < done else "in_progress" if i == done else "pending",
        )
        for i in range(n)
    ]


def _modes(current: str) -> SessionModeState:
    first = [SessionMode(id="auto", name="Auto", description="Edits without asking")]
    return SessionModeState(
        current_mode_id=current,
        available_modes=[
            *(first if "--auto-first" in ARGS else []),
            SessionMode(id="default", name="Default", description="Asks before edits"),
            SessionMode(id="plan", name="Plan", description="Plans, changes nothing"),
            SessionMode(id="refused", name="Refused"),
        ],
    )


def _options(model: str) -> list[Any]:
    # --long-names: a model named at length, as Claude Code's "Default (recommended)" is
    suffix = " (recommended, fastest)" if "--long-names" in ARGS else ""
    choices = [
        SessionConfigSelectOption(value=v, name=v.title() + suffix)
        for v in ("small", "large", "huge")
    ]
    return [
        SessionConfigOptionSelect(
            id="model",
            name="Model",
            category="model",
            type="select",
            current_value=model,
            options=choices,
        )
    ]


# a finished call with a part of an unknown kind, a place without a path and one whose
# line is not a number: read, the part and the bad place left out
ODD_CALL = {
    "sessionUpdate": "tool_call",
    "toolCallId": "odd",
    "title": "Look around",
    "status": "completed",
    "content": [
        {"type": "hologram", "data": "?"},
        {"type": "content", "content": {"type": "text", "text": "looked"}},
    ],
    "locations": [{"line": 3}, {"path": "a.txt", "line": "three"}],
}


BARE_PLAN = {  # ACP's plan entries without their `priority`, as some agents send them
    "sessionUpdate": "plan",
    "entries": [
        {"content": "Read it", "status": "completed"},
        {"content": "Fix it", "status": "in_progress"},
    ],
}


async def _raw(data: bytes) -> None:
    """Bytes straight to standard output, past the SDK (which made it non-blocking)."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(1, view) :]
        except BlockingIOError:
            await asyncio.sleep(0.01)


def _many(sid: str, n: int, chat: bool, told: bool = False) -> bytes:
    """`n` updates as JSON lines: a replay's ("chat": each agent message after a message
    of the user's; else one message of the user's first, then the agent's messages and
    calls), or the same agent updates told live in a turn (`told`: no user message)."""
    updates: list[dict[str, Any]] = []
    if not chat and not told:
        updates.append(_chunk("user_message_chunk", "Do the big task", "u"))
    for i in range(n):
        if len(updates) >= n:
            break
        if chat:
            updates.append(_chunk("user_message_chunk", f"Question {i}", f"u{i}"))
            updates.append(_chunk("agent_message_chunk", f"Answer {i}: " + "words " * 20, f"a{i}"))
            continue
        call = {"toolCallId": f"t{i}", "title": f"Read file{i}.py", "rawInput": {"path": f"f{i}"}}
        updates.append(
            _chunk("agent_message_chunk", f"Reading part {i}. " + "words " * 20, f"a{i}")
        )
        updates.append({"sessionUpdate": "tool_call", "status": "in_progress", **call})
        done = [{"type": "content", "content": {"type": "text", "text": "40 lines"}}]
        finished = {"toolCallId": f"t{i}", "status": "completed", "content": done}
        updates.append({"sessionUpdate": "tool_call_update", **finished})
    lines = [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "session/update",
                "params": {"sessionId": sid, "update": u},
            }
        )
        for u in updates[:n]
    ]
    return ("\n".join(lines) + "\n").encode()


def _chunk(kind: str, text: str, message_id: str) -> dict[str, Any]:
    return {
        "sessionUpdate": kind,
        "content": {"type": "text", "text": text},
        "messageId": message_id,
    }


class Scripted:
    def __init__(self) -> None:
        self.conn: Any = None
        self.cancelled: dict[str, asyncio.Event] = {}
        self.state = Path(ARGS[ARGS.index("--state") + 1]) if "--state" in ARGS else None
        self._late: set[asyncio.Task[None]] = set()
        self.cwds: dict[str, str] = {}
        self.modes: dict[str, str] = {}
        self.models: dict[str, str] = {}

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **given: Any) -> InitializeResponse:
        self.client_capabilities = given.get("client_capabilities")
        if "--silent-init" in ARGS:
            await asyncio.Event().wait()
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(
                load_session="--no-load" not in ARGS and "--resume-only" not in ARGS,
                session_capabilities=acp.schema.SessionCapabilities(
                    list=acp.schema.SessionListCapabilities(),
                    resume=acp.schema.SessionResumeCapabilities()
                    if "--resume-only" in ARGS
                    else None,
                )
                if "--sessions" in ARGS or "--resume-only" in ARGS
                else None,
                prompt_capabilities=PromptCapabilities(
                    image="--no-images" not in ARGS, embedded_context=True
                ),
            ),
            auth_methods=[AuthMethodAgent(id="login", name="Log in with Scripted")]
            + (
                [AuthMethodAgent(id="expired", name="Log in again")]
                if "--auth-expired" in ARGS
                else []
            )
            + (
                [
                    acp.schema.TerminalAuthMethod(
                        type="terminal",
                        id="term",
                        name="Log in in a terminal",
                        args=["--login"],
                        env={"SCRIPTED_LOGIN": "1"},
                    )
                ]
                if "--auth-terminal" in ARGS
                else []
            ),
            agent_info=acp.schema.Implementation(
                name="scripted\ud800agent"
                if "--bad-name" in ARGS
                else "n" * (4 << 20)
                if "--huge-name" in ARGS
                else "scripted-agent",
                version="1.2.3",
            ),
        )

    async def new_session(self, cwd: str, mcp_servers: Any = None, **_: Any) -> NewSessionResponse:
        if "--auth" in ARGS:
            raise acp.RequestError.auth_required()
        sid = f"s{os.getpid()}-{len(self.cancelled)}"
        self.cancelled[sid] = asyncio.Event()
        self.cwds[sid] = cwd
        if self.state is not None:
            with self.state.open("a") as f:
                names = [server.name for server in mcp_servers or ()]
                f.write(json.dumps({"session": sid, "cwd": cwd, "mcp": names}) + "\n")
        if "--early-updates" in ARGS:
            await self._say(sid, "ready before the answer")
            await self._plan(sid, 1, 0)
        if "--stray-update" in ARGS:
            await self._say("nobody-opened-this", "stray")
        if "--early-dense" in ARGS:  # 3.6 MB of dense JSON (small objects), then answered
            dense = [{"a": 0}] * 60_000
            for _ in range(6):
                update = {"sessionUpdate": "agent_message_chunk", "_meta": {"d": dense}}
                update["content"] = {"type": "text", "text": "."}
                note = {"jsonrpc": "2.0", "method": "session/update"}
                note["params"] = {"sessionId": sid, "update": update}
                await _raw(json.dumps(note).encode() + b"\n")
        if "--early-flood" in ARGS:  # 16 MiB for the session before it exists, never answered
            for _ in range(16):
                await self._say(sid, "x" * (1 << 20))
            await asyncio.Event().wait()
        await self._commands(sid, 2)
        return NewSessionResponse(
            session_id=sid,
            modes=_modes(self.modes.get(sid, "default")),
            config_options=_options(self.models.get(sid, "small")),
        )

    async def _commands(self, sid: str, n: int) -> None:
        commands = [
            AvailableCommand(
                name="review",
                description="Review the changes",
                input=AvailableCommandInput(root=UnstructuredCommandInput(hint="what to review")),
            )
        ]
        commands += [
            AvailableCommand(name=f"c{i}", description=f"Command {i}") for i in range(n - 1)
        ]
        update = AvailableCommandsUpdate(
            session_update="available_commands_update", available_commands=commands
        )
        await self.conn.session_update(sid, update)

    async def set_session_mode(self, session_id: str, mode_id: str, **_: Any) -> Any:
        if mode_id == "refused":
            raise acp.RequestError(-32602, "that mode is not for you")
        self.modes[session_id] = mode_id
        return SetSessionModeResponse()

    async def set_config_option(self, config_id: str, session_id: str, value: Any, **_: Any) -> Any:
        if value == "huge":
            raise acp.RequestError(-32000, "the huge model needs a subscription")
        self.models[session_id] = str(value)
        return SetSessionConfigOptionResponse(config_options=_options(str(value)))

    async def authenticate(self, method_id: str, **_: Any) -> Any:
        if method_id == "expired":
            raise acp.RequestError(-32000, "the sign-in link has expired")
        if method_id != "login":
            raise acp.RequestError(-32602, f"no method {method_id}")
        return AuthenticateResponse()

    async def list_sessions(
        self, cwd: str | None = None, cursor: str | None = None, **_: Any
    ) -> acp.schema.ListSessionsResponse:
        """Three earlier sessions in `cwd`, newest first, two a page (SCRIPTED_SESSIONS
        and SCRIPTED_PAGE say others; LIST_TIMES names a file each answer's time, just
        before it goes, is added to)."""
        count = int(os.environ.get("SCRIPTED_SESSIONS", "3"))
        size = int(os.environ.get("SCRIPTED_PAGE", "2"))
        start = int(cursor or 0)
        page = [
            acp.schema.SessionInfo(
                session_id=f"old-{i}",
                cwd=cwd or "/",
                title=f"Earlier task {i}",
                updated_at=f"2026-11-{(i - 1) % 28 + 1:02d}T10:00:00Z",
            )
            for i in range(count - start, max(count - start - size, 0), -1)
        ]
        more = str(start + size) if start + size < count else None
        answer = acp.schema.ListSessionsResponse(sessions=page, next_cursor=more)
        if "LIST_TIMES" in os.environ:
            with open(os.environ["LIST_TIMES"], "a") as times:
                times.write(f"{time.time()}\n")
        return answer

    async def resume_session(self, cwd: str, session_id: str, **_: Any) -> Any:
        self.cancelled[session_id] = asyncio.Event()
        return acp.schema.ResumeSessionResponse()

    async def _replay(self, sid: str) -> None:
        """An earlier session's history, as an agent replays it for session/load."""
        await self.conn.session_update(sid, acp.update_user_message_text("Fix the parser"))
        await self.conn.session_update(sid, acp.update_agent_message_text("Looking at it."))
        await self.conn.session_update(
            sid,
            acp.start_tool_call(
                "r1",
                "Read parser.py",
                kind="read",
                status="in_progress",
                raw_input={"path": "parser.py"},
            ),
        )
        done = [acp.tool_content(acp.text_block("40 lines"))]
        await self.conn.session_update(
            sid, acp.update_tool_call("r1", status="completed", content=done)
        )
        await self._plan(sid, 2, 0)
        await self._plan(sid, 3, 3)  # the last plan: every step done
        await self.conn.session_update(sid, acp.update_user_message_text("Thanks"))
        await self.conn.session_update(sid, acp.update_agent_message_text("Done."))

    async def load_session(self, cwd: str, session_id: str, **_: Any) -> LoadSessionResponse:
        if session_id.startswith(("big-", "chat-")):  # n updates replayed (benchmarks)
            kind, n = session_id.split("-")
            self.cancelled[session_id] = asyncio.Event()
            await _raw(_many(session_id, int(n), chat=kind == "chat"))
            return LoadSessionResponse()
        if session_id.startswith("old-"):
            if session_id not in ("old-1", "old-2", "old-3"):
                raise acp.RequestError.resource_not_found(session_id)
            self.cancelled[session_id] = asyncio.Event()
            await self._replay(session_id)
            return LoadSessionResponse()
        known = self.state.read_text().splitlines() if self.state and self.state.exists() else []
        if not any(json.loads(line)["session"] == session_id for line in known):
            raise acp.RequestError.resource_not_found(session_id)
        self.cancelled[session_id] = asyncio.Event()
        await self._say(session_id, "(replayed history: must not be stored again)")
        return LoadSessionResponse()

    async def cancel(self, session_id: str, **_: Any) -> None:
        self.cancelled.setdefault(session_id, asyncio.Event()).set()

    async def _ask_user(self, sid: str, command: str) -> None:
        """A form (a name, a count, a yes or no, one choice), a URL, or a form of 40
        fields; says how the user answered, or why the client refused."""
        from acp import RequestError
        from acp.schema import (
            ElicitationBooleanPropertySchema,
            ElicitationFormSessionMode,
            ElicitationIntegerPropertySchema,
            ElicitationSchema,
            ElicitationStringPropertySchema,
            ElicitationUrlSessionMode,
        )

        if command == "url":
            mode: Any = ElicitationUrlSessionMode(
                session_id=sid, elicitation_id="e1", url="https://example.org/login?x=1"
            )
        else:
            string, integer = ElicitationStringPropertySchema, ElicitationIntegerPropertySchema
            properties: dict[str, Any] = {
                "name": string(type="string", title="Your name", description="as on the badge"),
                "count": integer(type="integer", title="How many", default=2),
                "sure": ElicitationBooleanPropertySchema(type="boolean", title="Sure?"),
                "colour": string(type="string", title="Colour", enum=["red", "green"]),
            }
            if command in ("hugeform", "manyform"):  # 40 fields; 10,000
                many = 40 if command == "hugeform" else 10_000
                properties = {f"f{i}": string(type="string") for i in range(many)}
            if command == "longform":  # a field described in 4 MiB
                properties["name"] = string(type="string", description="d" * (4 << 20))
            schema = ElicitationSchema(properties=properties, required=["name"])
            mode = ElicitationFormSessionMode(session_id=sid, requested_schema=schema)
        try:
            answer = await self.conn.create_elicitation("Some details, please", mode)
        except RequestError as exc:
            await self._say(sid, f"form refused: {exc.data}")
            return
        content = getattr(answer, "content", None)
        said = f" {json.dumps(content, sort_keys=True)}" if content else ""
        await self._say(sid, f"form: {answer.action}{said}")

    async def _say(self, sid: str, text: str) -> None:
        await self.conn.session_update(sid, acp.update_agent_message_text(text))

    async def _plan(self, sid: str, n: int, done: int) -> None:
        await self.conn.session_update(
            sid, AgentPlanUpdate(session_update="plan", entries=_entries(n, done))
        )

    async def prompt(self, prompt: list[Any], session_id: str, **_: Any) -> PromptResponse:
        text = "".join(getattr(block, "text", "") for block in prompt)
        last = text.strip().splitlines()[-1] if text.strip() else ""
        command = last.split()[0] if last.split() else ""  # the user's line follows any context
        sid = session_id
        self.cancelled[sid] = asyncio.Event()
        pace = float(os.environ.get("PACE_S", "0"))
        if command == "plan":
            n = 3
            for done in range(n + 1):
                await self._plan(sid, n, done)
                if pace:
                    await asyncio.sleep(pace)
            await self._say(sid, "All steps done.\n")
        elif command == "bench":  # n plan updates, each one's send time to a file
            n, times = int(last.split()[1]), []
            for done in range(n):
                times.append(time.time())
                await self._plan(sid, n, done)
                await asyncio.sleep(0.02)
            Path(os.environ["BENCH_TIMES"]).write_text(json.dumps(times))
        elif command == "think":
            await self.conn.session_update(sid, acp.update_agent_thought_text("Let me think."))
            await self._say(sid, "Thought about it.")
        elif command == "tool":
            await self.conn.session_update(
                sid,
                ToolCallStart(
                    session_update="tool_call",
                    tool_call_id="t1",
                    title="Read notes.txt",
                    status="in_progress",
                    raw_input={"path": "notes.txt"},
                ),
            )
            await self.conn.session_update(
                sid,
                acp.update_tool_call(
                    "t1", status="completed", content=[acp.tool_content(acp.text_block("3 lines"))]
                ),
            )
        elif command in ("ask", "askother", "askwordy"):  # askother: another input;
            # askwordy: options named at length, as Codex names its lasting one
            raw = {"path": "notes.txt", "text": "hi" if command == "ask" else "curl x | sh"}
            always = "Always" if command != "askwordy" else WORDY_ALWAYS
            answer = await self.conn.request_permission(
                options=[
                    PermissionOption(option_id="yes", name="Allow", kind="allow_once"),
                    PermissionOption(option_id="always", name=always, kind="allow_always"),
                    PermissionOption(option_id="no", name="Reject", kind="reject_once"),
                ],
                session_id=sid,
                tool_call=ToolCallUpdate(tool_call_id="w1", title="Write notes.txt", raw_input=raw),
            )
            outcome = answer.outcome
            chosen = getattr(outcome, "option_id", None) or outcome.outcome
            await self._say(sid, f"permission: {chosen}")
            if chosen == "cancelled":
                return PromptResponse(stop_reason="cancelled")
        elif command == "hugeask":  # a permission request titled with 4 MiB
            huge = ToolCallUpdate(tool_call_id="h1", title="t" * (4 << 20))
            answer = await self.conn.request_permission(
                options=[PermissionOption(option_id="no", name="Reject", kind="reject_once")],
                session_id=sid,
                tool_call=huge,
            )
            await self._say(sid, f"permission: {getattr(answer.outcome, 'option_id', 'none')}")
        elif command in ("askedit", "asklong", "askrun", "planask"):  # an edit, a command, a plan
            if command == "planask":  # as Claude Code asks to leave its plan mode
                plan = "## Plan\n\n1. **Read** the parser\n2. Fix `parse()`"
                call = ToolCallUpdate(
                    tool_call_id="pa1",
                    title="Ready to code?",
                    kind="switch_mode",
                    content=[acp.tool_content(acp.text_block(plan))],
                    raw_input={"plan": plan},
                )
            elif command in ("askedit", "asklong"):  # a change of one line, or of 60
                lines = 60 if command == "asklong" else 1
                new = "".join(f"print({n + 2})\n" for n in range(lines))
                diff = acp.tool_diff_content("app.py", new, "print(1)\n")
                call = ToolCallUpdate(
                    tool_call_id="ae1",
                    title="Edit app.py",
                    kind="edit",
                    content=[diff],
                    raw_input={"file_path": "app.py", "old_string": "print(1)"},
                )
            else:  # as Codex asks: its own fields beside the command
                call = ToolCallUpdate(
                    tool_call_id="ar1",
                    title="Run a command",
                    kind="execute",
                    raw_input={
                        "call_id": "call_9",
                        "command": ["bash", "-lc", "rm -rf build"],
                        "proposed_execpolicy_amendment": ["rm"],
                    },
                )
            answer = await self.conn.request_permission(
                options=[
                    PermissionOption(option_id="yes", name="Allow", kind="allow_once"),
                    PermissionOption(option_id="no", name="Reject", kind="reject_once"),
                ],
                session_id=sid,
                tool_call=call,
            )
            await self._say(sid, f"permission: {getattr(answer.outcome, 'option_id', 'none')}")
        elif command == "steps":  # three steps, each changing the folder once allowed
            folder = Path(self.cwds.get(sid, "."))
            for done in range(3):
                await self._plan(sid, 3, done)
                answer = await self.conn.request_permission(
                    options=[PermissionOption(option_id="yes", name="Allow", kind="allow_once")],
                    session_id=sid,
                    tool_call=ToolCallUpdate(tool_call_id=f"s{done}", title=f"Step {done + 1}"),
                )
                if getattr(answer.outcome, "option_id", None) != "yes":
                    return PromptResponse(stop_reason="cancelled")
                if done == 0:  # an edit of a file
                    app = folder / "app.py"
                    app.write_text(app.read_text().replace("print(1)", "print(2)"))
                elif done == 1:  # a new file
                    (folder / "new.txt").write_text("a new file\n")
                else:  # a command that changes a third
                    code = "import pathlib; pathlib.Path('data.txt').write_text('changed\\n')"
                    await (
                        await asyncio.create_subprocess_exec(sys.executable, "-c", code, cwd=folder)
                    ).wait()
            await self._plan(sid, 3, 3)
        elif command in ("form", "url", "hugeform", "manyform", "longform"):  # elicitation
            await self._ask_user(sid, command)
        elif command == "wait":
            await self._plan(sid, 2, 0)
            await self.cancelled[sid].wait()
            return PromptResponse(stop_reason="cancelled")
        elif command == "garbage":
            await _raw(b"this is not json\n")
            await asyncio.Event().wait()
        elif command == "huge":
            await _raw(b'{"jsonrpc":"2.0","method":"x","params":"' + b"a" * (33 << 20) + b'"}\n')
            await asyncio.Event().wait()
        elif command == "foreign":
            await self.conn.session_update("not-mine", acp.update_agent_message_text("hi"))
            await asyncio.Event().wait()
        elif command == "flood":
            entries = [
                PlanEntry(content=f"S{i}", priority="low", status="pending") for i in range(5000)
            ]
            await self.conn.session_update(
                sid, AgentPlanUpdate(session_update="plan", entries=entries)
            )
            await asyncio.Event().wait()
        elif command == "late":
            task = asyncio.ensure_future(self._late_ask(sid))
            self._late.add(task)
        elif command == "latesay":
            task = asyncio.ensure_future(self._late_plan(sid))
            self._late.add(task)
        elif command == "unknowns":  # 100,000 requests, then it stops reading its input
            lines = b"".join(
                b'{"jsonrpc":"2.0","id":%d,"method":"x/unknown","params":{}}\n' % (10**6 + i)
                for i in range(100_000)
            )
            os.set_blocking(1, True)  # written whole, past the pipe's size
            os.write(1, lines)
            time.sleep(60)  # the loop held: nothing is read
        elif command == "lateflood":  # 5,000 plans after the turn ended
            task = asyncio.ensure_future(self._late_flood(sid))
            self._late.add(task)
        elif command == "subplan":
            await self.conn.session_update(
                sid,
                AgentPlanContentUpdate(
                    session_update="plan_update",
                    plan=PlanUpdateItems(
                        type="items",
                        plan_id="helper",
                        entries=[
                            PlanEntry(content="Look around", priority="low", status="pending")
                        ],
                    ),
                ),
            )
        elif command == "capabilities":  # what the client advertised, as JSON
            told = self.client_capabilities
            await self._say(
                sid,
                json.dumps(
                    told.model_dump(by_alias=True, exclude_none=True) if told is not None else None
                ),
            )
        elif command == "otherplans":  # a plan in Markdown, one in a file, one removed
            design = PlanUpdateMarkdown(
                type="markdown", plan_id="design", content="## Design\n\n- **one**"
            )
            await self.conn.session_update(
                sid, AgentPlanContentUpdate(session_update="plan_update", plan=design)
            )
            await self.conn.session_update(
                sid,
                AgentPlanContentUpdate(
                    session_update="plan_update",
                    plan=PlanUpdateFile(type="file", plan_id="spec", uri="file:///w/PLAN.md"),
                ),
            )
            await self.conn.session_update(
                sid, AgentPlanRemovedUpdate(session_update="plan_removed", plan_id="main")
            )
        elif command == "badplan":
            entries = [
                PlanEntry(content=f"S{i}", priority="low", status="in_progress") for i in range(2)
            ]
            await self.conn.session_update(
                sid, AgentPlanUpdate(session_update="plan", entries=entries)
            )
        elif command == "env":
            await self._say(sid, "env: " + json.dumps(sorted(os.environ)))
        elif command == "exit":
            sys.stderr.write("warming up\nfatal: the scripted agent gave up\n")
            sys.stderr.flush()
            os._exit(3)
        elif command == "maxtokens":
            return PromptResponse(stop_reason="max_tokens")
        elif command == "fail":
            raise acp.RequestError.internal_error({"details": "the scripted model is down"})
        elif command == "surrogates":  # lone surrogates, as JSON escapes on the wire
            await self.conn.session_update(
                sid,
                ToolCallStart(
                    session_update="tool_call",
                    tool_call_id="u1",
                    title="Edit \udc00 file",
                    status="completed",
                    raw_input={"path": "a\ud800.txt"},
                ),
            )
            await self._say(sid, "half \ud800 a pair")
        elif command == "terminal":  # each terminal method, though none is advertised
            said = []
            calls = [
                ("create", lambda: self.conn.create_terminal(session_id=sid, command="ls")),
                ("output", lambda: self.conn.terminal_output(session_id=sid, terminal_id="t")),
                ("release", lambda: self.conn.release_terminal(session_id=sid, terminal_id="t")),
                ("wait", lambda: self.conn.wait_for_terminal_exit(session_id=sid, terminal_id="t")),
                ("kill", lambda: self.conn.kill_terminal(session_id=sid, terminal_id="t")),
            ]
            for name, call in calls:
                try:
                    await call()
                    said.append(f"{name}: answered")
                except acp.RequestError as exc:
                    said.append(f"{name}: {exc.code}")
            await self._say(sid, "terminal " + ", ".join(said))
        elif command == "child":  # a process of its own, in its group, that outlives it
            import subprocess  # not asyncio's: that one ends its children as its loop closes

            quiet = subprocess.DEVNULL  # holding none of the agent's pipes
            child = subprocess.Popen(["sleep", "300"], stdin=quiet, stdout=quiet, stderr=quiet)
            await self._say(sid, f"child {child.pid}")
        elif command == "setsid-child":  # in a session of its own, holding the agent's pipes
            import subprocess

            child = subprocess.Popen(
                ["sleep", "300"], stdin=subprocess.DEVNULL, start_new_session=True
            )
            await self._say(sid, f"child {child.pid}")
        elif command == "edit":  # an edit whose diff comes in its update, then a command
            old = "".join(f"line {i}\n" for i in range(1, 31))
            new = old.replace("line 5\n", "line five\n").replace("line 20\n", "")
            await self.conn.session_update(
                sid,
                acp.start_tool_call(
                    "e1",
                    "Edit app.py",
                    kind="edit",
                    status="pending",
                    raw_input={"file_path": "app.py"},
                ),
            )
            await self.conn.session_update(
                sid,
                acp.update_tool_call(
                    "e1",
                    status="completed",
                    content=[acp.tool_diff_content("app.py", new, old)],
                    locations=[acp.schema.ToolCallLocation(path="app.py", line=5)],
                ),
            )
            await self.conn.session_update(
                sid,
                acp.start_tool_call(
                    "r1",
                    "Run tests",
                    kind="execute",
                    status="in_progress",
                    raw_input={"command": "pytest"},
                ),
            )
            output = "collected 3 items\n\ntest_app.py ...\n3 passed in 0.01s"
            await self.conn.session_update(
                sid,
                acp.update_tool_call(
                    "r1", status="completed", content=[acp.tool_content(acp.text_block(output))]
                ),
            )
        elif command == "chunks":  # n message chunks at 200 a second, each saying when
            for _ in range(int(last.split()[1])):
                await self._say(sid, f"[{time.time():.6f}] ")
                await asyncio.sleep(0.005)
        elif command == "attached":  # what came beside the text, in words
            seen = []
            for block in prompt[1:]:
                if block.type == "resource_link":
                    seen.append(f"link {block.name} {block.uri}")
                elif block.type == "resource":
                    seen.append(f"text {block.resource.uri} {block.resource.text!r}")
                elif block.type == "image":
                    seen.append(f"image {block.mime_type} {len(block.data)}")
            await self._say(sid, "got: " + "; ".join(seen))
        elif command == "plan-mode":  # the agent changes its own mode, and tells its usage
            await self.conn.session_update(
                sid, CurrentModeUpdate(session_update="current_mode_update", current_mode_id="plan")
            )
            await self.conn.session_update(
                sid,
                UsageUpdate(
                    session_update="usage_update",
                    used=1290,
                    size=1_000_000,
                    cost=Cost(amount=0.09, currency="USD"),
                ),
            )
        elif command == "flood-commands":  # over the limit: dropped, and said
            await self._commands(sid, 101)
        elif command == "long-commands":  # one description of 690 characters: cut, kept
            commands = [
                AvailableCommand(name="review", description="Review the changes"),
                AvailableCommand(name="init", description="d" * 690),
            ]
            await self.conn.session_update(
                sid,
                AvailableCommandsUpdate(
                    session_update="available_commands_update", available_commands=commands
                ),
            )
        elif command == "huge-options":  # 100 options of 200 choices: 2 MiB, over 1 MiB
            choices = [
                SessionConfigSelectOption(value=f"v{i}", name="n" * 40, description="d" * 40)
                for i in range(200)
            ]
            options = [
                SessionConfigOptionSelect(
                    id=f"o{i}", name=f"O{i}", type="select", current_value="v0", options=choices
                )
                for i in range(100)
            ]
            await self.conn.session_update(
                sid,
                ConfigOptionUpdate(session_update="config_option_update", config_options=options),
            )
        elif command == "malformed":  # updates of kinds the transcript keeps, malformed
            for bad in (
                {"sessionUpdate": "tool_call", "toolCallId": "m1", "status": "exploded"},
                {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": 5}},
                {"sessionUpdate": "plan", "entries": "not a list"},
            ):
                note = {"jsonrpc": "2.0", "method": "session/update"}
                note["params"] = {"sessionId": sid, "update": bad}
                await _raw(json.dumps(note).encode() + b"\n")
            # then a plan without priorities, and a call with a part no one knows
            for update in (BARE_PLAN, ODD_CALL):
                odd = {"jsonrpc": "2.0", "method": "session/update"}
                odd["params"] = {"sessionId": sid, "update": update}
                await _raw(json.dumps(odd).encode() + b"\n")
            await self.conn.session_update(sid, acp.update_agent_message_text("Still here."))
        elif command == "late-bad-commands":  # 3,000 unusable updates after the turn
            task = asyncio.ensure_future(self._late_bad_commands(sid))
            self._late.add(task)
        elif command == "edges":  # 50 calls at once, a 10 MB diff, an image, a move
            for i in range(50):
                await self.conn.session_update(
                    sid,
                    acp.start_tool_call(
                        f"p{i}",
                        f"Read f{i}.txt",
                        kind="read",
                        status="in_progress",
                        raw_input={"path": f"f{i}.txt"},
                    ),
                )
            for i in reversed(range(50)):
                await self.conn.session_update(
                    sid,
                    acp.update_tool_call(
                        f"p{i}",
                        status="completed",
                        content=[acp.tool_content(acp.text_block(f"{i} lines"))],
                    ),
                )
            big = "x" * (10 * 1024 * 1024)
            await self.conn.session_update(
                sid,
                acp.start_tool_call(
                    "big",
                    "Write big.txt",
                    kind="edit",
                    status="completed",
                    content=[acp.tool_diff_content("big.txt", big)],
                ),
            )
            await self.conn.session_update(
                sid,
                acp.start_tool_call(
                    "shot",
                    "Take a screenshot",
                    kind="other",
                    status="completed",
                    content=[
                        acp.tool_content(
                            acp.image_block("iVBORw0KGgo=", "image/png", uri="file:///s.png")
                        )
                    ],
                ),
            )
            await self.conn.session_update(
                sid,
                acp.start_tool_call(
                    "mv",
                    "Move a.txt to b.txt",
                    kind="move",
                    status="completed",
                    locations=[acp.schema.ToolCallLocation(path="b.txt")],
                ),
            )
        elif command == "picture":  # a real PNG, and an SVG (never drawn: not kept)
            import base64
            import struct
            import zlib

            def chunk(kind: bytes, body: bytes) -> bytes:
                return (
                    struct.pack(">I", len(body))
                    + kind
                    + body
                    + struct.pack(">I", zlib.crc32(kind + body))
                )

            rows = b"".join(b"\0" + b"\xff\x00\x00" * 4 for _ in range(4))
            header = chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
            png = (
                b"\x89PNG\r\n\x1a\n"
                + header
                + chunk(b"IDAT", zlib.compress(rows))
                + chunk(b"IEND", b"")
            )
            svg = base64.b64encode(b"<svg xmlns='http://www.w3.org/2000/svg'/>").decode()
            # a decompression bomb: 12,000 by 12,000 grey pixels in about 140 KiB
            pack = zlib.compressobj(9)
            row = b"\0" * 12_001
            body = b"".join(pack.compress(row) for _ in range(12_000)) + pack.flush()
            side = struct.pack(">IIBBBBB", 12_000, 12_000, 8, 0, 0, 0, 0)
            bomb = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", side) + chunk(b"IDAT", body)
            bomb += chunk(b"IEND", b"")
            await self.conn.session_update(
                sid,
                acp.start_tool_call(
                    "pic",
                    "Take a screenshot",
                    kind="other",
                    status="completed",
                    content=[
                        acp.tool_content(
                            acp.image_block(base64.b64encode(png).decode(), "image/png")
                        ),
                        acp.tool_content(acp.image_block(svg, "image/svg+xml")),
                        acp.tool_content(
                            acp.image_block(base64.b64encode(bomb).decode(), "image/png")
                        ),
                    ],
                ),
            )
        elif command == "bigtext":  # 192 chunks of 64 KiB, no newline: 12 MiB of one message
            for i in range(192):
                await self.conn.session_update(
                    sid, acp.update_agent_message_text(chr(ord("a") + i % 26) * 65536)
                )
        elif command == "long":  # a message folded in the transcript, a word at its end
            await self._say(
                sid,
                "".join(f"Paragraph {i} says a little.\n\n" for i in range(30))
                + "The last one holds the needle.",
            )
        elif command == "markdown":
            said = (
                "# Done\n\n**Bold** words <script>alert(1)</script>\n\n"
                "```py\nprint(1)\n```\n\nSee [the docs](https://example.org)."
            )
            await self._say(sid, said)
        elif command == "longmarkdown":  # a block in view, then one past its fold
            filler = "".join(f"Line {n} of the answer.\n\n" for n in range(60))
            said = f"```py\nprint(1)\n```\n\n{filler}```py\nprint('hidden')\n```\n"
            await self._say(sid, said)
        elif command == "badfail":
            raise acp.RequestError(-32603, "the model \ud800 is down")
        elif command == "many":  # the updates of a "big-N" replay, told live
            await _raw(_many(sid, int(last.split()[1]), chat=False, told=True))
        elif command == "subagent":  # a Task whose sub-agent makes two calls, marked
            under = {"claudeCode": {"parentToolUseId": "task1"}}
            found = [{"type": "content", "content": {"type": "text", "text": "Found it."}}]
            for kind, call, told in (
                ("tool_call", "task1", {"title": "Task Explore", "status": "in_progress"}),
                ("tool_call", "sub1", {"title": "Read a.py", "_meta": under}),
                ("tool_call", "sub2", {"title": "Run ls", "_meta": under}),
                ("tool_call_update", "sub1", {"status": "completed", "_meta": under}),
                ("tool_call_update", "sub2", {"status": "failed", "_meta": under}),
                ("tool_call_update", "task1", {"status": "completed", "content": found}),
            ):
                update = {"sessionUpdate": kind, "toolCallId": call, **told}
                if kind == "tool_call" and call != "task1":
                    update["status"] = "in_progress"
                note = {"jsonrpc": "2.0", "method": "session/update"}
                note["params"] = {"sessionId": sid, "update": update}
                await _raw(json.dumps(note).encode() + b"\n")
        elif command in ("compact", "compactfail"):  # the agent's own compaction, told
            await self._plan(sid, 3, 1)  # a checklist with steps unfinished
            cid = f"c{len(text)}"
            told: list[dict[str, Any]] = [{"compactionId": cid, "status": "in_progress"}]
            if command == "compact":
                told += [
                    {"compactionId": cid, "content": {"type": "text", "text": piece}}
                    for piece in ("Kept: the plan ", "and notes.txt.")
                ]
                told += [{"compactionId": cid, "status": "completed"}] * 2  # said twice
            else:
                told += [{"compactionId": cid, "status": "failed"}]
            for update in told:
                kind = "compaction_update" if "status" in update else "compaction_summary_chunk"
                note = {"jsonrpc": "2.0", "method": "session/update"}
                note["params"] = {"sessionId": sid, "update": {"sessionUpdate": kind, **update}}
                await _raw(json.dumps(note).encode() + b"\n")
            await self._say(sid, "Carrying on.")
        elif command == "stream":
            for part in ("Hel", "lo ", "wor", "ld\nsecond ", "line"):
                await self._say(sid, part)
                if part.startswith("ld"):  # the first line is in the transcript meanwhile
                    await asyncio.sleep(0.6)
        else:
            await self._say(sid, "echo: " + text)
        return PromptResponse(stop_reason="end_turn")

    async def _late_ask(self, sid: str) -> None:
        await asyncio.sleep(0.3)
        await self.conn.request_permission(
            options=[PermissionOption(option_id="yes", name="Allow", kind="allow_once")],
            session_id=sid,
            tool_call=ToolCallUpdate(tool_call_id="x", title="Late"),
        )

    async def _late_flood(self, sid: str) -> None:
        await asyncio.sleep(0.3)
        for done in range(5000):
            await self.conn.session_update(
                sid,
                acp.update_plan(
                    [PlanEntry(content=f"Late {done}", priority="low", status="pending")]
                ),
            )
        await self.conn.session_update(
            sid,
            CurrentModeUpdate(  # then: all of it was sent
                session_update="current_mode_update", current_mode_id="plan"
            ),
        )

    async def _late_bad_commands(self, sid: str) -> None:
        await asyncio.sleep(0.3)
        for _ in range(3000):  # a command without a name: of a wrong shape
            await self.conn.session_update(
                sid,
                AvailableCommandsUpdate(
                    session_update="available_commands_update",
                    available_commands=[AvailableCommand(name=" ", description="x")],
                ),
            )
        await self.conn.session_update(
            sid,
            CurrentModeUpdate(  # then: all of it was sent
                session_update="current_mode_update", current_mode_id="plan"
            ),
        )

    async def _late_plan(self, sid: str) -> None:
        await asyncio.sleep(0.3)
        await self._plan(sid, 2, 0)


if __name__ == "__main__":
    asyncio.run(acp.run_agent(Scripted(), use_unstable_protocol=True))  # type: ignore[arg-type]
