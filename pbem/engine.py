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
from typing import Iterable, Mapping, NamedTuple

from . import events as ev
from .cards import DECK_SIZE, FULL_DECK, TARGETED, Card, card_named

GUARD, SPY, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS = Card

HANDS_PER_GAME = 13

#: Drawing from a full pack until a non-Guard comes up names each non-Guard card
#: with probability count / 11 -- exactly a uniform pick from the 11 non-Guards.
_NON_GUARD_PACK: tuple[Card, ...] = tuple(c for c in FULL_DECK if c != GUARD)


def tokens_to_win(players: int) -> int:
    """Tokens of affection that win the game (RULES 1)."""
    return 5 if players == 3 else 4


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
    """

    __slots__ = (
        "number", "deck", "set_aside", "pile", "cards", "discards",
        "alive", "protected", "active", "ended", "winners",
    )

    number: int
    deck: tuple[Card, ...]
    set_aside: Card | None
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
        """Set up a hand from a deck given top first (RULES 2): one card set
        aside, one dealt to each player from the first player around the board,
        then the first player draws for postal turn 1."""
        deck = tuple(deck)
        check_deck(deck)
        if players not in (3, 4):
            raise ValueError(f"a game has 3 or 4 players, not {players}")
        hand = cls()
        hand.number = number
        hand.deck = deck
        hand.set_aside = deck[0]
        first = (number - 1) % players  # first_player(), inlined: deal is hot in the benchmark
        # Rotate the dealt cards so that the first player gets deck[1].
        dealt = deck[1:1 + players]
        shift = players - first
        # list(map(list, ...)) builds the lists in C: no comprehension frame.
        cards = list(map(list, zip(dealt[shift:] + dealt[:shift])))
        cards[first].append(deck[1 + players])
        hand.cards = cards
        hand.pile = list(deck[:1 + players:-1])  # the rest, top at the end
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
        out = list(self.pile)
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


def countess_forced(held: list[Card]) -> bool:
    """The Countess rule: holding the Countess with the King or a Prince."""
    return COUNTESS in held and (KING in held or PRINCE in held)


def legal_cards(held: list[Card]) -> list[Card]:
    """The cards the active player may play (each once)."""
    a, b = held
    if a == b:
        return [a]
    if countess_forced(held):
        return [COUNTESS]
    return [a, b]


def redirect(hand: Hand, seat: int, card: Card, target: int) -> int | None:
    """RULES 4: the next player after a protected ``target``, around the board,
    still in and not protected; the acting player is skipped unless the card is a
    Prince. None when nobody qualifies (a Prince then falls back on the player)."""
    n = len(hand.alive)
    alive, protected = hand.alive, hand.protected
    for step in range(1, n):
        p = (target + step) % n
        if alive[p] and not protected[p] and (p != seat or card == PRINCE):
            return p
    return seat if card == PRINCE else None


def random_target(hand: Hand, seat: int, card: Card, rng: random.Random) -> int | None:
    """RULES 5.4: a random valid target other than the player; the player only
    for a Prince with nobody else to take it; None when nobody is valid.

    Uniform over the valid targets by rejection sampling: cheaper than building
    the list of candidates, and this is on the engine's hot path."""
    alive, protected = hand.alive, hand.protected
    n = len(alive)
    for p in range(n):
        if p != seat and alive[p] and not protected[p]:
            break
    else:
        return seat if card == PRINCE else None
    while True:
        p = int(rng.random() * n)
        if p != seat and alive[p] and not protected[p]:
            return p


def random_guess(rng: random.Random) -> Card:
    """RULES 5.5: a non-Guard, weighted as if drawn from a full pack."""
    return _NON_GUARD_PACK[int(rng.random() * 11)]


def default_card(held: list[Card], rng: random.Random) -> Card:
    """RULES 5.1-5.3: the card played for a player who sent no order."""
    a, b = held
    if a == PRINCESS:
        return b
    if b == PRINCESS:
        return a
    if (a == COUNTESS and (b == KING or b == PRINCE)) or (b == COUNTESS and (a == KING or a == PRINCE)):
        return COUNTESS
    return held[int(rng.random() * 2)]


# -- one play --------------------------------------------------------------


# Events are NamedTuples; building them with tuple.__new__ skips a Python-level
# __new__ frame on the hottest path of the engine (see bench/engine.py).
_new = tuple.__new__
_Played = ev.Played


def play_turn(hand: Hand, order: Order | None, rng: random.Random, out: list) -> None:
    """Resolve the active player's play in ``hand`` (mutated in place), then end
    the hand or make the next player active. Events are appended to ``out``.

    ``order`` None means no order was received: the NMR defaults apply.
    The order must be legal (card held, Countess rule kept): the orders layer
    rejects anything else before it gets here.
    """
    seat = hand.active
    held = hand.cards[seat]
    number = hand.number
    nmr = order is None
    if nmr:
        a, b = held  # default_card(), inlined
        if a == PRINCESS:
            card = b
        elif b == PRINCESS:
            card = a
        elif (a == COUNTESS and (b == KING or b == PRINCE)) or (b == COUNTESS and (a == KING or a == PRINCE)):
            card = COUNTESS
        else:
            card = held[int(rng.random() * 2)]
        target = guess = None
    else:
        card, target, guess = order
        if card not in held:
            raise ValueError(f"hand {number}: seat {seat} does not hold the {card.title}")
        if card != COUNTESS and COUNTESS in held and (KING in held or PRINCE in held):
            raise ValueError(f"hand {number}: the Countess must be played")
    held.remove(card)
    hand.discards[seat].append(card)

    recipient = None
    redirected = random_tgt = random_gss = False
    if card in TARGETED:
        alive = hand.alive
        if target is None or not (
            0 <= target < len(alive) and alive[target] and (target != seat or card == PRINCE)
        ):  # unusable as written (RULES 3): completed with a random target
            recipient = random_target(hand, seat, card, rng)
            random_tgt = not nmr
        elif hand.protected[target]:
            recipient = redirect(hand, seat, card, target)
            redirected = True
        else:
            recipient = target
        if card == GUARD and recipient is not None and (guess is None or guess == GUARD):
            random_gss = not nmr
            guess = _NON_GUARD_PACK[int(rng.random() * 11)]  # random_guess, inlined
    if card != GUARD:
        guess = None
    out.append(_new(_Played, (number, seat, card, target, recipient, guess, nmr,
                              random_tgt, random_gss, redirected)))

    if card == GUARD:
        if recipient is not None:
            hit = hand.cards[recipient][0] == guess
            out.append(_new(ev.GuardResult, (number, seat, recipient, guess, hit)))
            if hit:
                _eliminate(hand, recipient, out)
    elif card == SPY:
        if recipient is not None:
            out.append(_new(ev.SpySaw, (number, seat, recipient, hand.cards[recipient][0])))
    elif card == BARON:
        if recipient is not None:
            mine, theirs = held[0], hand.cards[recipient][0]
            out.append(_new(ev.BaronSaw, (number, seat, recipient, theirs)))
            out.append(_new(ev.BaronSaw, (number, recipient, seat, mine)))
            loser = None if mine == theirs else (seat if mine < theirs else recipient)
            out.append(_new(ev.BaronResult, (number, seat, recipient, loser)))
            if loser is not None:
                _eliminate(hand, loser, out)
    elif card == HANDMAID:
        hand.protected[seat] = True
        out.append(_new(ev.Protected, (number, seat)))
    elif card == PRINCE:
        _prince(hand, recipient, out)
    elif card == KING:
        if recipient is not None:
            mine = hand.cards[seat]
            theirs = hand.cards[recipient]
            hand.cards[seat], hand.cards[recipient] = theirs, mine
            out.append(_new(ev.KingTrade, (number, seat, recipient)))
            out.append(_new(ev.KingReceived, (number, seat, recipient, theirs[0])))
            out.append(_new(ev.KingReceived, (number, recipient, seat, mine[0])))
    elif card == PRINCESS:
        _eliminate(hand, seat, out)
    # The Countess has no effect.

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


def _prince(hand: Hand, recipient: int, out: list) -> None:
    held = hand.cards[recipient]
    card = held.pop()
    hand.discards[recipient].append(card)
    from_set_aside = not hand.pile and card != PRINCESS
    out.append(_new(ev.PrinceDiscard, (hand.number, recipient, card, from_set_aside)))
    if card == PRINCESS:
        hand.alive[recipient] = False
        hand.protected[recipient] = False
        out.append(_new(ev.Eliminated, (hand.number, recipient, None)))
        return
    if hand.pile:
        new = hand.pile.pop()
    else:
        new, hand.set_aside = hand.set_aside, None
    held.append(new)
    out.append(_new(ev.PrinceDrew, (hand.number, recipient, new)))


def _eliminate(hand: Hand, seat: int, out: list) -> None:
    """Knock ``seat`` out; the card they held goes face up on their discards."""
    held = hand.cards[seat]
    card = held[0] if held else None
    hand.discards[seat].extend(held)
    hand.cards[seat] = []
    hand.alive[seat] = False
    hand.protected[seat] = False
    out.append(_new(ev.Eliminated, (hand.number, seat, card)))


def _end_hand(hand: Hand, out: list) -> None:
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
    reveals = tuple(shown)
    tied = [p for p, card in shown if card == best]
    totals: tuple[tuple[int, int], ...] = ()
    if len(tied) > 1:
        totals = tuple([(p, sum(hand.discards[p])) for p in tied])
        top = max([t for _, t in totals])
        tied = [p for p, t in totals if t == top]
    hand.ended = True
    hand.active = None
    hand.winners = tuple(tied)
    out.append(_new(ev.HandEnded, (hand.number, hand.winners, reveals, totals)))


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


def resolve_turn(game: Game, orders: Mapping[int, Order | None], seed: str) -> tuple[Game, list]:
    """Resolve the awaited postal turn: every hand in play, each with its order
    (hand number -> Order; missing or None: NMR defaults), then tokens and the
    end of the game (RULES 7). Returns the new game and the events, in hand order.

    Each hand draws its random choices from its own generator, derived from the
    seed, the turn and the hand: correcting one hand's order changes nothing in
    another hand.
    """
    if game.finished:
        raise ValueError("the game is over")
    new = game.copy()
    out: list = []
    won: list[tuple[int, int]] = []
    for hand in new.hands:
        if hand.ended:
            continue
        play_turn(hand, orders.get(hand.number), hand_rng(seed, game.turn, hand.number), out)
        if hand.ended:
            won.extend((seat, hand.number) for seat in hand.winners)
    for seat, _ in won:
        new.tokens[seat] += 1
    if won:
        out.append(ev.TokensWon(tuple(won)))
    new.turn = game.turn + 1
    winners = game_winners(new)
    if winners:
        new.finished = True
        new.winners = winners
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
