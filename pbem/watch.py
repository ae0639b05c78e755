"""``pbem watch DIR``: stay connected, answer each mail as it arrives, keep the clock's duties.

DIR is one campaign or a GM's folder of campaigns. For every IMAP mailbox the
games read (one, usually: the GM's), a :class:`~pbem.transport.idle.Doorbell`
keeps a connection in IMAP IDLE and rings when mail comes. Then, between
batches, this loop:

- **fetches** the games of that mailbox with one call, :data:`FetchStep`
  (for a GM's folder the routed fetch of ``pbem fetch FOLDER``,
  :func:`fetch_routed`; for one campaign its own fetch, :func:`fetch_games`),
  then runs the tick's steps without a fetch (:func:`pbem.tick.tick` with
  ``fetch=False``) for each game that got mail, so
  the acknowledgements that ``auto_send`` allows go at once;
- runs the **tick's timers** (reminders, deadlines, ``auto_send``) for every
  game at least once every ``timers_every`` seconds (60); a game without IMAP
  (its Maildir) is fetched there too, and a game whose fetch failed is fetched
  again there. In a GM's folder, a game found quiet by an earlier tick, and unchanged
  since, is not read (:mod:`pbem.quiet`, the notes ``pbem tick FOLDER`` keeps too).

Everything that reads or sends goes through the paths ``pbem fetch`` and
``pbem tick`` use, with their ledgers and locks, so a watch killed at any point
(SIGKILL, power cut) and started again neither loses nor doubles a message,
and a cron ``pbem tick`` beside it does no harm. SIGTERM and Ctrl-C
(:func:`stop_on_signals`) stop it between batches.
"""

from __future__ import annotations

import contextlib
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import gmfolder
from .campaign import Campaign, system_clock
from .gmfolder import Done
from .store import StoreError

if TYPE_CHECKING:
    from .quiet import QuietBook
    from .transport.imap import ImapSettings

#: Fetch the games given; one :class:`~pbem.gmfolder.Done` per game, its value the
#: list of :class:`pbem.inbox.Outcome` (the messages read), or its error.
FetchStep = Callable[[list[Path]], Iterable[Done]]

TIMERS_EVERY = 60.0


def fetch_games(games: list[Path]) -> Iterable[Done]:
    """The fetch step of one campaign: each game's own fetch (``pbem fetch GAME``)."""
    return gmfolder.each_of(games, gmfolder.fetch)


def fetch_routed(folder: Path) -> FetchStep:
    """The fetch step of a GM's folder: ``pbem fetch FOLDER``'s one fetch per shared
    account, each message routed to its game (:func:`pbem.gmfolder.fetch_folder`),
    acknowledgements left to each game's tick. Every game that got mail or failed
    is told, whichever mailbox rang."""

    def step(games: list[Path]) -> Iterator[Done]:
        fetched = gmfolder.fetch_folder(folder, acknowledge=False)
        for name in sorted(set(fetched.outcomes) | set(fetched.errors)):
            if name in fetched.errors:
                yield Done(name, folder / name, error=fetched.errors[name])
            else:
                yield Done(name, folder / name, value=fetched.outcomes[name])

    return step


def _mailbox_of(campaign: Campaign) -> tuple[str, Any] | None:
    """(name, IMAP settings) of the mailbox a game reads, or None for its Maildir."""
    from .postoffice import imap_settings

    settings = imap_settings(campaign.config)
    if settings is None:
        return None
    return f"{settings.user} on {settings.host}:{settings.port}/{settings.folder}", settings


class Watch:
    """The loop of ``pbem watch`` (see the module doc); ``run()`` until :meth:`request_stop`.

    ``fetch`` is the fetch step (:data:`FetchStep`); ``log(line)`` is told, in
    short lines, what is done; ``doorbell`` holds the doorbells' options
    (``renew``, ``poll``, ``backoff``, ``max_backoff``)."""

    def __init__(
        self,
        folder: Path | str,
        log: Callable[[str], None],
        *,
        fetch: FetchStep | None = None,
        timers_every: float = TIMERS_EVERY,
        clock: Callable[[], float] = time.monotonic,
        doorbell: dict[str, float] | None = None,
    ):
        self.folder = Path(folder)
        self._log_lock = threading.Lock()
        self._log = log
        if fetch is None:  # a GM's folder: one fetch per shared account, routed; a campaign: its own
            fetch = fetch_games if gmfolder.is_campaign(self.folder) else fetch_routed(self.folder)
        self.fetch = fetch
        self.timers_every = timers_every
        self.clock = clock
        self.doorbell_options = doorbell or {}
        self.stop = threading.Event()
        self.rung: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.doorbells: dict[str, Any] = {}
        self.games: list[Path] = []
        self.mailbox: dict[Path, str | None] = {}  # game -> its doorbell's name (None: Maildir)
        self.refetch: set[Path] = set()  # games whose last fetch failed
        self.said: dict[tuple[Path, str], str] = {}  # what was last said of a game, to say it once
        self.batches = 0
        self.why = ""  # what asked to stop
        self.quiet: QuietBook | None = None  # a folder's quiet games (the timers skip them)

    def log(self, line: str) -> None:
        with self._log_lock:
            self._log(line)

    def request_stop(self, why: str = "") -> None:
        """Stop after the batch under way (safe from a signal handler)."""
        if why and not self.stop.is_set():
            self.why = why  # said by the loop: a handler that logged could wait on the log's lock
        self.stop.set()
        self.rung.put(None)  # wakes the loop (SimpleQueue.put may be called from a signal handler)

    # -- the loop

    def run(self) -> None:
        games = self._scan()
        if not games:
            raise StoreError(f"{self.folder}: no campaign here (no campaign.yaml), nor in its subfolders")
        boxes = sorted({b for b in self.mailbox.values() if b})
        local = sum(b is None for b in self.mailbox.values())
        unread = len(games) - len(self.games)
        self.log(
            f"watching {len(self.games)} game(s) in {self.folder}: "
            + (f"{len(boxes)} mailbox(es) by IMAP" if boxes else "no IMAP mailbox")
            + (f", {local} read from their Maildir every {self.timers_every:g} s" if local else "")
            + (f"; {unread} not readable (named above), looked at again at each pass" if unread else "")
        )
        next_timers = self.clock()
        try:
            while not self.stop.is_set():
                rung = self._wait(max(0.0, next_timers - self.clock()))
                if self.stop.is_set():
                    break
                if rung:
                    self.batch([g for g in self.games if self.mailbox.get(g) in rung])
                if not self.stop.is_set() and self.clock() >= next_timers:
                    self.timers()
                    next_timers = self.clock() + self.timers_every
        finally:
            if self.why:
                self.log(f"{self.why}: stopping")
            self.stop.set()
            for bell in self.doorbells.values():
                bell.join(timeout=10)
            self.log("stopped")

    def _wait(self, timeout: float) -> set[str]:
        """The mailboxes rung within ``timeout`` seconds (all rings so far, gathered)."""
        rung: set[str] = set()
        try:
            first = self.rung.get(timeout=timeout)
        except queue.Empty:
            return rung
        if first is not None:
            rung.add(first)
        while True:
            try:
                more = self.rung.get_nowait()
            except queue.Empty:
                break
            if more is not None:
                rung.add(more)
        return rung

    def _scan(self) -> list[Path]:
        """The games (a new one in the folder is taken in), and a doorbell for each new mailbox."""
        if gmfolder.is_campaign(self.folder):
            games = [self.folder]
        else:
            games = gmfolder.games(self.folder)
        for path in games:
            if path in self.mailbox:
                continue
            try:
                found = _mailbox_of(Campaign(path))
            except Exception as e:  # noqa: BLE001 - a broken game is named; the others go on
                self._say_once(path, "mailbox", f"[{path.name}] FAILED: {gmfolder._explain(e)}")
                continue  # looked at again at the next pass
            if found is None:
                self.mailbox[path] = None
                continue
            name, settings = found
            self.mailbox[path] = name
            if name not in self.doorbells:
                self._start_doorbell(name, settings)
        self.games = [g for g in games if g in self.mailbox]
        return games

    def _start_doorbell(self, name: str, settings: ImapSettings) -> None:
        from .transport.idle import Doorbell

        bell = Doorbell(name, settings, self.rung.put, self.log, self.stop, **self.doorbell_options)
        self.doorbells[name] = bell
        bell.start()

    # -- a batch: mail came

    def batch(self, games: list[Path]) -> None:
        """Fetch the games given (one call: the fetch step), then acknowledge what came."""
        if not games:
            return
        self.batches += 1
        got: list[Path] = []
        for done in self.fetch(games):
            if done.error is not None:
                self.refetch.add(done.folder)
                self.log(f"[{done.name}] fetch failed: {done.error} (tried again within a minute)")
                continue
            self.refetch.discard(done.folder)
            outcomes = done.value or []
            for outcome in outcomes:
                self.log(f"[{done.name}] {outcome.summary().splitlines()[0]}")
            if outcomes:
                got.append(done.folder)
        for done in gmfolder.each_of(got, partial(gmfolder.tick, fetch=False)):
            self._tell(done)

    # -- the timers: every minute

    def timers(self) -> None:
        """The tick's timed steps for every game (and the fetch of those that need one)."""
        self._scan()
        again = [g for g in self.games if g in self.refetch and self.mailbox.get(g) is not None]
        if again:
            self.batch(again)
        local = {g for g in self.games if self.mailbox.get(g) is None}
        quiet = self._quiet()
        try:
            for path in self.games:
                if self.stop.is_set():
                    return
                if quiet is not None:
                    if quiet.look(path, system_clock()) is not None:
                        continue  # found quiet by an earlier tick, and nothing changed: nothing to do
                    tick = partial(gmfolder.noted_tick, quiet=quiet, fetch=path in local)
                else:
                    tick = partial(gmfolder.tick, fetch=path in local)
                for done in gmfolder.each_of([path], tick):
                    self._tell(done)
        finally:
            if quiet is not None:
                quiet.save()

    def _quiet(self) -> QuietBook | None:
        """A GM's folder's quiet notes (:mod:`pbem.quiet`), read once per watch; None for
        one campaign."""
        if gmfolder.is_campaign(self.folder):
            return None
        if self.quiet is None:
            from .quiet import QuietBook

            self.quiet = QuietBook(self.folder)
        return self.quiet

    def _tell(self, done: Done) -> None:
        """A game's tick, in short lines: what it did, and a standing problem once."""
        if done.error is not None:
            self._say_once(done.folder, "error", f"[{done.name}] FAILED: {done.error}")
            return
        self.said.pop((done.folder, "error"), None)
        report = done.value
        if report.busy:
            return  # a `pbem tick` runs on it right now: it does the same
        name = done.name
        if report.messages:
            self.log(f"[{name}] {report.messages} new message(s), {report.recorded} with orders recorded")
        if report.reminders:
            self.log(f"[{name}] reminders drafted: {', '.join(report.reminders)}")
        if report.resolved is not None:
            self.log(f"[{name}] turn {report.resolved} resolved")
        if report.sent:
            self.log(f"[{name}] sent (auto_send): {', '.join(report.sent)}")
        self._say_once(done.folder, "held", f"[{name}] HELD: {report.held}" if report.held else "")
        self._say_once(done.folder, "notes", "\n".join(f"[{name}] {n}" for n in report.notes))

    def _say_once(self, folder: Path, what: str, text: str) -> None:
        """Say ``text`` unless it was the last thing said of this (every minute would be noise)."""
        if self.said.get((folder, what), "") == text:
            return
        self.said[(folder, what)] = text
        for line in text.splitlines():
            self.log(line)


@contextlib.contextmanager
def stop_on_signals(watch: Watch) -> Iterator[None]:
    """SIGTERM and SIGINT (Ctrl-C) ask ``watch`` to stop between batches, while inside."""
    names = {signal.SIGTERM: "SIGTERM", signal.SIGINT: "Ctrl-C"}
    previous = {}
    for number, name in names.items():
        previous[number] = signal.signal(number, lambda *_, name=name: watch.request_stop(name))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
