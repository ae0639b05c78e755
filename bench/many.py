"""One GM, many games (issue 22): `pbem tick campaigns/` and `pbem status campaigns/`
over a folder of 1,000 idle campaigns, each command one process, next to
`python -c "import click, jinja2, yaml"` measured in the same run.

    python bench/many.py [--games N] [--runs N] [--tmp DIR]

Targets: the idle tick over 1,000 games at most 2 s, the status table at most
3 s. The games are copies of one small started campaign (3 players, a deadline
days away, no mail waiting): a tick finds nothing to do in any of them, which is
what cron meets nearly every minute. One tick runs first, untimed: it makes each
game's empty Maildir, as the first tick of a real folder does. Then, printed but
not held to the target, ticks that read every game (the quiet notes removed: the
first tick after a change in every game); then, untimed, the tick that finds every
game quiet again and unchanged and notes it (pbem.quiet), as cron's next tick does;
the timed ticks are the ones that follow.
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.campaign import Campaign  # noqa: E402
from pbem.quiet import SETTLED  # noqa: E402

PBEM = [sys.executable, "-m", "pbem"]
SHARED = """\
gm: {name: Rita, email: rita@example.org}
deadline: {timezone: UTC, every_days: 30, at: "20:00", remind_hours: 24}
"""
GAME = """\
title: Bench game
seed: 0123456789abcdef0123456789abcdef
players:
  - {name: Arthur, email: arthur@example.org}
  - {name: Bruno, email: bruno@example.org}
  - {name: Chloe, email: chloe@example.org}
"""


def make_folder(root: Path, games: int) -> Path:
    folder = root / "campaigns"
    folder.mkdir()
    (folder / "pbem.yaml").write_text(SHARED, encoding="utf-8")
    first = folder / "game0001"
    first.mkdir()
    (first / "campaign.yaml").write_text(GAME, encoding="utf-8")
    Campaign(first).start()
    for i in range(2, games + 1):
        shutil.copytree(first, folder / f"game{i:04d}")
    return folder


def timed(command: list[str], runs: int, ok=(0,)) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode not in ok:
            raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tmp", help="where to make the campaigns (default: the system's temp dir)")
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "pbem", quiet=1)
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        made = time.perf_counter()
        folder = make_folder(Path(tmp), args.games)
        print(f"{args.games} campaigns made in {time.perf_counter() - made:.1f} s")
        subprocess.run([*PBEM, "tick", str(folder)], capture_output=True, check=True)  # the Maildirs
        imports = timed([sys.executable, "-c", "import click, jinja2, yaml"], args.runs)
        notes = folder / ".pbem" / "quiet.json"
        full = []
        for _ in range(args.runs):
            notes.unlink(missing_ok=True)
            full.append(timed([*PBEM, "tick", str(folder)], 1))  # each game read, found quiet once
        time.sleep(SETTLED)  # the next cron minute: the files the first tick made have settled
        subprocess.run([*PBEM, "tick", str(folder)], capture_output=True, check=True)  # quiet again: noted
        tick = timed([*PBEM, "tick", str(folder)], args.runs)
        status = timed([*PBEM, "status", str(folder)], args.runs)
        print(f'python -c "import click, jinja2, yaml": {imports * 1000:.0f} ms (median of {args.runs})')
        reading = statistics.median(full)
        print(
            f"pbem tick campaigns/ reading every game (no quiet notes) over {args.games}: {reading:.2f} s "
            f"({reading / args.games * 1000:.2f} ms a game; ratio to the imports {reading / imports:.1f})"
        )
        for what, seconds, target in (("tick", tick, 2.0), ("status", status, 3.0)):
            verdict = "ok" if seconds <= target else "OVER"
            print(
                f"pbem {what} campaigns/ over {args.games}: {seconds:.2f} s "
                f"({seconds / args.games * 1000:.2f} ms a game; "
                f"ratio to the imports {seconds / imports:.1f}); "
                f"target at most {target:.0f} s: {verdict}"
            )


if __name__ == "__main__":
    main()
