"""The user's feedback on the plan, as the one message the agent is sent (ADR 0312: the
checklist is the agent's alone). The window writes it from what the user asked in the
dock (skip a step, move it, add one, comment on one); the agent reads it as any message,
and its next plan is the new checklist. Nib's demo agent reads it back with `parse` and
follows it with `apply`, so the same words work for a model, an ACP agent and the demo.

The message names each step by its text as the user saw it, and lists the checklist at
that revision, so an agent that lost its context still knows what is meant:

    Feedback on the plan (checklist revision 7):
    - Skip “Survey the code”.
    - Move “Write tests” up 2 places.
    - Add a step after “Make the change”: “Update the docs”.
    - On “Read the request”: “keep it short”.
    Write the checklist again as asked, then carry on with it.

    The checklist as I see it:
    1. [completed] Read the request
    …
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, NamedTuple

AskKind = Literal["skip", "move", "add", "comment"]
HEADING = "Feedback on the plan"
ASK_TEXT = 500  # an added step's or a comment's text, at most (section 7's item text)
MAX_ASKS = 50
_ASKED = "Write the checklist again as asked, then carry on with it."
_LISTING = "The checklist as I see it:"
_HEAD = re.compile(rf"^{HEADING} \(checklist revision (\d+)\):$")
_ITEM = re.compile(r"^\d+\. \[(\w+)\] (.*)$")
_LINES: tuple[tuple[AskKind, re.Pattern[str]], ...] = (
    ("skip", re.compile(r"^- Skip “(.*)”\.$")),
    ("move", re.compile(r"^- Move “(.*)” (up|down) (\d+) places?\.$")),
    ("add", re.compile(r"^- Add a step (?:after “(.*)”|at the end): “(.*)”\.$")),
    ("comment", re.compile(r"^- On “(.*)”: “(.*)”\.$")),
)


class PlanAsk(NamedTuple):
    """One thing the user asks of the plan. `step` is the step's text ("" for a step
    added at the end); `text` the added step's or the comment's words; `places` how far
    a step moves (negative: up)."""

    kind: AskKind
    step: str
    text: str = ""
    places: int = 0


def one_line(text: str, limit: int = ASK_TEXT) -> str:
    """The user's words on one line, as the message carries them."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def line(ask: PlanAsk) -> str:
    """The ask in the message's words."""
    match ask.kind:
        case "skip":
            return f"- Skip “{ask.step}”."
        case "move":
            way, far = ("up" if ask.places < 0 else "down"), abs(ask.places)
            return f"- Move “{ask.step}” {way} {far} place{'s' if far != 1 else ''}."
        case "add":
            where = f"after “{ask.step}”" if ask.step else "at the end"
            return f"- Add a step {where}: “{one_line(ask.text)}”."
        case "comment":
            return f"- On “{ask.step}”: “{one_line(ask.text)}”."


def message(revision: int, items: Sequence[tuple[str, str]], asks: Sequence[PlanAsk]) -> str:
    """The one message that tells the agent what the user asks; `items` (content,
    status) the checklist at `revision`, as the user saw it."""
    listing = [f"{n}. [{status}] {content}" for n, (content, status) in enumerate(items, 1)]
    return "\n".join(
        [
            f"{HEADING} (checklist revision {revision}):",
            *map(line, asks),
            _ASKED,
            "",
            _LISTING,
            *listing,
        ]
    )


def split(text: str) -> tuple[str, str] | None:
    """A feedback message as the transcript shows it: (its asks, the checklist it lists),
    so the asks read whole and the list folds apart; None for any other text."""
    lines = text.splitlines()
    if not lines or not _HEAD.match(lines[0]) or _LISTING not in lines:
        return None
    at = lines.index(_LISTING)
    return "\n".join(lines[:at]).rstrip("\n"), "\n".join(lines[at:])


def parse(text: str) -> tuple[list[tuple[str, str]], list[PlanAsk]] | None:
    """The checklist and the asks of a feedback message; None for any other text."""
    lines = text.splitlines()
    if not lines or not _HEAD.match(lines[0]):
        return None
    asks: list[PlanAsk] = []
    items: list[tuple[str, str]] = []
    for row in lines[1:]:
        item = _ITEM.match(row)
        if item:
            items.append((item.group(2), item.group(1)))
            continue
        for kind, pattern in _LINES:
            found = pattern.match(row)
            if found is None:
                continue
            if kind == "move":
                far = int(found.group(3))
                asks.append(
                    PlanAsk(kind, found.group(1), places=-far if found.group(2) == "up" else far)
                )
            elif kind == "add":
                asks.append(PlanAsk(kind, found.group(1) or "", found.group(2)))
            elif kind == "comment":
                asks.append(PlanAsk(kind, found.group(1), found.group(2)))
            else:
                asks.append(PlanAsk(kind, found.group(1)))
            break
    return items, asks


def apply(items: Sequence[tuple[str, str]], asks: Sequence[PlanAsk]) -> list[tuple[str, str]]:
    """The checklist as the asks would have it, in order: a skipped step that is not
    finished becomes cancelled, a moved one moves (within the list), an added one comes
    after its step (or at the end) as pending; a comment changes nothing. A step is found
    by its text; an ask whose step is not there is left out."""
    made = list(items)
    for ask in asks:
        at = next((i for i, (content, _s) in enumerate(made) if content == ask.step), -1)
        if ask.kind == "add":
            made.insert(at + 1 if at >= 0 else len(made), (one_line(ask.text), "pending"))
        elif at < 0 or ask.kind == "comment":
            continue
        elif ask.kind == "skip" and made[at][1] in ("pending", "in_progress"):
            made[at] = (made[at][0], "cancelled")
        elif ask.kind == "move":
            moved = made.pop(at)
            made.insert(max(0, min(len(made), at + ask.places)), moved)
    return made
