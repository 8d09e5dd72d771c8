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

import inspect
import types
import typing
from collections.abc import Callable
from typing import Any, ClassVar, Literal, TypeVar, dataclass_transform

Decoder = Callable[[Any], Any]  # one value checked (a model's built); DecodeError if not
P = TypeVar("P", bound="Plain")
SIMPLE = {str: "a string", int: "an integer", bool: "true or false"}


class DecodeError(ValueError):
    """A value that is not the contract's: where (`loc`, wire names) and why."""

    def __init__(self, loc: tuple[str | int, ...], message: str) -> None:
        super().__init__(loc, message)
        self.loc = loc
        self.message = message

    def __str__(self) -> str:
        where = ".".join(str(part) for part in self.loc) or "the value"
        return f"{where}: {self.message}"

    def within(self, part: str | int) -> DecodeError:
        """The same error, one level further out (a field's key, an item's index)."""
        return DecodeError((part, *self.loc), self.message)

    def details(self) -> list[dict[str, Any]]:
        """As the host's validation errors are listed (endpoint.validation_details)."""
        loc = [str(part)[:100] for part in self.loc]
        return [{"loc": loc, "type": "plain", "msg": self.message}]


def camel(name: str) -> str:
    """A field's name on the wire (pydantic's `to_camel`): session_id is sessionId."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


class _Field:
    """A field as decoding reads it: a string, an integer or true/false (or null where
    it may be) is checked in place; any other type through its decoder."""

    __slots__ = ("decode", "default", "key", "name", "nullable", "required", "said", "simple")

    def __init__(self, name: str, key: str, default: Any, required: bool, hint: Any) -> None:
        self.name, self.key, self.default, self.required = name, key, default, required
        members = typing.get_args(hint) if _is_union(hint) else (hint,)
        others = [member for member in members if member is not type(None)]
        self.nullable = len(others) < len(members)
        self.simple: type | None = others[0] if len(others) == 1 and others[0] in SIMPLE else None
        self.said = f"must be {SIMPLE[self.simple]}" if self.simple is not None else ""
        if self.nullable and self.simple is not None:
            self.said += " or null"
        self.decode = decoder(hint) if self.simple is None else None


@dataclass_transform(kw_only_default=True, frozen_default=True)
class Plain:
    """One wire model, without pydantic: built by its fields' names, frozen."""

    ALIASES: ClassVar[dict[str, str]] = {}  # a field whose wire name is not its camelCase
    _fields: ClassVar[tuple[_Field, ...] | None] = None

    def __init__(self, **values: Any) -> None:
        made = {}
        for field in type(self)._spec():
            if field.name in values:
                made[field.name] = values.pop(field.name)
            elif not field.required:
                made[field.name] = _fresh(field.default)
            else:
                raise TypeError(f"{type(self).__name__} needs {field.name}")
        if values:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(values)}")
        self.__dict__.update(made)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._fields = None  # its own, built at its first use (not its base's)

    @classmethod
    def _spec(cls) -> tuple[_Field, ...]:
        fields = cls._fields
        if fields is None:
            fields = cls._fields = _build(cls)
        return fields

    @classmethod
    def from_wire(cls: type[P], data: Any) -> P:
        """The model from its JSON object (wire names); DecodeError if it is not one.
        The hot path of every answer and notification the window reads: a field's value
        is checked in place where it can be, and a location is made only for an error."""
        if type(data) is not dict:
            raise DecodeError((), f"must be an object ({cls.__name__})")
        made: dict[str, Any] = {}
        seen = 0
        for field in cls._fields or cls._spec():
            key = field.key
            if key in data:
                value = data[key]
                seen += 1
                decode = field.decode
                if decode is None:  # a string, an integer or true/false: checked here
                    if type(value) is not field.simple and not (value is None and field.nullable):
                        raise DecodeError((key,), field.said)
                else:
                    try:
                        value = decode(value)
                    except DecodeError as exc:
                        raise exc.within(key) from None
            elif field.required:
                raise DecodeError((key,), "is missing")
            else:
                value = _fresh(field.default)
            made[field.name] = value
        if seen != len(data):
            known = {field.key for field in cls._spec()}
            unknown = next(key for key in data if key not in known)
            raise DecodeError((str(unknown)[:100],), "is not a field of the contract")
        plain = object.__new__(cls)
        plain.__dict__.update(made)
        return plain

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
    hints = _hints(cls)
    fields = []
    for name, hint in hints.items():
        if typing.get_origin(hint) is ClassVar or name.startswith("_") or name == "ALIASES":
            continue
        required = name not in cls.__dict__
        default = None if required else cls.__dict__[name]
        key = cls.ALIASES.get(name, camel(name))
        fields.append(_Field(name, key, default, required, hint))
    return tuple(fields)


def _hints(cls: type[Plain]) -> dict[str, Any]:
    """The annotations of `cls` and of its bases below `Plain`, bases first. The
    generated models' are objects, taken as they are; a string one is evaluated in its
    class's module. (`typing.get_type_hints` compiled every string, those of `Plain` too,
    at each class's first decode: about 0.15 ms a class.)"""
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        if klass is not Plain and issubclass(klass, Plain):
            hints |= inspect.get_annotations(klass, eval_str=True)
    return hints


# ---------------------------------------------------------------------------------------
# decoders, one per annotation, made once per field


def decoder(hint: Any) -> Decoder:
    """A function that checks (and for models, builds) one value of type `hint`."""
    if hint is Any:
        return lambda value: value
    if hint is type(None):
        return _exactly(None, "null")
    if isinstance(hint, type) and issubclass(hint, Plain):
        return hint.from_wire
    if hint in SIMPLE:
        return _typed(hint, SIMPLE[hint])
    if hint is float:
        return _number
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        return _one_of(args)
    if _is_union(hint):
        return _union(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _items(decoder(args[0]))
        return _pair(tuple(decoder(arg) for arg in args))
    if origin is dict:
        return _mapping(decoder(args[0]), decoder(args[1]))
    raise TypeError(f"no decoder for {hint!r}")


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (types.UnionType, typing.Union)


def _exactly(expected: Any, said: str) -> Decoder:
    def check(value: Any) -> Any:
        if value is not expected:
            raise DecodeError((), f"must be {said}")
        return value

    return check


def _typed(kind: type, said: str) -> Decoder:
    def check(value: Any) -> Any:
        if type(value) is not kind:
            raise DecodeError((), f"must be {said}")
        return value

    return check


def _number(value: Any) -> Any:
    if type(value) is float:
        return value
    if type(value) is int:
        return float(value)
    raise DecodeError((), "must be a number")


def _one_of(values: tuple[Any, ...]) -> Decoder:
    # by type and value: 1 is not the Literal's True, nor True its 1
    allowed = frozenset((type(value), value) for value in values)
    said = f"must be one of {', '.join(repr(value) for value in values)}"

    def check(value: Any) -> Any:
        if (type(value), value) not in allowed:
            raise DecodeError((), said)
        return value

    return check


def _union(members: tuple[Any, ...]) -> Decoder:
    """Null or the other; a model by its Literal tag (an attachment's "type"); else the
    first member that takes the value."""
    if type(None) in members and len(members) == 2:
        other = decoder(next(member for member in members if member is not type(None)))
        return lambda value: None if value is None else other(value)
    models = [m for m in members if isinstance(m, type) and issubclass(m, Plain)]
    tagged = _tags(models) if len(models) == len(members) else None
    if tagged is not None:
        key, by_tag = tagged
        said = f"must be one of {', '.join(map(repr, by_tag))}"

        def pick(value: Any) -> Any:
            chosen = by_tag.get(value.get(key)) if isinstance(value, dict) else None
            if chosen is None:
                raise DecodeError((key,), said)
            return chosen.from_wire(value)

        return pick
    each = [decoder(member) for member in members]

    def first(value: Any) -> Any:
        for decode in each:
            try:
                return decode(value)
            except DecodeError:
                continue
        raise DecodeError((), "is none of the types it may be")

    return first


def _tags(models: list[type[Plain]]) -> tuple[str, dict[Any, type[Plain]]] | None:
    """The wire key and value that tell the models apart, if one Literal field does."""
    first = _hints(models[0])
    for name in first:
        by_tag: dict[Any, type[Plain]] = {}
        for model in models:
            shown = _hints(model).get(name)
            if typing.get_origin(shown) is not Literal or len(typing.get_args(shown)) != 1:
                break
            by_tag[typing.get_args(shown)[0]] = model
        else:
            return models[0].ALIASES.get(name, camel(name)), by_tag
    return None


def _items(each: Decoder) -> Decoder:
    def check(value: Any) -> Any:
        if type(value) is not list:
            raise DecodeError((), "must be an array")
        try:
            return tuple([each(item) for item in value])
        except DecodeError as exc:  # found again, to say which item
            for index, item in enumerate(value):
                try:
                    each(item)
                except DecodeError as found:
                    raise found.within(index) from None
            raise exc from None

    return check


def _pair(each: tuple[Decoder, ...]) -> Decoder:
    def check(value: Any) -> Any:
        if type(value) is not list or len(value) != len(each):
            raise DecodeError((), f"must be an array of {len(each)}")
        made = []
        for index, (decode, item) in enumerate(zip(each, value, strict=True)):
            try:
                made.append(decode(item))
            except DecodeError as exc:
                raise exc.within(index) from None
        return tuple(made)

    return check


def _mapping(keys: Decoder, values: Decoder) -> Decoder:
    def check(value: Any) -> Any:
        if type(value) is not dict:
            raise DecodeError((), "must be an object")
        made = {}
        for key, item in value.items():
            try:
                made[keys(key)] = values(item)
            except DecodeError as exc:
                raise exc.within(key) from None
        return made

    return check
