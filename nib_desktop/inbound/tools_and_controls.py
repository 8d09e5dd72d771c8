"""From the contract's models to the window's state, for what steers the work: the Tools
view's rows (servers, plugins, a settings file that cannot be used) and an agent's
controls (modes, models, commands, usage, sign-in). Outside text is made safe to display
here, once."""

from __future__ import annotations

from host.protocol import plain_models as m
from host.protocol.settings_file import SETTINGS_FILENAME
from host.protocol.text import shorten, shown_text
from nib_desktop.state.steering import AgentCommand, Steering
from nib_desktop.state.tool_types import ToolSource

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
    return ToolSource(
        shown_text(name),
        kind,
        state,
        shown_text(shorten(error or "", 500)),
        shown_text(shorten(tools, 1000)),
        shown_text(words),
    )


def steering(c: m.AgentControls) -> Steering:
    """What an agent offers to steer a session, its words made safe to show."""
    modes = tuple((x.id, shown_text(x.name)) for x in c.modes.available) if c.modes else ()
    mode = next((name for id_, name in modes if c.modes and id_ == c.modes.current), "")
    commands = tuple(
        AgentCommand(shown_text(x.name), shown_text(x.description), shown_text(x.hint or ""))
        for x in c.commands
    )
    option = next(
        (o for o in c.options if o.type == "select" and "model" in (o.category, o.id)), None
    )
    models = tuple((x.value, shown_text(x.name)) for x in option.choices) if option else ()
    model = next((name for value, name in models if option and value == option.current), "")
    sign_ins = tuple((a.id, shown_text(a.name)) for a in c.auth_methods)
    # before the agent answered anything every prompt kind is false: the host decides then
    told = c.prompt.embedded_context or c.prompt.audio or c.modes or c.options or c.commands
    images = c.prompt.image or not told
    terminals = tuple(
        (a.id, a.terminal.command, tuple(sorted(a.terminal.env.items())))
        for a in c.auth_methods
        if a.terminal is not None
    )
    return Steering(
        c.session_id,
        mode,
        modes,
        commands,
        usage_words(c.usage),
        model,
        models,
        option.id if option else "",
        sign_ins,
        images,
        terminals,
    )


def usage_words(usage: m.Usage | None) -> str:
    """ "62 % of context · $0.41" ("<1 % of context" below one); "1,290 tokens" where the
    agent tells no context size; "" when it told nothing."""
    if usage is None:
        return ""
    parts = []
    if usage.used is not None and usage.size:
        share = usage.used * 100 / usage.size
        parts.append(
            f"{round(share)} % of context" if share >= 1 or not usage.used else "<1 % of context"
        )
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
