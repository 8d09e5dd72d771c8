"""The version the host says in host.hello is the package metadata's, read without
importing importlib.metadata (15 ms of the host's way to its first answer)."""

from __future__ import annotations

from importlib.metadata import version

from tests.helpers.fresh_python import python_says


def test_the_version_is_the_metadatas_without_importlib_metadata() -> None:
    script = (
        "import sys\n"
        "from host.protocol.appinfo import app_version\n"
        "print(app_version(), 'importlib.metadata' in sys.modules)\n"
    )
    assert python_says(script).split() == [version("nib-desktop"), "False"]
