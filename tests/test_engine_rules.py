"""Every rule of RULES.md, with exact decks and orders (sections noted per test)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from rulekit import (
    BARON,
    COUNTESS,
    GUARD,
    HANDMAID,
    KING,
    PRINCE,
    PRINCESS,
    SPY,
    deck,
    hand,
    kinds,
    only,
    play,
    public_cards,
    rng,
    uses,
)

from pbem import events as ev
from pbem.cards import CLASSIC_CARDS, FULL_DECK, Card
from pbem.engine import (
    Game,
    Hand,
    Order,
    check_deck,
    default_card,
    first_player,
    game_winners,
    play_turn,
    random_guess,
    resolve_turn,
    seat_order,
    shuffled_deck,
    tokens_to_win,
)

# -- 1. players, seats, cards ---------------------------------------------------


def test_deck_is_the_classic_sixteen():
    counts = Counter(FULL_DECK)
    assert len(FULL_DECK) == 16
    assert counts == {GUARD: 5, SPY: 2, BARON: 2, HANDMAID: 2, PRINCE: 2, KING: 1, COUNTESS: 1, PRINCESS: 1}


@pytest.mark.parametrize(
    "alias, card",
    [
        ("priest", SPY),
        ("Courtier", SPY),
        ("DIPLOMAT", BARON),
        ("shugenja", HANDMAID),
        ("Hatamoto", PRINCE),
        ("manipulator", KING),
        ("Sensei", COUNTESS),
        ("princess", PRINCESS),
    ],
)
def test_aliases_name_the_canonical_card(alias, card):
    from pbem.cards import card_named

    assert card_named(alias) is card
    assert card.title == card.name.capitalize()


def test_tokens_to_win():
    assert tokens_to_win(3) == 5
    assert tokens_to_win(4) == 4


def test_seating_is_shuffled_by_seed_reproducibly():
    names = ["Arthur", "Bruno", "Charles", "Dora"]
    assert seat_order("s1", names) == seat_order("s1", names)
    assert sorted(seat_order("s1", names)) == sorted(names)
    assert len({tuple(seat_order(str(i), names)) for i in range(20)}) > 1


@pytest.mark.parametrize("bad", [FULL_DECK[:-1], FULL_DECK + (GUARD,), (GUARD,) * 6 + FULL_DECK[6:]])
def test_a_deck_must_be_exactly_the_sixteen(bad):
    with pytest.raises(ValueError):
        check_deck(tuple(bad))


# -- 2. thirteen hands at once ----------------------------------------------------


def test_first_player_rotates_three_players():
    assert [first_player(h, 3) + 1 for h in range(1, 14)] == [1, 2, 3] * 4 + [1]


def test_first_player_rotates_four_players():
    assert [first_player(h, 4) + 1 for h in range(1, 14)] == [1, 2, 3, 4] * 3 + [1]


@pytest.mark.parametrize("players, number", [(3, 1), (3, 2), (3, 3), (4, 4), (4, 6)])
def test_setup_follows_deck_order(players, number):
    cards = list(shuffled_deck("setup", number))
    h = Hand.deal(number, cards, players)
    first = first_player(number, players)
    assert h.set_aside == cards[0]
    for i in range(players):
        seat = (first + i) % players
        assert h.cards[seat][0] == cards[1 + i]
    assert h.cards[first] == [cards[1], cards[1 + players]]
    assert h.active == first
    assert list(reversed(h.pile)) == cards[2 + players :]
    assert len(h.pile) == 16 - 1 - players - 1


@uses(GUARD)
def test_next_active_player_draws_and_skips_players_out():
    # Seat 0 (first) plays a Guard on seat 1 and hits: seat 2 is next, not seat 1.
    h = hand(3, 1, {0: GUARD, 1: PRINCE, 2: BARON}, draw=SPY, pile=[KING, COUNTESS])
    events = play(h, Order(GUARD, 1, PRINCE))
    assert only(events, "guard").hit
    assert not h.alive[1]
    assert h.active == 2
    assert h.cards[2] == [BARON, KING]  # drew the top of the pile
    # Seat 2 plays; seat 0 is next around the board (wrapping), seat 1 skipped.
    play(h, Order(KING, 0))
    assert h.active == 0


def test_a_hand_lasts_at_most_twelve_turns_with_three_and_eleven_with_four():
    for players, most in ((3, 12), (4, 11)):
        for seed in range(200):
            h = Hand.deal(1, shuffled_deck(str(seed), 1), players)
            r = random.Random(seed)
            turns = 0
            while not h.ended:
                play_turn(h, None, r, [])
                turns += 1
            assert turns <= most
            # Without any elimination the hand runs to the very last card.
        assert most == 16 - 1 - players


def test_hands_resolve_independently():
    decks = {n: shuffled_deck("indep", n) for n in range(1, 14)}
    game = Game.new(3, decks)
    a, _ = resolve_turn(game, {}, "seed")
    # Another order in hand 1 changes nothing in hands 2..13.
    h1 = game.hand(1)
    other = next(c for c in h1.cards[0] if c not in (PRINCESS,))
    b, _ = resolve_turn(game, {1: Order(other, 1, SPY)}, "seed")
    for n in range(2, 14):
        assert a.hand(n).to_dict() == b.hand(n).to_dict()


def test_resolve_turn_does_not_touch_its_input():
    game = Game.new(4, {n: shuffled_deck("pure", n) for n in range(1, 14)})
    before = game.to_dict()
    resolve_turn(game, {}, "s")
    assert game.to_dict() == before


# -- 4. Handmaid protection and redirection -------------------------------------------


def test_handmaid_protects_until_the_player_is_next_active():
    h = hand(3, 1, {0: HANDMAID, 1: GUARD, 2: GUARD}, draw=GUARD, pile=[GUARD, SPY, BARON])
    events = play(h, Order(HANDMAID))
    assert only(events, "protected").seat == 0 and h.protected[0]
    play(h, Order(GUARD, 2, PRINCE))  # seat 1
    assert h.protected[0]
    play(h, Order(GUARD, 1, PRINCE))  # seat 2; now seat 0 becomes active again
    assert h.active == 0 and not h.protected[0]


@uses(GUARD)
def test_order_on_protected_player_is_redirected_to_the_next_around_the_board():
    # 4 players; seat 1 protected; seat 0 plays a Guard on seat 1 -> seat 2.
    h = hand(4, 1, {0: GUARD, 1: HANDMAID, 2: PRINCE, 3: BARON}, draw=GUARD)
    h.protected[1] = True
    events = play(h, Order(GUARD, 1, PRINCE))
    played = only(events, "played")
    assert played.redirected and played.target == 1 and played.recipient == 2
    assert only(events, "guard").hit  # seat 2 held the Prince


def test_redirection_wraps_and_skips_the_acting_player_for_a_guard():
    # seat 0 acts, targets seat 3 (protected); next after 3 is 0 (actor, skipped), then 1.
    h = hand(4, 1, {0: GUARD, 1: BARON, 2: PRINCE, 3: HANDMAID}, draw=GUARD)
    h.protected[3] = True
    played = only(play(h, Order(GUARD, 3, BARON)), "played")
    assert played.recipient == 1


@uses(GUARD)
def test_redirection_skips_players_out_and_protected():
    h = hand(4, 1, {0: GUARD, 1: BARON, 2: PRINCE, 3: HANDMAID}, draw=GUARD)
    h.protected[1] = True
    h.alive[2] = False
    h.discards[2].extend(h.cards[2])
    h.cards[2] = []
    played = only(play(h, Order(GUARD, 1, HANDMAID)), "played")
    assert played.recipient == 3


def test_prince_redirected_may_land_on_the_acting_player():
    # 3 players: seat 0 plays a Prince on seat 1 (protected); next after 1 is 2 (protected), then 0.
    h = hand(3, 1, {0: PRINCE, 1: GUARD, 2: GUARD}, draw=GUARD, pile=[SPY])
    h.protected[1] = h.protected[2] = True
    events = play(h, Order(PRINCE, 1))
    played = only(events, "played")
    assert played.redirected and played.recipient == 0
    assert only(events, "prince").recipient == 0
    assert h.discards[0] == [PRINCE, GUARD]  # played the Prince, then discarded the Guard
    assert h.cards[0] == [SPY]


def test_nobody_valid_guard_spy_baron_king_have_no_effect():
    for card in (GUARD, SPY, BARON, KING):
        held = {0: card, 1: GUARD, 2: GUARD}
        if card == GUARD:
            held = {0: GUARD, 1: SPY, 2: SPY}
        h = hand(3, 1, held, draw=GUARD if card != GUARD else BARON)
        h.protected[1] = h.protected[2] = True
        before_cards = [list(c) for c in h.cards]
        events = play(h, Order(card, 1, PRINCE))
        played = only(events, "played")
        assert played.recipient is None and played.redirected
        assert kinds(events) == ["played"]
        assert h.cards[1][0] == before_cards[1][0] and h.cards[2] == before_cards[2]


def test_prince_with_nobody_else_valid_targets_the_player():
    h = hand(3, 1, {0: PRINCE, 1: GUARD, 2: GUARD}, draw=BARON, pile=[SPY])
    h.protected[1] = h.protected[2] = True
    events = play(h, Order(PRINCE, None))  # no target named: completed -> only the player is valid
    assert only(events, "played").recipient == 0
    assert only(events, "prince").card == BARON


@uses(SPY)
def test_report_names_target_and_recipient_of_a_redirection():
    h = hand(3, 1, {0: SPY, 1: HANDMAID, 2: KING}, draw=GUARD)
    h.protected[1] = True
    events = play(h, Order(SPY, 1))
    played = only(events, "played")
    assert (played.target, played.recipient, played.redirected) == (1, 2, True)
    assert only(events, "spy_saw").card == KING


# -- 5. NMR defaults ----------------------------------------------------------------------


def test_nmr_plays_the_other_card_when_holding_the_princess():
    for other in (GUARD, SPY, BARON, HANDMAID, PRINCE, KING, COUNTESS):
        for seed in range(5):
            assert default_card([PRINCESS, other], rng(seed)) == other
            assert default_card([other, PRINCESS], rng(seed)) == other


def test_nmr_plays_the_countess_with_the_king_or_a_prince():
    for other in (KING, PRINCE):
        for seed in range(5):
            assert default_card([COUNTESS, other], rng(seed)) == COUNTESS
            assert default_card([other, COUNTESS], rng(seed)) == COUNTESS


def test_nmr_otherwise_picks_either_card_at_random():
    picks = Counter(default_card([GUARD, BARON], rng(seed)) for seed in range(400))
    assert set(picks) == {GUARD, BARON}
    assert 120 < picks[GUARD] < 280


# The defaults as play_turn applies them, with and without events (RULES 5.1-5.3):
# the helpers above could be right while the engine plays something else.


def play_quiet(h: Hand, order: Order | None, seed: int = 0) -> None:
    play_turn(h, order, rng(seed), None)


@pytest.mark.parametrize("player", [play, play_quiet])
@pytest.mark.parametrize("other", [GUARD, SPY, BARON, HANDMAID, PRINCE, KING, COUNTESS])
def test_play_turn_nmr_plays_the_other_card_when_holding_the_princess(player, other):
    for seed in range(6):
        for dealt, drawn in ((PRINCESS, other), (other, PRINCESS)):
            h = hand(
                3,
                1,
                {0: dealt, 1: GUARD, 2: GUARD} if other != GUARD else {0: dealt, 1: SPY, 2: SPY},
                draw=drawn,
            )
            player(h, None, seed)
            assert h.discards[0][0] == other, (dealt, drawn, seed)


@pytest.mark.parametrize("player", [play, play_quiet])
@pytest.mark.parametrize("other", [KING, PRINCE])
def test_play_turn_nmr_plays_the_countess_with_the_king_or_a_prince(player, other):
    for seed in range(6):
        for dealt, drawn in ((COUNTESS, other), (other, COUNTESS)):
            h = hand(3, 1, {0: dealt, 1: GUARD, 2: GUARD}, draw=drawn)
            player(h, None, seed)
            assert h.discards[0] == [COUNTESS] and h.alive[0], (dealt, drawn, seed)


@pytest.mark.parametrize("player", [play, play_quiet])
def test_play_turn_nmr_otherwise_plays_either_card(player):
    played = Counter()
    for seed in range(200):
        h = hand(3, 1, {0: HANDMAID, 1: GUARD, 2: GUARD}, draw=COUNTESS)
        player(h, None, seed)
        played[h.discards[0][0]] += 1
    assert set(played) == {HANDMAID, COUNTESS} and 50 < played[HANDMAID] < 150


def test_play_turn_nmr_guard_guess_is_never_a_guard_and_follows_the_pack():
    guesses = Counter()
    for seed in range(1100):
        h = hand(3, 1, {0: GUARD, 1: GUARD, 2: SPY}, draw=GUARD, pile=[BARON])
        guesses[only(play(h, None, seed), "played").guess] += 1
    assert GUARD not in guesses and set(guesses) == {SPY, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS}
    assert guesses[SPY] > guesses[KING] and guesses[BARON] > guesses[PRINCESS]


@uses(BARON, GUARD, KING, PRINCE, SPY)
def test_every_card_has_its_rule_in_the_table():
    from pbem.engine import ANY, CARD_RULES, OTHER, TARGETED

    assert set(CARD_RULES) == set(Card)
    assert TARGETED & set(CLASSIC_CARDS) == {GUARD, SPY, BARON, PRINCE, KING}
    assert CARD_RULES[PRINCE].targets == ANY and CARD_RULES[GUARD].targets == OTHER
    # A card that chooses nobody reads false, as the 0 the Targets enum replaced did.
    assert [c for c in CLASSIC_CARDS if not CARD_RULES[c].targets] == [HANDMAID, COUNTESS, PRINCESS]
    assert [c for c in CLASSIC_CARDS if CARD_RULES[c].guesses] == [GUARD]


def test_play_turn_without_events_leaves_the_same_hand():
    for seed in range(300):
        loud = Hand.deal(1 + seed % 13, shuffled_deck(str(seed), 1), 3 + seed % 2)
        quiet = loud.copy()
        r1, r2 = rng(seed), rng(seed)
        out: list = []
        while not loud.ended:
            play_turn(loud, None, r1, out)
            play_turn(quiet, None, r2, None)
            assert quiet.to_dict() == loud.to_dict()
        assert quiet.ended and out


@uses(BARON, GUARD)
def test_nmr_target_is_never_the_player_unless_prince_has_no_other():
    for seed in range(50):
        h = hand(4, 1, {0: GUARD, 1: BARON, 2: PRINCE, 3: SPY}, draw=BARON)
        played = only(play(h, None, seed), "played")
        assert played.nmr and played.recipient in (1, 2, 3)


@uses(GUARD)
def test_nmr_target_skips_protected_and_players_out():
    for seed in range(30):
        h = hand(4, 1, {0: GUARD, 1: BARON, 2: PRINCE, 3: SPY}, draw=GUARD)
        h.protected[1] = True
        h.alive[3] = False
        h.discards[3].extend(h.cards[3])
        h.cards[3] = []
        played = only(play(h, None, seed), "played")
        assert played.recipient == 2


def test_guard_guess_distribution_is_count_over_eleven():
    r = random.Random(12345)
    n = 55_000
    counts = Counter(random_guess(r) for _ in range(n))
    assert GUARD not in counts
    expected = {SPY: 2, BARON: 2, HANDMAID: 2, PRINCE: 2, KING: 1, COUNTESS: 1, PRINCESS: 1}
    for card, k in expected.items():
        share = counts[card] / n
        assert abs(share - k / 11) < 0.01, (card, share)


def test_nmr_is_marked_in_the_events():
    h = hand(3, 1, {0: HANDMAID, 1: GUARD, 2: GUARD}, draw=HANDMAID)
    played = only(play(h, None), "played")
    assert played.nmr and not played.random_target


# -- 3 and 5.4 / 5.5: completed orders ---------------------------------------------------------


@pytest.mark.parametrize("target", [None, 0, 7])
def test_guard_without_usable_target_gets_a_random_valid_one(target):
    h = hand(3, 1, {0: GUARD, 1: BARON, 2: PRINCE}, draw=SPY)
    played = only(play(h, Order(GUARD, target, KING)), "played")
    assert played.random_target and played.recipient in (1, 2)


@uses(SPY)
def test_target_out_of_the_hand_gets_a_random_valid_one():
    h = hand(3, 1, {0: BARON, 1: GUARD, 2: PRINCE}, draw=SPY)
    h.alive[1] = False
    h.discards[1].extend(h.cards[1])
    h.cards[1] = []
    played = only(play(h, Order(SPY, 1)), "played")
    assert played.random_target and played.recipient == 2


@pytest.mark.parametrize("guess", [None, GUARD])
def test_guard_without_guess_or_guessing_guard_gets_a_random_non_guard(guess):
    for seed in range(20):
        h = hand(3, 1, {0: GUARD, 1: BARON, 2: PRINCE}, draw=SPY)
        events = play(h, Order(GUARD, 1, guess), seed)
        played = only(events, "played")
        assert played.random_guess and played.guess not in (None, GUARD)
        assert only(events, "guard").guess == played.guess


# -- 6. card effects ---------------------------------------------------------------------------------


def test_guard_hit_eliminates_and_reveals():
    h = hand(3, 1, {0: GUARD, 1: KING, 2: PRINCE}, draw=SPY)
    events = play(h, Order(GUARD, 1, KING))
    assert only(events, "guard").hit
    out = only(events, "eliminated")
    assert (out.seat, out.card) == (1, KING)
    assert h.discards[1] == [KING] and h.cards[1] == [] and not h.alive[1]


def test_guard_miss_reveals_nothing():
    h = hand(3, 1, {0: GUARD, 1: KING, 2: PRINCE}, draw=SPY)
    events = play(h, Order(GUARD, 1, PRINCE))
    assert not only(events, "guard").hit
    assert h.alive[1] and h.cards[1][0] == KING
    assert all(e.kind != "eliminated" for e in events)


def test_spy_result_is_private_to_the_player():
    h = hand(3, 1, {0: SPY, 1: PRINCESS, 2: PRINCE}, draw=GUARD)
    events = play(h, Order(SPY, 1))
    saw = only(events, "spy_saw")
    assert (saw.seat, saw.other, saw.card) == (0, 1, PRINCESS)
    assert saw.audience == (0,)
    assert PRINCESS not in public_cards(events)


def test_baron_lower_card_is_out_and_revealed_winner_secret():
    h = hand(3, 1, {0: BARON, 1: GUARD, 2: PRINCE}, draw=KING)  # seat 0 keeps the King
    events = play(h, Order(BARON, 1))
    assert only(events, "baron").loser == 1
    assert only(events, "eliminated").card == GUARD
    assert KING not in public_cards(events)  # the winner's King stays secret
    saws = {e.seat: (e.other, e.card) for e in events if e.kind == "baron_saw"}
    assert saws == {0: (1, GUARD), 1: (0, KING)}


def test_baron_loser_can_be_the_player():
    h = hand(3, 1, {0: BARON, 1: PRINCESS, 2: PRINCE}, draw=GUARD)
    events = play(h, Order(BARON, 1))
    assert only(events, "baron").loser == 0
    assert not h.alive[0] and h.discards[0] == [BARON, GUARD]


def test_baron_tie_nobody_out_nothing_revealed():
    h = hand(3, 1, {0: BARON, 1: GUARD, 2: PRINCE}, draw=GUARD)
    events = play(h, Order(BARON, 1))
    assert only(events, "baron").loser is None
    assert all(e.kind != "eliminated" for e in events)
    assert GUARD not in public_cards(events, skip_played=True)
    assert len([e for e in events if e.kind == "baron_saw"]) == 2


def test_handmaid_is_public_protection():
    h = hand(3, 1, {0: HANDMAID, 1: GUARD, 2: PRINCE}, draw=GUARD)
    events = play(h, Order(HANDMAID))
    assert only(events, "protected").audience is None


def test_prince_discard_and_draw_top_of_pile():
    h = hand(3, 1, {0: PRINCE, 1: BARON, 2: GUARD}, draw=GUARD, pile=[KING])
    events = play(h, Order(PRINCE, 1))
    assert only(events, "prince").card == BARON
    drew = only(events, "prince_drew")
    assert (drew.seat, drew.card, drew.audience) == (1, KING, (1,))
    assert h.discards[1] == [BARON] and h.cards[1][0] == KING  # then seat 1, next, drew again


def test_prince_on_princess_eliminates():
    h = hand(3, 1, {0: PRINCE, 1: PRINCESS, 2: GUARD}, draw=GUARD)
    events = play(h, Order(PRINCE, 1))
    assert only(events, "prince").card == PRINCESS
    assert not h.alive[1] and h.discards[1] == [PRINCESS]
    assert only(events, "eliminated").card is None


def test_prince_on_self():
    h = hand(3, 1, {0: PRINCE, 1: BARON, 2: GUARD}, draw=HANDMAID, pile=[SPY])
    play(h, Order(PRINCE, 0))
    assert h.discards[0] == [PRINCE, HANDMAID] and h.cards[0] == [SPY]


def test_prince_with_empty_pile_draws_the_set_aside_card():
    h = hand(3, 1, {0: GUARD, 1: BARON, 2: PRINCE}, draw=GUARD, set_aside=KING)
    h.pile.clear()
    h.cards[0] = [PRINCE, GUARD]
    events = play(h, Order(PRINCE, 1))
    assert only(events, "prince").from_set_aside
    assert h.cards[1] == [KING] and h.set_aside is None
    assert h.ended  # the pile is empty at the end of the turn


def test_king_trades_hands_privately():
    h = hand(3, 1, {0: KING, 1: PRINCESS, 2: PRINCE}, draw=GUARD)
    events = play(h, Order(KING, 1))
    assert h.cards[0] == [PRINCESS] and h.cards[1][0] == GUARD  # seat 1, next, drew after the trade
    received = {e.seat: e.card for e in events if e.kind == "king_received"}
    assert received == {0: PRINCESS, 1: GUARD}
    assert all(e.audience == (e.seat,) for e in events if e.kind == "king_received")


def test_countess_has_no_effect():
    h = hand(3, 1, {0: COUNTESS, 1: GUARD, 2: PRINCE}, draw=GUARD)
    events = play(h, Order(COUNTESS))
    assert kinds(events) == ["played"]


def test_countess_rule_engine_refuses_king_or_prince():
    for other in (KING, PRINCE):
        h = hand(3, 1, {0: COUNTESS, 1: GUARD, 2: PRINCE if other == KING else BARON}, draw=other)
        with pytest.raises(ValueError):
            play(h, Order(other, 1))


def test_playing_the_princess_is_legal_and_eliminates():
    h = hand(3, 1, {0: PRINCESS, 1: GUARD, 2: PRINCE}, draw=BARON)
    events = play(h, Order(PRINCESS))
    out = only(events, "eliminated")
    assert (out.seat, out.card) == (0, BARON)
    assert h.discards[0] == [PRINCESS, BARON]


def test_engine_refuses_a_card_not_held():
    h = hand(3, 1, {0: GUARD, 1: GUARD, 2: PRINCE}, draw=BARON)
    with pytest.raises(ValueError):
        play(h, Order(KING, 1))


# -- 7. end of a hand, tokens, end of the game ------------------------------------------------------


@uses(GUARD)
def test_last_one_standing_wins():
    h = hand(3, 1, {0: GUARD, 1: KING, 2: PRINCE}, draw=SPY)
    h.alive[2] = False
    h.discards[2].extend(h.cards[2])
    h.cards[2] = []
    events = play(h, Order(GUARD, 1, KING))
    end = only(events, "ended")
    assert end.winners == (0,) and h.ended and h.active is None


def test_showdown_highest_rank_wins():
    h = hand(3, 1, {0: HANDMAID, 1: KING, 2: PRINCE}, draw=GUARD, pile=[])
    h.pile.clear()
    events = play(h, Order(HANDMAID))
    end = only(events, "ended")
    assert end.winners == (1,)
    assert set(end.reveals) == {(0, GUARD), (1, KING), (2, PRINCE)}
    assert end.totals == ()


def test_showdown_tie_goes_to_higher_discard_total():
    h = hand(3, 1, {0: HANDMAID, 1: GUARD, 2: GUARD}, draw=GUARD)
    h.pile.clear()
    h.discards[1] = [PRINCE]  # total 5
    h.discards[2] = [SPY, SPY]  # total 4
    events = play(h, Order(HANDMAID))  # seat 0 keeps a Guard too; discards [H] = 4
    end = only(events, "ended")
    assert end.winners == (1,)
    assert dict(end.totals) == {0: 4, 1: 5, 2: 4}


def test_showdown_full_tie_is_a_shared_win():
    h = hand(3, 1, {0: HANDMAID, 1: GUARD, 2: GUARD}, draw=GUARD)
    h.pile.clear()
    h.discards[1] = [HANDMAID]
    h.discards[2] = [SPY, SPY]
    end = only(play(h, Order(HANDMAID)), "ended")
    assert end.winners == (0, 1, 2)


def _game_with_tokens(players: int, tokens: list[int], ended: int = 0) -> Game:
    game = Game.new(players, {n: shuffled_deck("t", n) for n in range(1, 14)})
    game.tokens = list(tokens)
    for h in game.hands[:ended]:
        h.ended, h.active = True, None
    return game


def test_game_ends_at_target_with_one_leader():
    assert game_winners(_game_with_tokens(3, [5, 2, 1])) == (0,)
    assert game_winners(_game_with_tokens(4, [1, 4, 3, 2])) == (1,)
    assert game_winners(_game_with_tokens(3, [4, 4, 4])) == ()
    assert game_winners(_game_with_tokens(4, [3, 3, 3, 3])) == ()


def test_tie_for_most_at_target_plays_on():
    assert game_winners(_game_with_tokens(3, [5, 5, 2])) == ()
    assert game_winners(_game_with_tokens(3, [6, 5, 2])) == (0,)


def test_tie_unbroken_when_every_hand_has_ended_is_shared():
    assert game_winners(_game_with_tokens(3, [5, 5, 3], ended=13)) == (0, 1)


@uses(GUARD)
def test_tokens_are_given_at_the_end_of_the_turn_and_game_ends_on_that_turn():
    game = Game.new(3, {n: shuffled_deck("end", n) for n in range(1, 14)})
    game.tokens = [4, 0, 0]
    # Hand 1: seat 0 plays a Guard and knocks out the last opponent.
    h = game.hand(1)
    h.cards = [[GUARD, SPY], [KING], []]
    h.alive = [True, True, False]
    new, events = resolve_turn(game, {1: Order(GUARD, 1, KING)}, "x")
    assert new.tokens[0] >= 5
    won = only(events, "tokens")
    assert (0, 1) in won.won
    assert new.finished and new.winners == (0,)
    assert events[-1].kind == "game_over"
    with pytest.raises(ValueError):
        resolve_turn(new, {}, "x")


def test_every_hand_winner_gets_one_token_even_when_shared():
    game = Game.new(3, {n: shuffled_deck("share", n) for n in range(1, 14)})
    h = game.hand(1)
    h.pile.clear()
    h.cards = [[HANDMAID, GUARD], [GUARD], [GUARD]]
    h.discards = [[], [HANDMAID], [SPY, SPY]]
    new, _ = resolve_turn(game, {1: Order(HANDMAID)}, "x")
    assert new.hand(1).winners == (0, 1, 2)
    assert new.tokens == [1, 1, 1]


# -- randomness ------------------------------------------------------------------------------


def test_same_seed_and_orders_same_result():
    game = Game.new(4, {n: shuffled_deck("det", n) for n in range(1, 14)})
    a, ea = resolve_turn(game, {}, "seed-1")
    b, eb = resolve_turn(game, {}, "seed-1")
    assert a.to_dict() == b.to_dict() and ea == eb


def test_state_round_trips_through_plain_data():
    game = Game.new(4, {n: shuffled_deck("rt", n) for n in range(1, 14)})
    for _ in range(4):
        game, _ = resolve_turn(game, {}, "rt")
    again = Game.from_dict(game.to_dict())
    assert again.to_dict() == game.to_dict()
    c, _ = resolve_turn(game, {}, "rt")
    d, _ = resolve_turn(again, {}, "rt")
    assert c.to_dict() == d.to_dict()


def test_events_round_trip_through_plain_data():
    game = Game.new(3, {n: shuffled_deck("ev", n) for n in range(1, 14)})
    while not game.finished:
        game, events = resolve_turn(game, {}, "ev")
        for e in events:
            assert ev.from_dict(ev.to_dict(e)) == e


def test_builders_make_full_decks():
    d = deck(4, 2, {0: GUARD, 1: PRINCE, 2: KING, 3: PRINCESS}, draw=COUNTESS, set_aside=SPY, pile=[BARON])
    assert sorted(d) == sorted(FULL_DECK)
    h = Hand.deal(2, d, 4)
    assert h.cards == [[GUARD], [PRINCE, COUNTESS], [KING], [PRINCESS]]
    assert h.set_aside == SPY and h.pile[-1] == BARON


def test_card_ranks_order():
    assert [c.value for c in CLASSIC_CARDS] == [c.rank for c in CLASSIC_CARDS] == list(range(1, 9))


# -- 9. two players ----------------------------------------------------------------------------


def test_two_players_win_with_seven_tokens():
    assert tokens_to_win(2) == 7
    assert game_winners(_game_with_tokens(2, [7, 3])) == (0,)
    assert game_winners(_game_with_tokens(2, [6, 6])) == ()
    assert game_winners(_game_with_tokens(2, [6, 5])) == ()


def test_two_players_a_tie_at_seven_plays_on_and_is_shared_when_every_hand_has_ended():
    assert game_winners(_game_with_tokens(2, [7, 7])) == ()
    assert game_winners(_game_with_tokens(2, [8, 7])) == (0,)
    assert game_winners(_game_with_tokens(2, [6, 6], ended=13)) == (0, 1)
    assert game_winners(_game_with_tokens(2, [3, 2], ended=13)) == (0,)


def test_two_players_seats_alternate_as_first_player():
    assert [first_player(h, 2) + 1 for h in range(1, 14)] == [1, 2] * 6 + [1]


@pytest.mark.parametrize("number", [1, 2, 7, 12])
def test_two_player_deal_sets_aside_one_lays_three_face_up_deals_and_draws(number):
    cards = list(shuffled_deck("duo", number))
    h = Hand.deal(number, cards, 2)
    first = first_player(number, 2)
    assert h.set_aside == cards[0]
    assert h.face_up == tuple(cards[1:4])
    assert h.cards[first] == [cards[4], cards[6]]
    assert h.cards[1 - first] == [cards[5]]
    assert list(reversed(h.pile)) == cards[7:] and len(h.pile) == 9
    assert h.active == first
    assert sorted(h.cards_accounted()) == sorted(FULL_DECK)


def test_three_and_four_player_hands_have_no_face_up_cards():
    for players in (3, 4):
        h = Hand.deal(1, shuffled_deck("x", 1), players)
        assert h.face_up == () and "face_up" not in h.to_dict()


def test_two_player_face_up_cards_are_never_drawn_and_a_hand_lasts_at_most_ten_turns():
    longest = 0
    for seed in range(300):
        cards = shuffled_deck(f"up{seed}", 1)
        h = Hand.deal(1 + seed % 13, cards, 2)
        up = h.face_up
        r = random.Random(seed)
        turns = 0
        while not h.ended:
            play_turn(h, None, r, [])
            turns += 1
            assert h.face_up == up
            assert sorted(h.cards_accounted()) == sorted(FULL_DECK)
            in_play = Counter(c for held in h.cards for c in held) + Counter(c for d in h.discards for c in d)
            assert not in_play - (Counter(cards) - Counter(up))  # no face-up copy ever came into play
        longest = max(longest, turns)
    assert longest == 10


def test_two_player_prince_on_an_empty_pile_gives_the_set_aside_card_not_a_face_up_one():
    h = hand(2, 1, {0: PRINCE, 1: BARON}, draw=GUARD, set_aside=KING, face_up=[PRINCESS, COUNTESS, HANDMAID])
    h.pile.clear()
    events = play(h, Order(PRINCE, 1))
    assert only(events, "prince").from_set_aside
    assert only(events, "prince_drew").card == KING
    assert h.cards[1] == [KING] and h.set_aside is None and h.face_up == (PRINCESS, COUNTESS, HANDMAID)
    assert h.ended


def test_two_player_state_round_trips_with_its_face_up_cards():
    h = hand(2, 2, {0: BARON, 1: PRINCE}, draw=GUARD, face_up=[PRINCESS, COUNTESS, HANDMAID])
    again = Hand.from_dict(h.to_dict())
    assert again.face_up == (PRINCESS, COUNTESS, HANDMAID) and again.to_dict() == h.to_dict()
    assert again.copy().face_up == (PRINCESS, COUNTESS, HANDMAID)


@pytest.mark.parametrize("card", [GUARD, SPY, BARON, KING])
@uses(BARON, GUARD, KING, SPY)
def test_two_players_a_card_on_the_protected_opponent_has_no_effect(card):
    held = {0: card, 1: SPY} if card == GUARD else {0: card, 1: GUARD}
    h = hand(2, 1, held, draw=HANDMAID if card != HANDMAID else GUARD)
    h.protected[1] = True
    before = list(h.cards[1])
    events = play(h, Order(card, 1, SPY))
    played = only(events, "played")
    assert played.redirected and played.target == 1 and played.recipient is None
    assert kinds(events) == ["played"]
    assert h.alive[1] and h.cards[1][:1] == before


def test_two_players_a_prince_on_the_protected_opponent_goes_to_the_player():
    h = hand(2, 1, {0: PRINCE, 1: GUARD}, draw=BARON, pile=[SPY])
    h.protected[1] = True
    events = play(h, Order(PRINCE, 1))
    played = only(events, "played")
    assert played.redirected and played.recipient == 0
    assert h.discards[0] == [PRINCE, BARON] and h.cards[0] == [SPY]


@uses(PRINCE)
def test_two_players_nmr_with_the_opponent_protected():
    for seed in range(20):
        h = hand(2, 1, {0: GUARD, 1: SPY}, draw=BARON)  # Guard or Baron: neither can reach the opponent
        h.protected[1] = True
        events = play(h, None, seed)
        assert only(events, "played").recipient is None and len(events) == 1
        h = hand(2, 1, {0: PRINCE, 1: SPY}, draw=HANDMAID, pile=[GUARD])
        h.protected[1] = True
        events = play(h, None, seed)
        if only(events, "played").card == PRINCE:
            assert only(events, "prince").recipient == 0


def test_two_players_showdown_tie_goes_to_discards_then_is_shared():
    h = hand(2, 1, {0: HANDMAID, 1: GUARD}, draw=GUARD)
    h.pile.clear()
    h.discards[1] = [PRINCE]  # 5 against seat 0's Handmaid, 4
    end = only(play(h, Order(HANDMAID)), "ended")
    assert end.winners == (1,) and dict(end.totals) == {0: 4, 1: 5}
    h = hand(2, 1, {0: HANDMAID, 1: GUARD}, draw=GUARD)
    h.pile.clear()
    h.discards[1] = [HANDMAID]
    end = only(play(h, Order(HANDMAID)), "ended")
    assert end.winners == (0, 1)


@uses(GUARD)
def test_two_player_game_gives_a_token_per_hand_and_ends_at_seven():
    game = Game.new(2, {n: shuffled_deck("duo7", n) for n in range(1, 14)})
    game.tokens = [6, 6]
    h = game.hand(1)
    h.cards = [[GUARD, SPY], [KING]]
    new, events = resolve_turn(game, {1: Order(GUARD, 1, KING)}, "x")
    assert new.tokens[0] >= 7 and (0, 1) in only(events, "tokens").won
    if new.tokens[0] > new.tokens[1]:
        assert new.finished and new.winners == (0,)


def test_the_classic_deck_is_for_two_to_four_players():
    with pytest.raises(ValueError, match="32 cards of the Premium deck"):
        Hand.deal(1, FULL_DECK, 5)
    with pytest.raises(ValueError, match="2 to 4"):
        Hand.deal(1, FULL_DECK, 1)
    with pytest.raises(ValueError, match="2 to 4"):
        Hand.deal(1, FULL_DECK, 9)


def test_two_players_the_face_up_cards_are_never_drawn():
    h = hand(2, 1, {0: GUARD, 1: GUARD}, draw=SPY, face_up=[PRINCESS, COUNTESS, KING], pile=[BARON, HANDMAID])
    seen: list[Card] = []
    r = random.Random(3)
    while not h.ended:
        seen.extend(c for cs in h.cards for c in cs)
        play_turn(h, None, r, [])
    assert tuple(h.face_up) == (PRINCESS, COUNTESS, KING)
    assert PRINCESS not in seen and COUNTESS not in seen and KING not in seen


def test_two_players_prince_on_an_empty_pile_gives_the_set_aside_card():
    h = hand(2, 1, {0: PRINCE, 1: GUARD}, draw=GUARD, set_aside=KING, face_up=[PRINCESS, COUNTESS, BARON])
    h.pile.clear()
    events = play(h, Order(PRINCE, 1))
    assert h.discards[1] == [GUARD] and h.cards[1] == [KING] and h.set_aside is None
    assert h.face_up and KING not in public_cards(events)


@pytest.mark.parametrize("card", [GUARD, SPY, BARON, KING])
def test_two_players_a_card_aimed_at_the_protected_opponent_has_no_effect(card):
    h = hand(
        2,
        1,
        {0: card, 1: HANDMAID},
        draw=PRINCESS if card != GUARD else COUNTESS,
        face_up=[PRINCE, PRINCE, GUARD],
    )
    h.protected[1] = True
    before1 = list(h.cards[1])
    held0 = [c for c in h.cards[0] if c is not card]
    events = play(h, Order(card, 1, Card.COUNTESS if card is GUARD else None))
    assert only(events, "played").recipient is None
    assert h.alive[0] and h.alive[1] and h.cards[0] == held0  # nothing traded, nobody out
    assert h.cards[1][:1] == before1


def test_two_players_a_prince_at_the_protected_opponent_goes_to_the_player():
    h = hand(2, 1, {0: PRINCE, 1: HANDMAID}, draw=GUARD, face_up=[BARON, BARON, SPY], pile=[COUNTESS])
    h.protected[1] = True
    events = play(h, Order(PRINCE, 1))
    assert only(events, "prince").recipient == 0 and h.discards[0] == [PRINCE, GUARD]


def test_two_players_seven_tokens_win_and_six_do_not():
    from pbem.engine import tokens_to_win

    assert tokens_to_win(2) == 7
    decks = {n: shuffled_deck("duo", n, 2) for n in range(1, 14)}
    game = Game.new(2, decks)
    game.tokens = [6, 5]
    assert game_winners(game) == ()
    game.tokens = [7, 5]
    assert game_winners(game) == (0,)
    game.tokens = [7, 7]
    assert game_winners(game) == ()


def test_two_players_seat_one_first_in_odd_hands_seat_two_in_even():
    decks = {n: shuffled_deck("duo", n, 2) for n in range(1, 14)}
    game = Game.new(2, decks)
    assert [game.hand(n).active for n in range(1, 14)] == [(n - 1) % 2 for n in range(1, 14)]
    assert all(len(game.hand(n).pile) == 9 for n in range(1, 14))


def test_a_two_player_hand_lasts_at_most_ten_turns():
    longest = 0
    for seed in range(200):
        h = Hand.deal(1, shuffled_deck(str(seed), 1, 2), 2)
        r = random.Random(seed)
        turns = 0
        while not h.ended:
            play_turn(h, None, r, [])
            turns += 1
        longest = max(longest, turns)
    assert longest <= 10
