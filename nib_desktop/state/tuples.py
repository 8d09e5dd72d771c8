"""`NamedTuple`: `typing.NamedTuple` as the window's state declares it, made without
compiling anything.

`typing.NamedTuple` checks every field's annotation, then `collections.namedtuple`
compiles a `__new__` with the fields' names from source, for each class: about 120 µs a
class here. The window's state declares over 80 of them, 50 before its first frame and
35 events on the way to its first answers: 5 and 4 ms of its start. This one takes one
`__new__` per number of fields, compiled once, and gives each class its own copy with its
fields' names (a code object's `replace`), about 20 µs a class.

A class made here is what `typing.NamedTuple` makes, for what the project uses: a
`tuple` subclass with a getter per field, built by position or by name with the
defaults, `_fields`, `_field_defaults`, `_make`, `_replace`, `_asdict`, its `repr`, its
pickling and matching by position; the methods and properties of its body are kept.
Its annotations are kept as written (not checked: type checkers do that). Type checkers
see `typing.NamedTuple` itself. Generic named tuples are `typing`'s own.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from keyword import iskeyword
from types import FunctionType
from typing import TYPE_CHECKING, Any

_TUPLE_NEW = tuple.__new__
# the getter of a field by its index, as collections.namedtuple makes it
_tuplegetter: Callable[[int, str], Any] = collections._tuplegetter  # type: ignore[attr-defined]
# the names `typing.NamedTuple` keeps for itself (a body may not set them)
_PROHIBITED = frozenset(
    ("__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults", "_make")
)
_SPECIAL = frozenset(("__module__", "__name__", "__annotations__"))
_NEW_BY_ARITY: dict[int, FunctionType] = {}


def _new_template(arity: int) -> FunctionType:
    """`__new__(_cls, _0, _1, …)` for `arity` fields, compiled once per arity."""
    made: FunctionType | None = _NEW_BY_ARITY.get(arity)
    if made is None:
        args = ", ".join(f"_{i}" for i in range(arity))
        values = f"({args},)" if arity else "()"
        scope: dict[str, Any] = {"_tuple_new": _TUPLE_NEW, "__name__": __name__}
        exec(f"def __new__(_cls, {args}):\n    return _tuple_new(_cls, {values})\n", scope)
        made = _NEW_BY_ARITY[arity] = scope["__new__"]
    return made


def _new_for(typename: str, fields: tuple[str, ...], defaults: tuple[Any, ...]) -> Any:
    template = _new_template(len(fields))
    code = template.__code__.replace(co_varnames=("_cls", *fields))
    new = FunctionType(code, template.__globals__, "__new__", defaults or None)
    new.__qualname__ = f"{typename}.__new__"
    return new


def _make(cls: Any, iterable: Any) -> Any:
    made = _TUPLE_NEW(cls, iterable)
    if len(made) != len(cls._fields):
        raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(made)}")
    return made


def _replace(self: Any, /, **changes: Any) -> Any:
    made = self._make(map(changes.pop, self._fields, self))
    if changes:
        raise ValueError(f"Got unexpected field names: {list(changes)!r}")
    return made


def __repr__(self: Any) -> str:
    shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True))
    return f"{self.__class__.__name__}({shown})"


def _asdict(self: Any) -> dict[str, Any]:
    return dict(zip(self._fields, self, strict=True))


def __getnewargs__(self: Any) -> tuple[Any, ...]:
    return tuple(self)


class _Maker(type):
    """Makes `class X(NamedTuple)` a tuple subclass, as `typing.NamedTuple` does."""

    def __new__(mcs, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        if not bases:  # `NamedTuple` itself
            return super().__new__(mcs, typename, bases, ns)
        if bases != (_Root,):
            raise TypeError("can only inherit from NamedTuple (generic ones: typing's)")
        annotations: dict[str, Any] = ns.get("__annotations__", {})
        fields = tuple(annotations)
        defaulted: list[str] = []
        for name in fields:
            if not name.isidentifier() or iskeyword(name) or name.startswith("_"):
                raise ValueError(f"{typename}: {name!r} cannot name a field")
            if name in ns:
                defaulted.append(name)
            elif defaulted:
                raise TypeError(
                    f"Non-default namedtuple field {name} cannot follow default field"
                    f"{'s' if len(defaulted) > 1 else ''} {', '.join(defaulted)}"
                )
        defaults = tuple(ns[name] for name in defaulted)
        made: dict[str, Any] = {
            "__doc__": f"{typename}({', '.join(fields)})",
            "__slots__": (),
            "_fields": fields,
            "_field_defaults": dict(zip(defaulted, defaults, strict=True)),
            "__match_args__": fields,
            "__new__": _new_for(typename, fields, defaults),
            "_make": classmethod(_make),
            "_replace": _replace,
            "__repr__": __repr__,
            "_asdict": _asdict,
            "__getnewargs__": __getnewargs__,
            "__annotations__": annotations,
            "__module__": ns["__module__"],
        }
        for index, name in enumerate(fields):
            made[name] = _tuplegetter(index, f"Alias for field number {index}")
        for key, value in ns.items():
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in _SPECIAL and key not in fields:
                made[key] = value
        return type(typename, (tuple,), made)


class _Root(metaclass=_Maker):
    """Subclass with annotated fields, as `typing.NamedTuple`."""


if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    NamedTuple = _Root
