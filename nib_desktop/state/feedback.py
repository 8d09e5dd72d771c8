"""The user's feedback on the plan, gathered in the dock until it is sent: what they
ask of each step (skip it, move it, add one after it, comment on it), per session.

ADR 0312 keeps the checklist the agent's alone, and nothing here writes it: the asks go
to the agent as one message (the Main role's `nib_desktop.work.feedback_work`), and the agent's
next plan is the new checklist."""

from collections.abc import Sequence

from nib_desktop.state.record import Record
from nib_desktop.state.tuples import NamedTuple
from nib_desktop.state.types import AskKind, Item, PlanAsk

__all__ = [
    "MAX_ASKS", "AskKind", "AskOnPlan", "DropAsk", "FeedbackIntent", "PlanAsk", "PlanAsked",
    "SendFeedback", "joined", "landing", "said", "stale", "step_asks",
]  # fmt: skip

MAX_ASKS = 50  # asks held per session; more are refused in words


class PlanAsked(NamedTuple):
    """The asks held on a session's plan (all of them; () once sent), and whether they go
    when its running turn ends (composed then, against the checklist as it is then)."""

    session_id: str
    asks: tuple[PlanAsk, ...]
    queued: bool = False


class AskOnPlan(Record):
    ask: PlanAsk


class DropAsk(Record):
    index: int  # -1: every ask


class SendFeedback(Record):
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


OPEN = frozenset({"pending", "in_progress"})  # a step an ask can still be about


def said(ask: PlanAsk, items: Sequence[Item] = ()) -> str:
    """The ask as the dock lists it; a move says where the step lands in `items`."""
    match ask.kind:
        case "skip":
            return f"Skip “{ask.step}”"
        case "move":
            lands = landing(ask, items)
            if lands:
                return f"Move “{ask.step}” {lands}"
            far = abs(ask.places)
            way = "up" if ask.places < 0 else "down"
            return f"Move “{ask.step}” {way} {far} place{'s' if far != 1 else ''}"
        case "add":
            where = f"after “{ask.step}”" if ask.step else "at the end"
            return f"Add a step {where}: “{ask.text}”"
        case "comment":
            return f"On “{ask.step}”: “{ask.text}”"


def landing(ask: PlanAsk, items: Sequence[Item]) -> str:
    """Where a moved step lands among the others ("before “B”", "to the top", …); "" when
    it is not in `items`."""
    order = [item.content for item in items]
    if ask.step not in order:
        return ""
    at = order.index(ask.step)
    rest = order[:at] + order[at + 1 :]
    to = max(0, min(len(rest), at + ask.places))
    if to == 0:
        return "to the top"
    if to == len(rest):
        return "to the end"
    return f"before “{rest[to]}”" if ask.places < 0 else f"after “{rest[to - 1]}”"


def stale(ask: PlanAsk, items: Sequence[Item]) -> str:
    """Why an ask no longer fits the checklist (its step finished or gone: it is not sent),
    in words; "" while it does."""
    if ask.kind == "add" and not ask.step:
        return ""
    status = next((item.status for item in items if item.content == ask.step), None)
    if status is None:
        return "its step is no longer in the list"
    if status not in OPEN and ask.kind != "add":
        return f"its step is {status} now"
    return ""


def step_asks(asks: Sequence[PlanAsk], step: str) -> str:
    """What the held asks ask of one step, as its row in the dock says it ("" none)."""
    words = {"skip": "skip", "move": "move", "comment": "comment", "add": "a step after it"}
    asked = list(dict.fromkeys(words[a.kind] for a in asks if a.step == step))
    return "Asked: " + ", ".join(asked) if asked else ""
