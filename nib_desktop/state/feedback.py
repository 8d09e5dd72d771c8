"""The user's feedback on the plan, gathered in the dock until it is sent: what they
ask of each step (skip it, move it, add one after it, comment on it), per session.

ADR 0312 keeps the checklist the agent's alone, and nothing here writes it: the asks go
to the agent as one message (the Main role's `nib_desktop.work.feedback_work`), and the agent's
next plan is the new checklist."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from nib_desktop.state.types import AskKind, PlanAsk

__all__ = [
    "MAX_ASKS", "AskKind", "AskOnPlan", "DropAsk", "FeedbackIntent", "PlanAsk", "PlanAsked",
    "SendFeedback", "joined", "said",
]  # fmt: skip

MAX_ASKS = 50  # asks held per session; more are refused in words


class PlanAsked(NamedTuple):
    """The asks held on a session's plan (all of them; () once sent), and whether they go
    when its running turn ends (composed then, against the checklist as it is then)."""

    session_id: str
    asks: tuple[PlanAsk, ...]
    queued: bool = False


@dataclass(frozen=True)
class AskOnPlan:
    ask: PlanAsk


@dataclass(frozen=True)
class DropAsk:
    index: int  # -1: every ask


@dataclass(frozen=True)
class SendFeedback:
    """The asks held for the shown session, to its agent as one message (queued while a
    turn runs, as a message is)."""


FeedbackIntent = AskOnPlan | DropAsk | SendFeedback


def joined(asks: tuple[PlanAsk, ...], ask: PlanAsk) -> tuple[PlanAsk, ...]:
    """`asks` with `ask` after them: a move right after a move of the same step adds to
    it (and both go when they cancel out); a step asked to be skipped twice once."""
    if ask.kind == "skip" and ask in asks:
        return asks
    last = asks[-1] if asks else None
    if ask.kind == "move" and last is not None and (last.kind, last.step) == ("move", ask.step):
        places = last.places + ask.places
        return asks[:-1] + ((last._replace(places=places),) if places else ())
    return (*asks, ask)


def said(ask: PlanAsk) -> str:
    """The ask as the dock lists it."""
    match ask.kind:
        case "skip":
            return f"Skip “{ask.step}”"
        case "move":
            far = abs(ask.places)
            way = "up" if ask.places < 0 else "down"
            return f"Move “{ask.step}” {way} {far} place{'s' if far != 1 else ''}"
        case "add":
            where = f"after “{ask.step}”" if ask.step else "at the end"
            return f"Add a step {where}: “{ask.text}”"
        case "comment":
            return f"On “{ask.step}”: “{ask.text}”"
