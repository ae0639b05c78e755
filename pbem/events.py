"""What happened in a turn, and who may know it.

The engine returns a list of these events; reports are rendered from them. Every
event carries its audience, so the visibility rule of RULES.md section 8 lives
here and only here: a *public* event (``audience is None``) holds nothing secret;
a *private* event holds a secret and is seen by its ``seat`` alone.

Events are named tuples: cheap to make in the engine's hot loop, readable by
attribute in templates, and easy to turn into JSON (:func:`to_dict`). Each one
is a tuple of its fields (``_PlayedFields``) with a subclass that adds the
class attributes ``kind`` and ``audience``: a NamedTuple body may hold fields
only (for mypy), so they go in the subclass (``__slots__ = ()`` keeps it a
plain tuple). :mod:`pbem.tuples` builds them (typing.NamedTuple for mypy).
Seats are 0-based indexes into the campaign's player list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .cards import Card
from .tuples import NamedTuple


class _PlayedFields(NamedTuple):
    hand: int
    seat: int
    card: Card
    target: int | None
    recipient: int | None
    guess: Card | None
    nmr: bool
    random_target: bool
    random_guess: bool
    redirected: bool


class Played(_PlayedFields):
    """``seat`` played ``card``. ``target`` is the player named in the order (or
    None), ``recipient`` the one the card acted on (None: no effect, nobody valid).
    ``nmr``: no order was received and the card was chosen by the default rules;
    ``random_target`` / ``random_guess``: the order was completed (RULES 5.4, 5.5);
    ``redirected``: the named target was protected by a Handmaid (RULES 4)."""

    __slots__ = ()
    audience = None
    kind = "played"


class _GuardResultFields(NamedTuple):
    hand: int
    seat: int
    recipient: int
    guess: Card
    hit: bool


class GuardResult(_GuardResultFields):
    __slots__ = ()
    audience = None
    kind = "guard"


class _BaronResultFields(NamedTuple):
    hand: int
    seat: int
    recipient: int
    loser: int | None


class BaronResult(_BaronResultFields):
    """The public outcome of a Baron: the loser (None on a tie)."""

    __slots__ = ()
    audience = None
    kind = "baron"


class _PrinceDiscardFields(NamedTuple):
    hand: int
    recipient: int
    card: Card
    from_set_aside: bool  # the recipient's new card is the set-aside card (pile empty)


class PrinceDiscard(_PrinceDiscardFields):
    __slots__ = ()
    audience = None
    kind = "prince"


class _KingTradeFields(NamedTuple):
    hand: int
    seat: int
    recipient: int


class KingTrade(_KingTradeFields):
    __slots__ = ()
    audience = None
    kind = "king"


class _ProtectedFields(NamedTuple):
    hand: int
    seat: int


class Protected(_ProtectedFields):
    __slots__ = ()
    audience = None
    kind = "protected"


class _EliminatedFields(NamedTuple):
    hand: int
    seat: int
    card: Card | None


class Eliminated(_EliminatedFields):
    """``seat`` is out of the hand; ``card`` is the card they held, now face up
    (None when they held none, e.g. a Prince made them discard the Princess)."""

    __slots__ = ()
    audience = None
    kind = "eliminated"


class _HandEndedFields(NamedTuple):
    hand: int
    winners: tuple[int, ...]
    reveals: tuple[tuple[int, Card], ...]
    totals: tuple[tuple[int, int], ...]


class HandEnded(_HandEndedFields):
    """``reveals``: (seat, card) of every player still in. ``totals``: (seat,
    discard total) of the players tied on rank, when such a tie had to be broken."""

    __slots__ = ()
    audience = None
    kind = "ended"


class _TokensWonFields(NamedTuple):
    won: tuple[tuple[int, int], ...]


class TokensWon(_TokensWonFields):
    """Tokens handed out at the end of the turn: (seat, hand) pairs."""

    __slots__ = ()
    audience = None
    kind = "tokens"


class _GameOverFields(NamedTuple):
    winners: tuple[int, ...]


class GameOver(_GameOverFields):
    __slots__ = ()
    audience = None
    kind = "game_over"


class _FaceUpFields(NamedTuple):
    hand: int
    cards: tuple[Card, ...]


class FaceUp(_FaceUpFields):
    """Two players (RULES 9): the three cards laid face up at the deal of
    ``hand``, in deck order; out of the hand for good, and public from the start.
    Turn 0 (the deal) holds one per hand; no other turn has any."""

    __slots__ = ()
    audience = None
    kind = "face_up"


# Public events of the Premium cards (RULES 10.3).


class _MarkedFields(NamedTuple):
    hand: int
    seat: int
    marked: int


class Marked(_MarkedFields):
    """The Sycophant marked ``marked``: the next card played in the hand must choose them."""

    __slots__ = ()
    audience = None
    kind = "marked"


class _MarkFollowedFields(NamedTuple):
    hand: int
    seat: int
    marked: int
    named: tuple[int | None, ...]
    effect: bool


class MarkFollowed(_MarkFollowedFields):
    """A card that chooses players was bound by the Sycophant's mark on
    ``marked``; ``named``: the players its order named (None: none or a
    default); ``effect`` False: it could not choose the marked player."""

    __slots__ = ()
    audience = None
    kind = "mark_followed"


class _ChoseFields(NamedTuple):
    hand: int
    seat: int
    card: Card
    named: tuple[int | None, ...]
    chosen: tuple[int | None, ...]


class Chose(_ChoseFields):
    """The players a Cardinal or a Baroness named (``named``, None where none)
    and the ones it acted on (``chosen``), after redirection and completion."""

    __slots__ = ()
    audience = None
    kind = "chose"


class _AssassinStruckFields(NamedTuple):
    hand: int
    seat: int
    recipient: int
    guess: Any


class AssassinStruck(_AssassinStruckFields):
    """``seat``'s Guard reached ``recipient``, who held the Assassin: ``seat``
    is out; ``recipient`` discards the Assassin and draws."""

    __slots__ = ()
    audience = None
    kind = "assassin"


class _QueenResultFields(NamedTuple):
    hand: int
    seat: int
    recipient: int
    loser: int | None


class QueenResult(_QueenResultFields):
    """The public outcome of a Dowager Queen: the loser, who held the higher card (None on a tie)."""

    __slots__ = ()
    audience = None
    kind = "queen"


class _BishopResultFields(NamedTuple):
    hand: int
    seat: int
    recipient: int
    guess: Any
    hit: bool
    discarded: bool
    card: Card | None


class BishopResult(_BishopResultFields):
    """``guess``: the number named; ``hit``: ``seat`` gains a token;
    ``discarded``: the target's standing order made them discard ``card``."""

    __slots__ = ()
    audience = None
    kind = "bishop"


class _HandValuesFields(NamedTuple):
    hand: int
    values: tuple[tuple[int, float], ...]


class HandValues(_HandValuesFields):
    """The value of every player still in at the end of a Premium hand (RULES 10.4)."""

    __slots__ = ()
    audience = None
    kind = "values"


class _CardTokensFields(NamedTuple):
    gained: tuple[tuple[int, int, Card], ...]


class CardTokens(_CardTokensFields):
    """Tokens earned by cards this turn (Jester, Constable, Bishop): (seat, hand, card)."""

    __slots__ = ()
    audience = None
    kind = "card_tokens"


# Private events: ``seat`` is the only reader.


class _SpySawFields(NamedTuple):
    hand: int
    seat: int
    other: int
    card: Card


class SpySaw(_SpySawFields):
    __slots__ = ()
    kind = "spy_saw"

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


class _BaronSawFields(NamedTuple):
    hand: int
    seat: int
    other: int
    card: Card


class BaronSaw(_BaronSawFields):
    __slots__ = ()
    kind = "baron_saw"

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


class _KingReceivedFields(NamedTuple):
    hand: int
    seat: int
    other: int
    card: Card


class KingReceived(_KingReceivedFields):
    __slots__ = ()
    kind = "king_received"

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


class _PrinceDrewFields(NamedTuple):
    hand: int
    seat: int
    card: Card


class PrinceDrew(_PrinceDrewFields):
    """After a Prince, ``seat`` drew ``card`` (perhaps the set-aside card).
    The ordinary draw of the next active player is no event: the private report
    reads it from the new state."""

    __slots__ = ()
    kind = "prince_drew"

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


class _CardDrewFields(NamedTuple):
    hand: int
    seat: int
    card: Card
    cause: Card


class CardDrew(_CardDrewFields):
    """``seat`` drew ``card`` after ``cause`` (the Assassin's reveal, the Bishop's discard)."""

    __slots__ = ()
    kind = "card_drew"

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


class _QueenSawFields(NamedTuple):
    hand: int
    seat: int
    other: int
    card: Card


class QueenSaw(_QueenSawFields):
    __slots__ = ()
    kind = "queen_saw"

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


class _CardinalReceivedFields(NamedTuple):
    hand: int
    seat: int
    other: int
    card: Card


class CardinalReceived(_CardinalReceivedFields):
    """One of the Cardinal's two players received ``card`` from ``other``."""

    __slots__ = ()
    kind = "cardinal_received"

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


class _CardinalSawFields(NamedTuple):
    hand: int
    seat: int
    other: int
    card: Card


class CardinalSaw(_CardinalSawFields):
    """The Cardinal's player looked at ``other``'s new card."""

    __slots__ = ()
    kind = "cardinal_saw"

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


class _BaronessSawFields(NamedTuple):
    hand: int
    seat: int
    other: int
    card: Card


class BaronessSaw(_BaronessSawFields):
    __slots__ = ()
    kind = "baroness_saw"

    @property
    def audience(self) -> tuple[int, ...]:
        return (self.seat,)


Event = (
    Played
    | GuardResult
    | BaronResult
    | PrinceDiscard
    | KingTrade
    | Protected
    | Eliminated
    | HandEnded
    | TokensWon
    | GameOver
    | FaceUp
    | SpySaw
    | BaronSaw
    | KingReceived
    | PrinceDrew
    | Marked
    | MarkFollowed
    | Chose
    | AssassinStruck
    | QueenResult
    | BishopResult
    | HandValues
    | CardTokens
    | CardDrew
    | QueenSaw
    | CardinalReceived
    | CardinalSaw
    | BaronessSaw
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        Played,
        GuardResult,
        BaronResult,
        PrinceDiscard,
        KingTrade,
        Protected,
        Eliminated,
        HandEnded,
        TokensWon,
        GameOver,
        FaceUp,
        SpySaw,
        BaronSaw,
        KingReceived,
        PrinceDrew,
        Marked,
        MarkFollowed,
        Chose,
        AssassinStruck,
        QueenResult,
        BishopResult,
        HandValues,
        CardTokens,
        CardDrew,
        QueenSaw,
        CardinalReceived,
        CardinalSaw,
        BaronessSaw,
    )
}


def public(events: Iterable[Event]) -> list[Event]:
    """The events every player may see."""
    return [e for e in events if e.audience is None]


def private_to(events: Iterable[Event], seat: int) -> list[Event]:
    """The secret events only ``seat`` may see (the public ones excluded)."""
    return [e for e in events if e.audience is not None and seat in e.audience]


def to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict: cards by canonical name, tuples as lists."""
    out: dict[str, Any] = {"kind": event.kind}
    for name, value in zip(event._fields, event, strict=True):
        out[name] = _jsonable(value)
    return out


def from_dict(data: Mapping[str, Any]) -> Event:
    cls = EVENT_TYPES[data["kind"]]
    values = []
    for name in cls._fields:
        values.append(_restore(name, data[name]))
    return cls(*values)


_CARD_FIELDS = {"card", "guess", "cause"}


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return value.title
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _restore(name: str, value: Any) -> Any:
    from .cards import card_named

    if name in _CARD_FIELDS and isinstance(value, str):
        return card_named(value)
    if name == "reveals":
        return tuple((seat, card_named(card)) for seat, card in value)
    if name == "cards":  # FaceUp: a list of card names, each one a card of the game
        cards = tuple(card_named(card) if isinstance(card, str) else None for card in value)
        if not isinstance(value, list) or None in cards:
            raise ValueError(f"cards: {value!r} is not a list of card names")
        return cards
    if name == "gained":
        return tuple((seat, hand, card_named(card)) for seat, hand, card in value)
    if isinstance(value, list):
        return tuple(tuple(v) if isinstance(v, list) else v for v in value)
    return value
