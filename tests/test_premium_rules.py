"""Every rule of RULES.md section 10 (the Premium deck, 5 to 8 players), with
exact 32-card decks and orders, through the engine (play_turn, resolve_turn),
card by card in 10.3: each card's rule first, then the rules lawyer's cases
(every sentence of RULES 3-5, 7 and 10 that decides something, written from the
rules alone); then the orders and the export of a Premium game through the
command line. Decks from tests/builders.py: seat s is dealt held[s]; seat 0 is
first in hand 1 and holds held[0] and ``draw``."""

from __future__ import annotations

import random
from collections import Counter

import kit
import pytest
from rulekit import (
    ASSASSIN,
    BARON,
    BARONESS,
    BISHOP,
    CARDINAL,
    CONSTABLE,
    COUNT,
    COUNTESS,
    DOWAGER_QUEEN,
    GUARD,
    HANDMAID,
    JESTER,
    KING,
    PRINCE,
    PRINCESS,
    SPY,
    SYCOPHANT,
    deck,
    kinds,
    knock_out,
    of,
    only,
    play,
    premium_game,
    premium_titles,
    public_cards,
    rng,
    six,
    uses,
)

from pbem import events as ev
from pbem.cards import PREMIUM_DECK, RANK, Card, card_named
from pbem.engine import (
    Game,
    Hand,
    Order,
    check_deck,
    default_card,
    game_winners,
    hand_values,
    play_turn,
    random_number,
    resolve_turn,
    shuffled_deck,
    tokens_to_win,
)

# -- 10.1 the deck -------------------------------------------------------------------------------------


def test_the_premium_deck_is_the_32_cards_of_rules_10_1():
    counts = Counter(PREMIUM_DECK)
    assert len(PREMIUM_DECK) == 32
    assert counts == {
        ASSASSIN: 1,
        JESTER: 1,
        GUARD: 8,
        SPY: 2,
        CARDINAL: 2,
        BARON: 2,
        BARONESS: 2,
        HANDMAID: 2,
        SYCOPHANT: 2,
        PRINCE: 2,
        COUNT: 2,
        KING: 1,
        CONSTABLE: 1,
        COUNTESS: 1,
        DOWAGER_QUEEN: 1,
        PRINCESS: 1,
        BISHOP: 1,
    }
    assert {
        c: RANK[c]
        for c in (ASSASSIN, JESTER, CARDINAL, BARONESS, SYCOPHANT, COUNT, CONSTABLE, DOWAGER_QUEEN, BISHOP)
    } == {
        ASSASSIN: 0,
        JESTER: 0,
        CARDINAL: 2,
        BARONESS: 3,
        SYCOPHANT: 4,
        COUNT: 5,
        CONSTABLE: 6,
        DOWAGER_QUEEN: 7,
        BISHOP: 9,
    }


@pytest.mark.parametrize(
    "name, card",
    [
        ("Count", COUNT),
        ("countess", COUNTESS),
        ("Baron", BARON),
        ("BARONESS", BARONESS),
        ("Dowager Queen", DOWAGER_QUEEN),
        ("dowager", DOWAGER_QUEEN),
        ("Queen", DOWAGER_QUEEN),
        ("Constable", CONSTABLE),
        ("bishop", BISHOP),
        ("assassin", ASSASSIN),
        ("Jester", JESTER),
        ("cardinal", CARDINAL),
        ("Sycophant", SYCOPHANT),
    ],
)
def test_every_premium_name_and_alias_reads_as_its_card(name, card):
    assert card_named(name) is card
    assert Card[card.name].title == card.title


def test_titles_are_the_canonical_names():
    assert DOWAGER_QUEEN.title == "Dowager Queen" and str(CONSTABLE) == "Constable"


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_premium_deal_follows_deck_order(players):
    cards = list(shuffled_deck("prem", 3, players))
    assert sorted(cards) == sorted(PREMIUM_DECK)
    h = Hand.deal(3, cards, players)
    first = 2 % players
    assert h.premium and h.set_aside == cards[0] and h.face_up == ()
    for i in range(players):
        assert h.cards[(first + i) % players][0] == cards[1 + i]
    assert h.cards[first] == [cards[1], cards[1 + players]]
    assert list(reversed(h.pile)) == cards[2 + players :] and len(h.pile) == 30 - players


def test_a_premium_hand_needs_the_32_cards():
    with pytest.raises(ValueError, match="32"):
        check_deck(tuple(PREMIUM_DECK[:-1]), 6)
    with pytest.raises(ValueError, match="32"):
        check_deck(tuple(PREMIUM_DECK[1:]) + (GUARD,), 6)


@pytest.mark.parametrize("players", [5, 8])
def test_a_premium_hand_lasts_at_most_31_minus_n_turns(players):
    longest = 0
    for seed in range(60):
        h = Hand.deal(1, shuffled_deck(str(seed), 1, players), players)
        r = random.Random(seed)
        turns = 0
        while not h.ended:
            play_turn(h, None, r, [])
            turns += 1
            assert sorted(h.cards_accounted()) == sorted(PREMIUM_DECK)
        longest = max(longest, turns)
    assert longest <= 31 - players


def test_four_tokens_win_with_five_to_eight_players():
    assert [tokens_to_win(n) for n in (5, 6, 7, 8)] == [4, 4, 4, 4]


def test_premium_hand_has_a_pile_of_30_minus_n():
    for n in (5, 6, 7, 8):
        h = Hand.deal(1, shuffled_deck("p", 1, n), n)
        assert len(h.pile) == 30 - n and sorted(h.cards_accounted()) == sorted(PREMIUM_DECK)


# -- 10.2 numbers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "held, guess",
    [
        (HANDMAID, 4),
        (SYCOPHANT, 4),
        (SPY, 2),
        (CARDINAL, 2),
        (JESTER, 0),
        (BISHOP, 9),
        (COUNT, 5),
        (DOWAGER_QUEEN, 7),
    ],
)
@uses(GUARD)
def test_a_number_hits_every_card_of_that_rank(held, guess):
    h = six({1: held}, draw=SPY if held != SPY else BARON)
    events = play(h, Order(GUARD, 1, guess))
    assert only(events, "guard").hit and not h.alive[1]


@uses(GUARD)
def test_a_number_that_misses():
    h = six({1: SYCOPHANT}, draw=SPY)
    assert not only(play(h, Order(GUARD, 1, 5)), "guard").hit and h.alive[1]


@pytest.mark.parametrize("guess", [None, 1])
@uses(GUARD)
def test_a_missing_guess_or_a_guess_of_one_is_drawn_from_the_premium_pack(guess):
    seen = Counter()
    for seed in range(300):
        h = six({1: KING}, draw=SPY)
        played = only(play(h, Order(GUARD, 1, guess), seed), "played")
        assert played.random_guess and isinstance(played.guess, int)
        seen[played.guess] += 1
    assert set(seen) <= {0, 2, 3, 4, 5, 6, 7, 8, 9} and 1 not in seen


def test_the_premium_default_guess_follows_the_32_card_pack():
    r = random.Random(99)
    n = 48_000
    counts = Counter(random_number(r) for _ in range(n))
    expected = {0: 2, 2: 4, 3: 4, 4: 4, 5: 4, 6: 2, 7: 2, 8: 1, 9: 1}
    assert set(counts) == set(expected)
    for number, k in expected.items():
        assert abs(counts[number] / n - k / 24) < 0.01, number


@pytest.mark.parametrize("number", [0, 2, 3, 4, 5, 6, 7, 8, 9])
@uses(GUARD)
def test_every_number_0_and_2_to_9_is_a_valid_guess(number):
    card = {
        0: JESTER,
        2: CARDINAL,
        3: BARONESS,
        4: SYCOPHANT,
        5: COUNT,
        6: CONSTABLE,
        7: DOWAGER_QUEEN,
        8: PRINCESS,
        9: BISHOP,
    }[number]
    h = six({1: card}, draw=GUARD)
    events = play(h, Order(GUARD, 1, number))
    played = only(events, "played")
    assert played.guess == number and not played.random_guess
    assert only(events, "guard").hit and not h.alive[1]


def test_guess_one_and_guess_guard_are_completed():
    h = six({1: GUARD}, draw=GUARD)
    played = only(play(h, Order(GUARD, 1, 1)), "played")
    assert played.random_guess and played.guess in {0, 2, 3, 4, 5, 6, 7, 8, 9}
    assert h.alive[1]  # no number can name the Guard


@uses(GUARD)
def test_the_default_guess_follows_the_32_card_pack_through_play():
    expected = {0: 2, 2: 4, 3: 4, 4: 4, 5: 4, 6: 2, 7: 2, 8: 1, 9: 1}
    n = 2400
    seen: Counter = Counter()
    for seed in range(n):
        h = six({1: KING}, draw=GUARD)
        seen[only(play(h, Order(GUARD, 1, None), seed), "played").guess] += 1
    assert set(seen) == set(expected)
    for number, k in expected.items():
        p = k / 24
        sigma = (n * p * (1 - p)) ** 0.5
        assert abs(seen[number] - n * p) < 5 * sigma, (number, seen)


# == 10.3 the new cards, one by one ===----------------------------------------------------------------------


# -- the Assassin ----------------------------------------------------------------------------------


def test_assassin_a_guard_on_it_knocks_out_the_guards_player():
    h = six({1: ASSASSIN}, draw=KING, pile=[SPY, BARON])
    events = play(h, Order(GUARD, 1, 3))
    assert kinds(events)[:3] == ["played", "assassin", "eliminated"]
    assert not h.alive[0] and h.discards[0] == [GUARD, KING]
    assert h.alive[1] and h.discards[1] == [ASSASSIN] and h.cards[1][0] == SPY  # drew the top of the pile
    drew = only(events, "card_drew")
    assert (drew.seat, drew.card, drew.cause, drew.audience) == (1, SPY, ASSASSIN, (1,))
    public = ev.public(events)
    assert SPY not in [v for e in public for v in e if isinstance(v, Card)]


@uses(GUARD)
def test_assassin_whatever_number_is_named():
    for guess in (0, 4, None):
        h = six({1: ASSASSIN}, draw=KING)
        play(h, Order(GUARD, 1, guess))
        assert not h.alive[0] and h.alive[1]


@uses(GUARD)
def test_assassin_with_an_empty_pile_draws_the_set_aside_card():
    h = six({1: ASSASSIN}, draw=KING, set_aside=PRINCESS)
    h.pile.clear()
    events = play(h, Order(GUARD, 1, 2))
    assert h.cards[1] == [PRINCESS] and h.set_aside is None
    assert only(events, "card_drew").card == PRINCESS and h.ended


@uses(GUARD)
def test_assassin_draws_even_when_the_knock_out_ends_the_hand():
    h = six({1: ASSASSIN}, draw=KING, pile=[SPY])
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    events = play(h, Order(GUARD, 1, 5))
    assert h.ended and h.winners == (1,) and h.cards[1] == [SPY]
    assert kinds(events)[-1] == "ended"


def test_assassin_catches_a_guard_redirected_to_its_holder():
    h = six({1: HANDMAID, 2: ASSASSIN}, draw=KING)
    h.protected[1] = True
    events = play(h, Order(GUARD, 1, 4))
    assert only(events, "played").recipient == 2
    assert not h.alive[0] and h.alive[2] and h.discards[2] == [ASSASSIN]


def test_assassin_played_has_no_effect():
    h = six({1: KING}, draw=ASSASSIN)
    assert kinds(play(h, Order(ASSASSIN))) == ["played"]


def test_a_bishop_ignores_the_assassin():
    h = six({1: ASSASSIN}, draw=BISHOP)
    events = play(h, Order(BISHOP, 1, 0))
    assert only(events, "bishop").hit and h.alive[0] and h.bonus == [(0, BISHOP)]


def test_assassin_guard_aimed_directly_knocks_out_the_guards_player_and_the_holder_draws():
    h = six({2: ASSASSIN}, draw=GUARD, pile=[DOWAGER_QUEEN, SPY])
    h.cards[0] = [GUARD, COUNT]
    events = play(h, Order(GUARD, 2, 7))
    assert not h.alive[0] and h.discards[0] == [GUARD, COUNT]
    assert h.alive[2] and h.discards[2] == [ASSASSIN] and h.cards[2] == [DOWAGER_QUEEN]
    assert DOWAGER_QUEEN not in public_cards(events)  # all public except the card drawn
    assert only(events, "assassin") in ev.public(events)  # the Assassin is revealed
    assert h.active == 1  # play goes on to the next player still in


def test_assassin_guard_redirected_to_the_holder_by_a_handmaid():
    h = six({1: HANDMAID, 2: HANDMAID, 3: ASSASSIN}, draw=GUARD)
    h.protected[1] = h.protected[2] = True
    events = play(h, Order(GUARD, 1, 4))
    assert only(events, "played").recipient == 3
    assert not h.alive[0] and h.alive[3] and h.discards[3] == [ASSASSIN]


def test_assassin_guard_redirected_by_the_sycophants_mark_to_the_holder():
    h = six({1: GUARD, 3: ASSASSIN}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 3))
    h.cards[1] = [GUARD, KING]
    play(
        h, Order(GUARD, 2, 6)
    )  # seat 1 names seat 2: completed onto the marked seat 3, who holds the Assassin
    assert not h.alive[1] and h.alive[3] and h.discards[3] == [ASSASSIN]


def test_assassin_protected_holder_is_not_reached_and_nothing_happens_to_the_guard():
    h = six({1: ASSASSIN, 2: KING}, draw=GUARD)
    h.protected[1] = True
    events = play(h, Order(GUARD, 1, 6))
    assert only(events, "played").recipient == 2 and not h.alive[2]  # the redirected Guard hits seat 2
    assert h.alive[0] and h.cards[1][0] == ASSASSIN


@uses(GUARD)
def test_assassin_with_an_empty_pile_draws_the_set_aside_card_unseen_by_the_table():
    h = six({4: ASSASSIN}, draw=GUARD, set_aside=CONSTABLE)
    h.pile.clear()
    events = play(h, Order(GUARD, 4, 3))
    assert not h.alive[0] and h.cards[4] == [CONSTABLE] and h.set_aside is None
    assert CONSTABLE not in public_cards(events)
    assert h.ended  # the pile was empty at the end of the turn


@uses(GUARD)
def test_assassin_knock_out_that_ends_the_hand_still_draws():
    h = six({1: ASSASSIN}, draw=GUARD, pile=[BISHOP, SPY])
    knock_out(h, 2, 3, 4, 5)
    events = play(h, Order(GUARD, 1, 9))
    assert h.ended and h.winners == (1,)
    assert h.discards[1] == [ASSASSIN] and h.cards[1] == [BISHOP]
    assert only(events, "ended").winners == (1,)


def test_assassin_knock_out_of_a_guard_player_with_a_constable_on_their_discards_gains_a_token():
    h = six({1: ASSASSIN}, draw=GUARD)
    h.discards[0] = [CONSTABLE]
    play(h, Order(GUARD, 1, 5))
    assert not h.alive[0] and (0, CONSTABLE) in h.bonus


def test_a_bishop_ignores_the_assassin_hit_on_zero_gains_a_token():
    h = six({1: ASSASSIN}, draw=BISHOP)
    events = play(h, Order(BISHOP, 1, 0))
    assert h.alive[0] and h.alive[1] and only(events, "bishop").hit and h.bonus == [(0, BISHOP)]
    assert h.cards[1][0] == ASSASSIN


def test_a_bishop_missing_an_assassin_holder_also_ignores_it():
    h = six({1: ASSASSIN}, draw=BISHOP)
    play(h, Order(BISHOP, 1, 5))
    assert all(h.alive) and h.bonus == []


# -- the Jester ------------------------------------------------------------------------------------


@uses(BARON, GUARD)
def test_jester_gains_a_token_when_the_named_player_wins_even_if_out_by_then():
    h = six({1: KING, 2: SPY}, draw=JESTER)
    for seat in (3, 4, 5):
        knock_out(h, seat)
    play(h, Order(JESTER, 1))
    assert h.jesters == [(0, 1)]
    h.cards[1] = [GUARD, BARON]
    play(h, Order(GUARD, 2, 2))  # seat 1 knocks out seat 2 (Spy)
    h.cards[0] = [BARON, GUARD]
    play(h, Order(BARON, 1))  # seat 0 keeps a Guard against seat 1's Baron: seat 0 is out
    assert h.ended and h.winners == (1,) and not h.alive[0]
    assert h.bonus == [(0, JESTER)]


@uses(BARON)
def test_jester_token_is_counted_with_the_hand_winners_at_the_end_of_the_turn():
    game = Game.new(6, {n: shuffled_deck("jest", n, 6) for n in range(1, 14)})
    h = game.hand(1)
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    h.jesters = [(4, 1)]
    h.cards[0] = [BARON, GUARD]
    h.cards[1] = [KING]
    new, events = resolve_turn(game, {1: Order(BARON, 1)}, "s")
    assert new.hand(1).winners == (1,)
    assert only(events, "tokens").won == ((1, 1),)
    assert only(events, "card_tokens").gained == ((4, 1, JESTER),)
    assert new.tokens == [0, 1, 0, 0, 1, 0]
    assert new.hand(1).bonus == []


def test_jester_no_token_when_the_named_player_loses():
    h = six({1: GUARD}, draw=JESTER)
    play(h, Order(JESTER, 1))
    h.bonus.clear()
    h.alive[1] = False
    h.pile.clear()
    h.jesters = [(0, 1)]
    h.cards[1] = []
    h.active = 2
    h.cards[2].append(GUARD)
    play(h, Order(GUARD, 3, 5))
    assert h.ended and 1 not in h.winners and h.bonus == []


def test_jester_redirected_from_a_protected_player():
    h = six({1: HANDMAID}, draw=JESTER)
    h.protected[1] = True
    play(h, Order(JESTER, 1))
    assert h.jesters == [(0, 2)]


def test_jester_on_oneself_is_completed_with_another_player():
    for seed in range(8):
        h = six({}, draw=JESTER)
        played = only(play(h, Order(JESTER, 0), seed), "played")
        assert played.random_target and played.recipient not in (0, None)
        assert h.jesters == [(0, played.recipient)]


@uses(BARON, PRINCESS)
def test_jester_no_token_when_the_named_player_is_knocked_out_and_another_wins():
    h = six({1: KING, 2: GUARD}, draw=JESTER)
    knock_out(h, 3, 4, 5)
    play(h, Order(JESTER, 2))
    assert h.jesters == [(0, 2)]
    h.cards[1] = [KING, GUARD]
    play(h, Order(GUARD, 2, 2))  # a Guard of 2 misses seat 2's Guard
    h.cards[2] = [GUARD, PRINCESS]
    play(h, Order(PRINCESS))  # seat 2 plays the Princess: out
    assert not h.alive[2] and not h.ended
    h.cards[0] = [GUARD, BARON]
    play(h, Order(BARON, 1))  # seat 0's Guard against seat 1's King: seat 0 out
    assert h.ended and h.winners == (1,) and h.bonus == []


@uses(PRINCESS)
def test_jester_player_knocked_out_still_gains_when_the_named_player_wins_at_the_end_of_the_turn():
    hand1 = deck(6, 1, {0: JESTER, 1: KING, 2: GUARD, 3: GUARD, 4: GUARD, 5: GUARD}, draw=PRINCESS)
    game = premium_game(hand1)
    h = game.hand(1)
    knock_out(h, 2, 3, 4, 5)
    h.jesters = [(0, 1)]  # seat 0 played the Jester on seat 1 earlier
    h.cards[0] = [PRINCESS, GUARD]
    new, events = resolve_turn(game, {1: Order(PRINCESS)}, "s")  # seat 0 plays the Princess: out, seat 1 wins
    assert new.hand(1).winners == (1,) and not new.hand(1).alive[0]
    assert new.tokens[:2] == [1, 1]
    assert [e for e in events if e.kind == "card_tokens"][0].gained == ((0, 1, JESTER),)


def test_jester_shared_win_gains_a_token_and_the_named_player_also_gets_theirs():
    game = premium_game(
        deck(6, 1, {0: GUARD, 1: KING, 2: CONSTABLE, 3: GUARD, 4: GUARD, 5: GUARD}, draw=HANDMAID)
    )
    h = game.hand(1)
    knock_out(h, 3, 4, 5)
    h.pile.clear()
    h.discards[1], h.discards[2] = [SPY], [CARDINAL]  # 2 and 2: a shared win
    h.jesters = [(3, 2)]
    new, events = resolve_turn(game, {1: Order(HANDMAID)}, "s")
    assert new.hand(1).winners == (1, 2)
    assert new.tokens[3] == 1 and new.tokens[1] == 1 and new.tokens[2] == 1


def test_jester_with_nowhere_to_go_has_no_effect():
    h = six({1: HANDMAID}, draw=JESTER)
    knock_out(h, 2, 3, 4, 5)
    h.protected[1] = True
    play(h, Order(JESTER, 1))
    assert h.jesters == []


# -- the Cardinal ----------------------------------------------------------------------------------


def test_cardinal_two_others_trade_and_the_player_looks_at_the_first_named():
    h = six({1: KING, 2: PRINCESS}, draw=CARDINAL)
    events = play(h, Order(CARDINAL, 1, None, 2))
    assert h.cards[1][0] == PRINCESS and h.cards[2] == [KING]  # seat 1, next, has drawn
    assert only(events, "chose").chosen == (1, 2)
    received = {e.seat: (e.other, e.card) for e in events if e.kind == "cardinal_received"}
    assert received == {1: (2, PRINCESS), 2: (1, KING)}
    saw = only(events, "cardinal_saw")
    assert (saw.seat, saw.other, saw.card, saw.audience) == (0, 1, PRINCESS, (0,))
    assert PRINCESS not in [v for e in ev.public(events) for v in e if isinstance(v, Card)]


def test_cardinal_look_named():
    h = six({1: KING, 2: PRINCESS}, draw=CARDINAL)
    saw = only(play(h, Order(CARDINAL, 1, None, 2, look=2)), "cardinal_saw")
    assert (saw.other, saw.card) == (2, KING)


def test_cardinal_with_yourself_looks_at_the_other_one():
    h = six({1: KING}, draw=CARDINAL)
    h.cards[0] = [CARDINAL, BISHOP]
    events = play(h, Order(CARDINAL, 0, None, 1))
    assert h.cards[0] == [KING] and h.cards[1][0] == BISHOP
    saw = only(events, "cardinal_saw")
    assert (saw.other, saw.card) == (1, BISHOP)


def test_cardinal_protected_player_is_replaced_never_by_the_other_one():
    h = six({1: KING, 2: HANDMAID, 3: PRINCESS}, draw=CARDINAL)
    h.protected[2] = True
    events = play(h, Order(CARDINAL, 2, None, 3))  # 2 is protected; next after 2 is 3 (the other): 4
    assert only(events, "chose").chosen == (4, 3)
    assert only(events, "played").redirected


def test_cardinal_with_fewer_than_two_valid_players_has_no_effect():
    h = six({1: KING}, draw=CARDINAL)
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    h.protected[1] = True
    before = [list(c) for c in h.cards]
    events = play(h, Order(CARDINAL, 1, None, 0))
    assert kinds(events) == ["played"]
    assert h.cards[1][0] == before[1][0]


def test_cardinal_between_two_others_default_look_is_the_first_named():
    h = six({3: KING, 4: DOWAGER_QUEEN}, draw=CARDINAL)
    events = play(h, Order(CARDINAL, 4, None, 3))
    assert h.cards[4] == [KING] and h.cards[3] == [DOWAGER_QUEEN]
    saw = only(events, "cardinal_saw")
    assert (saw.seat, saw.other, saw.card) == (0, 4, KING)
    assert KING not in public_cards(events) and DOWAGER_QUEEN not in public_cards(events)


def test_cardinal_with_yourself_named_second_default_look_is_the_other():
    h = six({2: DOWAGER_QUEEN}, draw=CARDINAL)
    h.cards[0] = [CARDINAL, COUNT]
    events = play(h, Order(CARDINAL, 2, None, 0))
    assert h.cards[0] == [DOWAGER_QUEEN] and h.cards[2] == [COUNT]
    saw = only(events, "cardinal_saw")
    assert (saw.other, saw.card) == (2, COUNT)


def test_cardinal_with_yourself_and_look_at_yourself():
    h = six({2: DOWAGER_QUEEN}, draw=CARDINAL)
    h.cards[0] = [CARDINAL, COUNT]
    saw = only(play(h, Order(CARDINAL, 0, None, 2, look=0)), "cardinal_saw")
    assert (saw.other, saw.card) == (0, DOWAGER_QUEEN)


def test_cardinal_both_named_protected_each_redirected_never_onto_the_others_recipient():
    h = six({1: HANDMAID, 2: HANDMAID}, draw=CARDINAL)
    h.protected[1] = h.protected[2] = True
    events = play(h, Order(CARDINAL, 1, None, 2))
    # first slot: after seat 1, skipping 2 (protected): seat 3; second: after 2, not 3: seat 4
    assert only(events, "chose").chosen == (3, 4)


def test_cardinal_second_slot_redirect_skips_the_first_slots_recipient():
    h = six({1: HANDMAID, 3: HANDMAID}, draw=CARDINAL)
    h.protected[1] = h.protected[3] = True
    knock_out(h, 2)
    events = play(h, Order(CARDINAL, 3, None, 1))
    # first slot (3): next in and unprotected after 3, not the other named (1): 4
    # second slot (1): next after 1 is 2 (out), 3 (protected), 4 (the first's recipient): 5
    assert only(events, "chose").chosen == (4, 5)


def test_cardinal_redirection_may_land_on_the_player():
    h = six({5: HANDMAID}, draw=CARDINAL)
    h.protected[5] = True
    events = play(h, Order(CARDINAL, 5, None, 1))
    assert only(events, "chose").chosen == (0, 1)


def test_cardinal_look_follows_a_redirected_slot():
    h = six({1: HANDMAID, 2: PRINCESS, 3: KING}, draw=CARDINAL)
    h.protected[1] = True
    saw = only(play(h, Order(CARDINAL, 1, None, 3, look=1)), "cardinal_saw")
    assert saw.other == 2 and saw.card == KING


def test_cardinal_with_fewer_than_two_valid_players_has_no_effect_even_counting_yourself():
    h = six({1: HANDMAID}, draw=CARDINAL)
    knock_out(h, 2, 3, 4, 5)
    h.protected[1] = True
    held = [list(c) for c in h.cards]
    events = play(h, Order(CARDINAL, 1, None, 0))  # seat 1 protected and no one else: only seat 0 is valid
    assert not of(events, "cardinal_received") and not of(events, "cardinal_saw")
    assert h.cards[1][0] == held[1][0]


def test_cardinal_private_results_reach_only_their_players():
    h = six({1: KING, 2: DOWAGER_QUEEN}, draw=CARDINAL)
    events = play(h, Order(CARDINAL, 1, None, 2))
    for e in of(events, "cardinal_received"):
        assert e.audience == (e.seat,)
    assert only(events, "cardinal_saw").audience == (0,)


# -- the Baroness ----------------------------------------------------------------------------------


def test_baroness_looks_at_one_or_two_players_privately():
    h = six({1: KING, 2: PRINCESS}, draw=BARONESS)
    events = play(h, Order(BARONESS, 1, None, 2))
    saws = {e.other: e.card for e in events if e.kind == "baroness_saw"}
    assert saws == {1: KING, 2: PRINCESS} and all(
        e.audience == (0,) for e in events if e.kind == "baroness_saw"
    )
    assert only(events, "chose").chosen == (1, 2)
    h = six({1: KING}, draw=BARONESS)
    events = play(h, Order(BARONESS, 1))
    assert [e.other for e in events if e.kind == "baroness_saw"] == [1]


def test_baroness_redirect_never_onto_the_other_player_named():
    h = six({1: HANDMAID, 2: KING}, draw=BARONESS)
    h.protected[1] = True
    events = play(h, Order(BARONESS, 1, None, 2))
    assert only(events, "chose").chosen == (3, 2)


def test_baroness_on_herself_is_completed_with_another_player():
    h = six({1: KING}, draw=BARONESS)
    played = only(play(h, Order(BARONESS, 0)), "played")
    assert played.random_target and played.recipient not in (0, None)


def test_baroness_one_player():
    h = six({3: DOWAGER_QUEEN}, draw=BARONESS)
    events = play(h, Order(BARONESS, 3))
    assert [(e.seat, e.other, e.card) for e in of(events, "baroness_saw")] == [(0, 3, DOWAGER_QUEEN)]
    assert DOWAGER_QUEEN not in public_cards(events)


def test_baroness_second_redirect_never_onto_the_first_named():
    h = six({1: KING, 2: HANDMAID}, draw=BARONESS)
    h.protected[2] = True
    knock_out(h, 3)
    events = play(h, Order(BARONESS, 1, None, 2))  # 2 protected: after it 3 is out, 4 next
    assert only(events, "chose").chosen == (1, 4)


def test_baroness_a_look_with_nowhere_to_go_is_lost():
    h = six({1: HANDMAID, 2: DOWAGER_QUEEN}, draw=BARONESS)
    knock_out(h, 3, 4, 5)
    h.protected[1] = True
    events = play(h, Order(BARONESS, 1, None, 2))  # seat 1's look can go only to seat 2, already named
    assert [(e.other, e.card) for e in of(events, "baroness_saw")] == [(2, DOWAGER_QUEEN)]


def test_baroness_alone_with_a_protected_player_has_no_effect():
    h = six({1: HANDMAID}, draw=BARONESS)
    knock_out(h, 2, 3, 4, 5)
    h.protected[1] = True
    events = play(h, Order(BARONESS, 1))
    assert of(events, "baroness_saw") == []


# -- the Sycophant ---------------------------------------------------------------------------------


@uses(GUARD)
def test_sycophant_marks_and_the_next_play_must_choose_the_marked_player():
    h = six({1: GUARD, 2: KING}, draw=SYCOPHANT)
    events = play(h, Order(SYCOPHANT, 2))
    assert only(events, "marked").marked == 2 and h.marked == 2
    # Seat 1 plays a Guard on seat 3: completed onto seat 2, who holds the King (6).
    h.cards[1] = [GUARD, SPY]
    events = play(h, Order(GUARD, 3, 6))
    played = only(events, "played")
    assert played.target == 3 and played.recipient == 2
    follow = only(events, "mark_followed")
    assert (follow.marked, follow.named, follow.effect) == (2, (3,), True)
    assert not h.alive[2] and h.marked is None


@uses(GUARD)
def test_sycophant_marking_the_next_active_player_a_card_that_cannot_choose_oneself_has_no_effect():
    h = six({1: KING}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 1))
    h.cards[1] = [KING, GUARD]
    events = play(h, Order(GUARD, 3, 1))  # seat 1 is marked; a Guard cannot choose its own player
    assert only(events, "played").recipient is None
    assert only(events, "mark_followed").effect is False
    assert all(h.alive) and h.marked is None


def test_sycophant_marked_player_plays_a_prince_on_themselves():
    h = six({1: KING}, draw=SYCOPHANT, pile=[BARON, SPY])
    play(h, Order(SYCOPHANT, 1))
    h.cards[1] = [KING, PRINCE]
    events = play(h, Order(PRINCE, 3))
    assert only(events, "prince").recipient == 1


def test_the_mark_ends_with_the_next_play_even_a_handmaid():
    h = six({1: KING}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 3))
    h.cards[1] = [KING, HANDMAID]
    events = play(h, Order(HANDMAID))
    assert h.marked is None and "mark_followed" not in kinds(events)


@uses(GUARD, SYCOPHANT)
def test_a_mark_binds_a_default():
    for seed in range(10):
        h = six({1: KING, 2: GUARD}, draw=SYCOPHANT)
        play(h, Order(SYCOPHANT, 2))
        h.cards[1] = [GUARD, GUARD]
        played = only(play(h, None, seed), "played")
        assert played.recipient == 2


@uses(SYCOPHANT)
def test_mark_on_a_cardinal_replaces_the_first_named_unless_one_is_marked():
    h = six({1: KING, 2: GUARD}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 4))
    h.cards[1] = [KING, CARDINAL]
    events = play(h, Order(CARDINAL, 2, None, 3))
    assert only(events, "chose").chosen == (4, 3)
    h = six({1: KING, 2: GUARD}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 3))
    h.cards[1] = [KING, CARDINAL]
    events = play(h, Order(CARDINAL, 2, None, 3))
    assert only(events, "chose").chosen == (2, 3)


@uses(SYCOPHANT)
def test_mark_on_a_cardinal_the_look_follows_its_slot():
    h = six({1: KING, 2: GUARD, 3: PRINCESS, 4: BISHOP}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 4))
    h.cards[1] = [KING, CARDINAL]
    events = play(h, Order(CARDINAL, 2, None, 3, look=2))  # looks at the first slot: seat 4 took it
    saw = only(events, "cardinal_saw")
    assert saw.other == 4 and saw.card == PRINCESS


def test_sycophant_on_myself_and_redirection_like_a_prince():
    h = six({1: KING}, draw=SYCOPHANT)
    assert only(play(h, Order(SYCOPHANT, 0)), "marked").marked == 0
    h = six({}, draw=SYCOPHANT)
    for seat in (1, 2, 3, 4, 5):
        h.protected[seat] = True
    assert only(play(h, Order(SYCOPHANT, 3)), "marked").marked == 0


def test_sycophant_the_next_play_is_bound_whoever_plays_it_prince_onto_the_marked():
    h = six({1: PRINCE, 3: KING}, draw=SYCOPHANT, pile=[BARON, SPY, GUARD])
    play(h, Order(SYCOPHANT, 3))
    h.cards[1] = [PRINCE, GUARD]
    events = play(h, Order(PRINCE, 1))  # a Prince on oneself: completed onto the marked seat 3
    assert only(events, "prince").recipient == 3
    assert h.discards[3] == [KING]


def test_sycophant_mark_binds_a_baroness_naming_one_other():
    h = six({1: BARONESS, 4: DOWAGER_QUEEN}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 4))
    h.cards[1] = [BARONESS, GUARD]
    events = play(h, Order(BARONESS, 2))
    assert [(e.other, e.card) for e in of(events, "baroness_saw")] == [(4, DOWAGER_QUEEN)]


def test_sycophant_mark_on_a_baroness_that_names_the_marked_second_is_not_corrected():
    h = six({1: BARONESS, 4: DOWAGER_QUEEN, 2: COUNT}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 4))
    h.cards[1] = [BARONESS, GUARD]
    events = play(h, Order(BARONESS, 2, None, 4))
    assert only(events, "chose").chosen == (2, 4)


def test_sycophant_marked_player_playing_a_bishop_has_no_effect_and_the_mark_ends():
    h = six({1: KING, 3: CONSTABLE}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 1))
    h.cards[1] = [KING, BISHOP]
    events = play(h, Order(BISHOP, 3, 6))
    assert h.bonus == [] and h.marked is None and only(events, "played").recipient is None


def test_sycophant_marked_player_playing_a_cardinal_must_include_themselves():
    h = six({1: COUNT, 3: KING, 4: DOWAGER_QUEEN}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 1))
    h.cards[1] = [COUNT, CARDINAL]
    events = play(h, Order(CARDINAL, 3, None, 4))
    assert 1 in only(events, "chose").chosen and h.marked is None


@uses(GUARD)
def test_sycophant_mark_ends_with_a_countess_played_next():
    h = six({1: COUNTESS, 3: KING}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 3))
    h.cards[1] = [COUNTESS, GUARD]
    play(h, Order(COUNTESS))
    assert h.marked is None
    h.cards[2] = [GUARD, GUARD]
    events = play(h, Order(GUARD, 4, 6))
    assert only(events, "played").recipient == 4


def test_sycophant_followed_by_a_sycophant_marks_the_marked_player_again():
    h = six({1: SYCOPHANT, 3: KING}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 3))
    h.cards[1] = [SYCOPHANT, GUARD]
    play(h, Order(SYCOPHANT, 5))
    assert h.marked == 3


def test_sycophant_mark_binds_the_nmr_default_of_a_baroness():
    for seed in range(10):
        h = six({1: BARONESS, 4: DOWAGER_QUEEN}, draw=SYCOPHANT)
        play(h, Order(SYCOPHANT, 4))
        h.cards[1] = [BARONESS, BARONESS]
        events = play(h, None, seed)
        assert 4 in only(events, "chose").chosen


@uses(SYCOPHANT)
def test_the_mark_is_public():
    h = six({1: KING}, draw=SYCOPHANT)
    events = play(h, Order(SYCOPHANT, 2))
    assert only(events, "marked") in ev.public(events)


# -- the Count -------------------------------------------------------------------------------------


def test_count_adds_one_per_count_in_the_discards_at_the_end():
    h = six({1: KING, 2: COUNTESS}, draw=HANDMAID)
    for seat in (3, 4, 5):
        knock_out(h, seat)
    h.pile.clear()
    h.discards[1] = [COUNT, COUNT]  # King 6 + 2 = 8
    h.cards[0] = [HANDMAID, PRINCESS]  # seat 0 keeps the Princess (8)
    events = play(h, Order(HANDMAID))
    values = dict(only(events, "values").values)
    assert values == {0: 8, 1: 8, 2: 7}
    end = only(events, "ended")
    assert end.winners == (1,)  # tie on 8, discards: 10 against the Handmaid's 4


def test_counts_add_to_the_value_at_the_end_of_the_hand_only():
    h = six({1: COUNT, 2: KING}, draw=HANDMAID)
    knock_out(h, 3, 4, 5)
    h.pile.clear()
    h.discards[1] = [COUNT]  # Count 5 + 1 = 6: ties the King
    h.discards[2] = [GUARD]
    h.cards[0] = [HANDMAID, GUARD]
    events = play(h, Order(HANDMAID))
    values = dict(only(events, "values").values)
    assert values == {0: 1, 1: 6, 2: 6}
    assert only(events, "ended").winners == (1,)  # discard totals 5 against 1 (plain ranks)


def test_a_count_discarded_by_a_bishop_hit_still_counts():
    h = six({2: COUNT}, draw=BISHOP, pile=[SPY])
    h.bishop_discard[2] = True
    play(h, Order(BISHOP, 2, 5))
    assert h.discards[2] == [COUNT] and h.cards[2] == [SPY]
    assert hand_values(h)[2] == 3  # the Spy (2) and one Count


# -- the Princess and the Bishop at the end of the hand --------------------------------------------


def test_princess_beats_the_bishop_but_counts_can_overturn_it():
    h = six({1: BISHOP}, draw=HANDMAID)
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    h.pile.clear()
    h.cards[0] = [HANDMAID, PRINCESS]
    assert only(play(h, Order(HANDMAID)), "ended").winners == (0,)  # 9.5 against 9
    h = six({1: BISHOP}, draw=HANDMAID)
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    h.pile.clear()
    h.cards[0] = [HANDMAID, PRINCESS]
    h.discards[1] = [COUNT]
    events = play(h, Order(HANDMAID))
    assert dict(only(events, "values").values) == {0: 9.5, 1: 10}
    assert only(events, "ended").winners == (1,)


@uses(COUNT)
def test_a_bishop_held_by_a_third_player_lifts_the_princess():
    h = six({1: COUNTESS, 2: BISHOP}, draw=HANDMAID)
    for seat in (3, 4, 5):
        knock_out(h, seat)
    h.pile.clear()
    h.cards[0] = [HANDMAID, PRINCESS]
    h.discards[1] = [COUNT, COUNT]  # Countess 7 + 2 = 9
    h.discards[2] = [COUNT]  # Bishop 9 + 1 = 10
    h.cards[0] = [PRINCESS]
    assert hand_values(h) == {0: 9.5, 1: 9, 2: 10}


def test_princess_is_8_without_a_bishop_still_in():
    h = six({1: PRINCESS, 2: COUNT}, draw=HANDMAID)
    knock_out(h, 3, 4, 5)
    h.discards[0] = [BISHOP]  # the Bishop was played: no one holds it
    h.cards[0] = [COUNTESS]
    assert hand_values(h) == {0: 7, 1: 8, 2: 5}


def test_princess_with_counts_and_a_bishop_held():
    h = six({1: PRINCESS, 2: BISHOP}, draw=HANDMAID)
    knock_out(h, 3, 4, 5)
    h.discards[1] = [COUNT]
    h.cards[0] = [GUARD]
    assert hand_values(h) == {0: 1, 1: 10.5, 2: 9}


def test_a_bishop_held_by_a_player_out_of_the_hand_does_not_lift_the_princess():
    h = six({1: PRINCESS, 2: BISHOP}, draw=HANDMAID)
    knock_out(h, 2, 3, 4, 5)
    h.cards[0] = [GUARD]
    assert hand_values(h)[1] == 8


# -- the Constable ---------------------------------------------------------------------------------


@uses(PRINCESS)
def test_constable_knocked_out_with_it_on_the_discards_gains_a_token():
    h = six({1: GUARD}, draw=PRINCESS)
    h.discards[0] = [CONSTABLE]
    play(h, Order(PRINCESS))  # the player's own Princess
    assert not h.alive[0] and h.bonus == [(0, CONSTABLE)]


@uses(GUARD)
def test_constable_revealed_by_the_knock_out_gains_nothing():
    h = six({1: CONSTABLE}, draw=GUARD)
    play(h, Order(GUARD, 1, 6))
    assert not h.alive[1] and h.bonus == []


def test_constable_out_by_a_baron():
    h = six({1: PRINCESS}, draw=BARON)
    h.cards[0] = [BARON, GUARD]
    h.discards[0] = [CONSTABLE]
    play(h, Order(BARON, 1))
    assert not h.alive[0] and h.bonus == [(0, CONSTABLE)]


def test_constable_lost_at_the_end_of_the_hand_is_no_knock_out():
    h = six({1: KING, 2: GUARD}, draw=HANDMAID)
    knock_out(h, 3, 4, 5)
    h.pile.clear()
    h.discards[2] = [CONSTABLE]
    h.cards[0] = [HANDMAID, GUARD]
    play(h, Order(HANDMAID))
    assert h.ended and h.winners == (1,) and h.bonus == []


def test_constable_knocked_out_by_a_prince_discarding_the_princess():
    h = six({1: PRINCESS}, draw=PRINCE)
    h.discards[1] = [CONSTABLE]
    play(h, Order(PRINCE, 1))
    assert not h.alive[1] and h.bonus == [(1, CONSTABLE)]


def test_constable_knocked_out_by_a_guard_and_by_a_dowager_queen():
    h = six({1: KING}, draw=GUARD)
    h.discards[1] = [CONSTABLE]
    play(h, Order(GUARD, 1, 6))
    assert h.bonus == [(1, CONSTABLE)]
    h = six({1: PRINCESS}, draw=DOWAGER_QUEEN)
    h.cards[0] = [DOWAGER_QUEEN, GUARD]
    h.discards[1] = [CONSTABLE]
    play(h, Order(DOWAGER_QUEEN, 1))
    assert not h.alive[1] and h.bonus == [(1, CONSTABLE)]


def test_constable_knocked_out_by_a_bishops_discarded_princess():
    h = six({1: PRINCESS}, draw=BISHOP)
    h.discards[1] = [CONSTABLE]
    h.bishop_discard[1] = True
    play(h, Order(BISHOP, 1, 8))
    assert not h.alive[1] and sorted(h.bonus) == sorted([(0, BISHOP), (1, CONSTABLE)])


def test_constable_revealed_by_a_baron_knock_out_gains_nothing():
    h = six({1: CONSTABLE}, draw=BARON)
    h.cards[0] = [BARON, COUNTESS]
    play(h, Order(BARON, 1))
    assert not h.alive[1] and h.bonus == []


# -- the Dowager Queen -----------------------------------------------------------------------------


def test_dowager_queen_the_higher_card_is_out():
    h = six({1: PRINCESS}, draw=DOWAGER_QUEEN)
    h.cards[0] = [DOWAGER_QUEEN, GUARD]
    events = play(h, Order(DOWAGER_QUEEN, 1))
    assert only(events, "queen").loser == 1 and not h.alive[1]
    saws = {e.seat: (e.other, e.card) for e in events if e.kind == "queen_saw"}
    assert saws == {0: (1, PRINCESS), 1: (0, GUARD)}
    h = six({1: GUARD}, draw=DOWAGER_QUEEN)
    h.cards[0] = [DOWAGER_QUEEN, PRINCESS]
    assert only(play(h, Order(DOWAGER_QUEEN, 1)), "queen").loser == 0


@uses(BARON)
def test_dowager_queen_tie_and_plain_ranks():
    h = six({1: SYCOPHANT}, draw=DOWAGER_QUEEN)
    h.cards[0] = [DOWAGER_QUEEN, HANDMAID]  # 4 and 4
    assert only(play(h, Order(DOWAGER_QUEEN, 1)), "queen").loser is None
    h = six({1: BISHOP}, draw=BARON)
    h.cards[0] = [BARON, PRINCESS]  # the Baron compares plain ranks: Princess 8 < Bishop 9
    assert only(play(h, Order(BARON, 1)), "baron").loser == 0


def test_dowager_queen_the_bishop_is_higher_than_the_princess():
    h = six({1: PRINCESS}, draw=DOWAGER_QUEEN)
    h.cards[0] = [DOWAGER_QUEEN, BISHOP]
    events = play(h, Order(DOWAGER_QUEEN, 1))
    assert only(events, "queen").loser == 0 and not h.alive[0] and h.alive[1]


def test_dowager_queen_tie_on_rank_between_different_cards_does_nothing():
    h = six({1: KING}, draw=DOWAGER_QUEEN)
    h.cards[0] = [DOWAGER_QUEEN, CONSTABLE]
    events = play(h, Order(DOWAGER_QUEEN, 1))
    assert only(events, "queen").loser is None and all(h.alive)
    assert not [e for e in ev.public(events) if e.kind == "eliminated"]


# -- the Bishop ------------------------------------------------------------------------------------


def test_bishop_hit_gains_a_token_and_the_target_keeps_by_default():
    h = six({1: KING}, draw=BISHOP)
    events = play(h, Order(BISHOP, 1, 6))
    result = only(events, "bishop")
    assert result.hit and not result.discarded and h.cards[1][0] == KING and h.bonus == [(0, BISHOP)]


def test_bishop_hit_with_the_standing_discard_order():
    h = six({1: KING}, draw=BISHOP, pile=[SPY, BARON])
    h.bishop_discard[1] = True
    events = play(h, Order(BISHOP, 1, 6))
    result = only(events, "bishop")
    assert result.hit and result.discarded and result.card == KING
    assert h.discards[1] == [KING] and h.cards[1][0] == SPY
    assert only(events, "card_drew").audience == (1,)


def test_bishop_hit_on_the_princess_with_discard_knocks_out():
    h = six({1: PRINCESS}, draw=BISHOP)
    h.bishop_discard[1] = True
    events = play(h, Order(BISHOP, 1, 8))
    assert only(events, "bishop").card == PRINCESS and not h.alive[1] and h.bonus == [(0, BISHOP)]


def test_bishop_hit_on_the_princess_kept():
    h = six({1: PRINCESS}, draw=BISHOP)
    play(h, Order(BISHOP, 1, 8))
    assert h.alive[1] and h.cards[1][0] == PRINCESS


def test_bishop_miss():
    h = six({1: PRINCESS}, draw=BISHOP)
    h.bishop_discard[1] = True
    result = only(play(h, Order(BISHOP, 1, 7)), "bishop")
    assert not result.hit and not result.discarded and h.bonus == []


@pytest.mark.parametrize(
    "held, number",
    [
        (SPY, 2),
        (CARDINAL, 2),
        (BARON, 3),
        (BARONESS, 3),
        (PRINCE, 5),
        (COUNT, 5),
        (KING, 6),
        (CONSTABLE, 6),
        (ASSASSIN, 0),
        (JESTER, 0),
    ],
)
def test_bishop_number_hits_every_card_of_the_rank(held, number):
    h = six({2: held}, draw=BISHOP)
    assert only(play(h, Order(BISHOP, 2, number)), "bishop").hit and h.bonus == [(0, BISHOP)]


def test_bishop_discard_with_an_empty_pile_draws_the_set_aside_card():
    h = six({1: KING}, draw=BISHOP, set_aside=COUNT)
    h.pile.clear()
    h.bishop_discard[1] = True
    events = play(h, Order(BISHOP, 1, 6))
    assert h.cards[1] == [COUNT] and h.set_aside is None and h.discards[1] == [KING]
    assert COUNT not in public_cards(events)


def test_bishop_keep_is_public_and_the_card_stays_secret():
    h = six({1: DOWAGER_QUEEN}, draw=BISHOP)
    events = play(h, Order(BISHOP, 1, 7))
    assert only(events, "bishop").hit and h.cards[1][0] == DOWAGER_QUEEN
    assert only(events, "bishop").card is None and DOWAGER_QUEEN not in public_cards(events)


def test_bishop_on_oneself_or_a_guess_of_one_is_completed():
    h = six({1: KING}, draw=BISHOP)
    played = only(play(h, Order(BISHOP, 0, 6)), "played")
    assert played.random_target and played.recipient not in (0, None)
    h = six({1: KING}, draw=BISHOP)
    played = only(play(h, Order(BISHOP, 1, 1)), "played")
    assert played.random_guess and played.guess != 1


# -- standing orders -------------------------------------------------------------------------------


def test_standing_orders_reach_the_hand_and_stand():
    game = Game.new(6, {n: shuffled_deck("st", n, 6) for n in range(1, 14)})
    new, _ = resolve_turn(game, {}, "st", standing={3: {4: True}})
    assert new.hand(3).bishop_discard[4] and not new.hand(3).bishop_discard[3]
    newer, _ = resolve_turn(new, {}, "st")
    assert newer.hand(3).bishop_discard[4]
    again = Game.from_dict(newer.to_dict())
    assert again.hand(3).bishop_discard[4]
    undone, _ = resolve_turn(newer, {}, "st", standing={3: {4: False}})
    assert not undone.hand(3).bishop_discard[4]


@uses(BISHOP)
def test_standing_discard_order_counts_from_the_resolution_it_arrives_at():
    hand1 = deck(6, 1, {0: BISHOP, 1: KING, 2: GUARD, 3: GUARD, 4: GUARD, 5: GUARD}, draw=GUARD, pile=[SPY])
    game = premium_game(hand1)
    new, events = resolve_turn(game, {1: Order(BISHOP, 1, 6)}, "s", standing={1: {1: True}})
    result = [e for e in events if e.kind == "bishop" and e.hand == 1][0]
    assert result.hit and result.discarded and new.hand(1).cards[1][0] == SPY
    assert new.tokens[0] == 1


@uses(BISHOP)
def test_standing_keep_undoes_a_discard_order_at_that_resolution():
    hand1 = deck(6, 1, {0: BISHOP, 1: KING, 2: GUARD, 3: GUARD, 4: GUARD, 5: GUARD}, draw=GUARD, pile=[SPY])
    game = premium_game(hand1)
    game.hand(1).bishop_discard[1] = True
    new, events = resolve_turn(game, {1: Order(BISHOP, 1, 6)}, "s", standing={1: {1: False}})
    result = [e for e in events if e.kind == "bishop" and e.hand == 1][0]
    assert result.hit and not result.discarded and new.hand(1).cards[1][0] == KING


# -- the Countess ----------------------------------------------------------------------------------


def test_countess_rule_holds_with_king_or_prince_only():
    from pbem.engine import legal_cards

    assert legal_cards([COUNTESS, KING]) == [COUNTESS] and legal_cards([COUNTESS, PRINCE]) == [COUNTESS]
    assert sorted(legal_cards([COUNTESS, COUNT])) == sorted([COUNTESS, COUNT])
    assert sorted(legal_cards([COUNTESS, DOWAGER_QUEEN])) == sorted([COUNTESS, DOWAGER_QUEEN])


# -- 10.4 NMR defaults, tokens, the end of the game ---------------------------------------------------------


def test_nmr_princess_rule_plays_the_bishop():
    for seed in range(10):
        assert default_card([PRINCESS, BISHOP], rng(seed)) == BISHOP
        assert default_card([BISHOP, PRINCESS], rng(seed)) == BISHOP


def test_nmr_cardinal_picks_two_other_valid_players():
    for seed in range(40):
        h = six({1: KING}, draw=CARDINAL)
        h.cards[0] = [CARDINAL, CARDINAL]
        h.protected[2] = True
        events = play(h, None, seed)
        chosen = only(events, "chose").chosen
        assert len(set(chosen)) == 2 and 0 not in chosen and 2 not in chosen


def test_nmr_cardinal_takes_the_player_only_with_fewer_than_two_others():
    h = six({1: KING}, draw=CARDINAL)
    h.cards[0] = [CARDINAL, CARDINAL]
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    assert sorted(only(play(h, None), "chose").chosen) == [0, 1]


def test_nmr_baroness_two_others_when_two_are_valid_else_one():
    h = six({1: KING}, draw=BARONESS)
    h.cards[0] = [BARONESS, BARONESS]
    chosen = only(play(h, None), "chose").chosen
    assert len(chosen) == 2 and 0 not in chosen
    h = six({1: KING}, draw=BARONESS)
    h.cards[0] = [BARONESS, BARONESS]
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    assert only(play(h, None), "chose").chosen == (1,)


def test_nmr_sycophant_marks_another_player_if_one_is_valid():
    for seed in range(20):
        h = six({1: KING}, draw=SYCOPHANT)
        h.cards[0] = [SYCOPHANT, SYCOPHANT]
        assert only(play(h, None, seed), "marked").marked != 0


@uses(BISHOP)
def test_card_tokens_are_counted_at_the_end_of_the_turn_and_can_end_the_game():
    game = Game.new(6, {n: shuffled_deck("tok", n, 6) for n in range(1, 14)})
    game.tokens = [3, 0, 0, 0, 0, 0]
    h = game.hand(1)
    h.cards[0] = [BISHOP, GUARD]
    h.cards[1] = [KING]
    new, events = resolve_turn(game, {1: Order(BISHOP, 1, 6)}, "x")
    assert new.tokens[0] == 4 and only(events, "card_tokens").gained == ((0, 1, BISHOP),)
    assert new.finished and new.winners == (0,)


def test_when_every_hand_has_ended_a_tie_on_tokens_goes_to_hands_won():
    game = Game.new(6, {n: shuffled_deck("end", n, 6) for n in range(1, 14)})
    for h in game.hands:
        h.ended, h.active = True, None
        h.winners = (1,) if h.number <= 2 else (2,) if h.number == 3 else (5,)
    game.tokens = [0, 3, 3, 0, 0, 2]
    assert game_winners(game) == (1,)
    game.tokens = [0, 3, 3, 0, 0, 10]
    assert game_winners(game) == (5,)


# -- tokens and the end of the game (7, 10.4) ------------------------------------------------------


@uses(BISHOP)
def test_card_tokens_and_hand_winners_counted_together_a_tie_for_most_plays_on():
    hand1 = deck(6, 1, {0: BISHOP, 1: KING, 2: GUARD, 3: GUARD, 4: GUARD, 5: GUARD}, draw=GUARD)
    game = premium_game(hand1, tokens=[3, 4, 0, 0, 0, 0])
    new, _ = resolve_turn(game, {1: Order(BISHOP, 1, 6)}, "s")
    assert new.tokens[:2] == [4, 4] and not new.finished  # 4 and 4: play goes on


@uses(BISHOP)
def test_a_card_token_breaks_a_tie_at_the_end_of_the_turn():
    hand1 = deck(6, 1, {0: BISHOP, 1: KING, 2: GUARD, 3: GUARD, 4: GUARD, 5: GUARD}, draw=GUARD)
    game = premium_game(hand1, tokens=[4, 4, 0, 0, 0, 0])
    new, _ = resolve_turn(game, {1: Order(BISHOP, 1, 6)}, "s")
    assert new.finished and new.winners == (0,)


def test_every_hand_ended_without_anyone_at_four_most_tokens_win():
    game = premium_game(list(shuffled_deck("x", 1, 6)))
    for h in game.hands:
        h.ended, h.active, h.winners = True, None, (2,)
    game.tokens = [1, 0, 3, 0, 0, 0]
    assert game_winners(game) == (2,)


def test_every_hand_ended_tied_on_tokens_and_hands_won_is_shared():
    game = premium_game(list(shuffled_deck("x", 1, 6)))
    for h in game.hands:
        h.ended, h.active = True, None
        h.winners = (1,) if h.number % 2 else (3,)
    game.hands[12].winners = (1, 3)
    game.tokens = [0, 3, 0, 3, 0, 0]
    assert game_winners(game) == (1, 3)


def test_a_tie_for_most_above_the_target_plays_on_while_hands_remain():
    game = premium_game(list(shuffled_deck("x", 1, 6)))
    game.tokens = [5, 5, 0, 0, 0, 0]
    assert game_winners(game) == ()


# -- plain data and the last cases -----------------------------------------------------------------


@uses(SYCOPHANT)
def test_premium_events_round_trip_through_plain_data():
    kinds_seen = set()
    for seed in range(4):
        game = Game.new(6, {n: shuffled_deck(f"ev{seed}", n, 6) for n in range(1, 14)})
        while not game.finished:
            game, events = resolve_turn(game, {}, f"ev{seed}")
            for e in events:
                kinds_seen.add(e.kind)
                assert ev.from_dict(ev.to_dict(e)) == e, e
    assert {"chose", "marked", "values"} <= kinds_seen


def test_premium_state_round_trips_through_plain_data():
    game = Game.new(7, {n: shuffled_deck("rt", n, 7) for n in range(1, 14)})
    for _ in range(6):
        game, _ = resolve_turn(game, {}, "rt", standing={2: {3: True}})
    again = Game.from_dict(game.to_dict())
    assert again.to_dict() == game.to_dict()
    assert resolve_turn(again, {}, "rt")[0].to_dict() == resolve_turn(game, {}, "rt")[0].to_dict()


def test_premium_full_tie_is_shared_and_every_jester_on_a_winner_gains():
    h = six({1: KING, 2: CONSTABLE}, draw=HANDMAID)  # the King and the Constable: both 6
    for seat in (3, 4, 5):
        knock_out(h, seat)
    h.pile.clear()
    h.cards[0] = [HANDMAID, GUARD]
    h.discards[1] = [SPY, SPY]  # 4
    h.discards[2] = [SYCOPHANT]  # 4
    h.jesters = [(3, 1), (4, 2), (5, 0)]
    end = only(play(h, Order(HANDMAID)), "ended")
    assert end.winners == (1, 2) and dict(end.totals) == {1: 4, 2: 4}
    assert sorted(h.bonus) == [(3, JESTER), (4, JESTER)]


@uses(GUARD, SYCOPHANT)
def test_a_mark_named_in_the_order_is_followed_without_completion():
    h = six({1: KING, 2: GUARD}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 2))
    h.cards[1] = [GUARD, SPY]
    events = play(h, Order(GUARD, 2, 1))
    played = only(events, "played")
    assert played.recipient == 2 and only(events, "mark_followed").named == (2,)


def test_cardinal_naming_one_player_twice_keeps_the_first_and_completes_the_second():
    for seed in range(10):
        h = six({1: KING, 2: PRINCESS}, draw=CARDINAL)
        events = play(h, Order(CARDINAL, 2, None, 2), seed)
        chosen = only(events, "chose").chosen
        assert chosen[0] == 2 and chosen[1] not in (2, None)
        assert only(events, "played").random_target


def test_cardinal_first_named_protected_is_never_redirected_onto_the_second_named():
    h = six({1: HANDMAID, 2: KING}, draw=CARDINAL)
    h.protected[1] = True
    events = play(h, Order(CARDINAL, 1, None, 2))
    assert only(events, "chose").chosen == (3, 2)


# == orders and export by the command line (RULES 3, 10.3, 10.4; INTERFACE.md) ====================

SIX = [
    {"name": n, "email": f"{n.lower()}@example.org"}
    for n in ("Arthur", "Bruno", "Charles", "Didier", "Emma", "Fanny")
]


@pytest.fixture
def marked(tmp_path, cli):
    """Hand 1: Arthur holds the Sycophant and a Guard; Bruno a Guard and draws the Baroness next;
    Charles the King, Didier the Princess, Emma the Assassin, Fanny the Count."""
    folder = tmp_path / "marked"
    deck = premium_titles(
        "Spy", "Sycophant", "Guard", "King", "Princess", "Assassin", "Count", "Guard", "Baroness"
    )
    kit.write_config(folder, kit.config(SIX, decks={1: deck}, seed="audit-marked"))
    cli.ok("start", folder)
    return folder


def mark(folder, cli, whom: str) -> None:
    cli.ok("order", folder, "--player", "Arthur", f"Hand 1: Sycophant on {whom}")
    cli.ok("resolve", folder, "--force")


def test_export_marked_names_the_marked_player_then_null(marked, cli):
    assert cli.export(marked)["hands"][0]["marked"] is None
    mark(marked, cli, "Charles")
    assert cli.export(marked)["hands"][0]["marked"] == "Charles"
    cli.ok("resolve", marked, "--force")
    assert cli.export(marked)["hands"][0]["marked"] is None


def test_an_order_that_ignores_the_mark_is_completed_and_warned(marked, cli):
    mark(marked, cli, "Charles")
    out = cli.ok("order", marked, "--player", "Bruno", "Hand 1: Guard on Didier, guess 8").output
    assert "completed" in out.lower() and "Charles" in out
    order = cli.export(marked)["orders"]["Bruno"]["1"]
    assert order["status"] == "completed"
    assert order["target"] == "Didier" and order["guess"] == 8  # shown as the player wrote it
    cli.ok("resolve", marked, "--force")
    h1 = cli.export(marked)["hands"][0]
    assert h1["players"]["Didier"]["in"] and h1["players"]["Charles"]["in"]  # 8 named: the King stays


def test_an_order_naming_the_marked_player_is_accepted(marked, cli):
    mark(marked, cli, "Charles")
    cli.ok("order", marked, "--player", "Bruno", "Hand 1: Guard on Charles, guess 6")
    assert cli.export(marked)["orders"]["Bruno"]["1"]["status"] == "accepted"
    cli.ok("resolve", marked, "--force")
    assert not cli.export(marked)["hands"][0]["players"]["Charles"]["in"]


def test_a_baroness_order_ignoring_the_mark_keeps_targets_as_written(marked, cli):
    mark(marked, cli, "Charles")
    cli.ok("order", marked, "--player", "Bruno", "Hand 1: Baroness on Didier and Emma")
    order = cli.export(marked)["orders"]["Bruno"]["1"]
    assert order["status"] == "completed"
    assert order["targets"] == ["Didier", "Emma"] and order["target"] == "Didier"
    assert "look" not in order


def test_the_marked_players_order_that_cannot_choose_oneself_is_accepted_with_a_warning(marked, cli):
    mark(marked, cli, "Bruno")
    out = cli.ok("order", marked, "--player", "Bruno", "Hand 1: Guard on Didier, guess 8").output
    assert "no effect" in out
    assert cli.export(marked)["orders"]["Bruno"]["1"]["status"] == "accepted"
    cli.ok("resolve", marked, "--force")
    h1 = cli.export(marked)["hands"][0]
    assert h1["players"]["Didier"]["in"] and h1["marked"] is None


def test_a_guard_order_on_the_protected_says_where_it_will_go(tmp_path, cli):
    folder = tmp_path / "hm"
    # Arthur plays the Handmaid; Bruno (Guard and Guard) aims at Arthur: the Guard goes to Charles.
    deck = premium_titles(
        "Spy", "Handmaid", "Guard", "Assassin", "Princess", "King", "Count", "Guard", "Guard"
    )
    kit.write_config(folder, kit.config(SIX, decks={1: deck}, seed="audit-hm"))
    cli.ok("start", folder)
    cli.ok("order", folder, "--player", "Arthur", "Hand 1: Handmaid")
    cli.ok("resolve", folder, "--force")
    out = cli.ok("order", folder, "--player", "Bruno", "Hand 1: Guard on Arthur, guess 3").output
    assert "Charles" in out


def test_export_guess_is_an_integer_in_premium_and_a_name_in_classic(marked, started3, cli):
    cli.ok("order", marked, "--player", "Arthur", "Hand 1: Guard on Charles, guess King")
    assert cli.export(marked)["orders"]["Arthur"]["1"]["guess"] == 6
    data = cli.export(started3)
    assert "marked" not in data["hands"][0] and "face_up" not in data["hands"][0]


def test_export_cardinal_look_default_filled_in(tmp_path, cli):
    folder = tmp_path / "card"
    deck = premium_titles("Spy", "Cardinal", "Guard", "King", "Princess", "Assassin", "Count", "Guard")
    kit.write_config(folder, kit.config(SIX, decks={1: deck}, seed="audit-card"))
    cli.ok("start", folder)
    cli.ok("order", folder, "--player", "Arthur", "Hand 1: Cardinal on Charles and Didier")
    order = cli.export(folder)["orders"]["Arthur"]["1"]
    assert order["targets"] == ["Charles", "Didier"] and order["look"] == "Charles"
    cli.ok("order", folder, "--player", "Arthur", "Hand 1: Cardinal on Charles and Didier, look at Didier")
    assert cli.export(folder)["orders"]["Arthur"]["1"]["look"] == "Didier"
    cli.ok("order", folder, "--player", "Arthur", "Hand 1: Cardinal on Charles and myself")
    assert cli.export(folder)["orders"]["Arthur"]["1"]["look"] == "Charles"


def test_export_face_up_of_a_two_player_game(tmp_path, cli):
    folder = tmp_path / "duo"
    players = SIX[:2]
    deck = [
        "Guard",
        "Princess",
        "Countess",
        "King",
        "Baron",
        "Spy",
        "Handmaid",
        "Guard",
        "Guard",
        "Guard",
        "Guard",
        "Spy",
        "Baron",
        "Handmaid",
        "Prince",
        "Prince",
    ]
    kit.write_config(folder, kit.config(players, decks={1: deck}, seed="audit-duo"))
    cli.ok("start", folder)
    h1 = cli.export(folder)["hands"][0]
    assert h1["face_up"] == ["Princess", "Countess", "King"] and h1["draw_pile"] == 9
    assert h1["players"]["Arthur"]["cards"] == ["Baron", "Handmaid"]
    assert "marked" not in h1


# -- found by reading the implementation -----------------------------------------------------------


@uses(SYCOPHANT)
def test_cardinal_look_follows_its_slot_when_the_mark_puts_the_player_there():
    # Seat 1 is marked, then plays a Cardinal on seats 3 and 4, looking at 3: the mark takes the first
    # slot (seat 3's), so seat 1 trades with seat 4 and the look follows the slot: seat 1's new card.
    h = six({1: COUNT, 3: KING, 4: DOWAGER_QUEEN}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 1))
    h.cards[1] = [COUNT, CARDINAL]
    events = play(h, Order(CARDINAL, 3, None, 4, look=3))
    assert only(events, "chose").chosen == (1, 4)
    saw = only(events, "cardinal_saw")
    assert (saw.seat, saw.other, saw.card) == (1, 1, DOWAGER_QUEEN)


@uses(SYCOPHANT)
def test_cardinal_look_at_the_second_named_stays_on_the_second_slot_under_the_mark():
    h = six({1: COUNT, 3: KING, 4: DOWAGER_QUEEN, 5: BISHOP}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 5))
    h.cards[1] = [COUNT, CARDINAL]
    events = play(h, Order(CARDINAL, 3, None, 4, look=4))
    assert only(events, "chose").chosen == (5, 4)
    saw = only(events, "cardinal_saw")
    assert (saw.other, saw.card) == (4, BISHOP)


def test_the_acknowledgement_of_a_cardinal_under_the_mark(tmp_path, cli):
    folder = tmp_path / "cm"
    # Arthur: Sycophant and Guard; Bruno: Count, draws the Cardinal; Charles King, Didier Princess,
    # Emma Assassin, Fanny Count.
    deck = premium_titles(
        "Spy", "Sycophant", "Count", "King", "Princess", "Assassin", "Count", "Guard", "Cardinal"
    )
    kit.write_config(folder, kit.config(SIX, decks={1: deck}, seed="audit-cm"))
    cli.ok("start", folder)
    mark(folder, cli, "Bruno")
    out = cli.ok(
        "order", folder, "--player", "Bruno", "Hand 1: Cardinal on Charles and Didier, look at Charles"
    ).output
    assert "completed" in out.lower()
    assert "not one of the two players" not in out
    cli.ok("resolve", folder, "--force")
    private = cli.report(folder, 2, "Bruno")
    h1 = cli.export(folder)["hands"][0]
    assert h1["players"]["Bruno"]["cards"][0] == "Princess"  # traded with Didier
    assert "your Cardinal showed you your own new card: the Princess" in private


@pytest.mark.parametrize(
    "text, status, guess",
    [
        ("Hand 1: Guard on Charles, guess 0", "accepted", 0),
        ("Hand 1: Guard on Charles, guess 9", "accepted", 9),
        ("Hand 1: Guard on Charles, guess Bishop", "accepted", 9),
        ("Hand 1: Guard on Charles, guess Assassin", "accepted", 0),
        ("Hand 1: Guard on Charles, guess 1", "completed", 1),
        ("Hand 1: Guard on Charles, guess Guard", "completed", 1),
    ],
)
def test_premium_guesses_by_number_or_name(marked, cli, text, status, guess):
    cli.ok("order", marked, "--player", "Arthur", text)
    order = cli.export(marked)["orders"]["Arthur"]["1"]
    assert order["status"] == status and order["guess"] == guess


@pytest.mark.parametrize(
    "text, status",
    [
        ("Hand 1: Sycophant on myself", "accepted"),
        ("Hand 1: Sycophant on Charles", "accepted"),
        ("Hand 1: Sycophant on Zoe", "completed"),
    ],
)
def test_sycophant_orders(marked, cli, text, status):
    cli.ok("order", marked, "--player", "Arthur", text)
    assert cli.export(marked)["orders"]["Arthur"]["1"]["status"] == status


def test_sycophant_on_myself_marks_the_player_for_the_next_play(marked, cli):
    mark(marked, cli, "myself")
    assert cli.export(marked)["hands"][0]["marked"] == "Arthur"


@pytest.mark.parametrize("card", [DOWAGER_QUEEN, BISHOP, JESTER, SPY, BARON, KING, GUARD])
def test_a_card_for_another_player_with_nobody_valid_has_no_effect(card):
    h = six({1: HANDMAID}, draw=card if card is not GUARD else COUNT)
    if card is GUARD:
        h.cards[0] = [GUARD, COUNT]
    knock_out(h, 2, 3, 4, 5)
    h.protected[1] = True
    held1 = h.cards[1][0]
    events = play(h, Order(card, 1, 4))
    assert only(events, "played").recipient is None
    assert h.alive[0] and h.alive[1] and h.cards[1][0] == held1
    assert h.bonus == [] and h.jesters == []
