"""The contract's plain twins (what the window decodes with): current with the models,
the same JSON in and out for every model, and a clear error for what is not the contract."""

from __future__ import annotations

import subprocess
import sys
import types
import typing
from typing import Annotated, Any, Literal

import pytest

from host.protocol import methods as rpc, models as m, plain_methods, plain_models as p
from host.protocol.plain import DecodeError, Plain
from host.protocol.plain_gen import (
    METHODS_FILE,
    MODELS_FILE,
    _ordered,
    formatted,
    methods_source,
    models_source,
)
from tests.helpers.compiles import counted_sources

WIRE = [v for v in vars(m).values() if isinstance(v, type) and issubclass(v, m.Wire)]
WIRE = [cls for cls in WIRE if cls is not m.Wire]


def _as_told(value: Any) -> Any:
    """JSON as the host tells it: AuthInfo's own serializer leaves out a null `terminal`
    (section 17), which a twin, never sending one, writes as null."""
    if isinstance(value, list):
        return [_as_told(item) for item in value]
    if isinstance(value, dict):
        return {k: _as_told(v) for k, v in value.items() if not (k == "terminal" and v is None)}
    return value


def test_the_plain_files_are_what_the_models_give() -> None:
    assert MODELS_FILE.read_text() == formatted(models_source(), MODELS_FILE)
    assert METHODS_FILE.read_text() == formatted(methods_source(), METHODS_FILE)


def test_the_plain_table_is_the_contracts() -> None:
    assert plain_methods.METHODS.keys() == rpc.METHODS.keys()
    assert plain_methods.NOTIFICATIONS.keys() == rpc.NOTIFICATIONS.keys()
    for name, method in rpc.METHODS.items():
        twin = plain_methods.METHODS[name]
        assert twin.params.__name__ == method.params.__name__
        assert twin.result.__name__ == method.result.__name__


def _sample(hint: Any, variant: int) -> Any:
    """A value of type `hint`, the constraints aside: variant 0 fills every optional,
    variant 1 leaves them null and takes other Literal values."""
    if typing.get_origin(hint) is Annotated:
        return _sample(typing.get_args(hint)[0], variant)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is type(None):
        return None
    if isinstance(hint, type) and issubclass(hint, m.Wire):
        return _made(hint, variant)
    simple: dict[Any, Any] = {str: "text é", int: 7, float: 1.5, bool: True}
    if hint in simple:
        return simple[hint]
    if origin is Literal:
        return args[variant % len(args)]
    if origin in (types.UnionType, typing.Union):
        if variant and type(None) in args:
            return None
        return _sample(next(a for a in args if a is not type(None)), variant)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (_sample(args[0], variant), _sample(args[0], 1 - variant))
        return tuple(_sample(arg, variant) for arg in args)
    if origin is dict:
        return {"key": _sample(args[1], variant)}
    raise AssertionError(f"no sample for {hint!r}")


def _made(cls: type[m.Wire], variant: int) -> m.Wire:
    values = {name: _sample(info.annotation, variant) for name, info in cls.model_fields.items()}
    return cls.model_construct(**values)


@pytest.mark.parametrize("cls", WIRE, ids=lambda cls: cls.__name__)
def test_every_model_decodes_and_encodes_as_its_twin(cls: type[m.Wire]) -> None:
    twin: type[Plain] = getattr(p, cls.__name__)
    for variant in (0, 1):
        wire = _made(cls, variant).to_wire()
        decoded = twin.from_wire(wire)
        assert _as_told(decoded.to_wire()) == wire
        assert twin.from_wire(decoded.to_wire()) == decoded
        # what has a default may be left out, and comes back as the model's default
        required = {k: v for k, v in wire.items() if cls.model_fields[_name(cls, k)].is_required()}
        defaulted = cls.model_construct(
            **{_name(cls, k): getattr(_made(cls, variant), _name(cls, k)) for k in required}
        )
        assert _as_told(twin.from_wire(required).to_wire()) == defaulted.to_wire()


def _name(cls: type[m.Wire], key: str) -> str:
    return next(name for name, info in cls.model_fields.items() if (info.alias or name) == key)


def test_a_twin_is_built_by_its_fields_frozen_and_equal_by_value() -> None:
    item = p.TodoItem(content="Write the tests", status="pending")
    assert item == p.TodoItem(content="Write the tests", status="pending", active_form=None)
    assert hash(item) == hash(p.TodoItem(content="Write the tests", status="pending"))
    assert item != p.TodoItem(content="Write the tests", status="completed")
    assert repr(item) == "TodoItem(content='Write the tests', status='pending', active_form=None)"
    with pytest.raises(AttributeError, match="frozen"):
        item.content = "x"  # type: ignore[misc]
    with pytest.raises(TypeError, match="needs status"):
        p.TodoItem(content="x")  # type: ignore[call-arg]
    assert p.Turn.from_wire(
        {
            "id": "t",
            "sessionId": "s",
            "state": "failed",
            "error": m.HOST_RESTARTED,
            "startedAt": "now",
            "finishedAt": None,
        }
    ).interrupted


def test_what_is_not_the_contract_is_refused_where_it_is() -> None:
    good = {
        "sessionId": "s",
        "revision": 1,
        "updatedAt": None,
        "items": [{"content": "x", "status": "pending", "activeForm": None}],
    }
    assert p.TodoSnapshot.from_wire(good).items[0].content == "x"
    cases = [
        ({**good, "extra": 1}, ("extra",), "not a field"),
        ({k: v for k, v in good.items() if k != "revision"}, ("revision",), "missing"),
        ({**good, "revision": "1"}, ("revision",), "an integer"),
        ({**good, "revision": True}, ("revision",), "an integer"),
        ({**good, "items": [{"content": "x", "status": "done"}]}, ("items", 0, "status"), "one of"),
        ({**good, "items": {}}, ("items",), "an array"),
        ([], (), "an object"),
    ]
    for data, loc, said in cases:
        with pytest.raises(DecodeError, match=said) as caught:
            p.TodoSnapshot.from_wire(data)
        assert caught.value.loc == loc
    ready = {"ready": True, "socket": "s", "pid": 1, "protocolVersion": 1, "schemaVersion": 1}
    assert p.ReadyLine.from_wire(ready).ready is True
    with pytest.raises(DecodeError, match="one of True"):  # 1 is not the Literal's True
        p.ReadyLine.from_wire({**ready, "ready": 1})
    file = {"type": "file", "path": "a.txt"}
    params = {"sessionId": "s", "text": "hi", "attachments": [file, {"type": "sound"}]}
    with pytest.raises(DecodeError, match="'file', 'image'") as caught:
        p.StartTurnParams.from_wire(params)
    assert caught.value.loc == ("attachments", 1, "type")
    told = p.StartTurnParams.from_wire({**params, "attachments": [file]})
    assert told.attachments == (p.FileAttachment(type="file", path="a.txt"),)


def test_the_plain_models_import_no_pydantic() -> None:
    script = (
        "import sys; import host.protocol.plain_methods, host.protocol.jsonrpc;"
        " print([n for n in ('pydantic', 'pydantic_core') if n in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_a_models_first_decode_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generated models' annotations are objects (each class after those its fields
    name): reading a class's fields at its first decode compiles no string, as
    `typing.get_type_hints` did for every annotation, about 0.15 ms a class."""
    classes = [
        kind
        for kind in vars(p).values()
        if isinstance(kind, type) and issubclass(kind, Plain) and kind is not Plain
    ]
    for kind in classes:
        monkeypatch.setattr(kind, "_fields", None)  # read again below, as at a first decode
    compiled = counted_sources(monkeypatch, "compile")
    fields = {kind: kind._spec() for kind in classes}
    assert compiled == []
    assert len(classes) > 100 and sum(len(spec) for spec in fields.values()) > 300


class _Said(Plain):  # annotations as strings (this module's `from __future__`)
    name: str
    count: int = 0


def test_a_plain_model_with_string_annotations_is_read_as_well() -> None:
    said = _Said.from_wire({"name": "a", "count": 2})
    assert (said.name, said.count) == ("a", 2)
    with pytest.raises(DecodeError, match="must be an integer"):
        _Said.from_wire({"name": "a", "count": "2"})


def test_models_that_name_each_other_cannot_be_plain() -> None:
    """A plain class comes after the classes its fields name, its annotations objects:
    models that name each other have no such order, and the generator says so."""

    class Ping(m.Wire):
        pong: Pong | None = None

    class Pong(m.Wire):
        ping: Ping | None = None

    Ping.model_rebuild()
    with pytest.raises(TypeError, match="Ping -> Pong -> Ping"):
        _ordered([Ping, Pong])
