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
import re
from pathlib import Path

import yaml
from builders import B, C, G, H, K, P, S, X, deck

from pbem.cards import Card

PLAYERS3 = [
    {"name": "Arthur", "email": "arthur@example.org"},
    {"name": "Bruno", "email": "bruno@example.org"},
    {"name": "Charles", "email": "charles@example.org"},
]
PLAYERS4 = PLAYERS3 + [{"name": "Diane", "email": "diane@example.org"}]

CARDS = ["Guard", "Spy", "Baron", "Handmaid", "Prince", "King", "Countess", "Princess"]
RANK = {name: i for i, name in enumerate(CARDS, 1)}
COUNTS = {
    "Guard": 5,
    "Spy": 2,
    "Baron": 2,
    "Handmaid": 2,
    "Prince": 2,
    "King": 1,
    "Countess": 1,
    "Princess": 1,
}
FULL_DECK = [c for c in CARDS for _ in range(COUNTS[c])]
SEED = 20261129


def deck_titles(players: int, number: int, held: dict[int, Card], draw: Card, **kw) -> list[str]:
    """:func:`builders.deck` (the one deck builder: who holds what, the first
    player's draw, then ``set_aside``, ``pile``, ``face_up``), as the card names
    campaign.yaml's ``decks:`` holds."""
    return [card.title for card in deck(players, number, held, draw, **kw)]


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


# -- the order campaign: three players, decks that deal what the order tests need ---------------

ORDER_SEATS = ["Arthur", "Charles", "Bruno"]


def order_decks() -> dict[int, list[str]]:
    return {
        1: deck_titles(3, 1, {0: G, 1: B, 2: H}, G, set_aside=G),
        3: deck_titles(3, 3, {0: B, 1: H, 2: G}, P, set_aside=G),
        5: deck_titles(3, 5, {0: G, 1: P, 2: G}, G, set_aside=G),
        6: deck_titles(3, 6, {0: G, 1: G, 2: S}, B, set_aside=G),
        7: deck_titles(3, 7, {0: C, 1: G, 2: G}, H, set_aside=G),
        9: deck_titles(3, 9, {0: G, 1: G, 2: K}, X, set_aside=G),
        12: deck_titles(3, 12, {0: G, 1: G, 2: C}, P, set_aside=G),
    }


def order_config() -> dict:
    """campaign.yaml of the order campaign (seats Arthur, Charles, Bruno)."""
    by_name = {p["name"]: p for p in PLAYERS3}
    return config([by_name[n] for n in ORDER_SEATS], decks=order_decks())


def exported_order(card, target=None, guess=None, status="accepted") -> dict:
    """An order as `pbem export` shows it."""
    return {"card": card, "target": target, "guess": guess, "status": status}


def ack_line(output: str, hand: int, status: str) -> str | None:
    """The line of an acknowledgement that gives ``status`` for ``hand``."""
    for line in output.splitlines():
        if re.search(rf"(?i)\bhand {hand}\b", line) and re.search(rf"(?i)\b{status}\b", line):
            return line
    return None
