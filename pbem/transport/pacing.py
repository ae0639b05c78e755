"""Sending within a provider's rate: messages a minute, recipients a day.

Providers cap what an account sends: Microsoft 365 30 messages a minute,
Gmail about 500 recipients a day (counted per recipient, over a rolling 24
hours). ``mail.smtp.rate: {per_minute: 30, per_day: 500}`` makes a send keep
within both:

- **per_minute** (messages handed to the server in any 60 seconds): a send
  that reaches it waits until the oldest of them is a minute old, then goes
  on; it never fails for it.
- **per_day** (recipients in any 24 hours): a draft that would pass it is not
  sent; the send stops there, and the drafts left wait in the outbox for the
  next window (:class:`DayFull` names when it frees). They are sent by the next
  ``pbem send`` or tick after that.

What was sent when is kept in :class:`RateRecord`, one JSON line per message
(``at``, ``account``, ``recipients``), appended and fsync'd *before* the message
is handed over, so that a crash never forgets a message the provider counted
(a message refused or retried may count once too often: the safe side). The day
limit so holds across runs, and across the games of a folder, which share one
record (next to ``pbem.yaml``). A line cut short by a crash is skipped; the file
is rewritten without the lines older than a day once they are many.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from filelock import FileLock

from ..errors import MailError
from ..store import fsync_dir, write_atomic

__all__ = ["DayFull", "Pacer", "Rate", "RateRecord"]

MINUTE = timedelta(minutes=1)
DAY = timedelta(days=1)
#: Lines older than a day kept before the record is rewritten without them.
PRUNE_AFTER = 2000


@dataclass(frozen=True)
class Rate:
    """At most ``per_minute`` messages in any minute, ``per_day`` recipients in any 24 hours
    (None: no limit)."""

    per_minute: int | None = None
    per_day: int | None = None

    def describe(self) -> str:
        parts = []
        if self.per_minute:
            parts.append(f"{self.per_minute} messages a minute")
        if self.per_day:
            parts.append(f"{self.per_day} recipients a day")
        return " and ".join(parts) or "no limit"


class DayFull(MailError):
    """The day's recipients are spent: what is left waits until ``frees_at``."""

    def __init__(self, message: str, frees_at: datetime):
        super().__init__(message)
        self.frees_at = frees_at


class RateRecord:
    """What an account sent when (see the module doc): ``path``, the lines of ``account``."""

    def __init__(self, path: Path | str, account: str):
        self.path = Path(path)
        self.account = account
        self._lock = FileLock(str(self.path) + ".lock")

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """One sender at a time reads and adds (the games of a folder share the record)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            yield

    def recent(self, now: datetime) -> list[tuple[datetime, int]]:
        """(when, recipients) of this account's messages of the last 24 hours."""
        if not self.path.exists():
            return []
        out = []
        old = 0
        for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                entry = json.loads(line)
                at = datetime.fromisoformat(entry["at"])
                count = int(entry["recipients"])
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a crash, or not ours
            if at <= now - DAY:
                old += 1
            elif entry.get("account") == self.account:
                out.append((at, count))
        if old > PRUNE_AFTER:
            self._prune(now)
        return out

    def add(self, at: datetime, recipients: int) -> None:
        """Append one message, durably, before it is handed over."""
        line = json.dumps({"at": at.isoformat(), "account": self.account, "recipients": recipients})
        new = not self.path.exists()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, (line + "\n").encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        if new:
            fsync_dir(self.path.parent)

    def _prune(self, now: datetime) -> None:
        keep = []
        for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                if datetime.fromisoformat(json.loads(line)["at"]) > now - DAY:
                    keep.append(line + "\n")
            except (ValueError, KeyError, TypeError):
                continue
        write_atomic(self.path, "".join(keep))


class Pacer:
    """Lets each message go when the rate allows (see the module doc).

    ``clock()`` is the moment (aware datetime); ``sleep(seconds)`` waits (both
    injectable: a test's clock moves when its sleep is called). ``waits`` lists
    each wait for a minute's window, in seconds, for the send to say so."""

    def __init__(
        self,
        rate: Rate,
        record: RateRecord,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        on_wait: Callable[[float], None] | None = None,
    ):
        self.rate = rate
        self.record = record
        self.clock = clock
        self.sleep = sleep
        self.on_wait = on_wait
        self.waits: list[float] = []
        self._turn = asyncio.Lock()

    async def admit(self, recipients: int) -> None:
        """Return when one message to ``recipients`` may go (it is then recorded);
        raise :class:`DayFull` when the day's recipients would be passed."""
        async with self._turn:
            while True:
                wait = await asyncio.to_thread(self._try, recipients)
                if wait <= 0:
                    return
                self.waits.append(wait)
                if self.on_wait is not None:
                    self.on_wait(wait)
                await self.sleep(wait)

    def _try(self, recipients: int) -> float:
        """Record the message and return 0 if it may go now; else the seconds to wait."""
        with self.record.locked():
            now = self.clock()
            recent = self.record.recent(now)
            per_day, per_minute = self.rate.per_day, self.rate.per_minute
            if per_day:
                spent = sum(n for _, n in recent)
                if spent and spent + recipients > per_day:
                    frees = min(at for at, _ in recent) + DAY
                    raise DayFull(
                        f"the day's limit of {per_day} recipients (mail.smtp.rate.per_day) is reached "
                        f"({spent} in the last 24 hours); the rest waits until "
                        f"{frees.astimezone(UTC):%Y-%m-%d %H:%M} UTC",
                        frees,
                    )
            if per_minute:
                last_minute = sorted(at for at, _ in recent if at > now - MINUTE)
                if len(last_minute) >= per_minute:
                    frees = last_minute[len(last_minute) - per_minute] + MINUTE
                    return max((frees - now).total_seconds(), 0.001)
            self.record.add(now, recipients)
            return 0.0
