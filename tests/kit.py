"""Plain data and helpers for the campaign, config and CLI tests: players,
decks, campaign.yaml writers, folder snapshots. A module the tests import
(``import kit``: tests/ is on pytest's ``pythonpath``); the fixtures that run
pbem are in conftest.py.

Exact decks for rule tests come from :mod:`builders` (one deck builder);
:func:`deck_titles` gives the same deck as campaign.yaml's card names.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import yaml

PLAYERS3 = [
    {"name": "Arthur", "email": "arthur@example.org"},
    {"name": "Bruno", "email": "bruno@example.org"},
    {"name": "Charles", "email": "charles@example.org"},
]
PLAYERS4 = PLAYERS3 + [{"name": "Diane", "email": "diane@example.org"}]

CARDS = ["Guard", "Spy", "Baron", "Handmaid", "Prince", "King", "Countess", "Princess"]
RANK = {name: i for i, name in enumerate(CARDS, 1)}
COUNTS = {"Guard": 5, "Spy": 2, "Baron": 2, "Handmaid": 2, "Prince": 2,
          "King": 1, "Countess": 1, "Princess": 1}
FULL_DECK = [c for c in CARDS for _ in range(COUNTS[c])]
SEED = 20261129


def make_deck(*top: str) -> list[str]:
    """A legal 16-card deck starting with ``top`` (top first); the rest of the
    full deck follows in rank order."""
    rest = list(FULL_DECK)
    for card in top:
        rest.remove(card)  # ValueError: the test asked for an impossible deck
    return list(top) + rest


def deck_for(hand: int, held: list[list[str]], set_aside: str = "Guard",
             pile: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The deck (top first) that deals ``held`` in ``hand`` (RULES 2).

    ``held[seat]`` is what the player at that seat (0-based) holds after the
    deal: two cards for the hand's first player (the dealt one, then the one
    drawn for turn 1), one for everybody else. ``pile`` is the top of the draw
    pile after the deal."""
    n = len(held)
    first = (hand - 1) % n
    for seat, cards in enumerate(held):
        assert len(cards) == (2 if seat == first else 1), (hand, seat, cards)
    order = [set_aside] + [held[(first + i) % n][0] for i in range(n)] + [held[first][1]] + list(pile)
    return make_deck(*order)


def dealt(deck: list[str], hand: int, names: list[str]) -> dict[str, list[str]]:
    """Who holds what right after the deal of ``hand`` from ``deck`` (RULES 2):
    the first card set aside, one card to each player from the hand's first
    player around the board, then the first player draws the next one."""
    n = len(names)
    first = (hand - 1) % n
    held = {name: [] for name in names}
    for i in range(n):
        held[names[(first + i) % n]].append(deck[1 + i])
    held[names[first]].append(deck[1 + n])
    return held


def config(players: int | list = 3, **extra) -> dict:
    """A valid campaign.yaml as data; ``extra`` keys are added or replaced."""
    if isinstance(players, int):
        players = PLAYERS3 if players == 3 else PLAYERS4
    data = {"title": "Test game", "players": [dict(p) for p in players], "seed": SEED}
    data.update(extra)
    return data


def write_config(folder: Path, data) -> Path:
    """Write ``folder/campaign.yaml``: ``data`` is YAML text or data to dump."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    path = folder / "campaign.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def snapshot(folder: Path) -> dict[str, str]:
    """Relative path -> sha256 of every file (hidden ones included), and
    ``<dir>`` for every folder: two snapshots are equal only when nothing at
    all was written, renamed, created or left behind."""
    folder = Path(folder)
    out: dict[str, str] = {}
    if not folder.exists():
        return out
    for root, dirs, files in os.walk(folder):
        for d in dirs:
            out[os.path.relpath(os.path.join(root, d), folder) + "/"] = "<dir>"
        for f in files:
            path = os.path.join(root, f)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, folder)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def diff(before: dict, after: dict) -> str:
    """What changed between two snapshots, for assertion messages."""
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(k for k in set(before) & set(after) if before[k] != after[k])
    return f"added={added} removed={removed} changed={changed}"
