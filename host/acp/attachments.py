"""Files and images in a prompt to an external agent (contract section 17): a file must be
under the session's folder (a link whose target is outside counts as outside) and goes as a
link to it, or, where the agent takes embedded context, as its text when it is text under
256 KiB; an image only to an agent that takes images."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host.protocol import errors, models as m

EMBED_BYTES = 256 * 1024


def under_folder(cwd: str | None, path: str) -> Path:
    """The attached file, resolved; -32602 naming it when it is outside `cwd` or missing."""
    if not cwd:
        raise errors.InvalidParams("this session has no folder to attach files from")
    folder = Path(cwd).resolve()
    given = Path(path)
    target = (given if given.is_absolute() else folder / given).resolve()
    if not target.is_relative_to(folder):
        raise errors.InvalidParams(f"{path!r} is outside the session's folder {cwd}")
    if not target.is_file():
        raise errors.InvalidParams(f"{path!r} is not a file in the session's folder")
    return target


def check(
    session: m.Session,
    attachments: tuple[m.FileAttachment | m.ImageAttachment, ...],
    kinds: m.PromptKinds | None,
) -> None:
    """-32602 for what cannot go to this agent; `kinds` None: not known yet (not started)."""
    for attachment in attachments:
        if isinstance(attachment, m.FileAttachment):
            under_folder(session.cwd, attachment.path)
        elif kinds is not None and not kinds.image:
            raise errors.InvalidParams(f"{session.agent} takes no images in a prompt")


def blocks(
    session: m.Session,
    attachments: tuple[m.FileAttachment | m.ImageAttachment, ...],
    kinds: m.PromptKinds,
) -> list[Any]:
    """The prompt's content blocks after its text."""
    from acp import (
        embedded_text_resource,
        image_block,
        resource_block,
        resource_link_block,
    )

    made: list[Any] = []
    for attachment in attachments:
        if isinstance(attachment, m.ImageAttachment):
            made.append(image_block(attachment.data, attachment.mime_type))
            continue
        target = under_folder(session.cwd, attachment.path)
        uri = target.as_uri()
        text = _text(target) if kinds.embedded_context else None
        if text is not None:
            made.append(resource_block(embedded_text_resource(uri, text)))
        else:
            made.append(resource_link_block(target.name, uri, size=target.stat().st_size))
    return made


def _text(path: Path) -> str | None:
    """The file's text when it is UTF-8 text under EMBED_BYTES, else None."""
    try:
        if path.stat().st_size >= EMBED_BYTES:
            return None
        data = path.read_bytes()
        return data.decode("utf-8") if b"\0" not in data else None
    except (OSError, UnicodeDecodeError):
        return None
