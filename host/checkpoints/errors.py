"""What goes wrong with a session's folder or its store, in words."""

from __future__ import annotations


class FolderError(Exception):
    """The folder or its store cannot be read or written; the message says why."""


class FolderGone(FolderError):
    """The folder no longer exists."""
