"""The user's feedback on the plan, carried out: the asks gathered in the dock are held
per session (`state.feedback`), and Send turns them into the one message the agent gets
(`host.protocol.feedback`), sent as the user's message, or queued like one while a turn
runs. Nothing here writes the checklist (ADR 0312): the agent's next plan does."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from host.protocol import feedback as words, plain_models as m
from nib_desktop.link.runner import Runner
from nib_desktop.state import events as ev, feedback as fb
from nib_desktop.state.store import AppState

StartIn = Callable[[str, str], Coroutine[Any, Any, m.Turn]]


class FeedbackWork:
    HANDLES = (fb.AskOnPlan, fb.DropAsk, fb.SendFeedback)  # the intents it carries out

    def __init__(self, state: AppState, run: Runner, start_in: StartIn) -> None:
        self._state = state
        self._run = run
        self._start_in = start_in

    def ask(self, intent: fb.FeedbackIntent) -> None:
        state = self._state
        session_id = state.current
        if session_id is None:
            return
        held = state.plan_asks.get(session_id, ())
        match intent:
            case fb.AskOnPlan(ask):
                if len(held) >= fb.MAX_ASKS:
                    state.apply(
                        ev.NoticeShown(f"At most {fb.MAX_ASKS} asks at once: send these first.")
                    )
                    return
                state.apply(ev.PlanAsked(session_id, fb.joined(held, ask)))
            case fb.DropAsk(index):
                kept = () if index < 0 else held[:index] + held[index + 1 :]
                state.apply(ev.PlanAsked(session_id, kept))
            case fb.SendFeedback():
                if held:
                    self._run(self.send(session_id), "send the feedback on the plan")

    async def send(self, session_id: str) -> None:
        """The asks to the agent: now, or when the running turn ends, composed then
        against the checklist as it stands then (`due`); held until the host took the
        message, so a failure loses none."""
        held = self._state.plan_asks.get(session_id, ())
        session = self._state.session(session_id)
        if not held or session is None:
            return
        if session.running:
            self._state.apply(ev.PlanAsked(session_id, held, queued=True))
            self._state.apply(
                ev.NoticeShown("Your asks go to the agent when this turn ends.", "done")
            )
            return
        text = self._written(session_id, held)
        if text:
            await self._start_in(session_id, text)
        self._state.apply(ev.PlanAsked(session_id, ()))

    def due(self, session_id: str, completed: bool) -> str:
        """At the end of a turn: the message of the asks queued for it, written against
        the checklist as it is now; asks about steps finished or gone meanwhile are not
        sent, and said. After a turn that did not complete, they stay held, unsent."""
        state = self._state
        if session_id not in state.asks_queued:
            return ""
        asks = state.plan_asks.get(session_id, ())
        if not completed:
            state.apply(ev.PlanAsked(session_id, asks))
            return ""
        state.apply(ev.PlanAsked(session_id, ()))
        return self._written(session_id, asks)

    def _written(self, session_id: str, asks: tuple[fb.PlanAsk, ...]) -> str:
        """The message of `asks` against the checklist as it is now; the asks about steps
        finished or gone meanwhile left out, and said ("" when none is left)."""
        state = self._state
        snapshot = state.snapshot(session_id)
        steps = snapshot.items if snapshot else ()
        live = tuple(a for a in asks if not fb.stale(a, steps))
        stale = [a for a in asks if a not in live]
        if stale:
            listed = "; ".join(fb.said(a) for a in stale)
            which = "These asks were" if live else "Your asks were"
            state.apply(
                ev.NoticeShown(
                    f"{which} not sent: their steps were finished or removed meanwhile: {listed}"
                )
            )
        if not live or snapshot is None:
            return ""
        items = [(item.content, item.status) for item in steps]
        told = [words.PlanAsk(a.kind, a.step, a.text, a.places) for a in live]
        return words.message(snapshot.revision, items, told)
