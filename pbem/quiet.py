"""Quiet games: what an idle tick over a GM's folder found, so that the next one finds
it again without reading the game (``pbem tick FOLDER``, issue 22).

Cron ticks a folder of campaigns every minute, and nearly every time nearly every game
has nothing to do: no mail, the deadline days away, no draft the tick may send. Reading
each game to find that out (its settings, its position, its outbox and ledgers, its
Maildir) is most of the cost of such a tick; this module lets a tick skip it, safely.

A game's **fingerprint** is the state of every file and folder in its tree (each
folder's and each file's inode, size, modification and change time, the change time
being one no program can set back; its archives, the old turns and the mail kept or
sent, by their folder only: :data:`_ARCHIVES`), with the folder's shared ``pbem.yaml``, what
the settings name outside the game (a ``ca_file``, a ``password_env`` variable), the
environment's ``PBEM_*`` and ``SSL_CERT_*`` variables and the tick's own code. A tick is a function
of the game's files, of the mail the folder's fetch brought it, of its environment
and of the clock; so when a full tick (:func:`pbem.tick.tick`) found the game

- with its fingerprint the same before and after it (the tick changed nothing),
- doing nothing and having nothing to try again (no mail, reminder, resolution, send,
  held deadline, doubtful clock, uncertain or refused mail, note: only drafts waiting
  for the GM's review, which it lists),

the note "quiet at fingerprint F, from time T, until the clock crosses one of its
times" is kept (``FOLDER/.pbem/quiet.json``). A game is walked for its fingerprint only
when the tick before found it quiet (a candidate, or a note): a game busy at every
tick costs nothing more than its tick, and one found quiet is noted at the next tick.
A later tick with no mail for the game, the same fingerprint and a clock that has not
crossed any of the times the tick compares the clock with (reminders due, the
deadline, the clock's doubt bounds, read from the game when the note was made) and has
not gone back would do exactly the same nothing: it reports the same lines without
reading the game. Anything else (a new mail in the Maildir or the shared fetch, an
order, a draft, a settings edit, a rollback, a deadline moved, ``--trust-clock``) makes
a full tick, and the note is made anew or dropped.

A file changed within the kernel's clock tick of the fingerprint could keep its times
(a rewrite of the same size): as git does for its index, no note is made while the
newest change time in the game is less than ``SETTLED`` seconds old; any later change
then shows. A lost or damaged ``quiet.json`` only means a full tick.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import time
from array import array
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .store import RECEIVED, ROLLED_BACK, SENT_FOLDER, TURNS, write_atomic

if TYPE_CHECKING:
    from .campaign import Campaign
    from .tick import TickReport

#: The folder's note of its quiet games (beside the folder's other records, gmfolder.STATE).
QUIET_FILE = "quiet.json"
VERSION = 1
#: Seconds a game's newest change must be old before a note is made (see the module doc).
SETTLED = 2.0
#: Margin around each time the tick compares the clock with.
MARGIN = timedelta(seconds=1)
_MISSING = -1


#: The game's archives: folders whose files are written once, by a command that names
#: them anew, and that no quiet tick reads (a tick reads them only to take in new mail
#: or to resolve a turn, which no quiet tick does): the messages kept as they came, the
#: drafts sent, the turns rolled back. Their folder alone is fingerprinted (its times
#: change with every file put in, taken out or renamed), not each file: a game's
#: history grows with every turn, and walking it would cost a long game more than its
#: tick (820 files: 8-9 ms).
_ARCHIVES = {str(RECEIVED), str(SENT_FOLDER), str(ROLLED_BACK)}
_TURN = re.compile(r"turn-(\d+)")


def _archives(folder: str) -> set[str]:
    """The archive folders of the game at ``folder``: those above, and every turn's
    folder but the latest (a turn is written whole by one rename and then read only
    as the latest; a rollback or a new turn changes the turns' folder itself)."""
    out = {os.path.join(folder, name) for name in _ARCHIVES}
    try:
        turns = [e.name for e in os.scandir(os.path.join(folder, TURNS)) if _TURN.fullmatch(e.name)]
    except OSError:
        return out
    turns.sort(key=lambda name: int(name[5:]))
    out.update(os.path.join(folder, TURNS, name) for name in turns[:-1])
    return out


def _tree(folder: str, out: array[int]) -> int:
    """Append the state of every folder and file under ``folder`` to ``out``, an
    archive's (:data:`_ARCHIVES`) by its folder only; the newest change time seen (ns)."""
    newest = 0
    archives = _archives(folder)
    stack = [folder]
    while stack:
        path = stack.pop()
        info = os.stat(path, follow_symlinks=False)
        out.extend((info.st_ino, info.st_mtime_ns, info.st_ctime_ns, info.st_mode))
        newest = max(newest, info.st_ctime_ns, info.st_mtime_ns)
        if path in archives:
            continue
        with os.scandir(path) as entries:
            listed = sorted(entries, key=lambda e: e.name)
        for entry in listed:
            out.append(len(entry.name))
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
                continue
            # A link counts by what it points to (a campaign.yaml kept elsewhere); a linked
            # folder (a Maildir the mail system delivers to) could change with nothing
            # here changing: such a game is never noted quiet (the caller reads it in full).
            info = entry.stat(follow_symlinks=True)  # a link to nothing: an OSError, read in full
            if entry.is_symlink() and stat.S_ISDIR(info.st_mode):
                raise OSError(f"{entry.path}: a linked folder; its game is read by every tick")
            out.extend((info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_mode))
            newest = max(newest, info.st_ctime_ns, info.st_mtime_ns)
    return newest


def _file(path: str, out: array[int]) -> int:
    try:
        info = os.stat(path)
    except OSError:
        out.append(_MISSING)
        return 0
    out.extend((info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns))
    return max(info.st_ctime_ns, info.st_mtime_ns)


def _code_key() -> str:
    """The tick's own code: every module of the package (an upgrade makes full ticks)."""
    out: array[int] = array("q")
    for root, dirs, files in os.walk(os.path.dirname(os.path.abspath(__file__))):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")  # compiled copies come and go
        for name in sorted(files):
            if name.endswith(".py"):
                _file(os.path.join(root, name), out)
    return hashlib.blake2b(out.tobytes(), digest_size=16).hexdigest()


def _environment_key() -> str:
    """What of the environment a tick reads, but the passwords (each game's note names
    its own) and the test clock (``PBEM_NOW``: the clock is dealt with apart): pbem's own
    variables, and where the TLS certificates are."""
    items = sorted(
        (k, v)
        for k, v in os.environ.items()
        if (k.startswith("PBEM_") and k != "PBEM_NOW") or k.startswith("SSL_CERT_")
    )
    return hashlib.blake2b(json.dumps(items).encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def _variable(name: str, out: array[int]) -> None:
    value = os.environ.get(name)
    if value is None:
        out.append(_MISSING)
    else:
        digest = hashlib.blake2b(value.encode("utf-8", "surrogateescape"), digest_size=8).digest()
        out.append(int.from_bytes(digest, "big", signed=True))


class QuietBook:
    """The quiet notes of one folder's games, read once per command, written once."""

    def __init__(self, folder: Path | str):
        self.folder = Path(folder)
        self.path = self.folder / ".pbem" / QUIET_FILE
        self.shared = str(self.folder / "pbem.yaml")
        self.key = f"{VERSION}:{_code_key()}:{_environment_key()}"
        self.notes: dict[str, dict[str, Any]] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("key") == self.key and isinstance(data.get("games"), dict):
                self.notes = data["games"]
        except (OSError, ValueError):
            pass  # none, damaged or of other code: full ticks
        #: game -> its fingerprint, the clock and the outside part taken before its tick
        self.before: dict[str, tuple[str, datetime, dict[str, list[str]] | None]] = {}
        self.changed = False

    def fingerprint(self, game: Path, outside: dict[str, list[str]] | None = None) -> tuple[str, int]:
        """The game's fingerprint, and its newest change time (ns). ``outside``: the
        files (``files``) and environment variables (``env``) its settings name."""
        (fingerprint,), newest = self.fingerprints(game, [outside])
        return fingerprint, newest

    def fingerprints(self, game: Path, outsides: list[dict[str, list[str]] | None]) -> tuple[list[str], int]:
        """The game's fingerprint with each of ``outsides``, its tree walked once."""
        tree: array[int] = array("q")
        newest = _tree(str(game), tree)
        newest = max(newest, _file(self.shared, tree))
        out = []
        for outside in outsides:
            more: array[int] = array("q")
            for path in (outside or {}).get("files", []):
                newest = max(newest, _file(path, more))
            for name in (outside or {}).get("env", []):
                _variable(name, more)
            out.append(hashlib.blake2b(tree.tobytes() + more.tobytes(), digest_size=16).hexdigest())
        return out, newest

    def look(self, game: Path, now: datetime) -> dict[str, Any] | None:
        """Before anything is done for ``game``: its note if it holds (the same
        fingerprint, the clock between the same times), else None; the fingerprint is
        kept for :meth:`note`."""
        note = self.notes.get(game.name)
        if note is None:  # not found quiet last time: not walked (its tick, if quiet, makes it a candidate)
            self.before.pop(game.name, None)
            return None
        outside = note.get("outside")
        try:
            fingerprint, _ = self.fingerprint(game, outside)
        except OSError:
            self.before.pop(game.name, None)
            return None
        self.before[game.name] = (fingerprint, now, outside)
        if note.get("fingerprint") != fingerprint:
            return None  # a candidate (no fingerprint yet), or changed
        return note if self.holds(note, now) else None

    @staticmethod
    def holds(note: dict[str, Any], now: datetime) -> bool:
        """The clock has not gone back since the note, nor crossed any of its times."""
        try:
            since = datetime.fromisoformat(note["since"])
            times = [datetime.fromisoformat(t) for t in note["times"]]
        except (KeyError, TypeError, ValueError):
            return False
        if now < since:
            return False
        return all(t < since - MARGIN or t > now + MARGIN for t in times)

    def note(self, campaign: Campaign, report: TickReport, imap: str | None) -> None:
        """After a full tick of ``campaign``: note it quiet when it was (module doc),
        else drop its note. ``imap``: its ``mail.imap`` section as written (None without)."""
        name = campaign.folder.name
        before = self.before.pop(name, None)
        had = self.notes.pop(name, None)
        self.changed = self.changed or had is not None
        if not quiet_report(report):
            return
        if before is None:  # quiet, but not walked before its tick: a candidate for the next
            self.notes[name] = {"candidate": True}
            self.changed = True
            return
        try:
            outside = _outside(campaign)
            times = _clock_times(campaign)
            # as taken before the tick, and with what the settings name outside
            (plain, fingerprint), newest = self.fingerprints(campaign.folder, [before[2], outside])
        except Exception:  # noqa: BLE001 - a game that cannot be read now simply gets no note
            return
        # An outside file changed during the tick is too fresh as well: SETTLED is longer than a tick.
        if plain != before[0] or newest > time.time_ns() - int(SETTLED * 1e9):
            # the tick changed something (or someone did meanwhile), or too fresh to trust
            self.notes[name] = {"candidate": True}
            self.changed = True
            return
        self.notes[name] = {
            "fingerprint": fingerprint,
            "since": before[1].isoformat(),
            "times": [t.isoformat() for t in times],
            "outside": outside,
            "imap": imap,
            "waiting_for_review": list(report.waiting_for_review),
        }
        self.changed = True

    def forget(self, name: str) -> None:
        self.before.pop(name, None)
        if self.notes.pop(name, None) is not None:
            self.changed = True

    def save(self) -> None:
        """Write the notes (not synced: a note lost in a crash only means a full tick)."""
        if not self.changed:
            return
        known = {p.name for p in self.folder.iterdir() if p.is_dir()}
        games = {name: note for name, note in self.notes.items() if name in known}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, json.dumps({"key": self.key, "games": games}), durable=False)
        self.changed = False


def quiet_report(report: TickReport) -> bool:
    """A tick that did nothing and left nothing to try again: drafts waiting for the GM's
    review are all it may list."""
    return not (
        report.busy
        or report.messages
        or report.recorded
        or report.reminders
        or report.resolved is not None
        or report.sent
        or report.waiting_to_send
        or report.uncertain
        or report.disorder
        or report.held
        or report.notes
        or report.send_failed
        or report.failed
    )


def quiet_tick(note: dict[str, Any]) -> TickReport:
    """The report of a tick of a quiet game: the one its note holds."""
    from .tick import TickReport

    return TickReport(waiting_for_review=list(note.get("waiting_for_review", [])))


def _clock_times(campaign: Campaign) -> list[datetime]:
    """Every time a tick of this game compares the clock with, as the game stands: the
    clock's doubt bounds (:func:`pbem.deadlines.clock_doubt`), reminders falling due, the
    deadline (:mod:`pbem.tick`)."""
    from .deadlines import CLOCK_AHEAD_LIMIT, CLOCK_SLACK

    pos = campaign.position()
    if pos.game.finished:
        return []
    times = [pos.opened_at - CLOCK_SLACK]
    deadline = campaign.deadline()
    if deadline is not None:
        times += [deadline, deadline + CLOCK_AHEAD_LIMIT]
        if campaign.schedule is not None:
            times.append(deadline - timedelta(hours=campaign.schedule.remind_hours))
    return times


def _outside(campaign: Campaign) -> dict[str, list[str]]:
    """What the game's settings name outside its folder: the mail sections' ``ca_file``
    (``files``) and ``password_env`` (``env``)."""
    mail = campaign.config.extra.get("mail")
    files, env = [], []
    if isinstance(mail, dict):
        for section in (mail.get("smtp"), mail.get("imap")):
            if not isinstance(section, dict):
                continue
            if section.get("ca_file") is not None:
                files.append(os.path.abspath(str(section["ca_file"])))  # as ssl opens it
            if isinstance(section.get("password_env"), str):
                env.append(section["password_env"])
    return {"files": files, "env": env}
