"""Shared fixtures for the campaign, config and CLI tests.

Helpers are handed out as fixtures (never imported from this module: the mail
tests have a conftest.py of their own, and both are imported as ``conftest``).

* ``kit``        -- players, decks and campaign.yaml writers (plain data helpers).
* ``cli``        -- runs ``pbem`` in-process through click's CliRunner.
* ``pbem_exe``   -- runs the installed ``pbem`` executable in a subprocess.
* ``snap``       -- a hash of every file and folder of a campaign, hidden ones too.
* ``campaign3`` / ``campaign4`` -- a folder holding a valid, not yet started
  campaign.yaml for 3 / 4 players (fixed seed, no fixed decks).
* ``started3`` / ``started4``   -- the same, started through the CLI.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli import main as pbem_main

# -- plain data -----------------------------------------------------------------

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


# -- running pbem -------------------------------------------------------------------


class Cli:
    """``pbem`` run in-process. Every call fails the test on an uncaught
    exception (a traceback is never a "clear message"), unless ``crash_ok``."""

    def __init__(self):
        self.runner = CliRunner()

    def __call__(self, *args, input: str | None = None, crash_ok: bool = False):
        result = self.runner.invoke(pbem_main, [str(a) for a in args], input=input)
        if not crash_ok and result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"pbem {' '.join(map(str, args))} crashed with "
                                 f"{result.exception!r}\n{result.output}") from result.exception
        return result

    def ok(self, *args, input: str | None = None):
        result = self(*args, input=input)
        assert result.exit_code == 0, (f"pbem {' '.join(map(str, args))} exited {result.exit_code}:\n"
                                       f"{result.output}")
        return result

    def fails(self, *args, input: str | None = None):
        result = self(*args, input=input)
        assert result.exit_code != 0, (f"pbem {' '.join(map(str, args))} should have failed:\n"
                                       f"{result.output}")
        return result

    def export(self, folder) -> dict:
        return json.loads(self.ok("export", folder).stdout)

    def export_text(self, folder) -> str:
        return self.ok("export", folder).stdout

    def report(self, folder, turn: int | None = None, player: str | None = None) -> str:
        args = ["report", folder]
        if turn is not None:
            args += ["--turn", turn]
        if player is not None:
            args += ["--player", player]
        return self.ok(*args).stdout

    def all_reports(self, folder, turn: int, players: list[str]) -> dict[str, str]:
        out = {"public": self.report(folder, turn)}
        for name in players:
            out[name] = self.report(folder, turn, name)
        return out


def _pbem_command() -> list[str]:
    here = Path(sys.executable).parent / "pbem"
    if here.exists():
        return [str(here)]
    found = shutil.which("pbem")
    if found:
        return [found]
    return [sys.executable, "-m", "pbem"]  # pragma: no cover


class PbemExe:
    """The installed ``pbem`` executable, run as a real process."""

    command = _pbem_command()

    def __call__(self, *args, input: str | None = None, timeout: float = 60, **kwargs):
        return subprocess.run(self.command + [str(a) for a in args], input=input, text=True,
                              capture_output=True, timeout=timeout, **kwargs)

    def popen(self, *args, **kwargs):
        return subprocess.Popen(self.command + [str(a) for a in args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, **kwargs)


# -- fixtures ----------------------------------------------------------------------


@pytest.fixture(scope="session")
def kit():
    return SimpleNamespace(
        PLAYERS3=PLAYERS3, PLAYERS4=PLAYERS4, CARDS=CARDS, RANK=RANK, COUNTS=COUNTS,
        FULL_DECK=FULL_DECK, SEED=SEED, make_deck=make_deck, deck_for=deck_for, dealt=dealt,
        config=config, write_config=write_config, diff=diff,
    )


@pytest.fixture(scope="session")
def cli():
    return Cli()


@pytest.fixture(scope="session")
def pbem_exe():
    return PbemExe()


@pytest.fixture(scope="session")
def snap():
    """``snap(folder)``: see :func:`snapshot`."""
    return snapshot


@pytest.fixture
def campaign3(tmp_path) -> Path:
    folder = tmp_path / "game3"
    write_config(folder, config(3))
    return folder


@pytest.fixture
def campaign4(tmp_path) -> Path:
    folder = tmp_path / "game4"
    write_config(folder, config(4))
    return folder


@pytest.fixture
def started3(campaign3, cli) -> Path:
    cli.ok("start", campaign3)
    return campaign3


@pytest.fixture
def started4(campaign4, cli) -> Path:
    cli.ok("start", campaign4)
    return campaign4
