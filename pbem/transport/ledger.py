"""Durable records of what the mail transport has already done.

Mail is not transactional: a run can die between "the server accepted it" and
"we noted that".  These ledgers keep that window as small as one message, so a
rerun after a crash resends or redelivers at most the one message in flight.

`SentLedger` is append-only JSON lines, fsync'd per message, because sending is
the hot path and appends stay cheap however long the campaign runs.  `FetchLedger`
is a small JSON document rewritten atomically (temp file + os.replace), because
its high-water marks are updated in place.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

__all__ = ["LedgerBusy", "LedgerError", "SentLedger", "FetchLedger"]


class LedgerError(Exception):
    """A ledger file exists but cannot be used (unreadable, or not a ledger)."""


class LedgerBusy(LedgerError):
    """Another process holds the ledger: two runs at once could send or deliver twice."""


def _fsync_dir(path: Path) -> None:
    """Make a file's creation or rename durable (the directory entry lives in the dir)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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
        """Append one record and fsync it before returning: the caller relies on it."""
        entry = {
            "draft_id": draft_id,
            "message_id": message_id,
            "recipients": list(recipients),
            "sent_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        line = json.dumps(entry, ensure_ascii=False).encode() + b"\n"
        if self._needs_newline:
            line = b"\n" + line
        created = not self.path.exists()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            _fsync_dir(self.path.parent)
        self._needs_newline = False
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
    Changes stay in memory until `save()`, which replaces the file atomically.
    """

    VERSION = 1

    def __init__(self, path: Path):
        self.path = Path(path)
        self._folders: dict[str, dict[str, int]] = {}
        self._delivered: set[str] = set()
        self._load()

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

    def mark(self, folder: str) -> tuple[int | None, int]:
        """(UIDVALIDITY, highest UID examined) for `folder`; (None, 0) if never fetched."""
        state = self._folders.get(folder)
        if state is None:
            return None, 0
        return state["uidvalidity"], state["last_uid"]

    def set_mark(self, folder: str, uidvalidity: int, last_uid: int) -> None:
        self._folders[folder] = {"uidvalidity": int(uidvalidity), "last_uid": int(last_uid)}

    def is_delivered(self, key: str) -> bool:
        return key in self._delivered

    def add_delivered(self, key: str) -> None:
        self._delivered.add(key)

    def delivered_count(self) -> int:
        return len(self._delivered)

    def save(self) -> None:
        """Write everything to a temp file, fsync, rename over the old one."""
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
        _fsync_dir(self.path.parent)
