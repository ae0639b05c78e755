"""Seats: who held each seat from which turn to which, the standby players a GM
keeps for ``pbem replace --standby``, and civil disorder (a seat whose holder
missed several postal turns in a row).

``campaign.yaml`` (or the GM's ``pbem.yaml``) may hold::

    civil_disorder:
      after_turns: 2    # the GM is told after 2 postal turns in a row with missed hands
      mark: false       # true: the public report also says the seat is in civil disorder
    standby:            # offered, first one first, by `pbem replace DIR SEAT --standby`
      - {name: Dora, email: dora@example.org}

A *missed turn* is a postal turn in which the seat's holder had hands to play
and sent no valid order for at least one of them (played by the NMR default or
by the proxy), unless they were away that day (an announced absence). Turns in
which they had no hand to play, or were away, neither count nor break the run.
A turn with every order in ends it.

*Tenures* (``seats.json``, written by ``pbem replace``): per seat, the people
who held it, ``{"name", "email", "from", "to"}`` (postal turns, both counted;
``to`` null for the holder now). A campaign with no ``seats.json`` has one
tenure per seat, the player of ``campaign.yaml`` from turn 1. The final record
carries the names and turns (never the addresses) when a seat changed hands.

Everything here is pure but :func:`read_facts`, :func:`status` and
:func:`draft_gm_notices`, which read the store or draft mail.
"""

from __future__ import annotations

from datetime import date, datetime, tzinfo
from typing import Any

from .config import CampaignConfig, ConfigError
from .store import EVENTS, STATE, TURN_ORDERS, CampaignStore
from .tuples import NamedTuple

#: The statuses of an order record that mean "no valid order from the player".
MISSED = ("nmr", "proxy")


# -- settings ------------------------------------------------------------------------------------------


class DisorderPolicy(NamedTuple):
    after_turns: int | None = None  # None: the GM is never told
    mark: bool = False


def parse_disorder(data: Any) -> DisorderPolicy:
    """The ``civil_disorder:`` section, validated (off when there is none)."""
    if data is None:
        return DisorderPolicy()
    where = "campaign.yaml: civil_disorder"
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must be a mapping (after_turns, mark), e.g. {{after_turns: 2}}")
    unknown = sorted(map(str, set(data) - {"after_turns", "mark"}))
    if unknown:
        raise ConfigError(f"{where}: unknown setting {unknown[0]!r} (after_turns, mark)")
    after = data.get("after_turns")
    if isinstance(after, bool) or not isinstance(after, int) or not 1 <= after <= 20:
        raise ConfigError(
            f"{where}.after_turns: a whole number of postal turns from 1 to 20, not {after!r:.40}"
        )
    mark = data.get("mark", False)
    if not isinstance(mark, bool):
        raise ConfigError(f"{where}.mark: true or false, not {mark!r:.40}")
    return DisorderPolicy(after, mark)


def parse_standby(data: Any) -> list[dict[str, str]]:
    """The ``standby:`` list, validated: ``[{"name", "email"}]`` in the GM's order."""
    if data is None:
        return []
    where = "campaign.yaml: standby"
    if not isinstance(data, list):
        raise ConfigError(f"{where}: must be a list, e.g. - {{name: Dora, email: dora@example.org}}")
    out = []
    for i, entry in enumerate(data, 1):
        name = entry.get("name") if isinstance(entry, dict) else None
        email = entry.get("email") if isinstance(entry, dict) else None
        if not (isinstance(name, str) and name.strip() and isinstance(email, str) and "@" in email):
            raise ConfigError(f"{where}[{i}]: must be {{name: ..., email: ...}} with a name and an address")
        out.append({"name": name.strip(), "email": email.strip()})
    return out


# -- tenures -------------------------------------------------------------------------------------------


def tenures(saved: dict[str, Any], people: list[tuple[str, str]]) -> list[list[dict[str, Any]]]:
    """Each seat's tenures: those of ``seats.json`` (``saved``), else one per seat,
    ``people`` ((name, email) in seating order) from turn 1."""
    kept = saved.get("tenures")
    if isinstance(kept, list) and len(kept) == len(people):
        return [[dict(t) for t in seat] for seat in kept]
    return [[{"name": n, "email": e, "from": 1, "to": None}] for n, e in people]


def hand_over(
    seats: list[list[dict[str, Any]]], seat: int, turn: int, name: str, email: str, *, same_person: bool
) -> list[list[dict[str, Any]]]:
    """The seat given to ``name`` from postal turn ``turn`` (the awaited one) on.
    ``same_person``: the holder keeps the seat under a new name or address (one
    tenure still); else a new tenure starts, and a holder who never played a turn
    of it (their ``from`` is ``turn``) is dropped."""
    out = [[dict(t) for t in s] for s in seats]
    mine = out[seat]
    last = mine[-1]
    if same_person or last["from"] >= turn:
        mine[-1] = {**last, "name": name, "email": email}
        if same_person and name != last["name"]:  # the names the turns on file knew them by
            mine[-1]["aka"] = sorted({*last.get("aka", []), last["name"]} - {name})
    else:
        last["to"] = turn - 1
        mine.append({"name": name, "email": email, "from": turn, "to": None})
    return out


def holder_at(seat: list[dict[str, Any]], turn: int) -> dict[str, Any]:
    """The tenure of a seat that covers ``turn`` (the latest one when none does)."""
    for tenure in seat:
        if tenure["from"] <= turn and (tenure["to"] is None or turn <= tenure["to"]):
            return tenure
    return seat[-1]


def public_tenures(seats: list[list[dict[str, Any]]]) -> list[list[dict[str, Any]]] | None:
    """The tenures for the final record (names and turns only), or None when no seat
    changed hands (the record then stays as pbem before tenures wrote it)."""
    if all(len(s) == 1 for s in seats):
        return None
    return [[{"name": t["name"], "from": t["from"], "to": t["to"]} for t in s] for s in seats]


def tenure_problems(record: dict[str, Any]) -> list[str]:
    """What is wrong with a record's ``seats`` (its tenures), when it has them: each
    seat's holders follow one another from turn 1, the last one is the seat's player."""
    seats = record.get("seats")
    if seats is None:
        return []
    players = record.get("players") or []
    if not isinstance(seats, list) or len(seats) != len(players):
        given = len(seats) if isinstance(seats, list) else "no"
        return [f"the record's seats list {given} seats, not {len(players)}"]
    problems = []
    for i, seat in enumerate(seats):
        expect = 1
        ok = isinstance(seat, list) and bool(seat)
        for j, t in enumerate(seat if ok else []):
            last = j == len(seat) - 1
            good = (
                isinstance(t, dict)
                and isinstance(t.get("name"), str)
                and t.get("from") == expect
                and (t.get("to") is None if last else isinstance(t.get("to"), int) and t["to"] >= expect)
            )
            if not good:
                ok = False
                break
            expect = t["to"] + 1 if not last else expect
        if not ok:
            problems.append(f"seat {i + 1}: its holders in the record do not follow one another from turn 1")
        elif seat[-1]["name"] != players[i]:
            problems.append(
                f"seat {i + 1}: its last holder is {seat[-1]['name']}, the record's player {players[i]}"
            )
    return problems


# -- what each turn shows ----------------------------------------------------------------------------


class TurnFacts(NamedTuple):
    """One resolved postal turn, seat by seat (seats are numbers from 0)."""

    turn: int
    day: date | None  # the day it was resolved, in the campaign's zone
    hands: dict[int, int]  # seat -> hands it had to play
    missed: dict[int, int]  # seat -> hands played for it (NMR default or proxy)
    hands_won: dict[int, int]  # seat -> hands it won this turn
    winners: tuple[int, ...]  # the game's winners, when it ended this turn
    tokens: tuple[int, ...]  # every seat's tokens after the turn


#: The public events the facts are made of, read in their stored form (no card is restored).
KINDS = ("ended", "game_over", "tokens", "card_tokens")


def facts_of(
    turn: int,
    records: dict[str, Any],
    players: list[str] | dict[str, int],
    events: list[dict[str, Any]],
    tokens: list[int] | tuple[int, ...],
    day: date | None,
) -> TurnFacts:
    """A turn's facts from its order records (hand -> {"player", "status"}), the
    seat names then (a list in seating order, or name -> seat), its public events
    of :data:`KINDS` (as stored: dicts) and the tokens after it."""
    seat_of = players if isinstance(players, dict) else {n: i for i, n in enumerate(players)}
    hands: dict[int, int] = {}
    missed: dict[int, int] = {}
    for record in records.values():
        seat = seat_of.get(record.get("player", ""))
        if seat is None:
            continue
        hands[seat] = hands.get(seat, 0) + 1
        if record.get("status") in MISSED:
            missed[seat] = missed.get(seat, 0) + 1
    won: dict[int, int] = {}
    winners: tuple[int, ...] = ()
    for e in events:
        if e["kind"] == "ended":
            for seat in e["winners"]:
                won[seat] = won.get(seat, 0) + 1
        elif e["kind"] == "game_over":
            winners = tuple(e["winners"])
    return TurnFacts(turn, day, hands, missed, won, winners, tuple(tokens))


def read_facts(
    store: CampaignStore, seats: list[list[dict[str, Any]]], zone: tzinfo | None = None
) -> list[TurnFacts]:
    """Every resolved turn's facts. From what the players were shown: the public
    events (hands won, tokens) and, of the orders resolved, only which hands were
    played for whom (the public report says it too); the seats' names from the
    tenures. With ``zone`` (the GM's view), the day each turn was resolved, for
    the turns spent away, and the names of a turn on file from before the tenures
    were kept: both from the turn's state, read only when they are needed."""
    absences = store.read_absences() if zone is not None else []
    tokens = [0] * len(seats)
    out = []
    for t in store.turns():
        if t == 0:
            continue
        seat_of: dict[str, int] = {}
        for i, held in enumerate(seats):
            tenure = holder_at(held, t)
            for name in [tenure["name"], *tenure.get("aka", [])]:
                seat_of.setdefault(name, i)
        events = [e for e in store.read_json(t, EVENTS) if e.get("kind") in KINDS]
        for e in events:
            if e["kind"] == "tokens":
                for seat, _hand in e["won"]:
                    tokens[seat] += 1
            elif e["kind"] == "card_tokens":
                for seat, *_rest in e["gained"]:
                    tokens[seat] += 1
        records = {
            h: {"player": r.get("player"), "status": r.get("status")}
            for h, r in store.read_json(t, TURN_ORDERS).items()
        }
        day = None
        unknown = any(r["player"] not in seat_of for r in records.values())
        if zone is not None and (absences or unknown):
            state = store.read_json(t, STATE)
            opened = state.get("opened_at")
            day = datetime.fromisoformat(opened).astimezone(zone).date() if opened else None
            for i, name in enumerate(state["players"]):
                seat_of.setdefault(name, i)
        out.append(facts_of(t, records, seat_of, events, tokens, day))
    return out


def away_in(absences: list[dict[str, Any]], name: str, day: date | None) -> bool:
    from .absence import away_on

    return day is not None and name in away_on(absences, day)


def missed_run(
    facts: list[TurnFacts], seat: int, tenure: dict[str, Any], absences: list[dict[str, Any]]
) -> tuple[int, int]:
    """The run of missed turns that ends the facts, for ``seat`` under ``tenure``:
    (how many, the first turn of the run; 0 when there is none)."""
    count, first = 0, 0
    for f in reversed(facts):
        if f.turn < tenure["from"] or (tenure["to"] is not None and f.turn > tenure["to"]):
            break
        if not f.hands.get(seat) or away_in(absences, tenure["name"], f.day):
            continue
        if not f.missed.get(seat):
            break
        count, first = count + 1, f.turn
    return count, first


class Disorder(NamedTuple):
    seat: int
    player: str
    turns: int  # missed turns in a row
    since: int  # the first of them


def in_disorder(
    facts: list[TurnFacts],
    seats: list[list[dict[str, Any]]],
    absences: list[dict[str, Any]],
    policy: DisorderPolicy,
) -> list[Disorder]:
    """The seats whose holder now has missed ``after_turns`` turns in a row or more
    (counted in their own tenure only)."""
    if policy.after_turns is None or not facts:
        return []
    out = []
    for seat, held in enumerate(seats):
        tenure = held[-1]  # the holder now: a standby who took the seat starts afresh
        count, first = missed_run(facts, seat, tenure, absences)
        if count >= policy.after_turns:
            out.append(Disorder(seat, tenure["name"], count, first))
    return out


# -- the campaign's side: status, the GM's notice, the standby --------------------------------------


def _seats(store: CampaignStore, config: CampaignConfig) -> list[list[dict[str, Any]]]:
    return tenures(store.read_seats(), [(p.name, p.email) for p in config.players])


def status(
    store: CampaignStore, config: CampaignConfig, zone: tzinfo | None, facts: list[TurnFacts] | None = None
) -> dict[str, Any]:
    """What ``pbem status`` shows: the seats in civil disorder (with the setting's
    threshold), the first standby, and the seats that changed hands."""
    policy = parse_disorder(config.extra.get("civil_disorder"))
    standby = parse_standby(config.extra.get("standby"))
    seats = _seats(store, config)
    facts = read_facts(store, seats, zone) if facts is None and policy.after_turns else facts or []
    found = in_disorder(facts, seats, store.read_absences(), policy)
    return {
        "civil_disorder": [d._asdict() for d in found],
        "civil_disorder_after": policy.after_turns,
        "civil_disorder_marked": policy.mark,
        "standby": standby[0] if standby else None,
        "standby_count": len(standby),
        "tenures": [[{k: t[k] for k in ("name", "from", "to")} for t in s] for s in seats if len(s) > 1],
    }


def marked(
    store: CampaignStore, config: CampaignConfig, zone: tzinfo | None, turn_facts: TurnFacts
) -> list[str]:
    """The players whose seat the public report of this turn (``turn_facts``, not on
    file yet) says is in civil disorder (``mark: true``): their names, nothing more."""
    policy = parse_disorder(config.extra.get("civil_disorder"))
    if not policy.mark or policy.after_turns is None:
        return []
    seats = _seats(store, config)
    facts = [f for f in read_facts(store, seats, zone) if f.turn < turn_facts.turn] + [turn_facts]
    return [d.player for d in in_disorder(facts, seats, store.read_absences(), policy)]


def draft_gm_notices(
    store: CampaignStore, config: CampaignConfig, zone: tzinfo | None, campaign: str, folder: str
) -> list[str]:
    """After a resolution: a notice to the GM for each seat that has reached the
    run of missed turns (once per run); the draft ids."""
    from .notices import draft_to_gm
    from .outbox import Outbox
    from .reports import Renderer

    policy = parse_disorder(config.extra.get("civil_disorder"))
    gm = config.gm
    if policy.after_turns is None or gm is None or not gm.email:
        return []
    seats = _seats(store, config)
    facts = read_facts(store, seats, zone)
    saved = store.read_seats()
    told = dict(saved.get("told") or {})
    standby = parse_standby(config.extra.get("standby"))
    outbox = Outbox(store.root)
    renderer = Renderer(store.templates_dir())
    drafted = []
    for d in in_disorder(facts, seats, store.read_absences(), policy):
        key = f"{d.seat}/{d.player}/{d.since}"
        if key in told:
            continue
        body = renderer.render(
            "civil_disorder.txt.j2",
            {
                "campaign": campaign,
                "title": config.title,
                "folder": folder,
                "player": d.player,
                "seat": d.seat + 1,
                "turns": d.turns,
                "since": d.since,
                "after": policy.after_turns,
                "mark": policy.mark,
                "standby": standby[0] if standby else None,
            },
        )
        draft_id = f"gm-disorder-t{facts[-1].turn:03d}-seat{d.seat + 1}"
        subject = f"[{campaign}] {d.player} missed {d.turns} turns in a row"
        draft_to_gm(outbox, draft_id, gm, subject=subject, body=body, turn=facts[-1].turn)
        told[key] = facts[-1].turn
        drafted.append(draft_id)
    if drafted:
        store.write_seats({**saved, "told": told})
    return drafted


def take_standby(config: CampaignConfig) -> tuple[dict[str, str], list[dict[str, str]]]:
    """The first standby player and the list left after them; a clear error when there is none."""
    standby = parse_standby(config.extra.get("standby"))
    if not standby:
        raise ConfigError(
            "campaign.yaml has no standby: list; add one (- {name: Dora, email: dora@example.org}) "
            "or give --name and --email"
        )
    return standby[0], standby[1:]


def draft_welcome(
    store: CampaignStore,
    config: CampaignConfig,
    *,
    campaign: str,
    seat: int,
    before: str,
    turn: int,
    deadline: str,
    code: str,
) -> str | None:
    """A notice to the player who now holds ``seat`` (``before`` held it): the
    draft's id, None when the campaign has no GM address to send it from."""
    from .outbox import Outbox, make_message, seat_part
    from .reports import Renderer

    gm = config.gm
    if gm is None or not gm.email:
        return None
    person = config.players[seat]
    body = Renderer(store.templates_dir()).render(
        "seat_taken.txt.j2",
        {
            "player": person.name,
            "title": config.title,
            "campaign": campaign,
            "seat": seat + 1,
            "before": before,
            "turn": turn,
            "deadline": deadline,
            "code": code,
        },
    )
    outbox = Outbox(store.root)
    used = {e.get("draft") for e in outbox.known_ids().values()}
    n = 1
    while (
        outbox.has(f"seat-t{turn:03d}-{n}-{seat_part(seat)}")
        or f"seat-t{turn:03d}-{n}-{seat_part(seat)}" in used
    ):
        n += 1
    draft_id = f"seat-t{turn:03d}-{n}-{seat_part(seat)}"
    message_id = outbox.message_id(draft_id, gm.email)
    raw = make_message(
        sender_name=gm.name,
        sender=gm.email,
        to_name=person.name,
        to=person.email,
        subject=f"[{campaign}] Turn {turn}: you take seat {seat + 1}",
        body=body,
        message_id=message_id,
    )
    outbox.add(
        draft_id, raw, message_id=message_id, kind="notice", turn=turn, to=person.email, player=person.name
    )
    return draft_id
