"""Engine speed: full 4-player (and 2-player, and 6-player Premium) hands per second, through the pure engine.

Each hand is dealt from a freshly shuffled deck and played to its end. Each
play is, at random, one of two kinds of random legal play:

* an explicit order: a random legal card, a random seat as target (so invalid,
  protected and self targets exercise completion and redirection) and a random
  guess (a Guard guess exercises the random guess);
* no order at all: the engine's NMR defaults (RULES 5) pick a random legal play.

``--policy`` runs one kind alone; ``--no-events`` plays as a simulation that
builds no events (issue 9, item 8). No files, no reports. The decks are shuffled
before the clock starts: shuffling is the campaign's job (once per hand per
game), not the engine's.

    python bench/engine.py [--hands N] [--players 2..8 ...] [--policy mixed|orders|nmr] [--no-events]

With 5 to 8 players the hands are Premium hands (32 cards, RULES 10): guesses
are numbers and the Cardinal and the Baroness get a second random player.

Target (issue 2): at least 25,000 hands/s on one core.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import loop_line  # noqa: E402

from pbem.cards import CLASSIC_CARDS  # noqa: E402
from pbem.engine import PREMIUM_PLAYERS, Hand, Order, full_deck, legal_cards, play_turn  # noqa: E402

CARDS = CLASSIC_CARDS


SHARE_OF_ORDERS = {"mixed": 0.5, "orders": 1.0, "nmr": 0.0}


def shuffled_decks(count: int, rng: random.Random, players: int = 4) -> list[tuple]:
    decks = []
    deck = list(full_deck(players))
    for _ in range(count):
        rng.shuffle(deck)
        decks.append(tuple(deck))
    return decks


def play_hands(
    decks: list[tuple], players: int, rng: random.Random, policy: str = "mixed", events: bool = True
) -> int:
    """Play one hand per deck to its end; return the number of plays made."""
    share = SHARE_OF_ORDERS[policy]
    premium = players in PREMIUM_PLAYERS
    plays = 0
    for number, deck in enumerate(decks):
        hand = Hand.deal(number % 13 + 1, deck, players)
        out: list | None = [] if events else None
        while not hand.ended:
            order = None
            if rng.random() < share:
                legal = legal_cards(hand.cards[hand.active])
                card = legal[int(rng.random() * len(legal))]
                if premium:
                    order = Order(
                        card, int(rng.random() * players), int(rng.random() * 10), int(rng.random() * players)
                    )
                else:
                    order = Order(card, int(rng.random() * players), CARDS[int(rng.random() * 8)])
            play_turn(hand, order, rng, out)
            plays += 1
    return plays


def measure(players: int, args: argparse.Namespace) -> float:
    """The best of ``args.repeat`` runs, in full hands per second."""
    best = 0.0
    for run in range(args.repeat):
        rng = random.Random(run)
        decks = shuffled_decks(args.hands, rng, players)
        machine = loop_line()  # just before the run: the minute's speed (bench/machine.py)
        start = time.perf_counter()
        plays = play_hands(decks, players, rng, args.policy, args.events)
        elapsed = time.perf_counter() - start
        rate = args.hands / elapsed
        best = max(best, rate)
        print(
            f"{players} players, run {run + 1}: {args.hands} hands, {plays} plays in {elapsed:.2f} s: "
            f"{rate:,.0f} hands/s ({plays / args.hands:.1f} plays/hand; this machine just before: {machine})"
        )
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument(
        "--players",
        type=int,
        action="append",
        choices=range(2, 9),
        help="player count (repeatable; default: 4, then 2, then 6)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--policy", default="mixed", choices=sorted(SHARE_OF_ORDERS))
    parser.add_argument(
        "--no-events", dest="events", action="store_false", help="build no events, as a simulation does"
    )
    args = parser.parse_args()
    best = {players: measure(players, args) for players in args.players or (4, 2, 6)}
    target = 25_000
    events = "with" if args.events else "without"
    for players, rate in best.items():
        verdict = ""
        if players == 4:
            verdict = f" ({'meets' if rate >= target else 'MISSES'} the target of {target:,})"
        deck = " Premium" if players in PREMIUM_PLAYERS else ""
        print(
            f"best: {rate:,.0f} full {players}-player{deck} hands/s on one core, policy {args.policy}, "
            f"{events} events{verdict}"
        )


if __name__ == "__main__":
    main()
