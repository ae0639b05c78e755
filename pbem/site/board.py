"""The board as every player may know it, rebuilt from the public events alone.

The site never reads ``state.json``: what is public about a hand follows from
the deal rules (RULES 2: who plays first, how many cards are left) and from
the public events of each turn, replayed here the way the engine produced them:
a played card goes on its player's discard pile, a Prince's victim discards
and draws, an eliminated player's card goes face up, a Handmaid protects until
its player is active again, and after each play the next player still in
draws and becomes active. The tests check this replay against the GM's state
after every turn of many games.

Pure: no files, no clock. A private event given to :func:`replay` is a bug in
the caller and raises :class:`LeakError` rather than being skipped quietly.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..cards import DECK_SIZE
from ..engine import HANDS_PER_GAME, first_player


class LeakError(ValueError):
    """A private event reached the public site builder."""


class HandBoard:
    """What everybody knows of one hand at the end of a turn."""

    __slots__ = ("number", "first", "alive", "protected", "discards", "pile", "active",
                 "ended", "winners", "result")

    def __init__(self, number: int, players: int):
        self.number = number
        self.first = first_player(number, players)
        self.alive = [True] * players
        self.protected = [False] * players
        self.discards: list[list[str]] = [[] for _ in range(players)]
        # Set aside one card, deal one to each player, the first player draws one.
        self.pile = DECK_SIZE - 2 - players
        self.active: int | None = self.first
        self.ended = False
        self.winners: tuple[int, ...] = ()
        self.result: Any = None  # the HandEnded event

    def copy(self) -> "HandBoard":
        new = HandBoard.__new__(HandBoard)
        new.number, new.first, new.pile = self.number, self.first, self.pile
        new.alive, new.protected = self.alive[:], self.protected[:]
        new.discards = [d[:] for d in self.discards]
        new.active, new.ended, new.winners, new.result = self.active, self.ended, self.winners, self.result
        return new

    def apply(self, event: Any) -> None:
        """One public event of this hand, as the engine applied it."""
        kind = event.kind
        if kind == "played":
            self.discards[event.seat].append(event.card.title)
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
            self.winners = tuple(event.winners)
            self.result = event
        # guard, baron, king: their consequences come as the events above.

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
    won: tuple[tuple[int, int], ...]      # (seat, hand) tokens won this turn
    finished: bool
    winners: tuple[int, ...]
    events: dict[int, list]               # hand number -> its public events this turn

    def awaited(self) -> dict[int, list[int]]:
        """Seat -> hands in which that player must send orders next."""
        out: dict[int, list[int]] = {seat: [] for seat in range(len(self.tokens))}
        if not self.finished:
            for hand in self.hands:
                if not hand.ended:
                    out[hand.active].append(hand.number)
        return out


def check_public(event: Any) -> None:
    if event.audience is not None:
        raise LeakError(f"a private event ({event.kind}, hand {getattr(event, 'hand', '?')}) reached "
                        f"the public site: only public events may be used")


def replay(players: int, turns: list[list]) -> list[Board]:
    """The board after the deal and after each turn. ``turns[t - 1]`` holds the
    public events of turn ``t``, in the order the engine returned them."""
    if players not in (3, 4):  # the deal rules above are the classic game's (RULES 2)
        raise ValueError(f"the site can replay games of 3 or 4 players, not {players}")
    hands = [HandBoard(h, players) for h in range(1, HANDS_PER_GAME + 1)]
    tokens = [0] * players
    boards = [Board(0, [h.copy() for h in hands], tokens[:], (), False, (), {})]
    finished, winners = False, ()
    for number, events in enumerate(turns, 1):
        by_hand: dict[int, list] = {}
        won: tuple = ()
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
            elif event.kind == "game_over":
                finished, winners = True, tuple(event.winners)
        for hand_number, seat in player_of.items():
            hands[hand_number - 1].pass_turn(seat)
        boards.append(Board(number, [h.copy() for h in hands], tokens[:], won, finished, winners, by_hand))
    return boards
