"""The Main role against the real host core, paired in one process (tests/helpers/paired)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from harness.paired import paired
from harness.waiting import until
from host.protocol import methods as rpc, plain_methods as plain, plain_models as pm
from nib_desktop.inbound.router import HistoryFeed, LineFeed, Router
from nib_desktop.state import events as ev, intents as it
from nib_desktop.state.store import AppState


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 30))


def test_a_demo_turn_fills_the_state_through_router_and_loader(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        async with paired(tmp_path) as main:
            session = await main.intents.sessions.create_session("agent")
            await until(lambda: main.state.transcript.loaded, what="the session shown")
            await main.intents.sessions.start_turn("1. Add the column\n2. Write the tests")
            await until(lambda: main.state.turn(session.id).state == "completed")
            snapshot = main.state.snapshot(session.id)
            assert snapshot is not None and all(i.status == "completed" for i in snapshot.items)
            todo = [x.text for x in main.state.transcript.lines if x.kind == "todo"]
            # the list, then one live line per step (its "◐" turned "✓" in place)
            assert todo == ["Checklist: 2 steps"] + [f"✓ {i.content}" for i in snapshot.items]
            assert main.state.shown is not None and not main.state.shown.running

    run(body())


def test_a_failed_intent_is_the_notice_in_words(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        async with paired(tmp_path) as main:
            main.intents.ask(it.DeleteSession("no-such-session"))
            await until(lambda: main.state.notice != "", what="the notice")
            assert main.state.notice.startswith("Could not delete the session: ")
            assert "no-such-session" in main.state.notice
            main.ask(ev.NoticeShown(""))
            assert main.state.notice == ""

    run(body())


def test_an_open_history_follows_each_write(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        async with paired(tmp_path) as main:
            session = await main.intents.sessions.create_session("agent")
            await until(lambda: main.state.transcript.loaded, what="the session shown")
            main.intents.ask(it.OpenHistory())
            await main.intents.sessions.start_turn("1. One\n2. Two")
            await until(lambda: main.state.turn(session.id).state == "completed")
            final = main.state.snapshot(session.id)
            assert final is not None
            newest = final.revision
            await until(
                lambda: (h := main.state.history.revisions) and h[0].revision == newest,
                what="the newest revision",
            )
            revisions = [r.revision for r in main.state.history.revisions]
            assert revisions == list(range(final.revision, 0, -1))
            # the loads were coalesced: fewer than one per write
            assert main.link.calls.count("todos.history") <= final.revision

    run(body())


def test_an_open_history_gains_each_write_without_asking_the_host(tmp_path, monkeypatch) -> None:
    """Once the open History view holds the newest revision, each write is appended from
    its todos.changed with the host's own diff: no todos.history call, and the same
    revisions a fresh load gives."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        async with paired(tmp_path) as main:
            session = await main.intents.sessions.create_session("agent")
            await until(lambda: main.state.transcript.loaded, what="the session shown")
            await main.intents.sessions.start_turn("1. One\n2. Two")
            await until(lambda: main.state.turn(session.id).state == "completed")
            main.intents.ask(it.OpenHistory())
            first = main.state.snapshot(session.id)
            assert first is not None
            newest = first.revision
            await until(
                lambda: (h := main.state.history.revisions) and h[0].revision == newest,
                what="the history loaded",
            )
            await until(lambda: main.state.history.requests != (), what="the groups' requests")
            asked = main.link.calls.count("todos.history")
            await main.intents.sessions.start_turn("1. Three\n2. Four\n3. Five")
            await until(lambda: main.state.turn(session.id).state == "completed")
            final = main.state.snapshot(session.id)
            assert final is not None and final.revision > first.revision + 3
            await until(
                lambda: main.state.history.revisions[0].revision == final.revision,
                what="the newest revision",
            )
            assert main.link.calls.count("todos.history") == asked
            appended = main.state.history.revisions
            main.ask(ev.HistoryClosed())
            main.intents.ask(it.OpenHistory())
            await until(
                lambda: main.state.history.revisions[:1] == appended[:1],
                what="the history loaded again",
            )
            assert main.state.history.revisions == appended
            assert [r.revision for r in appended] == list(range(final.revision, 0, -1))

    run(body())


def test_deleting_the_shown_session_loads_the_next(tmp_path, monkeypatch) -> None:
    async def body() -> None:
        async with paired(tmp_path) as main:
            first = await main.intents.sessions.create_session("agent")
            second = await main.intents.sessions.create_session("plan")
            await until(lambda: main.state.transcript.session_id == second.id)
            main.state.apply(ev.DraftSaved(second.id, "unsent"))
            await main.intents.sessions.delete_session(second.id)
            await until(lambda: main.state.current == first.id, what="the other session shown")
            await until(lambda: main.state.transcript.loaded)
            assert second.id not in main.state.drafts
            assert [s.session_id for s in main.state.sessions] == [first.id]

    run(body())


def test_the_router_has_one_method_for_every_notification() -> None:
    state = AppState()
    router = Router(state, LineFeed(), HistoryFeed())
    assert sorted(router._routes) == sorted(rpc.NOTIFICATIONS)

    class Missing(Router):
        tools_changed = None  # type: ignore[assignment]

    with pytest.raises(ValueError, match=r"tools\.changed"):
        Missing(state, LineFeed(), HistoryFeed())


def test_every_intent_has_its_one_handler_in_the_table(tmp_path) -> None:
    """Intents are dispatched by a table, as events are reduced: each intent of the union
    has a handler, and nothing else is in the table."""
    import typing

    async def body() -> None:
        async with paired(tmp_path) as main:
            handled = set(main.intents.handlers())
            assert handled == set(typing.get_args(it.Intent))

    run(body())


def test_after_a_connect_the_lists_are_asked_at_once(tmp_path: Path) -> None:
    """The sessions, the tools, the agents and the settings are asked together, each
    applied as it is answered; a session made before is shown from them, its latest turn,
    checklist and transcript asked together too."""

    async def body() -> None:
        async with paired(tmp_path) as main:
            made = await main.intents.sessions.create_session("agent")
            link = main.link
            real = link.call
            waiting: list[str] = []
            together: list[list[str]] = []

            async def counted(method: Any, params: Any, timeout: float | None = None) -> Any:
                waiting.append(method.name)
                together.append(list(waiting))
                try:
                    return await real(method, params, timeout)
                finally:
                    waiting.remove(method.name)

            link.call = counted  # type: ignore[method-assign]
            main.state.apply(ev.SessionsListed(()))
            await main.loader.reload()
            asked = [rpc.SESSIONS_LIST, rpc.TOOLS_LIST, rpc.AGENTS_LIST, rpc.SETTINGS_GET]
            assert together[3] == [method.name for method in asked]
            assert [s.session_id for s in main.state.sessions] == [made.id]
            assert main.state.shown is not None and main.state.transcript.loaded
            shown = {rpc.TURNS_LIST.name, rpc.TODOS_GET.name, rpc.MESSAGES_LIST.name}
            assert any(shown <= set(in_flight) for in_flight in together)
            assert main.state.snapshot(made.id) is not None

    run(body())


def test_the_intents_are_made_after_the_start_and_still_count_the_shown_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Main role makes its intents on first use, not on its way to "connected"; made
    once a session is shown (as the window does after the start's frame), they still count
    the files of its steps, though nothing changed after they were made."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "notes.txt").write_text("one\n")
    data = tmp_path / "data"

    async def body() -> None:
        async with paired(data) as main:
            session = await main.intents.sessions.create_session("agent", folder=str(folder))
            await until(lambda: main.state.transcript.loaded, what="the session shown")
            await main.intents.sessions.start_turn("1. One\n2. Two")
            await until(lambda: main.state.turn(session.id).state == "completed")
            await until(lambda: session.id in main.state.step_files, what="its steps counted")
        async with paired(data) as main:  # the next start
            assert "intents" not in vars(main)
            assert main.state.shown is not None and main.state.transcript.loaded
            assert session.id not in main.state.step_files
            main.settle()
            await until(lambda: session.id in main.state.step_files, what="counted once made")
            assert [content for content, _ in main.state.step_files[session.id]] == [
                "One",
                "Two",
            ]

    run(body())


def test_a_notification_makes_the_intents_before_it_is_routed(tmp_path: Path) -> None:
    """The areas that follow the state hear every change routed: the first notification
    makes them first."""

    async def body() -> None:
        async with paired(tmp_path) as main:
            assert "intents" not in vars(main)
            heard: list[bool] = []
            main.state.subscribe(lambda _event, _change: heard.append("intents" in vars(main)))
            await main.link.call(plain.SESSIONS_CREATE, pm.CreateSessionParams(mode="agent"))
            await until(lambda: len(main.state.sessions) == 1, what="the session routed")
            assert heard and all(heard)

    run(body())


def test_an_event_a_view_names_is_applied_without_making_the_intents(tmp_path: Path) -> None:
    """A view names an event when it only says what the user did (the composer keeps a
    draft as the shown session changes, at the start too): applied as it is, it does not
    make the intents on the way to "connected"; an intent does."""

    async def body() -> None:
        async with paired(tmp_path) as main:
            main.ask(ev.DraftSaved("a-session", "half a thought"))
            assert main.state.drafts.get("a-session") == "half a thought"
            assert "intents" not in vars(main)
            main.ask(it.OpenHistory())
            assert "intents" in vars(main)

    run(body())


def test_a_shown_session_is_applied_whole_in_one_turn_of_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its latest turn, checklist and transcript page are applied together once all are
    in: the window draws the session once, not its checklist a frame before the rest."""
    monkeypatch.setenv("NIB_DEMO_STEP_DELAY_MS", "0")

    async def body() -> None:
        async with paired(tmp_path) as main:
            made = await main.intents.sessions.create_session("agent")
            await main.intents.sessions.start_turn("1. One\n2. Two")
            await until(lambda: main.state.turn(made.id).state == "completed")
            loop = asyncio.get_running_loop()
            turns_of_the_loop: list[int] = []
            seen: list[tuple[str, int]] = []
            apply = main.state.apply

            def applied(event: Any) -> Any:
                if isinstance(event, ev.TurnChanged | ev.SnapshotArrived | ev.TranscriptPage):
                    seen.append((type(event).__name__, len(turns_of_the_loop)))
                    loop.call_soon(turns_of_the_loop.append, 1)
                return apply(event)

            monkeypatch.setattr(main.state, "apply", applied)
            await main.loader.reload()
            names = [name for name, _ in seen]
            assert names == ["TurnChanged", "SnapshotArrived", "TranscriptPage"]
            assert len({turn for _, turn in seen}) == 1, seen

    run(body())
