"""Absence: a player away for some days (``ABSENT <date> to <date>`` by mail,
``BACK`` to return early; ``pbem absent`` for the GM).

``campaign.yaml`` may hold::

    absence:
      max_days: 31      # the longest absence, in days (both ends counted)
      per_game: 3       # how many absences a player may announce in a game
      then: extend      # extend: a deadline that falls in an absence moves to the
                        # day after it; proxy: the proxy plays the absent player's
                        # missing orders

The records are plain dicts (``{"player", "from", "to", "received", "source"}``,
dates as ISO days) kept in ``absence.json``; every function here is pure: the
day is passed in. Why a player is away is never asked nor kept.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from .config import ConfigError
from .deadlines import at_local
from .tuples import NamedTuple

ACCEPTED = "accepted"
REFUSED = "refused"
EXTEND = "extend"
PROXY = "proxy"


class Policy(NamedTuple):
    max_days: int = 31
    per_game: int = 3
    then: str = EXTEND


def parse_policy(data: Any) -> Policy:
    """The ``absence:`` section, validated (the defaults when there is none)."""
    if data is None:
        return Policy()
    where = "campaign.yaml: absence"
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must be a mapping (max_days, per_game, then)")
    values: dict[str, Any] = {}
    for key, top in (("max_days", 366), ("per_game", 100)):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                raise ConfigError(f"{where}.{key}: a whole number from 1 to {top}, not {value!r:.40}")
            values[key] = value
    if "then" in data:
        if data["then"] not in (EXTEND, PROXY):
            raise ConfigError(
                f"{where}.then: extend or proxy (what happens when a player is away), "
                f"not {data['then']!r:.40}"
            )
        values["then"] = data["then"]
    unknown = set(data) - {"max_days", "per_game", "then"}
    if unknown:
        raise ConfigError(
            f"{where}: unknown setting {sorted(map(str, unknown))[0]!r} (max_days, per_game, then)"
        )
    return Policy(**values)


class Outcome(NamedTuple):
    status: str  # ACCEPTED or REFUSED
    record: dict[str, Any] | None = None
    reason: str = ""


def _span(record: dict[str, Any]) -> tuple[date, date]:
    return date.fromisoformat(record["from"]), date.fromisoformat(record["to"])


def request(
    absences: list[dict[str, Any]],
    player: str,
    start: date,
    end: date,
    policy: Policy,
    today: date,
    received: str = "",
    source: str = "gm",
) -> Outcome:
    """Whether ``player`` may be away from ``start`` to ``end`` (both days counted)."""
    if end < start:
        return Outcome(REFUSED, reason=f"the absence ends before it starts ({start} to {end})")
    if end < today:
        return Outcome(REFUSED, reason=f"the absence is in the past ({start} to {end}; today is {today})")
    days = (end - start).days + 1
    if days > policy.max_days:
        return Outcome(
            REFUSED,
            reason=f"an absence of {days} days is longer than this game allows ({policy.max_days} days)",
        )
    mine = [a for a in absences if a["player"] == player]
    for other in mine:
        a, b = _span(other)
        if a <= end and start <= b:
            return Outcome(REFUSED, reason=f"it overlaps your absence from {a} to {b}")
    if len(mine) >= policy.per_game:
        return Outcome(
            REFUSED,
            reason=f"you have announced {len(mine)} absences already, as many as this game allows "
            f"({policy.per_game} absences)",
        )
    record = {"player": player, "from": start.isoformat(), "to": end.isoformat(), "received": received}
    record["source"] = source
    return Outcome(ACCEPTED, record)


def back(
    absences: list[dict[str, Any]], player: str, today: date
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """``BACK``: the player's absence running today ends yesterday (one that has
    not begun is withdrawn); the new list and the absence ended (None: none)."""
    out = list(absences)
    mine = sorted((i for i, r in enumerate(out) if r["player"] == player), key=lambda i: out[i]["from"])
    for i in mine:
        record = out[i]
        start, end = _span(record)
        if end < today:
            continue
        if start >= today:  # not begun: withdrawn (it no longer counts against per_game)
            del out[i]
            return out, {**record, "to": (today - timedelta(days=1)).isoformat(), "withdrawn": True}
        ended = {**record, "to": (today - timedelta(days=1)).isoformat()}
        out[i] = ended
        return out, ended
    return out, None


def away_on(absences: list[dict[str, Any]], day: date) -> list[str]:
    """The players away on ``day``."""
    out = []
    for record in absences:
        start, end = _span(record)
        if start <= day <= end and record["player"] not in out:
            out.append(record["player"])
    return out


def announced(absences: list[dict[str, Any]], today: date) -> list[dict[str, Any]]:
    """The absences running today or to come, in order (what the report and status show)."""
    return sorted((a for a in absences if _span(a)[1] >= today), key=lambda a: (a["from"], a["player"]))


def extended(deadline: datetime, absences: list[dict[str, Any]], zone: tzinfo) -> datetime:
    """A deadline that falls on a day some player is away moves to the same
    local time on the day after that absence (again, while it falls in one)."""
    moment = deadline
    for _ in range(len(absences) + 1):
        here = moment.astimezone(zone)
        covering = [a for a in absences if _span(a)[0] <= here.date() <= _span(a)[1]]
        if not covering:
            return moment
        last = max(_span(a)[1] for a in covering)
        moment = at_local(last + timedelta(days=1), here.time(), zone)
    return moment


def span_text(record: dict[str, Any]) -> str:
    """``10 to 20 December 2026`` (or ``30 November to 2 December 2026``)."""
    start, end = _span(record)
    if start == end:
        return f"{end.day} {end:%B %Y}"
    if start.year != end.year:
        return f"{start.day} {start:%B %Y} to {end.day} {end:%B %Y}"
    if start.month != end.month:
        return f"{start.day} {start:%B} to {end.day} {end:%B %Y}"
    return f"{start.day} to {end.day} {end:%B %Y}"
