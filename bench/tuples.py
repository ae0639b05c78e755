"""What pbem.tuples' NamedTuple builder buys, against the two plain ways of making the same classes.

pbem's value types (the engine's orders, the events, the reports' rows) are
``pbem.tuples.NamedTuple`` classes. Three ways of building them are compared,
each in a fresh interpreter, where the variant is put in place before any other
pbem module is imported (so that every class of pbem is built by it):

* ``builder``: pbem.tuples as it is (fields read by ``collections._tuplegetter``, in C);
* ``property``: the same builder with ``property(operator.itemgetter(i))`` fields,
  its fallback on another Python than CPython (what the private name saves);
* ``typing``: plain ``typing.NamedTuple`` (what the builder saves at all).

Measured in CPU time of the process (``time.process_time``: the machine's other
work counts less than on a wall clock), the best of several runs of each, the
variants taking turns:

* start-up: the time to import every pbem module that declares such classes
  (``pbem.cli`` and the modules its commands import), which builds them all;
* the classes alone: pbem/events.py (56 classes) executed again, its imports done;
* the engine: full 4-player hands per second, as bench/engine.py plays them;
* the orders layer: making an ``Order`` by keyword and reading its fields by name;
* the reports: reading an event's field by name (the loop's own cost included).

    python bench/tuples.py [--rounds N] [--hands N]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("builder", "property", "typing")

#: Every module of pbem that declares a NamedTuple, and the ones the commands load.
MODULES = (
    "pbem.cli",
    "pbem.campaign",
    "pbem.inbox",
    "pbem.outbox",
    "pbem.proxy",
    "pbem.audit",
    "pbem.site.build",
)


def _install(variant: str) -> None:
    """Put the variant in place before pbem's other modules build their classes."""
    sys.path.insert(0, str(ROOT))
    import pbem.tuples

    if variant == "property":
        from operator import itemgetter

        def getter(index: int, doc: str) -> property:
            return property(itemgetter(index), doc=doc)

        pbem.tuples._tuplegetter = getter  # the name the builder reads
    elif variant == "typing":
        import typing

        pbem.tuples.NamedTuple = typing.NamedTuple  # the class mypy sees anyway


def _child(variant: str, hands: int) -> dict[str, float]:
    """One measurement of one variant, in this (fresh) interpreter."""
    start = time.process_time()
    _install(variant)
    import importlib

    for name in MODULES:
        importlib.import_module(name)
    imported = time.process_time() - start

    import random

    sys.path.insert(0, str(ROOT / "bench"))
    import engine as engine_bench  # bench/engine.py

    from pbem.engine import Order

    rng = random.Random(1)
    decks = engine_bench.shuffled_decks(hands, rng, 4)
    start = time.process_time()
    engine_bench.play_hands(decks, 4, rng, "mixed", True)
    per_second = hands / (time.process_time() - start)

    # The classes alone: pbem/events.py (28 events on 28 field tuples) executed afresh,
    # its imports already done: what each command pays for its modules' classes.
    source = (ROOT / "pbem" / "events.py").read_text(encoding="utf-8")
    code = compile(source, "pbem/events.py", "exec")
    built = []
    for _ in range(20):
        start = time.process_time()
        exec(code, {"__name__": "pbem.events", "__package__": "pbem"})
        built.append(time.process_time() - start)

    n = 200_000
    start = time.process_time()
    for i in range(n):
        order = Order(card=i, target=2)
        order.card  # noqa: B018 - the read is what is measured
        order.target  # noqa: B018
        order.guess  # noqa: B018
    orders = (time.process_time() - start) / n

    from pbem import events as ev

    played = ev.Played(1, 2, None, 3, 3, None, False, False, False, False)
    start = time.process_time()
    for _ in range(n):
        played.seat  # noqa: B018
        played.target  # noqa: B018
        played.recipient  # noqa: B018
        played.nmr  # noqa: B018
        played.hand  # noqa: B018
    reads = (time.process_time() - start) / (5 * n)
    return {
        "import_ms": imported * 1000,
        "events_ms": min(built) * 1000,
        "hands_per_s": per_second,
        "order_us": orders * 1e6,
        "read_ns": reads * 1e9,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="runs of each variant, taking turns")
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--child", choices=VARIANTS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.child, args.hands)))
        return
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.rounds):
        for variant in VARIANTS:
            out = subprocess.run(
                [sys.executable, "-B", __file__, "--child", variant, "--hands", str(args.hands)],
                capture_output=True,
                text=True,
                check=True,
            )
            got = json.loads(out.stdout)
            mine = best.setdefault(variant, dict(got))
            mine["import_ms"] = min(mine["import_ms"], got["import_ms"])
            mine["events_ms"] = min(mine["events_ms"], got["events_ms"])
            mine["hands_per_s"] = max(mine["hands_per_s"], got["hands_per_s"])
            mine["order_us"] = min(mine["order_us"], got["order_us"])
            mine["read_ns"] = min(mine["read_ns"], got["read_ns"])
    for variant in VARIANTS:
        b = best[variant]
        print(
            f"{variant:>9}: import {b['import_ms']:6.1f} ms, events.py's classes {b['events_ms']:5.2f} ms, "
            f"engine {b['hands_per_s']:8,.0f} 4-player hands/s, "
            f"Order by keyword + 3 reads {b['order_us']:.3f} µs, "
            f"an event's field read {b['read_ns']:.0f} ns (loop included)"
        )


if __name__ == "__main__":
    main()
