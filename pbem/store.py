"""The campaign folder: the only module that reads or writes it.

Layout (plain files a GM can read, back up and put under version control)::

    campaign.yaml                 the GM's file (written by `pbem new` and `pbem replace` only)
    turns/turn-000/               the start: deal, opening reports
    turns/turn-003/               the resolution of postal turn 3:
        state.json                  the game after it (GM's view: every card)
        events.json                 what happened, with each event's audience
        orders.json                 the orders resolved, NMR defaults marked
        reports/public.txt          the public turn report
        reports/private-<Name>.txt  one private report per player
        standing.json               the "if Bishop" orders played (when there were any)
        mail/                       the turn's drafts and their index, written with the turn
    turns/rolled-back/            turns undone by `pbem rollback`, kept
    orders/turn-004.json          orders on file for the awaited turn
    orders/turn-004-standing.json the "if Bishop" orders on file (Premium)
    orders/turn-004.log           every order submission, one JSON per line
    notes/turn-004.txt            the GM's notes for the next public report
    roster.json                   the seats' names after `pbem replace`
    seats.json                    who held each seat from which turn to which; civil disorder told
    deadlines.json                deadlines moved by `pbem deadline`
    templates/                    the GM's template overrides (optional)
    mail/                         mail in and out (the names below: RECEIVED, OUTBOX...)
    .pbem.lock, .pbem.tick.lock   the command lock; one `pbem tick` at a time

Every path in the folder is named here, once: other modules ask
:class:`CampaignStore` for them (``store.outbox``, ``store.received``...)
instead of joining strings.

Crash safety: a turn folder is written aside (``turns/.turn-003.tmp``) and
switched in with one ``rename``; a file is written to a temporary file and
switched in with ``os.replace``. A crash leaves either the old campaign or the
new one, never a mix. A lock file keeps two commands from writing at once.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeGuard, TypeVar

from .errors import PbemError

# Every path of a campaign folder, relative to it (CampaignStore offers each as a property).
T = TypeVar("T")

CAMPAIGN_FILE = "campaign.yaml"
CAMPAIGN_BACKUP = CAMPAIGN_FILE + ".bak"  # the one before `pbem replace` rewrote it
TURNS = "turns"
ROLLED_BACK = Path(TURNS) / "rolled-back"
ORDERS = "orders"
NOTES = "notes"
TEMPLATES = "templates"
LOCK_FILE = ".pbem.lock"
TICK_LOCK = ".pbem.tick.lock"  # one `pbem tick` at a time (cron may start the next too soon)
TURN_REPORTS = "reports"  # in a turn folder: public.txt, private-<Name>.txt
# The files of a turn folder (names for write_turn, read_json and read_text).
STATE = "state.json"
EVENTS = "events.json"
TURN_ORDERS = "orders.json"
STANDING = "standing.json"
PUBLIC_REPORT = f"{TURN_REPORTS}/public.txt"

ROSTER = "roster.json"  # the seats' names after `pbem replace`
SEATS = "seats.json"  # each seat's tenures (pbem replace), the civil disorder notices drafted
DEADLINES = "deadlines.json"  # deadlines moved by `pbem deadline`
PROXY = "proxy.json"  # who asked for the proxy (PROXY ON / PROXY OFF)
ABSENCES = "absence.json"  # the absences announced (ABSENT / BACK, pbem absent)
MAIL = Path("mail")
RECEIVED = MAIL / "received"  # every message as it came, byte for byte
RECEIVED_INDEX = MAIL / "received.jsonl"  # what became of each
INBOX = MAIL / "inbox"  # the Maildir `pbem fetch` reads by default
OUTBOX = MAIL / "outbox"  # drafts waiting to be sent
MESSAGES = MAIL / "messages.jsonl"  # every draft the tool made (its Message-ID, kind, turn)
SENT_FOLDER = MAIL / "sent"  # where `pbem send` moves the drafts it sent
SENT_LEDGER = MAIL / "sent.jsonl"  # what the SMTP server accepted
IMAP_LEDGER = MAIL / "imap-ledger.json"  # what was fetched from the IMAP server
REFUSED_SEEN = MAIL / "refused-seen.json"  # refused messages the GM has been shown
REMINDERS = MAIL / "reminders.json"  # deadline reminders sent by `pbem tick`
TURN_MAIL = "mail"  # in a turn folder: its drafts and their index
TURN_MAIL_INDEX = f"{TURN_MAIL}/index.jsonl"

# A kept message named as the source of an order (JSON as pbem writes it: not inside a
# quoted text, where its quotes would be escaped).
_KEPT_MESSAGE = r"mail/received/[0-9a-f]{20}\.eml"  # a kept message, as an order's source names it
_RECEIVED_SOURCE = re.compile(rf'(?<!\\)"source": "({_KEPT_MESSAGE})"')


def private_report(name: str) -> str:
    """The file of a player's private report, in a turn folder."""
    return f"{TURN_REPORTS}/private-{name}.txt"


class StoreError(PbemError):
    """The campaign folder is not in the shape the command needs."""

    exit_code = 1  # the `pbem` command's exit status for it


class Busy(StoreError):
    """Another pbem command holds the campaign's lock."""


@contextmanager
def file_lock(path: Path, timeout: float) -> Iterator[bool]:
    """An exclusive lock on ``path``, waiting up to ``timeout`` seconds (0: not
    at all); yields whether it was acquired. The kernel drops it if the process
    dies. POSIX ``flock`` from the standard library where there is one (it
    costs nothing to import, and every command takes this lock); the
    ``filelock`` package elsewhere."""
    try:
        import fcntl
    except ImportError:  # Windows
        from filelock import FileLock, Timeout

        lock = FileLock(str(path), timeout=timeout)
        try:
            lock.acquire()
        except Timeout:
            yield False
            return
        try:
            yield True
        finally:
            lock.release()
        return
    import time

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.05)
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: str | bytes, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so that readers see the old or the new file,
    never half: the one way pbem replaces a file.

    ``durable``: the bytes are fsync'd before the rename and the folder after
    it, so the new file survives a crash once this returns. A batch that
    writes many files passes False and syncs them once at its end
    (:func:`fsync_file`, :func:`fsync_dir`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if durable:
        fsync_dir(path.parent)


def write_kept(path: Path, data: bytes) -> bool:
    """Keep ``data`` at ``path``, a name made of its digest (a message as it came), unless
    a whole copy is there: False then, True when written. No record names the file
    before it is synced (the caller's batch syncs it), and the same bytes bring the same
    name.

    Made in place, not written aside and renamed as :func:`write_atomic` does: on some
    disks a rename costs as much again as the file, and a fetch keeps hundreds. A copy
    torn by a crash is named by no record, and its message is read again (it was never
    noted as read, nor moved on the server): the bytes found there then differ, and are
    replaced whole. A write that fails leaves no file."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except FileExistsError:
        if _holds(path, data):
            return False
        write_atomic(path, data, durable=False)  # torn, or not a file: replaced whole
        return True
    try:
        write_all(fd, data)
    except BaseException:
        os.close(fd)
        path.unlink(missing_ok=True)
        raise
    os.close(fd)
    return True


def _holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a file (not a link) holding exactly ``data``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            return False
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read() == data
    finally:
        os.close(fd)


def append_line(path: Path, line: str) -> None:
    """Append one line to a log, durably (used for logs that only grow)."""
    append_lines(path, [line])


def append_lines(path: Path, lines: list[str], sync: bool = True) -> None:
    """Append lines to a log that only grows; with ``sync``, durably. A last
    line left without its end by a crash is ended first, so that a new line
    never runs on from a torn one (a reader skips the torn line alone)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(line.rstrip("\n") + "\n" for line in lines)
    with open(path, "a+b") as f:  # (+: to read the last byte)
        end = f.seek(0, os.SEEK_END)
        if end and os.pread(f.fileno(), 1, end - 1) != b"\n":
            text = "\n" + text
        f.write(text.encode("utf-8"))
        if sync:
            f.flush()
            os.fsync(f.fileno())


def dump_json(data: Any) -> str:
    """JSON a GM can read: one top-level key, list item, event or hand per line.

    Each piece goes through the C encoder in one call; ``indent`` would switch
    the whole document to the pure-Python encoder (several times slower, and
    this runs on every resolve)."""

    def piece(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    def block(value: Any, depth: int) -> str:
        pad = " " * depth
        if depth < 2 and isinstance(value, dict) and value:
            items = [f"{pad} {piece(k)}: {block(v, depth + 1).lstrip()}" for k, v in value.items()]
            return pad + "{\n" + ",\n".join(items) + "\n" + pad + "}"
        if depth < 3 and isinstance(value, list) and value and isinstance(value[0], (dict, list)):
            return (  # a dict in a list (an event, a hand) is one line
                pad
                + "[\n"
                + ",\n".join(
                    f"{pad} {piece(v) if isinstance(v, dict) else block(v, depth + 1).lstrip()}"
                    for v in value
                )
                + "\n"
                + pad
                + "]"
            )
        return pad + piece(value)

    return block(data, 0) + "\n"


class CampaignStore:
    """Reads and writes one campaign folder."""

    def __init__(self, root: Path | str):
        self.root = Path(root)

    # -- the paths ----------------------------------------------------------
    @property
    def campaign_file(self) -> Path:
        return self.root / CAMPAIGN_FILE

    @property
    def campaign_backup(self) -> Path:
        return self.root / CAMPAIGN_BACKUP

    @property
    def lock_file(self) -> Path:
        return self.root / LOCK_FILE

    @property
    def tick_lock(self) -> Path:
        return self.root / TICK_LOCK

    def reports_dir(self, turn: int) -> Path:
        """A resolved turn's reports (public.txt, private-<Name>.txt)."""
        return self.turn_dir(turn) / TURN_REPORTS

    @property
    def received(self) -> Path:
        return self.root / RECEIVED

    @property
    def received_index(self) -> Path:
        return self.root / RECEIVED_INDEX

    @property
    def inbox(self) -> Path:
        return self.root / INBOX

    @property
    def outbox(self) -> Path:
        return self.root / OUTBOX

    @property
    def messages(self) -> Path:
        return self.root / MESSAGES

    @property
    def sent_folder(self) -> Path:
        return self.root / SENT_FOLDER

    @property
    def sent_ledger(self) -> Path:
        return self.root / SENT_LEDGER

    @property
    def imap_ledger(self) -> Path:
        return self.root / IMAP_LEDGER

    @property
    def refused_seen(self) -> Path:
        return self.root / REFUSED_SEEN

    @property
    def reminders(self) -> Path:
        return self.root / REMINDERS

    def turn_mail(self, turn_dir: Path) -> Path:
        """A turn folder's drafts (``turn_dir``: a turn's folder, resolved or rolled back)."""
        return turn_dir / TURN_MAIL

    def turn_mail_index(self, turn_dir: Path) -> Path:
        return turn_dir / TURN_MAIL_INDEX

    # -- locking ------------------------------------------------------------
    @contextmanager
    def locked(self, timeout: float = 10.0) -> Iterator[None]:
        """Hold the campaign's lock (a second command waits, then gives up)."""
        if not self.root.is_dir():  # the lock must not create a mistyped folder
            raise StoreError(f"{self.root}: no such campaign folder")
        with file_lock(self.lock_file, timeout) as acquired:
            if not acquired:
                raise Busy(
                    f"{self.root}: another pbem command is working on this campaign; "
                    f"try again when it has finished"
                )
            yield

    # -- turns ----------------------------------------------------------------
    def turn_dir(self, turn: int) -> Path:
        return self.root / TURNS / f"turn-{turn:03d}"

    def turns(self) -> list[int]:
        """The resolved turns on file (0 is the start), in order."""
        folder = self.root / TURNS
        if not folder.is_dir():
            return []
        out = []
        for entry in os.listdir(folder):
            if entry.startswith("turn-") and entry[5:].isdigit():
                out.append(int(entry[5:]))
        return sorted(out)

    def latest_turn(self) -> int | None:
        turns = self.turns()
        return turns[-1] if turns else None

    def read_json(self, turn: int, name: str) -> Any:
        path = self.turn_dir(turn) / name
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise StoreError(f"{path}: missing; the campaign folder is damaged") from None
        except json.JSONDecodeError as e:
            raise StoreError(f"{path}: damaged JSON ({e}); restore it from a backup") from None

    def has(self, turn: int, name: str) -> bool:
        """Whether the turn folder holds the file ``name`` (e.g. standing.json, written only when needed)."""
        return (self.turn_dir(turn) / name).exists()

    def read_text(self, turn: int, name: str) -> str:
        path = self.turn_dir(turn) / name
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise StoreError(f"{path}: no such file") from None

    def write_turn(self, turn: int, files: dict[str, str]) -> Path:
        """Write a whole turn folder at once: aside first, then one rename."""
        final = self.turn_dir(turn)
        if final.exists():
            raise StoreError(f"{final} exists already: turn {turn} has been resolved")
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = final.parent / f".{final.name}.tmp"
        if tmp.exists():
            shutil.rmtree(tmp)  # left by a crash: never switched in, so never used
        try:
            folders = sorted({(tmp / name).parent for name in files} | {tmp})
            for folder in folders:
                folder.mkdir(parents=True, exist_ok=True)
            # Before the rename: once the turn folder has its name, its files and
            # their names are on disk. Only what was written is synced (os.sync()
            # would flush every disk of the machine), side by side, each through
            # the descriptor that wrote it (opening a file again costs as much).
            # The folders' entries are synced in the same batch: each is complete
            # once its files are created, and all of it is on disk before the rename.
            written = []
            folder_fds: list[int] = []
            try:
                for name, text in files.items():
                    f = open(tmp / name, "wb")  # closed below, after the sync
                    written.append(f)
                    f.write(text.encode("utf-8"))
                    f.flush()
                for folder in folders:
                    folder_fds.append(os.open(folder, os.O_RDONLY))
                side_by_side(os.fsync, [f.fileno() for f in written] + folder_fds)
            finally:
                for f in written:
                    f.close()
                for fd in folder_fds:
                    os.close(fd)
            os.rename(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)  # never switched in: leave no trace
            raise
        fsync_dir(final.parent)
        return final

    def roll_back(self, turn: int) -> Path:
        """Move a resolved turn out of the way (kept under turns/rolled-back)."""
        source = self.turn_dir(turn)
        parking = self.root / ROLLED_BACK
        parking.mkdir(parents=True, exist_ok=True)
        n = 1
        while (parking / f"{source.name}.{n}").exists():
            n += 1
        target = parking / f"{source.name}.{n}"
        os.rename(source, target)
        fsync_dir(parking)  # the new name, then the old one gone
        fsync_dir(source.parent)
        return target

    def rolled_back_dirs(self) -> list[Path]:
        """The turn folders undone by rollbacks (under turns/rolled-back)."""
        parking = self.root / ROLLED_BACK
        if not parking.is_dir():
            return []
        return sorted(p for p in parking.iterdir() if p.is_dir())

    def rolled_back_count(self, turn: int) -> int:
        """How many times ``turn`` was rolled back."""
        parking = self.root / ROLLED_BACK
        if not parking.is_dir():
            return 0
        return sum(1 for p in parking.iterdir() if p.name.startswith(f"turn-{turn:03d}."))

    # -- orders of the awaited turn -----------------------------------------------
    def orders_path(self, turn: int) -> Path:
        return self.root / ORDERS / f"turn-{turn:03d}.json"

    def read_orders(self, turn: int) -> dict[str, dict[str, dict[str, Any]]]:
        """Player -> hand (as a string) -> the order on file."""
        path = self.orders_path(turn)
        if not path.exists():
            return {}
        try:
            orders: dict[str, dict[str, dict[str, Any]]] = json.loads(path.read_text(encoding="utf-8"))
            return orders
        except json.JSONDecodeError as e:
            raise StoreError(
                f"{path}: damaged JSON ({e}); its log {path.with_suffix('.log')} holds every order received"
            ) from None

    def write_orders(self, turn: int, orders: dict[str, Any]) -> None:
        write_atomic(self.orders_path(turn), dump_json(orders))

    def standing_path(self, turn: int) -> Path:
        return self.root / ORDERS / f"turn-{turn:03d}-standing.json"

    def read_standing(self, turn: int) -> dict[str, dict[str, str]]:
        """Player -> hand (as a string) -> "discard" or "keep": the standing
        "if Bishop" orders received for this turn (RULES 10.3)."""
        path = self.standing_path(turn)
        if not path.exists():
            return {}
        try:
            standing: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
            return standing
        except json.JSONDecodeError as e:
            log = self.orders_path(turn).with_suffix(".log")
            raise StoreError(
                f"{path}: damaged JSON ({e}); its turn's log {log} holds every order received"
            ) from None

    def write_standing(self, turn: int, standing: dict[str, Any]) -> None:
        write_atomic(self.standing_path(turn), dump_json(standing))

    def log_submissions(self, turn: int, entries: list[dict[str, Any]]) -> None:
        """Append submissions to the turn's log, with one sync for all."""
        if entries:
            append_line(
                self.orders_path(turn).with_suffix(".log"),
                "\n".join(json.dumps(e, ensure_ascii=False) for e in entries),
            )

    @staticmethod
    def is_kept_message(source: object) -> TypeGuard[str]:
        """Whether an order's ``source`` names a kept message (``mail/received/<name>.eml``)."""
        return isinstance(source, str) and re.fullmatch(_KEPT_MESSAGE, source) is not None

    def logged_sources(self, turn: int) -> set[str]:
        """The kept messages the turn's orders log names."""
        try:
            text = self.orders_path(turn).with_suffix(".log").read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return set()
        return set(_RECEIVED_SOURCE.findall(text))

    def received_sources(self) -> set[str]:
        """The kept messages (``mail/received/<name>.eml``) whose orders were recorded
        already, for any turn: named by an order on file or a line of an orders log.
        A message read again after a crash must not record its orders twice (they
        would replace what was recorded since)."""
        folder = self.root / ORDERS
        try:
            names = os.listdir(folder)
        except FileNotFoundError:
            return set()
        found: set[str] = set()
        for name in names:
            if name.startswith("turn-") and name.endswith((".log", ".json")):
                try:
                    text = (folder / name).read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                found.update(_RECEIVED_SOURCE.findall(text))
        return found

    # -- the roster after a replacement -----------------------------------------------------------
    def read_roster(self) -> list[str] | None:
        path = self.root / ROSTER
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None

    def write_roster(self, names: list[str]) -> None:
        write_atomic(self.root / ROSTER, dump_json(names))

    # -- the seats' tenures and civil disorder (pbem.seats) ----------------------------------------
    def read_seats(self) -> dict[str, Any]:
        path = self.root / SEATS
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    def write_seats(self, data: dict[str, Any]) -> None:
        write_atomic(self.root / SEATS, dump_json(data))

    # -- absences ---------------------------------------------------------------------------------
    def read_absences(self) -> list[dict[str, Any]]:
        """The absences announced (``{"player", "from", "to", "received", "source"}``)."""
        path = self.root / ABSENCES
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []

    def write_absences(self, absences: list[dict[str, Any]]) -> None:
        write_atomic(self.root / ABSENCES, dump_json(absences))

    # -- who asked for the proxy ------------------------------------------------------------------
    def read_proxy(self) -> dict[str, dict[str, Any]]:
        """Player -> their latest PROXY ON / PROXY OFF (``{"proxy": "on", "received", "source"}``)."""
        path = self.root / PROXY
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    def write_proxy(self, requests: dict[str, dict[str, Any]]) -> None:
        write_atomic(self.root / PROXY, dump_json(requests))

    # -- deadlines moved by the GM, notes for the next report ----------------------------
    def read_deadlines(self) -> dict[str, str]:
        path = self.root / DEADLINES
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    def write_deadlines(self, deadlines: dict[str, str]) -> None:
        write_atomic(self.root / DEADLINES, dump_json(deadlines))

    def notes_path(self, turn: int) -> Path:
        return self.root / NOTES / f"turn-{turn:03d}.txt"

    def add_note(self, turn: int, text: str) -> None:
        append_line(self.notes_path(turn), " ".join(text.split()))

    def read_notes(self, turn: int) -> list[str]:
        path = self.notes_path(turn)
        return (
            [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            if path.exists()
            else []
        )

    # -- misc -----------------------------------------------------------------------
    def templates_dir(self) -> Path:
        return self.root / TEMPLATES


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the descriptor ``fd`` (``os.write`` may write less)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def fsync_file(path: Path) -> None:
    """Make a file written without a sync durable (its bytes; its name is its folder's)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_files(paths: Iterable[Path]) -> None:
    """Make several files written without a sync durable, side by side (see
    :func:`side_by_side`)."""
    side_by_side(fsync_file, list(paths))


def side_by_side(work_on: Callable[[T], None], items: list[T], workers: int = 8) -> None:
    """``work_on`` each item in a few threads: the file system commits concurrent
    fsyncs together (one journal commit for many files), where one after the
    other each waits for the disk. The first error is raised here, once no thread
    is still at work.

    Plain threads: importing concurrent.futures would cost `pbem resolve` more than
    the syncs it saves. The caller works too, until nothing is left: a thread can die
    before it runs a line (under coverage's tracer in CI: "Cannot install a trace
    function while another trace function is being installed"), and a pool whose
    workers died that way waits for ever, or leaves its work undone."""
    if len(items) <= 1:
        for item in items:
            work_on(item)
        return
    pending = list(items)
    take = threading.Lock()
    failed: list[BaseException] = []

    def work() -> None:
        while not failed:
            with take:
                if not pending:
                    return
                item = pending.pop()
            try:
                work_on(item)
            except BaseException as exc:  # re-raised below, in the caller's thread
                failed.append(exc)

    helpers = [threading.Thread(target=work, name="pbem-sync") for _ in range(min(workers, len(pending)) - 1)]
    for thread in helpers:
        thread.start()
    work()
    for thread in helpers:
        thread.join()
    if failed:
        raise failed[0]


def fsync_dir(path: Path) -> None:
    """Make a file's creation or rename durable (the entry lives in the directory)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
