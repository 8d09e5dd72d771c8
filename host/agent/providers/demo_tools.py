"""How the offline demo agent uses an MCP or plugin tool: when the request names one
("what time is it in Tokyo?" names `get_current_time`), it calls that tool once with
arguments filled from the request, then answers with what the tool said. Deterministic,
like the rest of the demo: it exists so the tool path is visible without an account."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from host.tools.registry import ToolSpec

CALL_PREFIX = "demo-tool-"
_WORD = re.compile(r"[A-Za-z]+")
_GENERIC = {"get", "set", "list", "run", "the", "and", "for", "with", "tool", "call", "mcp",
            "do", "make", "use", "new", "all", "one", "info"}  # fmt: skip
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def own_name(spec: ToolSpec) -> str:
    return spec.name.split("__")[-1]


def _tokens(name: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)
    return [t.lower() for t in re.split(r"[\s_\-]+", spaced) if len(t) >= 3]


def pick_tool(text: str, tools: tuple[ToolSpec, ...], builtins: set[str]) -> ToolSpec | None:
    """The tool the request names best (words of its name in the request), preferring the
    one with fewer required arguments; None if none is named."""
    words = {w.lower() for w in _WORD.findall(text)}
    best: tuple[int, int] = (0, 0)
    chosen: ToolSpec | None = None
    for spec in tools:
        if spec.name in builtins:
            continue
        hits = [t for t in _tokens(own_name(spec)) if t in words and t not in _GENERIC]
        required = len(spec.parameters.get("required", []))
        score = (len(hits), -required)
        if hits and score > best:
            best, chosen = score, spec
    return chosen


def arguments(spec: ToolSpec, text: str) -> dict[str, Any]:
    """Arguments for `spec` from the request: a time zone from a city named in it, a
    number from it, otherwise the request itself."""
    properties: dict[str, Any] = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", []))
    args: dict[str, Any] = {}
    for name, schema in properties.items():
        if name not in required:
            continue
        kind = schema.get("type", "string") if isinstance(schema, dict) else "string"
        if isinstance(schema, dict) and schema.get("enum"):
            args[name] = schema["enum"][0]
        elif "zone" in name.lower() or name.lower() == "tz":
            args[name] = time_zone(text)
        elif kind in ("integer", "number"):
            found = _NUMBER.search(text)
            value = float(found.group()) if found else 1
            args[name] = int(value) if kind == "integer" else value
        elif kind == "boolean":
            args[name] = False
        elif kind == "array":
            args[name] = []
        elif kind == "object":
            args[name] = {}
        else:
            args[name] = text.strip()[:500]
    return args


@cache
def _zones() -> dict[str, str]:
    """Place name (lower case, spaces) to IANA zone, from the system's zone list."""
    from zoneinfo import available_timezones

    places: dict[str, str] = {}
    for zone in sorted(available_timezones()):
        if "/" in zone and not zone.startswith(("Etc/", "SystemV/", "posix/", "right/")):
            places.setdefault(zone.rsplit("/", 1)[1].replace("_", " ").lower(), zone)
    return places


def time_zone(text: str) -> str:
    """The IANA zone of the first place named in `text` ("Tokyo" -> "Asia/Tokyo")."""
    words = _WORD.findall(text)
    zones = _zones()
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            place = " ".join(words[i : i + size]).lower()
            if place in zones:
                return zones[place]
    return "UTC"
