"""The board as every player may know it, rebuilt from the public events alone.

The site never reads ``state.json``: what is public about a hand follows from
the deal rules (RULES 2: who plays first, how many cards are left) and from
the public events of each turn, replayed here the way the engine produced them:
a played card goes on its player's discard pile, a Prince's victim discards
and draws, an eliminated player's card goes face up, a Handmaid protects until
its player is active again, and after each play the next player still in
draws and becomes active. Premium games (RULES 10) add: the Sycophant's mark
(until the next play in the hand), the Assassin's and the Bishop's
discard-and-draw, and tokens earned by cards. Two-player games (RULES 9) lay
three cards face up: they are public from the deal, and the caller gives them
(the deal's events of turn 0, or an older campaign's opening report). The tests check this replay
against the GM's state after every turn of many games of every size.

Pure: no files, no clock. A private event given to :func:`replay` is a bug in
the caller and raises :class:`LeakError` rather than being skipped quietly.
"""

from __future__ import annotations

from typing import Any

from ..engine import (
    CLASSIC_PLAYERS,
    FACE_UP_WITH_TWO,
    HANDS_PER_GAME,
    PREMIUM_PLAYERS,
    first_player,
    full_deck,
)
from ..errors import PbemError
from ..tuples import NamedTuple


class LeakError(PbemError, ValueError):
    """A private event reached the public site builder."""


class HandBoard:
    """What everybody knows of one hand at the end of a turn."""

    __slots__ = (
        "number",
        "first",
        "alive",
        "protected",
        "discards",
        "pile",
        "active",
        "ended",
        "winners",
        "result",
        "face_up",
        "marked",
        "jesters",
    )

    def __init__(self, number: int, players: int, face_up: tuple[str, ...] = ()):
        self.number = number
        self.first = first_player(number, players)
        self.alive = [True] * players
        self.protected = [False] * players
        self.discards: list[list[str]] = [[] for _ in range(players)]
        self.face_up = tuple(face_up)  # two players: out of the hand for good, public (RULES 9)
        # Set aside one card (and lay the face-up ones), deal one to each player, the first player draws one.
        self.pile = len(full_deck(players)) - 2 - players - len(self.face_up)
        self.active: int | None = self.first
        self.ended = False
        self.winners: tuple[int, ...] = ()
        self.result: Any = None  # the HandEnded event
        self.marked: int | None = None  # the Sycophant's mark, until the next play (RULES 10.3)
        self.jesters: list[tuple[int, int]] = []  # (Jester's player, the player named): a token if they win

    def copy(self) -> HandBoard:
        new = HandBoard.__new__(HandBoard)
        new.number, new.first, new.pile = self.number, self.first, self.pile
        new.alive, new.protected = self.alive[:], self.protected[:]
        new.discards = [d[:] for d in self.discards]
        new.active, new.ended, new.winners, new.result = self.active, self.ended, self.winners, self.result
        new.face_up, new.marked, new.jesters = self.face_up, self.marked, self.jesters[:]
        return new

    def _draw_replacement(self) -> None:
        """A player discarded and draws the top of the pile, or the set-aside card
        when the pile is empty (RULES 6, 10.3): only the pile's count is public."""
        if self.pile:
            self.pile -= 1

    def apply(self, event: Any) -> None:
        """One public event of this hand, as the engine applied it."""
        kind = event.kind
        if kind == "played":
            self.discards[event.seat].append(event.card.title)
            self.marked = None  # the mark binds the next play only, whatever it is (RULES 10.3)
            if event.card.title == "Jester" and event.recipient is not None:
                self.jesters.append((event.seat, event.recipient))
        elif kind == "prince":
            self.discards[event.recipient].append(event.card.title)
            if event.card.title != "Princess" and not event.from_set_aside:
                self.pile -= 1  # the victim draws the top card of the pile
        elif kind == "protected":
            self.protected[event.seat] = True
        elif kind == "eliminated":
            self.alive[event.seat] = False
            self.protected[event.seat] = False
            if event.card is not None:
                self.discards[event.seat].append(event.card.title)
        elif kind == "ended":
            self.ended = True
            self.active = None
            self.marked = None
            self.winners = tuple(event.winners)
            self.result = event
        elif kind == "marked":
            self.marked = event.marked
        elif kind == "assassin":
            # The Guard's player is out (an "eliminated" event); the Assassin's holder
            # reveals it, discards it and draws (RULES 10.3).
            self.discards[event.recipient].append("Assassin")
            self._draw_replacement()
        elif kind == "bishop":
            if event.discarded:  # a hit, and the target's standing order said discard
                self.discards[event.recipient].append(event.card.title)
                if event.card.title != "Princess":  # else an "eliminated" event follows
                    self._draw_replacement()
        # guard, baron, king, queen, cardinal, baroness, jester, the mark's corrections, values:
        # their consequences on the board come as the events above.

    def pass_turn(self, seat: int) -> None:
        """After ``seat``'s play, if the hand goes on: the next player still in
        becomes active, loses their protection and draws (RULES 2, 4)."""
        if self.ended:
            return
        n = len(self.alive)
        nxt = (seat + 1) % n
        while not self.alive[nxt]:
            nxt = (nxt + 1) % n
        self.active = nxt
        self.protected[nxt] = False
        self.pile -= 1


class Board(NamedTuple):
    """Everything public at the end of one turn (turn 0: right after the deal)."""

    turn: int
    hands: list[HandBoard]
    tokens: list[int]
    won: tuple[tuple[int, int], ...]  # (seat, hand) tokens won this turn
    by_cards: tuple[tuple[int, int, str], ...]  # (seat, hand, card) tokens cards gave this turn (RULES 10.4)
    finished: bool
    winners: tuple[int, ...]
    events: dict[int, list]  # hand number -> its public events this turn

    def awaited(self) -> dict[int, list[int]]:
        """Seat -> hands in which that player must send orders next."""
        out: dict[int, list[int]] = {seat: [] for seat in range(len(self.tokens))}
        if not self.finished:
            for hand in self.hands:
                if not hand.ended and hand.active is not None:
                    out[hand.active].append(hand.number)
        return out


def check_public(event: Any) -> None:
    if event.audience is not None:
        raise LeakError(
            f"a private event ({event.kind}, hand {getattr(event, 'hand', '?')}) reached "
            f"the public site: only public events may be used"
        )


def replay(players: int, turns: list[list], face_up: dict[int, tuple[str, ...]] | None = None) -> list[Board]:
    """The board after the deal and after each turn. ``turns[t - 1]`` holds the
    public events of turn ``t``, in the order the engine returned them.
    ``face_up``: with two players, each hand's three face-up cards (hand number ->
    card names), as the opening report shows them."""
    if players not in CLASSIC_PLAYERS and players not in PREMIUM_PLAYERS:
        raise ValueError(f"the site can replay games of 2 to 8 players, not {players}")
    face_up = face_up or {}
    if players == 2 and (
        sorted(face_up) != list(range(1, HANDS_PER_GAME + 1))
        or any(len(cards) != FACE_UP_WITH_TWO for cards in face_up.values())
    ):
        raise ValueError(
            f"a two-player game lays {FACE_UP_WITH_TWO} cards face up in each of the "
            f"{HANDS_PER_GAME} hands; the board needs them all"
        )
    if players != 2 and face_up:
        raise ValueError(f"only two-player games lay cards face up, not a game of {players}")
    hands = [HandBoard(h, players, face_up.get(h, ())) for h in range(1, HANDS_PER_GAME + 1)]
    tokens = [0] * players
    boards = [Board(0, [h.copy() for h in hands], tokens[:], (), (), False, (), {})]
    finished, winners = False, ()
    for number, events in enumerate(turns, 1):
        by_hand: dict[int, list] = {}
        won: tuple = ()
        by_cards: tuple = ()
        player_of: dict[int, int] = {}
        for event in events:
            check_public(event)
            hand_number = getattr(event, "hand", None)
            if hand_number is not None:
                by_hand.setdefault(hand_number, []).append(event)
                if event.kind == "played":
                    player_of[hand_number] = event.seat
                hands[hand_number - 1].apply(event)
            elif event.kind == "tokens":
                won = tuple(tuple(pair) for pair in event.won)
                for seat, _ in won:
                    tokens[seat] += 1
            elif event.kind == "card_tokens":  # the Jester, the Constable, the Bishop (RULES 10.4)
                by_cards = tuple((seat, hand, card.title) for seat, hand, card in event.gained)
                for seat, _, _ in by_cards:
                    tokens[seat] += 1
            elif event.kind == "game_over":
                finished, winners = True, tuple(event.winners)
        for hand_number, seat in player_of.items():
            hands[hand_number - 1].pass_turn(seat)
        boards.append(
            Board(number, [h.copy() for h in hands], tokens[:], won, by_cards, finished, winners, by_hand)
        )
    return boards
