"""What `pbem verify` checks around the replay of :mod:`pbem.record`.

* :func:`check_shape`: a record is hostile input (anyone can hand a file to
  `verify`): its shape is checked before anything reads it, so that any input
  gets a clear error, never a traceback.
* :func:`check_readable`: a final report is read by people, not by `verify`;
  the parts of its readable text that the record covers (the hands ended in the
  last turn, the tokens, the winner of the game, the decks of the audit list)
  must say what the record says, and what was not checked is said.
* :func:`check_report`: the whole verdict, in two lists that never overlap:
  what was proven, and what was not.

The words of a difference are :mod:`pbem.differences`'.
"""

from __future__ import annotations

import re
from typing import Any

from . import events as ev
from .cards import card_named
from .errors import PbemError
from .tuples import NamedTuple

MAX_DEPTH = 8  # a true record nests 5 deep (record / turns / turn / events / event / list)
#: Every public event, classic and Premium: what a record's turns may hold.
EVENT_KINDS = frozenset(cls.kind for cls in ev.EVENT_TYPES.values() if cls.audience is None)
#: A Premium Guard's or Bishop's guess: a number (RULES 10.2); the Guard's 1 is refused by the engine.
GUESS_NUMBERS = range(0, 10)


class RecordError(PbemError, ValueError):
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
        aside = hand.get("set_aside")
        _need(isinstance(aside, str), f"{where}.set_aside", "a card name")
        _need(card_named(aside) is not None, f"{where}.set_aside", f"a known card, not {aside!r}")
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
    report = record.get("report")
    if report is not None:
        _need(isinstance(report, dict), "'report'", "an object (title, notes, templates)")
        _need(isinstance(report.get("title"), str), "report.title", "text")
        notes = report.get("notes")
        _need(
            isinstance(notes, list) and all(isinstance(n, str) for n in notes),
            "report.notes",
            "a list of texts",
        )
        templates = report.get("templates")
        _need(
            isinstance(templates, dict) and all(isinstance(v, str) for v in templates.values()),
            "report.templates",
            "an object of template names to SHA-256 digests",
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
            f"a known card, not {order.get('card')!r}",
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
            guess is None
            or (isinstance(guess, str) and card_named(guess) is not None)
            or (isinstance(guess, int) and not isinstance(guess, bool) and guess in GUESS_NUMBERS),
            f"{at}.guess",
            "a known card, a number from 0 to 9 (Premium) or null",
        )
        for key in ("second", "look"):  # the Cardinal's and the Baroness's second player
            value = order.get(key)
            _need(
                value is None
                or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats),
                f"{at}.{key}",
                "a seat number or null",
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
    for key in ("unnamed", "proxy"):
        hands = entry.get(key, [])
        _need(
            isinstance(hands, list) and all(isinstance(h, str) and h.isdigit() for h in hands),
            f"{where}.{key}",
            "a list of hand numbers",
        )


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


# -- the readable text of a final report ------------------------------------------------------------------


def check_readable(text: str, record: dict) -> tuple[list[str], list[str], list[str]]:
    """Compare the readable parts of a final report with its record (already
    checked by the replay). Returns (problems, what was checked, what was not)."""
    readable = text.replace("\r\n", "\n").split("-----BEGIN PBEM RECORD-----", 1)[0]
    problems: list[str] = []
    checked: list[str] = []
    unchecked: list[str] = []
    for check in (_check_game_winner, _check_audit_list, _check_tokens, _check_last_hands):
        check(readable, record, problems, checked, unchecked)
    return problems, checked, unchecked


# Each check below reads one part of the report's READABLE text against the RECORD and appends
# to PROBLEMS each way they disagree, to CHECKED what it compared, to UNCHECKED what it could not
# find (with why); check_readable runs them in the report's order.


def _check_game_winner(
    readable: str, record: dict, problems: list[str], checked: list[str], unchecked: list[str]
) -> None:
    """The winner of the game: the "GAME OVER." line against the record's winners."""
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


def _check_audit_list(
    readable: str, record: dict, problems: list[str], checked: list[str], unchecked: list[str]
) -> None:
    """The audit list of decks ("For the audit", "Hand N: Guard, ..."): each hand's deck
    listed, and listed as the record gives it."""
    decks = dict(
        re.findall(
            r"(?m)^\s*Hand\s+(\d+): ((?:[A-Z][a-z]+, )+[A-Z][a-z]+)\s*$",
            readable.split("For the audit", 1)[1] if "For the audit" in readable else "",
        )
    )
    if not decks:
        unchecked.append("the audit list of decks (not found)")
        return

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


def _check_tokens(
    readable: str, record: dict, problems: list[str], checked: list[str], unchecked: list[str]
) -> None:
    """The "Tokens of affection" table: each player's row against the record's tokens."""
    players = record["players"]
    table = ""
    if "Tokens of affection" in readable:
        table = readable.split("Tokens of affection", 1)[1].split("\n\n")[0]
    rows = {}
    for name in players:
        row = re.search(rf"(?m)^  {re.escape(name)}\s+(\d+)\b", table)
        if row:
            rows[name] = int(row.group(1))
    if not rows:
        unchecked.append("the tokens of affection (table not found)")
        return
    for name, n in zip(players, record["tokens"]):
        if rows.get(name) != n:
            problems.append(
                f"the report's text gives {name} {rows.get(name, 'no')} token(s) of "
                f"affection; the record gives {n}"
            )
    checked.append("the tokens of affection")


def _check_last_hands(
    readable: str, record: dict, problems: list[str], checked: list[str], unchecked: list[str]
) -> None:
    """The results of the hands ended in the last turn: who the text says won each
    ("Hand N -- ended this turn") against the record's last turn's events."""
    players = record["players"]
    last = record["turns"][-1] if record["turns"] else {"events": []}
    ended = {e.get("hand"): e.get("winners") for e in last.get("events", []) if e.get("kind") == "ended"}
    blocks = dict(re.findall(r"(?ms)^Hand (\d+) -- ended this turn\n(.*?)(?=^\S|\Z)", readable))
    found = 0
    for hand, winners in sorted(ended.items(), key=lambda kv: kv[0] if isinstance(kv[0], int) else 0):
        block = blocks.get(str(hand))
        told = _hand_winners_said(block or "")
        if told is None:
            unchecked.append(f"hand {hand}'s result (not found in the text)")
            continue
        found += 1
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
    if found:
        checked.append(f"the winners of the {found} hand(s) ended in the last turn found in the text")


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


# -- the whole verdict: what was proven, what was not ----------------------------------------------------


class Claim(NamedTuple):
    """One thing verify says it proved, or did not: ``subject`` names it (no
    subject is in both lists), ``lines`` the lines of the report's text it covers."""

    subject: str
    words: str
    lines: frozenset[int] = frozenset()


class Verdict(NamedTuple):
    problems: list[str]
    proven: list[Claim]
    unproven: list[Claim]
    turns: int


#: The differences listed one by one; more are counted.
MAX_DIFFERENCES = 12


def check_report(text: str, record: Any, published: dict[str, str] | None = None) -> Verdict:
    """Check a final report (its text with LF line ends, and its record already
    read from it): the record's shape, the decks and the seed against the
    opening commitments (``published``: None when not given), every result by
    replaying the game, and the readable text by rendering it again from the
    record. Raises :class:`RecordError` for a record of the wrong shape."""
    from .record import replay

    check_shape(record)
    result = replay(record, published)
    problems = list(result.problems)
    proven: list[Claim] = []
    unproven: list[Claim] = []
    if published:
        proven.append(
            Claim(
                "the decks", "the 13 decks and the seed match the commitments published in the opening report"
            )
        )
    else:
        unproven.append(
            Claim(
                "the decks",
                "the decks and the seed: without the opening report (--opening FILE), the commitments "
                "compared are this report's own, which whoever wrote it could have fitted to any decks; "
                "give the opening report the players received at the start",
            )
        )
    turns = len(record["turns"])
    if not result.problems:
        proven.append(
            Claim(
                "the record",
                f"every result in the record: replaying its {turns} turns from the decks and the seed "
                f"by the rules gives them all",
            )
        )
    if result.problems or result.game is None:
        every = frozenset(i for i, line in enumerate(_lines(text), 1) if line)
        unproven.append(
            Claim("the readable text", "the readable text: the record itself does not check out", every)
        )
        return Verdict(problems, proven, unproven, turns)
    more, proved, not_proved = prove_readable(text, record, result.game, result.events)
    return Verdict(problems + more, proven + proved, unproven + not_proved, turns)


def prove_readable(
    text: str, record: dict, game: Any, events: list
) -> tuple[list[str], list[Claim], list[Claim]]:
    """The readable text is a rendering of the record: render it again (with
    the shipped templates, when the record names them) and compare every line.
    Returns (problems, proven, unproven)."""
    from .reports import make_environment, template_digests

    lines = _lines(text)
    every = frozenset(i for i, line in enumerate(lines, 1) if line)
    report = record.get("report")
    if not isinstance(report, dict):
        return _partly(
            text,
            record,
            every,
            "the readable text: this record (from an older pbem) does not say how its report was "
            "rendered, so only the parts below were compared with the record; rely on the record",
        )
    shipped = template_digests(make_environment(None), "public.txt.j2")
    named = report["templates"]
    own = sorted(name for name in set(named) | set(shipped) if named.get(name) != shipped.get(name))
    if own:
        listed = ", ".join(f"{name} (SHA-256 {str(named.get(name, 'none'))[:12]})" for name in own)
        return _partly(
            text,
            record,
            every,
            f"the readable text: it was written with templates this pbem does not ship: {listed}; "
            f"the GM's own templates cannot be rendered again here, so only the parts below were "
            f"compared with the record; rely on the record",
        )
    rendered = _lines(_render(record, game, events, report["notes"]))
    plain = _lines(_render(record, game, events, []))
    problems = _differences(rendered, lines)
    # The GM's notes: the lines the notes add to the rendering, where the text has them.
    note_lines: set[int] = set()
    for tag, _i1, _i2, j1, j2 in _opcodes(plain, rendered):
        if tag in ("insert", "replace"):
            note_lines.update(range(j1, j2))
    at_text = {}
    for tag, i1, i2, j1, _j2 in _opcodes(rendered, lines):
        if tag == "equal":
            at_text.update({i1 + k: j1 + k + 1 for k in range(i2 - i1)})
    notes = frozenset(at_text[i] for i in note_lines if i in at_text and rendered[i])
    if problems:
        return (
            problems,
            [],
            [Claim("the readable text", "the readable text: it differs from the record", every)],
        )
    proven = [
        Claim(
            "the readable text",
            f"the readable text: its {len(every - notes)} lines"
            f"{' (the GM' + chr(39) + 's notes aside)' if notes else ''} are, word for word, the "
            f"report the shipped templates render from the record, so every play, discard, result, "
            f"token and winner they tell is the record's, which the replay proved",
            every - notes,
        )
    ]
    unproven = [
        Claim(
            f"line {n}",
            f"line {n}, the GM's note: the GM's own words, which no rule can prove: {lines[n - 1].strip()!r}",
            frozenset({n}),
        )
        for n in sorted(notes)
    ]
    return [], proven, unproven


def _render(record: dict, game: Any, events: list, notes: list) -> str:
    from .record import record_block
    from .reports import Renderer, Table, public_context

    last: dict = record["turns"][-1] if record["turns"] else {"turn": 0}
    table = Table(str(record["campaign"]), str(record["report"]["title"]), list(record["players"]))
    # Which name was written is not in the record: the report only says it named nobody.
    orders = {h: {"target_text": "?"} for h in last.get("unnamed", [])}
    for h in last.get("proxy", []):  # the proxy played the hand's missing order
        orders.setdefault(h, {})["status"] = "proxy"
    context = public_context(table, last["turn"], game, events, notes=notes, deadline="", orders=orders)
    context["record"] = record_block(record)
    return Renderer(None).public(context)


def _lines(text: str) -> list[str]:
    """The lines of a report (numbered as in the file), compared without the
    spaces at their ends (a mail client may add or drop them)."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _opcodes(a: list[str], b: list[str]) -> list:
    import difflib

    return difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()


def _differences(rendered: list[str], lines: list[str]) -> list[str]:
    """Each line of the text that is not the record's rendering, in a sentence."""
    out: list[str] = []
    for tag, i1, i2, j1, j2 in _opcodes(rendered, lines):
        if tag == "equal" or not any(rendered[i1:i2] + lines[j1:j2]):
            continue  # the same, or only empty lines more or fewer: nothing a player reads
        for k in range(max(i2 - i1, j2 - j1)):
            want = rendered[i1 + k] if i1 + k < i2 else None
            got = lines[j1 + k] if j1 + k < j2 else None
            if got is None:
                out.append(
                    f"after line {j2} the report's text lacks a line the record gives: {want.strip()!r}"  # type: ignore[union-attr]
                )
            elif want is None:
                out.append(f"line {j1 + k + 1} of the report's text is not in the record: {got.strip()!r}")
            else:
                out.append(f"line {j1 + k + 1} of the report's text {_say_change(got, want)}")
    if len(out) > MAX_DIFFERENCES:
        out = out[:MAX_DIFFERENCES] + [f"and {len(out) - MAX_DIFFERENCES} more lines differ from the record"]
    return out


def _say_change(got: str, want: str) -> str:
    """ "says 'the Baton' where the record gives 'the Baron' (in: ...)"."""
    a, b = got.strip(), want.strip()
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    while start > 0 and (a[start - 1].isalnum() or a[start - 1] == "'"):  # back to the word's start
        start -= 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    while end > 0 and a[len(a) - end].isalnum():  # on to the word's end
        end -= 1
    said, given = a[start : len(a) - end].strip(), b[start : len(b) - end].strip()
    return (
        f"says {said or 'nothing'!r} where the record gives {given or 'nothing'!r} "
        f"(the line reads {got.strip()!r})"
    )


def _partly(
    text: str, record: dict, every: frozenset[int], why: str
) -> tuple[list[str], list[Claim], list[Claim]]:
    """The readable text of a report that cannot be rendered again: the old checks of some of its parts."""
    problems, checked, unchecked = check_readable(text, record)
    proven = [Claim(f"the readable text: {what}", f"in the readable text, {what}") for what in checked]
    unproven = [Claim(f"the readable text: {what}", f"in the readable text, {what}") for what in unchecked]
    unproven.append(Claim("the readable text", why, every))
    return problems, proven, unproven
