"""How quick this machine's Python is in these minutes: one measure that the benches print
beside their figures.

The shared virtual machines these benches run on change speed from one minute to the
next (the same engine code gave 15,500 and 26,500 hands/s twenty minutes apart): a figure
read beside this one says whether a miss is the code's or the minute's.
"""

from __future__ import annotations

import time

ADDITIONS = 2_000_000


def loop_seconds() -> float:
    """Seconds for a Python loop of two million additions (about 0.1 s when the machine is quick)."""
    start = time.perf_counter()
    total = 0
    for n in range(ADDITIONS):
        total += n
    return time.perf_counter() - start


def loop_line() -> str:
    return f"a loop of 2 million additions in {loop_seconds():.3f} s"
