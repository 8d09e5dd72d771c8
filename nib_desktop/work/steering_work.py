"""Steering an agent's session from the window (contract section 17): its mode or an
option changed, at once while no turn runs and once the running turn ends otherwise (the
agent's own clients change it between turns too), and a sign-in with one of its methods.
A choice shows once the agent accepted it; a refusal is the notice, in its words."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from host.protocol import plain_methods as rpc, plain_models as m
from nib_desktop.inbound import tools_and_controls
from nib_desktop.link.connection import HostLink
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev
from nib_desktop.state.store import AppState
from nib_desktop.work.opener import open_terminal


class SteeringWork:
    def __init__(
        self,
        host: HostLink,
        state: AppState,
        run: Runner,
        send: Callable[[str, str], Awaitable[object]],
    ) -> None:
        self._host = host
        self._state = state
        self._run = run
        self._send = send  # a message to a session (the intents' own start of a turn)
        # per session, the choices made during its turn: option id ("" the mode) -> value
        self._after: dict[str, dict[str, str]] = {}
        state.subscribe(self._at_turn_end)

    def _at_turn_end(self, event: ev.Event, _change: object) -> None:
        if not isinstance(event, ev.TurnChanged) or event.turn.state == "running":
            return
        for option, value in self._after.pop(event.turn.session_id, {}).items():
            what = "change the option" if option else "change the mode"
            self._run(self._set(event.turn.session_id, option, value), what)

    async def steer(self, option: str, value: str, then: str = "") -> None:
        """The shown agent session's mode (`option` "") or option set to `value`; `then`
        sent to it once the agent accepted that (no turn may run for it)."""
        shown = self._state.shown
        if shown is None:
            return
        if not shown.running:
            await self._set(shown.session_id, option, value)
            if then:
                await self._send(shown.session_id, then)
            return
        self._after.setdefault(shown.session_id, {})[option] = value
        told = self._state.steering.get(shown.session_id)
        names = dict(told.models if option else told.modes) if told else {}
        what = "model" if option else "mode"
        self._state.apply(
            ev.NoticeShown(f"The {what} becomes {names.get(value, value)} once this turn ends.")
        )

    async def _set(self, session_id: str, option: str, value: str) -> None:
        if option:
            chosen = m.SetOptionParams(session_id=session_id, option_id=option, value=value)
            answer = await self._host.call(rpc.AGENTS_SET_OPTION, chosen)
        else:
            mode = m.SetModeParams(session_id=session_id, mode_id=value)
            answer = await self._host.call(rpc.AGENTS_SET_MODE, mode)
        self._state.apply(ev.SteeringTold(tools_and_controls.steering(answer)))

    async def sign_in(self, agent: str, method_id: str) -> None:
        """A sign-in with the agent's method: asked of the agent, or, for a method that
        runs in a terminal, that terminal opened with the agent's command."""
        shown = self._state.shown
        told = self._state.steering.get(shown.session_id) if shown is not None else None
        terminal = next((t for t in told.terminals if t[0] == method_id), None) if told else None
        if terminal is not None:
            said = open_terminal(terminal[1], dict(terminal[2]))
            waits = f"The sign-in to {agent} runs in a terminal: send your message again once it"
            self._state.apply(ev.NoticeShown(said or f"{waits} is done."))
            return
        params = m.AuthenticateParams(agent=agent, method_id=method_id)
        await self._host.call(rpc.AGENTS_AUTHENTICATE, params)
        self._state.apply(ev.NoticeShown(f"Signed in to {agent}: send your message again.", "done"))
