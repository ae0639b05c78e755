"""Properties over thousands of random games (hypothesis).

* every hand's 16 cards are accounted for after every turn (two-player games
  included: their three face-up cards never move);
* the hand invariants hold (the active player holds two cards, others one);
* every game ends, with a winner, within the turns thirteen hands allow;
* the same seed and orders give the same result;
* no public report carries a secret: games that differ only in cards nobody
  has seen give byte-identical public reports.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.cards import CLASSIC_CARDS, Card
from pbem.engine import (
    PAIRED,
    PREMIUM_PLAYERS,
    Game,
    Order,
    deal_events,
    full_deck,
    legal_cards,
    resolve_turn,
    shuffled_deck,
    tokens_to_win,
)
from pbem.reports import Renderer, Table, private_context, public_context

NAMES = ["Arthur", "Bruno", "Charles", "Dora", "Emma", "Fanny", "Gaston", "Hugo"]
#: Player counts: classic (2-4) and Premium (5-8) games. The Premium ones are
#: longer (up to 26 turns), so they are drawn less often.
COUNTS = st.sampled_from([2, 3, 3, 4, 4, 5, 6, 8])
ALL_CARDS = CLASSIC_CARDS
RENDERER = Renderer()


def random_orders(game: Game, policy: random.Random) -> dict[int, Order | None]:
    """A random mix of missing orders (NMR) and legal orders with random,
    sometimes unusable, targets and guesses."""
    orders: dict[int, Order | None] = {}
    n = game.players
    for h in game.hands:
        if h.ended:
            continue
        if policy.random() < 0.3:
            orders[h.number] = None
            continue
        legal = legal_cards(h.cards[h.active])
        card = policy.choice(legal)
        target = policy.choice([None, *range(n), n + 3])
        target = target if target != n + 3 else None
        if n in PREMIUM_PLAYERS:
            guess = policy.choice([None, *range(10)])
            second = look = None
            if card in PAIRED:
                second = policy.choice([None, *range(n)])
                look = policy.choice([None, target, second])
            orders[h.number] = Order(card, target, guess, second, look)
        else:
            guess = policy.choice([None, *ALL_CARDS])
            orders[h.number] = Order(card, target, guess)
    return orders


def new_game(seed: int, players: int) -> Game:
    return Game.new(players, {h: shuffled_deck(f"prop-{seed}", h, players) for h in range(1, 14)})


def random_standing(game: Game, policy: random.Random) -> dict:
    """Some "if Bishop" standing orders (Premium games)."""
    if game.players not in PREMIUM_PLAYERS or policy.random() < 0.5:
        return {}
    h = policy.randint(1, 13)
    return {h: {policy.randrange(game.players): policy.random() < 0.7}}


def play_game(seed: int, players: int):
    """Yield (turn, game before, orders, game after, events, standing) until the game ends."""
    game = new_game(seed, players)
    policy = random.Random(seed)
    while not game.finished:
        orders = random_orders(game, policy)
        standing = random_standing(game, policy)
        new, events = resolve_turn(game, orders, f"rng-{seed}", standing=standing)
        yield game.turn, game, orders, new, events, standing
        game = new


def check_hand_invariants(game: Game) -> None:
    full = sorted(full_deck(game.players))
    for h in game.hands:
        assert sorted(h.cards_accounted()) == full, h.number
        assert h.face_up == (h.deck[1:4] if game.players == 2 else ())
        for seat in range(game.players):
            held = len(h.cards[seat])
            if not h.alive[seat]:
                assert held == 0
            elif h.ended:
                assert held == 1
            elif seat == h.active and not game.finished:
                assert held == 2
            elif seat != h.active:
                assert held == 1
        if h.ended:
            assert h.winners and h.active is None
            assert all(h.alive[w] for w in h.winners)
        else:
            assert h.alive[h.active]
            assert sum(h.alive) >= 2


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=COUNTS)
def test_cards_accounted_and_game_ends_with_a_winner(seed, players):
    # the longest a hand lasts (RULES 2, 9, 10.1)
    most_turns = 31 - players if players in PREMIUM_PLAYERS else 16 - 1 - players - (3 if players == 2 else 0)
    turns = 0
    last = None
    by_cards = 0
    for _turn, _, _, after, events, _ in play_game(seed, players):
        turns += 1
        check_hand_invariants(after)
        by_cards += sum(len(e.gained) for e in events if e.kind == "card_tokens")
        assert sum(after.tokens) == sum(len(h.winners) for h in after.hands if h.ended) + by_cards
        last = after
    assert last is not None and last.finished and last.winners
    assert turns <= most_turns
    top = max(last.tokens)
    assert all(last.tokens[w] == top for w in last.winners)
    if len(last.winners) > 1:
        assert all(h.ended for h in last.hands)
    else:
        assert top >= tokens_to_win(players) or all(h.ended for h in last.hands)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), players=COUNTS)
def test_same_seed_and_orders_same_result(seed, players):
    a = [(after.to_dict(), events) for _, _, _, after, events, _ in play_game(seed, players)]
    b = [(after.to_dict(), events) for _, _, _, after, events, _ in play_game(seed, players)]
    assert a == b


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=COUNTS)
def test_a_run_without_events_gives_the_same_game(seed, players):
    """issue 9 item 8: a simulation may skip the events; the game must not change."""
    game = quiet = new_game(seed, players)
    policy = random.Random(seed)
    while not game.finished:
        orders = random_orders(game, policy)
        standing = random_standing(game, policy)
        game, events = resolve_turn(game, orders, f"rng-{seed}", standing=standing)
        quiet, none = resolve_turn(quiet, orders, f"rng-{seed}", events=False, standing=standing)
        assert none == [] and events
        assert quiet.to_dict() == game.to_dict()
    assert quiet.finished and quiet.winners == game.winners


def public_report(players: int, turn: int, game: Game, events: list) -> str:
    table = Table("prop", "Property game", NAMES[:players])
    context = public_context(table, turn, game, events)
    context["audit"] = []  # the final report may reveal decks (RULES 8); the rest may not
    return RENDERER.public(context)


def swap_unseen_cards(before: Game, orders: dict, rng: random.Random) -> Game | None:
    """A copy of ``before`` in which, in one hand whose active player makes no
    contact with another player's card this turn (Handmaid or Countess), the
    cards nobody has seen are shuffled: non-active players' cards, the draw
    pile (its top included: the card the next player draws is private) and the
    set-aside card. None when no hand qualifies."""
    candidates = []
    for h in before.hands:
        order = orders.get(h.number)
        if h.ended or order is None or order.card not in (Card.HANDMAID, Card.COUNTESS):
            continue
        if len(h.pile) >= 2:
            candidates.append(h.number)
    if not candidates:
        return None
    changed = before.copy()
    h = changed.hand(rng.choice(candidates))
    hidden_seats = [s for s in range(changed.players) if h.alive[s] and s != h.active]
    pool = [h.cards[s][0] for s in hidden_seats] + h.pile + ([h.set_aside] if h.set_aside else [])
    rng.shuffle(pool)
    for s in hidden_seats:
        h.cards[s] = [pool.pop()]
    if h.set_aside is not None:
        h.set_aside = pool.pop()
    h.pile = pool
    return changed


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=COUNTS)
def test_public_report_shows_no_held_card_pile_or_set_aside(seed, players):
    rng = random.Random(seed ^ 0x5EC)
    compared = 0
    for turn, before, orders, after, events, standing in play_game(seed, players):
        changed = swap_unseen_cards(before, orders, rng)
        if changed is None:
            continue
        after2, events2 = resolve_turn(changed, orders, f"rng-{seed}", standing=standing)
        if after2.finished != after.finished:
            continue  # a different hand outcome elsewhere cannot come from this swap; be safe
        assert public_report(players, turn, after, events) == public_report(players, turn, after2, events2)
        compared += 1
    # Most games have a Handmaid or Countess play somewhere.
    assert compared >= 0


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=COUNTS)
def test_cards_never_drawn_never_change_any_public_report(seed, players):
    """Play a game; then permute, in every hand, the cards that were never
    drawn (the rest of the pile and an unused set-aside card) and replay with
    the same orders: every public report is identical, the final one included
    (but for its audit section)."""
    turns = list(play_game(seed, players))
    final = turns[-1][3]
    rng = random.Random(seed)
    decks = {}
    for h in final.hands:
        deck = list(h.deck)
        unseen_positions = list(range(len(deck) - len(h.pile), len(deck)))
        if h.set_aside is not None:
            unseen_positions.insert(0, 0)
        values = [deck[i] for i in unseen_positions]
        rng.shuffle(values)
        for i, v in zip(unseen_positions, values):
            deck[i] = v
        decks[h.number] = deck
    game = Game.new(players, decks)
    # The deal's public events (two players: the face-up cards) hold no card nobody has seen.
    assert deal_events(game) == deal_events(new_game(seed, players))
    assert all(e.audience is None for e in deal_events(game))
    for turn, _, orders, after, events, standing in turns:
        game, events2 = resolve_turn(game, orders, f"rng-{seed}", standing=standing)
        assert public_report(players, turn, after, events) == public_report(players, turn, game, events2)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=COUNTS)
def test_private_report_shows_only_the_readers_cards(seed, players):
    table = Table("prop", "Property game", NAMES[:players])
    for turn, _, _, after, events, _ in play_game(seed, players):
        for seat in range(players):
            context = private_context(table, turn, after, events, seat)
            for view in context["hands"]:
                assert view["cards"] == [c.title for c in after.hand(view["number"]).cards[seat]]
            for e in context["learned"]:
                assert e["player"] == NAMES[seat]
        break  # one turn per game is enough here; the engine tests cover each event
