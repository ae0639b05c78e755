"""The 16-card classic deck: ranks, canonical names, aliases (RULES.md section 1).

A card is a :class:`Card`, an ``IntEnum`` whose value is the rank, so cards compare
by rank and cost no more than small ints in the engine's hot loops.
"""

from __future__ import annotations

from enum import IntEnum


class Card(IntEnum):
    GUARD = 1
    SPY = 2
    BARON = 3
    HANDMAID = 4
    PRINCE = 5
    KING = 6
    COUNTESS = 7
    PRINCESS = 8

    @property
    def title(self) -> str:
        """The canonical name used in every export and report ("Guard")."""
        return _TITLES[self]

    def __str__(self) -> str:
        return _TITLES[self]


_TITLES = {card: card.name.capitalize() for card in Card}

#: How many copies of each card the deck holds.
COUNTS: dict[Card, int] = {
    Card.GUARD: 5,
    Card.SPY: 2,
    Card.BARON: 2,
    Card.HANDMAID: 2,
    Card.PRINCE: 2,
    Card.KING: 1,
    Card.COUNTESS: 1,
    Card.PRINCESS: 1,
}

#: The full deck in rank order (not shuffled).
FULL_DECK: tuple[Card, ...] = tuple(card for card, n in COUNTS.items() for _ in range(n))
DECK_SIZE = len(FULL_DECK)

#: Names from other editions, accepted in orders and campaign files.
ALIASES: dict[str, Card] = {
    "priest": Card.SPY,
    "courtier": Card.SPY,
    "diplomat": Card.BARON,
    "shugenja": Card.HANDMAID,
    "hatamoto": Card.PRINCE,
    "manipulator": Card.KING,
    "sensei": Card.COUNTESS,
}

#: Every accepted name (lower case) to its card: canonical names, then aliases.
NAMES: dict[str, Card] = {**{c.title.lower(): c for c in Card}, **ALIASES}

def card_named(name: str) -> Card | None:
    """The card a name or alias stands for (any case), or None."""
    return NAMES.get(name.strip().lower())


def card_of_rank(rank: int) -> Card | None:
    """The card of rank 1 to 8, or None."""
    try:
        return Card(rank)
    except ValueError:
        return None
