"""`Record`: a frozen value of the window's state (an intent, a choice), made without
compiling anything.

A frozen dataclass is made by compiling six methods as its module is imported, about
0.4 ms a class here: the 50-odd intents cost the window 20 ms of its start, part of it
before the first frame. A named tuple is cheaper, but one without fields is an empty
tuple (false, and equal to every other such), and an intent is often one. A `Record`
subclass is its fields' annotations and defaults, read once by `__init_subclass__`; its
methods are this class's, shared. It is built by position or by name, compares and
hashes by its type and fields, is matched by position in a `case`, and refuses to change;
a `functools.cached_property` of its class keeps its value beside the fields (and is
not compared). Type checkers see it as a frozen dataclass (`dataclass_transform`).
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar, dataclass_transform

_NONE = object()


@dataclass_transform(frozen_default=True)
class Record:
    """Subclass with annotated fields (those with a default after those without)."""

    __match_args__: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if any(base.__match_args__ for base in cls.__mro__[1:] if issubclass(base, Record)):
            # its fields are read from its own annotations only: a base's would be lost
            raise TypeError(f"{cls.__name__}: a Record with fields is not subclassed")
        names = tuple(
            name
            for name, hint in inspect.get_annotations(cls).items()
            if not str(hint).startswith(("ClassVar", "typing.ClassVar"))
        )
        cls.__match_args__ = names  # type: ignore[misc]  # each subclass its own
        cls._defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self.__match_args__
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__} takes {len(names)} values, not {len(args)}")
        values = dict(zip(names, args, strict=False))
        for name, value in kwargs.items():
            if name not in names:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
            if name in values:
                raise TypeError(f"{type(self).__name__} got {name!r} twice")
            values[name] = value
        for name in names[len(args) :]:
            if name not in values:
                value = self._defaults.get(name, _NONE)
                if value is _NONE:
                    raise TypeError(f"{type(self).__name__} needs {name!r}")
                values[name] = value
        self.__dict__.update(values)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if other is self:  # (a view's rows are compared with the rows they were)
            return True
        if type(other) is not type(self):
            return NotImplemented
        mine, theirs = self.__dict__, other.__dict__
        names = self.__match_args__
        if len(mine) == len(theirs) == len(names):
            return mine == theirs
        # by its fields alone: a cached property's value is kept beside them
        return all(mine[name] == theirs[name] for name in names)

    def __hash__(self) -> int:
        return hash((type(self), *(self.__dict__[name] for name in self.__match_args__)))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self.__match_args__)
        return f"{type(self).__name__}({shown})"
