"""Text told as it arrives (contract 16): pieces joined within JOIN_S, the whole taken at
the boundary exactly as the deltas carried it, a surrogate pair never split."""

from __future__ import annotations

import asyncio

from host.protocol import models as m
from host.sessions.streaming import JOIN_S, TextStream


def test_pieces_are_joined_told_and_taken_whole() -> None:
    told: list[m.MessageDelta] = []

    async def body() -> str:
        stream = TextStream(told.append, "s", "t", "text")
        stream.add("Hel")
        stream.add("lo ")  # within JOIN_S of the first: one delta
        await asyncio.sleep(JOIN_S * 3)
        stream.add("\ud83d")  # an emoji's first half: waits for its second
        await asyncio.sleep(JOIN_S * 3)
        stream.add("\ude00!")
        return stream.take()

    whole = asyncio.run(body())
    assert [d.text for d in told] == ["Hello ", "\U0001f600!"]
    assert whole == "Hello \U0001f600!" == "".join(d.text for d in told)
    assert {(d.session_id, d.turn_id, d.kind) for d in told} == {("s", "t", "text")}
