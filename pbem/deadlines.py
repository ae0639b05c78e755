"""Deadlines: when each postal turn's orders are due, in the campaign's time zone.

``campaign.yaml`` may hold::

    deadline:
      timezone: Europe/Paris      # an IANA zone name
      every_days: 3               # a turn lasts this many days ...
      at: "20:00"                 # ... and ends at this local time
      remind_hours: 24            # reminders fall due this long before the deadline
      turns:                      # optional: an explicit deadline for some turns
        1: "2026-12-01 20:00"

The deadline of a turn is, in order: the one the GM set with ``pbem deadline``;
the one ``turns:`` gives; else ``every_days`` after the day the turn opened, at
``at`` local time. Local times are converted with the zone's rules for that
date, so a deadline across a daylight-saving change stays at 20:00 local time.

An unattended ``pbem tick`` does not trust a clock that looks wrong
(:func:`clock_doubt`): earlier than the latest turn's start (by more than
``CLOCK_SLACK``), or more than ``CLOCK_AHEAD_LIMIT`` (30 days) past the
deadline. Thirty days: a server down for a month is a rare outage, and beyond
that a clock set wrong (a year, ten years ahead) is likelier than a game left
alone; resolving a month-old turn with every order an NMR default is the GM's
call, not cron's. The GM says so with ``pbem tick FOLDER --trust-clock``.

A turn's mail that reached the players late (SMTP trouble) moves its deadline
on by the time lost, once that is more than ``LATE_MAIL_GRACE`` (see
:mod:`pbem.tick`).

Pure functions: the clock is always passed in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from types import MappingProxyType
from typing import Any

from .config import ConfigError
from .tuples import NamedTuple

UTC = UTC

CLOCK_AHEAD_LIMIT = timedelta(days=30)
CLOCK_SLACK = timedelta(minutes=10)  # clocks of two machines (or NTP steps) disagree that much
LATE_MAIL_GRACE = timedelta(hours=1)


#: The longest a reminder may come before its deadline: the longest turn (60 days).
MAX_REMIND_HOURS = 60 * 24
#: The years a deadline may fall in: a year 1 (or 9999) is a typing slip, and
#: the arithmetic of time zones overflows at the ends of the calendar.
YEARS = (1970, 9000)


class Schedule(NamedTuple):
    zone: tzinfo  # a ZoneInfo
    every_days: int | None = None
    at: time = time(20, 0)
    remind_hours: float = 24.0
    turns: Mapping[int, datetime] = MappingProxyType({})  # aware, UTC (read only: a default shared)


def parse_schedule(data: Any) -> Schedule | None:
    """The ``deadline:`` section, validated (None when there is none)."""
    if data is None:
        return None
    where = "campaign.yaml: deadline"
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must be a mapping (timezone, every_days, at, remind_hours, turns)")
    zone = _zone(data.get("timezone"), where)
    every = data.get("every_days")
    if every is not None and (isinstance(every, bool) or not isinstance(every, int) or not 1 <= every <= 60):
        raise ConfigError(f"{where}.every_days: a whole number of days from 1 to 60, not {every!r}")
    at = _clock(data.get("at", "20:00"), f"{where}.at")
    remind = data.get("remind_hours", 24)
    if (
        isinstance(remind, bool)
        or not isinstance(remind, (int, float))
        or not 0 <= remind <= MAX_REMIND_HOURS
    ):
        raise ConfigError(  # (NaN fails the comparison too)
            f"{where}.remind_hours: a number of hours from 0 to {MAX_REMIND_HOURS} before the "
            f"deadline, not {remind!r:.40}"
        )
    turns: dict[int, datetime] = {}
    given = data.get("turns") or {}
    if not isinstance(given, dict):
        raise ConfigError(
            f'{where}.turns: a mapping of turn numbers to deadlines, like {{1: "2026-12-01 20:00"}}'
        )
    for key, value in given.items():
        if isinstance(key, bool) or not isinstance(key, int) or key < 1:
            raise ConfigError(f"{where}.turns: keys are turn numbers, not {key!r}")
        turns[key] = parse_when(str(value), zone, now=None, where=f"{where}.turns.{key}")
    if every is None and not turns:
        raise ConfigError(f"{where}: give every_days (a schedule) or turns (explicit deadlines)")
    return Schedule(zone, every, at, float(remind), turns)


def _zone(name: Any, where: str) -> tzinfo:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if not isinstance(name, str) or not name:
        raise ConfigError(f"{where}.timezone: missing; name a time zone such as Europe/Paris")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"{where}.timezone: unknown time zone {name!r} (e.g. Europe/Paris, America/New_York, UTC)"
        ) from None


def _clock(value: Any, where: str) -> time:
    if isinstance(value, int) and not isinstance(value, bool):  # YAML reads 20:00 as 1200 (base 60)
        value = f"{value // 60:02d}:{value % 60:02d}"
    match = re.fullmatch(r"(\d{1,2}):(\d{2})", str(value).strip())
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        raise ConfigError(f'{where}: a time of day like "20:00", not {value!r}')
    return time(int(match[1]), int(match[2]))


def local(moment: datetime, zone: tzinfo) -> datetime:
    return moment.astimezone(zone)


def at_local(day: date, clock: time, zone: tzinfo) -> datetime:
    """``day`` at ``clock`` in ``zone`` as an aware UTC moment. A clock time that
    does not exist that day (skipped by a DST change) moves forward; one that
    exists twice takes the first."""
    naive = datetime.combine(day, clock)
    aware = naive.replace(tzinfo=zone, fold=0)
    # A non-existent local time round-trips to another wall time: move on to it.
    back = aware.astimezone(UTC).astimezone(zone)
    if back.replace(tzinfo=None) != naive:
        aware = back
    return aware.astimezone(UTC)


def scheduled(schedule: Schedule, turn: int, opened_at: datetime) -> datetime | None:
    """The deadline the campaign file gives a turn that opened at ``opened_at``."""
    if turn in schedule.turns:
        return schedule.turns[turn]
    if schedule.every_days is None:
        return None
    opened_day = local(opened_at, schedule.zone).date()
    return at_local(opened_day + timedelta(days=schedule.every_days), schedule.at, schedule.zone)


def parse_when(text: str, zone: tzinfo, now: datetime | None, where: str = "deadline") -> datetime:
    """A deadline as a GM writes it: ``2026-12-01 20:00`` (campaign time zone),
    an ISO time with an offset (``2026-12-01T19:00:00+00:00``), or relative to
    now: ``+2d``, ``+36h``, ``+90m``."""
    text = text.strip()
    relative = re.fullmatch(r"\+\s*(\d+(?:\.\d+)?)\s*([dhm])", text, re.IGNORECASE)
    if relative:
        if now is None:
            raise ConfigError(f"{where}: a relative time ({text}) needs a clock")
        amount = float(relative[1])
        unit = {"d": "days", "h": "hours", "m": "minutes"}[relative[2].lower()]
        try:
            moment = now.astimezone(UTC) + timedelta(**{unit: amount})
        except OverflowError:
            moment = None
        if moment is None or moment.year > YEARS[1]:
            raise ConfigError(f"{where}: {text} is too far in time to be a deadline")
        return moment
    try:
        moment = datetime.fromisoformat(text.replace(" ", "T", 1) if "T" not in text else text)
    except ValueError:
        raise ConfigError(
            f'{where}: {text!r} is not a time; write "2026-12-01 20:00" '
            f"(campaign time zone), an ISO time with offset, or +2d / +36h"
        ) from None
    if not YEARS[0] <= moment.year <= YEARS[1]:
        raise ConfigError(
            f"{where}: {text!r:.60} is not a deadline of this game: the year must be a real one"
        )
    try:
        if moment.tzinfo is None:
            return at_local(moment.date(), moment.time(), zone)
        return moment.astimezone(UTC)
    except OverflowError:
        raise ConfigError(f"{where}: {text!r:.60} is too far in time to be a deadline") from None


def describe(moment: datetime, zone: tzinfo) -> str:
    """``Tuesday 1 December 2026, 20:00 Europe/Paris (19:00 UTC)``."""
    here = local(moment, zone)
    utc = moment.astimezone(UTC)
    text = f"{here:%A} {here.day} {here:%B %Y, %H:%M} {zone}"
    if str(zone) not in ("UTC", "Etc/UTC"):
        utc_text = f"{utc:%H:%M} UTC" if utc.date() == here.date() else f"{utc:%a %d %b %H:%M} UTC"
        text += f" ({utc_text})"
    return text


def time_left(deadline: datetime, now: datetime) -> str:
    """``2 days 3 hours left`` or ``passed 5 hours ago``."""
    delta = deadline - now
    past = delta.total_seconds() < 0
    seconds = abs(int(delta.total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if not days and minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    span = " ".join(parts) or "less than a minute"
    return f"passed {span} ago" if past else f"{span} left"


def clock_doubt(now: datetime, opened_at: datetime, deadline: datetime | None) -> str:
    """Why ``now`` looks wrong for a game whose latest turn opened at
    ``opened_at`` ("" when it looks right): earlier than that, or far past the
    deadline (module doc)."""
    if now < opened_at - CLOCK_SLACK:
        return (
            f"the clock reads {now:%Y-%m-%d %H:%M} UTC, earlier than the start of the latest turn "
            f"({opened_at:%Y-%m-%d %H:%M} UTC)"
        )
    if deadline is not None and now > deadline + CLOCK_AHEAD_LIMIT:
        return (
            f"the clock reads {now:%Y-%m-%d %H:%M} UTC, more than {CLOCK_AHEAD_LIMIT.days} days "
            f"past the deadline ({deadline:%Y-%m-%d %H:%M} UTC)"
        )
    return ""


def is_relative(text: str) -> bool:
    """``+2d``, ``+36h``, ``+90m``: a span rather than a moment."""
    return re.fullmatch(r"\+\s*(\d+(?:\.\d+)?)\s*([dhm])", text.strip(), re.IGNORECASE) is not None


def moved(
    text: str,
    current: datetime | None,
    zone: tzinfo,
    now: datetime,
    *,
    from_now: bool = False,
    earlier: bool = False,
    where: str = "pbem deadline",
) -> datetime:
    """The deadline ``pbem deadline`` sets from ``text``: a relative span extends
    the ``current`` deadline (from ``now`` with ``from_now``, or when there is no
    deadline yet); a result earlier than the current deadline is refused unless
    ``earlier`` (a GM who shortens a turn says so)."""
    base = now if from_now or current is None or not is_relative(text) else current
    moment = parse_when(text, zone, base, where=where)
    if current is not None and moment < current and not earlier:
        raise ConfigError(
            f"{where}: {describe(moment, zone)} is earlier than the current deadline, "
            f"{describe(current, zone)}; to bring the deadline forward, give --earlier"
            + ("" if from_now or not is_relative(text) else " (and --from-now to count from now)")
        )
    return moment


def schedule_section(
    timezone: str | None,
    every_days: int | None = None,
    at: str | None = None,
    remind_hours: float | None = None,
    first: str | None = None,
) -> dict[str, Any] | None:
    """A ``deadline:`` section for ``campaign.yaml`` from ``pbem new``'s options
    (validated with :func:`parse_schedule`); None when no option was given."""
    if every_days is None and at is None and remind_hours is None and first is None:
        if timezone is None:
            return None
    if timezone is None:
        raise ConfigError("pbem new: the deadline settings need --timezone (e.g. --timezone Europe/Paris)")
    section: dict[str, Any] = {"timezone": timezone}
    if every_days is not None:
        section["every_days"] = every_days
    if at is not None:
        section["at"] = at
    if remind_hours is not None:
        section["remind_hours"] = int(remind_hours) if float(remind_hours).is_integer() else remind_hours
    if first is not None:
        section["turns"] = {1: first}
    if every_days is None and first is None:
        raise ConfigError("pbem new: give --every-days (a schedule) or --deadline (the first deadline)")
    parse_schedule(section)
    return section
