"""What mutation testing of pbem/orders.py showed the order tests missed (issue 21).

The order tests check a reason by a phrase in it; a player reads the whole sentence, so
these tests pin the whole wording of each refusal, completion and note, and the rules
(a threshold, a condition) whose change no other test noticed.
"""

from __future__ import annotations

from builders import B, G, P, S, deck

from pbem.cards import Card
from pbem.engine import Game, shuffled_deck
from pbem.orders import REJECTED, check_order, parse_orders

PLAYERS = ["Arthur", "Bruno", "Charles"]


def game_with(held: dict[int, Card], draw: Card, number: int = 1) -> Game:
    decks = {n: shuffled_deck("pins", n) for n in range(1, 14)}
    decks[number] = deck(3, number, held, draw)
    return Game.new(3, decks)


def check(text: str, game: Game, me: str = "Arthur"):
    parsed = parse_orders(text, PLAYERS, me)
    assert len(parsed.orders) == 1, parsed
    return check_order(parsed.orders[0], game, PLAYERS, me)


def test_the_refusals_word_for_word():
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    refusals = {
        "Hand 14: Guard on Bruno, guess Baron": "there is no hand 14: hands are numbered 1 to 13",
        "Hand 2: Guard on Bruno, guess Baron": "it is not your turn in hand 2: Bruno plays there this turn",
        "Hand 1: King on Bruno": "you do not hold the King in hand 1 (you hold Guard and Spy)",
        "Hand 1: Bruno": 'no card named for hand 1 (you hold Guard and Spy); write e.g. "Hand 1: Guard"',
    }
    for text, reason in refusals.items():
        c = check(text, game)
        assert (c.status, c.reason, c.note, c.order) == (REJECTED, reason, "", None), text
