"""What a finished tool call did, as the transcript keeps it (contract section 16, the
project's shape): its diffs (each at its place in the file, as the host finds it on disk),
its text or command output, the places it touched and the images it showed, each bounded."""

from __future__ import annotations

import base64
import binascii
import json
import os
import stat
from typing import Any, Protocol

from host.protocol import models as m
from host.protocol.text import shorten

from .image_size import fits
from .updates import (
    ContentPart,
    DiffPart,
    ImageBlock,
    NamedBlock,
    Part,
    Place,
    TextBlock,
    ToolFields,
)


class Told(Protocol):
    """What a call said of itself so far: its kind, content and places."""

    kind: str | None
    content: list[Part]
    locations: list[Place]


def as_text(value: Any) -> str:
    """An agent's raw input or output as text: a string as it is, else its JSON."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def activity(call: Told, status: str, update: ToolFields | None) -> m.ToolActivity:
    """What a finished call did, as the transcript keeps it (section 16): its diffs, its
    text (or command) output and its locations, each bounded by MAX_TOOL_TEXT."""
    diffs: list[m.ToolDiff] = []
    texts: list[str] = []
    images: list[m.ToolImage] = []
    for part in call.content:
        match part:
            case DiffPart(old_text=old, new_text=new):
                if old is None and status == "pending":  # asked to write: what it replaces
                    old = file_text(part.path)
                cut = len(new) > m.MAX_TOOL_TEXT or (old is not None and len(old) > m.MAX_TOOL_TEXT)
                diffs.append(
                    m.ToolDiff(
                        path=shorten(part.path, 1000),
                        old_text=None if old is None else old[: m.MAX_TOOL_TEXT],
                        new_text=new[: m.MAX_TOOL_TEXT],
                        truncated=cut,
                        line=line_in_file(part.path, new) if old is not None else None,
                    )
                )
            case ContentPart(content=TextBlock(text=text)):
                texts.append(text)
            case ContentPart(content=ImageBlock() | NamedBlock() as block):
                texts.append(f"({block.type} {shorten(block.uri or '', 200)})")
                shown = tool_image(block) if len(images) < m.MAX_TOOL_IMAGES else None
                images += [shown] if shown is not None else []
    if not texts:
        raw = _raw_output(update.raw_output) if update is not None and not diffs else ""
        texts = [raw] if raw else []
    output = "\n".join(texts)
    locations = [
        m.ToolLocation(path=shorten(place.path, 1000), line=place.line) for place in call.locations
    ]
    return m.ToolActivity(
        kind=call.kind,
        status="failed" if status == "failed" else "completed",
        diffs=tuple(diffs),
        output=output[: m.MAX_TOOL_TEXT],
        truncated=len(output) > m.MAX_TOOL_TEXT,
        locations=tuple(locations),
        images=tuple(images),
    )


MAX_LOOKED_AT = 1024 * 1024  # bytes of a file read to find where an edit's text starts


def file_text(path: str) -> str | None:
    """The text of the file at `path` (absolute) now, if it is there, a regular file of at
    most MAX_LOOKED_AT bytes and UTF-8; else None."""
    if not os.path.isabs(path):
        return None
    try:  # never blocks on a FIFO the agent named: opened without waiting, then checked
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            held = handle.read(MAX_LOOKED_AT + 1)
        except OSError:
            return None
    if len(held) > MAX_LOOKED_AT:
        return None
    try:
        return held.decode("utf-8")
    except UnicodeDecodeError:
        return None


def line_in_file(path: str, new: str) -> int | None:
    """Where `new` (an edit's text after) starts in the file at `path` now, 1-based: the
    first place it stands; None when the file cannot be read (`file_text`) or does not
    hold it (changed again since)."""
    text = file_text(path) if new else None
    at = text.find(new) if text is not None else -1
    return text.count("\n", 0, at) + 1 if text is not None and at >= 0 else None


def tool_image(block: ImageBlock | NamedBlock) -> m.ToolImage | None:
    """An image content block kept to be drawn: a known image type, valid base64, at
    most MAX_TOOL_IMAGE bytes and, as its header says, at most 16 megapixels (a small
    file can say gigapixels, which drawing its thumbnail would decode); None otherwise
    (it stays named in the output)."""
    if not isinstance(block, ImageBlock) or len(block.data) > m.MAX_TOOL_IMAGE * 4 // 3 + 4:
        return None
    try:
        if not fits(base64.b64decode(block.data, validate=True)):
            return None
        return m.ToolImage.model_validate({"mimeType": block.mime_type, "data": block.data})
    except (ValueError, binascii.Error):
        return None


def output_of(update: ToolFields) -> str:
    """A tool call's output as text: its text content, else its raw output."""
    parts: list[str] = []
    for part in update.content or ():
        match part:
            case ContentPart(content=TextBlock(text=text)):
                parts.append(text)
            case DiffPart(path=path):
                parts.append(f"edited {path or 'a file'}")
    if parts:
        return "\n".join(parts)
    return _raw_output(update.raw_output)


def _raw_output(raw: Any) -> str:
    """A tool's raw output as text: a command's output under the names agents use."""
    if isinstance(raw, dict):
        for key in ("formatted_output", "aggregated_output", "output", "stdout"):
            if isinstance(raw.get(key), str) and raw[key].strip():
                return str(raw[key])
        return ""
    return as_text(raw) if raw is not None else ""
