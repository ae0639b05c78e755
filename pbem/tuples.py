"""``NamedTuple`` for pbem's value types, built cheaply at run time.

For mypy this *is* ``typing.NamedTuple``. At run time it is a lighter builder
of the same kind of class: a tuple whose fields are read by name, with
defaults, ``_fields``, ``_replace`` and ``_asdict``. The reason is start-up
time, which every command pays: ``typing.NamedTuple`` compiles each field's
annotation (they are strings here, ``from __future__ import annotations``) and
``collections.namedtuple`` execs a constructor for every class, about 100 µs a
class; pbem declares some forty (the events alone are 28), and that was 4 ms of
each `pbem resolve`.

    class Order(NamedTuple):
        card: Card
        target: int | None = None

The body's annotations are the fields, in order; a value after one is its
default. A subclass that annotates nothing adds no field (the events add
``kind`` and ``audience`` this way). Methods and properties are kept.

What it buys, measured by ``python bench/tuples.py`` (CPU time, the best of
three runs in fresh interpreters; four such measurements on 2026-12-01, on a
shared and busy 2-core machine, the ranges below), against the same
classes built by plain ``typing.NamedTuple`` and by this builder with
``property(itemgetter(i))`` fields instead of CPython's private
``collections._tuplegetter``:

* building the 56 classes of pbem/events.py: 0.8-0.9 ms here, 4.7-5.0 ms with
  ``typing.NamedTuple`` (about 4 ms of every command, for the events alone);
* reading a field by name: 21-22 ns with ``_tuplegetter`` (the reader
  ``collections.namedtuple`` uses too, so ``typing.NamedTuple`` reads as fast),
  33-45 ns with a property: 1.5 to 2 times slower where the reports read every event;
* the engine (bench/engine.py's hands) builds its events with ``tuple.__new__``
  and unpacks its orders: the three variants play within the noise of one another
  (14,000 to 18,500 hands/s each, busy machine);
* what it costs: an ``Order`` made *by keyword* is slower here (2.8-3.3 µs with
  three reads, against 0.6-0.9 µs for ``typing.NamedTuple``'s generated ``__new__``);
  positional calls, the engine's, take the quick road.

So the private name stays (with the property as its fallback elsewhere than
CPython), for the start-up time and the reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["NamedTuple"]

if TYPE_CHECKING:
    from typing import NamedTuple
else:
    try:  # collections.namedtuple's own field reader, in C: twice as fast as a property
        from collections import _tuplegetter
    except ImportError:  # another Python than CPython
        from operator import itemgetter

        def _tuplegetter(index, doc):
            return property(itemgetter(index), doc=doc)

    class _Builder(type):
        """Makes a class body's annotated names the fields of a tuple."""

        def __new__(mcls, name, bases, namespace):
            namespace.setdefault("__slots__", ())
            fields = tuple(namespace.get("__annotations__", ()))
            if fields:
                defaults = {field: namespace[field] for field in fields if field in namespace}
                namespace["_fields"] = fields
                namespace["_field_defaults"] = defaults
                # For each number of values given, the defaults that complete them (None: not enough).
                required = len(fields) - len(defaults)
                namespace["_pad"] = tuple(
                    tuple(defaults[f] for f in fields[n:]) if n >= required else None
                    for n in range(len(fields) + 1)
                )
                namespace["__match_args__"] = fields
                for i, field in enumerate(fields):
                    namespace[field] = _tuplegetter(i, f"field {i}: {field}")
            return super().__new__(mcls, name, bases, namespace)

    class NamedTuple(tuple, metaclass=_Builder):
        """The run-time base (see the module's docstring)."""

        _fields = ()  # each class with fields names its own
        _field_defaults: dict[str, Any] = {}
        _pad: tuple = ((),)

        def __new__(cls, *args, **kwargs):
            if not kwargs and len(args) < len(cls._pad):  # the engine's way: values in order, two lookups
                pad = cls._pad[len(args)]
                if pad is not None:
                    return tuple.__new__(cls, args + pad)
            fields = cls._fields
            if len(args) > len(fields):
                raise TypeError(f"{cls.__name__}() takes {len(fields)} fields, not {len(args)}")
            args = args + tuple(_missing(cls, name, kwargs) for name in fields[len(args) :])
            if kwargs:
                raise TypeError(f"{cls.__name__}() has no field {next(iter(kwargs))!r}")
            return tuple.__new__(cls, args)

        def __repr__(self) -> str:
            inside = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True))
            return f"{type(self).__name__}({inside})"

        def __getnewargs__(self) -> tuple:
            return tuple(self)  # copy and pickle call __new__ with the fields

        def _replace(self, **changes):
            values = [changes.pop(name, value) for name, value in zip(self._fields, self, strict=True)]
            if changes:
                raise TypeError(f"{type(self).__name__} has no field {next(iter(changes))!r}")
            return tuple.__new__(type(self), values)

        def _asdict(self) -> dict[str, Any]:
            return dict(zip(self._fields, self, strict=True))

    def _missing(cls, name: str, given: dict) -> Any:
        if name in given:
            return given.pop(name)
        if name in cls._field_defaults:
            return cls._field_defaults[name]
        raise TypeError(f"{cls.__name__}() misses the field {name!r}")
