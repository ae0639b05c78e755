"""The cards: the 16-card classic deck (RULES.md section 1) and the 32-card
Premium deck (RULES.md 10.1): ranks, canonical names, aliases.

A card is a :class:`Card`, an ``IntEnum``: cards cost no more than small ints in
the engine's hot loops. The classic cards' values are their ranks (1 to 8), so
a classic game compares cards directly; the Premium deck has two cards of some
ranks (the Assassin and the Jester are both 0), so its new cards have values of
their own (9 up) and :data:`RANK` gives every card's rank.
"""

from __future__ import annotations

import unicodedata
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
    # The Premium deck's new cards (RULES 10.1); their ranks are in RANK.
    BISHOP = 9
    ASSASSIN = 10
    JESTER = 11
    CARDINAL = 12
    BARONESS = 13
    SYCOPHANT = 14
    COUNT = 15
    CONSTABLE = 16
    DOWAGER_QUEEN = 17

    @property
    def title(self) -> str:
        """The canonical name used in every export and report ("Guard", "Dowager Queen")."""
        return _TITLES[self]

    @property
    def rank(self) -> int:
        return RANK[self]

    def __str__(self) -> str:
        return _TITLES[self]


_TITLES = {card: card.name.replace("_", " ").title() for card in Card}

_PREMIUM_RANKS = {
    Card.BISHOP: 9,
    Card.ASSASSIN: 0,
    Card.JESTER: 0,
    Card.CARDINAL: 2,
    Card.BARONESS: 3,
    Card.SYCOPHANT: 4,
    Card.COUNT: 5,
    Card.CONSTABLE: 6,
    Card.DOWAGER_QUEEN: 7,
}

#: Every card's rank, indexed by the card (a tuple: the engine reads it in hot loops).
RANK: tuple[int, ...] = tuple(_PREMIUM_RANKS.get(Card(v), v) if v else -1 for v in range(max(Card) + 1))

#: The cards of the classic deck, in rank order.
CLASSIC_CARDS: tuple[Card, ...] = tuple(Card(rank) for rank in range(1, 9))

#: How many copies of each card the classic deck holds.
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

#: The full classic deck in rank order (not shuffled).
FULL_DECK: tuple[Card, ...] = tuple(card for card, n in COUNTS.items() for _ in range(n))
DECK_SIZE = len(FULL_DECK)

#: How many copies of each card the Premium deck holds (RULES 10.1), in rank order.
PREMIUM_COUNTS: dict[Card, int] = {
    Card.ASSASSIN: 1,
    Card.JESTER: 1,
    Card.GUARD: 8,
    Card.SPY: 2,
    Card.CARDINAL: 2,
    Card.BARON: 2,
    Card.BARONESS: 2,
    Card.HANDMAID: 2,
    Card.SYCOPHANT: 2,
    Card.PRINCE: 2,
    Card.COUNT: 2,
    Card.KING: 1,
    Card.CONSTABLE: 1,
    Card.COUNTESS: 1,
    Card.DOWAGER_QUEEN: 1,
    Card.PRINCESS: 1,
    Card.BISHOP: 1,
}

#: The full Premium deck in rank order (not shuffled).
PREMIUM_DECK: tuple[Card, ...] = tuple(card for card, n in PREMIUM_COUNTS.items() for _ in range(n))
PREMIUM_DECK_SIZE = len(PREMIUM_DECK)

#: Names from other editions, accepted in orders and campaign files.
ALIASES: dict[str, Card] = {
    "priest": Card.SPY,
    "courtier": Card.SPY,
    "diplomat": Card.BARON,
    "shugenja": Card.HANDMAID,
    "handmaiden": Card.HANDMAID,  # the English word players write for her ("Hand 7: Handmaiden")
    "maid": Card.HANDMAID,  # "the maid", "Hand maid"
    "hatamoto": Card.PRINCE,
    "manipulator": Card.KING,
    "sensei": Card.COUNTESS,
    "dowager": Card.DOWAGER_QUEEN,
    "queen": Card.DOWAGER_QUEEN,
}

#: The classic cards' names in the editions of other languages, as the players of
#: those editions know them (German: Pegasus Spiele; French: Filosofia; Italian and
#: Portuguese: the local editions), and the plain words where no edition's name could
#: be established (Spanish, Dutch; "Spy", the name of this tool's rank 2, translated).
#: Read in orders beside the English names; accents are optional ("Konig" is "König").
EDITION_NAMES: dict[str, dict[str, Card]] = {
    "de": {
        "wächterin": Card.GUARD,
        "wächter": Card.GUARD,
        "priester": Card.SPY,
        "spion": Card.SPY,
        "spionin": Card.SPY,
        "zofe": Card.HANDMAID,
        "kammerzofe": Card.HANDMAID,
        "prinz": Card.PRINCE,
        "könig": Card.KING,
        "gräfin": Card.COUNTESS,
        "prinzessin": Card.PRINCESS,
    },
    "fr": {
        "garde": Card.GUARD,
        "prêtre": Card.SPY,
        "espion": Card.SPY,
        "espionne": Card.SPY,
        "servante": Card.HANDMAID,
        "roi": Card.KING,
        "comtesse": Card.COUNTESS,
        "princesse": Card.PRINCESS,
    },
    "es": {
        "guardia": Card.GUARD,
        "sacerdote": Card.SPY,
        "espía": Card.SPY,
        "barón": Card.BARON,
        "doncella": Card.HANDMAID,
        "príncipe": Card.PRINCE,
        "rey": Card.KING,
        "condesa": Card.COUNTESS,
        "princesa": Card.PRINCESS,
    },
    "it": {
        "guardia": Card.GUARD,
        "prete": Card.SPY,
        "spia": Card.SPY,
        "barone": Card.BARON,
        "ancella": Card.HANDMAID,
        "principe": Card.PRINCE,
        "re": Card.KING,
        "contessa": Card.COUNTESS,
        "principessa": Card.PRINCESS,
    },
    "nl": {
        "wachter": Card.GUARD,
        "priester": Card.SPY,
        "spion": Card.SPY,
        "kamermeisje": Card.HANDMAID,
        "dienstmeid": Card.HANDMAID,
        "prins": Card.PRINCE,
        "koning": Card.KING,
        "gravin": Card.COUNTESS,
        "prinses": Card.PRINCESS,
    },
    "pt": {
        "guarda": Card.GUARD,
        "padre": Card.SPY,
        "espião": Card.SPY,
        "barão": Card.BARON,
        "aia": Card.HANDMAID,
        "criada": Card.HANDMAID,
        "príncipe": Card.PRINCE,
        "rei": Card.KING,
        "condessa": Card.COUNTESS,
        "princesa": Card.PRINCESS,
    },
}


def fold(word: str) -> str:
    """A word without its accents, in lower case ("König" -> "konig"): how order words
    are compared (:func:`pbem.orders.name_key` does the same to a whole line)."""
    if word.isascii():
        return word.casefold()
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


_EDITIONS: dict[str, Card] = {
    key: card
    for names in EDITION_NAMES.values()
    for name, card in names.items()
    for key in (name, fold(name))
}

#: Every accepted name (lower case) to its card: canonical names, then aliases, then
#: the names of other languages' editions (as written and without accents).
#: Names are whole words or phrases: "count" is not "countess".
NAMES: dict[str, Card] = {**_EDITIONS, **{c.title.lower(): c for c in Card}, **ALIASES}

#: The names of the classic deck's cards: the only card names of a 2-4 player game
#: (there, "Count" or "Bishop" may be a player's name).
CLASSIC_NAMES: dict[str, Card] = {name: card for name, card in NAMES.items() if card in CLASSIC_CARDS}


def card_named(name: str) -> Card | None:
    """The card a name or alias stands for (any case), or None."""
    return NAMES.get(" ".join(name.split()).lower())


def card_of_rank(rank: int) -> Card | None:
    """The classic card of rank 1 to 8, or None."""
    if 1 <= rank <= 8:
        return Card(rank)
    return None
