"""Order lines (INTERFACE.md) and their classification (RULES.md section 3)."""

from __future__ import annotations

import kit
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


@pytest.mark.parametrize(
    "text",
    [
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
    ],
)
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


@pytest.mark.parametrize(
    "alias, card",
    [
        ("Priest", S),
        ("courtier", S),
        ("Diplomat", B),
        ("Shugenja", H),
        ("hatamoto", P),
        ("Manipulator", K),
        ("Sensei", C),
        # Written for the Handmaid by players and refused as naming no card (found playing a game through)
        ("Handmaiden", H),
        ("the maid", H),
        ("Hand maid", H),
    ],
)
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


@pytest.mark.parametrize("written", ["Chloe", "chloe", "CHLOE", "Chloe\u0301", "Chlo\u00e9", "Chloè", "chlo"])
def test_a_name_is_matched_accent_blind_and_case_blind(written):
    """Issue 8.11: "Chloe" names Chloé (no random target instead); NFKD and casefold."""
    players = ["Arthur", "Chloé", "Dominik"]
    assert one(f"Hand 4: Baron on {written}", players=players).target == "Chloé"


def test_an_accented_name_written_plainly_in_a_multi_word_name():
    players = ["Arthur", "José María", "Bruno"]
    assert one("Hand 4: Guard on jose maria, guess King", players=players).target == "José María"


def test_multi_word_names():
    players = ["Arthur", "Mary Ann", "Bruno"]
    o = one("Hand 4: Guard on Mary Ann, guess King", players=players)
    assert (o.target, o.guess) == ("Mary Ann", K)


def test_several_orders_on_one_line_and_many_lines():
    parsed = parse_orders(
        "Hand 1: Guard on Bruno, guess King; Hand 4: Countess\nH7 Handmaid", PLAYERS, "Arthur"
    )
    assert [(o.hand, o.card) for o in parsed.orders] == [(1, G), (4, C), (7, H)]


def test_a_piece_after_a_semicolon_without_hand_belongs_to_the_order_before():
    o = one("Hand 3: Guard on Bruno; guess Prince")
    assert (o.target, o.guess) == ("Bruno", P)


def test_lines_that_are_not_orders_are_ignored_and_reported():
    parsed = parse_orders(
        "Hi Rita,\nHand 2: Baron on Bruno\nDeadline 20:00 ok?\n2. I think so\nHand 5:\n", PLAYERS, "Arthur"
    )
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


@pytest.mark.parametrize(
    "text, reason",
    [
        ("Hand 14: Guard on Bruno, guess Baron", "there is no hand 14"),
        ("Hand 2: Guard on Bruno, guess Baron", "not your turn in hand 2: Bruno plays"),
        ("Hand 1: Bruno", "no card named"),
        ("Hand 1: King on Bruno", "you do not hold the King in hand 1"),
    ],
)
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


@pytest.mark.parametrize(
    "text, reason",
    [
        ("Hand 1: Guard, guess King", "no target named"),
        ("Hand 1: Guard on Zed, guess King", "names no player"),
        ("Hand 1: Guard on myself, guess King", "on yourself"),
        ("Hand 1: Guard on Bruno", "no guess"),
        ("Hand 1: Guard on Bruno, guess Guard", "may not name a Guard"),
    ],
)
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


# -- did you mean (issue 11, item 5) ------------------------------------------------


@pytest.mark.parametrize(
    "text, hint",
    [
        ("Hand 1: Guard on Artur, guess King", None),  # Arthur is the writer: not a target to suggest
        ("Hand 1: Guard on Brunno, guess King", '"Brunno" names no player (did you mean Bruno?)'),
        (
            "Hand 1: Guard on Bruno, guess Prinxess",
            '"Prinxess" is not a card (did you mean Princess or Prince?)',
        ),
        ("Hand 1: Gard on Bruno", "(did you mean Guard?)"),
        ("Hand 1: Spyy on Bruno", "(did you mean Spy?)"),
    ],
)
def test_a_misspelt_name_or_card_gets_a_suggestion(text, hint):
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    c = check(text, game)
    if hint is None:
        assert "did you mean" not in c.reason + c.note
    else:
        assert hint in c.reason, c


def test_no_suggestion_for_a_word_far_from_every_name():
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    c = check("Hand 1: Guard on Zed, guess King", game)
    assert c.status == COMPLETED and "did you mean" not in c.reason
    c = check("Hand 1: Xylophone", game)
    assert c.status == REJECTED and "did you mean" not in c.reason


def test_a_card_named_later_is_a_guess_not_a_misspelt_play():
    """ "guess Contess" after an unknown first word: the hint is only for words
    before the first card, so no "did you mean Countess" for the card played."""
    game = game_with({0: G, 1: B, 2: P}, draw=S)
    c = check("Hand 1: Baron on Bruno, guess Spy", game)
    assert c.status == REJECTED and "did you mean" not in c.reason


# -- Premium games (RULES 10, INTERFACE.md "Order lines") -------------------------------------------------

SIX = ["Arthur", "Bruno", "Charles", "Didier", "Emma", "Fanny"]
PR = Card  # the Premium cards by name


def six_one(text: str, me: str = "Arthur"):
    return one(text, me, SIX)


def premium_game(held: dict[int, list[Card]] | None = None) -> Game:
    """A 6-player game; in hand 1 (Arthur first) each seat holds ``held[seat]``."""
    game = Game.new(6, {n: shuffled_deck("orders", n, 6) for n in range(1, 14)})
    for seat, cards in (held or {}).items():
        game.hand(1).cards[seat] = list(cards)
    return game


def check6(text: str, game: Game, me: str = "Arthur"):
    return check_order(six_one(text, me), game, SIX, me)


@pytest.mark.parametrize(
    "text, number",
    [
        ("Hand 3: Guard on Charles, guess 4", 4),
        ("Hand 3: Guard on Charles, guess Handmaid", 4),
        ("Hand 3: Guard on Charles, guess Sycophant", 4),
        ("Hand 3: Guard on Charles, guess Cardinal", 2),
        ("Hand 3: Guard on Charles, guess 0", 0),
        ("Hand 3: Guard on Charles, guess Assassin", 0),
        ("H3 Guard Charles 9", 9),
        ("Hand 3: Guard on Charles, guess Dowager Queen", 7),
    ],
)
def test_premium_guesses_are_numbers(text, number):
    o = six_one(text)
    assert (o.card, o.target, o.guess) == (G, "Charles", number) and type(o.guess) is int
    assert o.canonical() == f"Hand 3: Guard on Charles, guess {number}"


def test_premium_bishop_order():
    o = six_one("Hand 3: Bishop on Charles, guess 7")
    assert (o.card, o.target, o.guess) == (PR.BISHOP, "Charles", 7)


@pytest.mark.parametrize(
    "text, card",
    [
        ("Hand 3: Count", PR.COUNT),
        ("Hand 3: Countess", C),
        ("Hand 3: Baroness on Bruno", PR.BARONESS),
        ("Hand 3: Baron on Bruno", B),
        ("Hand 3: Dowager Queen on Bruno", PR.DOWAGER_QUEEN),
        ("Hand 3: Queen on Bruno", PR.DOWAGER_QUEEN),
        ("Hand 3: dowager on Bruno", PR.DOWAGER_QUEEN),
        ("Hand 3: Constable", PR.CONSTABLE),
        ("Hand 3: Assassin", PR.ASSASSIN),
        ("Hand 3: Jester on Bruno", PR.JESTER),
        ("Hand 3: Sycophant on myself", PR.SYCOPHANT),
    ],
)
def test_premium_names_are_whole_words(text, card):
    assert six_one(text).card == card


def test_premium_names_are_no_cards_in_a_classic_game():
    assert one("Hand 3: Count").card is None
    assert one("Hand 3: Guard on Bruno, guess Countess").guess == C


def test_cardinal_order_with_two_players_and_a_look():
    o = six_one("Hand 3: Cardinal on Charles and Didier, look at Didier")
    assert (o.card, o.target, o.second, o.look) == (PR.CARDINAL, "Charles", "Didier", "Didier")
    assert o.canonical() == "Hand 3: Cardinal on Charles and Didier, look at Didier"


def test_baroness_order_with_one_or_two_players():
    o = six_one("Hand 3: Baroness on Charles and Didier")
    assert (o.target, o.second) == ("Charles", "Didier")
    assert six_one("Hand 3: Baroness on Charles").second is None


@pytest.mark.parametrize(
    "text, what",
    [
        ("Hand 7: if Bishop, discard", "discard"),
        ("Hand 7: if Bishop, keep", "keep"),
        ("7: if the Bishop hits me, discard", "discard"),
        ("hand 7 - IF BISHOP KEEP", "keep"),
    ],
)
def test_standing_bishop_order(text, what):
    o = six_one(text)
    assert (o.hand, o.card, o.standing) == (7, None, what)
    assert o.canonical() == f"Hand 7: if Bishop, {what}"


# Written as a sentence, the standing order was read as a play of the Bishop (its holder's):
# "Hand 2: If someone plays a Bishop on me, I discard" played the Bishop on a random player
# (found playing a Premium game through as its players write).
@pytest.mark.parametrize(
    "text, what",
    [
        ("Hand 7: If someone plays a Bishop on me, I discard", "discard"),
        ("Hand 7: when I am hit by a Bishop I keep my card", "keep"),
        ("Hand 7: If anyone uses the Bishop on me: keep", "keep"),
        ("Hand 7: if they play their Bishop against me, discard please", "discard"),
    ],
)
def test_a_standing_bishop_order_written_as_a_sentence(text, what):
    o = six_one(text)
    assert (o.hand, o.card, o.standing) == (7, None, what)


@pytest.mark.parametrize(
    "text",
    [
        "Hand 7: if possible, Bishop on Charles, guess 6, and keep the King",  # a play, after a comma
        "Hand 7: if Charles is open, play the Bishop on him, guess 6. Keep the Count",
        "Hand 7: if Charles is open play the Bishop on him, guess 6 and keep the Count",
        "Hand 7: if Charles is open play the Bishop on him, guess 6 and keep me posted",  # "me" after
    ],
)
def test_a_play_of_the_bishop_under_a_condition_is_no_standing_order(text):
    assert six_one(text).standing is None


def test_standing_order_is_accepted_from_any_player_in_the_hand():
    game = premium_game()
    checked = check6("Hand 1: if Bishop, discard", game, "Charles")
    assert checked.status == ACCEPTED and "discard" in checked.note and checked.order is None
    game.hand(1).alive[2] = False
    assert check6("Hand 1: if Bishop, discard", game, "Charles").status == REJECTED


def test_standing_order_is_refused_in_a_classic_game():
    game = Game.new(3, {n: shuffled_deck("c", n) for n in range(1, 14)})
    checked = check_order(one("Hand 1: if Bishop, discard"), game, PLAYERS, "Arthur")
    assert checked.status == REJECTED and "Premium" in checked.reason


@pytest.mark.parametrize("guess, word", [(None, "no number"), (1, "may not name 1"), (12, "0 to 9")])
def test_premium_guard_guess_completed(guess, word):
    game = premium_game({0: [G, S]})
    text = "Hand 1: Guard on Bruno" + (f", guess {guess}" if guess is not None else "")
    checked = check6(text, game)
    assert checked.status == COMPLETED and word in checked.reason and checked.order.guess is None


def test_cardinal_acknowledgement_says_who_trades_and_whom_you_look_at():
    game = premium_game({0: [PR.CARDINAL, G]})
    checked = check6("Hand 1: Cardinal on Charles and Didier, look at Didier", game)
    assert checked.status == ACCEPTED
    assert "Charles and Didier will trade hands; you will look at Didier's new card" in checked.note
    assert checked.order == (PR.CARDINAL, 2, None, 3, 3)
    checked = check6("Hand 1: Cardinal on myself and Didier", game)
    assert "You and Didier will trade hands; you will look at Didier's new card" in checked.note


def test_cardinal_completed_when_a_player_is_missing_or_named_twice():
    game = premium_game({0: [PR.CARDINAL, G]})
    assert "second player" in check6("Hand 1: Cardinal on Charles", game).reason
    assert "named twice" in check6("Hand 1: Cardinal on Charles and Charles", game).reason


def test_cardinal_redirected_from_a_protected_player_in_the_acknowledgement():
    game = premium_game({0: [PR.CARDINAL, G]})
    game.hand(1).protected[2] = True
    checked = check6("Hand 1: Cardinal on Charles and Didier", game)
    assert "Emma and Didier will trade hands; you will look at Emma's new card" in checked.note


def test_baroness_on_yourself_is_completed():
    game = premium_game({0: [PR.BARONESS, G]})
    checked = check6("Hand 1: Baroness on myself", game)
    assert checked.status == COMPLETED and "not yours" in checked.reason
    assert (
        check6("Hand 1: Baroness on Bruno and Emma", game).note
        == "you will look at the cards of Bruno and Emma"
    )


def test_a_marked_player_must_be_chosen_and_the_order_says_so():
    game = premium_game({0: [G, S]})
    game.hand(1).marked = 3
    checked = check6("Hand 1: Guard on Bruno, guess 4", game)
    assert checked.status == COMPLETED and "marked Didier" in checked.reason
    assert check6("Hand 1: Guard on Didier, guess 4", game).status == ACCEPTED


def test_the_marked_players_own_guard_is_accepted_and_warned():
    game = premium_game({0: [G, S]})
    game.hand(1).marked = 0
    checked = check6("Hand 1: Guard on Bruno, guess 4", game)
    assert checked.status == ACCEPTED and "no effect" in checked.note


def test_a_mark_on_a_cardinal_takes_the_first_players_place():
    game = premium_game({0: [PR.CARDINAL, G]})
    game.hand(1).marked = 4
    checked = check6("Hand 1: Cardinal on Charles and Didier", game)
    assert checked.status == COMPLETED and "in place of Charles" in checked.reason
    assert check6("Hand 1: Cardinal on Charles and Emma", game).status == ACCEPTED


def test_a_guard_redirected_onto_the_assassin_says_where_it_goes():
    game = premium_game({0: [G, S], 1: [H], 2: [PR.ASSASSIN]})
    game.hand(1).protected[1] = True
    checked = check6("Hand 1: Guard on Bruno, guess 3", game)
    assert "will go to Charles" in checked.note


@pytest.mark.parametrize(
    "text, guess",
    [
        ("0:\u00b2", None),
        (
            "Hand 3: Guard on Bruno, guess \u00b2",
            S,
        ),  # compatibility folding (NFKD) reads a superscript 2 as 2
        ("3: \uff13", None),  # a fullwidth 3 alone: a rank, but no card played
        ("Hand 3: Guard on Bruno, guess \u0663", None),  # an Arabic-Indic 3 stays a non-ASCII digit
        ("Hand 3: Guard on Bruno, guess \U00010a40", None),  # isdigit() is true, int() raises
    ],
)
def test_unicode_digits_are_no_crash(text, guess):
    """'\U00010a40'.isdigit() is true but int() raises: a hostile reply once crashed the inbox.
    Only ASCII digits name a rank; the accent-blind folding of names and words (NFKD) first turns
    compatibility digits ("\u00b2", "\uff13") into ASCII ones."""
    parsed = parse_orders(text, ["Arthur", "Bruno"], "Arthur")
    assert all(order.guess == guess for order in parsed.orders)


@pytest.mark.parametrize("digit, number", [("²", 2), ("３", 3), ("٣", None), ("\U00010a40", None)])
def test_a_unicode_digit_in_a_premium_guess_is_no_crash(digit, number):
    o = six_one(f"Hand 3: Guard on Charles, guess {digit}")
    assert o.card == G and o.target == "Charles" and o.guess == number


# == the order forms through `pbem order` (INTERFACE.md "Order lines"): accepted, completed, rejected ==

_line = kit.ack_line  # the acknowledgement's line for a hand and status
_o = kit.exported_order  # an order as `pbem export` shows it


@pytest.fixture(scope="module")
def forms_game(tmp_path_factory, cli):
    """A started campaign shared by the order-form tests (each test reads back
    the order it just wrote, so their order does not matter)."""
    folder = tmp_path_factory.mktemp("forms") / "game"
    kit.write_config(folder, kit.order_config())
    cli.ok("start", folder)
    return folder


def test_order_campaign_deals_what_the_forms_need(cli, forms_game):
    hands = cli.export(forms_game)["hands"]
    assert hands[2]["active"] == "Bruno" and hands[2]["players"]["Bruno"]["cards"] == ["Guard", "Prince"]
    assert hands[4]["active"] == "Charles" and hands[4]["players"]["Charles"]["cards"] == ["Prince", "Guard"]
    assert hands[6]["active"] == "Arthur" and hands[6]["players"]["Arthur"]["cards"] == [
        "Countess",
        "Handmaid",
    ]


ACCEPTED_FORMS = [
    # INTERFACE.md, "Order lines", verbatim
    ("Bruno", "Hand 3: Guard on Charles, guess Prince", 3, _o("Guard", "Charles", "Prince")),
    ("Bruno", "H3 Guard Charles Prince", 3, _o("Guard", "Charles", "Prince")),
    ("Bruno", "3: guard charles prince", 3, _o("Guard", "Charles", "Prince")),
    (
        "Bruno",
        "Hand 3 - play the Guard on Charles and guess that he has a Prince",
        3,
        _o("Guard", "Charles", "Prince"),
    ),
    ("Bruno", "hand 3: guard -> charles (prince)", 3, _o("Guard", "Charles", "Prince")),
    ("Bruno", "Hand 3: Guard on Charles, guess 5", 3, _o("Guard", "Charles", "Prince")),
    ("Charles", "Hand 5: Prince on myself", 5, _o("Prince", "Charles")),
    ("Arthur", "Hand 7: Countess", 7, _o("Countess")),
    # "me", "myself", "self", or the player's own name
    ("Charles", "Hand 5: Prince on me", 5, _o("Prince", "Charles")),
    ("Charles", "Hand 5: Prince on self", 5, _o("Prince", "Charles")),
    ("Charles", "Hand 5: Prince on Charles", 5, _o("Prince", "Charles")),
    ("Charles", "hand 5: prince on CHARLES", 5, _o("Prince", "Charles")),
    ("Charles", "Hand 5: Prince on Arthur", 5, _o("Prince", "Arthur")),
    # player names in any case, or by a prefix naming one player only
    ("Bruno", "Hand 3: Guard on CHARLES, guess PRINCE", 3, _o("Guard", "Charles", "Prince")),
    ("Bruno", "Hand 3: Guard on cha, guess Princess", 3, _o("Guard", "Charles", "Princess")),
    ("Bruno", "Hand 3: Guard on Art, guess King", 3, _o("Guard", "Arthur", "King")),
    ("Bruno", "Hand 3: Guard on arthur, guess 8", 3, _o("Guard", "Arthur", "Princess")),
    ("Bruno", "Hand 3: Guard on Arthur, guess 2", 3, _o("Guard", "Arthur", "Spy")),
    # every alias of RULES.md section 1
    ("Bruno", "Hand 3: Guard on Arthur, guess Priest", 3, _o("Guard", "Arthur", "Spy")),
    ("Bruno", "Hand 3: Guard on Arthur, guess Courtier", 3, _o("Guard", "Arthur", "Spy")),
    ("Bruno", "Hand 3: Guard on Arthur, guess Diplomat", 3, _o("Guard", "Arthur", "Baron")),
    ("Bruno", "Hand 3: Guard on Arthur, guess Shugenja", 3, _o("Guard", "Arthur", "Handmaid")),
    ("Bruno", "Hand 3: Guard on Arthur, guess Manipulator", 3, _o("Guard", "Arthur", "King")),
    ("Bruno", "Hand 3: Guard on Arthur, guess Sensei", 3, _o("Guard", "Arthur", "Countess")),
    ("Bruno", "Hand 3: Hatamoto on me", 3, _o("Prince", "Bruno")),
    ("Charles", "Hand 5: Hatamoto on myself", 5, _o("Prince", "Charles")),
    ("Arthur", "Hand 7: Sensei", 7, _o("Countess")),
    ("Arthur", "hand 7: countess", 7, _o("Countess")),
    ("Arthur", "Hand 7: Handmaid", 7, _o("Handmaid")),
    ("Arthur", "Hand 7: Shugenja", 7, _o("Handmaid")),
    ("Bruno", "Hand 6: Spy on Arthur", 6, _o("Spy", "Arthur")),
    ("Bruno", "Hand 6: Priest on Arthur", 6, _o("Spy", "Arthur")),
    ("Bruno", "Hand 6: Courtier on arthur", 6, _o("Spy", "Arthur")),
    ("Bruno", "Hand 6: Baron on Charles", 6, _o("Baron", "Charles")),
    ("Bruno", "Hand 6: Diplomat on Charles", 6, _o("Baron", "Charles")),
    ("Bruno", "Hand 9: King on Arthur", 9, _o("King", "Arthur")),
    ("Bruno", "Hand 9: Manipulator on Charles", 9, _o("King", "Charles")),
    ("Bruno", "Hand 9: Princess", 9, _o("Princess")),  # legal, and fatal
    ("Bruno", "Hand 12: Countess", 12, _o("Countess")),
    # ranks name cards
    ("Arthur", "Hand 7: 7", 7, _o("Countess")),
    ("Arthur", "Hand 1: Guard on Bruno, guess Baron", 1, _o("Guard", "Bruno", "Baron")),
]


def _canonical(hand, o):
    text = f"Hand {hand}: {o['card']}"
    if o["target"]:
        text += f" on {o['target']}"
    if o["guess"]:
        text += f", guess {o['guess']}"
    return text


@pytest.mark.parametrize(
    "player, text, hand, expected", ACCEPTED_FORMS, ids=[f"{p}:{t}" for p, t, _, _ in ACCEPTED_FORMS]
)
def test_order_forms_are_accepted(cli, forms_game, player, text, hand, expected):
    result = cli.ok("order", forms_game, "--player", player, text)
    assert _line(result.output, hand, "accepted"), result.output
    assert _line(result.output, hand, "rejected") is None, result.output
    assert _canonical(hand, expected) in result.output, (
        f"the acknowledgement should echo the canonical form {_canonical(hand, expected)!r}:\n{result.output}"
    )
    orders = cli.export(forms_game)["orders"]
    assert orders[player][str(hand)] == expected


COMPLETED_FORMS = [
    ("Bruno", "Hand 3: Guard", 3, _o("Guard", status="completed")),
    ("Bruno", "Hand 3: Guard on Charles", 3, _o("Guard", "Charles", status="completed")),
    ("Bruno", "Hand 3: Guard on Charles, guess Guard", 3, _o("Guard", "Charles", status="completed")),
    ("Bruno", "Hand 3: Guard on Charles, guess 1", 3, _o("Guard", "Charles", status="completed")),
    ("Bruno", "Hand 3: Guard on Zelda, guess Prince", 3, _o("Guard", None, "Prince", "completed")),
    ("Bruno", "Hand 3: Guard on myself, guess Prince", 3, _o("Guard", None, "Prince", "completed")),
    ("Bruno", "Hand 3: Guard on Bruno, guess Prince", 3, _o("Guard", None, "Prince", "completed")),
    ("Bruno", "Hand 3: Prince", 3, _o("Prince", status="completed")),
    ("Bruno", "Hand 6: Spy", 6, _o("Spy", status="completed")),
    ("Bruno", "Hand 6: Baron on me", 6, _o("Baron", status="completed")),
    ("Bruno", "Hand 9: King on Nobody", 9, _o("King", status="completed")),
]


@pytest.mark.parametrize(
    "player, text, hand, expected", COMPLETED_FORMS, ids=[f"{p}:{t}" for p, t, _, _ in COMPLETED_FORMS]
)
def test_order_forms_are_completed(cli, forms_game, player, text, hand, expected):
    result = cli.ok("order", forms_game, "--player", player, text)
    line = _line(result.output, hand, "completed")
    assert line, result.output
    assert "random" in result.output.lower(), (
        f"the player must be told what will be filled in:\n{result.output}"
    )
    orders = cli.export(forms_game)["orders"]
    assert orders[player][str(hand)] == expected


REJECTED_FORMS = [
    ("Bruno", "Hand 14: Guard on Charles, guess Prince", 14, "14"),
    ("Bruno", "Hand 0: Guard on Charles, guess Prince", 0, "0"),
    ("Bruno", "Hand 1: Guard on Charles, guess Prince", 1, "turn"),  # Arthur is active there
    ("Bruno", "Hand 3: King on Charles", 3, "hold"),  # not held
    ("Bruno", "Hand 3: Princess", 3, "hold"),
    ("Bruno", "Hand 12: Prince on Arthur", 12, "Countess"),  # the Countess rule
    ("Bruno", "Hand 9: Countess", 9, "hold"),
    ("Bruno", "Hand 3: on Charles", 3, "card"),  # no card named
    ("Arthur", "Hand 3: Guard on Charles, guess Prince", 3, "turn"),
]


@pytest.mark.parametrize(
    "player, text, hand, word", REJECTED_FORMS, ids=[f"{p}:{t}" for p, t, _, _ in REJECTED_FORMS]
)
def test_order_rejected_with_reason_and_not_exported(cli, forms_game, player, text, hand, word):
    before = cli.export(forms_game)
    result = cli("order", forms_game, "--player", player, text)
    assert result.exit_code == 1, result.output  # nothing was recorded (issue 11: it used to exit 0)
    line = _line(result.output, hand, "rejected")
    assert line, result.output
    assert word.lower() in line.lower(), f"the reason should mention {word!r}: {line!r}"
    after = cli.export(forms_game)
    assert after == before, "a rejected order must not change the orders on file"
