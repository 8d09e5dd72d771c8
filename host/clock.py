"""Time stamps and ids in the contract's forms."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime


def now_iso() -> str:
    """ISO 8601 UTC with milliseconds and a Z: 2026-11-29T18:20:01.123Z."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_id() -> str:
    return str(uuid.uuid4())
