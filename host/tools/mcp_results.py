"""What an MCP server offers and answers, checked and read: a tool's input schema refused
in words where it cannot be used, names qualified with their server, and a tool result
as the text the model reads (at most MAX_RESULT_CHARS)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from host.tools.mcp_config import tool_key

if TYPE_CHECKING:
    from mcp.types import CallToolResult

PREFIX = "mcp__"
MAX_RESULT_CHARS = 100_000  # a tool result the model reads, at most


def schema_problem(schema: Any) -> str | None:
    """Why a tool's input schema cannot be offered to a model (it is not a valid JSON
    Schema, a `$ref` in it points nowhere, a `pattern` is not a regular expression), or
    None."""
    import re

    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for

    if not isinstance(schema, dict):
        return "its input schema is not an object"
    try:
        validator_for(schema).check_schema(schema)
    except SchemaError as exc:
        return f"its input schema is invalid: {exc.message}"
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not _resolves(schema, ref):
                return f"its input schema refers to {ref!r}, which it does not define"
            pattern = node.get("pattern")
            if isinstance(pattern, str):
                try:
                    re.compile(pattern)
                except re.error as exc:
                    return f"its input schema has a pattern that is not valid: {exc}"
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


def _resolves(schema: dict[str, Any], ref: str) -> bool:
    if not ref.startswith("#"):
        return False  # nothing outside the schema is fetched
    node: Any = schema
    for part in [p for p in ref[1:].split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def qualified(server_key: str, tool: str) -> str:
    return tool_key(f"{PREFIX}{server_key}__{tool}")


def result_text(result: CallToolResult) -> str:
    """A tool result as the model reads it: plain text."""
    parts = [block_text(block) for block in result.content]
    text = "\n".join(part for part in parts if part)
    structured = result.structured_content
    if structured is not None and not _said(text, structured):
        dumped = json.dumps(structured, ensure_ascii=False)
        text = f"{text}\n{dumped}" if text else dumped
    if not text:
        text = "(no output)"
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + f"\n… ({len(text) - MAX_RESULT_CHARS} more characters)"
    return text


def _said(text: str, structured: Any) -> bool:
    """Whether the text blocks already say what the structured content holds (servers
    send both: the same value as JSON text, or `{"result": text}`)."""
    if structured == {"result": text}:
        return True
    try:
        return bool(json.loads(text) == structured)
    except ValueError:
        return False


def block_text(block: Any) -> str:
    kind = getattr(block, "type", "")
    if kind == "text":
        return str(block.text)
    if kind in ("image", "audio"):
        size = len(getattr(block, "data", "")) * 3 // 4
        return f"[{kind}: {getattr(block, 'mime_type', '?')}, {size} bytes, not shown]"
    if kind == "resource_link":
        return f"[resource link: {block.uri}]"
    if kind == "resource":
        resource = block.resource
        return f"[resource: {resource.uri}, {getattr(resource, 'mime_type', None) or 'data'}]"
    return f"[{kind or 'content'}: not shown]"
