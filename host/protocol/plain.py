"""The contract's types for a process that does not import pydantic: the window.

`plain_models` declares every wire model of `models` again as a `Plain` class: the same
name, fields, types and defaults, and the same camelCase names on the wire. It is written
by `plain_gen` from the models themselves (a test checks it is current), so the contract
is still written once. A `Plain` is frozen, compares and hashes by its fields, decodes a
host's JSON with `from_wire` and encodes itself with `to_wire`, as a model does.

What it checks is the shape: every field present or defaulted, no unknown one, each value
of its type (a string, an integer, one of a Literal's values, a nested model, ...). The
limits a model checks besides (lengths, patterns, a field's own validator) are the host's
to check: a request the window makes is checked there, and refused in words, as any
client's is.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Any, ClassVar, Literal, TypeVar, dataclass_transform

Decoder = Callable[[Any, tuple[str | int, ...]], Any]
P = TypeVar("P", bound="Plain")


class DecodeError(ValueError):
    """A value that is not the contract's: where (`loc`, wire names) and why."""

    def __init__(self, loc: tuple[str | int, ...], message: str) -> None:
        where = ".".join(str(part) for part in loc) or "the value"
        super().__init__(f"{where}: {message}")
        self.loc = loc
        self.message = message

    def details(self) -> list[dict[str, Any]]:
        """As the host's validation errors are listed (endpoint.validation_details)."""
        return [
            {"loc": [str(part)[:100] for part in self.loc], "type": "plain", "msg": self.message}
        ]


def camel(name: str) -> str:
    """A field's name on the wire (pydantic's `to_camel`): session_id is sessionId."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


class _Field:
    __slots__ = ("decode", "default", "key", "name", "required")

    def __init__(self, name: str, key: str, default: Any, required: bool, decode: Decoder) -> None:
        self.name, self.key, self.default, self.required = name, key, default, required
        self.decode = decode


@dataclass_transform(kw_only_default=True, frozen_default=True)
class Plain:
    """One wire model, without pydantic: built by its fields' names, frozen."""

    ALIASES: ClassVar[dict[str, str]] = {}  # a field whose wire name is not its camelCase
    _fields: ClassVar[tuple[_Field, ...] | None] = None

    def __init__(self, **values: Any) -> None:
        for field in type(self)._spec():
            if field.name in values:
                value = values.pop(field.name)
            elif not field.required:
                value = _fresh(field.default)
            else:
                raise TypeError(f"{type(self).__name__} needs {field.name}")
            object.__setattr__(self, field.name, value)
        if values:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(values)}")

    @classmethod
    def _spec(cls) -> tuple[_Field, ...]:
        fields = cls.__dict__.get("_fields")
        if fields is None:
            fields = _build(cls)
            cls._fields = fields
        return fields

    @classmethod
    def from_wire(cls: type[P], data: Any, loc: tuple[str | int, ...] = ()) -> P:
        """The model from its JSON object (wire names); DecodeError if it is not one."""
        if not isinstance(data, dict):
            raise DecodeError(loc, f"must be an object ({cls.__name__})")
        made = object.__new__(cls)
        seen = 0
        for field in cls._spec():
            if field.key in data:
                value = field.decode(data[field.key], (*loc, field.key))
                seen += 1
            elif not field.required:
                value = _fresh(field.default)
            else:
                raise DecodeError((*loc, field.key), "is missing")
            object.__setattr__(made, field.name, value)
        if seen != len(data):
            known = {field.key for field in cls._spec()}
            unknown = next(key for key in data if key not in known)
            raise DecodeError((*loc, str(unknown)[:100]), "is not a field of the contract")
        return made

    def to_wire(self) -> dict[str, Any]:
        """The model as JSON (wire names, every field), as a model's `to_wire`."""
        return {field.key: _encode(getattr(self, field.name)) for field in type(self)._spec()}

    def field_values(self) -> dict[str, Any]:
        """The fields by name, as they are (a model's `dict(model)`)."""
        return {field.name: getattr(self, field.name) for field in type(self)._spec()}

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, field.name) for field in type(self)._spec())

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Plain)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in type(self)._spec())
        return f"{type(self).__name__}({shown})"


def _fresh(default: Any) -> Any:
    return dict(default) if isinstance(default, dict) else default


def _encode(value: Any) -> Any:
    if isinstance(value, Plain):
        return value.to_wire()
    if isinstance(value, tuple | list):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {key: _encode(item) for key, item in value.items()}
    return value


def _build(cls: type[Plain]) -> tuple[_Field, ...]:
    hints = typing.get_type_hints(cls)  # each class's annotations in its own module
    fields = []
    for name, hint in hints.items():
        if typing.get_origin(hint) is ClassVar or name.startswith("_") or name == "ALIASES":
            continue
        required = name not in cls.__dict__
        default = None if required else cls.__dict__[name]
        key = cls.ALIASES.get(name, camel(name))
        fields.append(_Field(name, key, default, required, decoder(hint)))
    return tuple(fields)


# ---------------------------------------------------------------------------------------
# decoders, one per annotation, made once per field


def decoder(hint: Any) -> Decoder:
    """A function that checks (and for models, builds) one value of type `hint`."""
    if hint is Any:
        return lambda value, loc: value
    if hint is type(None) or hint is None:
        return _exactly(None, "null")
    if isinstance(hint, type) and issubclass(hint, Plain):
        return hint.from_wire
    if hint in _SIMPLE:
        return _SIMPLE[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        return _one_of(args)
    if origin is types.UnionType or origin is typing.Union:
        return _union(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _items(decoder(args[0]))
        return _pair(tuple(decoder(arg) for arg in args))
    if origin is dict:
        return _mapping(decoder(args[0]), decoder(args[1]))
    raise TypeError(f"no decoder for {hint!r}")


def _exactly(expected: Any, said: str) -> Decoder:
    def check(value: Any, loc: tuple[str | int, ...]) -> Any:
        if value is not expected:
            raise DecodeError(loc, f"must be {said}")
        return value

    return check


def _typed(kind: type, said: str) -> Decoder:
    def check(value: Any, loc: tuple[str | int, ...]) -> Any:
        if type(value) is not kind:
            raise DecodeError(loc, f"must be {said}")
        return value

    return check


def _number(value: Any, loc: tuple[str | int, ...]) -> Any:
    if type(value) is float:
        return value
    if type(value) is int:
        return float(value)
    raise DecodeError(loc, "must be a number")


_SIMPLE: dict[Any, Decoder] = {
    str: _typed(str, "a string"),
    int: _typed(int, "an integer"),
    bool: _typed(bool, "true or false"),
    float: _number,
}


def _one_of(values: tuple[Any, ...]) -> Decoder:
    allowed = frozenset(values)
    said = ", ".join(repr(value) for value in values)

    def check(value: Any, loc: tuple[str | int, ...]) -> Any:
        if type(value) not in (str, int, bool) or value not in allowed:
            raise DecodeError(loc, f"must be one of {said}")
        return value

    return check


def _union(members: tuple[Any, ...]) -> Decoder:
    """Null or the other; a model by its Literal tag (an attachment's "type"); else the
    first member that takes the value."""
    if type(None) in members and len(members) == 2:
        other = decoder(next(member for member in members if member is not type(None)))
        return lambda value, loc: None if value is None else other(value, loc)
    models = [m for m in members if isinstance(m, type) and issubclass(m, Plain)]
    tagged = _tags(models) if len(models) == len(members) else None
    if tagged is not None:
        key, by_tag = tagged

        def pick(value: Any, loc: tuple[str | int, ...]) -> Any:
            chosen = by_tag.get(value.get(key)) if isinstance(value, dict) else None
            if chosen is None:
                raise DecodeError((*loc, key), f"must be one of {', '.join(map(repr, by_tag))}")
            return chosen.from_wire(value, loc)

        return pick
    each = [decoder(member) for member in members]

    def first(value: Any, loc: tuple[str | int, ...]) -> Any:
        for decode in each:
            try:
                return decode(value, loc)
            except DecodeError:
                continue
        raise DecodeError(loc, "is none of the types it may be")

    return first


def _tags(models: list[type[Plain]]) -> tuple[str, dict[Any, type[Plain]]] | None:
    """The wire key and value that tell the models apart, if one Literal field does."""
    first = typing.get_type_hints(models[0])
    for name in first:
        by_tag: dict[Any, type[Plain]] = {}
        for model in models:
            hints = typing.get_type_hints(model)
            shown = hints.get(name)
            if typing.get_origin(shown) is not Literal or len(typing.get_args(shown)) != 1:
                break
            by_tag[typing.get_args(shown)[0]] = model
        else:
            return models[0].ALIASES.get(name, camel(name)), by_tag
    return None


def _items(each: Decoder) -> Decoder:
    def check(value: Any, loc: tuple[str | int, ...]) -> Any:
        if not isinstance(value, list):
            raise DecodeError(loc, "must be an array")
        return tuple([each(item, (*loc, index)) for index, item in enumerate(value)])

    return check


def _pair(each: tuple[Decoder, ...]) -> Decoder:
    def check(value: Any, loc: tuple[str | int, ...]) -> Any:
        if not isinstance(value, list) or len(value) != len(each):
            raise DecodeError(loc, f"must be an array of {len(each)}")
        return tuple(
            decode(item, (*loc, i))
            for i, (decode, item) in enumerate(zip(each, value, strict=True))
        )

    return check


def _mapping(keys: Decoder, values: Decoder) -> Decoder:
    def check(value: Any, loc: tuple[str | int, ...]) -> Any:
        if not isinstance(value, dict):
            raise DecodeError(loc, "must be an object")
        return {keys(k, loc): values(v, (*loc, k)) for k, v in value.items()}

    return check
