"""The rule tests' one set of helpers (test_engine_rules, test_premium_rules):
the cards by name, exact hands, one play, the events it made,
and the card entries each rule test relies on.

Exact decks come from :mod:`builders` (seat s is dealt held[s]; seat 0 is first
in hand 1 and holds held[0] and ``draw``).
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
from builders import deck, hand, only, play, rng

from pbem import events as ev
from pbem.cards import PREMIUM_DECK, Card
from pbem.engine import Game, Hand, shuffled_deck

__all__ = ["deck", "hand", "only", "play", "rng"]

GUARD, SPY, BARON, HANDMAID = Card.GUARD, Card.SPY, Card.BARON, Card.HANDMAID
PRINCE, KING, COUNTESS, PRINCESS = Card.PRINCE, Card.KING, Card.COUNTESS, Card.PRINCESS
# The Premium deck's new cards (RULES 10.1).
ASSASSIN, JESTER, CARDINAL, BARONESS = Card.ASSASSIN, Card.JESTER, Card.CARDINAL, Card.BARONESS
SYCOPHANT, COUNT, CONSTABLE = Card.SYCOPHANT, Card.COUNT, Card.CONSTABLE
DOWAGER_QUEEN, BISHOP = Card.DOWAGER_QUEEN, Card.BISHOP


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def of(events: list, kind: str) -> list:
    """The events of ``kind``, in order."""
    return [e for e in events if e.kind == kind]


def public_cards(events: list, skip_played: bool = False) -> list[Card]:
    """Every card named in a public event (hand numbers and seats are ints that
    compare equal to ranks, so look at Card values only)."""
    return [
        v
        for e in ev.public(events)
        if not (skip_played and e.kind == "played")
        for v in e
        if isinstance(v, Card)
    ]


def knock_out(h: Hand, *seats: int) -> None:
    """Knock ``seats`` out before the test's play (their card face up, as rule 6 says)."""
    for seat in seats:
        h.alive[seat] = False
        h.discards[seat].extend(h.cards[seat])
        h.cards[seat] = []


def six(held: dict[int, Card], draw: Card, **kw: Any) -> Hand:
    """Hand 1 of a six-player Premium game: seat 0 is first and holds held[0]
    and ``draw``; seats not named hold a Guard."""
    full = {seat: GUARD for seat in range(6)}
    full.update(held)
    return hand(6, 1, full, draw=draw, **kw)


def premium_titles(*top: str) -> list[str]:
    """A 32-card Premium deck as card names (for a campaign.yaml's ``decks:``) whose
    first cards are ``top`` (set aside, then the deal, then the draws), in order."""
    rest = [c.title for c in PREMIUM_DECK]
    for name in top:
        rest.remove(name)
    return [*top, *rest]


def premium_game(hand1: list[Card], tokens: list[int] | None = None) -> Game:
    """A six-player game whose hand 1 is dealt from ``hand1``."""
    decks = {n: shuffled_deck("audit", n, 6) for n in range(1, 14)}
    decks[1] = tuple(hand1)
    game = Game.new(6, decks)
    if tokens is not None:
        game.tokens = tokens
    return game


# -- which card entries a rule test relies on ---------------------------------
# A rule test is about the cards its name names ("test_assassin_...": the
# Assassin); @uses names the cards it also relies on to get there (a Baron to
# knock a player out before the Jester's token is counted). test_card_entries
# checks that with one card's entry made neutral, the tests that fail are
# that card's.


def uses(*cards: Card) -> Callable[[Callable], Callable]:
    """Mark a rule test as relying on ``cards``' rules besides those it names."""

    def mark(test: Callable) -> Callable:
        test.uses = frozenset(cards)  # type: ignore[attr-defined]
        return test

    return mark


def _words(card: Card) -> set[tuple[str, ...]]:
    words = tuple(card.title.lower().split())
    plural = (*words[:-1], words[-1] + "s")
    found = {words, plural}
    if card is DOWAGER_QUEEN:
        found |= {("queen",), ("queens",)}
    return found


_WORDS = {card: _words(card) for card in Card}


def cards_named(test_name: str) -> frozenset[Card]:
    """The cards a test's name names, word by word ("count" is not "countess")."""
    words = test_name.split("_")
    found = set()
    for card, forms in _WORDS.items():
        for form in forms:
            n = len(form)
            if any(tuple(words[i : i + n]) == form for i in range(len(words) - n + 1)):
                found.add(card)
    return frozenset(found)


def cards_of(test: Callable) -> frozenset[Card]:
    """The cards whose rules a rule test relies on: named, then marked @uses."""
    return cards_named(test.__name__) | getattr(test, "uses", frozenset())


class RuleCase:
    """One rule test with one set of its parameters, to be called directly."""

    def __init__(self, module: ModuleType, test: Callable, kwargs: dict[str, Any]):
        self.id = f"{module.__name__}::{test.__name__}" + (f"[{kwargs}]" if kwargs else "")
        self.test = test
        self.kwargs = kwargs
        self.cards = cards_of(test)

    def fails(self) -> bool:
        try:
            self.test(**self.kwargs)
        except (Exception, pytest.fail.Exception):
            return True
        return False


def rule_cases(*modules: ModuleType) -> Iterator[RuleCase]:
    """The rule tests of ``modules`` that need no fixture, one per parameter set
    (``pytest.mark.parametrize``, stacked ones crossed)."""
    for module in modules:
        for name, test in vars(module).items():
            if not name.startswith("test_") or not inspect.isfunction(test):
                continue
            grids = []
            covered: set[str] = set()
            for mark in getattr(test, "pytestmark", []):
                if mark.name != "parametrize":
                    continue
                names = [n.strip() for n in mark.args[0].split(",")]
                covered |= set(names)
                grids.append([dict(zip(names, v if len(names) > 1 else (v,))) for v in mark.args[1]])
            if set(inspect.signature(test).parameters) - covered:
                continue  # a fixture (a campaign folder, the CLI): not a rule test of the engine alone
            for combo in itertools.product(*grids):
                yield RuleCase(module, test, {k: v for part in combo for k, v in part.items()})
