"""The user's feedback on the plan, carried out: the asks gathered in the dock are held
per session (`state.feedback`), and Send turns them into the one message the agent gets
(`host.protocol.feedback`), sent as the user's message, or queued like one while a turn
runs. Nothing here writes the checklist (ADR 0312): the agent's next plan does."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from host.protocol import feedback as words, models as m
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

    def message(self, session_id: str) -> str:
        """The message the held asks make ("" without asks or a checklist)."""
        asks = self._state.plan_asks.get(session_id, ())
        snapshot = self._state.snapshot(session_id)
        if not asks or snapshot is None:
            return ""
        items = [(item.content, item.status) for item in snapshot.items]
        told = [words.PlanAsk(a.kind, a.step, a.text, a.places) for a in asks]
        return words.message(snapshot.revision, items, told)

    async def send(self, session_id: str) -> None:
        """The asks to the agent: now, or after the running turn (as a queued message);
        they are held until the host took the message, so a failure loses none."""
        text = self.message(session_id)
        session = self._state.session(session_id)
        if not text or session is None:
            return
        if session.running:
            queued = self._state.queued.get(session_id, "")
            self._state.apply(
                ev.MessageQueued(session_id, f"{queued}\n\n{text}" if queued else text)
            )
        else:
            await self._start_in(session_id, text)
        self._state.apply(ev.PlanAsked(session_id, ()))
