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
from typing import Callable, Iterable, Mapping, NamedTuple

from . import events as ev
from .cards import DECK_SIZE, FULL_DECK, Card, card_named

GUARD, SPY, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS = Card

HANDS_PER_GAME = 13

#: Drawing from a full pack until a non-Guard comes up names each non-Guard card
#: with probability count / 11 -- exactly a uniform pick from the 11 non-Guards.
_NON_GUARD_PACK: tuple[Card, ...] = tuple(c for c in FULL_DECK if c != GUARD)


#: Player counts the classic deck is played with (RULES 1, 9).
CLASSIC_PLAYERS = (2, 3, 4)

#: Cards laid face up, out of the hand, at the start of a two-player hand (RULES 9).
FACE_UP_WITH_TWO = 3


def tokens_to_win(players: int) -> int:
    """Tokens of affection that win the game (RULES 1, 9)."""
    return {2: 7, 3: 5}.get(players, 4)


def first_player(hand_number: int, players: int) -> int:
    """Seat of the first player of a hand (RULES 2): rotates from hand to hand."""
    return (hand_number - 1) % players


class Order(NamedTuple):
    """An order the engine can carry out: ``card`` is held and legal.

    ``target`` is a seat or None (missing or unusable: a random valid target is
    chosen); ``guess`` is the Guard's guess or None (a random non-Guard is named).
    """

    card: Card
    target: int | None = None
    guess: Card | None = None


class Hand:
    """One of the thirteen hands: its deck, piles and players.

    ``pile`` keeps the draw pile with its *top at the end* (a pop is cheap).
    ``cards[seat]`` is what the player holds: one card, or two for the active
    player (the card kept first, the card drawn second); empty once out.
    ``face_up``: the cards laid face up at the start of a two-player hand, out
    of it for good (RULES 9); empty with more players.
    """

    __slots__ = (
        "number", "deck", "set_aside", "face_up", "pile", "cards", "discards",
        "alive", "protected", "active", "ended", "winners",
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

    @classmethod
    def deal(cls, number: int, deck: Iterable[Card], players: int) -> "Hand":
        """Set up a hand from a deck given top first (RULES 2, 9): one card set
        aside, with two players three cards face up, one dealt to each player
        from the first player around the board, then the first player draws for
        postal turn 1."""
        deck = tuple(deck)
        check_deck(deck)
        if players not in CLASSIC_PLAYERS:
            raise ValueError(f"a game with the classic deck has 2 to 4 players, not {players}")
        hand = cls()
        hand.number = number
        hand.deck = deck
        hand.set_aside = deck[0]
        up = FACE_UP_WITH_TWO if players == 2 else 0
        hand.face_up = deck[1:1 + up]
        first = first_player(number, players)
        # Rotate the dealt cards so that the first player gets the first of them.
        start = 1 + up
        dealt = deck[start:start + players]
        shift = players - first
        # list(map(list, ...)) builds the lists in C: no comprehension frame.
        cards = list(map(list, zip(dealt[shift:] + dealt[:shift])))
        cards[first].append(deck[start + players])
        hand.cards = cards
        hand.pile = list(deck[:start + players:-1])  # the rest, top at the end
        hand.discards = list(map(list, [()] * players))
        hand.alive = [True] * players
        hand.protected = [False] * players
        hand.active = first
        hand.ended = False
        hand.winners = ()
        return hand

    def copy(self) -> "Hand":
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
    def to_dict(self) -> dict:
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
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Hand":
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
        return hand


def _cards(names: Iterable[str]) -> list[Card]:
    return [card_named(n) for n in names]


_SORTED_DECK = sorted(FULL_DECK)


def check_deck(deck: tuple[Card, ...]) -> None:
    """Raise ValueError unless ``deck`` is exactly the 16 cards of the game."""
    if len(deck) != DECK_SIZE or sorted(deck) != _SORTED_DECK:
        raise ValueError(
            f"a deck must be exactly the {DECK_SIZE} cards of the game "
            f"(5 Guards, 2 Spies, 2 Barons, 2 Handmaids, 2 Princes, King, Countess, Princess)"
        )


# -- queries used to check orders and to pick defaults --------------------


def forced_card(held: list[Card]) -> Card | None:
    """The card the player must play, by a rule like the Countess's (held with
    the King or a Prince), or None when either may be played."""
    a, b = held
    return _FORCED[a][b]


def countess_forced(held: list[Card]) -> bool:
    """The Countess rule: holding the Countess with the King or a Prince."""
    return forced_card(held) is not None


def legal_cards(held: list[Card]) -> list[Card]:
    """The cards the active player may play (each once)."""
    a, b = held
    if a == b:
        return [a]
    forced = forced_card(held)
    if forced is not None:
        return [forced]
    return [a, b]


def may_target_self(card: Card) -> bool:
    """Whether the card may choose its own player (the Prince)."""
    return CARD_RULES[card].targets == ANY


def redirect(hand: Hand, seat: int, card: Card, target: int) -> int | None:
    """RULES 4: the next player after a protected ``target``, around the board,
    still in and not protected; the acting player is skipped unless the card may
    target them (the Prince). None when nobody qualifies (a Prince then falls
    back on the player)."""
    n = len(hand.alive)
    alive, protected = hand.alive, hand.protected
    self_ok = CARD_RULES[card].targets == ANY
    for step in range(1, n):
        p = (target + step) % n
        if alive[p] and not protected[p] and (p != seat or self_ok):
            return p
    return seat if self_ok else None


def random_target(hand: Hand, seat: int, card: Card, rng: random.Random) -> int | None:
    """RULES 5.4: a random valid target other than the player; the player only
    for a card that may target them (the Prince) with nobody else to take it;
    None when nobody is valid.

    Uniform over the valid targets by rejection sampling: cheaper than building
    the list of candidates, and this is on the engine's hot path."""
    alive, protected = hand.alive, hand.protected
    n = len(alive)
    for p in range(n):
        if p != seat and alive[p] and not protected[p]:
            break
    else:
        return seat if CARD_RULES[card].targets == ANY else None
    while True:
        p = int(rng.random() * n)
        if p != seat and alive[p] and not protected[p]:
            return p


def random_guess(rng: random.Random) -> Card:
    """RULES 5.5: a non-Guard, weighted as if drawn from a full pack."""
    return _NON_GUARD_PACK[int(rng.random() * 11)]


def default_card(held: list[Card], rng: random.Random) -> Card:
    """RULES 5.1-5.3: the card played for a player who sent no order: never a
    card the default avoids (the Princess) while the other can be played; a
    forced card (the Countess with the King or a Prince); else either at random."""
    a, b = held
    card = _NMR_CHOICE[a][b]
    return held[int(rng.random() * 2)] if card is None else card


# -- one play --------------------------------------------------------------


# Events are NamedTuples; building them with tuple.__new__ skips a Python-level
# __new__ frame on the hottest path of the engine (see bench/engine.py).
_new = tuple.__new__
_Played = ev.Played


def play_turn(hand: Hand, order: Order | None, rng: random.Random, out: list | None) -> None:
    """Resolve the active player's play in ``hand`` (mutated in place), then end
    the hand or make the next player active. Events are appended to ``out``;
    with ``out`` None no event is built (a simulation that reads only the state).

    ``order`` None means no order was received: the NMR defaults apply.
    The order must be legal (card held, Countess rule kept): the orders layer
    rejects anything else before it gets here.
    """
    seat = hand.active
    held = hand.cards[seat]
    number = hand.number
    nmr = order is None
    if nmr:
        card = default_card(held, rng)
        target = guess = None
    else:
        card, target, guess = order
        if card not in held:
            raise ValueError(f"hand {number}: seat {seat} does not hold the {card.title}")
        forced = forced_card(held)
        if forced is not None and card != forced:
            raise ValueError(f"hand {number}: the {forced.title} must be played")
    held.remove(card)
    hand.discards[seat].append(card)

    rule = CARD_RULES[card]
    recipient = None
    redirected = random_tgt = random_gss = False
    targets = rule.targets
    if targets:
        alive = hand.alive
        if target is None or not (
            0 <= target < len(alive) and alive[target] and (target != seat or targets == ANY)
        ):  # unusable as written (RULES 3): completed with a random target
            recipient = random_target(hand, seat, card, rng)
            random_tgt = not nmr
        elif hand.protected[target]:
            recipient = redirect(hand, seat, card, target)
            redirected = True
        else:
            recipient = target
    if not rule.guesses:
        guess = None
    elif recipient is not None and (guess is None or guess == GUARD):
        random_gss = not nmr
        guess = random_guess(rng)
    if out is not None:
        out.append(_new(_Played, (number, seat, card, target, recipient, guess, nmr,
                                  random_tgt, random_gss, redirected)))
    rule.effect(hand, seat, recipient, guess, out)

    # End the hand (RULES 7) or pass the turn to the next player still in, whose
    # protection ends and who draws (RULES 2, 4). Inlined: this is the hot path.
    # Who is active next and what they drew is read from the new state, so no
    # event is spent on it.
    alive = hand.alive
    pile = hand.pile
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


# -- the cards' effects: (hand, seat, recipient, guess, out) -----------------
# ``recipient`` is None when the card takes no target or nobody could take it;
# ``out`` is None when no events are wanted. Who may see an event is decided by
# its class in pbem/events.py.


def _guard(hand: Hand, seat: int, recipient: int | None, guess: Card | None, out: list | None) -> None:
    if recipient is None:
        return
    hit = hand.cards[recipient][0] == guess
    if out is not None:
        out.append(_new(ev.GuardResult, (hand.number, seat, recipient, guess, hit)))
    if hit:
        _eliminate(hand, recipient, out)


def _spy(hand: Hand, seat: int, recipient: int | None, guess: Card | None, out: list | None) -> None:
    if recipient is not None and out is not None:
        out.append(_new(ev.SpySaw, (hand.number, seat, recipient, hand.cards[recipient][0])))


def _baron(hand: Hand, seat: int, recipient: int | None, guess: Card | None, out: list | None) -> None:
    if recipient is None:
        return
    mine, theirs = hand.cards[seat][0], hand.cards[recipient][0]
    loser = None if mine == theirs else (seat if mine < theirs else recipient)
    if out is not None:
        number = hand.number
        out.append(_new(ev.BaronSaw, (number, seat, recipient, theirs)))
        out.append(_new(ev.BaronSaw, (number, recipient, seat, mine)))
        out.append(_new(ev.BaronResult, (number, seat, recipient, loser)))
    if loser is not None:
        _eliminate(hand, loser, out)


def _handmaid(hand: Hand, seat: int, recipient: int | None, guess: Card | None, out: list | None) -> None:
    hand.protected[seat] = True
    if out is not None:
        out.append(_new(ev.Protected, (hand.number, seat)))


def _prince(hand: Hand, seat: int, recipient: int | None, guess: Card | None, out: list | None) -> None:
    if recipient is None:  # cannot happen: the Prince falls back on its player
        return
    held = hand.cards[recipient]
    card = held.pop()
    hand.discards[recipient].append(card)
    if card == PRINCESS:
        hand.alive[recipient] = False
        hand.protected[recipient] = False
        if out is not None:
            out.append(_new(ev.PrinceDiscard, (hand.number, recipient, card, False)))
            out.append(_new(ev.Eliminated, (hand.number, recipient, None)))
        return
    if hand.pile:
        new = hand.pile.pop()
        from_set_aside = False
    else:
        new, hand.set_aside = hand.set_aside, None
        from_set_aside = True
    held.append(new)
    if out is not None:
        out.append(_new(ev.PrinceDiscard, (hand.number, recipient, card, from_set_aside)))
        out.append(_new(ev.PrinceDrew, (hand.number, recipient, new)))


def _king(hand: Hand, seat: int, recipient: int | None, guess: Card | None, out: list | None) -> None:
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


def _no_effect(hand: Hand, seat: int, recipient: int | None, guess: Card | None, out: list | None) -> None:
    pass


def _princess(hand: Hand, seat: int, recipient: int | None, guess: Card | None, out: list | None) -> None:
    _eliminate(hand, seat, out)


#: Whom a card chooses: nobody, another player still in, or any player still in
#: (oneself included).
NO_TARGET, OTHER, ANY = 0, 1, 2


class CardRule(NamedTuple):
    """Everything the engine needs to know about one card (RULES 3-6), as
    plammens/loveletter puts each card's rule on the card. A new card is one
    entry in :data:`CARD_RULES` (its events go in pbem/events.py, its wording
    in templates/_events.txt.j2)."""

    effect: Callable[[Hand, int, "int | None", "Card | None", "list | None"], None]
    targets: int = NO_TARGET  # NO_TARGET, OTHER or ANY; the NMR default prefers another player
    guesses: bool = False  # names a card (the Guard); a missing guess gets random_guess()
    must_play_with: frozenset = frozenset()  # played when held with one of these (the Countess)
    nmr_avoid: bool = False  # the NMR default plays the other card (the Princess)


CARD_RULES: dict[Card, CardRule] = {
    GUARD: CardRule(_guard, OTHER, guesses=True),
    SPY: CardRule(_spy, OTHER),
    BARON: CardRule(_baron, OTHER),
    HANDMAID: CardRule(_handmaid),
    PRINCE: CardRule(_prince, ANY),
    KING: CardRule(_king, OTHER),
    COUNTESS: CardRule(_no_effect, must_play_with=frozenset({KING, PRINCE})),
    PRINCESS: CardRule(_princess, nmr_avoid=True),
}

#: Cards that choose a player (derived from the table).
TARGETED = frozenset(card for card, rule in CARD_RULES.items() if rule.targets)


def _forced(a: Card, b: Card) -> Card | None:
    if b in CARD_RULES[a].must_play_with:
        return a
    if a in CARD_RULES[b].must_play_with:
        return b
    return None


def _nmr_choice(a: Card, b: Card) -> Card | None:
    """RULES 5.1-5.3 for the pair (a, b); None: either, at random."""
    if CARD_RULES[a].nmr_avoid:
        return b
    if CARD_RULES[b].nmr_avoid:
        return a
    return _forced(a, b)


def _pair_table(rule: Callable[[Card, Card], "Card | None"]) -> tuple:
    """``rule`` tabled for every pair of cards, indexed by card value: the engine
    asks it at every play, and two tuple lookups are its cheapest form."""
    by_value = {card.value: card for card in Card}
    size = max(by_value) + 1
    return tuple(tuple(rule(by_value[a], by_value[b]) if a in by_value and b in by_value else None
                       for b in range(size)) for a in range(size))


_FORCED = _pair_table(_forced)
_NMR_CHOICE = _pair_table(_nmr_choice)


def _eliminate(hand: Hand, seat: int, out: list | None) -> None:
    """Knock ``seat`` out; the card they held goes face up on their discards."""
    held = hand.cards[seat]
    card = held[0] if held else None
    hand.discards[seat].extend(held)
    hand.cards[seat] = []
    hand.alive[seat] = False
    hand.protected[seat] = False
    if out is not None:
        out.append(_new(ev.Eliminated, (hand.number, seat, card)))


def _end_hand(hand: Hand, out: list | None) -> None:
    """RULES 7: the players still in reveal; highest rank wins; a tie goes to the
    higher discard total; a tie on that too is a shared win."""
    cards, alive = hand.cards, hand.alive
    shown = []
    best = 0
    for p in range(len(cards)):  # plain loops: this runs once per hand in the benchmark
        if alive[p]:
            card = cards[p][0]
            shown.append((p, card))
            if card > best:
                best = card
    tied = [p for p, card in shown if card == best]
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


# -- the whole game ----------------------------------------------------------


class Game:
    """Thirteen hands, the tokens, and the postal turn whose orders are awaited."""

    __slots__ = ("hands", "tokens", "turn", "finished", "winners")

    def __init__(self, hands: list[Hand], tokens: list[int], turn: int = 1,
                 finished: bool = False, winners: tuple[int, ...] = ()):
        self.hands = hands
        self.tokens = tokens
        self.turn = turn
        self.finished = finished
        self.winners = winners

    @classmethod
    def new(cls, players: int, decks: Mapping[int, Iterable[Card]]) -> "Game":
        """Deal all thirteen hands from ``decks`` (hand number -> deck, top first)."""
        hands = [Hand.deal(h, decks[h], players) for h in range(1, HANDS_PER_GAME + 1)]
        return cls(hands, [0] * players)

    @property
    def players(self) -> int:
        return len(self.tokens)

    def hand(self, number: int) -> Hand:
        return self.hands[number - 1]

    def copy(self) -> "Game":
        return Game([h.copy() for h in self.hands], self.tokens[:], self.turn,
                    self.finished, self.winners)

    def awaited(self) -> dict[int, list[int]]:
        """Seat -> the hands in which that player must send orders this turn."""
        out: dict[int, list[int]] = {seat: [] for seat in range(self.players)}
        if not self.finished:
            for hand in self.hands:
                if not hand.ended:
                    out[hand.active].append(hand.number)
        return out

    def to_dict(self) -> dict:
        return {
            "turn": self.turn,
            "finished": self.finished,
            "winners": list(self.winners),
            "tokens": list(self.tokens),
            "hands": [h.to_dict() for h in self.hands],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Game":
        return cls([Hand.from_dict(h) for h in data["hands"]], list(data["tokens"]),
                   data["turn"], data["finished"], tuple(data["winners"]))


def resolve_turn(game: Game, orders: Mapping[int, Order | None], seed: str,
                 events: bool = True) -> tuple[Game, list]:
    """Resolve the awaited postal turn: every hand in play, each with its order
    (hand number -> Order; missing or None: NMR defaults), then tokens and the
    end of the game (RULES 7). Returns the new game and the events, in hand order.
    With ``events`` False no event is built (a simulation): the list is empty and
    the new game is the same.

    Each hand draws its random choices from its own generator, derived from the
    seed, the turn and the hand: correcting one hand's order changes nothing in
    another hand.
    """
    if game.finished:
        raise ValueError("the game is over")
    new = game.copy()
    out: list = []
    sink = out if events else None
    won: list[tuple[int, int]] = []
    for hand in new.hands:
        if hand.ended:
            continue
        play_turn(hand, orders.get(hand.number), hand_rng(seed, game.turn, hand.number), sink)
        if hand.ended:
            won.extend((seat, hand.number) for seat in hand.winners)
    for seat, _ in won:
        new.tokens[seat] += 1
    if won and events:
        out.append(ev.TokensWon(tuple(won)))
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
    if len(leaders) == 1 or all_ended:
        return leaders
    return ()


# -- seeded randomness ------------------------------------------------------


def hand_rng(seed: str, turn: int, hand: int) -> random.Random:
    """The generator for one hand's random choices in one postal turn."""
    return random.Random(f"{seed}/turn/{turn}/hand/{hand}")


def shuffled_deck(seed: str, hand: int) -> tuple[Card, ...]:
    """A hand's deck, shuffled from the seed, top first."""
    deck = list(FULL_DECK)
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
