"""The context budget: windows by model, and token counts with the model's vocabulary
where it is known."""

from __future__ import annotations

from bpe_openai import get_encoding

from host.agent.compaction import DEFAULT_WINDOW, TokenCounter, context_window
from host.agent.providers.base import AssistantMessage, SystemMessage, ToolCallRequest, UserMessage
from host.config import Settings


def test_windows() -> None:
    assert context_window(Settings(model="gpt-4o-mini")) == 128_000
    assert context_window(Settings(model="gpt-4.1-nano")) == 1_047_576
    assert context_window(Settings(model="my-local-model")) == DEFAULT_WINDOW
    assert context_window(Settings(model="gpt-4o", context_tokens=4000)) == 4000


def test_counts_use_the_vocabulary_where_known() -> None:
    text = "Write the migration tests for the parser, then update the changelog."
    exact = TokenCounter("gpt-4o")
    assert exact.exact and exact.text(text) == len(get_encoding("o200k_base").encode(text))
    estimate = TokenCounter("llama-3-8b")
    assert not estimate.exact and estimate.text(text) == len(text) // 3 + 1
    assert estimate.text(text) >= exact.text(text)  # the estimate errs on the safe side
    call = ToolCallRequest("c1", "TodoWrite", '{"todos": []}')
    history = [SystemMessage("You are Nib."), UserMessage(text), AssistantMessage("", (call,))]
    assert exact.conversation(history) > exact.text(text)


def test_the_estimate_follows_what_the_endpoint_reports() -> None:
    counter = TokenCounter("llama-3-8b")
    text = "x" * 3000
    first = counter.text(text)  # 1001 by the bare estimate
    counter.calibrate(first, 500)  # the endpoint counted half of it
    assert counter.text(text) < first
    for _ in range(6):
        counter.calibrate(counter.text(text), 500)
    assert abs(counter.text(text) - 500) < 60
    exact = TokenCounter("gpt-4o")
    before = exact.text(text)
    exact.calibrate(before, 1)  # exact counts are not "corrected"
    assert exact.text(text) == before


def test_very_long_text_is_counted_in_slices() -> None:
    counter = TokenCounter("gpt-4o")
    huge = "word " * 300_000  # over the tokenizer's own limit in one piece
    assert 250_000 < counter.text(huge) < 400_000
