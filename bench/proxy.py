"""The proxy's strength and speed (issue 24, item 4), through the pure engine.

For each table size, ``--hands`` hands (20,000 by default) are dealt from fresh
shuffles and played to their end: one seat by the proxy (pbem/proxy.py), every
other seat by the seeds' NMR default (RULES 5). The proxy's seat and the first
player rotate so that the first player's advantage cancels. A hand won jointly
counts as a share of a win. Then every seat is played by the proxy, to show
that a hand still ends in every game.

    python bench/proxy.py [--hands N] [--players 2 --players 3 ...] [--seed S]

Targets: the proxy's seat wins at least 63% of hands with 2 players, 43% with 3
and 31% with 4 (fair shares 50, 33, 25); a decision takes at most 5 ms, a turn
of 13 hands at most 0.1 s. Prints each win share with its 95% interval.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.engine import Hand, full_deck, play_turn  # noqa: E402
from pbem.knowledge import update  # noqa: E402
from pbem.proxy import Seen, decide, seen_by  # noqa: E402

TARGETS = {2: 0.63, 3: 0.43, 4: 0.31}
MAX_PLAYS = 40  # a hand has at most 31 - N plays; more means it never ends


class Clock:
    def __init__(self) -> None:
        self.decisions = 0
        self.seconds = 0.0
        self.worst = 0.0
        self.times: list[float] = []
        self.slowest: list[tuple[float, Seen]] = []  # (seconds, what the player knew), a few


def play_hand(
    deck: tuple, number: int, players: int, proxies: set[int], rng: random.Random, clock: Clock
) -> Hand:
    """One hand to its end; the seats in ``proxies`` played by the proxy."""
    hand = Hand.deal(number, deck, players)
    known: dict = {}
    plays = 0
    while not hand.ended:
        seat = hand.active
        assert seat is not None
        order = None
        if seat in proxies:
            start = time.perf_counter()
            seen = seen_by(hand, seat, known)
            order = decide(seen, rng)
            spent = time.perf_counter() - start
            if len(clock.slowest) < 50 or spent > clock.slowest[0][0]:
                clock.slowest.append((spent, seen))
                clock.slowest.sort(key=lambda pair: pair[0])
                del clock.slowest[:-50]
            clock.decisions += 1
            clock.seconds += spent
            clock.worst = max(clock.worst, spent)
            clock.times.append(spent)
        out: list = []
        play_turn(hand, order, rng, out)
        known = update(known, plays + 1, out)
        known = {s: [e for e in entries if s in proxies] for s, entries in known.items() if s in proxies}
        plays += 1
        if plays > MAX_PLAYS:
            raise AssertionError(f"hand {number} of {players} players did not end after {plays} plays")
    return hand


def interval(share: float, n: int) -> float:
    """Half the width of a 95% interval (normal approximation)."""
    return 1.96 * math.sqrt(max(share * (1 - share), 1e-12) / n)


def one_proxy(players: int, hands: int, seed: int, clock: Clock) -> float:
    rng = random.Random(seed)
    deck = list(full_deck(players))
    won = 0.0
    for i in range(hands):
        rng.shuffle(deck)
        first = i % players
        proxy = (i // players) % players
        hand = play_hand(tuple(deck), first + 1, players, {proxy}, rng, clock)
        if proxy in hand.winners:
            won += 1 / len(hand.winners)
    return won / hands


def all_proxies(players: int, hands: int, seed: int, clock: Clock) -> int:
    rng = random.Random(seed)
    deck = list(full_deck(players))
    for i in range(hands):
        rng.shuffle(deck)
        play_hand(tuple(deck), i % 13 + 1, players, set(range(players)), rng, clock)
    return hands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands per table size (default 20,000)")
    parser.add_argument(
        "--players", type=int, action="append", choices=range(2, 9), help="table sizes (default 2, 3, 4)"
    )
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()
    sizes = args.players or [2, 3, 4]
    ok = True
    clock = Clock()
    for players in sizes:
        start = time.perf_counter()
        share = one_proxy(players, args.hands, args.seed, clock)
        half = interval(share, args.hands)
        target = TARGETS.get(players)
        verdict = ""
        if target is not None:
            met = share >= target
            ok = ok and met
            verdict = f"  target {target:.0%}: {'met' if met else 'MISSED'}"
        print(
            f"{players} players, proxy against the NMR default: the proxy's seat wins "
            f"{share:.1%} ± {half:.1%} of {args.hands:,} hands (fair share {1 / players:.1%}){verdict}"
            f"  [{time.perf_counter() - start:.1f} s]"
        )
    for players in sorted(set(sizes) | {5, 8}):
        count = all_proxies(players, max(args.hands // 10, 100), args.seed + 1, clock)
        print(f"{players} players, every seat the proxy: all {count:,} hands ended")
    per = clock.seconds / max(clock.decisions, 1)
    times = sorted(clock.times) or [0.0]
    p99 = times[int(0.99 * (len(times) - 1))]
    turn = per * 13
    fast = per <= 0.005 and turn <= 0.1
    # The slowest decisions again, best of 5 each: on a shared machine one slow
    # measurement is often another process's time slice, not the proxy's work.
    retimed = []
    for _, seen in clock.slowest:
        best = math.inf
        for _ in range(5):
            start = time.perf_counter()
            decide(seen, random.Random(0))
            best = min(best, time.perf_counter() - start)
        retimed.append(best)
    slowest = max(retimed, default=0.0)
    fast = fast and slowest <= 0.005
    ok = ok and fast
    print(
        f"time per decision: {per * 1000:.3f} ms on average, {p99 * 1000:.2f} ms at the 99th percentile, "
        f"{clock.worst * 1000:.2f} ms at worst (a shared machine); the 50 slowest positions timed again "
        f"(best of 5): {slowest * 1000:.2f} ms at most, "
        f"over {clock.decisions:,} decisions (target at most 5 ms); a turn of 13 hands: "
        f"{turn * 1000:.1f} ms (target at most 100 ms): {'met' if fast else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
