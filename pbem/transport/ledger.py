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
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from ..store import fsync_dir

__all__ = ["LedgerBusy", "LedgerError", "SentLedger", "FetchLedger"]


class LedgerError(Exception):
    """A ledger file exists but cannot be used (unreadable, or not a ledger)."""


class LedgerBusy(LedgerError):
    """Another process holds the ledger: two runs at once could send or deliver twice."""


class _Locked:
    """Mixin: an exclusive, non-waiting inter-process lock beside the ledger file."""

    path: Path

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Hold `<ledger>.lock` for a whole run; raise LedgerBusy at once if it is taken."""
        lock = FileLock(str(self.path) + ".lock", timeout=0)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            lock.acquire()
        except Timeout:
            raise LedgerBusy(
                f"{self.path} is in use by another pbem process; wait for it to finish"
            ) from None
        try:
            yield
        finally:
            lock.release()


class SentLedger(_Locked):
    """Append-only JSON-lines record of every draft the SMTP server accepted.

    One line per message: {"draft_id", "message_id", "recipients", "sent_at"}.
    A line torn by a kill mid-write is ignored when reading, and the next record
    starts on a fresh line so it is not glued to the fragment.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self._entries: list[dict] = []
        self._sent: set[str] = set()
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
                self._entries.append(entry)
                self._sent.add(entry["draft_id"])

    def is_sent(self, draft_id: str) -> bool:
        return draft_id in self._sent

    def record(self, draft_id: str, message_id: str, recipients: list[str]) -> None:
        """Append one record and fsync it before returning: the caller relies on it.

        Thread-safe, so the sender can fsync off its event loop; each caller fsyncs
        its own descriptor outside the lock, letting concurrent fsyncs overlap.
        """
        entry = {
            "draft_id": draft_id,
            "message_id": message_id,
            "recipients": list(recipients),
            "sent_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
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
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            fsync_dir(self.path.parent)
        with self._lock:
            self._entries.append(entry)
            self._sent.add(draft_id)

    def entries(self) -> list[dict]:
        return [dict(entry) for entry in self._entries]


class FetchLedger(_Locked):
    """What IMAP fetching has examined and delivered, for one campaign.

    Per folder: the UIDVALIDITY seen and the highest UID examined (everything at or
    below it was delivered, recognised as a duplicate or judged not ours).  Globally:
    the keys of delivered messages (Message-ID, or "sha256:<hex>" of the bytes for
    mail without one), which is what prevents double delivery when UIDs reset.

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
                folder, validity, uid, key = (
                    str(entry["folder"]), int(entry["uidvalidity"]), int(entry["uid"]), str(entry["key"])
                )
            except (ValueError, KeyError, TypeError):
                continue  # torn by a kill mid-write: that delivery was not recorded
            self._delivered.add(key)
            known, last = self.mark(folder)
            if known is None or (known == validity and uid > last):
                self.set_mark(folder, validity, uid)

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
        """Durably note that message `key` (at `uid`) was delivered, before returning."""
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
        self.set_mark(folder, uidvalidity, uid)

    def delivered_count(self) -> int:
        return len(self._delivered)

    def save(self) -> None:
        """Write everything to a temp file, fsync, rename over the old one, drop the journal."""
        data = {
            "version": self.VERSION,
            "folders": self._folders,
            "delivered": sorted(self._delivered),
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=self.path.name + ".", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, ensure_ascii=False, separators=(",", ":"))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise
        fsync_dir(self.path.parent)
        # Only now is the journal redundant; a crash before this line replays it harmlessly.
        try:
            os.unlink(self.journal_path)
        except FileNotFoundError:
            pass
