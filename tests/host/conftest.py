from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from host.core import HostCore
from host.protocol import models as m


@pytest.fixture
def core(tmp_path: Path) -> Iterator[HostCore]:
    instance = HostCore(tmp_path)
    yield instance
    instance.close()


@pytest.fixture
def notes(core: HostCore) -> list[tuple[str, m.Wire]]:
    received: list[tuple[str, m.Wire]] = []
    core.publisher.subscribe(lambda name, params: received.append((name, params)))
    return received
