"""What an ACP agent offers to steer each of its sessions (contract section 17): its modes,
its config options, its commands and its usage as it last told them, and what its process
told at `initialize` (prompt content, sign-in methods). Read from the agent's JSON,
validated and bounded: a text over its limit is cut (a name, description or hint marked
with "…"); an update with too many entries, of a wrong shape, or that would make the whole
controls larger than MAX_CONTROLS_BYTES is dropped whole (the caller says so in the
transcript, once per turn) and the controls stay as they were."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from host.protocol import models as m

MAX_ENTRIES = 100  # modes, options, commands
MAX_CHOICES = 200  # of one option
MAX_TEXT = 500  # every id, name, value, hint and description (section 7's text limit)
MAX_CONTROLS_BYTES = 1024 * 1024  # the whole AgentControls as JSON


class Unusable(Exception):
    """The agent's update breaks a limit or is not of its form; the words say which."""


def _text(raw: Any, what: str, required: bool = True) -> str:
    """A text the agent gave, cut to MAX_TEXT where it is longer: an id or a value as
    it came (the agent may still take its first characters), words marked with "…"."""
    if raw is None and not required:
        return ""
    if not isinstance(raw, str) or (required and not raw.strip()):
        raise Unusable(f"{what} is not a text")
    if len(raw) <= MAX_TEXT:
        return raw
    if what.endswith(("id", "value", "mode")):
        return raw[:MAX_TEXT]
    return raw[: MAX_TEXT - 1] + "…"


def bounded(controls: m.AgentControls) -> m.AgentControls:
    """`controls`, unless they would be over MAX_CONTROLS_BYTES as JSON (Unusable)."""
    size = len(controls.model_dump_json(by_alias=True))
    if size > MAX_CONTROLS_BYTES:
        raise Unusable(
            f"they would come to {size / 2**20:.1f} MiB (at most {MAX_CONTROLS_BYTES // 2**20} MiB)"
        )
    return controls


def _list(raw: Any, what: str, limit: int = MAX_ENTRIES) -> list[dict[str, Any]]:
    if not isinstance(raw, list) or not all(isinstance(x, dict) for x in raw):
        raise Unusable(f"{what} are not a list")
    if len(raw) > limit:
        raise Unusable(f"{len(raw)} {what} (at most {limit})")
    return raw


def modes_of(raw: Any) -> m.Modes | None:
    """`SessionModeState` ({currentModeId, availableModes}), or None when there is none."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise Unusable("the modes are not an object")
    available = tuple(
        m.ModeInfo(
            id=_text(x.get("id"), "a mode's id"),
            name=_text(x.get("name"), "a mode's name"),
            description=_text(x.get("description"), "a mode's description", False),
        )
        for x in _list(raw.get("availableModes"), "modes")
    )
    return m.Modes(current=_text(raw.get("currentModeId"), "the current mode"), available=available)


def _choices(raw: Any) -> tuple[m.Choice, ...]:
    flat: list[dict[str, Any]] = []
    for entry in _list(raw, "choices", MAX_CHOICES):
        flat += _list(entry["options"], "choices", MAX_CHOICES) if "group" in entry else [entry]
    if len(flat) > MAX_CHOICES:
        raise Unusable(f"{len(flat)} choices (at most {MAX_CHOICES})")
    return tuple(
        m.Choice(
            value=_text(x.get("value"), "a choice's value"),
            name=_text(x.get("name"), "a choice's name"),
            description=_text(x.get("description"), "a choice's description", False),
        )
        for x in flat
    )


def options_of(raw: Any) -> tuple[m.OptionInfo, ...]:
    """`configOptions`: select options (their choices flattened out of groups) and
    boolean ones."""
    if raw is None:
        return ()
    options = []
    for x in _list(raw, "options"):
        kind, current = x.get("type"), x.get("currentValue")
        if kind == "boolean" and isinstance(current, bool):
            choices: tuple[m.Choice, ...] = ()
        elif kind == "select" and isinstance(current, str):
            choices = _choices(x.get("options"))
            current = _text(current, "an option's value")
        else:
            raise Unusable(f"an option of type {str(kind)[:40]!r} has no usable current value")
        category = x.get("category")
        options.append(
            m.OptionInfo(
                id=_text(x.get("id"), "an option's id"),
                name=_text(x.get("name"), "an option's name"),
                category=_text(category, "an option's category") if category is not None else None,
                type=kind,
                current=current,
                choices=choices,
            )
        )
    return tuple(options)


def commands_of(raw: Any) -> tuple[m.CommandInfo, ...]:
    """`availableCommands`: each command's name, description and input hint."""
    commands = []
    for x in _list(raw, "commands"):
        given = x.get("input")
        hint = given.get("hint") if isinstance(given, dict) else None
        commands.append(
            m.CommandInfo(
                name=_text(x.get("name"), "a command's name"),
                description=_text(x.get("description"), "a command's description", False),
                hint=_text(hint, "a command's hint") if hint is not None else None,
            )
        )
    return tuple(commands)


def _count(raw: Any, what: str) -> int | None:
    if raw is None:
        return None
    if type(raw) is not int or not 0 <= raw <= m.MAX_WIRE_INT:
        raise Unusable(f"{what} is not a count")
    return raw


def usage_of(raw: dict[str, Any]) -> m.Usage:
    """`usage_update` ({used, size, cost?})."""
    cost, given = None, raw.get("cost")
    if given is not None:
        amount = given.get("amount") if isinstance(given, dict) else None
        if (
            not isinstance(amount, int | float)
            or isinstance(amount, bool)
            or not math.isfinite(amount)
        ):
            raise Unusable("the cost is not an amount")
        cost = m.Cost(amount=float(amount), currency=_text(given.get("currency"), "a currency"))
    return m.Usage(
        used=_count(raw.get("used"), "the used size"),
        size=_count(raw.get("size"), "the context size"),
        cost=cost,
    )


CONTROL_UPDATES = {"current_mode_update", "config_option_update", "available_commands_update",
                   "usage_update"}  # fmt: skip


def updated(held: m.AgentControls, update: dict[str, Any]) -> m.AgentControls:
    """The controls after one of the agent's `session/update`s of CONTROL_UPDATES."""
    kind = update.get("sessionUpdate")
    change: dict[str, Any]
    if kind == "current_mode_update":
        current = _text(update.get("currentModeId"), "the current mode")
        if held.modes is None:
            raise Unusable("a current mode was told for a session without modes")
        change = {"modes": held.modes.model_copy(update={"current": current})}
    elif kind == "config_option_update":
        change = {"options": options_of(update.get("configOptions"))}
    elif kind == "available_commands_update":
        change = {"commands": commands_of(update.get("availableCommands"))}
    else:
        change = {"usage": usage_of(update)}
    return bounded(held.model_copy(update=change))


class Controls:
    """Every agent session's controls, told as they change (`agents.controlsChanged`)."""

    def __init__(self, tell: Callable[[m.AgentControls], None]) -> None:
        self._tell = tell
        self._held: dict[str, m.AgentControls] = {}  # by Nib session id

    def of(self, session_id: str) -> m.AgentControls:
        return self._held.get(session_id) or m.AgentControls(session_id=session_id)

    def set(self, controls: m.AgentControls) -> None:
        if self._held.get(controls.session_id) != controls:
            self._held[controls.session_id] = controls
            self._tell(controls)

    def forget(self, session_id: str) -> None:
        self._held.pop(session_id, None)
