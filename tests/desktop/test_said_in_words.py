"""What the window says in words (issue 47, points 11 and 21): a success is not an error
(`until="done"`: the plain colour, gone by itself, staying with the session it was said
of), and an empty list of an agent's modes says the agent offers none."""

from __future__ import annotations

from nib_desktop.state import events as ev, store
from nib_desktop.state.store import AppState
from nib_desktop.state.types import Session


def listed() -> AppState:
    state = AppState()
    state.apply(ev.SessionsListed((Session("a", "A", "agent"), Session("b", "B", "agent"))))
    return state


def test_a_success_stays_with_its_session_and_a_failure_follows_the_user() -> None:
    state = listed()
    shown = state.current
    other = "b" if shown == "a" else "a"
    state.apply(ev.NoticeShown("Restored 3 files", "done"))
    change = state.apply(ev.SessionShown(other))
    assert state.notice == "" and store.NOTICE in change
    state.apply(ev.NoticeShown("Could not restore: the folder is gone"))
    state.apply(ev.SessionShown(shown or ""))
    assert state.notice == "Could not restore: the folder is gone"  # until the user acts


def test_the_view_tells_a_success_from_a_failure(qapp) -> None:
    from ui.views.notices import NoticeView

    state = listed()
    view = NoticeView(state, lambda _intent: None)
    state.apply(ev.NoticeShown("Merged ⎇ nib/x into main (squash): 1234", "done"))
    assert view.property("done") and view.property("text").startswith("Merged")
    state.apply(ev.NoticeShown("Could not merge: a conflict"))
    assert not view.property("done")


def test_the_palette_says_an_agent_offers_no_modes(qapp) -> None:
    """Issue 47, point 21: Ctrl+Shift+M on an agent with no modes says so in words, not
    "No command matches "Mode:"" (the palette's empty list shows this text)."""
    from nib_desktop.state.steering import Steering
    from ui.views.dock import DockView
    from ui.views.palette import PaletteView

    state = AppState()
    state.apply(ev.SessionsListed((Session("a", "A", "agent", agent="Codex"),)))
    state.apply(ev.SteeringTold(Steering("a", model="gpt-5", models=(("gpt-5", "gpt-5"),))))
    ask = lambda _intent: None  # noqa: E731
    view = PaletteView(state, DockView(state, ask), ask)
    assert view.nothingToChoose("Mode: ") == "Codex offers no other mode in this session"
    assert view.nothingToChoose("Model: ") == "Codex offers no other model in this session"
    assert view.nothingToChoose("") == ""
    two = (("default", "Default"), ("plan", "Plan"))
    state.apply(ev.SteeringTold(Steering("a", mode="Default", modes=two)))
    assert view.nothingToChoose("Mode: ") == ""


def test_the_default_looking_answer_is_the_least_an_allow_gives(qapp) -> None:
    """Issue 47, point 9: an agent that lists "Always Allow" first (as Claude Code does)
    does not get it drawn as the default: "Allow once" is, whatever the order."""
    from nib_desktop.state.tool_types import AgentOption, Approval
    from ui.views.approvals import ApprovalsView

    state = listed()
    options = (
        AgentOption("always", "Always Allow all Edit", "allow_always", "allow_session"),
        AgentOption("yes", "Allow", "allow_once", "allow_once"),
        AgentOption("no", "Reject", "reject_once", "deny"),
    )
    state.apply(ev.ApprovalRequested(Approval("p1", state.current or "a", "Edit", "{}", options)))
    view = ApprovalsView(state, lambda _intent: None)
    shown = {o["optionId"]: o["primary"] for o in view.options()}
    assert shown == {"always": False, "yes": True, "no": False}


def test_a_turns_end_is_heard_once_and_never_each_piece(qapp) -> None:
    """Issue 47, point 29: a screen reader hears the answer when the shown session's turn
    ends (politely, once), or how it ended; never the streamed pieces, never another
    session's turn."""
    from nib_desktop.state.transcript_lines import Line
    from nib_desktop.state.types import TurnView
    from ui.views.announcer import Announcer

    state = listed()
    shown = state.current or "a"
    heard: list[str] = []
    Announcer(state, say=heard.append)
    state.apply(ev.TranscriptPage(shown, (Line("user", "fix it", seq=1),), False, 1, "t1"))
    state.apply(ev.TurnChanged(TurnView(shown, "running", "", "t1")))
    for piece in ("The parser ", "is fixed."):
        state.apply(ev.TextStreamed(shown, False, piece))
    assert heard == []
    state.apply(ev.LinesAppended(shown, (Line("assistant", "The parser is fixed.", seq=2),)))
    state.apply(ev.TurnChanged(TurnView(shown, "completed", "", "t1")))
    assert heard == ["The agent answered: The parser is fixed."]
    other = "b" if shown == "a" else "a"
    state.apply(ev.TurnChanged(TurnView(other, "failed", "boom", "t9")))
    state.apply(ev.TurnChanged(TurnView(shown, "failed", "the model said no", "t2")))
    assert heard[1:] == ["The turn failed: the model said no"]


def test_an_agent_starting_says_so_in_the_composer(qapp) -> None:
    """Issue 47, point 15: while the session's agent starts (its first prompt, or after a
    restart), the composer's line says "Starting Codex…" instead of nothing."""
    from nib_desktop.state.steering import Steering
    from nib_desktop.state.types import AgentChoice
    from ui.views.composer import ComposerView

    state = AppState()
    state.apply(ev.SessionsListed((Session("a", "A", "agent", agent="Codex"),)))
    view = ComposerView(state, lambda _intent: None)
    state.apply(ev.AgentsListed((AgentChoice("Codex", "starting", "", ""),)))
    assert view.property("steering") == "Starting Codex…"
    state.apply(ev.AgentsListed((AgentChoice("Codex", "ready", "", "codex-acp 0.16.0"),)))
    state.apply(ev.SteeringTold(Steering("a", model="gpt-5")))
    assert view.property("steering") == "gpt-5"
