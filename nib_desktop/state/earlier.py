"""An agent's own earlier sessions (contract section 20), as the window lists them for a
folder to open one in Nib: the agent's pages, newest first, each marked when it is in Nib
already. Plain values, no Qt."""

from nib_desktop.state.tuples import NamedTuple


class EarlierRow(NamedTuple):
    agent_session_id: str
    title: str
    when: str  # as the agent said it
    folder: str
    imported: str  # the Nib session bound to it ("": none)
    accessible: str  # all of it in words


class Earlier(NamedTuple):
    agent: str = ""  # the configured agent whose sessions these are ("": none asked)
    folder: str = ""  # as typed
    rows: tuple[EarlierRow, ...] = ()
    cursor: str = ""  # the agent's next page ("": none)
    note: str = ""  # why there is nothing to show, in words
    loading: bool = False


class EarlierListed(NamedTuple):
    """The event: what the window holds of an agent's earlier sessions."""

    earlier: Earlier


class ListEarlier(NamedTuple):
    """The intent: the agent's sessions for `folder`, or (`more`) its next page."""

    agent: str
    folder: str
    more: bool = False


class ImportEarlier(NamedTuple):
    """The intent: one of them opened as a Nib session (the one already bound, if any)."""

    agent: str
    agent_session_id: str
    folder: str
