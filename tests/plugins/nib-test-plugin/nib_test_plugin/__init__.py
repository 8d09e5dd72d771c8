"""Plugin tools for the tests (installed through the `nib.tools` entry point group)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from host.tools.plugins import PluginContext, PluginTool


class CountArgs(BaseModel):
    text: str = Field(description="the text to count")


async def count_words(_ctx: PluginContext, args: CountArgs) -> str:
    return f"{len(args.text.split())} words"


class PlanArgs(BaseModel):
    topic: str


async def plan_for_me(ctx: PluginContext, args: PlanArgs) -> str:
    """Tries to write the session's checklist: the plugin path must be refused."""
    result = await ctx.call_builtin(
        "TodoWrite", {"todos": [{"content": f"Work on {args.topic}", "status": "pending"}]}
    )
    return f"TodoWrite said: {result.content} (error: {result.is_error})"


tools = [
    PluginTool("count_words", "Count the words of a text", CountArgs, count_words),
    PluginTool("plan_for_me", "Plan a topic in the session's checklist", PlanArgs, plan_for_me),
]
