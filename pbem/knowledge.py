"""What each player knows of the other players' cards, turn after turn.

A player learns a card by a look (Priest, Baron, and in the Premium deck the
Baroness, Dowager Queen and Cardinal) or by giving it away in a trade (King,
Cardinal). The private mail reminds them of it, with the cards the other player
has played since and whether the card may have changed hands (RULES 10.3's
looks and trades; RULES 8 on who may know what).

The record is carried from turn to turn (:func:`update` folds one turn's events
into the previous turn's record), so resolving a turn reads one record, not every
earlier turn's events. It holds secrets: it is kept with the GM's state, never
put in a public file.

A record maps the reader's seat to entries, oldest first; an entry is a JSON-ready
dict ``{"hand", "other", "card", "how", "turn", "played_since", "may_have_changed"}``
(``other`` a seat, ``card`` a canonical name, ``how`` the kind of event it came
from, or ``king_gave`` / ``cardinal_gave`` for the giving side of a trade).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import Card

#: Private events in which the reader saw another player's card (its ``seat`` saw ``other``'s ``card``).
LOOKS = frozenset({"spy_saw", "baron_saw", "baroness_saw", "queen_saw", "cardinal_saw"})
#: Private events of the receiving side of a trade: the giver (``other``) knows the card it gave.
GIVEN = {"king_received": "king_gave", "cardinal_received": "cardinal_gave"}

Knowledge = dict[int, list[dict[str, Any]]]


def update(known: Knowledge, turn: int, events: Iterable[Any]) -> Knowledge:
    """The record after ``turn``'s events, in the order they happened: what was
    learned in it is added, and what was learned before is marked by the public
    events since (a card the other player played, a Prince's discard, a trade,
    a Bishop's or Assassin's discard). ``known`` is not changed."""
    out: Knowledge = {
        seat: [dict(entry, played_since=list(entry["played_since"])) for entry in entries]
        for seat, entries in known.items()
    }
    for e in events:
        if e.audience is None:
            _mark(out, e)
        elif e.kind in LOOKS:
            _add(out, e.seat, turn, e.hand, e.other, e.card, e.kind)
        elif e.kind in GIVEN:
            # The other side of a trade received the reader's own card: the reader
            # knew it (it was in their hand), so telling it leaks nothing.
            _add(out, e.other, turn, e.hand, e.seat, e.card, GIVEN[e.kind])
    return out


def still_open(known: Knowledge, game: Any) -> Knowledge:
    """Only the entries of hands still in play where both players are in (an
    ended hand or a player out never comes back, so the rest is dropped)."""
    out: Knowledge = {}
    for seat, entries in known.items():
        kept = []
        for entry in entries:
            hand = game.hand(entry["hand"])
            if not hand.ended and hand.alive[entry["other"]] and hand.alive[seat]:
                kept.append(entry)
        if kept:
            out[seat] = kept
    return out


def to_json(known: Knowledge) -> dict[str, list[dict[str, Any]]]:
    return {str(seat): entries for seat, entries in sorted(known.items())}


def from_json(data: dict[str, list[dict[str, Any]]]) -> Knowledge:
    return {int(seat): list(entries) for seat, entries in data.items()}


def _add(out: Knowledge, reader: int, turn: int, hand: int, other: int, card: Card, how: str) -> None:
    out.setdefault(reader, []).append(
        {
            "hand": hand,
            "other": other,
            "card": card.title,
            "how": how,
            "turn": turn,
            "played_since": [],
            "may_have_changed": False,
        }
    )


def _mark(out: Knowledge, later: Any) -> None:
    """What a public event tells of the cards known in its hand."""
    hand = getattr(later, "hand", None)
    if hand is None:
        return
    for entries in out.values():
        for entry in entries:
            if entry["hand"] != hand:
                continue
            other = entry["other"]
            if later.kind == "played" and later.seat == other:
                entry["played_since"].append(later.card.title)
                if later.card.title == entry["card"]:
                    entry["may_have_changed"] = True
            elif (
                (later.kind == "prince" and later.recipient == other)
                or (later.kind == "king" and other in (later.seat, later.recipient))
                or (later.kind == "chose" and later.card == Card.CARDINAL and other in later.chosen)
                or (
                    later.kind in ("bishop", "assassin")
                    and later.recipient == other
                    and (later.kind == "assassin" or later.discarded)
                )
            ):
                entry["may_have_changed"] = True  # discarded, or traded, and holds another card now
