"""Rendering the public archive as a static site, and writing it safely.

Every page comes from a Jinja template under ``templates/site/`` (autoescape
on); the event lines are the mail's own macros (``_events.txt.j2``), so a turn
page says what the public report says. The output holds no clock time: the
same campaign always builds the same bytes, which the twin-campaign test uses
to show that nothing hidden reaches the site.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import jinja2

from .. import events as ev
from ..config import DEFAULT_SITE, load_config, site_out
from ..engine import HANDS_PER_GAME, PREMIUM_PLAYERS, tokens_to_win
from ..errors import PbemError
from ..record import BEGIN, END, extract, opening_commitments
from ..reports import Table, default_templates_dir, event_view, make_environment
from ..tuples import NamedTuple
from .archive import PublicArchive, read_archive
from .board import Board, HandBoard, replay

#: A file in every site pbem writes: a folder without it is never replaced.
MARKER = ".pbem-site"

#: Line colours and dash patterns of the chart, by seat (up to 8 players): told apart without colour too.
COLOURS = ("#1f6fb2", "#c0392b", "#2e8b57", "#8e44ad", "#b35900", "#00838f", "#6d4c41", "#37474f")
DASHES = ("", "8 4", "2 4", "12 4 2 4", "4 4", "12 4", "2 4 2 4 8 4", "16 4 4 4")


class SiteError(PbemError):
    """The site cannot be written where it was asked; the message says what to do."""


class BuiltSite(NamedTuple):
    out: Path
    pages: list[str]  # the files written, relative to ``out``


def build_site(folder: Path | str, out: Path | str | None = None) -> BuiltSite:
    """Build the site of the campaign in ``folder`` into ``out`` (replaced whole).
    Without ``out``: the folder ``site: out:`` names in campaign.yaml, else
    ``site`` inside the campaign folder."""
    archive = read_archive(folder)
    if out is None:
        out = site_out(load_config(Path(folder)), Path(folder)) or Path(folder) / DEFAULT_SITE
    files = render_site(archive)
    out = Path(out)
    write_site(out, files)
    return BuiltSite(out, sorted(files))


# -- pages ------------------------------------------------------------------------------


def turn_page(turn: int) -> str:
    return f"turn-{turn:03d}.html"


def hand_page(hand: int) -> str:
    return f"hand-{hand:02d}.html"


def render_site(archive: PublicArchive) -> dict[str, bytes]:
    """Every file of the site (path -> bytes), from the public archive alone."""
    players = archive.players
    boards = replay(len(players), [t.events for t in archive.turns[1:]], archive.face_up)
    table = Table(archive.campaign, archive.title, players)
    latest = boards[-1]
    finished = latest.finished
    env = _environment(archive.templates)
    common = {
        "campaign": archive.campaign,
        "title": archive.title or archive.campaign,
        "players": players,
        "turns": [b.turn for b in boards],
        "hand_numbers": list(range(1, HANDS_PER_GAME + 1)),
        "finished": finished,
        "winners": [players[s] for s in latest.winners],
        "to_win": tokens_to_win(len(players)),
        "premium": len(players) in PREMIUM_PLAYERS,  # tokens from cards, the Sycophant's mark (RULES 10)
        "turn_page": turn_page,
        "hand_page": hand_page,
    }

    def page(name: str, template: str, **context: Any) -> None:
        html = env.get_template(f"site/{template}").render(**common, page=name, **context)
        files[name] = html.encode("utf-8")

    files: dict[str, bytes] = {}
    page(
        "index.html",
        "index.html.j2",
        board=_board_view(latest, players),
        tokens=_tokens_view(boards, players),
        chart=chart(boards, players),
        awaited=_awaited(latest, players),
        awaited_turn=latest.turn + 1,
        deadline=archive.deadline,
        last_turn=latest.turn,
    )
    for board, public_turn in zip(boards, archive.turns):
        page(
            turn_page(board.turn),
            "turn.html.j2",
            turn=board.turn,
            notes=public_turn.notes,
            hands=[_turn_hand_view(table, board, h) for h in board.hands if h.number in board.events],
            ended_before=[h.number for h in board.hands if h.ended and h.number not in board.events],
            first_players=[(h.number, players[h.first]) for h in board.hands],
            face_up=[(h.number, h.face_up) for h in board.hands if h.face_up],
            tokens=list(zip(players, board.tokens)),
            tokens_won=[(players[s], h) for s, h in board.won],
            tokens_by_cards=[(players[s], h, card) for s, h, card in board.by_cards],
            awaited=_awaited(board, players),
            game_over=board.finished,
            previous=board.turn - 1 if board.turn else None,
            next=board.turn + 1 if board.turn < latest.turn else None,
        )
    for number in range(1, HANDS_PER_GAME + 1):
        page(hand_page(number), "hand.html.j2", **_story(table, boards, number))
    page("players.html", "players.html.j2", records=archive.records)
    if finished:
        opening, final = archive.turns[0].report, archive.turns[-1].report
        files["opening-report.txt"] = opening.encode("utf-8")
        files["final-report.txt"] = final.encode("utf-8")
        page("end.html", "end.html.j2", **_end_view(latest, players, opening, final))
    files["style.css"] = (default_templates_dir() / "site" / "style.css").read_bytes()
    files[MARKER] = b"A site built by `pbem site`: pbem replaces this folder whole when it rebuilds it.\n"
    return files


def _environment(campaign_templates: Path) -> jinja2.Environment:
    """The mail's environment (sandboxed, templates confined to their folders,
    the same filters and event wording), escaping every value for HTML."""
    return make_environment(campaign_templates if campaign_templates.is_dir() else None, html=True)


def _seats_view(hand: HandBoard, players: list[str], finished: bool) -> list[dict[str, Any]]:
    """Each player's place in a hand; once the game is over, nobody is to play."""
    return [
        {
            "name": name,
            "in": hand.alive[s],
            "protected": hand.protected[s] and hand.alive[s],
            "active": hand.active == s and not finished,
            "discards": hand.discards[s],
            "marked": hand.marked == s and not finished,
        }
        for s, name in enumerate(players)
    ]


def _marked(hand: HandBoard, players: list[str], finished: bool) -> str | None:
    """Whom the Sycophant marked for the next play in the hand (RULES 10.3), if anyone."""
    return None if hand.marked is None or finished else players[hand.marked]


def _jesters(hand: HandBoard, players: list[str]) -> list[tuple[str, str]]:
    """(Jester's player, the player they named) of a hand not yet over (RULES 10.3)."""
    return [] if hand.ended else [(players[j], players[named]) for j, named in hand.jesters]


def _board_view(board: Board, players: list[str]) -> list[dict[str, Any]]:
    return [
        {
            "number": h.number,
            "first": players[h.first],
            "ended": h.ended,
            "pile": h.pile,
            "active": None if h.active is None or board.finished else players[h.active],
            "face_up": h.face_up,
            "marked": _marked(h, players, board.finished),
            "jesters": _jesters(h, players),
            "winners": [players[s] for s in h.winners],
            "seats": _seats_view(h, players, board.finished),
        }
        for h in board.hands
    ]


def _turn_hand_view(table: Table, board: Board, hand: HandBoard) -> dict[str, Any]:
    events = board.events[hand.number]
    return {
        "number": hand.number,
        "ended": hand.ended,
        "events": [event_view(table, e) for e in events if e.kind != "ended"],
        "result": _result(table, events),
        "seats": _seats_view(hand, table.players, board.finished),
        "pile": hand.pile,
        "face_up": hand.face_up,
        "marked": _marked(hand, table.players, board.finished),
        "jesters": _jesters(hand, table.players),
        "active": None if hand.active is None or board.finished else table.players[hand.active],
    }


def _result(table: Table, events: list[ev.Event]) -> dict[str, Any] | None:
    """The hand's end, when it came in these events."""
    ended = next((e for e in events if e.kind == "ended"), None)
    return None if ended is None else event_view(table, ended)


def _awaited(board: Board, players: list[str]) -> list[tuple[str, list[int]]]:
    return [(players[s], hands) for s, hands in board.awaited().items() if hands]


def _tokens_view(boards: list[Board], players: list[str]) -> list[dict[str, Any]]:
    latest = boards[-1]
    hands_won = [sum(1 for h in latest.hands if s in h.winners) for s in range(len(players))]
    by_cards = [sum(1 for b in boards for seat, _, _ in b.by_cards if seat == s) for s in range(len(players))]
    return [
        {
            "name": name,
            "tokens": latest.tokens[s],
            "hands_won": hands_won[s],
            "by_cards": by_cards[s],
            "history": [b.tokens[s] for b in boards],
        }
        for s, name in enumerate(players)
    ]


def _story(table: Table, boards: list[Board], number: int) -> dict[str, Any]:
    """Every play of one hand, turn by turn, from the deal to its winner."""
    players = table.players
    dealt = boards[0].hands[number - 1]
    chapters = []
    for board in boards[1:]:
        events = board.events.get(number)
        if not events:
            continue
        hand = board.hands[number - 1]
        chapters.append(
            {
                "turn": board.turn,
                "events": [event_view(table, e) for e in events if e.kind != "ended"],
                "result": _result(table, events),
                "seats": _seats_view(hand, players, board.finished),
                "pile": hand.pile,
                "marked": _marked(hand, players, board.finished),
                "jesters": _jesters(hand, players),
                "face_up": (),  # told once, with the deal
                "active": None if hand.active is None or board.finished else players[hand.active],
            }
        )
    last = boards[-1].hands[number - 1]
    return {
        "number": number,
        "first": players[dealt.first],
        "pile_at_deal": dealt.pile,
        "face_up": dealt.face_up,
        "chapters": chapters,
        "ended": last.ended,
        "hand_winners": [players[s] for s in last.winners],
        "stopped": boards[-1].finished and not last.ended,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < HANDS_PER_GAME else None,
    }


def _end_view(board: Board, players: list[str], opening: str, final: str) -> dict[str, Any]:
    """The end: every hand's result and, from the final report's record, the decks."""
    try:
        record = extract(final)
    except ValueError:
        record = None  # a final report without its record (a GM's own template): no decks to show
    decks = []
    if record is not None:
        decks = [
            {"number": int(n), "deck": h["deck"], "set_aside": h["set_aside"]}
            for n, h in sorted(record["hands"].items(), key=lambda kv: int(kv[0]))
        ]
    results = []
    for h in board.hands:
        result = h.result
        results.append(
            {
                "number": h.number,
                "ended": h.ended,
                "winners": [players[s] for s in h.winners],
                "reveals": [(players[s], c.title) for s, c in result.reveals] if result else [],
            }
        )
    block = re.search(re.escape(BEGIN) + ".*?" + re.escape(END), final, re.S)
    return {
        "results": results,
        "decks": decks,
        "has_record": record is not None,
        "record_block": block.group(0) if block else "",
        "seed": record["seed"] if record else "",
        "commitments": sorted(
            opening_commitments(opening).items(),
            key=lambda kv: (kv[0] == "seed", int(kv[0]) if kv[0].isdigit() else 0),
        ),
        "tokens": list(zip(players, board.tokens)),
    }


# -- the standings chart ------------------------------------------------------------------


def chart(boards: list[Board], players: list[str]) -> dict[str, Any]:
    """The geometry of the tokens-over-turns chart (drawn by ``_chart.svg.j2``):
    x is the turn, y the tokens; every number here is a plain SVG coordinate."""
    width, height = 520, 300
    left, right, top, bottom = 40, 14, 14, 52
    turns = len(boards) - 1
    most = max([tokens_to_win(len(players))] + [t for b in boards for t in b.tokens])
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(turn: int) -> float:
        return round(left + plot_w * (turn / turns if turns else 0.5), 2)

    def y(tokens: int) -> float:
        return round(top + plot_h * (most - tokens) / most, 2)

    lines = []
    for s, name in enumerate(players):
        points = [(b.turn, b.tokens[s], x(b.turn), y(b.tokens[s])) for b in boards]
        # Lines of players on the same count lie on each other: each is narrower than the one
        # before it, so that every line shows, drawn inside the earlier ones (at most 7.6 wide).
        stroke = round(2 + min(1.5, 5.6 / max(1, len(players) - 1)) * (len(players) - 1 - s), 2)
        lines.append(
            {
                "name": name,
                "colour": COLOURS[s % len(COLOURS)],
                "dash": DASHES[s % len(DASHES)],
                "width": stroke,
                "points": points,
                "path": " ".join(f"{px},{py}" for _, _, px, py in points),
            }
        )
    step = max(1, -(-turns // 12))  # at most a dozen turn labels (and the deal)
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "top": top,
        "bottom": height - bottom,
        "lines": lines,
        "grid": [(k, y(k)) for k in range(most + 1)],
        "ticks": [(t, x(t)) for t in range(0, turns + 1, step)],
    }


# -- writing ------------------------------------------------------------------------------------


def write_site(out: Path, files: dict[str, bytes]) -> None:
    """Write the site into ``out``: aside first, then switched in by renames, so
    a reader (or a web server) sees the old site or the new one. A folder that
    holds anything but a pbem site is never touched."""
    out = Path(os.path.realpath(out))  # a symbolic link to the site (a web server's) stays one
    if out.exists():
        if not out.is_dir():
            raise SiteError(
                f"{out}: a file is in the way; give the site a folder of its own "
                f"(--out, or site: out: in campaign.yaml)"
            )
        if not (out / MARKER).exists() and any(out.iterdir()):
            raise SiteError(
                f"{out}: this folder holds other files and no pbem site, and would be "
                f"replaced whole; give the site an empty or new folder (--out, or site: out:)"
            )
    parent = out.parent
    parent.mkdir(parents=True, exist_ok=True)
    for pattern in (f".{out.name}.*.pbem-tmp", f".{out.name}.*.pbem-old"):
        for stale in parent.glob(pattern):  # left by a crash: the tmp one was never switched in
            shutil.rmtree(stale, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".pbem-tmp", dir=parent))
    try:
        os.chmod(tmp, 0o755)  # mkdtemp makes it private; a web server must read it
        for name, data in files.items():
            path = tmp / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        if out.exists():
            old = tmp.with_suffix(".pbem-old")
            os.rename(out, old)
            os.rename(tmp, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
