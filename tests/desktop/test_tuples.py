"""The window's `NamedTuple` (nib_desktop/state/tuples.py): made without compiling a
`__new__` per class, and behaving as `typing.NamedTuple` does, side by side."""

from __future__ import annotations

import copy
import importlib
import pickle
import pkgutil
import typing
from typing import Any

import pytest
from hypothesis import given, strategies as st

import nib_desktop.state
import ui
from nib_desktop.state import tuples
from nib_desktop.state.tuples import NamedTuple
from tests.helpers.compiles import counted_sources


def declared(base: Any, name: str) -> Any:
    """The same declaration on either `NamedTuple`, named `name` in this module."""

    class Step(base):  # type: ignore[misc, valid-type]
        """A step as the tests declare it."""

        title: str
        done: bool = False
        tags: tuple[str, ...] = ()

        @property
        def shown(self) -> str:
            return f"{'✓' if self.done else '·'} {self.title}"

        def marked(self) -> Any:
            return self._replace(done=True)

    Step.__name__ = Step.__qualname__ = name  # (found by pickle)
    return Step


Ours, Theirs = declared(NamedTuple, "Ours"), declared(typing.NamedTuple, "Theirs")


class Empty(NamedTuple):
    pass


def test_classes_of_one_arity_compile_nothing_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """typing.NamedTuple compiles a `__new__` for each class; this one once per number
    of fields, then none for a second class of as many."""
    ran = counted_sources(monkeypatch)

    class First(NamedTuple):
        path: str
        line: int = 0

    compiled = len(ran)

    class Second(NamedTuple):
        name: str
        size: int = 1

    assert len(ran) == compiled <= 1
    assert Second("a") == ("a", 1) and Second(size=2, name="b").size == 2
    assert First("x", 3).line == 3


@given(title=st.text(max_size=8), done=st.booleans(), tags=st.tuples(st.text(max_size=3)))
def test_behaves_as_typing_named_tuple(title: str, done: bool, tags: tuple[str]) -> None:
    ours, theirs = Ours(title, done, tags), Theirs(title, done, tags)
    assert tuple(ours) == tuple(theirs) and ours == theirs and hash(ours) == hash(theirs)
    assert repr(ours) == repr(theirs).replace("Theirs", "Ours")
    assert Ours(title=title) == Theirs(title=title)
    assert ours.shown == theirs.shown and ours.marked() == theirs.marked()
    assert ours._asdict() == theirs._asdict()
    assert Ours._make(ours) == ours and isinstance(Ours._make(ours), Ours)
    assert ours._replace(tags=("a",)) == theirs._replace(tags=("a",))
    assert pickle.loads(pickle.dumps(ours)) == ours
    assert copy.deepcopy(ours) == ours and type(copy.copy(ours)) is Ours
    match ours:
        case Ours(matched_title, matched_done):
            assert (matched_title, matched_done) == (title, done)


def test_its_class_attributes_are_typing_s() -> None:
    for name in ("_fields", "_field_defaults", "__match_args__", "__doc__"):
        assert getattr(Ours, name) == getattr(Theirs, name), name
    assert Ours.__annotations__.keys() == Theirs.__annotations__.keys()
    assert Ours.__mro__[1:] == (tuple, object) and Ours.__slots__ == ()
    assert Ours.__module__ == __name__ and Ours.__qualname__ == "Ours"
    assert Ours.title.__doc__ == Theirs.title.__doc__
    assert Empty() == () and Empty._fields == ()


def test_wrong_values_are_refused_as_typing_refuses_them() -> None:
    for call in (
        lambda kind: kind(),
        lambda kind: kind("a", True, (), 4),
        lambda kind: kind("a", colour="red"),
        lambda kind: kind("a", title="b"),
        lambda kind: kind._make(["a"]),
    ):
        with pytest.raises(TypeError):
            call(Theirs)
        with pytest.raises(TypeError):
            call(Ours)
    with pytest.raises(ValueError, match="colour"):
        Ours("a")._replace(colour="red")
    with pytest.raises(AttributeError):
        Ours("a").title = "b"  # type: ignore[misc]


def test_declarations_typing_refuses_are_refused() -> None:
    with pytest.raises(TypeError, match="cannot follow default"):

        class Late(NamedTuple):
            done: bool = False
            title: str  # type: ignore[misc]

    with pytest.raises(AttributeError, match="_make"):

        class Mine(NamedTuple):
            title: str

            def _make(self) -> None:  # type: ignore[misc]
                pass

    with pytest.raises(ValueError, match="_hidden"):

        class Hidden(NamedTuple):
            _hidden: int  # type: ignore[misc]


def test_the_window_s_named_tuples_are_these() -> None:
    """Every named tuple the window's state and views declare is made here: one made
    by typing's would cost its start a compile again."""
    found = []
    for package in (nib_desktop.state, ui):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            named = vars(importlib.import_module(module.name)).values()
            found += [
                kind
                for kind in named
                if isinstance(kind, type) and issubclass(kind, tuple) and hasattr(kind, "_fields")
                if kind.__module__ == module.name
            ]
    assert len(found) > 80
    for kind in found:
        assert kind.__new__.__globals__["__name__"] == tuples.__name__, kind
