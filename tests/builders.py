"""Exact decks for rule tests: say who holds what, get the 16-card deck (the
32-card Premium deck with 5 to 8 players).

RULES.md section 2: deck order (top first) is the set-aside card, one card to
each player starting with the hand's first player, the first player's draw,
then the draw pile. :func:`deck` builds that order from what a test cares
about and fills the rest of the pile with the remaining cards.
"""

from __future__ import annotations

import random
from collections import Counter

from pbem.cards import CLASSIC_CARDS, FULL_DECK, PREMIUM_DECK, Card
from pbem.engine import Hand, Order, first_player, play_turn

G, S, B, H, P, K, C, X = CLASSIC_CARDS  # Guard, Spy, Baron, Handmaid, Prince, King, Countess, princess (X)
# The Premium deck's new cards (RULES 10.1).
A, J, CA, BS, SY = Card.ASSASSIN, Card.JESTER, Card.CARDINAL, Card.BARONESS, Card.SYCOPHANT
CO, CN, DQ, BI = Card.COUNT, Card.CONSTABLE, Card.DOWAGER_QUEEN, Card.BISHOP


def deck(
    players: int,
    number: int,
    held: dict[int, Card],
    draw: Card,
    set_aside: Card | None = None,
    pile: list[Card] = (),
    face_up: list[Card] | None = None,
) -> list[Card]:
    """A deck (top first) for hand ``number`` in which seat s is dealt held[s],
    the first player draws ``draw``, the pile starts with ``pile``; with two
    players, ``face_up`` are the three cards laid face up (RULES 9)."""
    first = first_player(number, players)
    full = PREMIUM_DECK if players >= 5 else FULL_DECK
    used = Counter(held.values()) + Counter([draw]) + Counter(pile) + Counter(face_up or ())
    if set_aside is not None:
        used[set_aside] += 1
    rest = Counter(full) - used
    if any(used[c] > full.count(c) for c in used):
        raise ValueError(f"more cards than the deck holds: {used}")
    remaining = [c for c in Card for _ in range(rest[c])]
    if set_aside is None:
        set_aside = remaining.pop()
    up: list[Card] = []
    if players == 2:
        up = list(face_up) if face_up is not None else [remaining.pop() for _ in range(3)]
        assert len(up) == 3
    dealt = [held[(first + i) % players] for i in range(players)]
    out = [set_aside, *up, *dealt, draw, *pile, *remaining]
    assert sorted(out) == sorted(full)
    return out


def hand(
    players: int = 3, number: int = 1, held: dict[int, Card] | None = None, draw: Card = G, **kw
) -> Hand:
    """A freshly dealt hand (see :func:`deck`)."""
    return Hand.deal(number, deck(players, number, held, draw, **kw), players)


def rng(seed: int = 0) -> random.Random:
    return random.Random(seed)


def play(h: Hand, order: Order | None, seed: int = 0) -> list:
    """Play one order (None: the NMR default) in ``h``; the events it made."""
    out: list = []
    play_turn(h, order, rng(seed), out)
    return out


def only(events: list, kind: str):
    """The one event of ``kind`` among ``events`` (fails when there are none or several)."""
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, (kind, events)
    return found[0]
