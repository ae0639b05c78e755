"""How quick this machine's Python is in these minutes: one measure that the benches print
beside their figures.

The shared virtual machines these benches run on change speed from one minute to the
next (the same engine code gave 15,556 and 26,957 hands/s thirteen minutes apart): a figure
read beside this one hints whether a miss is the code's or the minute's (a hint only:
the loop does not slow down with everything that slows the engine).
"""

from __future__ import annotations

import time

ADDITIONS = 2_000_000


def loop_seconds() -> float:
    """Seconds for a Python loop of two million additions (about 0.07 s in a quick minute)."""
    start = time.perf_counter()
    total = 0
    for n in range(ADDITIONS):
        total += n
    return time.perf_counter() - start


def loop_line() -> str:
    """The measure as the benches print it."""
    return f"a loop of 2 million additions in {loop_seconds():.3f} s"
