"""The engine's exact results over many random hands, pinned by a digest.

A speed-up of the engine (bench/engine.py) must change nothing a game can
see: not one event, not one state, not one draw from the generator. These
hands are played as the benchmark plays them (random legal orders, with
unusable targets and guesses, and no orders at all), with events and without,
and every event and every final state is hashed; the digests were taken from
the engine before its speed-ups (main at 0b7a3f5)."""

from __future__ import annotations

import hashlib
import random

import pytest

from pbem.cards import CLASSIC_CARDS
from pbem.engine import PAIRED, PREMIUM_PLAYERS, Hand, Order, full_deck, legal_cards, play_turn

HANDS = 400


def digest(players: int, events: bool) -> str:
    rng = random.Random(players * 1000 + events)
    deck = list(full_deck(players))
    premium = players in PREMIUM_PLAYERS
    h = hashlib.sha256()
    for number in range(HANDS):
        rng.shuffle(deck)
        hand = Hand.deal(number % 13 + 1, deck, players)
        if premium:
            hand.bishop_discard = [rng.random() < 0.5 for _ in range(players)]
        out: list | None = [] if events else None
        while not hand.ended:
            order = None
            if rng.random() < 0.6:
                card = rng.choice(legal_cards(hand.cards[hand.active]))
                target = rng.choice([None, *range(players), players + 2])
                if premium:
                    second = rng.choice([None, *range(players)]) if card in PAIRED else None
                    look = rng.choice([None, target, second]) if card in PAIRED else None
                    order = Order(card, target, rng.choice([None, *range(10)]), second, look)
                else:
                    order = Order(card, target, rng.choice([None, *CLASSIC_CARDS]))
            play_turn(hand, order, rng, out)
            h.update(repr(hand.bonus).encode())
            hand.bonus = []
        h.update(repr(hand.to_dict()).encode())
        if out is not None:
            h.update(repr(out).encode())
    return h.hexdigest()[:16]


PINNED = {
    (2, False): "7e23fcb8fb531e45",
    (2, True): "20e4937a09fbdbaa",
    (3, True): "86f0ec033c317585",
    (4, False): "e9d5c290d5873cc5",
    (4, True): "148eb799441a4fd7",
    (5, True): "5a4d4462c42d9422",
    (6, False): "e6fb7de6bb2c1d20",
    (6, True): "f89695b4fe15cea5",
    (8, True): "993cc961acbcfda4",
}


@pytest.mark.parametrize(("players", "events"), sorted(PINNED))
def test_the_engine_plays_random_hands_exactly_as_before_its_speed_ups(players, events):
    assert digest(players, events) == PINNED[(players, events)]
