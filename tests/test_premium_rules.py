"""Every rule of RULES.md section 10 (the Premium deck, 5 to 8 players), with
exact 32-card decks and orders, through the engine (play_turn, resolve_turn)."""

from __future__ import annotations

import random
from collections import Counter

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
    kinds,
    knock_out,
    only,
    play,
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


# -- 10.3 the new cards -------------------------------------------------------------------------


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
