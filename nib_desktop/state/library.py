"""The library of sessions as the window holds it: what the user asks of it (a session
renamed, every session searched, one exported as Markdown) and the search's answer.
No Qt."""

from nib_desktop.state.record import Record
from nib_desktop.state.tuples import NamedTuple


class RenameSession(Record):
    session_id: str
    title: str


class SearchSessions(Record):
    """Every session searched for `query`; the answer is `SearchAnswered`."""

    query: str


class ExportSession(Record):
    """The session written as Markdown to `path` ("~" allowed); a file there replaced
    only when `replace`."""

    session_id: str
    path: str
    replace: bool = False


LibraryIntent = RenameSession | SearchSessions | ExportSession


class Hit(NamedTuple):
    """A place a search found: a session's title, or one of its messages."""

    session_id: str
    title: str
    message_seq: int  # 0: the title matched
    who: str  # "You", "Agent", "Summary" ("" for a title)
    when: str  # the user's local "YYYY-MM-DD HH:MM"
    snippet: str  # one line around the match
    marks: tuple[tuple[int, int], ...]  # the matched words in `snippet`, [start, end)


class Search(NamedTuple):
    """The latest search's answer (what was asked, what it found, or why it failed)."""

    query: str = ""
    hits: tuple[Hit, ...] = ()
    error: str = ""


class SearchAnswered(NamedTuple):
    search: Search
