"""Drafts: every mail the tool wants to send, first written to the outbox.

A draft is a complete RFC 5322 message in ``mail/outbox/<id>.eml``: the GM can
read it, and ``pbem send`` sends it as it is. ``mail/messages.jsonl`` records
every Message-ID the tool created (with its kind, turn and recipient), so a
reply's ``In-Reply-To`` can be traced back to a campaign and a turn.

Headers are built with the standard ``email`` package, which refuses line
breaks in header values; names and addresses are validated by
:mod:`pbem.config` before they get here. So no player name, address or
template output can inject a header.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import quopri
import re
import sys
import threading
from collections.abc import Iterable, Sequence
from datetime import UTC
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .store import (
    TURN_MAIL,
    TURN_MAIL_INDEX,
    CampaignStore,
    StoreError,
    append_line,
    append_lines,
    fsync_dir,
    fsync_files,
    write_all,
)
from .tuples import NamedTuple

if TYPE_CHECKING:
    from .config import Person


class Draft(NamedTuple):
    id: str
    path: Path
    to: str
    subject: str
    kind: str


def _domain(address: str) -> str:
    return address.rsplit("@", 1)[-1] if "@" in address else "pbem.invalid"


_MSG_ID = re.compile(r"<[!-;=?-~]{1,500}>")  # printable ASCII, no spaces, no angle brackets inside
_SPECIALS = set('()<>@,;:\\".[]')
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def make_message(
    *,
    sender_name: str,
    sender: str,
    to_name: str,
    to: str,
    subject: str,
    body: str,
    message_id: str,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    date: str | None = None,
) -> bytes:
    """A plain-text UTF-8 message (one text/plain part, quoted-printable), ready to send.

    The encodings are the standard library's: ``email.header`` for RFC 2047
    words and header folding, ``quopri`` for the body. ``email.message`` is not
    used because importing it (with ``email.utils``, which loads ``socket``)
    costs more than the rest of drafting a turn's mails, on every resolve.
    Header values are checked for line breaks here, so nothing can be injected.
    """
    values = [sender_name, sender, to_name, to, subject, message_id]
    if any("\r" in v or "\n" in v for v in values):
        raise ValueError("a header value holds a line break")
    # Ids echoed from a player's message are only kept when well formed.
    if in_reply_to and not _MSG_ID.fullmatch(in_reply_to):
        in_reply_to = None
    references = [r for r in references if r and _MSG_ID.fullmatch(r)]

    if date is None:
        from datetime import datetime

        now = datetime.now(UTC)
        date = (
            f"{_DAYS[now.weekday()]}, {now.day:02d} {_MONTHS[now.month - 1]} {now.year} {now:%H:%M:%S} +0000"
        )
    headers = [
        ("MIME-Version", "1.0"),
        ("Content-Type", 'text/plain; charset="utf-8"'),
        ("Content-Transfer-Encoding", "quoted-printable"),
        ("From", _address(sender_name, sender) if sender else "pbem <pbem@localhost>"),
        ("To", _address(to_name, to)),
        (
            "Subject",
            subject
            if subject.isascii() and len(subject) < 68  # needs neither encoding nor folding
            else _rfc2047(subject, "us-ascii" if subject.isascii() else "utf-8", header_name="Subject"),
        ),
        ("Date", date),
        ("Message-ID", message_id),
    ]
    if in_reply_to:
        headers.append(("In-Reply-To", in_reply_to))
    if references:
        headers.append(("References", "\r\n ".join(references)))
    headers += [("Auto-Submitted", "auto-generated"), ("X-Mailer", "pbem")]
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    return head.encode("ascii") + b"\r\n" + _quoted_printable(body)


@functools.lru_cache(maxsize=256)
def _address(name: str, addr: str) -> str:
    """``Name <addr>`` as a header gives it: the name encoded (RFC 2047) or quoted where
    it must be. Cached: a batch writes to the same few players again and again."""
    if not name:
        return addr
    if not name.isascii():
        name = _rfc2047(name, "utf-8")
    elif _SPECIALS & set(name):
        name = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{name} <{addr}>"


def _rfc2047(text: str, charset: str, header_name: str | None = None) -> str:
    """A header value encoded and folded by ``email.header`` (imported only for
    a value that needs it: most names and subjects are short plain ASCII)."""
    from email.header import Header

    return Header(text, charset, header_name=header_name).encode(linesep="\r\n")


@functools.lru_cache(maxsize=4)
def _quoted_printable(body: str) -> bytes:
    """The body in quoted-printable with CRLF line ends (cached: a turn's public
    report goes to every player, the same bytes each time)."""
    text = body.replace("\r\n", "\n").encode("utf-8")
    return quopri.encodestring(text).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def seat_part(seat: int) -> str:
    """A player's part of a draft id: their seat (0-based in, 1-based out).

    The seat, not the name: names in any script, or spelt alike ("Chloé",
    "Chloe"), must never give two players' drafts one file name."""
    return f"seat{seat + 1}"


class DraftClash(StoreError):
    """A draft of that id is in the outbox already: drafts are never replaced."""


class Outbox:
    """The campaign's drafts folder and the index of Message-IDs it created.

    With ``durable=False`` (a batch), drafts are written by a background thread
    without a sync each, overlapping the file system's work with the caller's
    (creating a file costs up to a third of a millisecond on some disks, and up to
    a whole one on a virtual machine's); their index lines wait for :meth:`flush`,
    which waits for every write, and the caller syncs once for the batch. While
    the writer runs, the interpreter switches threads sooner (:func:`_quick_switching`),
    unless ``quick_switching`` is False: a caller that hands its drafts over in one go
    (a GM folder's fetch, a game's few drafts at once, a writer per game) gains
    nothing from it, and its reading thread hands the lock around more often.
    """

    def __init__(self, root: Path, durable: bool = True, quick_switching: bool = True):
        self.root = Path(root)
        self.store = CampaignStore(self.root)
        self.folder = self.store.outbox
        self.durable = durable
        self.quick_switching = quick_switching
        self._known: dict[str, dict[str, Any]] | None = None
        self._pending: list[str] = []
        self._writer: _Writer | None = None  # started by a batch's first draft
        self._unwritten: list[tuple[Path, bytes]] = []  # the batch's drafts not yet handed over
        self._written: list[Path] = []  # the batch's draft files, fsync'd together by flush()

    @property
    def pending(self) -> bool:
        """Whether a batch holds drafts not yet indexed (see :meth:`flush`)."""
        return bool(self._pending)

    def message_id(self, draft_id: str, gm_address: str) -> str:
        token = os.urandom(6).hex()
        return f"<{draft_id}.{token}@{_domain(gm_address)}>"

    def add(
        self,
        draft_id: str,
        raw: bytes,
        *,
        message_id: str,
        kind: str,
        turn: int | None,
        to: str,
        player: str | None,
    ) -> Draft:
        """Write a new draft and index it; a draft of the same id already in the
        outbox is an error (:class:`DraftClash`), never replaced."""
        path = self.folder / f"{draft_id}.eml"
        entry = {
            "message_id": message_id,
            "draft": draft_id,
            "kind": kind,
            "turn": turn,
            "to": to,
            "player": player,
        }
        line = json.dumps(entry, ensure_ascii=False)
        if self.durable:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_new(path, raw, sync=True)
            fsync_dir(self.folder)
            append_line(self.store.messages, line)
        else:
            if self._writer is None:
                self.folder.mkdir(parents=True, exist_ok=True)
                self._writer = _Writer()
                if self.quick_switching:
                    _quick_switching(True)
            # Unsynced here: flush() syncs the batch's drafts side by side, which
            # costs about one disk wait instead of one per draft. Handed over a few
            # at a time: each hand-over wakes the writer, and costs the caller more
            # than the writing (measured: 15% of a 1,000-message fetch, one by one).
            self._unwritten.append((path, raw))
            if len(self._unwritten) >= WRITER_CHUNK:
                self.write_given()
            self._pending.append(line)
            self._written.append(path)
        if self._known is not None:
            self._known[message_id] = entry
        return Draft(draft_id, path, to, "", kind)

    def has(self, draft_id: str) -> bool:
        """Whether a draft of that id waits in the outbox (e.g. written by a run that
        crashed before it recorded having written it: the caller keeps it)."""
        return (self.folder / f"{draft_id}.eml").exists()

    def index(self, entry: dict[str, Any]) -> None:
        """Index a draft put in the outbox by other means (a hard link)."""
        self._pending.append(json.dumps(entry, ensure_ascii=False))
        if self._known is not None:
            self._known[entry["message_id"]] = entry

    def write_given(self) -> None:
        """Give the drafts not yet handed over to the writer thread (:meth:`wait` does
        too): a caller with several batches starts every writer before it waits for one."""
        if self._unwritten:
            assert self._writer is not None  # started by the batch's first draft
            self._writer.give(self._unwritten)
            self._unwritten = []

    def wait(self) -> None:
        """Wait for the batch's draft files (an error writing one is raised here)."""
        self.write_given()
        writer, self._writer = self._writer, None
        if writer is not None:
            try:
                writer.finish()
            finally:  # the writer has stopped either way (its writes done, or one failed)
                if self.quick_switching:
                    _quick_switching(False)

    def take_unsynced(self) -> list[Path]:
        """The batch's draft files written without a sync (after :meth:`wait`), handed
        over to a caller that syncs them and this folder before :meth:`flush`."""
        written, self._written = self._written, []
        return written

    def flush(self, sync: bool = True) -> None:
        """Index the drafts of a batch, once their files are written (:meth:`wait`):
        their bytes are synced (side by side), then their folder entries, once for
        all, and only then the index that names them. Without ``sync``, only the
        files are synced (see :func:`publish`)."""
        if self._written:
            fsync_files(self._written)
            fsync_dir(self.folder)
            self._written = []
        if self._pending:
            append_lines(self.store.messages, self._pending, sync=sync)
            self._pending = []

    def drafts(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted(p for p in self.folder.iterdir() if p.suffix == ".eml")

    def remove(self, draft_id: str) -> None:
        (self.folder / f"{draft_id}.eml").unlink(missing_ok=True)

    def known_ids(self) -> dict[str, dict[str, Any]]:
        """Message-ID -> what the tool sent it for (kind, turn, player)."""
        if self._known is not None:
            return self._known
        path = self.store.messages
        out: dict[str, dict[str, Any]] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a torn last line after a crash
                out[entry["message_id"]] = entry
        self._known = out
        return out


# How long a thread that waits for the interpreter lock waits at most while a draft
# writer runs. The writer spends its time in the kernel, but takes the lock back
# between its calls (open, write, close, link, unlink): at Python's default of 5 ms,
# it writes a draft every 25 ms or so while the caller reads mail, and most of a
# batch's drafts were left for the end (measured on 1,000 messages: 0.4 s of 2.4 s
# spent waiting for them; 0.2-0.3 s at 0.5 ms; under 0.01 s at this value, the
# fetch 10-15% quicker than at 0.5 ms). Not for a GM folder's fetch (a writer per game,
# each given its game's few drafts at once): there it cost about 6% more processor
# time (bench/route.py, 32 runs alternated), the reading thread handing the lock to
# writers with little to do.
WRITER_SWITCH_INTERVAL = 0.0001
WRITER_CHUNK = 16  # drafts handed to the writer thread at once
_switching = threading.Lock()
_writers_running = [0, 0.0]  # how many batch writers run; the interval before the first


def _quick_switching(start: bool) -> None:
    """A batch writer starts (True) or stops: the first to start lowers the
    interpreter's switch interval to :data:`WRITER_SWITCH_INTERVAL` (never raises it),
    the last to stop gives back the one it found."""
    with _switching:
        if start:
            if _writers_running[0] == 0:
                _writers_running[1] = sys.getswitchinterval()
                sys.setswitchinterval(min(_writers_running[1], WRITER_SWITCH_INTERVAL))
            _writers_running[0] += 1
        elif _writers_running[0] > 0:
            _writers_running[0] -= 1
            if _writers_running[0] == 0:
                sys.setswitchinterval(_writers_running[1])


def summarize(path: Path) -> dict[str, str]:
    """To and Subject of a draft, for listings."""
    from email import message_from_bytes
    from email.policy import default

    msg = message_from_bytes(path.read_bytes(), policy=default)
    return {"to": str(msg.get("To", "")), "subject": str(msg.get("Subject", ""))}


class _Writer:
    """A batch's draft writer: one thread, given the drafts a chunk at a time, that
    writes them in order until :meth:`finish`.

    A thread of its own rather than a ``ThreadPoolExecutor``: a fetch in the test
    suite once waited for ever on a draft write whose pool thread was gone (most
    likely a thread that died as it started, under coverage's tracer: see
    :func:`pbem.store.side_by_side`). Here nothing but :meth:`finish` ends the
    thread, which catches every error of a write, and :meth:`finish` writes itself
    whatever chunk the thread did not take: a batch cannot wait for a thread that is
    not there (``tests/test_fsync.py``, threads that die at start)."""

    def __init__(self) -> None:
        import queue

        self._chunks: queue.SimpleQueue[list[tuple[Path, bytes]] | None] = queue.SimpleQueue()
        self._failed: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, name="pbem-outbox", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (chunk := self._chunks.get()) is not None:
            try:
                _write_drafts(chunk)
            except BaseException as e:  # noqa: BLE001 - raised by finish(), in the caller
                self._failed.append(e)

    def give(self, chunk: list[tuple[Path, bytes]]) -> None:
        self._chunks.put(chunk)

    def finish(self) -> None:
        """Wait until every draft given was written; the first error is raised here."""
        import queue

        self._chunks.put(None)
        self._thread.join()
        while True:  # chunks left behind by a thread that stopped early (see the class)
            try:
                chunk = self._chunks.get_nowait()
            except queue.Empty:
                break
            if chunk is not None:
                try:
                    _write_drafts(chunk)
                except Exception as e:  # noqa: BLE001 - the first error is raised below
                    self._failed.append(e)
        if self._failed:
            raise self._failed[0]


def _write_drafts(drafts: list[tuple[Path, bytes]]) -> None:
    """Write each of a batch's drafts (:func:`write_new`, unsynced); the first error is
    raised once every other draft was written."""
    failed: list[Exception] = []
    for path, raw in drafts:
        try:
            write_new(path, raw, False)
        except Exception as e:  # noqa: BLE001 - raised below, after the others
            failed.append(e)
    if failed:
        raise failed[0]


def write_new(path: Path, raw: bytes, sync: bool = True) -> None:
    """Write a draft aside, then give it its name with a hard link, which fails
    if the name is taken: a reader never sees half a draft, and no draft ever
    replaces another (:class:`DraftClash`). With ``sync``, the bytes are on
    disk before the draft has its name (the caller syncs the folder).

    By file descriptor, not a file object (which asks the file what it is and how
    big before the first write): a batch's writer thread takes the interpreter lock
    back after each call to the kernel, so the fewer calls, the sooner it is done."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        # the campaign lock is held: no other writer of this id
        _write_file(tmp, raw, sync, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise _clash(path) from None
        except OSError:  # no hard links on this file system: create exclusively
            try:
                _write_file(path, raw, sync, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
            except FileExistsError:
                raise _clash(path) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _write_file(path: Path, raw: bytes, sync: bool, flags: int) -> None:
    """Open ``path`` with ``flags`` (as ``open`` would: mode 0o666 less the umask), write
    all of ``raw`` and, with ``sync``, fsync it."""
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        write_all(fd, raw)
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def _clash(path: Path) -> DraftClash:
    return DraftClash(
        f"{path}: a draft of this name is in the outbox already; it was not replaced "
        f"(send or delete it, then run the command again)"
    )


def turn_subjects(campaign: str, turn: int, finished: bool) -> tuple[str, str]:
    """Subjects of the public and private mails after ``turn`` (0: the opening).

    Both carry ``[campaign] Turn N`` with N the turn now awaited, so that a reply
    to either is read as orders for that turn."""
    if finished:
        return (
            f"[{campaign}] Game over: final report (turn {turn})",
            f"[{campaign}] Game over: your final position",
        )
    nxt = turn + 1
    if turn == 0:
        return f"[{campaign}] Turn 1: the game begins", f"[{campaign}] Turn 1: your cards and orders"
    return (
        f"[{campaign}] Turn {nxt}: report of turn {turn}",
        f"[{campaign}] Turn {nxt}: your cards and orders",
    )


def turn_mails(
    root: Path,
    campaign: str,
    turn: int,
    generation: int,
    finished: bool,
    gm: Person | None,
    players: Sequence[Person],
    public: str,
    private: dict[str, str],
) -> dict[str, str]:
    """The turn's mails as files for the turn folder: ``mail/<id>.eml`` for the
    public report to every player and each private report to its player, and
    ``mail/index.jsonl``. Each player's turn mails form one thread (In-Reply-To /
    References to their previous private mail)."""
    outbox = Outbox(root)
    last_private = _last_private(outbox, turn)
    public_subject, private_subject = turn_subjects(campaign, turn, finished)
    suffix = f"t{turn:03d}" + (f"r{generation}" if generation > 1 else "")
    sender_name = gm.name if gm else "pbem"
    sender = gm.email if gm else ""
    files: dict[str, str] = {}
    index: list[str] = []
    for seat, person in enumerate(players):
        previous = last_private.get(person.name)
        for kind, subject, body in (
            ("public", public_subject, public),
            ("private", private_subject, private[person.name]),
        ):
            draft_id = f"{suffix}-{kind}-{seat_part(seat)}"
            message_id = outbox.message_id(draft_id, sender)
            raw = make_message(
                sender_name=sender_name,
                sender=sender,
                to_name=person.name,
                to=person.email,
                subject=subject,
                body=body,
                message_id=message_id,
                in_reply_to=previous,
                references=[previous] if previous else [],
            )
            files[f"{TURN_MAIL}/{draft_id}.eml"] = raw.decode("ascii")
            index.append(
                json.dumps(
                    {
                        "message_id": message_id,
                        "draft": draft_id,
                        "kind": kind,
                        "turn": turn + 1,
                        "to": person.email,
                        "player": person.name,
                    },
                    ensure_ascii=False,
                )
            )
    files[TURN_MAIL_INDEX] = "\n".join(index) + "\n"
    return files


def _last_private(outbox: Outbox, turn: int) -> dict[str, str]:
    """Player -> the Message-ID of their latest private turn mail before
    ``turn``'s. The previous turn folder's mail index names them (a small file);
    without one (a campaign begun by an older pbem), the whole index of every
    Message-ID is read."""
    entries: Iterable[dict[str, Any]] = []
    previous = outbox.store.turn_mail_index(outbox.store.turn_dir(turn - 1)) if turn else None
    if previous is not None and previous.exists():
        entries = (json.loads(line) for line in previous.read_text(encoding="utf-8").splitlines())
    elif turn:
        entries = outbox.known_ids().values()  # file order: the last one wins
    out = {}
    for entry in entries:
        # Earlier turns only: drafts of a rolled-back turn were never sent.
        if entry.get("kind") == "private" and entry.get("player") and (entry.get("turn") or 0) <= turn:
            out[entry["player"]] = entry["message_id"]
    return out


def withdraw(root: Path, turn_dirs: list[Path]) -> list[str]:
    """Take the unsent drafts of undone turns out of the outbox (idempotent: a
    rollback killed half-way is finished by the next command that sends).
    Sent ones cannot be recalled; the corrected turn is drafted under new ids."""
    if not turn_dirs:
        return []  # no turn undone: nothing to list (every tick asks, twice)
    outbox = Outbox(root)
    present = {p.stem for p in outbox.drafts()}
    withdrawn = []
    for turn_dir in turn_dirs:
        index_path = outbox.store.turn_mail_index(turn_dir)
        if not present or not index_path.exists():
            continue
        for line in index_path.read_text(encoding="utf-8").splitlines():
            try:
                draft_id = json.loads(line)["draft"]
            except (ValueError, KeyError, TypeError):
                continue  # not a line this tool wrote
            if draft_id in present:
                outbox.remove(draft_id)
                present.discard(draft_id)
                withdrawn.append(draft_id)
    if withdrawn:
        fsync_dir(outbox.folder)
    return withdrawn


def publish(root: Path, turn_dir: Path) -> list[str]:
    """Put a turn folder's drafts in the outbox, those not yet published.

    A draft is hard-linked, not copied: the same bytes, no second write. The
    links and their index lines are not synced (that would double the disk
    waits of a resolve): the turn folder they come from is, and every command
    that shows or sends drafts (`preview`, `send`, `tick`) publishes again
    first, which is idempotent, so a link lost in a crash is made again. And
    a draft is sent once at most by the sent ledger, synced before each
    message leaves, never by the outbox. Copies (a file system without hard
    links) are synced: a torn copy would block the next publish."""
    outbox = Outbox(root, durable=False)
    index_path = outbox.store.turn_mail_index(turn_dir)
    if not index_path.exists():
        return []
    known = outbox.known_ids()
    published: list[str] = []
    for line in index_path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry["message_id"] in known:
            continue
        source = outbox.store.turn_mail(turn_dir) / f"{entry['draft']}.eml"
        target = outbox.folder / source.name
        if not published:
            outbox.folder.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target)
            linked = True
        except FileExistsError:
            # Published before a crash, and only the index is missing: the same file (or a copy,
            # synced below).
            linked = os.path.samefile(source, target)
            if not linked and target.read_bytes() != source.read_bytes():
                raise _clash(target) from None
        except OSError:  # no hard links here: copy
            linked = False
        if linked:  # the turn folder's file, synced with it
            outbox.index(entry)
        elif target.exists() and target.read_bytes() == source.read_bytes():  # copied before a crash
            outbox.index(entry)
            outbox._written.append(target)
        else:
            outbox.add(
                entry["draft"],
                source.read_bytes(),
                message_id=entry["message_id"],
                kind=entry["kind"],
                turn=entry["turn"],
                to=entry["to"],
                player=entry["player"],
            )
        published.append(entry["draft"])
    outbox.wait()  # copies (no hard links on this file system)
    outbox.flush(sync=False)  # the copies' bytes and names, synced; then the index
    return published
