"""Turn reports: a plain context per reader, rendered by a Jinja template.

Who may see what is decided once, by the events' audience (:mod:`pbem.events`)
and by the two context builders here: :func:`public_context` reads only public
events and public facts of the state (discards, pile sizes, who is in, who is
protected, who plays next); :func:`private_context` adds the reader's own cards
and the events private to them. Templates only word what they are given.

All wording lives in ``templates/``; a campaign overrides any template with a
file of the same name in its own ``templates/`` folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from . import events as ev
from .cards import Card
from .engine import ANY, CARD_RULES, OTHER, PAIR_ANY, PAIR_OTHERS, PREMIUM_PLAYERS, Game, tokens_to_win


def default_templates_dir() -> Path:
    """The templates shipped with pbem: the top-level ``templates/`` folder of
    a source checkout, or ``pbem/templates`` of an installed copy (a plain
    folder beside this file: no importlib.resources, which costs start-up time)."""
    here = Path(__file__).resolve().parent
    source_tree = here.parent / "templates"
    if (source_tree / "public.txt.j2").exists():
        return source_tree
    return here / "templates"


def make_environment(campaign_templates: Path | None = None):
    """A Jinja environment: the campaign's own templates first, then the defaults."""
    import jinja2

    search = [str(default_templates_dir())]
    if campaign_templates is not None and campaign_templates.is_dir():
        search.insert(0, str(campaign_templates))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(search),
        bytecode_cache=_bytecode_cache(),
        autoescape=False,  # plain-text mail, never HTML
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["cards"] = lambda cards: ", ".join(cards) if cards else "-"
    env.filters["names"] = _join_names
    return env


def _bytecode_cache():
    """Compiled templates, kept between runs: compiling them costs more than
    the rest of a `pbem resolve`. Jinja keys each entry by the template's
    source checksum, so an edited or overriding template is compiled anew.
    No cache (and no error) where the cache folder cannot be written."""
    import os

    import jinja2

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "pbem", "templates")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(folder)


def _join_names(names: list[str]) -> str:
    names = list(names)
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


class Table(NamedTuple):
    """The facts every report needs about the campaign."""

    campaign: str
    title: str
    players: list[str]


def _name(table: Table, seat: int | None) -> str | None:
    return None if seat is None else table.players[seat]


def event_view(table: Table, event: Any) -> dict:
    """An event as plain data with names and card titles, for templates."""
    view: dict[str, Any] = {"kind": event.kind}
    for field, value in zip(event._fields, event):
        if field in ("seat", "target", "recipient", "loser", "other"):
            view["player" if field == "seat" else field] = _name(table, value)
        elif isinstance(value, Card):
            view[field] = value.title
        elif field == "winners":
            view[field] = [table.players[s] for s in value]
        elif field == "reveals":
            view[field] = [(table.players[s], c.title) for s, c in value]
        elif field == "totals":
            view[field] = [(table.players[s], t) for s, t in value]
        elif field == "won":
            view[field] = [(table.players[s], h) for s, h in value]
        elif field == "marked":
            view[field] = table.players[value]
        elif field in ("named", "chosen"):
            view[field] = [None if s is None else table.players[s] for s in value]
        elif field == "values":
            view[field] = [(table.players[s], _number(v)) for s, v in value]
        elif field == "gained":
            view[field] = [(table.players[s], h, c.title) for s, h, c in value]
        else:
            view[field] = value
    if event.kind == "played":  # what the card does, from the card table: the wording follows it
        rule = CARD_RULES[event.card]
        view["chooses_one"] = rule.targets in (OTHER, ANY)
        view["chooses_two"] = rule.targets in (PAIR_ANY, PAIR_OTHERS)
        view["guesses"] = rule.guesses
    return view


def _number(value: float) -> str:
    """A hand value as a player writes it: 9.5, 10."""
    return f"{value:g}"


def _hand_public(table: Table, hand, events: list) -> dict:
    """What everybody may know of one hand after the turn."""
    ended_event = next((e for e in events if e.kind == "ended"), None)
    return {
        "number": hand.number,
        "ended": hand.ended,
        "ended_now": ended_event is not None,
        "events": [event_view(table, e) for e in events if e.kind != "ended"],
        "result": event_view(table, ended_event) if ended_event else None,
        "seats": [
            {
                "name": table.players[s],
                "in": hand.alive[s],
                "discards": [c.title for c in hand.discards[s]],
                "protected": hand.protected[s] and hand.alive[s],
            }
            for s in range(len(table.players))
        ],
        "draw_pile": len(hand.pile),
        "face_up": [c.title for c in hand.face_up],  # public from the start (RULES 9)
        "marked": None if hand.ended else _name(table, hand.marked),  # the Sycophant's (RULES 10.3)
        "active": _name(table, hand.active),
        "winners": [table.players[s] for s in hand.winners],
    }


def _by_hand(events: list) -> dict[int, list]:
    grouped: dict[int, list] = {}
    for e in events:
        number = getattr(e, "hand", None)
        if number is not None:
            grouped.setdefault(number, []).append(e)
    return grouped


def public_context(table: Table, turn: int, game: Game, events: list, notes: list[str] = (),
                   deadline: str = "") -> dict:
    """The context of the public report of ``turn`` (0: the opening report).

    ``game`` is the state after the turn; ``events`` may hold private events:
    they are dropped here, first thing.
    """
    public = ev.public(events)
    grouped = _by_hand(public)
    in_play_or_just_ended = [h for h in game.hands if not h.ended or h.number in grouped]
    game_over = next((e for e in public if e.kind == "game_over"), None)
    tokens_won = next((e for e in public if e.kind == "tokens"), None)
    by_cards = next((e for e in public if e.kind == "card_tokens"), None)
    return {
        "campaign": table.campaign,
        "title": table.title,
        "turn": turn,
        "next_turn": game.turn,
        "players": table.players,
        "hands": [_hand_public(table, h, grouped.get(h.number, [])) for h in in_play_or_just_ended],
        "ended_before": [h.number for h in game.hands if h.ended and h.number not in grouped],
        "tokens": list(zip(table.players, game.tokens)),
        "tokens_won": event_view(table, tokens_won)["won"] if tokens_won else [],
        "tokens_by_cards": event_view(table, by_cards)["gained"] if by_cards else [],  # RULES 10.4
        "to_win": tokens_to_win(len(table.players)),
        "finished": game.finished,
        "winners": [table.players[s] for s in game.winners],
        "game_over": game_over is not None,
        "awaited": [(table.players[s], hands) for s, hands in game.awaited().items() if hands],
        "notes": list(notes),
        "deadline": deadline,
        "audit": _audit(game) if game.finished else [],
        "commitments": {},
        "record": "",
    }


def _audit(game: Game) -> list[dict]:
    """After the game: every deck and set-aside card (RULES 8)."""
    return [{"number": h.number, "deck": [c.title for c in h.deck], "set_aside": h.deck[0].title}
            for h in game.hands]


def private_context(table: Table, turn: int, game: Game, events: list, seat: int,
                    code: str = "", deadline: str = "") -> dict:
    """The context of ``seat``'s private report after ``turn``: their cards, the
    hands they must play, and only the events whose audience includes them."""
    mine = [event_view(table, e) for e in ev.private_to(events, seat)]
    hands = []
    for h in game.hands:
        if h.ended or not h.alive[seat]:
            continue
        hands.append({
            "number": h.number,
            "cards": [c.title for c in h.cards[seat]],
            "your_turn": h.active == seat and not game.finished,
            "protected": h.protected[seat],
            "face_up": [c.title for c in h.face_up],  # public (RULES 9); they change a Guard's odds
        })
    return {
        "campaign": table.campaign,
        "title": table.title,
        "player": table.players[seat],
        "turn": turn,
        "next_turn": game.turn,
        "hands": hands,
        "out_of": [h.number for h in game.hands if not h.ended and not h.alive[seat]],
        "your_turns": [h["number"] for h in hands if h["your_turn"]],
        "learned": mine,
        "code": code,
        "deadline": deadline,
        "finished": game.finished,
        "winners": [table.players[s] for s in game.winners],
        "tokens": list(zip(table.players, game.tokens)),
        "premium": game.players in PREMIUM_PLAYERS,  # the card reference lists the Premium cards
    }


class Renderer:
    """Renders the report templates of one campaign."""

    def __init__(self, campaign_templates: Path | None = None):
        self.env = make_environment(campaign_templates)

    def render(self, template: str, context: dict) -> str:
        return self.env.get_template(template).render(**context)

    def public(self, context: dict) -> str:
        return self.render("public.txt.j2", context)

    def private(self, context: dict) -> str:
        return self.render("private.txt.j2", context)
