"""`pbem site` on a finished 4-player game: the whole command, as a GM runs it.

    python bench/site.py [--rounds N]

A 4-player campaign is played to its end (tests/site_games.py: orders chosen
among the legal plays, some hands left to the NMR defaults), then `pbem site`
is run as a separate process, the way a GM or `resolve` runs it: reading the
public events and reports of every turn, replaying the board, rendering the
13 hand pages, every turn page, the front and end pages, and switching the
new folder in. Median, min and max of several rounds after one warm-up run
(which fills Jinja's and Python's caches, as on a GM's machine); the build
inside one process (`build_site`) is timed too.

Target (issue 14): under 1 s for the whole command.

Subprocesses run without PYTHONDONTWRITEBYTECODE (see shared notes on
benchmarks: these machines set it, a user's machine does not).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from site_games import play, write_campaign  # noqa: E402

from pbem.site import build_site  # noqa: E402

TARGET = 1.0


def pbem_command() -> list[str]:
    here = Path(sys.executable).parent / "pbem"
    return [str(here)] if here.exists() else [sys.executable, "-m", "pbem.cli"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--dir", default=str(ROOT.parent), help="where to make the campaign")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="pbem-site-") as tmp:
        folder = write_campaign(Path(tmp) / "game4", 4, seed=3)
        campaign = play(folder, policy_seed=3)
        turns = campaign.position().turn_on_file
        command = pbem_command() + ["site", str(folder)]
        subprocess.run(command, env=env, check=True, capture_output=True)  # warm-up
        times = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            subprocess.run(command, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
        inside = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            built = build_site(folder)
            inside.append(time.perf_counter() - start)
        median = statistics.median(times)
        print(
            f"pbem site, finished 4-player game ({turns} turns, {len(built.pages)} files): "
            f"median {median:.3f} s (min {min(times):.3f}, max {max(times):.3f}) over {args.rounds} runs; "
            f"target under {TARGET:.1f} s: {'met' if median < TARGET else 'NOT met'}"
        )
        print(
            f"build_site() alone, in one process: median {statistics.median(inside) * 1000:.0f} ms "
            f"(min {min(inside) * 1000:.0f}, max {max(inside) * 1000:.0f})"
        )


if __name__ == "__main__":
    main()
