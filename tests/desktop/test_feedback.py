"""Feedback on the plan (issue 34, point 5): the user's asks on the checklist go to the
agent as one message, and nothing but the agent writes the checklist (ADR 0312). The
Main role against the real host core and its demo agent, paired in one process."""

from __future__ import annotations

import asyncio
from typing import Any

from harness.paired import paired
from harness.waiting import until
from host.protocol import (
    feedback as words,
    methods as rpc,
    plain_methods as plain_rpc,
    plain_models as plain,
)
from nib_desktop.state import feedback as fb, intents as it

STEPS = "1. Add the column\n2. Write the tests\n3. Update the docs"


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 30))


def test_the_message_reads_back_as_it_was_written() -> None:
    items = [("Read “it”", "completed"), ("Write: tests", "in_progress"), ("Ship", "pending")]
    asks = [
        words.PlanAsk("skip", "Write: tests"),
        words.PlanAsk("move", "Ship", places=-2),
        words.PlanAsk("move", "Ship", places=1),
        words.PlanAsk("add", "Ship", "Tag the release"),
        words.PlanAsk("add", "", "Say “done”"),
        words.PlanAsk("comment", "Read “it”", "keep it short: one page"),
    ]
    text = words.message(4, items, asks)
    assert text.startswith("Feedback on the plan (checklist revision 4):\n- Skip “Write: tests”.")
    assert "- Move “Ship” up 2 places.\n- Move “Ship” down 1 place." in text
    assert words.parse(text) == (items, asks)
    assert words.parse("Feedback on the plan, please") is None
    assert words.apply(items, asks) == [
        ("Read “it”", "completed"),
        ("Ship", "pending"),
        ("Tag the release", "pending"),
        ("Write: tests", "cancelled"),
        ("Say “done”", "pending"),
    ]
    # a finished step is not skipped; an ask whose step is gone changes nothing
    assert words.apply(items, [words.PlanAsk("skip", "Read “it”")]) == items
    assert words.apply(items, [words.PlanAsk("move", "Gone", places=1)]) == items


def test_asks_join_as_the_dock_lists_them() -> None:
    skip = fb.PlanAsk("skip", "A")
    held = fb.joined(fb.joined((), skip), skip)
    assert held == (skip,)
    held = fb.joined(
        fb.joined(held, fb.PlanAsk("move", "B", places=-1)), fb.PlanAsk("move", "B", places=-1)
    )
    assert held[-1] == fb.PlanAsk("move", "B", places=-2)
    assert fb.joined(held, fb.PlanAsk("move", "B", places=2)) == (skip,)  # they cancel out
    assert [fb.said(a) for a in held] == ["Skip “A”", "Move “B” up 2 places"]


def test_a_move_says_where_it_lands_and_a_stale_ask_says_why() -> None:
    """Issue 47, point 26: a move named by where the step lands, an ask whose step has
    finished or gone marked, each step's asks on its row."""
    from nib_desktop.state.types import Item

    items = (
        Item("A", "completed"),
        Item("B", "pending"),
        Item("C", "pending"),
        Item("D", "pending"),
    )

    def said(step: str, places: int) -> str:
        return fb.said(fb.PlanAsk("move", step, places=places), items)

    assert said("C", -1) == "Move “C” before “B”" and said("B", 1) == "Move “B” after “C”"
    assert said("C", -2) == "Move “C” to the top" and said("B", 5) == "Move “B” to the end"
    assert said("Z", -1) == "Move “Z” up 1 place"  # not in the list: as asked
    assert fb.stale(fb.PlanAsk("skip", "A"), items) == "its step is completed now"
    assert fb.stale(fb.PlanAsk("comment", "Z", "x"), items) == "its step is no longer in the list"
    assert fb.stale(fb.PlanAsk("add", "A", "x"), items) == ""  # after a finished step: fine
    assert (
        fb.stale(fb.PlanAsk("add", "", "x"), ()) == ""
        and fb.stale(fb.PlanAsk("skip", "B"), items) == ""
    )
    held = (fb.PlanAsk("skip", "B"), fb.PlanAsk("comment", "B", "x"), fb.PlanAsk("add", "B", "y"))
    assert fb.step_asks(held, "B") == "Asked: skip, comment, a step after it"
    assert fb.step_asks(held, "C") == ""


def test_no_method_of_the_contract_writes_the_checklist() -> None:
    todos = {name for name in rpc.METHODS if name.startswith("todos.")}
    assert todos == {"todos.get", "todos.history"} and todos <= rpc.READS


def test_feedback_reaches_the_agent_which_writes_the_new_list(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "60000")  # the turn runs until stopped

    async def body() -> None:
        async with paired(tmp_path) as main:
            state = main.state
            session = await main.intents.sessions.create_session("agent")
            await until(lambda: state.transcript.loaded, what="the session shown")
            await main.intents.sessions.start_turn(STEPS)
            await until(
                lambda: (s := state.snapshot(session.id)) is not None and s.revision >= 1,
                what="the list written",
            )
            before = state.snapshot(session.id)
            assert before is not None
            calls = len(main.link.calls)
            for ask in (
                fb.PlanAsk("skip", "Write the tests"),
                fb.PlanAsk("move", "Update the docs", places=-1),
                fb.PlanAsk("add", "Update the docs", "Tag the release"),
                fb.PlanAsk("comment", "Add the column", "use a nullable column"),
            ):
                main.intents.ask(it.AskOnPlan(ask))
            assert len(state.plan_asks[session.id]) == 4
            # while the turn runs they are held to go at its end (written then, against
            # the checklist as it is then); asking wrote nothing
            main.intents.ask(it.SendFeedback())
            await until(lambda: session.id in state.asks_queued, what="the feedback queued")
            assert len(state.plan_asks[session.id]) == 4 and session.id not in state.queued
            assert main.link.calls[calls:] == []  # no host call at all
            turn = state.turn(session.id).turn_id
            await main.intents.sessions.cancel_turn()
            await until(lambda: state.turn(session.id).state == "cancelled", what="stopped")
            # a stopped turn: they wait, held, for the user to send them
            await until(lambda: session.id not in state.asks_queued, what="held again")
            snapshot = await main.link.call(
                plain_rpc.TODOS_GET, plain.SessionRef(session_id=session.id)
            )
            assert snapshot.revision == before.revision  # unchanged until the agent writes
            main.intents.ask(it.SendFeedback())
            await until(lambda: state.turn(session.id).turn_id not in ("", turn), what="sent")
            await until(
                lambda: (
                    (s := state.snapshot(session.id)) is not None and s.revision > before.revision
                ),
                what="the agent's new list",
            )
            after = state.snapshot(session.id)
            assert after is not None and after.revision == before.revision + 1
            assert [(i.content, i.status) for i in after.items] == [
                ("Add the column", "in_progress"),
                ("Update the docs", "pending"),
                ("Tag the release", "pending"),
                ("Write the tests", "cancelled"),
            ]
            texts = [line.text for line in state.transcript.lines]
            assert any("Noted on “Add the column”: use a nullable column" in t for t in texts)
            await main.intents.sessions.cancel_turn()

    run(body())


async def planned(main: Any) -> Any:
    """A session of the demo agent whose turn has written its three steps."""
    session = await main.intents.sessions.create_session("agent")
    await until(lambda: main.state.transcript.loaded, what="the session shown")
    await main.intents.sessions.start_turn(STEPS)
    await until(lambda: main.state.snapshot(session.id) is not None, what="the list written")
    return session


def user_texts(state: Any) -> list[str]:
    return [line.text for line in state.transcript.lines if line.kind == "user"]


def test_asks_queued_for_a_turns_end_are_written_then_and_stale_ones_said(
    tmp_path, monkeypatch
) -> None:
    """Issue 47, point 23: asks sent while a turn runs go when it ends, written against
    the checklist as it is then: an ask about a step finished meanwhile is not sent (and
    said), the rest is."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "1500")

    async def body() -> None:
        async with paired(tmp_path) as main:
            state = main.state
            session = await planned(main)
            main.intents.ask(it.AskOnPlan(fb.PlanAsk("skip", "Update the docs")))
            main.intents.ask(it.AskOnPlan(fb.PlanAsk("add", "", "Tag the release")))
            main.intents.ask(it.SendFeedback())
            await until(lambda: session.id in state.asks_queued, what="queued for the end")
            sent = [t for t in user_texts(state) if t.startswith("Feedback on the plan")]
            assert sent == []  # nothing yet: the turn runs
            await until(
                lambda: any(t.startswith("Feedback on the plan") for t in user_texts(state)),
                20,
                "the asks sent at the turn's end",
            )
            feedback = next(t for t in user_texts(state) if t.startswith("Feedback on the plan"))
            assert "Tag the release" in feedback and "Skip" not in feedback
            line = next(x for x in state.transcript.lines if x.text.startswith("Feedback on"))
            # the list as it was then, folded under the asks in the transcript (point 26)
            assert "[completed] Update the docs" in line.detail
            assert "The checklist as I see it" not in line.text
            assert state.notice == (
                "These asks were not sent: their steps were finished or removed meanwhile:"
                " Skip “Update the docs”"
            )
            assert session.id not in state.plan_asks and session.id not in state.asks_queued
            await main.intents.sessions.cancel_turn()

    run(body())


def test_ctrl_enter_with_asks_held_sends_them_instead_of_a_bare_continue(
    tmp_path, monkeypatch
) -> None:
    """Issue 47, point 24: one key, one meaning: Continue carries the held asks on."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "60000")

    async def body() -> None:
        async with paired(tmp_path) as main:
            state = main.state
            session = await planned(main)
            await main.intents.sessions.cancel_turn()
            await until(lambda: state.turn(session.id).state == "cancelled", what="stopped")
            main.intents.ask(it.AskOnPlan(fb.PlanAsk("skip", "Write the tests")))
            main.intents.ask(it.Continue())
            await until(
                lambda: user_texts(state)[-1].startswith("Feedback on the plan"),
                what="the asks sent by Continue",
            )
            assert "Skip “Write the tests”" in user_texts(state)[-1]
            assert session.id not in state.plan_asks  # sent, not dropped
            await main.intents.sessions.cancel_turn()

    run(body())
