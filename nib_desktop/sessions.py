"""Session state: the sessions as the host last reported them and the one on screen (the
unsent drafts are the controller's, beside the input). No I/O: `nib_desktop.actions` asks
the host, the notification router reports changes, and this class publishes them to the
view."""

from __future__ import annotations

from host.protocol import models as m
from nib_desktop import convert
from nib_desktop.controller import MainController


class SessionState:
    def __init__(self, view: MainController) -> None:
        self._view = view
        self._sessions: dict[str, m.Session] = {}
        self._current: str | None = None
        # the shown session's transcript as loaded (its pages and the line maker)
        self.transcript = convert.Transcript()

    @property
    def current(self) -> m.Session | None:
        return self._sessions.get(self._current or "")

    def get(self, session_id: str) -> m.Session | None:
        return self._sessions.get(session_id)

    def replace_all(self, sessions: tuple[m.Session, ...]) -> None:
        """A fresh listing (after a connect); the shown session stays if it still exists,
        else the newest is shown."""
        self._sessions = {s.id: s for s in sessions}
        if self._current not in self._sessions:
            self._current = sessions[0].id if sessions else None
        self._publish_list()
        self._publish_current()

    def update(self, session: m.Session) -> None:
        self._sessions[session.id] = session
        self._publish_list()
        if session.id == self._current:
            self._publish_current()

    def remove(self, session_id: str) -> bool:
        """Forget a deleted session; True if it was the one on screen (the newest other
        session is then shown)."""
        if self._sessions.pop(session_id, None) is None:
            return False
        self._publish_list()
        if session_id != self._current:
            return False
        rest = self._ordered()
        self._current = rest[0].id if rest else None
        self._publish_current()
        return True

    def select(self, session_id: str) -> bool:
        """Show another session; False if it is unknown or already shown."""
        if session_id not in self._sessions or session_id == self._current:
            return False
        self._current = session_id
        self._publish_current()
        return True

    def _ordered(self) -> list[m.Session]:
        return sorted(
            self._sessions.values(), key=lambda s: (s.updated_at, s.created_at), reverse=True
        )

    def _publish_list(self) -> None:
        self._view.sessions_model.set_rows([convert.session_row(s) for s in self._ordered()])

    def _publish_current(self) -> None:
        session = self.current
        self._view.set_current(convert.session_row(session) if session else None)
