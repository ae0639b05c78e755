"""Order lines (INTERFACE.md) and their classification (RULES.md section 3)."""

from __future__ import annotations

import pytest

from builders import B, C, G, H, K, P, S, X, deck
from pbem.cards import Card
from pbem.engine import Game, shuffled_deck
from pbem.orders import ACCEPTED, COMPLETED, REJECTED, check_order, parse_orders

PLAYERS = ["Arthur", "Bruno", "Charles"]


def one(text: str, me: str = "Arthur", players=PLAYERS):
    parsed = parse_orders(text, players, me)
    assert len(parsed.orders) == 1, parsed
    return parsed.orders[0]


@pytest.mark.parametrize("text", [
    "Hand 3: Guard on Charles, guess Prince",
    "H3 Guard Charles Prince",
    "3: guard charles prince",
    "Hand 3 - play the Guard on Charles and guess that he has a Prince",
    "hand 3: guard -> charles (prince)",
    "Hand 3: Guard on Charles, guess 5",
    "HAND 3: GUARD ON CHARLES, GUESS PRINCE",
    "Hand 3: 1 on Charles, guess Hatamoto",
    "Hand 3: Guard on Char, guess Prince",
    "h3: guard c prince",
    "* Hand 3: Guard on Charles, guess Prince",
    "Hand #3: Guard on Charles, guess Prince",
    "Hand 3 — Guard on Charles, guess Prince",
])
def test_every_form_of_interface_md_reads_the_same(text):
    o = one(text)
    assert (o.hand, o.card, o.target, o.guess) == (3, G, "Charles", P)
    assert o.canonical() == "Hand 3: Guard on Charles, guess Prince"


@pytest.mark.parametrize("word", ["me", "myself", "self", "Arthur", "arthur", "ART"])
def test_prince_on_myself(word):
    o = one(f"Hand 5: Prince on {word}")
    assert (o.card, o.target) == (P, "Arthur")


def test_card_without_target():
    o = one("Hand 7: Countess")
    assert (o.hand, o.card, o.target, o.guess) == (7, C, None, None)


@pytest.mark.parametrize("alias, card", [("Priest", S), ("courtier", S), ("Diplomat", B), ("Shugenja", H),
                                         ("hatamoto", P), ("Manipulator", K), ("Sensei", C)])
def test_aliases(alias, card):
    assert one(f"Hand 2: {alias} on Bruno").card == card


@pytest.mark.parametrize("rank, card", [(1, G), (2, S), (3, B), (4, H), (5, P), (6, K), (7, C), (8, X)])
def test_rank_names_the_card(rank, card):
    assert one(f"Hand 1: Guard on Bruno, guess {rank}").guess == (card if card != G else G)
    assert one(f"Hand 1: {rank} on Bruno").card == card


def test_prefix_must_name_one_player_only():
    players = ["Arthur", "Bruno", "Brigitte"]
    o = one("Hand 2: Spy on br", players=players)
    assert o.target is None and o.target_text == "br"
    assert one("Hand 2: Spy on bru", players=players).target == "Bruno"


def test_filler_words_never_pass_for_a_prefix():
    players = ["Arthur", "Helen", "Theo"]
    o = one("Hand 3 - play the Guard on Theo and guess that he has a Prince", players=players)
    assert (o.target, o.guess) == ("Theo", P)


def test_accented_names_and_case():
    players = ["Arthur", "Chloé", "Dominik"]
    assert one("Hand 4: Baron on CHLOÉ", players=players).target == "Chloé"
    assert one("Hand 4: Baron on chlo", players=players).target == "Chloé"


def test_multi_word_names():
    players = ["Arthur", "Mary Ann", "Bruno"]
    o = one("Hand 4: Guard on Mary Ann, guess King", players=players)
    assert (o.target, o.guess) == ("Mary Ann", K)


def test_several_orders_on_one_line_and_many_lines():
    parsed = parse_orders("Hand 1: Guard on Bruno, guess King; Hand 4: Countess\nH7 Handmaid",
                          PLAYERS, "Arthur")
    assert [(o.hand, o.card) for o in parsed.orders] == [(1, G), (4, C), (7, H)]


def test_a_piece_after_a_semicolon_without_hand_belongs_to_the_order_before():
    o = one("Hand 3: Guard on Bruno; guess Prince")
    assert (o.target, o.guess) == ("Bruno", P)


def test_lines_that_are_not_orders_are_ignored_and_reported():
    parsed = parse_orders("Hi Rita,\nHand 2: Baron on Bruno\nDeadline 20:00 ok?\n2. I think so\nHand 5:\n",
                          PLAYERS, "Arthur")
    assert [o.hand for o in parsed.orders] == [2]
    assert parsed.ignored == ["Hi Rita,", "Deadline 20:00 ok?", "2. I think so"]


def test_hand_reference_without_card_is_an_order_to_reject():
    o = one("Hand 3: Charles")
    assert o.card is None and o.target == "Charles"


def test_unknown_target_and_guess_are_kept_for_the_acknowledgement():
    o = one("Hand 3: Guard on Zed, guess Wizard")
    assert o.target is None and o.target_text == "zed" and o.guess_text == "wizard"


def test_non_guard_cards_drop_guess_and_non_targeted_drop_target():
    assert one("Hand 3: Baron on Bruno guess King").guess is None
    o = one("Hand 3: Handmaid on Bruno")
    assert o.target is None and o.card == H


# -- classification -----------------------------------------------------------------------


def game_with(held: dict[int, Card], draw: Card, number: int = 1, **kw) -> Game:
    decks = {n: shuffled_deck("orders", n) for n in range(1, 14)}
    decks[number] = deck(3, number, held, draw, **kw)
    return Game.new(3, decks)


def check(text: str, game: Game, me: str = "Arthur"):
    return check_order(one(text, me), game, PLAYERS, me)


def test_accepted():
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    c = check("Hand 1: Guard on Bruno, guess Baron", game)
    assert c.status == ACCEPTED and c.order.target == 1 and c.order.guess == B


@pytest.mark.parametrize("text, reason", [
    ("Hand 14: Guard on Bruno, guess Baron", "there is no hand 14"),
    ("Hand 2: Guard on Bruno, guess Baron", "not your turn in hand 2: Bruno plays"),
    ("Hand 1: Bruno", "no card named"),
    ("Hand 1: King on Bruno", "you do not hold the King in hand 1"),
])
def test_rejected_with_reason(text, reason):
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    c = check(text, game)
    assert c.status == REJECTED and reason in c.reason and c.order is None


@pytest.mark.parametrize("other", [K, P])
def test_countess_rule_rejects_king_and_prince(other):
    game = game_with({0: C, 1: B, 2: G}, draw=other)
    c = check(f"Hand 1: {other.title} on Bruno", game)
    assert c.status == REJECTED and "Countess must be played" in c.reason
    assert check("Hand 1: Countess", game).status == ACCEPTED


def test_rejected_when_hand_is_over_or_player_is_out():
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    game.hand(1).ended = True
    assert "over" in check("Hand 1: Guard on Bruno, guess King", game).reason
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    game.hand(1).alive[0] = False
    assert "out of hand 1" in check("Hand 1: Guard on Bruno, guess King", game).reason


@pytest.mark.parametrize("text, reason", [
    ("Hand 1: Guard, guess King", "no target named"),
    ("Hand 1: Guard on Zed, guess King", "names no player"),
    ("Hand 1: Guard on myself, guess King", "on yourself"),
    ("Hand 1: Guard on Bruno", "no guess"),
    ("Hand 1: Guard on Bruno, guess Guard", "may not name a Guard"),
])
def test_completed_with_what_will_be_filled_in(text, reason):
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    c = check(text, game)
    assert c.status == COMPLETED and reason in c.reason and c.order is not None


def test_target_out_of_the_hand_is_completed():
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    game.hand(1).alive[1] = False
    c = check("Hand 1: Guard on Bruno, guess King", game)
    assert c.status == COMPLETED and "Bruno is out of hand 1" in c.reason


def test_protected_target_is_accepted_with_a_redirection_note():
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    game.hand(1).protected[1] = True
    c = check("Hand 1: Guard on Bruno, guess King", game)
    assert c.status == ACCEPTED and "protected" in c.note and "Charles" in c.note


def test_prince_on_self_is_accepted():
    game = game_with({0: P, 1: B, 2: G}, draw=S)
    c = check("Hand 1: Prince on me", game)
    assert c.status == ACCEPTED and c.order.target == 0


def test_playing_the_princess_is_accepted():
    game = game_with({0: X, 1: B, 2: G}, draw=S)
    assert check("Hand 1: Princess", game).status == ACCEPTED


@pytest.mark.parametrize("text", ["0:\u00b2", "Hand 3: Guard on Bruno, guess \u00b2", "3: \uff13"])
def test_unicode_digits_are_no_rank_and_no_crash(text):
    """'²'.isdigit() is true but int('²') raises: a hostile reply once crashed the inbox."""
    parsed = parse_orders(text, ["Arthur", "Bruno"], "Arthur")
    assert all(order.guess is None for order in parsed.orders)
