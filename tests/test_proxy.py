"""The proxy (pbem/proxy.py, issue 24 item 4): it decides from what its player
knows and nothing else, every play it makes is legal, it respects every forced
play and never discards the Princess while it can avoid it.

Positions are random: a hand of 2 to 8 players (the Premium deck from 5) dealt
from a random deck and played some way in by a mix of NMR defaults, random
orders and the proxy, each player's knowledge kept as their private mail keeps
it (pbem/knowledge.py)."""

from __future__ import annotations

import random

from builders import B, C, G, H, K, P, S, X, hand
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pbem.cards import RANK, Card
from pbem.engine import (
    ANY,
    CARD_RULES,
    PREMIUM_PLAYERS,
    Hand,
    Order,
    full_deck,
    legal_cards,
    play_turn,
)
from pbem.knowledge import update
from pbem.proxy import Seen, decide, discards_princess, plays, seen_by, unseen

PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _random_order(hand: Hand, rng: random.Random) -> Order:
    """A random legal order (targets and guesses at random, as a careless player writes)."""
    legal = legal_cards(hand.cards[hand.active])
    card = legal[int(rng.random() * len(legal))]
    n = hand.players
    if hand.premium:
        return Order(card, rng.randrange(n), rng.randrange(10), rng.randrange(n))
    return Order(card, rng.randrange(n), Card(rng.randrange(1, 9)))


def _position(players: int, seed: int, plays_before: int) -> tuple[Hand, dict]:
    """A hand some plays in, and what every player knows of it."""
    rng = random.Random(seed)
    deck = list(full_deck(players))
    rng.shuffle(deck)
    h = Hand.deal(rng.randrange(1, 14), deck, players)
    known: dict = {}
    for turn in range(1, plays_before + 1):
        if h.ended:
            break
        kind = rng.random()
        if kind < 0.4:
            order = None
        elif kind < 0.7:
            order = _random_order(h, rng)
        else:
            order = decide(seen_by(h, h.active, known), rng)
        out: list = []
        play_turn(h, order, rng, out)
        known = update(known, turn, out)
    return h, known


def _give(h: Hand, card: Card, slot: int) -> bool:
    """Put ``card`` in the active player's hand (slot 0 or 1), swapped with a copy
    from another hand still in, the pile or the set-aside card. False when every
    copy is face up or discarded."""
    seat = h.active
    mine = h.cards[seat]
    if mine[slot] == card:
        return True
    if mine[1 - slot] == card:
        mine.reverse()
        return True
    for p in range(h.players):
        if p != seat and h.alive[p] and h.cards[p] and h.cards[p][0] == card:
            h.cards[p][0], mine[slot] = mine[slot], card
            return True
    if card in h.pile:
        i = h.pile.index(card)
        h.pile[i], mine[slot] = mine[slot], card
        return True
    if h.set_aside == card:
        h.set_aside, mine[slot] = mine[slot], card
        return True
    return False


positions = st.tuples(st.integers(2, 8), st.integers(0, 2**32), st.integers(0, 30))


def _twin(h: Hand, seat: int, known: dict, seed: int) -> tuple[Hand, dict]:
    """The same position with every card ``seat`` has not seen dealt again: the
    other players' unknown cards, the draw pile and the set-aside card change
    places; what other players know is replaced by nonsense."""
    twin = h.copy()
    mine = {e["other"] for e in known.get(seat, ()) if e["hand"] == h.number and not e["may_have_changed"]}
    hidden_seats = [p for p in range(h.players) if p != seat and h.alive[p] and p not in mine]
    cards = [twin.cards[p][0] for p in hidden_seats] + twin.pile
    if twin.set_aside is not None:
        cards.append(twin.set_aside)
    random.Random(seed).shuffle(cards)
    for p in hidden_seats:
        twin.cards[p] = [cards.pop()]
    if twin.set_aside is not None:
        twin.set_aside = cards.pop()
    twin.pile = cards
    other_knowledge = {
        s: [dict(e, card="Princess", other=(e["other"] + 1) % h.players) for e in entries]
        for s, entries in known.items()
        if s != seat
    }
    return twin, {**other_knowledge, seat: known.get(seat, [])}


@PROPS
@given(positions, st.integers(0, 2**32))
def test_twin_positions_that_differ_only_in_unseen_cards_get_the_same_play(position, shuffle):
    h, known = _position(*position)
    assume(not h.ended)
    seat = h.active
    twin, twin_known = _twin(h, seat, known, shuffle)
    assert sorted(twin.cards_accounted()) == sorted(h.cards_accounted())
    seen, seen_twin = seen_by(h, seat, known), seen_by(twin, seat, twin_known)
    assert seen == seen_twin
    assert decide(seen, random.Random(7)) == decide(seen_twin, random.Random(7))


@PROPS
@given(positions)
def test_every_play_of_the_proxy_is_legal_and_complete(position):
    h, known = _position(*position)
    assume(not h.ended)
    seat = h.active
    held = list(h.cards[seat])
    order = decide(seen_by(h, seat, known), random.Random(position[1]))
    assert order.card in legal_cards(held)  # a held card; the Countess when she is forced
    rule = CARD_RULES[order.card]
    if rule.guesses:
        assert order.guess is not None
        if h.premium:
            assert isinstance(order.guess, int) and 0 <= order.guess <= 9 and order.guess != 1
        else:
            assert isinstance(order.guess, Card) and RANK[order.guess] != 1
    out: list = []
    play_turn(h.copy(), order, random.Random(0), out)  # the engine takes it as it is
    played = next(e for e in out if e.kind == "played")
    assert not played.random_target and not played.random_guess  # nothing left to chance
    for e in out:
        if e.kind == "chose":
            assert None not in e.named[:1]
    if rule.targets.players == 1 and h.marked is None:
        valid = [p for p in range(h.players) if h.alive[p] and not h.protected[p] and p != seat]
        if valid:
            assert order.target in valid + ([seat] if rule.targets == ANY else [])
            assert not played.redirected


@PROPS
@given(st.tuples(st.integers(2, 8), st.integers(0, 2**32), st.integers(0, 30), st.integers(0, 1)))
def test_the_proxy_never_discards_the_princess_when_it_can_avoid_it(position):
    h, known = _position(*position[:3])
    assume(not h.ended)
    seat = h.active
    assume(_give(h, X, position[3]))
    held = list(h.cards[seat])
    seen = seen_by(h, seat, known)
    order = decide(seen, random.Random(position[1]))
    out: list = []
    play_turn(h.copy(), order, random.Random(0), out)
    # Discarded: played, or thrown away by her own player's Prince (a knock-out by the
    # Assassin reveals her, which no play could have foreseen).
    discarded = order.card == X or any(
        e.kind == "prince" and e.recipient == seat and e.card == X for e in out
    )
    others = [p for p in range(h.players) if p != seat and h.alive[p] and not h.protected[p]]
    unavoidable = sorted(held) == sorted([P, X]) and (h.marked == seat or (not others and h.marked is None))
    assert not discarded or unavoidable
    assert not discards_princess(seen, order) or unavoidable


def test_the_proxy_never_plays_the_princess_nor_a_prince_on_her():
    h = hand(3, 1, {0: X, 1: G, 2: B}, draw=P)
    for seed in range(50):
        order = decide(seen_by(h, 0), random.Random(seed))
        assert order.card == P and order.target != 0


@PROPS
@given(positions, st.sampled_from([K, P]), st.integers(0, 1))
def test_the_countess_is_played_with_the_king_or_a_prince(position, other, slot):
    h, known = _position(*position)
    assume(not h.ended)
    seat = h.active
    assume(_give(h, C, slot) and _give(h, other, 1 - slot))
    held = h.cards[seat]
    assert sorted(held) == sorted([C, other])
    assert decide(seen_by(h, seat, known), random.Random(1)).card == C


def test_the_countess_rule_in_a_fixed_hand():
    h = hand(4, 1, {0: C, 1: G, 2: G, 3: G}, draw=K)
    assert {o.card for _, o in plays(seen_by(h, 0))} == {C}


def test_a_card_seen_with_a_spy_is_known_until_it_may_have_changed_hands():
    h = hand(3, 1, {0: G, 1: K, 2: H}, draw=S, pile=[B, G])
    out: list = []
    play_turn(h, Order(S, 1), random.Random(0), out)
    known = update({}, 1, out)
    assert seen_by(h, 0, known).known == (None, K, None)
    assert seen_by(h, 2, known).known == (None, None, None)  # what seat 0 saw is not seat 2's
    out = []
    play_turn(h, Order(K, 0), random.Random(0), out)  # seat 1 trades its King away
    known = update(known, 2, out)
    # Seat 0 no longer knows the King's place, but knows the Guard it gave seat 1.
    assert seen_by(h, 0, known).known[1] == G
    assert seen_by(h, 1, known).known[0] == B  # and seat 1 knows the Baron it gave


def test_what_it_knows_is_counted_out_of_the_unseen_cards():
    h = hand(3, 1, {0: G, 1: X, 2: H}, draw=S)
    seen = seen_by(h, 0)
    pool = unseen(seen)
    assert sum(pool.values()) == 16 - 2
    assert pool[G] == 4 and pool[S] == 1 and pool[X] == 1
    told = Seen(**{**seen._asdict(), "known": (None, X, None)})
    assert X not in unseen(told)


def test_the_guard_names_a_card_the_player_saw_with_a_spy():
    h = hand(3, 1, {0: G, 1: K, 2: H}, draw=S)
    seen = Seen(**{**seen_by(h, 0)._asdict(), "known": (None, K, None)})
    order = decide(seen, random.Random(0))
    assert (order.card, order.target, order.guess) == (G, 1, K)


def test_a_premium_decision_respects_the_sycophants_mark():
    players = 6
    assert players in PREMIUM_PLAYERS
    for seed in range(200):
        h, known = _position(players, seed, 6)
        if h.ended or h.marked is None:
            continue
        seat = h.active
        order = decide(seen_by(h, seat, known), random.Random(seed))
        out: list = []
        play_turn(h.copy(), order, random.Random(0), out)
        assert not next(e for e in out if e.kind == "played").random_target


def test_untargeted_hands_and_handmaids():
    h = hand(2, 1, {0: H, 1: G}, draw=S, face_up=[B, B, P])
    order = decide(seen_by(h, 0), random.Random(0))
    assert order.card in (H, S)
