"""Durable records of what the mail transport has already done.

Mail is not transactional: a run can die between "the server accepted it" and
"we noted that".  These ledgers keep that window as small as one message, so a
rerun after a crash resends or redelivers at most the one message in flight.

`SentLedger` is append-only JSON lines, fsync'd per message, because appends stay
cheap however long the campaign runs.  `FetchLedger` is a JSON document rewritten
atomically (temp file + os.replace) once per batch, because its high-water marks
change in place, plus an append-only journal that makes each delivery durable at
once without rewriting the document per message.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from filelock import FileLock, Timeout

from ..errors import MailError
from ..store import fsync_dir, write_atomic

__all__ = ["LedgerBusy", "LedgerError", "SentLedger", "FetchLedger"]


class LedgerError(MailError):
    """A ledger file exists but cannot be used (unreadable, or not a ledger)."""


class LedgerBusy(LedgerError):
    """Another process holds the ledger: two runs at once could send or deliver twice."""


class _Locked:
    """Mixin: an exclusive, non-waiting inter-process lock beside the ledger file."""

    path: Path

    _held = False

    @contextlib.contextmanager
    def lock(self, wait: float = 0) -> Iterator[None]:
        """Hold `<ledger>.lock` for a whole run; raise LedgerBusy if it is taken
        (at once, or after ``wait`` seconds). Reentrant on one ledger object: a
        caller that holds it (``pbem send`` while it picks the drafts) passes the
        ledger on, and the sender's own `lock()` is then a no-op."""
        if self._held:
            yield
            return
        lock = FileLock(str(self.path) + ".lock", timeout=wait)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            lock.acquire()
        except Timeout:
            raise LedgerBusy(
                f"{self.path} is in use by another pbem process; wait for it to finish"
            ) from None
        self._held = True
        try:
            yield
        finally:
            self._held = False
            lock.release()


class SentLedger(_Locked):
    """Append-only JSON-lines record of every draft the SMTP server accepted,
    and of every draft whose fate is unknown.

    A sent draft: {"draft_id", "message_id", "recipients", "sent_at"} (and
    "confirmed_by": "gm" when the GM saw it arrive). Before the message goes
    out (DATA), {"draft_id", "message_id", "recipients", "state": "in-flight", "at"}; a
    definite refusal after that, {"draft_id", "state": "not-sent", ...}. A
    draft whose last line is "in-flight" is *uncertain*: the server may have
    stored it without replying, or the sender was killed before noting the
    reply; it is never resent without the GM's word.

    A line torn by a kill mid-write is ignored when reading, and the next record
    starts on a fresh line so it is not glued to the fragment.
    """

    IN_FLIGHT = "in-flight"
    NOT_SENT = "not-sent"

    def __init__(self, path: Path):
        self.path = Path(path)
        self._entries: list[dict] = []
        self._sent: set[str] = set()
        self._uncertain: dict[str, dict] = {}
        self._needs_newline = False
        self._lock = threading.Lock()
        self._load()

    def _load(self) -> None:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise LedgerError(f"cannot read sent ledger {self.path}: {exc}") from exc
        self._needs_newline = bool(data) and not data.endswith(b"\n")
        for line in data.splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # torn write from a killed run: that message was not recorded
            if isinstance(entry, dict) and isinstance(entry.get("draft_id"), str):
                self._apply(entry)

    def _apply(self, entry: dict) -> None:
        draft_id, state = entry["draft_id"], entry.get("state")
        if state is None:  # sent
            self._entries.append(entry)
            self._sent.add(draft_id)
            self._uncertain.pop(draft_id, None)
        elif state == self.IN_FLIGHT:
            if draft_id not in self._sent:
                self._uncertain[draft_id] = entry
        elif state == self.NOT_SENT:
            self._uncertain.pop(draft_id, None)

    def is_sent(self, draft_id: str) -> bool:
        return draft_id in self._sent

    def is_uncertain(self, draft_id: str) -> bool:
        """The message went out and no reply came: it may or may not have arrived."""
        return draft_id in self._uncertain

    def uncertain(self) -> dict[str, dict]:
        """Draft id -> its in-flight record, for every uncertain draft."""
        return {draft_id: dict(entry) for draft_id, entry in self._uncertain.items()}

    def in_flight(self, draft_id: str, message_id: str, recipients: Sequence[str] = ()) -> None:
        """Note, durably, that the message is about to go out (before DATA): if no
        reply is noted after it, the draft is uncertain, even after a kill."""
        self._append(
            {
                "draft_id": draft_id,
                "message_id": message_id,
                "recipients": list(recipients),
                "state": self.IN_FLIGHT,
                "at": _now(),
            }
        )

    def not_sent(self, draft_id: str, reason: str) -> None:
        """The server answered the message with a refusal: certainly not delivered."""
        self._append({"draft_id": draft_id, "state": self.NOT_SENT, "reason": reason, "at": _now()})

    def record(
        self,
        draft_id: str,
        message_id: str,
        recipients: list[str],
        confirmed_by: str | None = None,
        sync: bool = True,
    ) -> None:
        """Append one record and fsync it before returning: the caller relies on it.

        ``sync=False`` is for a draft noted in flight first: the kernel keeps the
        line through a kill, and if a power cut loses it, the draft reads as
        uncertain (never resent); the next in-flight fsync, or `sync()`, makes it
        durable. Thread-safe, so the sender can fsync off its event loop; each
        caller fsyncs its own descriptor outside the lock.
        """
        entry = {
            "draft_id": draft_id,
            "message_id": message_id,
            "recipients": list(recipients),
            "sent_at": _now(),
        }
        if confirmed_by:
            entry["confirmed_by"] = confirmed_by
        self._append(entry, sync)

    def _append(self, entry: dict, sync: bool = True) -> None:
        line = json.dumps(entry, ensure_ascii=False).encode() + b"\n"
        with self._lock:
            if self._needs_newline:
                line = b"\n" + line
            created = not self.path.exists()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line)
            except BaseException:
                os.close(fd)
                raise
            self._needs_newline = False
        try:
            if sync or created:
                os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            fsync_dir(self.path.parent)
        with self._lock:
            self._apply(entry)

    def sync(self) -> None:
        """Make every record appended so far durable (see `record`'s ``sync``)."""
        if self.path.exists():
            fd = os.open(self.path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def entries(self) -> list[dict]:
        """The sent records, in order."""
        return [dict(entry) for entry in self._entries]


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class FetchLedger(_Locked):
    """What IMAP fetching has examined and delivered, for one campaign.

    Per folder: the UIDVALIDITY seen and the highest UID handled for good (everything
    at or below it was delivered or recognised as a duplicate and filed away, or
    judged not ours); it never runs ahead of what was kept and filed.  Globally:
    the keys of delivered messages ("sha256:<hex>" of their bytes; a ledger of an
    older pbem also holds Message-IDs, which no longer match anything), which is
    what prevents double delivery when UIDs reset.

    `save()` rewrites the JSON file atomically; it is called once per batch.  Each
    delivery is made durable at once by `record_delivery`, which appends one fsync'd
    line to `<ledger>.journal` (rewriting the whole document per message would cost
    in proportion to the campaign's history).  Loading replays the journal, ignoring
    a torn last line; `save()` folds it in and removes it.
    """

    VERSION = 1

    def __init__(self, path: Path):
        self.path = Path(path)
        self.journal_path = self.path.with_name(self.path.name + ".journal")
        self._folders: dict[str, dict[str, int]] = {}
        self._delivered: set[str] = set()
        self._load()
        self._replay_journal()

    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except OSError as exc:
            raise LedgerError(f"cannot read fetch ledger {self.path}: {exc}") from exc
        try:
            data = json.loads(text)
            folders = {
                str(name): {"uidvalidity": int(st["uidvalidity"]), "last_uid": int(st["last_uid"])}
                for name, st in data["folders"].items()
            }
            delivered = {str(key) for key in data["delivered"]}
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            # Refuse rather than start afresh: an empty ledger would redeliver everything.
            raise LedgerError(
                f"fetch ledger {self.path} is damaged ({exc}); restore it or move it away"
            ) from exc
        self._folders, self._delivered = folders, delivered

    def _replay_journal(self) -> None:
        """Apply deliveries recorded after the last save (replaying twice is harmless)."""
        try:
            lines = self.journal_path.read_bytes().splitlines()
        except FileNotFoundError:
            return
        for line in lines:
            try:
                entry = json.loads(line)
                _folder, _validity, _uid, key = (  # the rest only checked: a bad line is skipped
                    str(entry["folder"]),
                    int(entry["uidvalidity"]),
                    int(entry["uid"]),
                    str(entry["key"]),
                )
            except (ValueError, KeyError, TypeError):
                continue  # torn by a kill mid-write: that delivery was not recorded
            self._delivered.add(key)  # the mark is not moved: see record_delivery

    def mark(self, folder: str) -> tuple[int | None, int]:
        """(UIDVALIDITY, highest UID examined) for `folder`; (None, 0) if never fetched."""
        state = self._folders.get(folder)
        if state is None:
            return None, 0
        return state["uidvalidity"], state["last_uid"]

    def set_mark(self, folder: str, uidvalidity: int, last_uid: int) -> None:
        """Move the mark in memory; `save()` or a later `record_delivery` persists it."""
        self._folders[folder] = {"uidvalidity": int(uidvalidity), "last_uid": int(last_uid)}

    def is_delivered(self, key: str) -> bool:
        return key in self._delivered

    def record_delivery(self, folder: str, uidvalidity: int, uid: int, key: str) -> None:
        """Durably note that message `key` (at `uid`) was delivered, before returning.

        The mark does not move: a delivered message is done only once it is filed
        away, and the fetcher moves the mark (`set_mark`) when it is. Until then a
        crash leaves it at or above the mark, so the next fetch meets it again,
        knows it by its key and files it."""
        line = json.dumps(
            {"folder": folder, "uidvalidity": uidvalidity, "uid": uid, "key": key},
            ensure_ascii=False,
        ).encode()
        created = not self.journal_path.exists()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.journal_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            # A leading newline isolates this line from a torn one left by a kill.
            os.write(fd, b"\n" + line + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            fsync_dir(self.path.parent)
        self._delivered.add(key)

    def delivered_count(self) -> int:
        return len(self._delivered)

    def save(self) -> None:
        """Write everything to a temp file, fsync, rename over the old one, drop the journal."""
        data = {
            "version": self.VERSION,
            "folders": self._folders,
            "delivered": sorted(self._delivered),
        }
        write_atomic(self.path, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        # Only now is the journal redundant; a crash before this line replays it harmlessly.
        try:
            os.unlink(self.journal_path)
        except FileNotFoundError:
            pass
