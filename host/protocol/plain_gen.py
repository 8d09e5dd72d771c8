"""Writes `plain_models.py` and `plain_methods.py` from the contract's models and tables:
the same types without pydantic, for the window (see `plain`).

    python -m host.protocol.plain_gen          # writes both files
    python -m host.protocol.plain_gen --check  # exit 1 if either is not current

Each model becomes a `Plain` class of the same name, fields, annotations (without their
constraints) and defaults, with a field's wire name when it is not its camelCase, and
its properties' source; the constants, the Literal and union aliases, and the method
table follow.
"""

from __future__ import annotations

import argparse
import inspect
import subprocess
import sys
import textwrap
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic_core import PydanticUndefined

from host.protocol import methods as rpc, models as m
from host.protocol.method_types import Method, Notification
from host.protocol.plain import camel

HERE = Path(__file__).resolve().parent
MODELS_FILE = HERE / "plain_models.py"
METHODS_FILE = HERE / "plain_methods.py"
SIMPLE = (str, int, float, bool)
HEADER = '''"""{what} without pydantic, for the window (see `host.protocol.plain`).

Written by `python -m host.protocol.plain_gen` from {source}:
not to be edited; a test checks that it is what they give."""

{future}'''
# The models' annotations are objects, not strings: a class's fields are read at its
# first decode, and a string annotation was compiled then (about 0.2 ms a class, on the
# window's way to "connected"). So each class comes after those its fields name.
FUTURE = "from __future__ import annotations\n\n"


def models_source() -> str:
    """plain_models.py, before formatting."""
    namespace = vars(m)
    classes = [v for v in namespace.values() if isinstance(v, type) and issubclass(v, m.Wire)]
    literals = {
        name: value
        for name, value in namespace.items()
        if typing.get_origin(value) is Literal and not name.startswith("_")
    }
    unions = {
        name: _stripped(value)
        for name, value in namespace.items()
        if typing.get_origin(_stripped(value)) in (types.UnionType, typing.Union)
        and not name.startswith("_")
    }
    out = [
        HEADER.format(what="The contract's wire models", source="`host.protocol.models`", future="")
    ]
    out.append("from typing import Literal\n\nfrom host.protocol.plain import Plain as Plain\n\n")
    for name, value in namespace.items():
        if name.isupper() and isinstance(value, (*SIMPLE, dict)) and _literal_value(value):
            out.append(f"{name} = {value!r}\n")
    out.append("\n")
    for name, value in literals.items():
        out.append(f"{name} = {_annotation(value, {})}\n")
    out.append("\n")
    for cls in _ordered(classes):
        out.append(_class_source(cls, literals))
    for name, value in unions.items():
        out.append(f"{name} = {_annotation(value, literals)}\n")
    return "".join(out)


def methods_source() -> str:
    """plain_methods.py, before formatting."""
    out = [
        HEADER.format(what="The contract's table", source="`host.protocol.methods`", future=FUTURE)
    ]
    out.append(
        "from typing import Any\n\n"
        "from host.protocol import plain_models as m\n"
        "from host.protocol.method_types import Method as Method, Notification as Notification\n\n"
    )
    methods, notes = [], []
    for name, value in vars(rpc).items():
        if isinstance(value, Method):
            methods.append(name)
            out.append(
                f"{name} = Method({value.name!r}, m.{value.params.__name__},"
                f" m.{value.result.__name__})\n"
            )
        elif isinstance(value, Notification):
            notes.append(name)
            out.append(f"{name} = Notification({value.name!r}, m.{value.params.__name__})\n")
    out.append(
        f"METHODS: dict[str, Method[Any, Any]] = {{\n"
        f"    method.name: method for method in ({', '.join(methods)},)\n}}\n"
    )
    out.append(
        f"NOTIFICATIONS: dict[str, Notification[Any]] = {{\n"
        f"    note.name: note for note in ({', '.join(notes)},)\n}}\n"
    )
    return "".join(out)


def _literal_value(value: Any) -> bool:
    """Whether `value` is written back by its repr."""
    if isinstance(value, dict):
        return all(_literal_value(k) and _literal_value(v) for k, v in value.items())
    return isinstance(value, SIMPLE)


def _ordered(classes: list[type[m.Wire]]) -> list[type[m.Wire]]:
    """Each class after its bases and the classes its fields name (their annotations and
    defaults), otherwise in the models' order. A class that names itself, or a cycle of
    them, cannot be: TypeError."""
    done: list[type[m.Wire]] = []
    placing: list[type[m.Wire]] = []

    def place(cls: type[m.Wire]) -> None:
        if cls in done or cls is m.Wire:
            return
        if cls in placing:
            cycle = " -> ".join(c.__name__ for c in [*placing, cls])
            raise TypeError(f"models that name each other cannot be plain: {cycle}")
        placing.append(cls)
        for base in cls.__bases__:
            if issubclass(base, m.Wire):
                place(base)
        for info in cls.model_fields.values():
            for named in _models_in(info.annotation):
                place(named)
            default = info.get_default(call_default_factory=True)
            if isinstance(default, m.Wire):
                place(type(default))
        placing.pop()
        done.append(cls)

    for cls in classes:
        place(cls)
    return done


def _models_in(hint: Any) -> list[type[m.Wire]]:
    """The models an annotation names, at any depth."""
    hint = _stripped(hint)
    if isinstance(hint, type):
        return [hint] if issubclass(hint, m.Wire) else []
    return [named for arg in typing.get_args(hint) for named in _models_in(arg)]


def _class_source(cls: type[m.Wire], literals: dict[str, Any]) -> str:
    parents = [base for base in cls.__bases__ if issubclass(base, m.Wire) and base is not m.Wire]
    base = parents[0].__name__ if parents else "Plain"
    own = set(cls.model_fields) - {name for parent in parents for name in parent.model_fields}
    lines = [f"\n\nclass {cls.__name__}({base}):\n"]
    aliases = {
        name: info.alias
        for name, info in cls.model_fields.items()
        if name in own and info.alias is not None and info.alias != camel(name)
    }
    if aliases:
        lines.append(f"    ALIASES = {aliases!r}\n")
    for name, info in cls.model_fields.items():
        if name not in own:
            continue
        annotation = _annotation(info.annotation, literals)
        if info.default_factory is not None:
            made = info.get_default(call_default_factory=True)
            lines.append(f"    {name}: {annotation} = {made!r}\n")
        elif info.default is PydanticUndefined:
            lines.append(f"    {name}: {annotation}\n")
        else:
            lines.append(f"    {name}: {annotation} = {info.default!r}\n")
    for value in vars(cls).values():
        if isinstance(value, property) and value.fget is not None:
            source = textwrap.dedent(inspect.getsource(value.fget))
            lines.append("\n" + textwrap.indent(source, "    "))
    if len(lines) == 1:
        lines.append("    pass\n")
    return "".join(lines)


def _stripped(hint: Any) -> Any:
    """`hint` without its Annotated constraints, at any depth."""
    if typing.get_origin(hint) is Annotated:
        return _stripped(typing.get_args(hint)[0])
    return hint


def _annotation(hint: Any, literals: dict[str, Any]) -> str:
    """`hint` as source, its constraints left out."""
    hint = _stripped(hint)
    if hint is type(None):
        return "None"
    if hint is Any:
        return "Any"
    if isinstance(hint, type):
        return hint.__name__
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        named = next((name for name, value in literals.items() if value == hint), None)
        return named or f"Literal[{', '.join(repr(arg) for arg in args)}]"
    if origin in (types.UnionType, typing.Union):
        return " | ".join(_annotation(arg, literals) for arg in args)
    if origin is tuple:
        inner = ", ".join("..." if a is Ellipsis else _annotation(a, literals) for a in args)
        return f"tuple[{inner}]"
    if origin is dict:
        return f"dict[{_annotation(args[0], literals)}, {_annotation(args[1], literals)}]"
    raise TypeError(f"no source for {hint!r}")


def formatted(source: str, path: Path) -> str:
    """`source` with its imports sorted and formatted, as ruff does the project's files."""
    for command in (["check", "--fix", "--select", "I", "--quiet"], ["format"]):
        source = subprocess.run(
            [sys.executable, "-m", "ruff", *command, "--stdin-filename", str(path), "-"],
            input=source,
            capture_output=True,
            text=True,
            check=True,
            cwd=HERE.parent.parent,
        ).stdout
    return source


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    stale = []
    for path, source in ((MODELS_FILE, models_source()), (METHODS_FILE, methods_source())):
        text = formatted(source, path)
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
    if stale:
        print(f"not current: {', '.join(stale)} (python -m host.protocol.plain_gen)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
