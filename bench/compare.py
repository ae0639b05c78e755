"""Run one bench script from two source trees in alternation and print their ratio.

    python bench/compare.py BASE_TREE [--rounds 5] -- engine.py --hands 20000 --repeat 1 --players 4

On a shared machine a figure alone says little (the same code measured 15,000
and 39,400 hands/s on two days): what holds is the ratio to the code before,
measured in the same minutes. Each round runs the base tree's script, then
this tree's (A B, then B A, and so on), each as its own process with the same
Python. The figure of each run is the one its verdict is on (its "best:" line's,
or its median's), else the first number it prints followed by ``hands/s`` or
``messages/s``. Printed: every pair, then the range and the median of the
figures and of the ratios (this tree / base).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURE = re.compile(r"([\d,]+(?:\.\d+)?) (?:full \d-player[\w ]* )?(?:hands|messages)/s")


def figure(tree: Path, script: list[str]) -> float:
    """The script's figure when run from ``tree``: its first "best:" line's, else its last
    line with a median (the figure its verdict is on), else its first figure."""
    done = subprocess.run(
        [sys.executable, str(tree / "bench" / script[0]), *script[1:]],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    best = [line for line in lines if line.startswith("best:")]
    median = [line for line in lines if ": median " in line]  # route.py and the like: their verdict
    for line in best[:1] or median[-1:] or lines:
        found = FIGURE.search(line)
        if found:
            return float(found.group(1).replace(",", ""))
    raise SystemExit(f"no figure in the output of {script[0]} from {tree}:\n{done.stdout}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="the other source tree (a worktree of main, say)")
    parser.add_argument("--rounds", type=int, default=5)
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    script = argv[cut + 1 :]
    if not script:
        parser.error("name the bench script and its options after --")
    base, ours = [], []
    for n in range(args.rounds):
        if n % 2 == 0:  # A B, then B A: neither tree always runs second
            base.append(figure(args.base.resolve(), script))
            ours.append(figure(ROOT, script))
        else:
            ours.append(figure(ROOT, script))
            base.append(figure(args.base.resolve(), script))
        ratio = ours[-1] / base[-1]
        print(f"round {n + 1}: base {base[-1]:,.0f}, this tree {ours[-1]:,.0f}, ratio {ratio:.2f}")
    ratios = [o / b for o, b in zip(ours, base, strict=True)]
    print(
        f"base {min(base):,.0f}-{max(base):,.0f} (median {statistics.median(base):,.0f}); "
        f"this tree {min(ours):,.0f}-{max(ours):,.0f} (median {statistics.median(ours):,.0f}); "
        f"ratio {min(ratios):.2f}-{max(ratios):.2f} (median {statistics.median(ratios):.2f})"
    )


if __name__ == "__main__":
    main()
