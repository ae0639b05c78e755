"""Rules of the engine that mutation testing (mutmut, CONTRIBUTING.md) found no
rule test pinning: each test here kills mutants of pbem/engine.py that
survived the rule tests (README, "Mutation testing")."""

from __future__ import annotations

import pytest
from rulekit import (
    ASSASSIN,
    BARON,
    BARONESS,
    BISHOP,
    CARDINAL,
    COUNTESS,
    GUARD,
    HANDMAID,
    JESTER,
    KING,
    PRINCE,
    PRINCESS,
    SPY,
    SYCOPHANT,
    hand,
    knock_out,
    of,
    only,
    play,
    six,
)

from pbem.cards import FULL_DECK, PREMIUM_DECK
from pbem.engine import (
    Game,
    Hand,
    Order,
    check_deck,
    choose_pair,
    deal_events,
    hand_rng,
    play_turn,
    resolve_turn,
    shuffled_deck,
)


def test_a_premium_hand_with_one_winner_has_no_totals_and_no_active_player():
    h = six({1: KING, 2: SPY}, draw=HANDMAID)
    knock_out(h, 3, 4, 5)
    h.pile.clear()
    h.cards[0] = [HANDMAID, GUARD]
    end = only(play(h, Order(HANDMAID)), "ended")
    assert end.winners == (1,) and end.totals == ()
    assert h.ended and h.active is None


def test_a_premium_hand_won_by_the_last_player_in_shows_no_values():
    h = six({1: KING}, draw=GUARD)
    knock_out(h, 2, 3, 4, 5)
    events = play(h, Order(GUARD, 1, 6))
    assert only(events, "ended").winners == (0,)
    assert of(events, "values") == []


def test_a_mark_still_standing_when_the_hand_ends_is_gone():
    h = six({1: KING}, draw=SYCOPHANT)
    knock_out(h, 2, 3, 4, 5)
    h.pile.clear()
    play(h, Order(SYCOPHANT, 1))
    assert h.ended and h.marked is None


def test_a_copy_of_a_game_is_the_same_game():
    game = Game.new(3, {n: shuffled_deck("copy", n) for n in range(1, 14)})
    for _ in range(3):
        game, _ = resolve_turn(game, {}, "copy")
    game.finished, game.winners = False, (1,)
    assert game.copy().to_dict() == game.to_dict()
    assert Game.from_dict(game.to_dict()).winners == (1,)


def test_a_hand_whose_set_aside_card_was_drawn_round_trips():
    h = hand(3, 1, {0: PRINCE, 1: GUARD, 2: GUARD}, draw=GUARD, set_aside=KING)
    h.pile.clear()
    play(h, Order(PRINCE, 1))
    assert h.set_aside is None
    again = Hand.from_dict(h.to_dict())
    assert again.set_aside is None and again.to_dict() == h.to_dict()
    assert again.bishop_discard == [False, False, False]


def test_a_premium_hand_read_back_plays_a_bishop_hit_directly():
    h = Hand.from_dict(six({1: KING}, draw=BISHOP).to_dict())
    play(h, Order(BISHOP, 1, 6))
    assert h.bonus == [(0, BISHOP)]


def test_card_names_in_a_state_are_read_in_any_case():
    data = hand(3, 1, {0: GUARD, 1: PRINCESS, 2: SPY}, draw=KING).to_dict()
    data["cards"][1] = ["princess"]
    assert Hand.from_dict(data).cards[1] == [PRINCESS]


def test_resolve_turn_draws_each_hands_choices_from_hand_rng_of_the_seed_turn_and_hand():
    game = Game.new(4, {n: shuffled_deck("rng", n) for n in range(1, 14)})
    game, _ = resolve_turn(game, {}, "rng")  # turn 2: the turn number counts
    _, events = resolve_turn(game, {}, "rng")
    for number in (1, 7, 13):
        h = game.hand(number).copy()
        out: list = []
        play_turn(h, None, hand_rng("rng", 2, number), out)
        assert [e for e in events if getattr(e, "hand", None) == number] == out


def test_resolve_turn_without_events_builds_none():
    game = Game.new(3, {n: shuffled_deck("quiet", n) for n in range(1, 14)})
    new, events = resolve_turn(game, {}, "quiet", events=False)
    assert events == [] and new.turn == 2


def test_choose_pair_says_whom_a_two_player_order_will_act_on_as_the_play_chooses():
    h = six({1: KING, 2: PRINCESS}, draw=CARDINAL)
    assert choose_pair(h, 0, CARDINAL, 1, 2, 2) == (1, 2, 1)
    h.protected[1] = True  # redirected past seat 2, the other one named: seat 3
    chosen = choose_pair(h, 0, CARDINAL, 1, 2, None)
    assert chosen == (3, 2, 0)
    assert only(play(h, Order(CARDINAL, 1, None, 2)), "chose").chosen == chosen[:-1]
    h = six({1: KING}, draw=BARONESS)
    assert 0 not in choose_pair(h, 0, BARONESS, 0, 2, None)  # the Baroness never looks at her own player


def test_a_turn_in_which_no_hand_ends_has_no_token_events():
    game = Game.new(3, {n: shuffled_deck("none", n) for n in range(1, 14)})
    _, events = resolve_turn(game, {}, "none")  # one play a hand: no 3-player hand can end on turn 1
    assert of(events, "ended") == [] and events
    assert of(events, "tokens") == [] and of(events, "card_tokens") == []


def test_the_players_completed_at_random_vary_with_the_generator():
    seen = set()
    for seed in range(30):
        h = six({1: KING}, draw=BARONESS)
        h.cards[0] = [BARONESS, BARONESS]
        seen.add(only(play(h, None, seed), "chose").chosen)
    assert len({chosen[0] for chosen in seen}) > 2


def test_a_bishops_discarded_princess_knocks_out_in_the_events_and_a_discard_draws_for_the_bishop():
    h = six({1: PRINCESS}, draw=BISHOP)
    h.bishop_discard[1] = True
    assert only(play(h, Order(BISHOP, 1, 8)), "eliminated").seat == 1
    h = six({1: KING}, draw=BISHOP)
    h.bishop_discard[1] = True
    assert only(play(h, Order(BISHOP, 1, 6)), "card_drew").cause == BISHOP


def test_the_engine_says_which_play_it_refuses():
    h = hand(3, 1, {0: GUARD, 1: GUARD, 2: PRINCE}, draw=SPY)
    with pytest.raises(ValueError, match="hand 1: seat 0 does not hold the King"):
        play(h, Order(KING, 1))
    h = hand(3, 1, {0: COUNTESS, 1: GUARD, 2: SPY}, draw=KING)
    with pytest.raises(ValueError, match="hand 1: the Countess must be played"):
        play(h, Order(KING, 1))


def test_a_plain_cardinal_play_is_neither_redirected_nor_completed():
    h = six({1: KING, 2: PRINCESS}, draw=CARDINAL)
    played = only(play(h, Order(CARDINAL, 1, None, 2)), "played")
    assert played.redirected is False and played.random_target is False


def test_the_marked_player_playing_a_baroness_has_no_effect_and_nothing_was_redirected():
    h = six({1: KING}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 1))
    h.cards[1] = [KING, BARONESS]
    events = play(h, Order(BARONESS, 2, None, 3))
    played = only(events, "played")
    assert played.recipient is None and played.redirected is False and played.random_target is False
    assert of(events, "baroness_saw") == [] and of(events, "chose") == []


def test_a_cardinal_with_one_player_named_and_no_look_looks_at_the_one_named():
    for seed in range(10):
        h = six({1: KING}, draw=CARDINAL)
        saw = only(play(h, Order(CARDINAL, 1), seed), "cardinal_saw")
        assert saw.other == 1


def test_the_marked_player_looking_at_themselves_with_a_cardinal_sees_their_own_new_card():
    h = six({1: GUARD, 3: KING, 4: PRINCESS}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 1))
    h.cards[1] = [GUARD, CARDINAL]
    events = play(h, Order(CARDINAL, 3, None, 4, look=1))  # the mark takes the first slot: seat 1
    assert only(events, "chose").chosen == (1, 4)
    saw = only(events, "cardinal_saw")
    assert (saw.other, saw.card) == (1, PRINCESS)


def test_a_baroness_with_no_player_named_is_completed_with_one():
    h = six({1: KING}, draw=BARONESS)
    events = play(h, Order(BARONESS))
    assert only(events, "played").random_target and len(of(events, "baroness_saw")) == 1


def test_a_cardinal_naming_a_seat_past_the_last_is_completed():
    h = six({1: KING}, draw=CARDINAL)
    events = play(h, Order(CARDINAL, 1, None, 6))
    assert only(events, "played").random_target and 6 not in only(events, "chose").chosen


def test_a_hand_keeps_its_set_aside_card_and_a_classic_hand_stays_classic_through_plain_data():
    h = hand(3, 1, {0: GUARD, 1: PRINCESS, 2: SPY}, draw=KING, set_aside=PRINCE)
    data = h.to_dict()
    assert "bishop_discard" not in data and "marked" not in data
    again = Hand.from_dict(data)
    assert again.set_aside == PRINCE and again.premium is False


def test_the_tables_derived_again_from_the_entries_are_the_ones_import_built():
    # mutmut switches a mutant on in the functions a test calls: the tables built at import
    # are the clean ones, those derived here the mutant's.
    from pbem import engine

    names = ["_PLAY", "_SELF_OK", "_ON_GUESSED", "_OUT_IF_DISCARDED", "_ON_KNOCKED_OUT", "_END_VALUES"]
    names += ["_END_BONUSES", "_bind_next", "_FORCED", "_NMR_CHOICE", "_LEGAL", "TARGETED", "PAIRED"]
    built = {name: getattr(engine, name) for name in names}
    engine._derive_tables()
    assert {name: getattr(engine, name) for name in names} == built


def test_a_finished_game_refuses_another_turn_and_says_why():
    game = Game.new(3, {n: shuffled_deck("over", n) for n in range(1, 14)})
    game.finished = True
    with pytest.raises(ValueError, match="^the game is over$"):
        resolve_turn(game, {}, "over")


def test_a_prince_says_its_new_card_came_from_the_pile_and_the_princess_from_no_draw():
    h = hand(3, 1, {0: PRINCE, 1: BARON, 2: GUARD}, draw=GUARD, pile=[KING])
    assert only(play(h, Order(PRINCE, 1)), "prince").from_set_aside is False
    h = hand(3, 1, {0: PRINCE, 1: PRINCESS, 2: GUARD}, draw=GUARD)
    assert only(play(h, Order(PRINCE, 1)), "prince").from_set_aside is False


def test_the_assassin_struck_event_carries_the_guess():
    h = six({1: ASSASSIN}, draw=KING)
    assert only(play(h, Order(GUARD, 1, 3)), "assassin").guess == 3


def test_a_player_knocked_out_is_out_and_unprotected_in_plain_data():
    h = hand(3, 1, {0: GUARD, 1: KING, 2: SPY}, draw=PRINCE)
    play(h, Order(GUARD, 2, SPY))
    data = h.to_dict()
    assert data["alive"] == [True, True, False] and data["protected"] == [False, False, False]


def test_a_new_game_is_not_finished_in_plain_data():
    game = Game.new(3, {n: shuffled_deck("new", n) for n in range(1, 14)})
    assert game.to_dict()["finished"] is False


def flags(events: list) -> tuple[bool, bool]:
    played = only(events, "played")
    return played.redirected, played.random_target


def test_a_one_player_cards_flags_say_exactly_what_became_of_the_target():
    h = hand(3, 1, {0: GUARD, 1: KING, 2: SPY}, draw=PRINCE)
    assert flags(play(h, Order(GUARD, 1, SPY))) == (False, False)  # as written
    h = hand(3, 1, {0: GUARD, 1: KING, 2: SPY}, draw=PRINCE)
    assert flags(play(h, Order(GUARD, 3, SPY))) == (False, True)  # seat 3 of 3: completed
    h = hand(3, 1, {0: GUARD, 1: KING, 2: SPY}, draw=PRINCE)
    h.protected[1] = True
    assert flags(play(h, Order(GUARD, 1, SPY))) == (True, False)  # redirected
    h = six({1: KING, 2: SPY}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 2))
    h.cards[1] = [KING, GUARD]
    assert flags(play(h, Order(GUARD, 3, 2))) == (False, False)  # the mark chose


def test_a_baroness_with_one_player_named_and_an_nmr_cardinal_are_not_completed_orders():
    h = six({1: KING}, draw=BARONESS)
    assert flags(play(h, Order(BARONESS, 1))) == (False, False)
    h = six({1: KING}, draw=CARDINAL)
    h.cards[0] = [CARDINAL, CARDINAL]
    assert flags(play(h, None)) == (False, False)


def test_the_game_over_event_names_the_winners():
    game = Game.new(3, {n: shuffled_deck("end", n) for n in range(1, 14)})
    game.tokens = [4, 0, 0]
    h = game.hand(1)
    h.cards = [[GUARD, SPY], [KING], []]
    h.alive = [True, True, False]
    _, events = resolve_turn(game, {1: Order(GUARD, 1, KING)}, "x")
    assert events[-1].kind == "game_over" and events[-1].winners == (0,)


def test_a_baroness_naming_herself_second_is_completed():
    h = six({1: KING}, draw=BARONESS)
    assert flags(play(h, Order(BARONESS, 1, None, 0))) == (False, True)


# -- the second mutation run (2026-12-02, docs/mutation/engine.md) -------------------------


def test_a_mark_followed_by_a_cardinal_shows_both_players_its_order_named():
    h = six({1: KING, 2: SPY}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 2))
    h.cards[1] = [KING, CARDINAL]
    events = play(h, Order(CARDINAL, 3, None, 4))
    followed = only(events, "mark_followed")  # hand 1, seat 1 followed the mark on seat 2
    assert (followed.hand, followed.seat, followed.marked, followed.named, followed.effect) == (
        1,
        1,
        2,
        (3, 4),
        True,
    )
    chose = only(events, "chose")
    assert (chose.hand, chose.seat, chose.card, chose.named, chose.chosen) == (1, 1, CARDINAL, (3, 4), (2, 4))


def test_a_guard_on_the_protected_first_seat_is_redirected_not_completed():
    h = hand(3, 2, {0: KING, 1: GUARD, 2: SPY}, draw=PRINCE)  # hand 2: seat 1 plays first
    h.protected[0] = True
    events = play(h, Order(GUARD, 0, SPY))
    assert flags(events) == (True, False)
    assert only(events, "played").recipient == 2  # the next one round from seat 0, past the Guard's player


def test_a_prince_naming_a_player_out_with_everyone_else_protected_falls_back_on_its_player():
    h = hand(3, 1, {0: PRINCE, 1: GUARD, 2: SPY}, draw=BARON)
    knock_out(h, 1)
    h.protected[2] = True
    events = play(h, Order(PRINCE, 1))
    assert only(events, "played").recipient == 0
    assert only(events, "prince").card == BARON


def test_choose_pair_lets_the_mark_take_the_first_players_place():
    h = six({1: KING, 2: SPY}, draw=SYCOPHANT)
    play(h, Order(SYCOPHANT, 2))
    h.cards[1] = [KING, CARDINAL]
    assert choose_pair(h, 1, CARDINAL, 3, 4, None) == (2, 4, 0)
    assert only(play(h, Order(CARDINAL, 3, None, 4)), "chose").chosen == (2, 4)


def test_a_second_card_that_marks_is_refused_when_the_tables_are_derived():
    from pbem import engine

    saved = engine.CARD_RULES[JESTER]
    engine.CARD_RULES[JESTER] = engine.CardRule(engine._no_effect, binds_next=engine._follow_mark)
    try:
        with pytest.raises(AssertionError, match="^one card marks$"):
            engine._derive_tables()
    finally:
        engine.CARD_RULES[JESTER] = saved
        engine._derive_tables()


def test_with_no_card_that_marks_a_mark_binds_nothing():
    from pbem import engine

    saved = engine.CARD_RULES[SYCOPHANT]
    engine.CARD_RULES[SYCOPHANT] = engine.CardRule(engine._no_effect)
    try:
        engine._derive_tables()
        assert engine._bind_next is engine._no_binding
    finally:
        engine.CARD_RULES[SYCOPHANT] = saved
        engine._derive_tables()


def test_a_two_player_games_deal_events_give_each_hands_number_and_face_up_cards():
    decks = {n: shuffled_deck("faces", n, 2) for n in range(1, 14)}
    events = deal_events(Game.new(2, decks))
    assert [(e.hand, e.cards) for e in events] == [(n, decks[n][1:4]) for n in range(1, 14)]
    assert deal_events(Game.new(3, {n: shuffled_deck("faces", n) for n in range(1, 14)})) == []


def test_an_order_played_is_no_nmr_play_in_its_event():
    h = hand(3, 1, {0: GUARD, 1: KING, 2: SPY}, draw=PRINCE)
    assert only(play(h, Order(GUARD, 1, SPY)), "played").nmr is False


def test_a_hand_that_has_ended_has_no_play():
    h = hand(3, 1, {0: PRINCESS, 1: GUARD, 2: SPY}, draw=HANDMAID)
    knock_out(h, 2)
    play(h, Order(PRINCESS))  # seat 0 discards the Princess: seat 1 alone is in
    assert h.ended
    with pytest.raises(AssertionError, match="^an ended hand has no play$"):
        play(h, None)


def test_a_hand_just_dealt_has_not_ended_in_plain_data():
    data = hand(4, 3, {0: GUARD, 1: KING, 2: SPY, 3: BARON}, draw=PRINCE).to_dict()
    assert data["ended"] is False and data["active"] == 2 and data["winners"] == []


def test_a_wrong_deck_is_refused_with_the_cards_a_deck_must_hold():
    with pytest.raises(ValueError) as refused:
        check_deck(FULL_DECK[:-1])
    assert str(refused.value) == (
        "a deck must be exactly the 16 cards of the game "
        "(5 Guards, 2 Spies, 2 Barons, 2 Handmaids, 2 Princes, King, Countess, Princess)"
    )
    with pytest.raises(ValueError) as refused:
        check_deck(PREMIUM_DECK[1:] + (GUARD,), 7)
    assert str(refused.value) == (
        "a deck must be exactly the 32 cards of the Premium deck (Assassin, Jester, 8 Guards, "
        "2 Spies, 2 Cardinals, 2 Barons, 2 Baronesses, 2 Handmaids, 2 Sycophants, 2 Princes, "
        "2 Counts, King, Constable, Countess, Dowager Queen, Princess, Bishop)"
    )
