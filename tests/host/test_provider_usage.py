"""The prompt tokens an endpoint reports belong to the step that asked: two sessions'
turns on one shared provider each read their own count (it calibrates that turn's
budget), never the other's. The real OpenAI SDK against the scripted endpoint."""

from __future__ import annotations

import asyncio

import pytest

from harness.fake_openai import Reply
from host.agent.providers.base import ModelRequest, ToolCallRequest, UserMessage
from host.agent.providers.openai_provider import OpenAIProvider
from host.agent.runtime import AgentRuntime
from host.config import Settings
from host.execution_path import ExecutionPath


@pytest.mark.parametrize("stream", [True, False])
def test_concurrent_steps_on_one_provider_each_get_their_own_count(fake_openai, stream) -> None:
    fake_openai.script = [Reply("first", prompt_tokens=111), Reply("second", prompt_tokens=222)]
    settings = Settings(
        provider="openai", openai_base_url=fake_openai.base_url, model="m", stream=stream
    )

    async def body() -> list[tuple[str, int | None]]:
        provider = OpenAIProvider(settings)  # one provider, as the runtime shares it

        async def step(text: str) -> tuple[str, int | None]:
            parts: list[str] = []
            calls: list[ToolCallRequest] = []
            request = ModelRequest(ExecutionPath.AGENT, (UserMessage(text),))
            reported = await AgentRuntime._step(provider, request, parts, calls)
            return "".join(parts), reported

        try:
            return list(await asyncio.gather(step("a"), step("b")))
        finally:
            await provider.aclose()

    answers = asyncio.run(asyncio.wait_for(body(), 30))
    # whichever request the endpoint answered first, each step carries its own answer's count
    assert sorted(answers) == [("first", 111), ("second", 222)]
