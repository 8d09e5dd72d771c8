"""Host shapes to the window's state: the transcript's one line per committed write."""

from __future__ import annotations

import json
from typing import Any

import pytest

from host.protocol import plain_models as m
from nib_desktop.inbound import lines, transcript_page
from nib_desktop.inbound.lines import LineMaker
from nib_desktop.state.transcript_lines import Line, merge_lines

N = 0


def message(
    role: str, content: str = "", calls: tuple[m.ToolCall, ...] = (), **extra: object
) -> m.Message:
    global N
    N += 1
    return m.Message(
        id=f"m{N}",
        session_id="s",
        turn_id="t",
        seq=N,
        role=role,  # type: ignore[arg-type]
        content=content,
        tool_calls=calls,
        created_at="2026-01-01T00:00:00.000Z",
        **extra,
    )


def todo_write(call_id: str, commit: m.TodoCommit | None, arguments: str = "{}") -> list[m.Message]:
    """A TodoWrite call and its result: committed (`commit`) or refused."""
    call = m.ToolCall(id=call_id, name="TodoWrite", arguments=arguments)
    if commit is None:
        result = message(
            "tool",
            "TodoWrite refused: the calling turn is not this session's running turn",
            tool_call_id=call_id,
            is_error=True,
        )
    else:
        result = message(
            "tool",
            f"Checklist saved as revision {commit.revision}.",
            tool_call_id=call_id,
            todo=commit,
        )
    return [message("assistant", calls=(call,)), result]


def commit(revision: int, items: int, **diff: object) -> m.TodoCommit:
    return m.TodoCommit(revision=revision, items=items, diff=m.TodoDiff.from_wire(diff))


def test_one_line_per_committed_write_telling_its_diff() -> None:
    maker = LineMaker()
    change = {"content": "Test", "from": "pending", "to": "in_progress"}
    done = [{"content": "Write", "from": "pending", "to": "completed"}, change]
    messages = [
        message("user", "do it"),
        *todo_write("a", commit(1, 3, added=["Write", "Test", "Ship"])),
        *todo_write("b", commit(2, 3, statusChanged=done)),
        *todo_write("c", commit(3, 3, added=["Docs"], droppedUnfinished=["Ship"])),
    ]
    lines = [line for msg in messages for line in maker.lines(msg)]
    assert [(x.kind, x.text, x.warning) for x in lines] == [
        ("user", "do it", False),
        ("todo", "Checklist: 3 steps", False),
        ("todo", "✓ Write · ◐ Test", False),
        ("todo", "+1 step · dropped unfinished: “Ship”", True),
    ]


def test_one_live_line_per_step_whole_or_paged() -> None:
    """A step's "◐" line becomes its "✓" line in place (a run of 50 steps is 50 lines, not
    100); a write that does more than finish the step begun is a line of its own. The
    same in the state as lines arrive and in a transcript read again."""
    from nib_desktop.inbound.transcript_page import transcript
    from nib_desktop.state.transcript_lines import merge_lines

    def change(content: str, before: str, after: str) -> dict[str, str]:
        return {"content": content, "from": before, "to": after}

    messages = [
        *todo_write("a", commit(1, 2, added=["Write", "Test"])),
        *todo_write("b", commit(2, 2, statusChanged=[change("Write", "pending", "in_progress")])),
        message("assistant", "writing"),
        *todo_write("c", commit(3, 2, statusChanged=[change("Write", "in_progress", "completed")])),
        *todo_write("d", commit(4, 2, statusChanged=[change("Test", "pending", "in_progress")])),
        *todo_write(
            "e",
            commit(
                5, 3, added=["Ship"], statusChanged=[change("Test", "in_progress", "completed")]
            ),
        ),
    ]
    maker = LineMaker()
    held: tuple = ()
    for msg in messages:  # as the router feeds the state, message by message
        held = merge_lines(held, maker.lines(msg))
    told = [(x.kind, x.text) for x in held]
    assert told == [
        ("todo", "Checklist: 2 steps"),
        ("todo", "✓ Write"),  # was "◐ Write", in its place before the assistant's words
        ("assistant", "writing"),
        ("todo", "◐ Test"),
        ("todo", "✓ Test · +1 step"),  # more than finishing a step: its own line
    ]
    assert [(x.kind, x.text) for x in transcript(tuple(messages), ())] == told


def test_the_line_tells_the_commit_not_the_call_arguments() -> None:
    """A call's arguments are what the model asked; the line is what the host stored."""
    asked = json.dumps({"todos": [{"content": f"step {i}", "status": "pending"} for i in range(9)]})
    lines = [
        x
        for msg in todo_write("a", commit(4, 2, added=["A"]), asked)
        for x in LineMaker().lines(msg)
    ]
    assert [x.text for x in lines] == ["+1 step"]


def test_a_refused_write_is_told_as_refused_with_the_host_reason() -> None:
    maker = LineMaker()
    asked = json.dumps({"todos": [{"content": "Write", "status": "pending"}]})
    lines = [x for msg in todo_write("x", None, asked) for x in maker.lines(msg)]
    assert [(x.kind, x.is_error) for x in lines] == [("todo", True)]
    assert lines[0].text == (
        "✕ Checklist not saved: TodoWrite refused: the calling turn is not this session's "
        "running turn"
    )
    # the next committed write is told from its own diff: nothing refused moved a baseline
    later = [x for msg in todo_write("y", commit(1, 1, added=["Write"])) for x in maker.lines(msg)]
    assert [x.text for x in later] == ["Checklist: 1 step"]


def test_outside_text_cannot_spoof_the_window() -> None:
    from host.protocol import plain_models as m
    from host.protocol.text import has_visible, shown_text
    from nib_desktop.inbound import convert

    assert shown_text("plain .3") == "plain .3"
    assert shown_text("file\u202eexe.txt") == "file⟨U+202E⟩exe.txt"
    assert shown_text("a" + "\u0301" * 500 + "b") == "a" + "\u0301" * 3 + "⟨+497 marks⟩b"
    assert shown_text("café") == "café"  # ordinary accents stay
    assert not has_visible("\u200b") and not has_visible(" \u200b\u2060 ")
    assert has_visible("\u200bx")
    item = m.TodoItem(content="\u202eexe.txt", status="pending")
    snap = m.TodoSnapshot(session_id="s", revision=1, updated_at=None, items=(item,))
    assert convert.snapshot(snap).items[0].content == "⟨U+202E⟩exe.txt"
    message = m.Message(
        id="1",
        session_id="s",
        turn_id=None,
        seq=1,
        role="assistant",
        content="plain \u202e.3",
        created_at="x",
    )
    assert lines.LineMaker().lines(message)[0].text == "plain ⟨U+202E⟩.3"


def test_todowrite_refuses_an_item_with_nothing_visible() -> None:
    import pytest
    from pydantic import ValidationError

    from host.todos.schema import TodoWriteArgs

    for blank in ("\u200b", "\x01", "\x7f\x02", " \x1b "):  # after the stripping, not one drawn
        with pytest.raises(ValidationError, match="no visible character"):
            TodoWriteArgs.model_validate({"todos": [{"content": blank, "status": "pending"}]})
        with pytest.raises(ValidationError, match=r"todos\.0\.activeForm"):
            TodoWriteArgs.model_validate(
                {"todos": [{"content": "x", "status": "pending", "activeForm": blank}]}
            )
    for shown in ("Ship ✓", "~", "\x01!", "\u200b\u00e9"):
        ok = TodoWriteArgs.model_validate({"todos": [{"content": shown, "status": "pending"}]})
        assert ok.todos[0].content == shown


def test_a_compaction_is_one_transcript_line() -> None:
    from host.protocol import plain_models as m

    maker = lines.LineMaker()

    def message(seq: int, role: str, content: str) -> m.Message:
        return m.Message(
            id=str(seq),
            session_id="s",
            turn_id=None,
            seq=seq,
            role=role,
            content=content,
            created_at="x",
        )

    rows = []
    for seq, role in enumerate(["user", "assistant", "user", "assistant"], 1):
        rows += maker.lines(message(seq, role, f"text {seq}"))
    rows += maker.lines(message(5, "summary", "what happened"))
    assert rows[-1].kind == "summary"
    head = "Context compacted: 4 earlier messages summarised"
    assert rows[-1].text == f"{head}\n\nwhat happened"  # the summary, read when unfolded
    # the same count from a page that starts at the summary (a reload reads pages)
    assert lines.LineMaker().lines(message(5, "summary", "what happened"))[0].text == rows[-1].text
    # a second compaction stands for everything before it, the first summary included
    assert maker.lines(message(9, "summary", "more"))[0].text.startswith(
        "Context compacted: 8 earlier messages summarised"
    )
    # an external agent's own compaction: said as the agent's, its summary folded under
    agents = lines.LineMaker(titled=True).lines(message(7, "summary", "kept the plan"))
    assert [(x.kind, x.text) for x in agents] == [
        ("summary", "The agent compacted its context\n\nkept the plan")
    ]
    assert lines.LineMaker(titled=True).lines(message(7, "summary", ""))[0].text == (
        "The agent compacted its context"
    )


def test_an_empty_first_write_reads_empty() -> None:
    lines = [x for msg in todo_write("e", commit(1, 0)) for x in LineMaker().lines(msg)]
    assert [x.text for x in lines] == ["Checklist empty"]


def test_a_huge_message_is_laid_out_bounded_and_says_so() -> None:
    """A message of megabytes (a remote's, a tool's) is one line of at most 50,000
    characters plus its length in words: the window never lays out megabytes at once."""
    from nib_desktop.inbound.line_text import MAX_LINE

    [line] = LineMaker().lines(message("assistant", "x" * 1_000_000))
    assert len(line.text) < MAX_LINE + 100
    assert line.text.endswith("… (1,000,000 characters in all; the rest is not shown)")
    [short] = LineMaker().lines(message("assistant", "hello"))
    assert short.text == "hello"


def test_an_agents_thought_and_plans_are_their_own_lines() -> None:
    maker = LineMaker()
    [thought] = maker.lines(message("assistant", "Let me think.", kind="thought"))
    assert (thought.kind, thought.text) == ("thought", "Let me think.")
    [refused] = maker.lines(
        message("tool", "The agent's plan was not stored: why", is_error=True, kind="plan")
    )
    assert refused.kind == "todo" and refused.is_error
    assert refused.text == "✕ The agent's plan was not stored: why"


def test_what_an_agent_offers_to_steer_is_shown_in_words() -> None:
    from host.protocol import plain_models as m
    from nib_desktop.inbound.tools_and_controls import steering

    told = m.AgentControls.from_wire(
        {
            "sessionId": "s",
            "modes": {
                "current": "plan",
                "available": [
                    {"id": "default", "name": "Default"},
                    {"id": "plan", "name": "Plan\u202e"},
                ],
            },
            "commands": [{"name": "review", "description": "Review", "hint": "what"}],
            "usage": {"used": 1290, "size": 1000000, "cost": {"amount": 0.09, "currency": "USD"}},
        }
    )
    shown = steering(told)
    assert shown.mode == "Plan\\u202e" or "\u202e" not in shown.mode  # never raw bidi
    assert shown.commands[0].hint == "what"
    assert shown.usage == "<1 % of context · $0.09"
    from nib_desktop.inbound.tools_and_controls import usage_words

    assert usage_words(m.Usage(used=620, size=1000)) == "62 % of context"
    assert usage_words(m.Usage(used=620)) == "620 tokens"
    assert usage_words(m.Usage(cost=m.Cost(amount=0.41, currency="EUR"))) == "0.41 EUR"
    bare = steering(m.AgentControls(session_id="s"))
    assert (bare.mode, bare.modes, bare.commands, bare.usage) == ("", (), (), "")


def test_each_tool_call_is_one_line_its_result_taking_its_place() -> None:
    """50 calls at once, their results in another order: 50 lines, each a call told
    by its title and then, in place, its end and what it did; the input (the agent's own
    fields) is not in the line but kept for the unfolded line. The same read again."""
    from nib_desktop.inbound.transcript_page import transcript
    from nib_desktop.state.transcript_lines import merge_lines

    raw = json.dumps({"call_id": "c9", "path": "f.txt"})
    reads = [m.ToolCall(id=f"r{i}", name=f"Read f{i}.txt", arguments=raw) for i in range(50)]
    calls = [message("assistant", calls=(call,)) for call in reads]
    edit = m.ToolActivity(
        kind="edit", diffs=(m.ToolDiff(path="app.py", old_text="a\n", new_text="b\nc\n"),)
    )
    results = [
        message(
            "tool",
            f"{i} lines",
            tool_call_id=f"r{i}",
            is_error=i == 7,
            activity=edit if i == 3 else None,
        )
        for i in reversed(range(50))
    ]
    maker, held = LineMaker(titled=True), ()
    for msg in [*calls[:25], *results[25:], *calls[25:], *results[:25]]:
        held = merge_lines(held, maker.lines(msg))
    texts = [x.text for x in held]
    assert len(texts) == 50 and all(x.kind == "tool_call" for x in held)
    assert texts[0] == "✓ Read f0.txt · 0 lines"
    assert texts[3] == "✓ Edited app.py +2 −1" and held[3].detail_kind == "diff"
    assert texts[7] == "✕ Read f7.txt · 7 lines" and held[7].is_error
    assert all("call_id" not in t for t in texts)  # the agent's own fields: not shown
    assert held[0].call_input == "path: f.txt"  # one keystroke away, as fields, not JSON
    again = transcript((*calls, *results), (), titled=True)
    assert [x.text for x in again] == texts


def test_a_call_still_running_reads_as_called_and_the_host_agents_tools_show_input() -> None:
    call = m.ToolCall(id="e1", name="mcp__test__echo", arguments='{"text": "hi"}')
    maker = LineMaker()
    (called,) = maker.lines(message("assistant", calls=(call,)))
    assert called.text == '→ echo (test) {"text": "hi"}' and called.call_id == "e1"
    (done,) = maker.lines(message("tool", "echo: hi", tool_call_id="e1"))
    assert done.text == '✓ echo (test) {"text": "hi"} · echo: hi'
    assert (done.replaces, done.seq) == (called.seq, called.seq)
    # a result whose call is on an earlier page: a line of its own
    (alone,) = LineMaker().lines(message("tool", "echo: hi", tool_call_id="e1"))
    assert alone.text == "← echo: hi" and alone.replaces == 0


def test_an_approval_shows_the_diff_or_the_command_never_the_agents_own_fields() -> None:
    from nib_desktop.inbound.convert import approval

    def asked(arguments: str, did: m.ToolActivity | None = None, agent: bool = True) -> str:
        options = (m.ApprovalOption(option_id="y", name="Yes", kind="allow_once"),)
        request = m.ApprovalRequested(
            approval_id="a",
            session_id="s",
            turn_id="t",
            tool="X",
            arguments=arguments,
            options=options if agent else (),
            activity=did,
        )
        return approval(request).detail

    codex = json.dumps(
        {
            "call_id": "c1",
            "command": ["bash", "-lc", "rm -rf build"],
            "proposed_execpolicy_amendment": ["rm"],
            "reason": "clean the build",
        }
    )
    assert asked(codex) == "$ rm -rf build\nclean the build"  # Codex's reason said
    assert asked(json.dumps({"command": ["git", "commit", "-m", "a b"]})) == "$ git commit -m 'a b'"
    # Claude Code's Bash: the command, and what the agent says it is for, in words; the
    # input's JSON told back as the request's text is never what is shown (issue 47, 8)
    bash = json.dumps({"command": "python3 app.py", "description": "Run the app"})
    echoed = m.ToolActivity(kind="execute", status="pending", output=bash)
    assert asked(bash) == asked(bash, echoed) == "$ python3 app.py\nRun the app"
    assert asked("{}", echoed) == ""
    change = m.ToolDiff(path="a.py", old_text="1\n", new_text="2\n")
    edit = m.ToolActivity(kind="edit", status="pending", diffs=(change,))
    assert asked("{}", edit) == "--- a.py\n+++ a.py\n@@ -1 +1 @@\n-1\n+2"
    assert asked('{"path": "x"}') == "" and asked("not json") == ""
    assert asked(json.dumps({"command": "ls"}), agent=False) == ""  # an MCP tool: its arguments


def test_a_calls_input_reads_as_its_command_and_fields_never_as_json() -> None:
    from host.protocol.tool_text import input_text

    codex = {
        "call_id": "c1",
        "turn_id": "t",
        "command": ["/bin/bash", "-lc", "touch made.txt"],
        "cwd": "/w",
        "reason": "make a file",
        "proposed_execpolicy_amendment": ["touch"],
        "available_decisions": ["approved", "abort"],
        "parsed_cmd": [{"type": "unknown"}],
    }
    assert input_text(json.dumps(codex)) == "$ touch made.txt\ncwd: /w\nreason: make a file"
    edit = {"file_path": "a.py", "old_string": "a\nb", "limit": 3, "x": "y" * 3000}
    assert input_text(json.dumps(edit)) == (
        f"file_path: a.py\nold_string: a\n    b\nlimit: 3\nx: {'y' * 2000}… (3,000 characters)"
    )
    assert input_text("not json") == "not json" and input_text("[1]") == "[1]"


def test_the_places_a_tool_touched_are_links_and_find_counts_every_part() -> None:
    from nib_desktop.state import find
    from nib_desktop.state.rich import detail_html
    from nib_desktop.state.transcript_lines import Line

    made = detail_html("3 lines\n<b>a.py</b>:2\nb.py", "output", None, (("<b>a.py</b>", 2),))
    assert (
        '<a href="place:0"><span style="color:#4a8fe0">&lt;b&gt;a.py&lt;/b&gt;:2</span></a>' in made
        and "b.py</pre>" in made
    )
    lines = (
        Line("user", "find the Needle"),
        Line("tool_call", "✓ Read x", detail="needle\nno", call_input='{"q": "NEEDLE"}'),
    )
    assert find.occurrences(lines, "needle") == (0, 1, 1)
    assert find.occurrences(lines, " ") == () and find.occurrences(lines, "") == ()
    assert find.count_text(3, 0) == "1 of 3" and find.count_text(0, -1) == "No matches"
    assert find.count_text(find.MAX_MATCHES, 4) == "5 of 10,000+"


def test_a_tools_output_loses_its_one_fence_and_paths_are_named_in_the_folder() -> None:
    from nib_desktop.inbound import activity

    assert activity.unfenced("```console\n3 passed\n```") == "3 passed"
    assert activity.unfenced("```\na\n```\ntext\n```\nb\n```") == "```\na\n```\ntext\n```\nb\n```"
    assert activity.unfenced("plain") == "plain"
    assert activity.shown_path("/w/app/a.py", "/w/app") == "a.py"
    assert activity.shown_path("/w/apple/a.py", "/w/app") == "/w/apple/a.py"
    edit = m.ToolActivity(diffs=(m.ToolDiff(path="/w/app/a.py", old_text="1\n", new_text="2\n"),))
    assert activity.summary(edit, "/w/app") == "Edited a.py +1 −1"
    assert activity.places(edit, "/w/app") == (("a.py", 1),)
    ran = m.ToolActivity(kind="execute", output="```console\n3 passed\n```")
    assert activity.summary(ran) == "3 passed"


def in_turn(turn: str, messages: list[m.Message]) -> list[m.Message]:
    return [m.Message(**{**msg.field_values(), "turn_id": turn}) for msg in messages]


def test_a_steps_line_belongs_to_its_turn_and_a_new_task_reads_as_a_new_list() -> None:
    """Issue 35: a stopped turn's "◐ Extract" stays as it was when the next turn finishes
    the step; a new task's list is told as a new list, never matched by a step's title
    with the old one (dropped unfinished steps still said)."""
    begin = [{"content": "Extract", "from": "pending", "to": "in_progress"}]
    finish = [{"content": "Extract", "from": "in_progress", "to": "completed"}]
    first = in_turn(
        "t1",
        [
            message("user", "go"),
            *todo_write("a", commit(1, 2, added=["Extract", "Test"])),
            *todo_write("b", commit(2, 2, statusChanged=begin)),
        ],
    )
    second = in_turn(
        "t2", [message("user", "go on"), *todo_write("c", commit(3, 2, statusChanged=finish))]
    )
    renamed = [{"content": "Test", "from": "completed", "to": "pending"}]
    third = in_turn(
        "t3",
        [
            message("user", "a new task"),
            *todo_write(
                "d",
                commit(
                    4,
                    6,
                    added=["A", "B", "C", "D", "E"],
                    completedRemoved=["Extract"],
                    statusChanged=renamed,
                ),
            ),
        ],
    )
    fourth = in_turn(
        "t4",
        [
            message("user", "another"),
            *todo_write(
                "e", commit(5, 1, added=["Z"], droppedUnfinished=["A"], completedRemoved=["B"])
            ),
        ],
    )
    for paged in (False, True):
        maker = LineMaker()
        messages = [*first, *second, *third, *fourth]
        if paged:
            told = transcript_page.transcript(tuple(messages), ())
        else:
            held: tuple[Line, ...] = ()
            for msg in messages:
                held = merge_lines(held, maker.lines(msg))
            told = held
        texts = [x.text for x in told if x.kind == "todo"]
        assert texts == [
            "Checklist: 2 steps",
            "◐ Extract",
            "✓ Extract",
            "New checklist: 6 steps",
            "New checklist: 1 step · dropped unfinished: “A”",
        ], paged


def test_a_step_left_in_progress_by_a_turn_that_ended_is_labelled_by_its_real_end() -> None:
    from nib_desktop.state.facts import End, left_word

    assert left_word(End.COMPLETED) == "unfinished"
    assert left_word(End.INTERRUPTED) == "interrupted"
    assert left_word(End.STOPPED) == "stopped" and left_word(End.FAILED) == "failed"


def test_the_composers_line_says_which_is_the_mode() -> None:
    """Issue 47, point 21: a mode and a model both called "Default" read apart."""
    from nib_desktop.state.steering import Steering

    both = Steering("s", mode="Default", model="Default (recommended)", usage="3 % of context")
    assert both.words() == "Default mode · Default (recommended) · 3 % of context"
    assert Steering("s", mode="Plan Mode", model="Large").words() == "Plan Mode · Large"
    assert Steering("s", model="Large").words() == "Large"


def test_a_list_in_place_of_another_is_told_as_a_new_list_in_history_too() -> None:
    """Issue 47, point 18: a revision whose steps are all new (the History view's, a
    fork's first) reads "New checklist: 4 steps", not "+4 steps · 3 steps finished and
    removed"; its unfinished steps dropped are still said."""
    from nib_desktop.inbound.checklist_lines import todo_line

    replaced = m.TodoDiff(added=["A", "B", "C", "D"], completed_removed=["x", "y", "z"])
    assert todo_line(replaced, 4).text == "New checklist: 4 steps"
    dropping = m.TodoDiff(added=["A"], completed_removed=["x"], dropped_unfinished=["y"])
    line = todo_line(dropping, 1)
    assert line.text == "New checklist: 1 step · dropped unfinished: “y”" and line.warning
    grown = m.TodoDiff(added=["C"], completed_removed=["x"])
    assert todo_line(grown, 3).text == "+1 step · 1 step finished and removed"
    assert todo_line(m.TodoDiff(added=["A", "B"]), 2).text == "Checklist: 2 steps"


def test_a_sub_agents_calls_are_counted_on_their_task_folded_under_it() -> None:
    """Claude Code's Task: its sub-agent's calls have no line of their own; the Task's
    line counts them and their state as they go, and lists them, folded, under it."""
    maker = LineMaker(titled=True)
    held: tuple[Line, ...] = ()

    def told(seq: int, role: str, **fields: Any) -> tuple[Line, ...]:
        nonlocal held
        msg = m.Message(
            id=f"m{seq}",
            session_id="s",
            turn_id="t",
            seq=seq,
            role=role,
            content="",
            created_at="x",
            **fields,
        )
        held = merge_lines(held, maker.lines(msg))
        return held

    def call(seq: int, call_id: str, name: str, parent: str | None = None) -> tuple[Line, ...]:
        made = m.ToolCall(id=call_id, name=name, arguments="{}", parent_id=parent)
        return told(seq, "assistant", tool_calls=(made,))

    call(1, "task1", "Task Explore")
    call(2, "sub1", "Read a.py", "task1")
    lines = call(3, "sub2", "Run ls", "task1")
    assert [x.text for x in lines] == ["→ Task Explore · 2 sub-agent calls, 2 running"]
    assert lines[0].detail == "Its sub-agent's calls:\n  ◐ Read a.py\n  ◐ Run ls"
    assert "Run ls" not in lines[0].detail_preview  # folded to the line that counts them
    told(4, "tool", tool_call_id="sub1")
    lines = told(5, "tool", tool_call_id="sub2", is_error=True)
    assert [x.text for x in lines] == ["→ Task Explore · 2 sub-agent calls, 1 failed"]
    lines = told(6, "tool", tool_call_id="task1", activity=m.ToolActivity(output="Found it."))
    assert [(x.text, x.seq) for x in lines] == [
        ("✓ Task Explore · Found it. · 2 sub-agent calls, 1 failed", 1)
    ]
    # its output on its line (short), its sub-agent's calls under it
    assert lines[0].detail == "Its sub-agent's calls:\n  ✓ Read a.py\n  ✕ Run ls"
    # a call marked as under a call not held (its Task on an earlier page): its own line
    assert (
        LineMaker(titled=True)
        .lines(
            m.Message(
                id="x",
                session_id="s",
                turn_id="t",
                seq=9,
                role="assistant",
                content="",
                created_at="x",
                tool_calls=(m.ToolCall(id="a", name="Read b", arguments="", parent_id="gone"),),
            )
        )[0]
        .text
        == "→ Read b"
    )


def test_a_feedback_message_shows_its_asks_whole_and_its_list_folded() -> None:
    from host.protocol import feedback as words

    items = [(f"Step {n}", "pending") for n in range(30)]
    text = words.message(3, items, [words.PlanAsk("skip", "Step 2")])
    shown = LineMaker(titled=True).lines(message("user", text))
    assert shown[0].text.splitlines() == [
        "Feedback on the plan (checklist revision 3):",
        "- Skip “Step 2”.",
        "Write the checklist again as asked, then carry on with it.",
    ]
    assert shown[0].detail.startswith("The checklist as I see it:\n1. [pending] Step 0")
    assert LineMaker(titled=True).lines(message("user", "Feedback on the plan"))[0].detail == ""


def test_a_sessions_or_a_messages_time_is_told_with_its_day_in_local_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An earlier session may be months old, a search's match too: their times keep their
    day (a history's revisions, minutes apart, keep HH:MM:SS), in the user's time zone."""
    import time

    from nib_desktop.inbound import convert

    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    try:
        assert convert.local_day_time("2026-11-03T10:00:00Z") == "2026-11-03 11:00"
        assert convert.local_day_time("2026-12-31T23:30:00.000Z") == "2027-01-01 00:30"
        assert convert.local_time("2026-11-03T10:00:00Z") == "11:00:00"
        assert convert.local_day_time("yesterday") == "yesterday"  # not ISO: as given
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
