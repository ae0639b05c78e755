"""The event classes (pbem/events.py): plain named tuples, built by pbem/tuples.py.
The contract the engine, the reports and the JSON files rely on."""

from __future__ import annotations

import inspect

import pytest

from pbem import events as ev
from pbem.cards import Card


@pytest.mark.parametrize("kind", sorted(ev.EVENT_TYPES))
def test_each_event_is_a_tuple_of_the_fields_its_class_annotates(kind):
    cls = ev.EVENT_TYPES[kind]
    fields_class = cls.__mro__[1]
    annotated = tuple(inspect.get_annotations(fields_class))
    assert cls._fields == annotated and annotated
    values = tuple(f"value of {name}" for name in annotated)
    event = cls(*values)
    assert isinstance(event, tuple) and tuple(event) == values
    assert [getattr(event, name) for name in annotated] == list(values)
    assert cls(**dict(zip(annotated, values, strict=True))) == event  # by keyword too
    assert event.kind == kind
    assert not hasattr(event, "__dict__")  # a plain tuple: no per-event dictionary


def test_a_wrong_number_of_fields_or_an_unknown_field_is_refused():
    with pytest.raises(TypeError, match="misses the field 'other'"):
        ev.SpySaw(1, 0)
    with pytest.raises(TypeError, match="takes 4 fields, not 5"):
        ev.SpySaw(1, 0, 1, Card.KING, Card.KING)
    with pytest.raises(TypeError, match="misses the field 'card'"):
        ev.SpySaw(1, 0, other=1)
    with pytest.raises(TypeError, match="no field 'colour'"):
        ev.SpySaw(1, 0, 1, Card.KING, colour="red")


def test_an_event_reads_as_its_fields_and_round_trips_through_json():
    spy = ev.SpySaw(1, 0, 2, Card.PRINCESS)
    assert repr(spy) == "SpySaw(hand=1, seat=0, other=2, card=<Card.PRINCESS: 8>)"
    assert spy.audience == (0,) and ev.Protected(1, 2).audience is None
    assert ev.from_dict(ev.to_dict(spy)) == spy
    assert ev.to_dict(spy) == {"kind": "spy_saw", "hand": 1, "seat": 0, "other": 2, "card": "Princess"}
