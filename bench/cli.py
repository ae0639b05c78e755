"""CLI start-up cost: the median wall time of `pbem resolve` on a 4-player
campaign at turn 10, next to `python -c "import click, jinja2, yaml"` measured in
the same run, and their ratio.

    python bench/cli.py [--runs N] [--players 4|6] [--tmp DIR]

``--players 6`` times a 6-player campaign with the Premium deck (issue 13:
the same target). ``--tmp`` chooses where the campaigns are made.

Target (issue 2): ratio at most 1.5 (a command imports what it needs, when it
needs it). Every order of turn 10 is on file (typed in through the library, as
`pbem order` would), so the resolve checks them too (it plays each as it was read
when it came in: it does not read their texts again).

The package is byte-compiled first, as `pip install` does: an editable install
on a machine with PYTHONDONTWRITEBYTECODE set would otherwise compile pbem's
sources on every run, which no installed copy does.
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.campaign import Campaign  # noqa: E402
from pbem.engine import legal_cards  # noqa: E402

NAMES = ["Arthur", "Bruno", "Charles", "Dora", "Emma", "Fanny", "Gaston", "Hugo"]
PLAYERS = NAMES[:4]


def make_campaign(folder: Path, seed: int = 4242) -> None:
    """A campaign at turn 10 with every order on file, whose turn 10 does not
    end the game (an ordinary turn: the final one also builds the game's record)."""
    for attempt in range(seed, seed + 50):
        if folder.exists():
            shutil.rmtree(folder)
        if _make(folder, attempt):
            return
    raise SystemExit("no seed gave a game still going after turn 10")


def _make(folder: Path, seed: int) -> bool:
    folder.mkdir(parents=True)
    (folder / "campaign.yaml").write_text(
        f"title: Bench game\nseed: {seed}\nplayers:\n"
        + "".join(f"  - {{name: {n}, email: {n.lower()}@example.org}}\n" for n in PLAYERS),
        encoding="utf-8",
    )
    campaign = Campaign(folder)
    campaign.start()
    policy = random.Random(1)
    while True:
        pos = campaign.position()
        for seat, hands in pos.game.awaited().items():
            lines = []
            for h in hands:
                card = policy.choice(legal_cards(pos.game.hand(h).cards[seat]))
                target = policy.choice([p for p in PLAYERS if p != PLAYERS[seat]])
                # The Princess is played only on an order that names her alone (README, Orders).
                words = "" if card.title == "Princess" else f" on {target}, guess Prince"
                lines.append(f"Hand {h}: {card.title}{words}")
            campaign.record_orders(PLAYERS[seat], "\n".join(lines))
        if pos.game.turn == 10:
            trial = folder.with_name(folder.name + "-trial")
            shutil.copytree(folder, trial)
            ends = Campaign(trial).resolve().game.finished
            shutil.rmtree(trial)
            return not ends
        if campaign.resolve().game.finished:
            return False


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9))
    parser.add_argument(
        "--tmp",
        type=Path,
        default=Path(__file__).resolve().parent.parent.parent,
        help="where to make the campaigns (default: beside the repository)",
    )
    args = parser.parse_args()
    global PLAYERS
    PLAYERS = NAMES[: args.players]
    # The console script beside this interpreter (as in a virtualenv), not a
    # shim found on PATH: pyenv's shims are bash scripts that exec again, which
    # the baseline (run with sys.executable) does not pay either.
    pbem = str(Path(sys.executable).parent / "pbem")
    if not Path(pbem).exists():
        pbem = shutil.which("pbem")
    if pbem is None:
        raise SystemExit("the pbem command is not installed (pip install .)")
    installed = subprocess.run(
        [sys.executable, "-c", "import pbem; print(pbem.__file__)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    compileall.compile_dir(str(Path(installed).parent), quiet=1)
    # Beside the repository: creating files in /tmp is ten times slower on this machine.
    with tempfile.TemporaryDirectory(dir=args.tmp, prefix="pbem-cli-") as tmp:
        master = Path(tmp) / "master"  # (a campaign folder as a GM keeps it)
        make_campaign(master)
        resolve_times, import_times = [], []
        for i in range(args.runs + 1):
            copy = Path(tmp) / f"run{i}"
            shutil.copytree(master, copy)
            # The copy's files on disk first, as a GM's campaign is: otherwise the
            # resolve's fsyncs would also wait for this fresh copy's ~200 files
            # (a journal commit carries every file written before it).
            os.sync()
            r = timed([pbem, "resolve", str(copy)])
            b = timed([sys.executable, "-c", "import click, jinja2, yaml"])
            if i:  # the first round warms the disk cache
                resolve_times.append(r)
                import_times.append(b)
    resolve = statistics.median(resolve_times)
    baseline = statistics.median(import_times)
    ratio = resolve / baseline
    print(
        f"{pbem} resolve ({args.players} players, turn 10, all orders on file): "
        f"median {resolve * 1000:.0f} ms "
        f"over {args.runs} runs"
    )
    print(f'python -c "import click, jinja2, yaml":               median {baseline * 1000:.0f} ms')
    print(f"ratio {ratio:.2f} ({'meets' if ratio <= 1.5 else 'MISSES'} the target of at most 1.5)")


if __name__ == "__main__":
    main()
