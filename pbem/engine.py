"""The rules of postal Love Letter (RULES.md), as pure functions over game state.

No files, no clock, no printing: state and orders go in, new state and a list
of :mod:`pbem.events` come out. Randomness comes only from generators derived
from the campaign seed (:func:`hand_rng`, :func:`shuffled_deck`), so the same
seed and orders always give the same result.

Players are *seats*: 0-based indexes in seating order. Names live in the
campaign layer; the engine never needs them.

Two levels:

* :class:`Hand` and :func:`play_turn` -- one hand, one active player, one play.
  ``play_turn`` mutates the hand it is given (fast; the benchmark plays through
  it directly).
* :class:`Game` and :func:`resolve_turn` -- thirteen hands, tokens, the end of
  the game. ``resolve_turn`` never touches its input; it returns a new Game.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from math import floor
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar, cast

from . import events as ev
from .cards import (
    CLASSIC_CARDS,
    DECK_SIZE,
    FULL_DECK,
    PREMIUM_DECK,
    PREMIUM_DECK_SIZE,
    RANK,
    Card,
    card_named,
)
from .errors import IllegalDeal, IllegalPlay
from .tuples import NamedTuple

GUARD, SPY, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS = CLASSIC_CARDS
BISHOP, ASSASSIN, JESTER = Card.BISHOP, Card.ASSASSIN, Card.JESTER
CARDINAL, BARONESS = Card.CARDINAL, Card.BARONESS
SYCOPHANT, COUNT, CONSTABLE, DOWAGER_QUEEN = Card.SYCOPHANT, Card.COUNT, Card.CONSTABLE, Card.DOWAGER_QUEEN

HANDS_PER_GAME = 13

#: Drawing from a full pack until a non-Guard comes up names each non-Guard card
#: with probability count / 11 -- exactly a uniform pick from the 11 non-Guards.
_NON_GUARD_PACK: tuple[Card, ...] = tuple(c for c in FULL_DECK if c != GUARD)
#: The same for the Premium deck, by rank (RULES 10.2): a uniform pick from its 24 non-Guards.
_NON_GUARD_RANKS: tuple[int, ...] = tuple(RANK[c] for c in PREMIUM_DECK if c != GUARD)


#: Player counts the classic deck is played with (RULES 1, 9).
CLASSIC_PLAYERS = (2, 3, 4)

#: Player counts the Premium deck is played with (RULES 10).
PREMIUM_PLAYERS = (5, 6, 7, 8)

#: Cards laid face up, out of the hand, at the start of a two-player hand (RULES 9).
FACE_UP_WITH_TWO = 3


def tokens_to_win(players: int) -> int:
    """Tokens of affection that win the game (RULES 1, 9)."""
    return {2: 7, 3: 5}.get(players, 4)


def first_player(hand_number: int, players: int) -> int:
    """Seat of the first player of a hand (RULES 2): rotates from hand to hand."""
    return (hand_number - 1) % players


# Events and orders are NamedTuples; building them with tuple.__new__ skips a
# Python-level __new__ frame on the hottest path of the engine (see bench/engine.py).
_new = tuple.__new__


class Order(NamedTuple):
    """An order the engine can carry out: ``card`` is held and legal.

    ``target`` is a seat or None (missing or unusable: a random valid target is
    chosen); ``guess`` is the Guard's guess or None (a random non-Guard is named).
    """

    card: Card
    target: int | None = None
    guess: Card | int | None = None  # a card in classic games, a number (RULES 10.2) in Premium ones
    second: int | None = None  # the Cardinal's or the Baroness's second player
    look: int | None = None  # the Cardinal: the one of the two whose new card the player looks at


if not TYPE_CHECKING:  # for mypy, Order is a typing.NamedTuple with its own constructor

    def _new_order(cls, card, target=None, guess=None, second=None, look=None):
        """Order's constructor: the fields by name, without the generic builder's packing
        (pbem/tuples.py); an order is made for every play a simulation or bench/engine.py plays
        (``tuple.__new__`` read as the global ``_new``: a keyword-only default would be looked
        up in a dict at every call, for more, callgrind says)."""
        return _new(cls, (card, target, guess, second, look))

    Order.__new__ = _new_order


class Hand:
    """One of the thirteen hands: its deck, piles and players.

    ``pile`` keeps the draw pile with its *top at the end* (a pop is cheap).
    ``cards[seat]`` is what the player holds: one card, or two for the active
    player (the card kept first, the card drawn second); empty once out.
    ``face_up``: the cards laid face up at the start of a two-player hand, out
    of it for good (RULES 9); empty with more players.

    Premium hands (5 to 8 players, RULES 10) also keep: ``marked``, the player
    the Sycophant marked for the next play; ``jesters``, (Jester's player, the
    player named) pairs; ``bishop_discard[seat]``, the standing "if Bishop,
    discard" order; and, during a postal turn only, ``bonus``: (seat, card) of
    the tokens cards gave, counted at the end of the turn.
    """

    __slots__ = (
        "number",
        "deck",
        "set_aside",
        "face_up",
        "pile",
        "cards",
        "discards",
        "alive",
        "protected",
        "active",
        "ended",
        "winners",
        "premium",
        "marked",
        "jesters",
        "bishop_discard",
        "bonus",
    )

    number: int
    deck: tuple[Card, ...]
    set_aside: Card | None
    face_up: tuple[Card, ...]
    pile: list[Card]
    cards: list[list[Card]]
    discards: list[list[Card]]
    alive: list[bool]
    protected: list[bool]
    active: int | None
    ended: bool
    winners: tuple[int, ...]
    premium: bool
    marked: int | None
    jesters: list[tuple[int, int]]
    bishop_discard: list[bool]
    bonus: list[tuple[int, Card]]

    @classmethod
    def deal(cls, number: int, deck: Iterable[Card], players: int) -> Hand:
        """Set up a hand from a deck given top first (RULES 2, 9): one card set
        aside, with two players three cards face up, one dealt to each player
        from the first player around the board, then the first player draws for
        postal turn 1."""
        deck = tuple(deck)
        premium = players in PREMIUM_PLAYERS
        if not premium and players not in CLASSIC_PLAYERS:
            raise IllegalDeal(
                f"a game has 2 to 4 players with the classic deck, 5 to 8 with the Premium "
                f"deck; not {players}"
            )
        check_deck(deck, players)
        hand = cls()
        hand.number = number
        hand.deck = deck
        hand.set_aside = deck[0]
        up = FACE_UP_WITH_TWO if players == 2 else 0
        hand.face_up = deck[1 : 1 + up]
        first = first_player(number, players)
        # Rotate the dealt cards so that the first player gets the first of them.
        start = 1 + up
        end = start + players
        mid = end - first
        # Comprehensions: each list made by a list display, cheaper than list(map(list, ...)).
        cards = [[card] for card in deck[mid:end] + deck[start:mid]]
        cards[first].append(deck[end])
        hand.cards = cards
        hand.pile = list(deck[:end:-1])  # the rest, top at the end
        hand.discards = [[] for _ in cards]
        hand.alive = [True] * players
        hand.protected = [False] * players
        hand.active = first
        hand.ended = False
        hand.winners = ()
        hand.premium = premium
        hand.marked = None
        hand.jesters = []
        hand.bishop_discard = [False] * players
        hand.bonus = []
        return hand

    def copy(self) -> Hand:
        new = Hand.__new__(Hand)
        new.number = self.number
        new.deck = self.deck
        new.set_aside = self.set_aside
        new.face_up = self.face_up
        new.pile = self.pile[:]
        new.cards = [c[:] for c in self.cards]
        new.discards = [d[:] for d in self.discards]
        new.alive = self.alive[:]
        new.protected = self.protected[:]
        new.active = self.active
        new.ended = self.ended
        new.winners = self.winners
        new.premium = self.premium
        new.marked = self.marked
        new.jesters = self.jesters[:]
        new.bishop_discard = self.bishop_discard[:]
        new.bonus = []
        return new

    @property
    def players(self) -> int:
        return len(self.alive)

    def cards_accounted(self) -> list[Card]:
        """Every card of the hand, wherever it is: the 16 of its deck."""
        out = list(self.pile) + list(self.face_up)
        if self.set_aside is not None:
            out.append(self.set_aside)
        for held in self.cards:
            out.extend(held)
        for pile in self.discards:
            out.extend(pile)
        return out

    # -- serialisation (plain data, for the campaign store) ----------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.number,
            "deck": [c.title for c in self.deck],
            "set_aside": self.set_aside.title if self.set_aside else None,
            **({"face_up": [c.title for c in self.face_up]} if self.face_up else {}),
            "pile_top_first": [c.title for c in reversed(self.pile)],
            "cards": [[c.title for c in held] for held in self.cards],
            "discards": [[c.title for c in d] for d in self.discards],
            "alive": list(self.alive),
            "protected": list(self.protected),
            "active": self.active,
            "ended": self.ended,
            "winners": list(self.winners),
            **(
                {
                    "marked": self.marked,
                    "jesters": [list(j) for j in self.jesters],
                    "bishop_discard": list(self.bishop_discard),
                }
                if self.premium
                else {}
            ),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Hand:
        hand = cls()
        hand.number = data["hand"]
        hand.deck = tuple(_cards(data["deck"]))
        hand.set_aside = card_named(data["set_aside"]) if data["set_aside"] else None
        hand.face_up = tuple(_cards(data.get("face_up", ())))
        hand.pile = list(reversed(_cards(data["pile_top_first"])))
        hand.cards = [_cards(held) for held in data["cards"]]
        hand.discards = [_cards(d) for d in data["discards"]]
        hand.alive = list(data["alive"])
        hand.protected = list(data["protected"])
        hand.active = data["active"]
        hand.ended = data["ended"]
        hand.winners = tuple(data["winners"])
        hand.premium = "bishop_discard" in data
        hand.marked = data.get("marked")
        hand.jesters = [tuple(j) for j in data.get("jesters", ())]
        hand.bishop_discard = list(data.get("bishop_discard", [False] * len(hand.alive)))
        hand.bonus = []
        return hand


def _cards(names: Iterable[str]) -> list[Card]:
    # The names come from pbem's own state files, written with canonical names
    # (read by exact title first: a state holds some 800 of them).
    return [cast(Card, _BY_TITLE.get(n) or card_named(n)) for n in names]


_BY_TITLE = {card.title: card for card in Card}


_SORTED_DECK = sorted(FULL_DECK)
_SORTED_PREMIUM = sorted(PREMIUM_DECK)


def full_deck(players: int) -> tuple[Card, ...]:
    """The deck a game of ``players`` plays with: classic (2-4) or Premium (5-8)."""
    return PREMIUM_DECK if players in PREMIUM_PLAYERS else FULL_DECK


def check_deck(deck: tuple[Card, ...], players: int = 3) -> None:
    """Raise :class:`IllegalDeal` unless ``deck`` is exactly the cards of the game's deck."""
    if players in PREMIUM_PLAYERS:
        if len(deck) != PREMIUM_DECK_SIZE or sorted(deck) != _SORTED_PREMIUM:
            raise IllegalDeal(
                f"a deck must be exactly the {PREMIUM_DECK_SIZE} cards of the Premium deck "
                "(Assassin, Jester, 8 Guards, 2 Spies, 2 Cardinals, 2 Barons, 2 Baronesses, 2 Handmaids, "
                "2 Sycophants, 2 Princes, 2 Counts, King, Constable, Countess, Dowager Queen, Princess, "
                "Bishop)"
            )
        return
    if len(deck) != DECK_SIZE or sorted(deck) != _SORTED_DECK:
        raise IllegalDeal(
            f"a deck must be exactly the {DECK_SIZE} cards of the game "
            f"(5 Guards, 2 Spies, 2 Barons, 2 Handmaids, 2 Princes, King, Countess, Princess)"
        )


# -- queries used to check orders and to pick defaults --------------------


def forced_card(held: list[Card]) -> Card | None:
    """The card the player must play, by a rule like the Countess's (held with
    the King or a Prince), or None when either may be played."""
    a, b = held
    return _FORCED[a][b]


def legal_cards(held: list[Card]) -> list[Card]:
    """The cards the active player may play (each once)."""
    a, b = held
    return [*_LEGAL[a][b]]  # a list display: cheaper than list() (bench/engine.py asks at every order)


def may_target_self(card: Card) -> bool:
    """Whether the card may choose its own player (the Prince, the Sycophant)."""
    return CARD_RULES[card].targets is Targets.ANY


def redirect(hand: Hand, seat: int, card: Card, target: int) -> int | None:
    """RULES 4: the next player after a protected ``target``, around the board,
    still in and not protected; the acting player is skipped unless the card may
    target them (the Prince). None when nobody qualifies; a card that may target
    its player always finds them on the way round (the active player is still in
    and no longer protected), so a Prince falls back on its player here."""
    n = len(hand.alive)
    alive, protected = hand.alive, hand.protected
    self_ok = _SELF_OK[card]
    for step in range(1, n):
        p = (target + step) % n
        if alive[p] and not protected[p] and (p != seat or self_ok):
            return p
    return None


def random_target(hand: Hand, seat: int, card: Card, rng: random.Random) -> int | None:
    """RULES 5.4: a random valid target other than the player; the player only
    for a card that may target them (the Prince) with nobody else to take it;
    None when nobody is valid.

    Uniform over the valid targets by rejection sampling: cheaper than building
    the list of candidates, and this is on the engine's hot path. Someone is
    valid when two players are still in and nobody is protected (the usual
    case, asked of the lists in C, by counting the values most of them hold:
    a list's count finds those by identity, without comparing); else the players
    are looked at one by one.
    ``floor`` draws as ``int`` would (the draw is not negative), for less; and
    a float times a float (``scale``) is the same product as a float times an
    int, for less (so are the engine's other draws: ``* 2.0``, ``* 11.0``)."""
    alive, protected = hand.alive, hand.protected
    n = len(alive)
    if protected.count(False) != n or alive.count(True) < 2:
        for p in range(n):
            if p != seat and alive[p] and not protected[p]:
                break
        else:
            return seat if CARD_RULES[card].targets is Targets.ANY else None
    scale = float(n)
    while True:
        p = floor(rng.random() * scale)
        if p != seat and alive[p] and not protected[p]:
            return p


def random_guess(rng: random.Random) -> Card:
    """RULES 5.5: a non-Guard, weighted as if drawn from a full pack."""
    return _NON_GUARD_PACK[floor(rng.random() * 11.0)]


def random_number(rng: random.Random) -> int:
    """RULES 10.2: the rank of a non-Guard drawn from a full Premium pack."""
    return _NON_GUARD_RANKS[floor(rng.random() * 24.0)]


def default_card(held: list[Card], rng: random.Random) -> Card:
    """RULES 5.1-5.3: the card played for a player who sent no order: never a
    card the default avoids (the Princess) while the other can be played; a
    forced card (the Countess with the King or a Prince); else either at random."""
    a, b = held
    card = _NMR_CHOICE[a][b]
    return held[floor(rng.random() * 2.0)] if card is None else card


# -- one play --------------------------------------------------------------


_Played = ev.Played


def play_turn(hand: Hand, order: Order | None, rng: random.Random, out: list[ev.Event] | None) -> None:
    """Resolve the active player's play in ``hand`` (mutated in place), then end
    the hand or make the next player active; events go to ``out`` (None: none is
    built, a simulation that reads only the state). ``order`` None: no order was
    received, the NMR defaults apply; an order must be legal (card held, Countess
    rule kept): the orders layer rejects anything else before it gets here.
    What a card does is read from its entry in :data:`CARD_RULES` (through the
    tables derived from it): whom it chooses, whether it guesses, its effect."""
    seat = hand.active
    assert seat is not None, "an ended hand has no play"
    held = hand.cards[seat]
    # default_card and _check_legal inlined (the hot path): the same tables, the same draw.
    a, b = held
    if order is not None:
        nmr = False
        card, target, guess, second, look = order
        if card not in _LEGAL[a][b]:
            _check_legal(hand, seat, held, card)  # raises
    else:
        nmr = True
        choice = _NMR_CHOICE[a][b]  # None: either, at random
        card = held[floor(rng.random() * 2.0)] if choice is None else choice
        target = guess = second = look = None
    held.remove(card)
    hand.discards[seat].append(card)
    effect, targets, guesses, chooses = _PLAY[card]
    recipient: int | Chosen | None  # a seat; for two-player cards, the chosen tuple (_choose_pair)
    pair: Chosen | None = None
    redirected = random_tgt = random_gss = False
    marked = hand.marked
    if marked is not None:
        hand.marked = None  # the mark binds the next play only, whatever it is (RULES 10.3)
    alive = hand.alive
    if not chooses:
        recipient = first = None
    elif chooses == 2:
        pair, redirected, random_tgt = _choose_pair(
            hand, seat, targets, target, second, look, marked, nmr, rng
        )
        recipient, first = pair, (pair[0] if pair else None)
    elif marked is None and target is None:  # nobody named (an NMR play)
        recipient = first = random_target(hand, seat, card, rng)
        random_tgt = not nmr
    elif (
        marked is None
        and target is not None
        and 0 <= target < len(alive)
        and alive[target]
        and not hand.protected[target]
        and (target != seat or targets is _ANY)
    ):  # _choose_one's first case inlined: the player named, usable and unprotected
        recipient = first = target
    else:
        first, redirected, random_tgt = _choose_one(hand, seat, card, targets, target, marked, rng)
        recipient = first
    if not guesses:
        guess = None
    elif first is not None and (guess is None or guess == GUARD):  # completed (RULES 5.5, 10.2)
        random_gss = not nmr
        guess = random_number(rng) if hand.premium else random_guess(rng)
    if out is not None:
        number = hand.number
        out.append(
            _new(_Played, (number, seat, card, target, first, guess, nmr, random_tgt, random_gss, redirected))
        )
        if marked is not None or pair is not None:
            _record_choice(out, number, seat, card, chooses, marked, (target, second), recipient, pair)
    effect(hand, seat, recipient, guess, out)
    pile = hand.pile  # the hand ends (RULES 7), or the next player still in draws (RULES 2, 4)
    if not pile or alive.count(True) == 1:
        _end_hand(hand, out)
        return
    n = len(alive)
    nxt = (seat + 1) % n
    while not alive[nxt]:
        nxt = (nxt + 1) % n
    hand.active = nxt
    hand.protected[nxt] = False
    hand.cards[nxt].append(pile.pop())


def _record_choice(
    out: list[Any],
    number: int,
    seat: int,
    card: Card,
    chooses: int,
    marked: int | None,
    named: tuple[int | None, int | None],
    recipient: object,
    pair: tuple[Any, ...] | None,
) -> None:
    """The events of a play's choice, after its ``Played``: the Sycophant's mark
    followed (or not: nobody could be chosen), and a two-player card's pair."""
    if marked is not None and chooses:
        shown = named[:1] if chooses == 1 else named
        out.append(_new(ev.MarkFollowed, (number, seat, marked, shown, recipient is not None)))
    if pair is not None:
        out.append(_new(ev.Chose, (number, seat, card, named, pair[:-1])))


def _check_legal(hand: Hand, seat: int, held: list[Card], card: Card) -> NoReturn:
    """Refuse an order the orders layer should never have let through: play_turn
    asks only for a card not among the legal ones (``_LEGAL``), which is either not
    held or held beside the card a rule forces, then the only legal one."""
    if card not in held:
        raise IllegalPlay(f"hand {hand.number}: seat {seat} does not hold the {card.title}")
    a, b = held
    (forced,) = _LEGAL[a][b]
    raise IllegalPlay(f"hand {hand.number}: the {forced.title} must be played")


def _choose_one(
    hand: Hand,
    seat: int,
    card: Card,
    targets: Targets,
    target: int | None,
    marked: int | None,
    rng: random.Random,
) -> tuple[int | None, bool, bool]:
    """The player a one-player card acts on (RULES 3-5) when play_turn has not
    taken the one named itself (named, usable and unprotected; nobody named, no
    mark): a mark chooses (:data:`CARD_RULES`' ``binds_next``); else the one named
    is unusable, and a random one is taken, or protected, and the next one round is.
    An NMR play names nobody, so it never gets here unmarked: a random target here
    completes an order.

    Returns (recipient, redirected, completed); recipient None: no effect."""
    if marked is not None:
        bound = _bind_next(marked, seat, targets, [target])
        return (bound[0] if bound else None), False, False
    alive = hand.alive
    if target is None or not (
        0 <= target < len(alive) and alive[target] and (target != seat or targets is Targets.ANY)
    ):  # unusable as written (RULES 3): completed with a random target
        return random_target(hand, seat, card, rng), False, True
    return redirect(hand, seat, card, target), True, False  # usable, so protected (RULES 4)


def _choose_pair(
    hand: Hand,
    seat: int,
    targets: Targets,
    first: int | None,
    second: int | None,
    look: int | None,
    marked: int | None,
    nmr: bool,
    rng: random.Random,
) -> tuple[Chosen | None, bool, bool]:
    """The players of a Cardinal (PAIR_ANY: two, oneself allowed) or a Baroness
    (PAIR_OTHERS: one or two others), RULES 10.3: each named player still usable
    is taken, a protected one redirected (never onto the other one's player), an
    unusable one completed at random; a mark rewrites the names first
    (:data:`CARD_RULES`' ``binds_next``).

    Returns (chosen, redirected, completed): ``chosen`` is the players chosen
    and, last, for the Cardinal the slot (0 or 1) the player looks at; None
    when the card has no effect (fewer than two for the Cardinal, none for the
    Baroness)."""
    cardinal = targets is Targets.PAIR_ANY
    n = len(hand.alive)
    alive, protected = hand.alive, hand.protected
    redirected = completed = False
    names: list[int | None] = [first, second]
    # The look follows its slot: whoever takes the looked-at player's place, by the mark or by
    # redirection, is looked at (RULES 10.3); so the slot is read before the mark replaces anyone.
    look_slot: int | None = names.index(look) if look is not None and look in names else None
    if marked is not None:
        bound = _bind_next(marked, seat, targets, names)
        if bound is None:
            return None, False, False
        names = bound
    if look_slot is None and look is not None and look in names:
        look_slot = names.index(look)
    chosen: list[int | None] = []
    for slot, named in enumerate(names):
        # The first never lands on the second named; the second never on the first's player
        # (nothing to avoid when the Baroness's first look was lost).
        other = chosen[0] if chosen else names[1] if slot == 0 else None
        wanted = slot == 0 or cardinal or named is not None or nmr
        if not wanted:
            break
        usable = (
            named is not None
            and 0 <= named < n
            and alive[named]
            and (cardinal or named != seat)
            and (slot == 0 or named != other)
        )
        if usable and named is not None and not protected[named]:
            chosen.append(named)
            continue
        if usable and named is not None:
            redirected = True
            pick = None
            for step in range(1, n):  # the Cardinal's own player is among them ("you allowed")
                p = (named + step) % n
                if alive[p] and not protected[p] and p != other and (cardinal or p != seat):
                    pick = p
                    break
        else:
            completed = completed or (not nmr and (named is not None or slot == 0 or cardinal))
            pick = _random_player(hand, seat, rng, cardinal, other)
        if pick is None:
            if cardinal:
                return None, redirected, completed
            continue  # a Baroness's look with nowhere to go is lost, the other one stands
        chosen.append(pick)
    if not chosen:
        return None, redirected, completed
    if cardinal:
        a, b = chosen
        if look_slot is None:
            look_slot = 1 if a == seat else 0
        return (a, b, look_slot), redirected, completed
    return (*chosen, None), redirected, completed


def choose_pair(
    hand: Hand, seat: int, card: Card, first: int | None, second: int | None, look: int | None
) -> Chosen | None:
    """Whom a Cardinal or a Baroness order will act on, as :func:`play_turn`
    will choose (for the acknowledgement of an order that needs no completion)."""
    chosen, _, _ = _choose_pair(
        hand, seat, CARD_RULES[card].targets, first, second, look, hand.marked, False, random.Random(0)
    )
    return chosen


def _random_player(hand: Hand, seat: int, rng: random.Random, self_ok: bool, avoid: int | None) -> int | None:
    """A random player still in and unprotected, not ``avoid`` (None: nobody to
    avoid); the acting player only when ``self_ok`` and nobody else qualifies
    (RULES 10.4)."""
    alive, protected = hand.alive, hand.protected
    others = [p for p in range(len(alive)) if p != seat and alive[p] and not protected[p] and p != avoid]
    if others:
        return others[floor(rng.random() * len(others))]
    return seat if self_ok and seat != avoid else None


def _draw(hand: Hand) -> tuple[Card, bool]:
    """The top of the pile, or the set-aside card when the pile is empty (RULES 6,
    10.3), taken out of the hand's stock; True: it was the set-aside card."""
    if hand.pile:
        return hand.pile.pop(), False
    set_aside = hand.set_aside
    assert set_aside is not None, "one draw per play: the set-aside card is there for the last one"
    hand.set_aside = None
    return set_aside, True


def _draw_replacement(hand: Hand, seat: int, cause: Card, out: list[ev.Event] | None) -> bool:
    """``seat`` draws (:func:`_draw`); the new card is private. True: it was the
    set-aside card."""
    new, from_set_aside = _draw(hand)
    hand.cards[seat].append(new)
    if out is not None:
        out.append(_new(ev.CardDrew, (hand.number, seat, new, cause)))
    return from_set_aside


# -- the cards' rules ------------------------------------------------------------


class Targets(Enum):
    """Whom a card chooses (RULES 3, 4, 10.3)."""

    NONE = "nobody"
    OTHER = "another player still in"
    ANY = "any player still in, oneself included"  # the Prince, the Sycophant
    PAIR_ANY = "two players, oneself allowed"  # the Cardinal
    PAIR_OTHERS = "one or two other players"  # the Baroness

    def __bool__(self) -> bool:
        """False for a card that chooses nobody (``if rule.targets:``, as with the bare 0 it replaces)."""
        return self is not Targets.NONE

    @property
    def players(self) -> int:
        """How many players the card chooses: 0, 1 or 2."""
        return 0 if self is Targets.NONE else 2 if self in _PAIRS else 1

    @property
    def self_allowed(self) -> bool:
        """Whether the card may choose its own player."""
        return self is Targets.ANY or self is Targets.PAIR_ANY


_PAIRS = (Targets.PAIR_ANY, Targets.PAIR_OTHERS)

#: The names pbem used before :class:`Targets` (other modules import them).
NO_TARGET, OTHER, ANY, PAIR_ANY, PAIR_OTHERS = Targets
_ANY = Targets.ANY  # read by play_turn at every play

#: A guess: a card in classic games, a number (RULES 10.2) in Premium ones.
Guess = Card | int | None

#: The players a Cardinal or a Baroness acts on (:func:`_choose_pair`): the
#: players chosen then, last, the slot (0 or 1) the Cardinal looks at, None for
#: the Baroness.
Chosen = tuple[int | None, ...]


class Effect(Protocol):
    """What a card does when played, on a hand (mutated) by the player at
    ``seat``: ``recipient`` is the player it acts on, None when it chooses
    nobody or nobody could be chosen; ``guess`` the Guard's or the Bishop's
    guess, completed; events go to ``out`` unless it is None."""

    def __call__(
        self, hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None, /
    ) -> None: ...


class PairEffect(Protocol):
    """The effect of a card that chooses two players (the Cardinal, the Baroness):
    ``chosen`` is :func:`_choose_pair`'s tuple, the players then the looked-at
    slot, or None: no effect."""

    def __call__(
        self, hand: Hand, seat: int, chosen: Chosen | None, guess: Guess, out: list[ev.Event] | None, /
    ) -> None: ...


#: What happens when a Guard is played on the card's holder, instead of the
#: guess being checked (the Assassin): (hand, the Guard's player, the holder,
#: the guess, out). The Bishop's guess never calls it (RULES 10.3).
OnGuessed = Callable[[Hand, int, int, Guess, list[ev.Event] | None], None]

#: What happens when a player with the card on their discards is knocked out
#: (the Constable): (hand, seat, out).
OnKnockedOut = Callable[[Hand, int, list[ev.Event] | None], None]

#: The card's part in the values at the end of a Premium hand (RULES 10.4):
#: (hand, seat -> card held by each player still in, seat -> value), the values
#: changed in place; each starts at the rank of the card held.
EndValue = Callable[[Hand, Mapping[int, Card], dict[int, float]], None]

#: Tokens the card gives once the hand's winners are known (the Jester): (hand)
#: -> None, appending (seat, card) to ``hand.bonus``.
EndBonus = Callable[[Hand], None]

#: How the mark the card puts on a player (``hand.marked``) binds the next play
#: (the Sycophant): (marked, the next player, the next card's targets, the
#: players named) -> the players to choose, or None: the play has no effect.
Binding = Callable[[int, int, Targets, list[int | None]], list[int | None] | None]


class CardRule(NamedTuple):
    """Everything the engine knows about one card (RULES 3-6, 10), as
    plammens/loveletter puts each card's rule on the card. A card is one entry
    in :data:`CARD_RULES`: its effect and every hook by which it acts from
    elsewhere (from the hand, from the discards, at the end of the hand, on the
    next play). Its events go in pbem/events.py, its wording in
    templates/_events.txt.j2, its order words in pbem/orders.py."""

    effect: Effect | PairEffect
    targets: Targets = Targets.NONE  # NMR prefers other players
    guesses: bool = False  # names a card or number (Guard, Bishop); a missing one is drawn at random
    must_play_with: frozenset[Card] = frozenset()  # played when held with one of these (the Countess)
    nmr_avoid: bool = False  # the NMR default plays the other card (the Princess)
    out_if_discarded: bool = False  # its holder is out when made to discard it (the Princess)
    on_guessed: OnGuessed | None = None  # the Assassin
    on_knocked_out: OnKnockedOut | None = None  # from the discards: the Constable
    end_value: EndValue | None = None  # the Count, the Bishop
    end_bonus: EndBonus | None = None  # the Jester
    binds_next: Binding | None = None  # the Sycophant's mark


# -- the cards' effects: (hand, seat, recipient, guess, out) -----------------
# ``recipient`` is None when the card takes no target or nobody could take it
# (for the Cardinal and the Baroness: the tuple _choose_pair gives); ``out`` is
# None when no events are wanted. Who may see an event is decided by its class
# in pbem/events.py.


def _guard(hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None) -> None:
    if recipient is None:
        return
    held = hand.cards[recipient][0]
    on_guessed = _ON_GUESSED[held]
    if on_guessed is not None:  # the Assassin acts from the hand
        on_guessed(hand, seat, recipient, guess, out)
        return
    hit = RANK[held] == guess  # a classic guess is a Card, equal to its rank
    if out is not None:
        out.append(_new(ev.GuardResult, (hand.number, seat, recipient, guess, hit)))
    if hit:
        _eliminate(hand, recipient, out)


def _spy(hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None) -> None:
    if recipient is not None and out is not None:
        out.append(_new(ev.SpySaw, (hand.number, seat, recipient, hand.cards[recipient][0])))


def _baron(hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None) -> None:
    """The lower card is out; a tie, nobody (RULES 6, 10.3)."""
    _compare(hand, seat, recipient, out, True)  # lower_loses


def _dowager_queen(
    hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None
) -> None:
    """The Baron reversed: the higher card is out (RULES 10.3)."""
    _compare(hand, seat, recipient, out, False)  # lower_loses


def _compare(
    hand: Hand, seat: int, recipient: int | None, out: list[ev.Event] | None, lower_loses: bool
) -> None:
    """A Baron's (``lower_loses``) or a Dowager Queen's comparison: both players see
    the other's card, in private; who is out is public."""
    if recipient is None:
        return
    mine, theirs = hand.cards[seat][0], hand.cards[recipient][0]
    a, b = RANK[mine], RANK[theirs]  # plain ranks (RULES 10.3: the Bishop is 9)
    loser = None if a == b else (seat if (a < b) == lower_loses else recipient)
    if out is not None:
        saw: type[ev.BaronSaw | ev.QueenSaw]
        result: type[ev.BaronResult | ev.QueenResult]
        saw, result = (ev.BaronSaw, ev.BaronResult) if lower_loses else (ev.QueenSaw, ev.QueenResult)
        number = hand.number
        out.append(_new(saw, (number, seat, recipient, theirs)))
        out.append(_new(saw, (number, recipient, seat, mine)))
        out.append(_new(result, (number, seat, recipient, loser)))
    if loser is not None:
        _eliminate(hand, loser, out)


def _handmaid(hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None) -> None:
    hand.protected[seat] = True
    if out is not None:
        out.append(_new(ev.Protected, (hand.number, seat)))


def _prince(hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None) -> None:
    if recipient is None:  # cannot happen: the Prince falls back on its player
        return
    held = hand.cards[recipient]
    card = held.pop()
    hand.discards[recipient].append(card)
    if _OUT_IF_DISCARDED[card]:
        if out is not None:
            out.append(_new(ev.PrinceDiscard, (hand.number, recipient, card, False)))
        _eliminate(hand, recipient, out)
        return
    new, from_set_aside = _draw(hand)
    held.append(new)
    if out is not None:
        out.append(_new(ev.PrinceDiscard, (hand.number, recipient, card, from_set_aside)))
        out.append(_new(ev.PrinceDrew, (hand.number, recipient, new)))


def _king(hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None) -> None:
    if recipient is None:
        return
    cards = hand.cards
    mine, theirs = cards[seat], cards[recipient]
    cards[seat], cards[recipient] = theirs, mine
    if out is not None:
        number = hand.number
        out.append(_new(ev.KingTrade, (number, seat, recipient)))
        out.append(_new(ev.KingReceived, (number, seat, recipient, theirs[0])))
        out.append(_new(ev.KingReceived, (number, recipient, seat, mine[0])))


def _no_effect(
    hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None
) -> None:
    pass


def _princess(hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None) -> None:
    _eliminate(hand, seat, out)


def _assassin(hand: Hand, seat: int, holder: int, guess: Guess, out: list[ev.Event] | None) -> None:
    """RULES 10.3: a Guard on the Assassin knocks out its own player; the
    Assassin is revealed, discarded, and its holder draws."""
    if out is not None:
        out.append(_new(ev.AssassinStruck, (hand.number, seat, holder, guess)))
    _eliminate(hand, seat, out)
    hand.cards[holder].remove(ASSASSIN)
    hand.discards[holder].append(ASSASSIN)
    _draw_replacement(hand, holder, ASSASSIN, out)


def _jester(hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None) -> None:
    if recipient is not None:
        hand.jesters.append((seat, recipient))  # a token if they win the hand (_jester_tokens)


def _jester_tokens(hand: Hand) -> None:
    """RULES 10.4: a token for each Jester whose named player won the hand."""
    for jester, named in hand.jesters:
        if named in hand.winners:
            hand.bonus.append((jester, JESTER))


def _cardinal(hand: Hand, seat: int, chosen: Chosen | None, guess: Guess, out: list[ev.Event] | None) -> None:
    if chosen is None:
        return
    a, b, look_slot = cast("tuple[int, int, int]", chosen)  # the Cardinal's: two players, a slot
    cards = hand.cards
    cards[a], cards[b] = cards[b], cards[a]
    if out is not None:
        number = hand.number
        out.append(_new(ev.CardinalReceived, (number, a, b, cards[a][0])))
        out.append(_new(ev.CardinalReceived, (number, b, a, cards[b][0])))
        looked = (a, b)[look_slot]
        out.append(_new(ev.CardinalSaw, (number, seat, looked, cards[looked][0])))


def _baroness(hand: Hand, seat: int, chosen: Chosen | None, guess: Guess, out: list[ev.Event] | None) -> None:
    if chosen is None or out is None:
        return
    for other in cast("tuple[int, ...]", chosen[:-1]):  # the players, before the slot's None
        out.append(_new(ev.BaronessSaw, (hand.number, seat, other, hand.cards[other][0])))


def _sycophant(
    hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None
) -> None:
    if recipient is None:  # cannot happen: the Sycophant falls back on its player
        return
    hand.marked = recipient
    if out is not None:
        out.append(_new(ev.Marked, (hand.number, seat, recipient)))


def _follow_mark(
    marked: int, seat: int, targets: Targets, names: list[int | None]
) -> list[int | None] | None:
    """RULES 10.3: the next card played must choose the marked player: the mark
    replaces the first player named unless one of them is the marked player; a
    card that cannot choose its own player, played by the marked player, has no
    effect."""
    if marked == seat and not targets.self_allowed:
        return None
    if marked in names:
        return names
    return [marked, *names[1:]]


def _count_value(hand: Hand, held: Mapping[int, Card], values: dict[int, float]) -> None:
    """RULES 10.4: one more per Count on the player's discards."""
    for p in held:
        values[p] += hand.discards[p].count(COUNT)


def _constable_token(hand: Hand, seat: int, out: list[ev.Event] | None) -> None:
    """RULES 10.3: knocked out with the Constable on their discards, a player gains a token."""
    hand.bonus.append((seat, CONSTABLE))


def _bishop(hand: Hand, seat: int, recipient: int | None, guess: Guess, out: list[ev.Event] | None) -> None:
    """RULES 10.3: a hit gains a token; the target keeps their card unless their
    standing order says discard (the Princess then knocks them out)."""
    if recipient is None:
        return
    held = hand.cards[recipient]
    card = held[0]
    hit = RANK[card] == guess  # the Bishop ignores the Assassin
    discard = hit and hand.bishop_discard[recipient]
    if hit:
        hand.bonus.append((seat, BISHOP))
    if out is not None:
        out.append(
            _new(
                ev.BishopResult,
                (hand.number, seat, recipient, guess, hit, discard, card if discard else None),
            )
        )
    if not discard:
        return
    held.pop()
    hand.discards[recipient].append(card)
    if _OUT_IF_DISCARDED[card]:
        _eliminate(hand, recipient, out)
    else:
        _draw_replacement(hand, recipient, BISHOP, out)


def _bishop_value(hand: Hand, held: Mapping[int, Card], values: dict[int, float]) -> None:
    """RULES 10.4: while a player still in holds the Bishop, the Princess is worth
    9.5 instead of 8 (one and a half more)."""
    if BISHOP in held.values():
        for p, card in held.items():
            if card == PRINCESS:
                values[p] += 1.5


#: Each card's rule. A new card is one entry here (and its events and wording).
CARD_RULES: dict[Card, CardRule] = {
    GUARD: CardRule(_guard, OTHER, guesses=True),
    SPY: CardRule(_spy, OTHER),
    BARON: CardRule(_baron, OTHER),
    HANDMAID: CardRule(_handmaid),
    PRINCE: CardRule(_prince, ANY),
    KING: CardRule(_king, OTHER),
    COUNTESS: CardRule(_no_effect, must_play_with=frozenset({KING, PRINCE})),
    PRINCESS: CardRule(_princess, nmr_avoid=True, out_if_discarded=True),
    # The Premium deck (RULES 10.3).
    ASSASSIN: CardRule(_no_effect, on_guessed=_assassin),
    JESTER: CardRule(_jester, OTHER, end_bonus=_jester_tokens),
    CARDINAL: CardRule(_cardinal, PAIR_ANY),
    BARONESS: CardRule(_baroness, PAIR_OTHERS),
    SYCOPHANT: CardRule(_sycophant, ANY, binds_next=_follow_mark),
    COUNT: CardRule(_no_effect, end_value=_count_value),
    CONSTABLE: CardRule(_no_effect, on_knocked_out=_constable_token),
    DOWAGER_QUEEN: CardRule(_dowager_queen, OTHER),
    BISHOP: CardRule(_bishop, OTHER, guesses=True, end_value=_bishop_value),
}


# -- the tables derived from CARD_RULES ---------------------------------------
# The engine reads a card's rule at every play; a tuple indexed by card value
# and an unpacking cost less than a dict lookup and attribute reads
# (bench/engine.py: about 6%). _derive_tables builds them all from the entries.

#: By card value: (effect, targets, guesses, how many players it chooses).
_PLAY: tuple[Any, ...]
#: By card value: whether the card may choose its own player.
_SELF_OK: tuple[bool, ...]
#: By card value: the card's ``on_guessed`` hook or None.
_ON_GUESSED: tuple[OnGuessed | None, ...]
#: By card value: whether a holder made to discard it is out.
_OUT_IF_DISCARDED: tuple[bool, ...]
#: (card, hook) of the cards that act from the discards of a player knocked out.
_ON_KNOCKED_OUT: tuple[tuple[Card, OnKnockedOut], ...]
#: The cards' parts in the end-of-hand values, then the tokens they give then.
_END_VALUES: tuple[EndValue, ...]
_END_BONUSES: tuple[EndBonus, ...]
#: How a mark binds the next play (the marking card's ``binds_next``).
_bind_next: Binding
#: Pair tables, by card value twice: the card forced by a rule like the
#: Countess's; the card the NMR default plays (None: either, at random).
_FORCED: tuple[tuple[Card | None, ...], ...]
_NMR_CHOICE: tuple[tuple[Card | None, ...], ...]
#: By card value twice: the cards the player holding the pair may play (legal_cards).
_LEGAL: tuple[tuple[tuple[Card, ...], ...], ...]
#: Cards that choose a player; cards that choose two.
TARGETED: frozenset[Card]
PAIRED: frozenset[Card]


def _no_binding(marked: int, seat: int, targets: Targets, names: list[int | None]) -> list[int | None] | None:
    return names  # no card marks: a mark, which nothing sets, binds nothing


def _derive_tables() -> None:
    """Build the engine's tables from :data:`CARD_RULES`: run once at import;
    a test that replaces an entry runs it again."""
    global _PLAY, _SELF_OK, _ON_GUESSED, _OUT_IF_DISCARDED, _ON_KNOCKED_OUT, _END_VALUES, _END_BONUSES
    global _bind_next, _FORCED, _NMR_CHOICE, _LEGAL, TARGETED, PAIRED
    rules = CARD_RULES
    by_value = [rules.get(Card(v)) if v in _VALUES else None for v in range(max(Card) + 1)]
    _PLAY = tuple(
        (rule.effect, rule.targets, rule.guesses, rule.targets.players) if rule else None for rule in by_value
    )
    _SELF_OK = tuple(bool(rule and rule.targets.self_allowed) for rule in by_value)
    _ON_GUESSED = tuple(rule.on_guessed if rule else None for rule in by_value)
    _OUT_IF_DISCARDED = tuple(bool(rule and rule.out_if_discarded) for rule in by_value)
    _ON_KNOCKED_OUT = tuple((card, r.on_knocked_out) for card, r in rules.items() if r.on_knocked_out)
    _END_VALUES = tuple(rule.end_value for rule in rules.values() if rule.end_value)
    _END_BONUSES = tuple(rule.end_bonus for rule in rules.values() if rule.end_bonus)
    bindings = [rule.binds_next for rule in rules.values() if rule.binds_next]
    # One card marks (hand.marked holds a seat, not the card): a second marking
    # card would keep its card with the mark.
    assert len(bindings) <= 1, "one card marks"
    _bind_next = bindings[0] if bindings else _no_binding
    _FORCED = _pair_table(_forced, None)
    _NMR_CHOICE = _pair_table(_nmr_choice, None)
    _LEGAL = _pair_table(_legal, ())
    TARGETED = frozenset(card for card, rule in rules.items() if rule.targets is not Targets.NONE)
    PAIRED = frozenset(card for card, rule in rules.items() if rule.targets.players == 2)


_VALUES = frozenset(card.value for card in Card)
_T = TypeVar("_T")


def _forced(a: Card, b: Card) -> Card | None:
    if b in CARD_RULES[a].must_play_with:
        return a
    if a in CARD_RULES[b].must_play_with:
        return b
    return None


def _legal(a: Card, b: Card) -> tuple[Card, ...]:
    """The cards of the pair (a, b) that may be played, each once: a forced one alone."""
    forced = _forced(a, b)
    return (a,) if a == b else (forced,) if forced is not None else (a, b)


def _nmr_choice(a: Card, b: Card) -> Card | None:
    """RULES 5.1-5.3 for the pair (a, b); None: either, at random."""
    if CARD_RULES[a].nmr_avoid:
        return b
    if CARD_RULES[b].nmr_avoid:
        return a
    return _forced(a, b)


def _pair_table(rule: Callable[[Card, Card], _T], missing: _T) -> tuple[tuple[_T, ...], ...]:
    """``rule`` tabled for every pair of cards, indexed by card value (``missing``
    at the values no card has): the engine asks it at every play, and two tuple
    lookups are its cheapest form."""
    by_value = {card.value: card for card in Card}
    size = max(by_value) + 1
    return tuple(
        tuple(
            rule(by_value[a], by_value[b]) if a in by_value and b in by_value else missing
            for b in range(size)
        )
        for a in range(size)
    )


_derive_tables()


# -- the end of a hand ------------------------------------------------------------


def _eliminate(hand: Hand, seat: int, out: list[ev.Event] | None) -> None:
    """Knock ``seat`` out; the card they held goes face up on their discards.
    A card already on their discards may act then (the Constable, RULES 10.3)."""
    held = hand.cards[seat]
    card = held[0] if held else None
    discards = hand.discards[seat]
    for acting, on_knocked_out in _ON_KNOCKED_OUT:
        if acting in discards:
            on_knocked_out(hand, seat, out)
    discards.extend(held)
    hand.cards[seat] = []
    hand.alive[seat] = False
    hand.protected[seat] = False
    if out is not None:
        out.append(_new(ev.Eliminated, (hand.number, seat, card)))


def _end_hand(hand: Hand, out: list[ev.Event] | None) -> None:
    """RULES 7: the players still in reveal; highest rank wins; a tie goes to the
    higher discard total; a tie on that too is a shared win."""
    if hand.premium:
        _end_premium(hand, out)
        return
    cards, alive = hand.cards, hand.alive
    shown: list[tuple[int, Card]] = []
    tied: list[int] = []
    best = 0
    for p, held in enumerate(cards):  # one pass, seat order (no comprehension frames: the hot path)
        if alive[p]:
            card = held[0]
            shown.append((p, card))
            if card > best:  # a classic card's value is its rank
                best = card
                tied = [p]
            elif card == best:
                tied.append(p)
    totals: tuple[tuple[int, int], ...] = ()
    if len(tied) > 1:
        totals = tuple([(p, sum(hand.discards[p])) for p in tied])
        top = max([t for _, t in totals])
        tied = [p for p, t in totals if t == top]
    hand.ended = True
    hand.active = None
    hand.winners = tuple(tied)
    if out is not None:
        out.append(_new(ev.HandEnded, (hand.number, hand.winners, tuple(shown), totals)))


def hand_values(hand: Hand) -> dict[int, float]:
    """RULES 10.4: each player still in is worth their card's rank, changed by
    the cards' ``end_value`` hooks: one more per Count on their discards; while
    a player still in holds the Bishop, the Princess is worth 9.5 instead of 8."""
    alive, cards = hand.alive, hand.cards
    held = {p: cards[p][0] for p in range(len(alive)) if alive[p]}
    values: dict[int, float] = {p: RANK[card] for p, card in held.items()}
    for end_value in _END_VALUES:
        end_value(hand, held, values)
    return values


def _end_premium(hand: Hand, out: list[ev.Event] | None) -> None:
    """RULES 10.4: the end of a Premium hand: values (:func:`hand_values`), ties
    to plain discard totals; then the tokens cards give (the Jesters)."""
    values = hand_values(hand)
    best = max(values.values())
    tied = [p for p, v in values.items() if v == best]
    totals: tuple[tuple[int, int], ...] = ()
    if len(tied) > 1:
        totals = tuple([(p, sum(RANK[c] for c in hand.discards[p])) for p in tied])
        top = max([t for _, t in totals])
        tied = [p for p, t in totals if t == top]
    hand.ended = True
    hand.active = None
    hand.marked = None
    hand.winners = tuple(tied)
    for end_bonus in _END_BONUSES:
        end_bonus(hand)
    if out is not None:
        if len(values) > 1:
            out.append(_new(ev.HandValues, (hand.number, tuple(values.items()))))
        shown = tuple((p, hand.cards[p][0]) for p in values)
        out.append(_new(ev.HandEnded, (hand.number, hand.winners, shown, totals)))


# -- the whole game ----------------------------------------------------------


class Game:
    """Thirteen hands, the tokens, and the postal turn whose orders are awaited."""

    __slots__ = ("hands", "tokens", "turn", "finished", "winners")

    def __init__(
        self,
        hands: list[Hand],
        tokens: list[int],
        turn: int = 1,
        finished: bool = False,
        winners: tuple[int, ...] = (),
    ):
        self.hands = hands
        self.tokens = tokens
        self.turn = turn
        self.finished = finished
        self.winners = winners

    @classmethod
    def new(cls, players: int, decks: Mapping[int, Iterable[Card]]) -> Game:
        """Deal all thirteen hands from ``decks`` (hand number -> deck, top first)."""
        hands = [Hand.deal(h, decks[h], players) for h in range(1, HANDS_PER_GAME + 1)]
        return cls(hands, [0] * players)

    @property
    def players(self) -> int:
        return len(self.tokens)

    def hand(self, number: int) -> Hand:
        return self.hands[number - 1]

    def copy(self) -> Game:
        return Game([h.copy() for h in self.hands], self.tokens[:], self.turn, self.finished, self.winners)

    def awaited(self) -> dict[int, list[int]]:
        """Seat -> the hands in which that player must send orders this turn."""
        out: dict[int, list[int]] = {seat: [] for seat in range(self.players)}
        if not self.finished:
            for hand in self.hands:
                if hand.active is not None:  # an ended hand has none
                    out[hand.active].append(hand.number)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "finished": self.finished,
            "winners": list(self.winners),
            "tokens": list(self.tokens),
            "hands": [h.to_dict() for h in self.hands],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        return cls(
            [Hand.from_dict(h) for h in data["hands"]],
            list(data["tokens"]),
            data["turn"],
            data["finished"],
            tuple(data["winners"]),
        )


def deal_events(game: Game) -> list[ev.Event]:
    """The public events of the deal (turn 0): with two players, each hand's
    face-up cards (RULES 9), hand by hand; none otherwise. Written with the
    opening turn, they let a public reader (the web pages) know the face-up
    cards without reading a report's wording."""
    return [ev.FaceUp(h.number, h.face_up) for h in game.hands if h.face_up]


def resolve_turn(
    game: Game,
    orders: Mapping[int, Order | None],
    seed: str,
    events: bool = True,
    standing: Mapping[int, Mapping[int, bool]] | None = None,
) -> tuple[Game, list[ev.Event]]:
    """Resolve the awaited postal turn: every hand in play, each with its order
    (hand number -> Order; missing or None: NMR defaults), then tokens and the
    end of the game (RULES 7). Returns the new game and the events, in hand order.
    With ``events`` False no event is built (a simulation): the list is empty and
    the new game is the same.

    ``standing``: the Bishop's standing orders received since the last turn
    (hand -> seat -> discard?), RULES 10.3; they stand in the hand's state.

    Each hand draws its random choices from its own generator, derived from the
    seed, the turn and the hand: correcting one hand's order changes nothing in
    another hand.
    """
    if game.finished:
        raise IllegalPlay("the game is over")
    new = game.copy()
    for number, per_seat in (standing or {}).items():
        hand = new.hand(number)
        for seat, discard in per_seat.items():
            hand.bishop_discard[seat] = bool(discard)
    out: list[ev.Event] = []
    sink = out if events else None
    won: list[tuple[int, int]] = []
    by_cards: list[tuple[int, int, Card]] = []
    for hand in new.hands:
        if hand.ended:
            continue
        play_turn(hand, orders.get(hand.number), hand_rng(seed, game.turn, hand.number), sink)
        if hand.bonus:  # tokens from cards (RULES 10.4): counted now, at the end of the turn
            by_cards.extend((seat, hand.number, card) for seat, card in hand.bonus)
            hand.bonus = []
        if hand.ended:
            won.extend((seat, hand.number) for seat in hand.winners)
    for seat, _ in won:
        new.tokens[seat] += 1
    for seat, _, _ in by_cards:
        new.tokens[seat] += 1
    if won and events:
        out.append(ev.TokensWon(tuple(won)))
    if by_cards and events:
        out.append(ev.CardTokens(tuple(by_cards)))
    new.turn = game.turn + 1
    winners = game_winners(new)
    if winners:
        new.finished = True
        new.winners = winners
        if events:
            out.append(ev.GameOver(winners))
    return new, out


def game_winners(game: Game) -> tuple[int, ...]:
    """RULES 7: once someone has reached the target, the one player alone with
    the most tokens wins; a tie for most plays on, and is a shared win only when
    every hand has ended. Empty while the game goes on."""
    tokens = game.tokens
    top = max(tokens)
    all_ended = all(h.ended for h in game.hands)
    if top < tokens_to_win(len(tokens)) and not all_ended:
        return ()
    leaders = tuple(seat for seat, t in enumerate(tokens) if t == top)
    if len(leaders) == 1:
        return leaders
    if all_ended:  # a tie for most tokens goes to the most hands won, then is shared
        won = {seat: sum(seat in h.winners for h in game.hands) for seat in leaders}
        most = max(won.values())
        return tuple(seat for seat in leaders if won[seat] == most)
    return ()


# -- seeded randomness ------------------------------------------------------


def hand_rng(seed: str, turn: int, hand: int) -> random.Random:
    """The generator for one hand's random choices in one postal turn."""
    return random.Random(f"{seed}/turn/{turn}/hand/{hand}")


def shuffled_deck(seed: str, hand: int, players: int = 3) -> tuple[Card, ...]:
    """A hand's deck, shuffled from the seed, top first: the classic deck, or
    the Premium deck for 5 to 8 players."""
    deck = list(full_deck(players))
    random.Random(f"{seed}/deck/{hand}").shuffle(deck)
    return tuple(deck)


def seat_order(seed: str, names: list[str]) -> list[str]:
    """The random seating of ``pbem new`` (RULES 1)."""
    names = list(names)
    random.Random(f"{seed}/seats").shuffle(names)
    return names


def derive_secret(seed: str, purpose: str) -> str:
    """A hex secret derived from the seed, e.g. for order codes."""
    return hashlib.sha256(f"{seed}/{purpose}".encode()).hexdigest()
