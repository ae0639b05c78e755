"""Every rule of RULES.md section 10 (the Premium deck, 5 to 8 players), with
exact 32-card decks and orders, through the engine (play_turn, resolve_turn)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from builders import BI, BS, CA, CN, CO, DQ, SY, A, B, C, G, H, J, K, P, S, X, hand, only, play, rng

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


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def knock_out(h: Hand, seat: int) -> None:
    h.alive[seat] = False
    h.discards[seat].extend(h.cards[seat])
    h.cards[seat] = []


def six(held: dict[int, Card], draw: Card, **kw) -> Hand:
    """Hand 1 of a 6-player game: seat 0 is first and holds held[0] and ``draw``."""
    full = {seat: G for seat in range(6)}
    full.update(held)
    return hand(6, 1, full, draw=draw, **kw)


# -- 10.1 the deck -------------------------------------------------------------------------------------


def test_the_premium_deck_is_the_32_cards_of_rules_10_1():
    counts = Counter(PREMIUM_DECK)
    assert len(PREMIUM_DECK) == 32
    assert counts == {
        A: 1,
        J: 1,
        G: 8,
        S: 2,
        CA: 2,
        B: 2,
        BS: 2,
        H: 2,
        SY: 2,
        P: 2,
        CO: 2,
        K: 1,
        CN: 1,
        C: 1,
        DQ: 1,
        X: 1,
        BI: 1,
    }
    assert {c: RANK[c] for c in (A, J, CA, BS, SY, CO, CN, DQ, BI)} == {
        A: 0,
        J: 0,
        CA: 2,
        BS: 3,
        SY: 4,
        CO: 5,
        CN: 6,
        DQ: 7,
        BI: 9,
    }


@pytest.mark.parametrize(
    "name, card",
    [
        ("Count", CO),
        ("countess", C),
        ("Baron", B),
        ("BARONESS", BS),
        ("Dowager Queen", DQ),
        ("dowager", DQ),
        ("Queen", DQ),
        ("Constable", CN),
        ("bishop", BI),
        ("assassin", A),
        ("Jester", J),
        ("cardinal", CA),
        ("Sycophant", SY),
    ],
)
def test_every_premium_name_and_alias_reads_as_its_card(name, card):
    assert card_named(name) is card
    assert Card[card.name].title == card.title


def test_titles_are_the_canonical_names():
    assert DQ.title == "Dowager Queen" and str(CN) == "Constable"


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
        check_deck(tuple(PREMIUM_DECK[1:]) + (G,), 6)


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


@pytest.mark.parametrize("held, guess", [(H, 4), (SY, 4), (S, 2), (CA, 2), (J, 0), (BI, 9), (CO, 5), (DQ, 7)])
def test_a_number_hits_every_card_of_that_rank(held, guess):
    h = six({1: held}, draw=S if held != S else B)
    events = play(h, Order(G, 1, guess))
    assert only(events, "guard").hit and not h.alive[1]


def test_a_number_that_misses():
    h = six({1: SY}, draw=S)
    assert not only(play(h, Order(G, 1, 5)), "guard").hit and h.alive[1]


@pytest.mark.parametrize("guess", [None, 1])
def test_a_missing_guess_or_a_guess_of_one_is_drawn_from_the_premium_pack(guess):
    seen = Counter()
    for seed in range(300):
        h = six({1: K}, draw=S)
        played = only(play(h, Order(G, 1, guess), seed), "played")
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
    h = six({1: A}, draw=K, pile=[S, B])
    events = play(h, Order(G, 1, 3))
    assert kinds(events)[:3] == ["played", "assassin", "eliminated"]
    assert not h.alive[0] and h.discards[0] == [G, K]
    assert h.alive[1] and h.discards[1] == [A] and h.cards[1][0] == S  # drew the top of the pile
    drew = only(events, "card_drew")
    assert (drew.seat, drew.card, drew.cause, drew.audience) == (1, S, A, (1,))
    public = ev.public(events)
    assert S not in [v for e in public for v in e if isinstance(v, Card)]


def test_assassin_whatever_number_is_named():
    for guess in (0, 4, None):
        h = six({1: A}, draw=K)
        play(h, Order(G, 1, guess))
        assert not h.alive[0] and h.alive[1]


def test_assassin_with_an_empty_pile_draws_the_set_aside_card():
    h = six({1: A}, draw=K, set_aside=X)
    h.pile.clear()
    events = play(h, Order(G, 1, 2))
    assert h.cards[1] == [X] and h.set_aside is None
    assert only(events, "card_drew").card == X and h.ended


def test_assassin_draws_even_when_the_knock_out_ends_the_hand():
    h = six({1: A}, draw=K, pile=[S])
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    events = play(h, Order(G, 1, 5))
    assert h.ended and h.winners == (1,) and h.cards[1] == [S]
    assert kinds(events)[-1] == "ended"


def test_assassin_catches_a_guard_redirected_to_its_holder():
    h = six({1: H, 2: A}, draw=K)
    h.protected[1] = True
    events = play(h, Order(G, 1, 4))
    assert only(events, "played").recipient == 2
    assert not h.alive[0] and h.alive[2] and h.discards[2] == [A]


def test_assassin_played_has_no_effect():
    h = six({1: K}, draw=A)
    assert kinds(play(h, Order(A))) == ["played"]


def test_a_bishop_ignores_the_assassin():
    h = six({1: A}, draw=BI)
    events = play(h, Order(BI, 1, 0))
    assert only(events, "bishop").hit and h.alive[0] and h.bonus == [(0, BI)]


def test_jester_gains_a_token_when_the_named_player_wins_even_if_out_by_then():
    h = six({1: K, 2: S}, draw=J)
    for seat in (3, 4, 5):
        knock_out(h, seat)
    play(h, Order(J, 1))
    assert h.jesters == [(0, 1)]
    h.cards[1] = [G, B]
    play(h, Order(G, 2, 2))  # seat 1 knocks out seat 2 (Spy)
    h.cards[0] = [B, G]
    play(h, Order(B, 1))  # seat 0 keeps a Guard against seat 1's Baron: seat 0 is out
    assert h.ended and h.winners == (1,) and not h.alive[0]
    assert h.bonus == [(0, J)]


def test_jester_token_is_counted_with_the_hand_winners_at_the_end_of_the_turn():
    game = Game.new(6, {n: shuffled_deck("jest", n, 6) for n in range(1, 14)})
    h = game.hand(1)
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    h.jesters = [(4, 1)]
    h.cards[0] = [B, G]
    h.cards[1] = [K]
    new, events = resolve_turn(game, {1: Order(B, 1)}, "s")
    assert new.hand(1).winners == (1,)
    assert only(events, "tokens").won == ((1, 1),)
    assert only(events, "card_tokens").gained == ((4, 1, J),)
    assert new.tokens == [0, 1, 0, 0, 1, 0]
    assert new.hand(1).bonus == []


def test_jester_no_token_when_the_named_player_loses():
    h = six({1: G}, draw=J)
    play(h, Order(J, 1))
    h.bonus.clear()
    h.alive[1] = False
    h.pile.clear()
    h.jesters = [(0, 1)]
    h.cards[1] = []
    h.active = 2
    h.cards[2].append(G)
    play(h, Order(G, 3, 5))
    assert h.ended and 1 not in h.winners and h.bonus == []


def test_jester_redirected_from_a_protected_player():
    h = six({1: H}, draw=J)
    h.protected[1] = True
    play(h, Order(J, 1))
    assert h.jesters == [(0, 2)]


def test_cardinal_two_others_trade_and_the_player_looks_at_the_first_named():
    h = six({1: K, 2: X}, draw=CA)
    events = play(h, Order(CA, 1, None, 2))
    assert h.cards[1][0] == X and h.cards[2] == [K]  # seat 1, next, has drawn
    assert only(events, "chose").chosen == (1, 2)
    received = {e.seat: (e.other, e.card) for e in events if e.kind == "cardinal_received"}
    assert received == {1: (2, X), 2: (1, K)}
    saw = only(events, "cardinal_saw")
    assert (saw.seat, saw.other, saw.card, saw.audience) == (0, 1, X, (0,))
    assert X not in [v for e in ev.public(events) for v in e if isinstance(v, Card)]


def test_cardinal_look_named():
    h = six({1: K, 2: X}, draw=CA)
    saw = only(play(h, Order(CA, 1, None, 2, look=2)), "cardinal_saw")
    assert (saw.other, saw.card) == (2, K)


def test_cardinal_with_yourself_looks_at_the_other_one():
    h = six({1: K}, draw=CA)
    h.cards[0] = [CA, BI]
    events = play(h, Order(CA, 0, None, 1))
    assert h.cards[0] == [K] and h.cards[1][0] == BI
    saw = only(events, "cardinal_saw")
    assert (saw.other, saw.card) == (1, BI)


def test_cardinal_protected_player_is_replaced_never_by_the_other_one():
    h = six({1: K, 2: H, 3: X}, draw=CA)
    h.protected[2] = True
    events = play(h, Order(CA, 2, None, 3))  # 2 is protected; next after 2 is 3 (the other): 4
    assert only(events, "chose").chosen == (4, 3)
    assert only(events, "played").redirected


def test_cardinal_with_fewer_than_two_valid_players_has_no_effect():
    h = six({1: K}, draw=CA)
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    h.protected[1] = True
    before = [list(c) for c in h.cards]
    events = play(h, Order(CA, 1, None, 0))
    assert kinds(events) == ["played"]
    assert h.cards[1][0] == before[1][0]


def test_baroness_looks_at_one_or_two_players_privately():
    h = six({1: K, 2: X}, draw=BS)
    events = play(h, Order(BS, 1, None, 2))
    saws = {e.other: e.card for e in events if e.kind == "baroness_saw"}
    assert saws == {1: K, 2: X} and all(e.audience == (0,) for e in events if e.kind == "baroness_saw")
    assert only(events, "chose").chosen == (1, 2)
    h = six({1: K}, draw=BS)
    events = play(h, Order(BS, 1))
    assert [e.other for e in events if e.kind == "baroness_saw"] == [1]


def test_baroness_redirect_never_onto_the_other_player_named():
    h = six({1: H, 2: K}, draw=BS)
    h.protected[1] = True
    events = play(h, Order(BS, 1, None, 2))
    assert only(events, "chose").chosen == (3, 2)


def test_baroness_on_herself_is_completed_with_another_player():
    h = six({1: K}, draw=BS)
    played = only(play(h, Order(BS, 0)), "played")
    assert played.random_target and played.recipient not in (0, None)


def test_sycophant_marks_and_the_next_play_must_choose_the_marked_player():
    h = six({1: G, 2: K}, draw=SY)
    events = play(h, Order(SY, 2))
    assert only(events, "marked").marked == 2 and h.marked == 2
    # Seat 1 plays a Guard on seat 3: completed onto seat 2, who holds the King (6).
    h.cards[1] = [G, S]
    events = play(h, Order(G, 3, 6))
    played = only(events, "played")
    assert played.target == 3 and played.recipient == 2
    follow = only(events, "mark_followed")
    assert (follow.marked, follow.named, follow.effect) == (2, (3,), True)
    assert not h.alive[2] and h.marked is None


def test_sycophant_marking_the_next_active_player_a_card_that_cannot_choose_oneself_has_no_effect():
    h = six({1: K}, draw=SY)
    play(h, Order(SY, 1))
    h.cards[1] = [K, G]
    events = play(h, Order(G, 3, 1))  # seat 1 is marked; a Guard cannot choose its own player
    assert only(events, "played").recipient is None
    assert only(events, "mark_followed").effect is False
    assert all(h.alive) and h.marked is None


def test_sycophant_marked_player_plays_a_prince_on_themselves():
    h = six({1: K}, draw=SY, pile=[B, S])
    play(h, Order(SY, 1))
    h.cards[1] = [K, P]
    events = play(h, Order(P, 3))
    assert only(events, "prince").recipient == 1


def test_the_mark_ends_with_the_next_play_even_a_handmaid():
    h = six({1: K}, draw=SY)
    play(h, Order(SY, 3))
    h.cards[1] = [K, H]
    events = play(h, Order(H))
    assert h.marked is None and "mark_followed" not in kinds(events)


def test_a_mark_binds_a_default():
    for seed in range(10):
        h = six({1: K, 2: G}, draw=SY)
        play(h, Order(SY, 2))
        h.cards[1] = [G, G]
        played = only(play(h, None, seed), "played")
        assert played.recipient == 2


def test_mark_on_a_cardinal_replaces_the_first_named_unless_one_is_marked():
    h = six({1: K, 2: G}, draw=SY)
    play(h, Order(SY, 4))
    h.cards[1] = [K, CA]
    events = play(h, Order(CA, 2, None, 3))
    assert only(events, "chose").chosen == (4, 3)
    h = six({1: K, 2: G}, draw=SY)
    play(h, Order(SY, 3))
    h.cards[1] = [K, CA]
    events = play(h, Order(CA, 2, None, 3))
    assert only(events, "chose").chosen == (2, 3)


def test_mark_on_a_cardinal_the_look_follows_its_slot():
    h = six({1: K, 2: G, 3: X, 4: BI}, draw=SY)
    play(h, Order(SY, 4))
    h.cards[1] = [K, CA]
    events = play(h, Order(CA, 2, None, 3, look=2))  # looks at the first slot: seat 4 took it
    saw = only(events, "cardinal_saw")
    assert saw.other == 4 and saw.card == X


def test_sycophant_on_myself_and_redirection_like_a_prince():
    h = six({1: K}, draw=SY)
    assert only(play(h, Order(SY, 0)), "marked").marked == 0
    h = six({}, draw=SY)
    for seat in (1, 2, 3, 4, 5):
        h.protected[seat] = True
    assert only(play(h, Order(SY, 3)), "marked").marked == 0


def test_count_adds_one_per_count_in_the_discards_at_the_end():
    h = six({1: K, 2: C}, draw=H)
    for seat in (3, 4, 5):
        knock_out(h, seat)
    h.pile.clear()
    h.discards[1] = [CO, CO]  # King 6 + 2 = 8
    h.cards[0] = [H, X]  # seat 0 keeps the Princess (8)
    events = play(h, Order(H))
    values = dict(only(events, "values").values)
    assert values == {0: 8, 1: 8, 2: 7}
    end = only(events, "ended")
    assert end.winners == (1,)  # tie on 8, discards: 10 against the Handmaid's 4


def test_princess_beats_the_bishop_but_counts_can_overturn_it():
    h = six({1: BI}, draw=H)
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    h.pile.clear()
    h.cards[0] = [H, X]
    assert only(play(h, Order(H)), "ended").winners == (0,)  # 9.5 against 9
    h = six({1: BI}, draw=H)
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    h.pile.clear()
    h.cards[0] = [H, X]
    h.discards[1] = [CO]
    events = play(h, Order(H))
    assert dict(only(events, "values").values) == {0: 9.5, 1: 10}
    assert only(events, "ended").winners == (1,)


def test_a_bishop_held_by_a_third_player_lifts_the_princess():
    h = six({1: C, 2: BI}, draw=H)
    for seat in (3, 4, 5):
        knock_out(h, seat)
    h.pile.clear()
    h.cards[0] = [H, X]
    h.discards[1] = [CO, CO]  # Countess 7 + 2 = 9
    h.discards[2] = [CO]  # Bishop 9 + 1 = 10
    h.cards[0] = [X]
    assert hand_values(h) == {0: 9.5, 1: 9, 2: 10}


def test_constable_knocked_out_with_it_on_the_discards_gains_a_token():
    h = six({1: G}, draw=X)
    h.discards[0] = [CN]
    play(h, Order(X))  # the player's own Princess
    assert not h.alive[0] and h.bonus == [(0, CN)]


def test_constable_revealed_by_the_knock_out_gains_nothing():
    h = six({1: CN}, draw=G)
    play(h, Order(G, 1, 6))
    assert not h.alive[1] and h.bonus == []


def test_constable_out_by_a_baron():
    h = six({1: X}, draw=B)
    h.cards[0] = [B, G]
    h.discards[0] = [CN]
    play(h, Order(B, 1))
    assert not h.alive[0] and h.bonus == [(0, CN)]


def test_dowager_queen_the_higher_card_is_out():
    h = six({1: X}, draw=DQ)
    h.cards[0] = [DQ, G]
    events = play(h, Order(DQ, 1))
    assert only(events, "queen").loser == 1 and not h.alive[1]
    saws = {e.seat: (e.other, e.card) for e in events if e.kind == "queen_saw"}
    assert saws == {0: (1, X), 1: (0, G)}
    h = six({1: G}, draw=DQ)
    h.cards[0] = [DQ, X]
    assert only(play(h, Order(DQ, 1)), "queen").loser == 0


def test_dowager_queen_tie_and_plain_ranks():
    h = six({1: SY}, draw=DQ)
    h.cards[0] = [DQ, H]  # 4 and 4
    assert only(play(h, Order(DQ, 1)), "queen").loser is None
    h = six({1: BI}, draw=B)
    h.cards[0] = [B, X]  # the Baron compares plain ranks: Princess 8 < Bishop 9
    assert only(play(h, Order(B, 1)), "baron").loser == 0


def test_bishop_hit_gains_a_token_and_the_target_keeps_by_default():
    h = six({1: K}, draw=BI)
    events = play(h, Order(BI, 1, 6))
    result = only(events, "bishop")
    assert result.hit and not result.discarded and h.cards[1][0] == K and h.bonus == [(0, BI)]


def test_bishop_hit_with_the_standing_discard_order():
    h = six({1: K}, draw=BI, pile=[S, B])
    h.bishop_discard[1] = True
    events = play(h, Order(BI, 1, 6))
    result = only(events, "bishop")
    assert result.hit and result.discarded and result.card == K
    assert h.discards[1] == [K] and h.cards[1][0] == S
    assert only(events, "card_drew").audience == (1,)


def test_bishop_hit_on_the_princess_with_discard_knocks_out():
    h = six({1: X}, draw=BI)
    h.bishop_discard[1] = True
    events = play(h, Order(BI, 1, 8))
    assert only(events, "bishop").card == X and not h.alive[1] and h.bonus == [(0, BI)]


def test_bishop_hit_on_the_princess_kept():
    h = six({1: X}, draw=BI)
    play(h, Order(BI, 1, 8))
    assert h.alive[1] and h.cards[1][0] == X


def test_bishop_miss():
    h = six({1: X}, draw=BI)
    h.bishop_discard[1] = True
    result = only(play(h, Order(BI, 1, 7)), "bishop")
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

    assert legal_cards([C, K]) == [C] and legal_cards([C, P]) == [C]
    assert sorted(legal_cards([C, CO])) == sorted([C, CO])
    assert sorted(legal_cards([C, DQ])) == sorted([C, DQ])


# -- 10.4 NMR defaults, tokens, the end of the game ---------------------------------------------------------


def test_nmr_princess_rule_plays_the_bishop():
    for seed in range(10):
        assert default_card([X, BI], rng(seed)) == BI
        assert default_card([BI, X], rng(seed)) == BI


def test_nmr_cardinal_picks_two_other_valid_players():
    for seed in range(40):
        h = six({1: K}, draw=CA)
        h.cards[0] = [CA, CA]
        h.protected[2] = True
        events = play(h, None, seed)
        chosen = only(events, "chose").chosen
        assert len(set(chosen)) == 2 and 0 not in chosen and 2 not in chosen


def test_nmr_cardinal_takes_the_player_only_with_fewer_than_two_others():
    h = six({1: K}, draw=CA)
    h.cards[0] = [CA, CA]
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    assert sorted(only(play(h, None), "chose").chosen) == [0, 1]


def test_nmr_baroness_two_others_when_two_are_valid_else_one():
    h = six({1: K}, draw=BS)
    h.cards[0] = [BS, BS]
    chosen = only(play(h, None), "chose").chosen
    assert len(chosen) == 2 and 0 not in chosen
    h = six({1: K}, draw=BS)
    h.cards[0] = [BS, BS]
    for seat in (2, 3, 4, 5):
        knock_out(h, seat)
    assert only(play(h, None), "chose").chosen == (1,)


def test_nmr_sycophant_marks_another_player_if_one_is_valid():
    for seed in range(20):
        h = six({1: K}, draw=SY)
        h.cards[0] = [SY, SY]
        assert only(play(h, None, seed), "marked").marked != 0


def test_card_tokens_are_counted_at_the_end_of_the_turn_and_can_end_the_game():
    game = Game.new(6, {n: shuffled_deck("tok", n, 6) for n in range(1, 14)})
    game.tokens = [3, 0, 0, 0, 0, 0]
    h = game.hand(1)
    h.cards[0] = [BI, G]
    h.cards[1] = [K]
    new, events = resolve_turn(game, {1: Order(BI, 1, 6)}, "x")
    assert new.tokens[0] == 4 and only(events, "card_tokens").gained == ((0, 1, BI),)
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
    h = six({1: K, 2: CN}, draw=H)  # the King and the Constable: both 6
    for seat in (3, 4, 5):
        knock_out(h, seat)
    h.pile.clear()
    h.cards[0] = [H, G]
    h.discards[1] = [S, S]  # 4
    h.discards[2] = [SY]  # 4
    h.jesters = [(3, 1), (4, 2), (5, 0)]
    end = only(play(h, Order(H)), "ended")
    assert end.winners == (1, 2) and dict(end.totals) == {1: 4, 2: 4}
    assert sorted(h.bonus) == [(3, J), (4, J)]


def test_a_mark_named_in_the_order_is_followed_without_completion():
    h = six({1: K, 2: G}, draw=SY)
    play(h, Order(SY, 2))
    h.cards[1] = [G, S]
    events = play(h, Order(G, 2, 1))
    played = only(events, "played")
    assert played.recipient == 2 and only(events, "mark_followed").named == (2,)


def test_cardinal_naming_one_player_twice_keeps_the_first_and_completes_the_second():
    for seed in range(10):
        h = six({1: K, 2: X}, draw=CA)
        events = play(h, Order(CA, 2, None, 2), seed)
        chosen = only(events, "chose").chosen
        assert chosen[0] == 2 and chosen[1] not in (2, None)
        assert only(events, "played").random_target


def test_cardinal_first_named_protected_is_never_redirected_onto_the_second_named():
    h = six({1: H, 2: K}, draw=CA)
    h.protected[1] = True
    events = play(h, Order(CA, 1, None, 2))
    assert only(events, "chose").chosen == (3, 2)
