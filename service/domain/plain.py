"""One conversion between typed values and their plain form, for every event.

The plain form is what JSON can hold and what stored events, audit exports
and the verifier carry: a `Card` is its code (`"10H"`), an enum its value, a
tuple a list; numbers, strings, booleans and None stay as they are. Each
event dataclass declares its fields' types once, and a `Codec` reads both
directions off those declarations, so an event is defined in one place only.

A field with a default is left out of the plain form while it holds that
default, and read back as the default when absent: the variants' fields
(`as`, a knock's result) cost classic events nothing, and classic events
stored before the variants existed read back unchanged. A field whose name
is a Python keyword is declared with a trailing underscore (`as_`) and
named without it in plain form.

A codec works out each field's conversion once, when it is made: a game is
rebuilt from its plain events on every load, and every event a command
records is converted twice (to store it, and back to apply it).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Collection, Mapping
from enum import Enum
from typing import Any, Generic, TypeVar, get_args, get_origin, get_type_hints

from service.domain.cards import Card

T = TypeVar("T")
Convert = Callable[[Any], Any]


class Codec(Generic[T]):
    """The plain form of the dataclass `cls`'s fields, but those in `apart` (which
    the caller keeps beside the plain data, as a stored event's seat)."""

    def __init__(self, cls: type[T], apart: Collection[str] = ()) -> None:
        self.cls = cls
        hints = get_type_hints(cls)
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        self.apart = tuple(field.name for field in fields if field.name in apart)
        self._fields = tuple(
            _Field(
                field.name,
                field.name.removesuffix("_"),
                field.default,
                *_conversions(hints[field.name]),
            )
            for field in fields
            if field.name not in apart
        )

    @property
    def names(self) -> tuple[str, ...]:
        """The fields in plain form, in declaration order."""
        return tuple(field.plain for field in self._fields)

    def to_plain(self, instance: T) -> dict[str, Any]:
        """The fields of `instance` in plain form (those kept apart, and those at
        their default, left out)."""
        plain: dict[str, Any] = {}
        for field in self._fields:
            value = getattr(instance, field.name)
            if field.default is not _NO_DEFAULT and value == field.default:
                continue
            plain[field.plain] = value if field.write is None else field.write(value)
        return plain

    def from_plain(self, data: Mapping[str, Any], **apart: Any) -> T:
        """An instance from its fields in plain form, read from `data` (which may hold
        other entries: a stored event's state holds its envelope too), and the
        fields kept apart, given as they are."""
        if set(apart) != set(self.apart):
            raise TypeError(f"{self.cls.__name__} needs {list(self.apart)} given apart")
        values: dict[str, Any] = {}
        try:
            for field in self._fields:
                if field.plain not in data and field.default is not _NO_DEFAULT:
                    continue  # the dataclass gives the default
                value = data[field.plain]
                values[field.name] = value if field.read is None else field.read(value)
        except KeyError as missing:
            raise TypeError(
                f"{self.cls.__name__} has the fields {list(self.names)}: {missing} is missing"
            ) from None
        return self.cls(**values, **apart)


_NO_DEFAULT: Any = dataclasses.MISSING


class _Field(typing.NamedTuple):
    name: str
    plain: str
    default: Any
    write: Convert | None
    read: Convert | None


def _conversions(hint: Any) -> tuple[Convert | None, Convert | None]:
    """How a value of the type `hint` goes to its plain form and back (None: as is)."""
    if hint in (int, str, bool):
        return None, None
    if hint is Card:
        return _code, Card.parse
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _value, hint
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        # A value made of fields (an Indian group, a show): its own plain form.
        codec = Codec(hint)
        return codec.to_plain, codec.from_plain
    origin = get_origin(hint)
    if origin is tuple:
        item, *rest = get_args(hint)
        if rest != [Ellipsis]:
            raise TypeError(f"only tuples of one type (tuple[X, ...]) have a plain form: {hint}")
        write_item, read_item = _conversions(item)
        if write_item is None or read_item is None:
            return list, tuple
        return (
            lambda values: [write_item(value) for value in values],
            lambda values: tuple(read_item(value) for value in values),
        )
    if origin in (types.UnionType, typing.Union):
        options = [option for option in get_args(hint) if option is not type(None)]
        if len(options) != 1:
            raise TypeError(f"only `X | None` unions have a plain form: {hint}")
        write, read = _conversions(options[0])
        if write is None or read is None:
            return None, None
        return (
            lambda value: None if value is None else write(value),
            lambda value: None if value is None else read(value),
        )
    raise TypeError(f"no plain form for {hint}")


def _code(card: Card) -> str:
    return card.code


def _value(member: Enum) -> Any:
    return member.value
