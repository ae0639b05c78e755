"""What `pbem verify` checks around the replay of :mod:`pbem.record`.

* :func:`check_shape`: a record is hostile input (anyone can hand a file to
  `verify`): its shape is checked before anything reads it, so that any input
  gets a clear error, never a traceback.
* :func:`check_readable`: a final report is read by people, not by `verify`;
  the parts of its readable text that the record covers (the hands ended in the
  last turn, the tokens, the winner of the game, the decks of the audit list)
  must say what the record says, and what was not checked is said.
* :func:`say_event` and :func:`say_difference`: events and differences in the
  words a player reads ("Arthur was knocked out holding the Baron"), not dicts.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .cards import card_named

MAX_DEPTH = 8  # a true record nests 5 deep (record / turns / turn / events / event / list)
EVENT_KINDS = {
    "played",
    "guard",
    "baron",
    "prince",
    "king",
    "protected",
    "eliminated",
    "ended",
    "tokens",
    "game_over",
}


class RecordError(ValueError):
    """A record that cannot be checked: says what is wrong and where."""


# -- the shape of a record ------------------------------------------------------------------------------


def check_shape(record: Any) -> None:
    """Raise :class:`RecordError` unless ``record`` has the shape `verify` reads."""
    _check_depth(record)
    _need(isinstance(record, dict), "the record", "a JSON object")
    for key in ("players", "seed", "seed_salt", "commitments", "hands", "turns", "tokens", "winners"):
        _need(key in record, f"the record's {key!r}", "present")
    players = record["players"]
    _need(
        isinstance(players, list)
        and 2 <= len(players) <= 8
        and all(isinstance(p, str) and p for p in players)
        and len(set(players)) == len(players),
        "'players'",
        "a list of 2 to 8 different names",
    )
    _need(isinstance(record["seed"], (str, int)) and not isinstance(record["seed"], bool), "'seed'", "text")
    _need(isinstance(record["seed_salt"], str), "'seed_salt'", "text")
    commitments = record["commitments"]
    _need(
        isinstance(commitments, dict) and all(isinstance(v, str) for v in commitments.values()),
        "'commitments'",
        "an object of hand numbers to SHA-256 digests",
    )
    hands = record["hands"]
    _need(isinstance(hands, dict), "'hands'", "an object of hand numbers to decks")
    for number, hand in hands.items():
        where = f"hands[{number!r}]"
        _need(isinstance(hand, dict), where, "an object with deck, salt and set_aside")
        deck = hand.get("deck")
        _need(
            bool(isinstance(deck, list) and deck and all(isinstance(c, str) for c in deck)),
            f"{where}.deck",
            "a list of card names",
        )
        unknown = sorted({c for c in deck if card_named(c) is None})
        _need(not unknown, f"{where}.deck", f"known cards, not {', '.join(map(repr, unknown))}")
        _need(isinstance(hand.get("salt"), str), f"{where}.salt", "text")
        _need(isinstance(hand.get("set_aside"), str), f"{where}.set_aside", "a card name")
    turns = record["turns"]
    _need(isinstance(turns, list), "'turns'", "a list")
    for i, entry in enumerate(turns):
        _check_turn(entry, f"turns[{i}]", len(players))
    _need(_ints(record["tokens"], len(players)), "'tokens'", f"a list of {len(players)} whole numbers")
    _need(
        isinstance(record["winners"], list) and all(isinstance(w, str) for w in record["winners"]),
        "'winners'",
        "a list of names",
    )


def _check_turn(entry: Any, where: str, seats: int) -> None:
    _need(isinstance(entry, dict), where, "an object with turn, orders and events")
    turn = entry.get("turn")
    _need(isinstance(turn, int) and not isinstance(turn, bool), f"{where}.turn", "a whole number")
    orders = entry.get("orders")
    _need(isinstance(orders, dict), f"{where}.orders", "an object of hand numbers to orders")
    for hand, order in orders.items():
        at = f"{where}.orders[{hand!r}]"
        _need(hand.isdigit() and 1 <= int(hand) <= 99, at, "keyed by a hand number")
        if order is None:
            continue
        _need(isinstance(order, dict), at, "an order (card, target, guess) or null")
        _need(
            isinstance(order.get("card"), str) and card_named(order["card"]) is not None,
            f"{at}.card",
            "a known card",
        )
        target = order.get("target")
        _need(
            target is None
            or (isinstance(target, int) and not isinstance(target, bool) and 0 <= target < seats),
            f"{at}.target",
            "a seat number or null",
        )
        guess = order.get("guess")
        _need(
            guess is None or (isinstance(guess, str) and card_named(guess) is not None),
            f"{at}.guess",
            "a known card or null",
        )
    events = entry.get("events")
    _need(
        isinstance(events, list)
        and all(isinstance(e, dict) and e.get("kind") in EVENT_KINDS for e in events),
        f"{where}.events",
        "a list of events",
    )
    if entry.get("tokens") is not None:
        _need(_ints(entry["tokens"], seats), f"{where}.tokens", f"a list of {seats} whole numbers")


def _ints(value: Any, count: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) == count
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _need(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise RecordError(f"{where} must be {what}: the record is damaged or was tampered with")


def _check_depth(value: Any) -> None:
    """No nesting deeper than a true record's (without recursion: a hostile record nests 100,000 deep)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(f"the record nests deeper than {MAX_DEPTH} levels; no true record does")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)


# -- words a player reads ---------------------------------------------------------------------------------


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
_VALUE_WORDS = {
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


# -- the readable text of a final report ------------------------------------------------------------------


def check_readable(text: str, record: dict) -> tuple[list[str], list[str], list[str]]:
    """Compare the readable parts of a final report with its record (already
    checked by the replay). Returns (problems, what was checked, what was not)."""
    players = record["players"]
    readable = text.split("-----BEGIN PBEM RECORD-----", 1)[0]
    problems: list[str] = []
    checked: list[str] = []
    unchecked: list[str] = []

    # The winner of the game.
    match = re.search(r"GAME OVER\. (.+?) (?:wins the game|share the win)\.", readable)
    if match:
        said = _split_names(match.group(1))
        if sorted(said) != sorted(record["winners"]):
            problems.append(
                f"the report's text says {match.group(1)} won the game; "
                f"the record gives {' and '.join(record['winners'])}"
            )
        checked.append("the winner of the game")
    else:
        unchecked.append('the winner of the game (no "GAME OVER." line found)')

    # The audit list of decks.
    decks = dict(
        re.findall(
            r"(?m)^\s*Hand\s+(\d+): ((?:[A-Z][a-z]+, )+[A-Z][a-z]+)\s*$",
            readable.split("For the audit", 1)[1] if "For the audit" in readable else "",
        )
    )
    if decks:

        def order(item: tuple[str, Any]) -> int:
            return int(item[0]) if item[0].isdigit() else 0

        for number, hand in sorted(record["hands"].items(), key=order):
            listed = decks.get(str(int(number))) if number.isdigit() else None
            if listed is None:
                problems.append(f"hand {number}: its deck is missing from the report's audit list")
            elif listed.split(", ") != hand["deck"]:
                problems.append(
                    f"hand {number}: the audit list in the report's text does not show the deck "
                    f"of the record ({listed})"
                )
        checked.append(f"the {len(decks)} decks of the audit list")
    else:
        unchecked.append("the audit list of decks (not found)")

    # The tokens table.
    table = ""
    if "Tokens of affection" in readable:
        table = readable.split("Tokens of affection", 1)[1].split("\n\n")[0]
    rows = {}
    for name in players:
        row = re.search(rf"(?m)^  {re.escape(name)}\s+(\d+)\b", table)
        if row:
            rows[name] = int(row.group(1))
    if rows:
        for name, n in zip(players, record["tokens"]):
            if rows.get(name) != n:
                problems.append(
                    f"the report's text gives {name} {rows.get(name, 'no')} token(s) of "
                    f"affection; the record gives {n}"
                )
        checked.append("the tokens of affection")
    else:
        unchecked.append("the tokens of affection (table not found)")

    # The results of the hands ended in the last turn.
    last = record["turns"][-1] if record["turns"] else {"events": []}
    ended = {e.get("hand"): e.get("winners") for e in last.get("events", []) if e.get("kind") == "ended"}
    blocks = dict(re.findall(r"(?ms)^Hand (\d+) -- ended this turn\n(.*?)(?=^\S|\Z)", readable))
    for hand, winners in sorted(ended.items(), key=lambda kv: kv[0] if isinstance(kv[0], int) else 0):
        block = blocks.get(str(hand))
        told = _hand_winners_said(block or "")
        if told is None:
            unchecked.append(f"hand {hand}'s result (not found in the text)")
            continue
        want = (
            [players[s] for s in winners if isinstance(s, int) and 0 <= s < len(players)]
            if isinstance(winners, list)
            else []
        )
        if sorted(_split_names(told)) != sorted(want):
            problems.append(
                f"turn {last.get('turn')}, hand {hand}: the report's text says {told} "
                f"won the hand; the record gives {' and '.join(want) or 'nobody'}"
            )
    if ended:
        checked.append(f"the winners of the {len(ended)} hand(s) ended in the last turn")
    unchecked.append(
        "the rest of the readable text (the plays of the last turn, discards, notes): "
        "only the record block is proven, so rely on it, not on the prose"
    )
    return problems, checked, unchecked


#: How the public report says who won a hand (templates/_events.txt.j2, macro ``ended``): the last
#: player left "is the last player in the hand and wins it"; after an empty pile, "Winner(s): ...".
_HAND_WON = re.compile(
    r"(?m)(?:^\s*(?P<last>\S.*?) is the last player in the hand and wins it\b"
    r"|(?:^|\s)Winners?: (?P<named>.+?)\.\s*$)"
)


def _hand_winners_said(block: str) -> str | None:
    """The names the report's text gives as the winners of one ended hand, or None."""
    found = _HAND_WON.search(block)
    if found is None:
        return None
    return found.group("last") or found.group("named")


def _split_names(text: str) -> list[str]:
    return [n.strip() for n in re.split(r",\s*|\s+and\s+", text) if n.strip()]
