"""The project's methods over the whole library of sessions: rename one, search them all,
export one as Markdown. Reached as `models.X`, like every wire type."""

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from host.protocol.wire import Id, Wire

NewTitle = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
ExportPath = Annotated[str, StringConstraints(min_length=1, max_length=4096)]


class RenameParams(Wire):
    session_id: Id
    title: NewTitle


class SearchParams(Wire):
    """Every session's title and transcript (what the user and the agents said) searched
    for all the words of `query`, the last one as a prefix; the newest matches first."""

    query: Query
    limit: int = Field(default=50, ge=1, le=200)


class SearchHit(Wire):
    session_id: str
    title: str
    # the message that matched; None when the session's title did
    message_id: str | None
    seq: int | None  # the message's place in its transcript
    role: Literal["user", "assistant", "summary"] | None
    created_at: str
    # a few words either side of the match, one line; `marks` are its matched words as
    # [start, end) character offsets into it
    snippet: str
    marks: tuple[tuple[int, int], ...]


class SearchResults(Wire):
    hits: tuple[SearchHit, ...]


class ExportParams(Wire):
    """The session written as Markdown to `path` (absolute, on the host's machine; a file
    there is replaced only when `replace`)."""

    session_id: Id
    path: ExportPath
    replace: bool = False


class Exported(Wire):
    path: str
    bytes: int
