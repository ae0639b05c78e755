"""The proxy: a play for a player who sent no order, chosen as that player would.

A campaign may let the proxy play a player's missing orders instead of the
seeds' NMR default (RULES 5): for everyone (``nmr: proxy`` in campaign.yaml), or
for a player who asked for it by mail (``PROXY ON``). This module decides one
play in one hand; the campaign decides when it is asked (:mod:`pbem.campaign`).

Noninterference is structural: :func:`decide` reads a :class:`Seen`, the value
of what the player knows, and nothing else. :func:`seen_by` builds it from the
player's own cards, what every player can see (discard piles, who is in, who is
protected, the Sycophant's mark, the face-up cards, the size of the draw pile)
and the cards the player learned privately, as their private mail shows them
(the :mod:`pbem.knowledge` record). It never reads the other players' cards, the
draw pile or the set-aside card; two positions that differ only in those give
the same :class:`Seen`, so the same play.

How it plays: it counts the cards it has not seen (the deck less its own cards,
every discard, the face-up cards and the cards it knows others hold), and for
each legal play (card, target, guess) it weighs the chance that the play leads
to winning the hand: a hit, a lost comparison, a traded card, and for what it
keeps, the chance to beat each player still in at the end. It obeys every forced
play (the Countess rule, the Sycophant's mark) and never discards the Princess
while another play is possible.

Pure: no files, no clock; randomness (to break ties) only from the generator
passed in.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .cards import FULL_DECK, PREMIUM_DECK, RANK, Card, card_named
from .engine import CARD_RULES, OTHER, PAIR_OTHERS, Hand, Order, Targets, forced_card
from .tuples import NamedTuple

GUARD, SPY, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS = (
    Card.GUARD,
    Card.SPY,
    Card.BARON,
    Card.HANDMAID,
    Card.PRINCE,
    Card.KING,
    Card.COUNTESS,
    Card.PRINCESS,
)
ASSASSIN, JESTER, CARDINAL, BARONESS = Card.ASSASSIN, Card.JESTER, Card.CARDINAL, Card.BARONESS
SYCOPHANT, COUNT, CONSTABLE, DOWAGER_QUEEN, BISHOP = (
    Card.SYCOPHANT,
    Card.COUNT,
    Card.CONSTABLE,
    Card.DOWAGER_QUEEN,
    Card.BISHOP,
)


class Seen(NamedTuple):
    """What one player knows of one hand: everything :func:`decide` may read.

    ``held``: the player's two cards; ``known[s]``: the card the player knows
    seat ``s`` holds (None: unknown, or the player themselves); the rest is
    public: who is in, who is protected, every discard pile in order, the
    face-up cards of a two-player hand, the cards left in the draw pile, the
    player the Sycophant marked (None: nobody)."""

    seat: int
    held: tuple[Card, ...]
    alive: tuple[bool, ...]
    protected: tuple[bool, ...]
    discards: tuple[tuple[Card, ...], ...]
    face_up: tuple[Card, ...] = ()
    pile: int = 0
    marked: int | None = None
    known: tuple[Card | None, ...] = ()
    premium: bool = False

    @property
    def players(self) -> int:
        return len(self.alive)


def seen_by(hand: Hand, seat: int, known: Mapping[int, Sequence[Mapping[str, Any]]] | None = None) -> Seen:
    """What ``seat`` knows of ``hand``: their cards, the public state, and the
    cards their private mail says they know (``known``: the :mod:`pbem.knowledge`
    record, reader seat -> entries; an entry whose card may have changed hands
    since is not taken as known). Reads nothing else of the hand."""
    players = len(hand.alive)
    learned: list[Card | None] = [None] * players
    for entry in (known or {}).get(seat, ()):
        other = entry["other"]
        if entry["hand"] != hand.number or entry.get("may_have_changed") or other == seat:
            continue
        if 0 <= other < players and hand.alive[other]:
            learned[other] = card_named(entry["card"])
    return Seen(
        seat=seat,
        held=tuple(hand.cards[seat]),
        alive=tuple(hand.alive),
        protected=tuple(hand.protected),
        discards=tuple(tuple(d) for d in hand.discards),
        face_up=tuple(hand.face_up),
        pile=len(hand.pile),
        marked=hand.marked,
        known=tuple(learned),
        premium=hand.premium,
    )


# -- the cards not yet seen ---------------------------------------------------


def unseen(seen: Seen) -> dict[Card, int]:
    """The cards the player has not seen anywhere, by count: the deck less their
    own cards, every discard, the face-up cards and the cards known in others' hands."""
    counts: dict[Card, int] = {}
    for card in PREMIUM_DECK if seen.premium else FULL_DECK:
        counts[card] = counts.get(card, 0) + 1
    gone: list[Iterable[Card]] = [seen.held, seen.face_up, *seen.discards]
    gone.append(c for c in seen.known if c is not None)
    for cards in gone:
        for card in cards:
            if counts.get(card, 0) > 0:
                counts[card] -= 1
    return {card: n for card, n in counts.items() if n > 0}


# -- the decision ---------------------------------------------------------------

#: A Handmaid's worth, per opponent who may act on the player before their next turn.
SHIELD = 0.06
#: A look's worth (Spy, Baroness): what a known card is worth for the next play.
LOOK = 0.04
#: A token a card may earn (Bishop, Jester), counted as this much of a hand won.
TOKEN = 0.3


class _Eval:
    """The figures one decision shares between its candidate plays."""

    def __init__(self, seen: Seen):
        self.seen = seen
        me = seen.seat
        self.me = me
        self.pool = unseen(seen)
        self.total = sum(self.pool.values()) or 1
        self.opponents = [p for p in range(seen.players) if p != me and seen.alive[p]]
        known = seen.known or (None,) * seen.players
        self.known = known
        self.counts = [d.count(COUNT) if seen.premium else 0 for d in seen.discards]
        self.bishop_possible = seen.premium and (self.pool.get(BISHOP, 0) > 0 or BISHOP in seen.held)
        # Later draws blur what one holds now: the more cards left for the player, the less
        # the card kept decides the end of the hand.
        draws_left = seen.pile / (len(self.opponents) + 1)
        self.weight = 1.0 / (1.0 + 0.15 * draws_left)
        self._beat: dict[tuple[int, float], float] = {}

    def value(self, card: Card, seat: int, extra: int = 0) -> float:
        """The value a card held by ``seat`` would have at the end (RULES 10.4)."""
        if not self.seen.premium:
            return float(card)
        v = float(RANK[card])
        if card == PRINCESS and self.bishop_possible:
            v = 8.75
        return v + self.counts[seat] + extra

    def dist(self, seat: int) -> list[tuple[Card, float]]:
        """The chances of what ``seat`` holds, from the player's view: the card
        they are known to hold, else any card not seen, by its count."""
        card = self.known[seat]
        if card is not None:
            return [(card, 1.0)]
        total = self.total
        return [(c, n / total) for c, n in self.pool.items()]

    def beat(self, mine: float, seat: int) -> float:
        """The chance that a card worth ``mine`` beats ``seat``'s card at the end."""
        key = (seat, mine)
        found = self._beat.get(key)
        if found is not None:
            return found
        p = 0.0
        for card, q in self.dist(seat):
            theirs = self.value(card, seat)
            if mine > theirs:
                p += q
            elif mine == theirs:
                p += 0.5 * q
        p = self.weight * p + (1 - self.weight) * 0.5
        self._beat[key] = p
        return p

    def keep(
        self, card: Card, out: Iterable[int] = (), extra: int = 0, known_to: Mapping[int, Card] | None = None
    ) -> float:
        """The chance to win the hand holding ``card``, with the players in ``out``
        gone from it."""
        mine = self.value(card, self.me, extra)
        if card == ASSASSIN:
            mine = 2.5  # a low card, but a Guard aimed at it knocks out its player
        p = 1.0
        gone = set(out)
        for seat in self.opponents:
            if seat in gone:
                continue
            if known_to and seat in known_to:
                theirs = self.value(known_to[seat], seat)
                b = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                p *= self.weight * b + (1 - self.weight) * 0.5
            else:
                p *= self.beat(mine, seat)
        return p

    def draw_new(self) -> float:
        """The chance to win the hand after drawing an unseen card."""
        return sum(n / self.total * self.keep(c) for c, n in self.pool.items())


def decide(seen: Seen, rng: random.Random) -> Order:
    """The proxy's play for the player of ``seen``, who is active in the hand
    and holds two cards. Always legal: a held card, the forced card when one is
    forced; a valid target when there is one; never the Princess (nor a Prince
    on oneself that would discard her) while another play is possible."""
    if len(seen.held) != 2:
        raise ValueError("the proxy plays for the active player of a hand, who holds two cards")
    scored = plays(seen)
    best = max(score for score, _ in scored)
    top = [order for score, order in scored if score >= best - 1e-9]
    return top[int(rng.random() * len(top))] if len(top) > 1 else top[0]


def plays(seen: Seen) -> list[tuple[float, Order]]:
    """Every play the proxy considers, each with its chance to win the hand."""
    a, b = seen.held
    forced = forced_card([a, b])
    cards = [forced] if forced is not None else ([a] if a == b else [a, b])
    e = _Eval(seen)
    out: list[tuple[float, Order]] = []
    for card in cards:
        rest = [a, b]
        rest.remove(card)
        kept = rest[0]
        out.extend(_score(e, card, kept))
    # Never discard the Princess while another play keeps her (RULES: the proxy's own promise).
    safe = [(s, o) for s, o in out if not discards_princess(seen, o)]
    return safe or out


def discards_princess(seen: Seen, order: Order) -> bool:
    """Whether ``order`` would discard the player's Princess: playing her, or a
    Prince that falls on the player while she is the card kept."""
    if order.card == PRINCESS:
        return True
    if order.card != PRINCE:
        return False
    held = list(seen.held)
    held.remove(PRINCE)
    if held[0] != PRINCESS:
        return False
    return _prince_recipient(seen, order.target) == seen.seat


def _prince_recipient(seen: Seen, target: int | None) -> int:
    me = seen.seat
    if seen.marked is not None:
        return seen.marked
    if target is None or not seen.alive[target]:
        return me if not _others(seen) else -1  # a random other player
    if not seen.protected[target]:
        return target
    n = seen.players
    for step in range(1, n):
        p = (target + step) % n
        if seen.alive[p] and not seen.protected[p]:
            return p
    return me


def _others(seen: Seen) -> list[int]:
    """The other players still in and not protected: the valid targets."""
    return [p for p in range(seen.players) if p != seen.seat and seen.alive[p] and not seen.protected[p]]


def _score(e: _Eval, card: Card, kept: Card) -> list[tuple[float, Order]]:
    seen = e.seen
    me = e.me
    rule = CARD_RULES[card]
    targets = rule.targets
    if not targets:
        return [(_untargeted(e, card, kept), Order(card))]
    marked = seen.marked
    if targets.players == 2:  # the Cardinal, the Baroness
        return _paired(e, card, kept, targets)
    if marked is not None:
        if marked == me and targets == OTHER:
            guess = _best_guess(e, _next_in(seen, me)) if rule.guesses else None
            return [(e.keep(kept), Order(card, marked, guess))]  # no effect: it cannot choose its player
        choices = [marked]
    else:
        choices = _others(seen)
        if targets != OTHER:
            choices = [*choices, me]
        if not choices:  # everyone else protected: no effect (a Prince falls on its player)
            if targets == OTHER:
                # Named all the same, the card goes nowhere (RULES 4): no random completion.
                shielded = [p for p in e.opponents if seen.protected[p]]
                named = shielded[0] if shielded else None
                guess = _best_guess(e, named) if rule.guesses and named is not None else None
                return [(e.keep(kept), Order(card, named, guess))]
            choices = [me]
    out = []
    for t in choices:
        out.extend(_targeted(e, card, kept, t))
    return out


def _untargeted(e: _Eval, card: Card, kept: Card) -> float:
    if card == PRINCESS:
        return 0.0
    if card == HANDMAID:
        return e.keep(kept) * (1 + SHIELD * len(e.opponents))
    if card == COUNT:
        return e.keep(kept, extra=1)
    if card == ASSASSIN:
        return e.keep(kept) * 0.97  # its protection is worth more kept
    return e.keep(kept)


def _targeted(e: _Eval, card: Card, kept: Card, t: int) -> list[tuple[float, Order]]:
    seen = e.seen
    me = e.me
    if card == PRINCE:
        if t == me:
            if kept == PRINCESS:
                return [(0.0, Order(card, t))]
            return [(e.draw_new(), Order(card, t))]
        d = e.dist(t)
        princess = sum(q for c, q in d if c == PRINCESS)
        score = princess * e.keep(kept, out=(t,)) + (1 - princess) * e.keep(kept)
        return [(score, Order(card, t))]
    if t == me:  # a card that may choose its player (the Sycophant): no effect on the hand
        return [(e.keep(kept), Order(card, t))]
    if card in (GUARD, BISHOP):
        return _guesses(e, card, kept, t)
    d = e.dist(t)
    mine = e.value(kept, me)
    if card in (BARON, DOWAGER_QUEEN):
        win = lose = tie = 0.0
        for c, q in d:
            theirs = e.value(c, t)
            if theirs == mine:
                tie += q
            elif (mine > theirs) == (card == BARON):
                win += q
            else:
                lose += q
        score = win * e.keep(kept, out=(t,)) + tie * e.keep(kept, known_to={t: kept})
        return [(score, Order(card, t))]
    if card == KING:
        score = sum(q * e.keep(c, known_to={t: kept}) for c, q in d)
        return [(score, Order(card, t))]
    if card in (SPY, BARONESS):
        bonus = LOOK if seen.known[t] is None else 0.0
        return [(e.keep(kept) * (1 + bonus), Order(card, t))]
    if card == JESTER:
        return [(e.keep(kept) + TOKEN * 0.1 * (1 - e.keep(kept)), Order(card, t))]
    if card == SYCOPHANT:
        nxt = _next_in(seen, me)
        return [(e.keep(kept) * (1.02 if t == nxt else 1.0), Order(card, t))]
    return [(e.keep(kept), Order(card, t))]


def _next_in(seen: Seen, seat: int) -> int:
    n = seen.players
    for step in range(1, n):
        p = (seat + step) % n
        if seen.alive[p]:
            return p
    return seat


def _best_guess(e: _Eval, t: int) -> Card | int:
    """The likeliest card (a rank in Premium games) ``t`` holds, the Guard aside."""
    d = e.dist(t)
    if e.seen.premium:
        by_rank: dict[int, float] = {}
        for c, q in d:
            by_rank[RANK[c]] = by_rank.get(RANK[c], 0.0) + q
        ranks = [(q, r) for r, q in by_rank.items() if r != 1]
        return max(ranks, key=lambda o: (o[0], -o[1]))[1] if ranks else 0
    cards = [(q, c) for c, q in d if c != GUARD]
    return max(cards, key=lambda o: (o[0], -int(o[1])))[1] if cards else PRINCESS


def _guesses(e: _Eval, card: Card, kept: Card, t: int) -> list[tuple[float, Order]]:
    """A Guard (or a Bishop): the best guess for ``t``, by the cards not seen."""
    d = e.dist(t)
    if e.seen.premium:
        by_rank: dict[int, float] = {}
        for c, q in d:
            by_rank[RANK[c]] = by_rank.get(RANK[c], 0.0) + q
        options: list[tuple[float, Card | int]] = [(q, r) for r, q in by_rank.items() if r != 1]
        assassin = sum(q for c, q in d if c == ASSASSIN) if card == GUARD else 0.0
    else:
        options = [(q, c) for c, q in d if c != GUARD]
        assassin = 0.0
    if not options:
        fallback: Card | int = 0 if e.seen.premium else PRINCESS
        return [(e.keep(kept) * (1 - assassin), Order(card, t, fallback))]
    q, guess = max(options, key=lambda o: (o[0], -int(o[1])))
    stay = e.keep(kept)
    if card == BISHOP:
        score = stay + q * TOKEN * (1 - stay)
    else:
        hit = e.keep(kept, out=(t,))
        score = (q * hit + (1 - q - assassin) * stay) * 1.0
    return [(score, Order(card, t, guess))]


def _paired(e: _Eval, card: Card, kept: Card, targets: Targets) -> list[tuple[float, Order]]:
    """The Cardinal (two players trade, oneself allowed) and the Baroness (look at
    one or two others)."""
    seen = e.seen
    me = e.me
    others = _others(seen)
    marked = seen.marked
    if targets == PAIR_OTHERS:
        if marked == me:
            return [(e.keep(kept), Order(card, None))]  # the Baroness cannot choose her player
        unknown = [p for p in others if seen.known[p] is None]
        chosen = ([marked] if marked is not None else []) + [p for p in unknown + others if p != marked]
        chosen = list(dict.fromkeys(chosen))[:2]
        if not chosen:  # everyone else protected: named all the same, the look goes nowhere
            shielded = [p for p in e.opponents if seen.protected[p]]
            return [(e.keep(kept), Order(card, shielded[0] if shielded else None))]
        looks = sum(1 for p in chosen if seen.known[p] is None)
        second = chosen[1] if len(chosen) > 1 else None
        return [(e.keep(kept) * (1 + LOOK * looks), Order(card, chosen[0], second=second))]
    # The Cardinal: trade with one other player (like a King), and look at them.
    out: list[tuple[float, Order]] = []
    candidates = [p for p in others if marked is None or p == marked or me == marked]
    for t in candidates:
        score = sum(q * e.keep(c, known_to={t: kept}) for c, q in e.dist(t))
        out.append((score, Order(card, me, second=t, look=t)))
    if marked is not None and marked != me and marked not in candidates:
        out.append((e.keep(kept), Order(card, marked, second=me, look=marked)))
    if len(others) >= 2 and marked is None:
        out.append((e.keep(kept) * 0.99, Order(card, others[0], second=others[1], look=others[0])))
    if not out:  # nobody to trade with: named all the same, the Cardinal has no effect (RULES 10.3)
        shielded = [p for p in e.opponents if seen.protected[p]]
        out.append((e.keep(kept), Order(card, me, second=shielded[0] if shielded else None)))
    return out
