"""The words of `pbem verify`'s differences: events and differences as a
player reads them ("Arthur was knocked out holding the Baron"), not dicts.

Apart from :mod:`pbem.audit` so that :mod:`pbem.record`'s replay, which words
its differences, and the audit, which replays, import no cycle.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


def _ints(value: Any, count: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) == count
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def say_event(event: Any, players: list[str]) -> str:
    """One public event of the record as a sentence a player reads."""
    if not isinstance(event, dict):
        return "nothing"

    def who(key: str) -> str:
        seat = event.get(key)
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
            return players[seat]
        return "nobody" if seat is None else f"seat {seat!r}"

    def names(seats: Any) -> str:
        if not isinstance(seats, list):
            return repr(seats)
        listed = [
            players[s] if isinstance(s, int) and 0 <= s < len(players) else f"seat {s!r}" for s in seats
        ]
        return " and ".join(listed) if len(listed) < 3 else ", ".join(listed[:-1]) + " and " + listed[-1]

    kind = event.get("kind")
    card = f"the {event.get('card')}" if event.get("card") else "no card"
    if kind == "played":
        text = f"{who('seat')} played the {event.get('card')}"
        if event.get("target") is not None:
            text += f" on {who('target')}"
        if event.get("guess"):
            text += f", guessing the {event.get('guess')}"
        return text + (" (no orders: played by the rules' default)" if event.get("nmr") else "")
    if kind == "guard":
        return (
            f"{who('seat')}'s Guard {'hit' if event.get('hit') else 'missed'} {who('recipient')} "
            f"(guessing the {event.get('guess')})"
        )
    if kind == "baron":
        loser = "a tie" if event.get("loser") is None else f"{who('loser')} had the lower card"
        return f"{who('seat')}'s Baron against {who('recipient')}: {loser}"
    if kind == "prince":
        return f"{who('recipient')} discarded {card} to the Prince"
    if kind == "king":
        return f"{who('seat')} traded hands with {who('recipient')}"
    if kind == "protected":
        return f"{who('seat')} was protected by the Handmaid"
    if kind == "eliminated":
        holding = f"holding {card}" if event.get("card") else "holding nothing"
        return f"{who('seat')} was knocked out {holding}"
    if kind == "ended":
        return f"the hand was won by {names(event.get('winners'))}"
    if kind == "tokens":
        won = event.get("won")
        if isinstance(won, list) and all(isinstance(w, list) and len(w) == 2 for w in won):
            return "tokens went to " + ", ".join(f"{names([s])} (hand {h})" for s, h in won)
        return f"tokens went to {won!r}"
    if kind == "game_over":
        return f"the game was won by {names(event.get('winners'))}"
    return json.dumps(event, ensure_ascii=False)[:200]


# The fields whose value alone reads well ("the rules give the Spy").
_VALUE_WORDS: dict[str, Callable[[Any, list[str]], str]] = {
    "card": lambda v, players: f"the {v}" if v else "no card",
    "guess": lambda v, players: f"the {v}",
    "hit": lambda v, players: "a hit" if v else "a miss",
}


def say_difference(turn: int, recorded: Any, replayed: Any, players: list[str]) -> str:
    """ "turn 4, hand 13: the record says Arthur was knocked out holding the Baron;
    the rules give the Spy" (the whole event when more than one word differs)."""
    hand = next((e.get("hand") for e in (recorded, replayed) if isinstance(e, dict) and "hand" in e), None)
    where = f"turn {turn}" + (f", hand {hand}" if hand is not None else "")
    said = say_event(recorded, players)
    same_kind = (
        isinstance(recorded, dict)
        and isinstance(replayed, dict)
        and recorded.get("kind") == replayed.get("kind")
    )
    if same_kind:
        differ = [k for k in set(recorded) | set(replayed) if recorded.get(k) != replayed.get(k)]
        if len(differ) == 1 and differ[0] in _VALUE_WORDS:
            field = differ[0]
            value = _VALUE_WORDS[field](replayed.get(field), players)
            return f"{where}: the record says {said}; the rules give {value}"
    return f"{where}: the record says {said}; the rules give: {say_event(replayed, players)}"


def say_tokens(tokens: Any, players: list[str]) -> str:
    if not _ints(tokens, len(players)):
        return repr(tokens)
    return ", ".join(f"{name} {n}" for name, n in zip(players, tokens))
