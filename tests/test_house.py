"""The house rules a maintainer relies on, checked: every QML file binds its components'
scopes and stays one part of a screen, and no module of the window holds two jobs' worth
of code."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_QML_LINES = 300
MAX_WINDOW_MODULE_LINES = 250
MAX_HOST_MODULE_LINES = 450


def test_every_qml_file_binds_its_scopes_and_is_one_part() -> None:
    files = sorted((ROOT / "ui" / "qml").rglob("*.qml"))
    assert len(files) > 20
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("pragma ComponentBehavior: Bound\n"), path.name
        assert text.count("\n") <= MAX_QML_LINES, f"{path.name}: {text.count(chr(10))} lines"


def test_no_module_of_the_window_is_over_its_size() -> None:
    files = sorted([*(ROOT / "nib_desktop").rglob("*.py"), *(ROOT / "ui").rglob("*.py")])
    assert len(files) > 40
    long = {
        str(p.relative_to(ROOT)): n
        for p in files
        if (n := p.read_text(encoding="utf-8").count("\n")) > MAX_WINDOW_MODULE_LINES
    }
    assert long == {}


def test_no_module_of_the_host_is_over_its_size() -> None:
    """One job per host module: none over MAX_HOST_MODULE_LINES as the formatter writes
    it (the contract's models are split by section)."""
    files = sorted((ROOT / "host").rglob("*.py"))
    assert len(files) > 60
    long = {
        str(p.relative_to(ROOT)): n
        for p in files
        if (n := p.read_text(encoding="utf-8").count("\n")) > MAX_HOST_MODULE_LINES
        and p not in GENERATED
    }
    assert long == {}


# Written by a program and never by hand (a test checks each is what it writes): the
# contract's models again, without pydantic, one class per model, for the window.
GENERATED = {ROOT / "host" / "protocol" / "plain_models.py"}


MAX_TABLE_SKIPS = 25
TABLES = (ast.Dict, ast.List, ast.Tuple, ast.Set)


def formatter_skips(root: Path = ROOT) -> tuple[list[str], list[str]]:
    """The `# fmt: skip` comments of the project's Python (the app, its tests, harness and
    benchmarks): (those on a data table, a module's or class's assignment of a literal
    container over several lines; the others)."""
    tables: list[str] = []
    others: list[str] = []
    for package in ("host", "nib_desktop", "ui", "tests", "harness", "bench", "packaging"):
        for path in sorted((root / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if "# fmt: skip" not in text:
                continue
            ends: set[int] = set()
            for scope in ast.walk(ast.parse(text)):
                if isinstance(scope, ast.Module | ast.ClassDef):
                    ends |= {
                        node.end_lineno or 0
                        for node in scope.body
                        if isinstance(node, ast.Assign | ast.AnnAssign)
                        and isinstance(node.value, TABLES)
                        and (node.end_lineno or 0) > node.lineno
                    }
            for number in skip_comments(text):
                where = f"{path.relative_to(root)}:{number}"
                (tables if number in ends else others).append(where)
    return tables, others


def skip_comments(text: str) -> list[int]:
    """The lines holding a `# fmt: skip` comment (not the words inside a string)."""
    return [
        token.start[0]
        for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type == tokenize.COMMENT and token.string.strip() == "# fmt: skip"
    ]


def test_sizes_are_as_the_formatter_writes_them() -> None:
    """A size limit is met by splitting jobs, never by hand-formatting: the formatter
    (ruff format, checked by the test command) is skipped only on data tables, so every
    module's lines are counted as it writes them."""
    tables, others = formatter_skips()
    assert others == []
    assert len(tables) <= MAX_TABLE_SKIPS, tables


def test_the_skip_check_finds_a_hand_formatted_call(tmp_path: Path) -> None:
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "bad.py").write_text(
        "TABLE = {\n    'a': 1,\n}  # fmt: skip\n\n\ndef f() -> None:\n"
        "    print(1,\n          2)  # fmt: skip\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text(
        'WORDS = "# fmt: skip"\n\n\ndef test() -> None:\n    f(1,\n      2)  # fmt: skip\n'
    )
    assert formatter_skips(tmp_path) == (["host/bad.py:3"], ["host/bad.py:8", "tests/t.py:6"])


def test_the_checklist_tables_are_read_only_by_their_own_room() -> None:
    """The ADR's `session_todo` and the history's `todo_revisions` are the todo room's: any
    other room asks its service (checkpoints once read them by SQL, around the import
    rule); only the store's schema and migrations name them besides."""
    own = ("host/todos/", "host/store/")
    readers = [
        str(p.relative_to(ROOT))
        for p in sorted((ROOT / "host").rglob("*.py"))
        if not str(p.relative_to(ROOT)).startswith(own)
        and any(t in p.read_text(encoding="utf-8") for t in ("session_todo", "todo_revisions"))
    ]
    assert readers == []


def test_the_benchmarks_do_not_depend_on_the_test_tree() -> None:
    """The real parts both run live in harness/; a benchmark never imports tests/, and the
    harness imports neither tests/ nor bench/."""
    importing = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for folder in ("bench", "harness")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom | ast.Import)
        and any(
            name.split(".")[0] in ("tests", "bench" if folder == "harness" else "tests")
            for name in ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            + ([a.name for a in node.names] if isinstance(node, ast.Import) else [])
        )
    ]
    assert importing == []
    # nor runs a file of it by its path
    paths = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "bench").rglob("*.py"))
        if '"tests"' in (text := path.read_text(encoding="utf-8")) or "tests.helpers" in text
    ]
    assert paths == []


def test_the_contracts_models_are_declared_with_their_types_evaluated() -> None:
    """The contract's pydantic models are written without `from __future__ import
    annotations`: with it, every field's type is a string that pydantic evaluates again as
    each of the 125 classes is made (over 500 compiles, 6-9 ms of the host's start before
    its ready line). The plain twins, read only by the window, keep it."""
    protocol = ROOT / "host" / "protocol"
    files = [*protocol.glob("*_models.py"), protocol / "models.py", protocol / "wire.py"]
    files = [path for path in files if path.name != "plain_models.py"]
    assert len(files) >= 14
    postponed = [
        path.name
        for path in files
        if "from __future__ import annotations" in path.read_text(encoding="utf-8")
    ]
    assert postponed == []
