"""A game players can verify: commitments at the start, the record at the end.

At the start the opening report publishes, for every hand, the SHA-256 of a
secret salt and that hand's deck order, and the SHA-256 of a salt and the seed
that drives every random default. Nobody can read the decks from them, and the
GM cannot change a deck or the seed afterwards without changing them.

At the end the final report carries the *record*: every deck, salt and
set-aside card, the seed, and every turn's orders (or "no orders": NMR) with
the public events and tokens that followed; when a seat changed hands
(``pbem replace``), ``seats`` says who held it from which turn to which (names
only; a record without it is read as before: one holder per seat). :func:`verify` checks the decks and
seed against the commitments and replays the whole game through the engine
from them: every reported result must follow from the rules.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from . import events as ev
from .cards import Card, card_named
from .engine import Game, Order, derive_secret, resolve_turn
from .seats import public_tenures, tenure_problems
from .store import EVENTS, STANDING, STATE, TURN_ORDERS, CampaignStore
from .tuples import NamedTuple

BEGIN = "-----BEGIN PBEM RECORD-----"
END = "-----END PBEM RECORD-----"

if TYPE_CHECKING:  # the email package loads when a report file is read
    import email.message


def salt(seed: str, what: str) -> str:
    return derive_secret(seed, f"salt/{what}")[:32]


def deck_commitment(salt_hex: str, deck: list[str]) -> str:
    return hashlib.sha256(f"{salt_hex}:{','.join(deck)}".encode()).hexdigest()


def seed_commitment(salt_hex: str, seed: str) -> str:
    return hashlib.sha256(f"{salt_hex}:seed:{seed}".encode()).hexdigest()


def commitments(seed: str, game: Game) -> dict[str, str]:
    """Hand number (as text) -> commitment; "seed" -> the seed's commitment."""
    out = {
        str(h.number): deck_commitment(salt(seed, str(h.number)), [c.title for c in h.deck])
        for h in game.hands
    }
    out["seed"] = seed_commitment(salt(seed, "seed"), seed)
    return out


def build_record(
    campaign: str,
    players: list[str],
    seed: str,
    start: Game,
    turns: list[dict[str, Any]],
    final: Game,
    report: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``turns``: per resolved turn, {"turn", "orders" (hand -> order or None), "events"}.
    ``report``: what the final report's text was rendered with beyond the game
    ("title", the GM's "notes", the "templates" by SHA-256), for verify to render it again."""
    return {
        "version": 2,
        "campaign": campaign,
        "players": players,
        "seed": seed,
        "seed_salt": salt(seed, "seed"),
        "commitments": commitments(seed, start),
        "hands": {
            str(h.number): {
                "deck": [c.title for c in h.deck],
                "salt": salt(seed, str(h.number)),
                "set_aside": h.deck[0].title,
            }
            for h in start.hands
        },
        "turns": turns,
        "tokens": list(final.tokens),
        "winners": [players[s] for s in final.winners],
        **({"report": report} if report is not None else {}),
    }


def game_record(
    store: CampaignStore,
    campaign: str,
    players: list[str],
    seed: str,
    turn: int,
    final: Game,
    events: list[ev.Event],
    records: dict[str, Any],
    standing: Mapping[int, Mapping[int, bool]],
    report: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole game's record for the final report, as ``turn`` (the last) is
    resolved: the earlier turns read back from ``store``, the last from
    ``events``, ``records`` (hand -> order record) and ``standing`` (hand -> seat
    -> discard?), which are not on file yet."""
    start = Game.from_dict(store.read_json(0, STATE)["game"])
    turns = []
    for t in range(1, turn + 1):
        if t == turn:
            recs, evs, tokens = records, events, final.tokens
            stand = {str(h): {str(s): v for s, v in per.items()} for h, per in standing.items()}
        else:
            recs = store.read_json(t, TURN_ORDERS)
            evs = [ev.from_dict(e) for e in store.read_json(t, EVENTS)]
            tokens = store.read_json(t, STATE)["game"]["tokens"]
            stand = store.read_json(t, STANDING) if store.has(t, STANDING) else {}
        entry = {
            "turn": t,
            "orders": {h: (r.get("engine") if r["status"] != "nmr" else None) for h, r in recs.items()},
            "events": [ev.to_dict(e) for e in ev.public(evs)],
            "tokens": list(tokens),
        }
        if stand:
            entry["standing"] = stand
        # The hands whose order named nobody ("the name written is not a player's"): the
        # report says so, and the record keeps only that it did, never the player's words
        # (a public report quotes no player).
        unnamed = sorted((h for h, r in recs.items() if r.get("target_text")), key=int)
        if unnamed:
            entry["unnamed"] = unnamed
        # The hands whose missing order the proxy played: the report marks them so.
        by_proxy = sorted((h for h, r in recs.items() if r.get("status") == "proxy"), key=int)
        if by_proxy:
            entry["proxy"] = by_proxy
        turns.append(entry)
    record = build_record(campaign, players, seed, start, turns, final, report)
    held = public_tenures(store.read_seats().get("tenures") or [[{}]])
    if held is not None:  # a seat changed hands: who held it from which turn (names only)
        record["seats"] = held
    return record


#: The record block's lines, in columns (a mail client re-wraps no line this short).
WIDTH = 76


def record_block(record: dict[str, Any]) -> str:
    """The record as a text block a mail carries intact: its JSON with every
    space and ``>`` written as a JSON escape (``\\u0020``, ``\\u003e``), cut
    in lines of 76 columns. The text holds no space, so a mail client that strips
    the lines, indents them or quotes them with ``>`` loses nothing: reading it
    back drops all white space and quote marks, and gives the same JSON value
    (every space of a compact JSON text is inside a string, where the escape
    means the same)."""
    text = json.dumps(record, ensure_ascii=True, separators=(",", ":"))
    text = text.replace(" ", "\\u0020").replace(">", "\\u003e")
    lines = [text[i : i + WIDTH] for i in range(0, len(text), WIDTH)]
    return "\n".join([BEGIN, *lines, END])


def report_text(raw: bytes | str) -> str:
    """The text of a report from any copy a player holds: a plain file (LF or
    CRLF line ends) or a whole mail message as the tool sent it or a mail client
    saved it (headers re-wrapped, quoted-printable or base64, CRLF), with LF
    line ends whatever the copy."""
    data = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
    if _is_mail(data):
        from email import message_from_bytes
        from email.policy import default

        msg = message_from_bytes(data, policy=default)
        body = msg.get_body(preferencelist=("plain",))
        if body is not None:
            return _lf(_decoded(body))
    return _lf(data.decode("utf-8", "replace"))


def _decoded(part: email.message.Message) -> str:
    """A text part's words: its transfer encoding undone by its header's value
    as written (a client may fold even "Content-Transfer-Encoding:" before its
    value, which Python's own reading then ignores), in its charset."""
    import base64
    import binascii
    import quopri

    cte = " ".join(str(part.get("Content-Transfer-Encoding", "")).split()).lower()
    payload = part.get_payload(decode=False)
    if not isinstance(payload, str):
        return ""
    data = payload.encode("ascii", "surrogateescape")
    try:
        if cte == "base64":
            data = base64.b64decode(re.sub(rb"[^A-Za-z0-9+/=]", b"", data))
        elif cte == "quoted-printable":
            data = quopri.decodestring(data)
    except (binascii.Error, ValueError):
        pass  # not the encoding it says: read as it is
    charset = part.get_content_charset() or "utf-8"
    try:
        return data.decode(charset, "replace")
    except LookupError:  # a charset Python does not know
        return data.decode("utf-8", "replace")


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


_HEADER = re.compile(rb"[!-9;-~]+:")


def _is_mail(data: bytes) -> bool:
    """A whole mail message: header lines (or their folded continuations) up to
    the first empty line, among them From, To, Subject, Date or MIME-Version."""
    head = re.split(rb"\r?\n\r?\n", data[:65536], maxsplit=1)[0]
    lines = re.split(rb"\r?\n", head)
    if not lines or not _HEADER.match(lines[0]):
        return False
    names = set()
    for line in lines:
        if line[:1] in (b" ", b"\t"):
            continue
        if not _HEADER.match(line):
            return False
        names.add(line.split(b":", 1)[0].lower())
    return bool(names & {b"from", b"to", b"subject", b"date", b"mime-version"})


def extract(text: str) -> Any:  # the JSON as written: verify() checks its shape
    """The record of a final report (its text, or a whole .eml as text)."""
    if BEGIN not in text:
        text = report_text(text)
    match = re.search(re.escape(BEGIN) + r"(.*?)" + re.escape(END), _lf(text), re.S)
    if not match:
        raise ValueError("no PBEM RECORD block in this file: give the final report of a finished game")
    raw = [line for line in match.group(1).split("\n") if line.strip()]
    # A quoted copy ("> " before each line) is read as the original.
    data = "".join(re.sub(r"\s+", "", re.sub(r"^[\s>]*", "", line)) for line in raw)
    try:
        record = json.loads(data)
        if isinstance(record, dict) and record.get("version", 1) == 1:
            # pbem before the escaped spaces wrote the JSON as it is, in lines of
            # 76 columns, whose last spaces a mail client may strip: a line
            # shorter than that (the last aside) lost them.
            if all(line.startswith(">") for line in raw):
                raw = [re.sub(r"^> ?", "", line) for line in raw]
            padded = [line.ljust(WIDTH) for line in raw[:-1]] + raw[-1:]
            record = json.loads("".join(padded))
        return record
    except json.JSONDecodeError as e:
        raise ValueError(f"the record block is damaged: {e}") from None
    except RecursionError:
        raise ValueError("the record block nests deeper than any true record: it is damaged") from None


def order_to_json(order: Order | None) -> dict[str, Any] | None:
    """An engine order as JSON: guesses are card names (classic) or numbers (Premium);
    "second" and "look" only for the Cardinal and the Baroness."""
    if order is None:
        return None
    guess = order.guess
    out = {
        "card": order.card.title,
        "target": order.target,
        "guess": guess.title if isinstance(guess, Card) else guess,
    }
    if order.second is not None or order.look is not None:
        out["second"], out["look"] = order.second, order.look
    return out


def order_from_json(data: dict[str, Any] | None) -> Order | None:
    if data is None:
        return None
    guess = data.get("guess")
    return Order(
        cast(Card, card_named(data["card"])),  # a record's cards were checked by name before
        data["target"],
        card_named(guess) if isinstance(guess, str) else guess,
        data.get("second"),
        data.get("look"),
    )


class Replay(NamedTuple):
    """What :func:`replay` found: every problem (none: the game checks out), and
    the game as the rules leave it after the record's last turn with that turn's
    events (all of them, private ones too), from which verify renders the report
    again; ``game`` is None when the decks could not be dealt."""

    problems: list[str]
    game: Game | None
    events: list[ev.Event]


def verify(record: dict[str, Any], opening_commitments: dict[str, str] | None = None) -> list[str]:
    """Every problem found (empty: the game checks out)."""
    return replay(record, opening_commitments).problems


def replay(record: dict[str, Any], opening_commitments: dict[str, str] | None = None) -> Replay:
    """Check the decks and the seed against the commitments and replay every turn."""
    problems = tenure_problems(record)  # the seats' holders, when a seat changed hands
    problems += _commitment_problems(record, opening_commitments)
    decks, deck_problems = _committed_decks(record)
    problems += deck_problems
    if len(decks) < 13:
        return Replay(problems, None, [])
    try:
        game = Game.new(len(record["players"]), decks)
    except ValueError as e:
        return Replay(problems + [f"the decks cannot be dealt: {e}"], None, [])
    game, events = _replay_turns(record, game, problems)
    problems += _ending_problems(record, game)
    return Replay(problems, game, events)


def _commitment_problems(record: dict[str, Any], opening_commitments: dict[str, str] | None) -> list[str]:
    """The record's commitments against the opening report's (when given), and its seed
    against the seed's commitment: one sentence per mismatch."""
    problems: list[str] = []
    commit = record["commitments"]
    if opening_commitments is not None and opening_commitments != commit:
        diff = sorted(
            k for k in set(opening_commitments) | set(commit) if opening_commitments.get(k) != commit.get(k)
        )
        problems.append(f"the commitments differ from the opening report's for: {', '.join(diff)}")
    if seed_commitment(record["seed_salt"], str(record["seed"])) != commit.get("seed"):
        problems.append("the seed does not match its commitment in the opening report")
    return problems


def _committed_decks(record: dict[str, Any]) -> tuple[dict[int, list[Card]], list[str]]:
    """The thirteen hands' decks as cards, and the problems found with them: a deck
    missing, not matching its commitment, with an unknown card (that hand is left
    out), or whose first card is not the set-aside card the record gives."""
    problems: list[str] = []
    commit = record["commitments"]
    decks = {}
    for number in range(1, 14):
        hand = record["hands"].get(str(number))
        if hand is None:
            problems.append(f"hand {number}: no deck in the record")
            continue
        if deck_commitment(hand["salt"], hand["deck"]) != commit.get(str(number)):
            problems.append(f"hand {number}: the deck does not match its commitment in the opening report")
        cards = [card_named(c) for c in hand["deck"]]
        if None in cards:
            problems.append(f"hand {number}: unknown card in the deck")
            continue
        if hand["deck"][0] != hand.get("set_aside"):
            problems.append(
                f"hand {number}: the record gives the set-aside card as the {hand.get('set_aside')}; "
                f"the deck's first card is the {hand['deck'][0]}"
            )
        decks[number] = [c for c in cards if c is not None]  # (none is: checked above)
    return decks, problems


def _replay_turns(record: dict[str, Any], game: Game, problems: list[str]) -> tuple[Game, list[ev.Event]]:
    """Play the record's turns from GAME, appending to PROBLEMS each way a turn differs
    from what the rules give; stop at a turn out of sequence or an order that cannot
    be played. Returns the game after the last turn played and that turn's events."""
    seed = str(record["seed"])
    events: list[ev.Event] = []
    for entry in record["turns"]:
        turn = entry["turn"]
        if game.finished:
            problems.append(f"turn {turn}: the game was already over")
            break
        if turn != game.turn:
            problems.append(f"turn {turn}: expected turn {game.turn}")
            break
        orders = {int(h): order_from_json(o) for h, o in entry["orders"].items()}
        standing = {
            int(h): {int(s): bool(v) for s, v in per.items()} for h, per in entry.get("standing", {}).items()
        }
        try:
            game, events = resolve_turn(game, orders, seed, standing=standing)
        except ValueError as e:
            problems.append(f"turn {turn}: an order cannot be played: {e}")
            break
        problems += _turn_problems(entry, events, game, record["players"])
    return game, events


def _turn_problems(entry: dict[str, Any], events: list[Any], game: Game, players: list[str]) -> list[str]:
    """How the record's ENTRY for one turn differs from its replay (EVENTS, and GAME
    after it): the first public event that differs, and the tokens."""
    # Here, not at the top: the words of a verdict are for `pbem verify` alone, and
    # every `pbem resolve` imports this module for the record (start-up time).
    from .differences import say_difference, say_tokens

    problems = []
    turn = entry["turn"]
    replayed = [ev.to_dict(e) for e in ev.public(events)]
    if replayed != entry["events"]:
        first = next(
            (i for i, (a, b) in enumerate(zip(replayed, entry["events"])) if a != b),
            min(len(replayed), len(entry["events"])),
        )
        got = entry["events"][first] if first < len(entry["events"]) else "nothing"
        want = replayed[first] if first < len(replayed) else "nothing"
        problems.append(say_difference(turn, got, want, players))
    if entry.get("tokens") is not None and entry["tokens"] != game.tokens:
        problems.append(
            f"turn {turn}: the record gives the tokens "
            f"{say_tokens(entry['tokens'], players)}; the rules give "
            f"{say_tokens(list(game.tokens), players)}"
        )
    return problems


def _ending_problems(record: dict[str, Any], game: Game) -> list[str]:
    """The replayed GAME's end against the record's: over, final tokens, winners."""
    from .differences import say_tokens  # (inside, as in _turn_problems: start-up time)

    problems = []
    players = record["players"]
    if not game.finished:
        problems.append("the replayed game is not over at the end of the record")
    if record["tokens"] != game.tokens:
        problems.append(
            f"at the end, the record gives the tokens {say_tokens(record['tokens'], players)}; "
            f"the rules give {say_tokens(list(game.tokens), players)}"
        )
    winners = [players[s] for s in game.winners]
    if record["winners"] != winners:
        said, given = " and ".join(map(str, record["winners"])) or "nobody", " and ".join(winners) or "nobody"
        problems.append(f"the record says {said} won the game; the rules give {given}")
    return problems


def opening_commitments(text: str) -> dict[str, str]:
    """The commitments printed in an opening report ("Hand 3: <hex>", "Seed: <hex>")."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"\s*(?:Hand\s+(\d+)|(Seed)):\s+([0-9a-f]{64})\s*$", line)
        if m:
            out[m.group(1) or "seed"] = m.group(3)
    return out
