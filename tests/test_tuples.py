"""pbem.tuples.NamedTuple: what typing.NamedTuple gives pbem's value types
(fields by name, defaults, _replace, _asdict, copies), built cheaply at run time."""

from __future__ import annotations

import copy
import pickle

import pytest

from pbem.engine import Order
from pbem.orders import CheckedOrder
from pbem.tuples import NamedTuple


class Point(NamedTuple):
    """A point."""

    x: int
    y: int = 0
    label: str | None = None

    def moved(self, dx: int) -> Point:
        return self._replace(x=self.x + dx)


class Tagged(Point):
    kind = "tagged"  # a class attribute, not a field


def test_fields_defaults_and_methods():
    p = Point(1)
    assert p == (1, 0, None) and p.x == 1 and p.y == 0 and p.label is None
    assert Point(1, label="a") == (1, 0, "a") == Point(x=1, label="a")
    assert Point._fields == ("x", "y", "label") and Point._field_defaults == {"y": 0, "label": None}
    assert p.moved(2) == Point(3) and isinstance(p.moved(2), Point)
    assert p._asdict() == {"x": 1, "y": 0, "label": None}
    assert repr(p) == "Point(x=1, y=0, label=None)" and Point.__doc__ == "A point."
    assert not hasattr(p, "__dict__")


def test_a_subclass_adds_attributes_but_no_field():
    t = Tagged(1, 2)
    assert t._fields == Point._fields and t.kind == "tagged" and t == (1, 2, None)
    assert repr(t) == "Tagged(x=1, y=2, label=None)"


def test_what_is_refused():
    with pytest.raises(TypeError, match="misses the field 'x'"):
        Point()
    with pytest.raises(TypeError, match="takes 3 fields, not 4"):
        Point(1, 2, "a", "b")
    with pytest.raises(TypeError, match="has no field 'z'"):
        Point(1, z=3)
    with pytest.raises(TypeError, match="has no field 'z'"):
        Point(1)._replace(z=3)
    with pytest.raises(AttributeError):
        Point(1).x = 2  # immutable, as a tuple


@pytest.mark.parametrize("value", [Point(1, 2, "a"), Tagged(3), Order(card=1, target=2)])
def test_copies_and_pickles_are_equal_and_of_the_same_class(value):
    for clone in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert clone == value and type(clone) is type(value)


def test_pbem_types_keep_their_defaults():
    assert Order(card=1) == (1, None, None, None, None)
    checked = CheckedOrder._field_defaults
    assert checked["reason"] == "" and checked["order"] is None
