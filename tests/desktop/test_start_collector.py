"""Start-up's imports run with Python's cyclic collector paused, in the window's process
and in the host's, and the collector runs again once each has started: real processes,
their collector's passes heard through `gc.callbacks`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from host.protocol.appinfo import TOKEN_ENV
from tests.helpers.fresh_python import ROOT, run_python, without_nib_settings

# each pass of the collector, and the collector's state at exit, written to stderr
HEARD = """
import atexit, gc, sys, time
gc.callbacks.append(
    lambda phase, info: phase == "start"
    and print(f"collector pass at monotonic {time.monotonic():.6f}", file=sys.stderr, flush=True)
)
atexit.register(lambda: print(f"collector on at exit: {gc.isenabled()}", file=sys.stderr))
"""


def as_main(package: str, *argv: str) -> str:
    """`python -m package *argv` after HEARD: its `__main__` compiled first (as Python
    does before it runs one line of it), then the moment it starts, then run."""
    path = ROOT / package / "__main__.py"
    return HEARD + (
        f"sys.argv = {[package, *argv]!r}\n"
        f"code = compile(open({str(path)!r}).read(), {str(path)!r}, 'exec')\n"
        "print(f'main at monotonic {time.monotonic():.6f}', file=sys.stderr, flush=True)\n"
        "exec(code, {'__name__': '__main__'})\n"
    )


def moments(lines: list[str], marker: str) -> list[float]:
    return [float(line.split()[-1]) for line in lines if marker in line]


@pytest.mark.timeout(120)
def test_the_window_imports_with_the_collector_paused_and_runs_it_after() -> None:
    """`python -m nib_desktop`: no pass before the first frame (the window's modules,
    the QML), passes again in the demo turn that follows, and the collector on when the
    app ends."""
    script = as_main("nib_desktop", "--smoke-test", "--log-level", "DEBUG")
    proc = run_python(script, without_nib_settings(), timeout=110)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stderr.splitlines()
    (start,) = moments(lines, "main at monotonic")
    (frame,) = moments(lines, "first frame drawn at monotonic")
    passes = [t for t in moments(lines, "collector pass at monotonic") if t > start]
    assert passes, "the collector never ran again after start-up"
    assert min(passes) > frame
    assert "collector on at exit: True" in lines


@pytest.mark.timeout(60)
def test_the_host_imports_with_the_collector_paused_and_serves_with_it_on(
    tmp_path: Path,
) -> None:
    """`python -m host`: no pass before its ready line (pydantic, the contract's models),
    and the collector on while it serves, until it exits."""
    where = ["--socket", str(tmp_path / "s"), "--data-dir", str(tmp_path / "data")]
    proc = subprocess.Popen(
        [sys.executable, "-c", as_main("host", *where)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**without_nib_settings(), TOKEN_ENV: "collector"},
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stdin is not None
    ready = proc.stdout.readline()
    assert '"pid"' in ready
    # the host ends with its standard input, as when the app quits
    _, stderr = proc.communicate(input="", timeout=30)
    assert proc.returncode == 0, stderr[-3000:]
    lines = stderr.splitlines()
    assert "collector on at exit: True" in lines
    # the ready line comes before the host's log says it listens
    started = next(i for i, line in enumerate(lines) if "main at monotonic" in line)
    listening = next(i for i, line in enumerate(lines) if "listening on" in line)
    assert not [line for line in lines[started:listening] if "collector pass" in line]
