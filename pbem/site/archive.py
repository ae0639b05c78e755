"""What the site may be built from: the public side of a campaign folder.

Read here, and nowhere else in :mod:`pbem.site`: the players' names and the
title (``campaign.yaml``, never its seed, decks or addresses), each turn's
events filtered through :func:`pbem.events.public`, each turn's public report,
the GM's notes (printed in the public reports), the deadline as it was
announced and, in a two-player game, the cards laid face up at the deal (the
deal's events, in turn 0; a campaign started by an older pbem has none, and its
opening report's list of them is read instead). Never the cards of
``state.json``, never a private report, never the orders' words: each player's
record (:mod:`pbem.players`, :func:`pbem.seats.read_facts`) reads of the
orders resolved only which hands were played for a player (by the NMR default or
the proxy, as the public report says), the rest from the public events and the
seats' tenures, and shows no address.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import events as ev
from ..cards import card_named
from ..config import CampaignConfig, load_config
from ..deadlines import describe, parse_schedule
from ..engine import FACE_UP_WITH_TWO, HANDS_PER_GAME
from ..store import EVENTS, PUBLIC_REPORT, TURNS, CampaignStore, StoreError
from ..tuples import NamedTuple


class PublicTurn(NamedTuple):
    turn: int
    events: list[
        ev.Event
    ]  # the public events of the turn (none for turn 0: its face-up cards are in face_up)
    report: str  # the public report, as mailed
    notes: list[str]  # the GM's notes printed in that report


class PublicArchive(NamedTuple):
    campaign: str
    title: str
    players: list[str]
    turns: list[PublicTurn]  # turn 0 (the deal) first, then every resolved turn in order
    deadline: str  # the awaited turn's deadline as announced ("" when none)
    templates: Path  # the campaign's template overrides (the mail's wording)
    face_up: dict[int, tuple[str, ...]]  # two players: hand -> its face-up cards (RULES 9); else empty
    records: list[dict[str, Any]]  # each player's record in this game (pbem.players), without the addresses


def read_archive(folder: Path | str) -> PublicArchive:
    """The public record of the campaign in ``folder``."""
    folder = Path(folder)
    config = load_config(folder)
    store = CampaignStore(folder)
    numbers = store.turns()
    if not numbers:
        raise StoreError(f"{folder}: the game has not been started; run `pbem start {folder}` first")
    if numbers != list(range(len(numbers))):
        raise StoreError(
            f"{folder / TURNS}: turns {', '.join(map(str, numbers))} are on file; "
            f"a turn folder is missing, so the campaign folder is damaged"
        )
    players = store.read_roster() or config.names  # the roster holds the names after `pbem replace`
    turns = []
    dealt: list[ev.FaceUp] = []  # the deal's FaceUp events (two players, turn 0)
    for t in numbers:
        data = store.read_json(t, EVENTS)
        try:
            events = ev.public([ev.from_dict(e) for e in data])
        except (KeyError, TypeError, ValueError) as e:
            raise StoreError(
                f"{store.turn_dir(t) / EVENTS}: an event cannot be read ({e!r}); "
                f"restore the file from a backup"
            ) from None
        face_up_events = [e for e in events if isinstance(e, ev.FaceUp)]  # kind "face_up"
        if face_up_events and (t != 0 or len(players) != 2):
            raise StoreError(
                f"{store.turn_dir(t) / EVENTS}: it lists face-up cards, which only the deal (turn 0) "
                f"of a two-player game has; the file is damaged: restore it from a backup"
            )
        dealt += face_up_events
        events = [e for e in events if e.kind != "face_up"]  # no play: the pages show them from face_up
        turns.append(PublicTurn(t, events, store.read_text(t, PUBLIC_REPORT), store.read_notes(t)))
    face_up = {}
    if len(players) == 2 and dealt:
        face_up = _dealt_face_up(dealt, store.turn_dir(0) / EVENTS)
    elif len(players) == 2:  # begun by an older pbem, whose deal wrote no event
        face_up = _face_up(turns[0].report, store.turn_dir(0) / PUBLIC_REPORT)
    return PublicArchive(
        folder.resolve().name,
        config.title,
        list(players),
        turns,
        _announced_deadline(config, store, turns[-1]),
        store.templates_dir(),
        face_up,
        _records(folder, config, store),
    )


def _records(folder: Path, config: CampaignConfig, store: CampaignStore) -> list[dict[str, Any]]:
    """Each player's record (:mod:`pbem.players`), their address left out."""
    from ..players import campaign_summary

    summary = campaign_summary(store, config, None, folder.resolve().name, public=True)
    return [{k: v for k, v in r.to_dict().items() if k != "email"} for r in summary.records]


def _dealt_face_up(dealt: list[ev.FaceUp], where: Path) -> dict[int, tuple[str, ...]]:
    """Each hand's face-up cards, from the deal's events (RULES 9): three real
    cards for each of the 13 hands, once each, or the file is damaged."""
    out: dict[int, tuple[str, ...]] = {}
    for e in dealt:
        if type(e.hand) is not int or e.hand in out or len(e.cards) != FACE_UP_WITH_TWO:
            out.clear()
            break
        out[e.hand] = tuple(card.title for card in e.cards)
    if sorted(out) != list(range(1, HANDS_PER_GAME + 1)):
        raise StoreError(
            f"{where}: the deal's face-up cards are not three cards for each of the 13 hands, "
            f"once each; the file is damaged: restore it from a backup"
        )
    return out


# The opening report's list of face-up cards (templates/public.txt.j2, turn 0; RULES 9),
# read for a campaign started by an older pbem, whose deal wrote no event.
_FACE_UP_HEAD = "Two players: in each hand three cards lie face up, out of the hand for good:"
_FACE_UP_LINE = re.compile(r"^  Hand +(\d+): (.+)$", re.M)


def _face_up(opening: str, where: Path) -> dict[int, tuple[str, ...]]:
    """Each hand's face-up cards, read from the opening report: public from the
    deal; a campaign begun before the deal's events has them nowhere else."""
    head = opening.find(_FACE_UP_HEAD)
    out: dict[int, tuple[str, ...]] = {}
    if head >= 0:
        block = opening[head + len(_FACE_UP_HEAD) :].lstrip("\n").split("\n\n", 1)[0]
        for match in _FACE_UP_LINE.finditer(block):
            named = [card_named(name.strip()) for name in match.group(2).split(",")]
            if all(card is not None for card in named):
                out[int(match.group(1))] = tuple(card.title for card in named if card is not None)
    complete = sorted(out) == list(range(1, HANDS_PER_GAME + 1))
    if not complete or any(len(cards) != FACE_UP_WITH_TWO for cards in out.values()):
        raise StoreError(
            f"{where}: the opening report of this two-player game does not list the three "
            f'face-up cards of each of the 13 hands ("{_FACE_UP_HEAD}" and a line '
            f'"  Hand N: card, card, card" per hand), and the site shows them from there; '
            f"restore the report, or put that list back into the campaign's public.txt.j2"
        )
    return out


# The line of the public report (templates/public.txt.j2) that announces the deadline.
_DUE = re.compile(r"^Orders for turn \d+ \(due by (.+)\) are awaited from:$", re.M)


def _announced_deadline(config: CampaignConfig, store: CampaignStore, latest: PublicTurn) -> str:
    """The awaited turn's deadline: the one the GM moved it to (``pbem deadline``,
    which the reminders announce), else the one the latest report announced.
    Both name the campaign's time zone and UTC."""
    moved = store.read_deadlines().get(str(latest.turn + 1))
    if moved:
        schedule = parse_schedule(config.extra.get("deadline"))
        zone = schedule.zone if schedule is not None else UTC
        return describe(datetime.fromisoformat(moved), zone)
    match = _DUE.search(latest.report)
    return match.group(1) if match else ""
