"""A session whose transcript is over the frame limit opens in the real window: the
newest page at once, older pages as the user scrolls up; nothing restarts the host."""

from __future__ import annotations

from host.core import HostCore
from host.protocol import models as m
from tests.helpers.gui import Gui
from tests.helpers.waiting import until


def test_a_10_mb_transcript_opens_and_pages_in(gui: Gui, tmp_path) -> None:
    core = HostCore(tmp_path / "data")
    session = core.sessions.create(m.CreateSessionParams(title="long"))
    for i in range(500):
        core.sessions.append_message(session.id, None, "assistant", f"message {i} " + "z" * 20_000)
    core.close()

    async def body() -> None:
        await gui.start()
        pid = gui.supervisor.pid
        await until(lambda: gui.transcript.model.rows(), what="the first page")
        rows = gui.transcript.model.rows()
        assert 0 < len(rows) <= 200 and rows[-1].text.startswith("message 499 ")
        assert gui.transcript.property("hasMore")
        listview = gui.item("transcriptList")
        for _ in range(10):  # scroll to the top until every page is in
            if not gui.transcript.property("hasMore"):
                break
            count = len(gui.transcript.model.rows())
            listview.setProperty("following", False)
            await gui.frame()
            listview.setProperty("contentY", listview.property("originY"))
            await until(lambda c=count: len(gui.transcript.model.rows()) > c,
                        what="an older page")  # fmt: skip
        rows = gui.transcript.model.rows()
        assert [r.text.split(" ")[1] for r in rows] == [str(i) for i in range(500)]
        assert gui.supervisor.pid == pid and gui.connection.property("state") == "ready"

    gui.run(body(), 90)
