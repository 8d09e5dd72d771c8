"""The three rooms and their doors: a walk over every module's imports, relative ones
resolved, each violation reported as file:line."""

from __future__ import annotations

import ast
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.fresh_python import python_says

ROOT = Path(__file__).resolve().parent.parent

# what of the contract imports pydantic: the models (by section) and their endpoints
PYDANTIC_SIDE = (
    "pydantic",
    "host.protocol.wire",
    "host.protocol.models",
    "host.protocol.methods",
    "host.protocol.endpoint",
    "host.protocol.serving",
    "host.protocol.peers",
    "host.protocol.todo_diff",
    *(
        f"host.protocol.{section}_models"
        for section in (
            "agent",
            "ask",
            "attempt",
            "checkpoint",
            "control",
            "library",
            "settings",
            "todo",
            "tool",
            "transcript",
            "turn",
            "worktree",
        )
    ),
)
# the contract's plain twins and the peer typed with them: the window's, never the host's
# (the host reads the models; until round 5 it loaded the twins for one constant)
WINDOW_SIDE = (
    "host.protocol.plain_models",
    "host.protocol.plain_methods",
    "host.protocol.client_peer",
)
# package: prefixes it must never import
FORBIDDEN = {
    "ui": ("host", "apsw", "pydantic", "openai", "qasync", "PySide6.QtNetwork"),
    # the window decodes into the contract's plain twins: pydantic is the host's alone
    "nib_desktop": ("apsw", "openai", "mcp", *PYDANTIC_SIDE),
    # the window's state: plain values and one mutator, no Qt, no I/O, nothing above it
    "nib_desktop/state": ("PySide6", "qasync", "host", "ui", "pydantic", "asyncio", "socket"),
    # the Main role's rooms (docs/architecture.md): the host link knows no room above it;
    # what comes in (notifications to events) never imports what goes out (intents to
    # calls); both use the link and the state; what is shown outside the window follows
    # the state alone; only the shell, which makes the window, imports the views
    "nib_desktop/link": (
        "nib_desktop.inbound",
        "nib_desktop.work",
        "nib_desktop.outside",
        "nib_desktop.shell",
        "nib_desktop.main_role",
    ),
    "nib_desktop/inbound": (
        "nib_desktop.work",
        "nib_desktop.outside",
        "nib_desktop.shell",
        "nib_desktop.main_role",
    ),
    "nib_desktop/work": ("nib_desktop.outside", "nib_desktop.shell", "nib_desktop.main_role"),
    "nib_desktop/outside": (
        "nib_desktop.inbound",
        "nib_desktop.work",
        "nib_desktop.link",
        "nib_desktop.shell",
        "nib_desktop.main_role",
    ),
    "host": ("nib_desktop", "ui", "PySide6", "qasync"),
    "host/protocol": ("PySide6", "apsw", "qasync", "openai", "mcp"),
}
# Of the host, the Main role may import only the contract.
ONLY_FROM_HOST = {"nib_desktop": "host.protocol", "host/protocol": "host.protocol"}
# Of the desktop, the views may import only the state (and `ui` itself).
ONLY_FROM_DESKTOP = {"ui": "nib_desktop.state", "nib_desktop/state": "nib_desktop.state"}
# The Main role never imports a view; only the start-up shell that makes the window does.
SHELL = ("nib_desktop.shell", "nib_desktop.__main__")
# the Main role's top level: the assembly beside its rooms
TOP_LEVEL = {"__init__.py", "__main__.py", "main_role.py"}
MAX_TOP_LEVEL = 8

# Layers inside the host: a unit imports only units of a lower rank (or itself); the
# top rank (the process, the server, the assembly) may import any of the host.
HOST_RANKS = {
    "host.protocol": 0,
    "host.clock": 1,
    "host.execution_path": 1,
    "host.git_child": 1,
    "host.config": 1,
    "host.events": 1,
    "host.store": 2,
    "host.sessions": 3,
    "host.todos": 3,
    "host.checkpoints": 3,
    "host.tools": 4,
    "host.remote": 4,
    "host.worktrees": 4,
    "host.agent": 5,
    "host.acp": 6,
}
TOP_RANK = 7


@dataclass(frozen=True)
class Import:
    path: Path
    line: int
    name: str


def module_of(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def parse(path: Path) -> ast.Module:
    """The file's syntax tree, parsed on a thread of its own: once, in a whole-suite run,
    Python 3.11's parser failed ("AST constructor recursion depth mismatch") in a worker
    whose earlier tests raise and catch RecursionError on purpose; a fresh thread starts
    with a fresh recursion count."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(ast.parse, path.read_text(), str(path)).result()


def imports_of(path: Path, root: Path = ROOT) -> list[Import]:
    """Every module the file imports, `from . import x` resolved to its absolute name."""
    module = module_of(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(parse(path)):
        if isinstance(node, ast.Import):
            found += [Import(path, node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.append(Import(path, node.lineno, base))
            found += [Import(path, node.lineno, f"{base}.{a.name}") for a in node.names]
    return found


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def host_unit(name: str) -> str:
    for unit in HOST_RANKS:
        if _under(name, unit):
            return unit
    return name


def problems(imp: Import, package: str, root: Path) -> list[str]:
    where = f"{imp.path.relative_to(root)}:{imp.line}"
    out = [
        f"{where} imports {imp.name}" for bad in FORBIDDEN.get(package, ()) if _under(imp.name, bad)
    ]
    allowed = ONLY_FROM_HOST.get(package)
    if allowed and _under(imp.name, "host") and not _under(imp.name, allowed):
        out.append(f"{where} imports {imp.name}, but of the host only {allowed}")
    allowed = ONLY_FROM_DESKTOP.get(package)
    if allowed and _under(imp.name, "nib_desktop") and not _under(imp.name, allowed):
        out.append(f"{where} imports {imp.name}, but of the desktop only {allowed}")
    module = module_of(imp.path, root)
    if package == "host" and _under(imp.name, "apsw") and not _under(module, "host.store"):
        out.append(f"{where} imports apsw: only the store does (StorageFailure above it)")
    if (
        package == "nib_desktop"
        and _under(imp.name, "ui")
        and not any(_under(module, shell) for shell in SHELL)
    ):
        out.append(f"{where} imports {imp.name}: the Main role never imports a view")
    if (
        package == "host"
        and any(_under(imp.name, twin) for twin in WINDOW_SIDE)
        and not any(_under(module, twin) for twin in WINDOW_SIDE)
    ):
        out.append(f"{where} imports {imp.name}: the plain twins are the window's")
    if package == "host" and _under(imp.name, "host"):
        mine = host_unit(module_of(imp.path, root))
        rank = HOST_RANKS.get(mine, TOP_RANK)
        theirs = host_unit(imp.name)
        if rank < TOP_RANK and theirs != mine and HOST_RANKS.get(theirs, TOP_RANK) >= rank:
            out.append(f"{where} imports {imp.name}: {mine} may not depend on {theirs}")
    return out


def scan(root: Path = ROOT) -> tuple[int, list[str]]:
    """(files scanned, violations)."""
    files, found = 0, []
    for package in FORBIDDEN:
        for path in sorted((root / package).rglob("*.py")):
            files += 1
            for imp in imports_of(path, root):
                found += problems(imp, package, root)
    return files, sorted(set(found))


def test_the_main_role_is_in_rooms_by_job() -> None:
    """nib_desktop/ keeps at most MAX_TOP_LEVEL modules at its top, every other in a room
    (a folder) by its job; no two modules of the Main role and the window share a name."""
    top = {p.name for p in (ROOT / "nib_desktop").glob("*.py")}
    assert top == TOP_LEVEL and len(top) <= MAX_TOP_LEVEL
    rooms = {p.parent.name for p in (ROOT / "nib_desktop").glob("*/__init__.py")}
    assert rooms == {"shell", "link", "inbound", "work", "outside", "state"}
    names: dict[str, list[str]] = {}
    for path in [*(ROOT / "nib_desktop").rglob("*.py"), *(ROOT / "ui").rglob("*.py")]:
        if path.name != "__init__.py":
            names.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    assert {name: at for name, at in names.items() if len(at) > 1} == {}


def test_import_boundaries() -> None:
    files, found = scan()
    assert found == []
    every = {p for pkg in ("ui", "nib_desktop", "host") for p in (ROOT / pkg).rglob("*.py")}
    assert files >= len(every) >= 40  # every module was read (host/protocol twice)


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the project's modules it imports (anywhere in the file)."""
    paths = {
        module_of(p, root): p
        for pkg in ("ui", "nib_desktop", "host")
        for p in (root / pkg).rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        targets = set()
        for imp in imports_of(path, root):
            name = imp.name
            while name and name not in paths:
                name = name.rpartition(".")[0]
            if name and name != module and paths[name].name != "__init__.py":
                targets.add(name)
        graph[module] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_package_of_the_host_has_a_rank() -> None:
    """A new package of the host is placed in the layers, not left at the top by default."""
    packages = {f"host.{p.parent.name}" for p in (ROOT / "host").glob("*/__init__.py")}
    assert packages - set(HOST_RANKS) == set()


def test_no_module_imports_itself_round_about() -> None:
    graph = import_graph()
    assert len(graph) >= 40
    assert cycles(graph) == []


def test_the_cycle_check_finds_a_planted_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize(
    ("package", "path", "source", "expected"),
    [
        (
            "ui",
            "ui/bad.py",
            "from host.protocol import models\n",
            "ui/bad.py:1 imports host.protocol",
        ),
        (
            "ui",
            "ui/views/bad.py",
            "from nib_desktop.work.dispatch import Intents\n",
            "ui/views/bad.py:1 imports nib_desktop.work.dispatch, but of the desktop only "
            "nib_desktop.state",
        ),
        (
            "nib_desktop",
            "nib_desktop/inbound/router.py",
            "from ui.views.dock import DockView\n",
            "nib_desktop/inbound/router.py:1 imports ui.views.dock: the Main role never imports"
            " a view",
        ),
        (
            "nib_desktop/inbound",
            "nib_desktop/inbound/bad.py",
            "from nib_desktop.work.dispatch import Intents\n",
            "nib_desktop/inbound/bad.py:1 imports nib_desktop.work.dispatch",
        ),
        (
            "nib_desktop/link",
            "nib_desktop/link/bad.py",
            "from nib_desktop.inbound import lines\n",
            "nib_desktop/link/bad.py:1 imports nib_desktop.inbound",
        ),
        (
            "nib_desktop/state",
            "nib_desktop/state/bad.py",
            "import PySide6.QtCore\n",
            "nib_desktop/state/bad.py:1 imports PySide6.QtCore",
        ),
        ("ui", "ui/sub/bad.py", "\n\nfrom ...host import core\n", "ui/sub/bad.py:3 imports host"),
        (
            "nib_desktop",
            "nib_desktop/bad.py",
            "import host.process\n",
            "nib_desktop/bad.py:1 imports host.process, but of the host only host.protocol",
        ),
        (
            "host",
            "host/store/bad.py",
            "from ..sessions import service\n",
            "host/store/bad.py:1 imports host.sessions: host.store may not depend on host.sessions",
        ),
        (
            "host",
            "host/sessions/bad.py",
            "import apsw\n",
            "host/sessions/bad.py:1 imports apsw: only the store does (StorageFailure above it)",
        ),
        (
            "host",
            "host/todos/bad.py",
            "from host.tools import registry\n",
            "host/todos/bad.py:1 imports host.tools: host.todos may not depend on host.tools",
        ),
        (
            "host/protocol",
            "host/protocol/bad.py",
            "from PySide6.QtCore import QObject\n",
            "host/protocol/bad.py:1 imports PySide6.QtCore",
        ),
    ],
)
def test_the_walk_finds_a_planted_violation(tmp_path, package, path, source, expected) -> None:
    for folder in (
        "ui",
        "nib_desktop",
        "nib_desktop/state",
        "nib_desktop/inbound",
        "nib_desktop/link",
        "host/protocol",
    ):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    planted = tmp_path / path
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_text(source)
    files, found = scan(tmp_path)
    assert files >= 1
    assert expected in found, found


def test_the_window_loads_before_the_protocol() -> None:
    """Start-up order (docs/architecture.md): what runs before the first frame imports
    neither pydantic, qasync nor the host's modules beyond the light app info."""
    script = (
        "import sys\n"
        "import nib_desktop.shell.app, nib_desktop.shell.boot, nib_desktop.shell.window\n"
        "import nib_desktop.link.supervisor\n"
        "nib_desktop.shell.app.default_data_dir()\n"
        # modules imported (with a spec): host.protocol's stand-in for pydantic's plugin
        # loader is none; the name first, as reading a lazy module's spec would load it
        "print(sorted(m for m, mod in list(sys.modules.items())"
        " if (m.split('.')[0] in ('pydantic', 'qasync', 'apsw', 'openai')"
        " or m.startswith('host')) and getattr(mod, '__spec__', None)))\n"
    )
    assert python_says(script) == "['host', 'host.protocol', 'host.protocol.appinfo']"


def test_the_window_makes_no_qt_class_the_first_frame_does_not_use() -> None:
    """PySide makes a class's Python type when it is first named (QTextCharFormat 1.9 ms,
    QFont 1.1 ms): the find's marks and the sweep's font are made on their first use; nor
    is `html` imported (its table of entities, 1.5 ms), nor `dataclasses` (with `copy`,
    1.8 ms; a transcript line and a change are `Record`s)."""
    script = (
        "import sys, nib_desktop.shell.window\n"
        "import PySide6.QtCore as core, PySide6.QtGui as gui\n"
        "made = ('QFont', 'QTextCharFormat', 'QTextDocument', 'QSyntaxHighlighter')\n"
        "print([name for name in made if name in vars(gui)] + [\n"
        "    name for name in ('QUrl', 'QEvent') if name in vars(core)] + [\n"
        "    name for name in ('html', 'dataclasses') if name in sys.modules])\n"
    )
    assert python_says(script) == "[]"


def test_the_way_to_connected_imports_only_what_it_uses() -> None:
    """The window's geometry key is a SHA-256 from Python's own module (`hashlib` imports
    every digest it offers); a tool call's diff (difflib) and a history row's local time
    (datetime) are imported when first made, not with the Main role; and so are the
    intents' areas (`MainRole.intents`). Nothing on that way is a dataclass."""
    script = (
        "import pathlib, sys\n"
        "from nib_desktop.shell import prefs, window\n"
        "key = prefs.geometry_key(pathlib.Path('.'))\n"
        "import nib_desktop.main_role, nib_desktop.shell.event_loop\n"
        "import nib_desktop.outside.progress, nib_desktop.inbound.transcript_page\n"
        "gone = ('hashlib', 'difflib', 'datetime', 'nib_desktop.work.dispatch', 'dataclasses')\n"
        "print([name for name in gone if name in sys.modules])\n"
        "import hashlib\n"
        "print(key.split('/')[1] == hashlib.sha256(str(pathlib.Path('.').resolve()).encode())"
        ".hexdigest()[:16])\n"
    )
    assert python_says(script).split("\n") == ["[]", "True"]


def test_the_windows_state_types_are_not_compiled_from_strings() -> None:
    """A named tuple's field given as a string is compiled by `typing` (ForwardRef) as
    its class is made: 325 compiles on the window's way to "connected" when the state's
    modules declared their types as strings (`from __future__ import annotations`)."""
    script = (
        "import collections, sys, typing\n"
        "made = collections.Counter()\n"
        "real = typing.ForwardRef.__init__\n"
        "def counted(self, *args, **kwargs):\n"
        "    frame = sys._getframe(1)\n"
        "    while frame.f_code.co_filename.endswith('typing.py'):\n"
        "        frame = frame.f_back\n"
        "    made[frame.f_globals['__name__']] += 1\n"
        "    real(self, *args, **kwargs)\n"
        "typing.ForwardRef.__init__ = counted\n"
        "import nib_desktop.shell.window, nib_desktop.state.events\n"
        "print(sorted(m for m in made if m.startswith(('nib_desktop.state', 'ui.snapshots'))))\n"
    )
    assert python_says(script) == "[]"


def test_validating_the_contract_loads_no_package_metadata() -> None:
    """pydantic's plugin loader would import importlib.metadata (and email, zipfile...)
    at the first validator and scan every distribution for plugins; neither process uses
    any (host.protocol), so neither pays for it."""
    script = (
        "import sys\n"
        "import host.protocol.models as m\n"
        "m.Empty.model_validate({})\n"
        'm.ReadyLine.model_validate_json(\'{"ready": true, "socket": "s", "pid": 1,'
        ' "protocolVersion": 1, "schemaVersion": 1}\')\n'
        "print('importlib.metadata' in sys.modules, 'email' in sys.modules)\n"
    )
    assert python_says(script) == "False False"


def test_the_host_is_ready_before_its_agent_runtime_loads(tmp_path) -> None:
    """The real host process: what it imports before its ready line is what answering
    host.hello and sessions.list needs but asyncio; the agent runtime (providers, tools,
    compaction), the remote links and ctypes load after it (Python's own import log,
    -X importtime, in order)."""
    import os

    env = {**os.environ, "NIB_HOST_TOKEN": "t"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    host = subprocess.Popen(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "host",
            "--socket",
            str(tmp_path / "s"),
            "--data-dir",
            str(tmp_path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert host.stdout is not None and host.stderr is not None
    before: list[str] = []
    for line in host.stderr:  # the import log and the host's own log, in order
        if "listening on" in line:
            break
        if line.startswith("import time:"):
            before.append(line.rsplit("|", 1)[1].strip())
    assert '"ready":true' in host.stdout.readline()
    host.terminate()
    host.communicate(timeout=30)
    assert "host.protocol.models" in before and "host.sessions.service" in before
    # nor asyncio and the server: the ready line is written once the socket listens, and
    # the kernel holds a first request until the loop reads it (host.listening)
    loaded_early = {
        "host.agent.runtime",
        "host.remote.registry",
        "host.tools.external",
        "ctypes",
        "host.todos.service",
        "logging.handlers",
        "asyncio",
        "host.server",
        "host.rpc",
        "host.protocol.serving",
    }
    assert loaded_early.isdisjoint(before)
