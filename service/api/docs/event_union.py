"""The union of events in the OpenAPI document: `Event`, a `KnownEvent` (told apart
by a `discriminator` on `type`) or an `UnknownEvent`, a type a newer service may
add, so a client generated from the document reads a page holding one (and skips
it). Every list of events (`EventsPage`, `FeedItem`) points at it."""

from __future__ import annotations

from typing import get_args

from litestar.openapi.spec import OpenAPI, OpenAPIType, Reference, Schema

from service.api.docs.plain_schema import REF_TEMPLATE, Verbatim
from service.projections.event_views import EventView

_EVENT = "Event"
_KNOWN_EVENT = "KnownEvent"
_UNKNOWN_EVENT = "UnknownEvent"


def name_event_union(document: OpenAPI) -> None:
    """Name the union of events `Event`, with a discriminator and room for new types,
    and point every list of events at it."""
    registry = document.components.schemas
    assert registry is not None
    views = get_args(EventView)
    tags = {view.__struct_config__.tag: view.__name__ for view in views}
    known = sorted(str(tag) for tag in tags)
    registry[_UNKNOWN_EVENT] = Verbatim(
        verbatim={
            "title": _UNKNOWN_EVENT,
            "description": (
                "An event of a type this document does not list. A newer service may add "
                "event types (a client generated from this document still reads a page "
                "holding one): skip it, and read on. The types `KnownEvent` lists never "
                "come in this shape."
            ),
            "type": "object",
            "properties": {
                "type": {"type": "string", "not": {"enum": known}},
                "version": {"type": "integer"},
                "at": {"type": "string", "format": "date-time"},
                "seat": {"type": "integer"},
                "chain": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            },
            "required": ["type", "version", "at", "chain"],
        }
    )
    registry[_KNOWN_EVENT] = Verbatim(
        verbatim={
            "title": _KNOWN_EVENT,
            "description": "An event of a type this document lists, told apart by `type`.",
            "oneOf": [{"$ref": REF_TEMPLATE.format(name=view.__name__)} for view in views],
            "discriminator": {
                "propertyName": "type",
                "mapping": {str(tag): REF_TEMPLATE.format(name=name) for tag, name in tags.items()},
            },
        }
    )
    registry[_EVENT] = Verbatim(
        verbatim={
            "title": _EVENT,
            "description": (
                "One event of a game: every event has `version` (its place in the game), "
                "`type`, `at`, `chain` (the live chain head after it: docs/fairness.md) "
                "and, when a seat caused it, `seat`. Either one of the types "
                "this document lists (`KnownEvent`), or one a newer service added "
                "(`UnknownEvent`: skip it)."
            ),
            "oneOf": [
                {"$ref": REF_TEMPLATE.format(name=_KNOWN_EVENT)},
                {"$ref": REF_TEMPLATE.format(name=_UNKNOWN_EVENT)},
            ],
        }
    )
    event = Reference(ref=REF_TEMPLATE.format(name=_EVENT))
    for name, field_name in (("EventsPage", "events"), ("FeedItem", "event")):
        schema = registry[name]
        assert isinstance(schema, Schema)
        assert schema.properties is not None
        listed = schema.properties[field_name]
        if isinstance(listed, Schema) and listed.type == OpenAPIType.ARRAY:
            listed.items = event
        else:
            schema.properties[field_name] = event
