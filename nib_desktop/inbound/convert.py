"""From the contract's models to the window's state: the one place the Main role turns
host shapes into what the views know (`nib_desktop.state.types`). Outside text is made
safe to display here, once."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from host.protocol import models as m
from host.protocol.remote import parse_endpoint
from host.protocol.settings_file import SETTINGS_FILENAME
from host.protocol.text import shorten, shown_text
from nib_desktop.inbound import activity
from nib_desktop.inbound.lines import todo_line, tool_name
from nib_desktop.state import intents as it
from nib_desktop.state.steering import AgentCommand, Steering
from nib_desktop.state.tool_types import AgentOption, Approval, ToolSource
from nib_desktop.state.types import (
    AgentChoice,
    Item,
    Revision,
    Session,
    Snapshot,
    TurnView,
)


def snapshot(s: m.TodoSnapshot) -> Snapshot:
    return Snapshot(s.session_id, s.revision, tuple(_item(i) for i in s.items))


def _item(i: m.TodoItem) -> Item:
    active = shown_text(i.active_form) if i.active_form else i.active_form
    return Item(shown_text(i.content), i.status, active)


def turn(t: m.Turn) -> TurnView:
    return TurnView(t.session_id, t.state, shown_text(t.error or ""), t.id, t.started_at)


def session(s: m.Session) -> Session:
    remote = s.remote
    return Session(
        session_id=s.id,
        title=shown_text(s.title),
        mode=s.mode,
        running_turn=s.running_turn_id or "",
        parent_id=s.parent_id or "",
        remote=remote is not None,
        remote_state=remote.state if remote else "",
        remote_note=remote_note(remote) if remote else "",
        checklist_note=checklist_note(remote) if remote else "",
        order=(s.updated_at, s.created_at),
        agent=shown_text(s.agent) if s.agent != m.NIB_AGENT else "",
        folder=shown_text(folder_label(s.cwd)) if s.cwd else "",
        cwd=s.cwd or "",
    )


def folder_label(path: str) -> str:
    """A folder as a person reads it: under the home folder as "~/…"."""
    home = str(Path.home())
    if path == home:
        return "~"
    if path.startswith(home.rstrip("/") + "/"):
        return "~/" + path[len(home.rstrip("/")) + 1 :]
    return path


def folder_path(typed: str) -> str:
    """A folder as typed ("~/src", "/srv/app") as the absolute path the host checks."""
    return str(Path(typed.strip()).expanduser())


def agents(listing: m.AgentsList) -> tuple[AgentChoice, ...]:
    return tuple(
        AgentChoice(
            name=shown_text(a.name),
            state=a.state,
            error=shown_text(shorten(a.error or "", 300)),
            version=shown_text(f"{a.agent_info.name} {a.agent_info.version}")
            if a.agent_info
            else "",
        )
        for a in listing.agents
    )


def remote_note(remote: m.RemoteInfo) -> str:
    """Where a remote session runs and how it is reached, in words."""
    try:
        where = parse_endpoint(remote.endpoint).label()
    except ValueError:
        where = remote.endpoint
    if remote.state == "connected":
        return shown_text(f"on {where}")
    if remote.state == "connecting":
        return shown_text(f"on {where} · connecting…")
    why = shorten(remote.error or "no answer", 200)
    return shown_text(f"on {where} · unreachable: {why} · tried every second (Ctrl+R: now)")


def checklist_note(remote: m.RemoteInfo) -> str:
    if remote.state != "connected" and not remote.capabilities:
        return "The checklist is not available while the remote host cannot be reached."
    if "todos" not in remote.capabilities:
        return "The checklist is not available: this remote host does not share it."
    return ""


# --- the transcript ------------------------------------------------------------------


# --- history, approvals, tools ---------------------------------------------------------


def revision(r: m.TodoRevision) -> Revision:
    line = todo_line(r.diff, len(r.items))
    return Revision(
        revision=r.revision,
        turn_id=r.turn_id or "",
        time=local_time(r.created_at),
        items=tuple(_item(i) for i in r.items),
        summary=shown_text(line.text),
        warning=line.warning,
    )


def local_time(stamp: str) -> str:
    """An ISO timestamp as the user's local HH:MM:SS (the stamp itself if it is not one):
    a turn writes several revisions a minute."""
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%H:%M:%S")


def approval(a: m.ApprovalRequested) -> Approval:
    options = tuple(AgentOption(o.option_id, shown_text(o.name), o.kind,
                                m.OPTION_DECISION[o.kind]) for o in a.options)  # fmt: skip
    # an ACP agent's request: what it would do; an MCP or plugin tool's: its arguments
    agents = bool(a.options) or a.activity is not None
    said, kind = activity.asked(a.activity, a.arguments) if agents else ("", "")
    return Approval(a.approval_id, a.session_id, shown_text(tool_name(a.tool)),
                    shown_text(a.arguments), options, shown_text(said), kind)  # fmt: skip


def answer(given: it.Answer) -> m.ApprovalRespondParams:
    """The user's answer to an approval, on the wire (`optionId`: an agent's own option)."""
    return m.ApprovalRespondParams.model_validate({
        "approvalId": given.approval_id, "decision": given.decision,
        "optionId": given.option_id or None})  # fmt: skip


_STATE_WORDS = {"starting": "starting…", "ready": "ready", "failed": "failed",
                "disabled": "disabled"}  # fmt: skip


SETTINGS_KIND = "settings file"


def tool_sources(listing: m.ToolsList) -> tuple[ToolSource, ...]:
    """The Tools view's rows. A settings.json that cannot be used is a server entry on the
    wire (section 13 has no other place for it): here it is the settings file's own row,
    first, with the file, line and problem the host named."""
    rows: list[ToolSource] = []
    for server in listing.servers:
        names = ", ".join(t.name for t in server.tools)
        if server.name == SETTINGS_FILENAME and server.state == "failed" and not names:
            rows.insert(0, _source(server.name, SETTINGS_KIND, "failed", server.error, ""))
            continue
        rows.append(_source(server.name, "MCP server", server.state, server.error, names))
    for plugin in listing.plugins:
        names = ", ".join(t.name for t in plugin.tools)
        state = "failed" if plugin.error else "ready"
        rows.append(_source(plugin.name, "plugin", state, plugin.error, names))
    return tuple(rows)


def _source(
    name: str, kind: str, state: str, error: str | None, tools: str, label: str = "tools"
) -> ToolSource:
    words = f"{kind} {name}, {_STATE_WORDS.get(state, state)}"
    if error:
        words += f": {error}"
    elif tools:
        words += f", {label}: {tools}"
    return ToolSource(shown_text(name), kind, state, shown_text(shorten(error or "", 500)),
                      shown_text(shorten(tools, 1000)), shown_text(words))  # fmt: skip


def steering(c: m.AgentControls) -> Steering:
    """What an agent offers to steer a session, its words made safe to show."""
    modes = tuple((x.id, shown_text(x.name)) for x in c.modes.available) if c.modes else ()
    mode = next((name for id_, name in modes if c.modes and id_ == c.modes.current), "")
    commands = tuple(AgentCommand(shown_text(x.name), shown_text(x.description),
                                  shown_text(x.hint or "")) for x in c.commands)  # fmt: skip
    option = next((o for o in c.options if o.type == "select" and "model" in (o.category, o.id)),
                  None)  # fmt: skip
    models = tuple((x.value, shown_text(x.name)) for x in option.choices) if option else ()
    model = next((name for value, name in models if option and value == option.current), "")
    sign_ins = tuple((a.id, shown_text(a.name)) for a in c.auth_methods)
    # before the agent answered anything every prompt kind is false: the host decides then
    told = c.prompt.embedded_context or c.prompt.audio or c.modes or c.options or c.commands
    images = c.prompt.image or not told
    terminals = tuple((a.id, a.terminal.command, tuple(sorted(a.terminal.env.items())))
                      for a in c.auth_methods if a.terminal is not None)  # fmt: skip
    return Steering(c.session_id, mode, modes, commands, usage_words(c.usage), model, models,
                    option.id if option else "", sign_ins, images, terminals)  # fmt: skip


def usage_words(usage: m.Usage | None) -> str:
    """ "62 % of context · $0.41" ("<1 % of context" below one); "1,290 tokens" where the
    agent tells no context size; "" when it told nothing."""
    if usage is None:
        return ""
    parts = []
    if usage.used is not None and usage.size:
        share = usage.used * 100 / usage.size
        parts.append(f"{round(share)} % of context" if share >= 1 or not usage.used
                     else "<1 % of context")  # fmt: skip
    elif usage.used is not None:
        parts.append(f"{usage.used:,} tokens")
    if usage.cost is not None:
        money = (
            f"${usage.cost.amount:,.2f}"
            if usage.cost.currency.upper() == "USD"
            else (f"{usage.cost.amount:,.2f} {shown_text(usage.cost.currency)}")
        )
        parts.append(money)
    return " · ".join(parts)
