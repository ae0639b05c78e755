"""Mail in: every message kept, its orders recorded, its sender answered.

For each message, in this order:

1. the bytes are kept as they came, in ``mail/received/`` (even a stranger's,
   even an unreadable one); a message already seen (same Message-ID or same
   bytes) is recorded once;
2. :func:`pbem.mailreader.read_mail` finds the sender, the subject tag, the
   turn and the player's own words;
3. the sender must be a registered player; the message must be for this
   campaign (subject tag, or a reply to a message the tool sent); the order
   code, when present, must be the sender's (and must be present with
   ``require_code: true``);
4. ``CLEAR`` drops the player's orders for the turn, ``STATUS`` asks for the
   cards and orders on file again; the orders are recorded;
5. an acknowledgement is drafted in the outbox.

A batch (``pbem fetch``) holds the campaign lock once and writes in phases:
the messages first, then the orders and drafts, then the index of messages
processed. A crash anywhere leaves messages that will simply be read again,
and reading a message again gives the same orders.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from .campaign import Campaign, OrderBook, Receipt, order_code
from .grammar import CODE, SUBJECT_TAG
from .outbox import Outbox, make_message, seat_part

RECEIVED = Path("mail") / "received"
INDEX = Path("mail") / "received.jsonl"
INBOX = Path("mail") / "inbox"

KEYWORD = re.compile(r"^\s*(STATUS|CLEAR)\s*[.!]?\s*$", re.IGNORECASE | re.MULTILINE)

# What became of a message (the index and `pbem status` use these words).
RECORDED = "recorded"
DUPLICATE = "duplicate"
UNREADABLE = "unreadable"
UNKNOWN_SENDER = "unknown sender"
OTHER_CAMPAIGN = "other campaign"
CODE_MISMATCH = "code mismatch"
CODE_MISSING = "code missing"
GAME_OVER = "game over"
REFUSED = {UNREADABLE, UNKNOWN_SENDER, OTHER_CAMPAIGN, CODE_MISMATCH, CODE_MISSING, GAME_OVER}


@dataclass
class Outcome:
    """What became of one message."""

    file: str                     # where its bytes are kept, relative to the campaign
    status: str
    detail: str = ""
    sender: str = ""
    player: str | None = None
    receipt: Receipt | None = None
    keywords: list[str] = field(default_factory=list)
    ack: str | None = None        # the draft id of the acknowledgement, if any

    @property
    def recorded(self) -> bool:
        return self.status == RECORDED

    def summary(self) -> str:
        who = self.player or self.sender or "unknown sender"
        lines = [f"{self.file}: {self.status} ({who}){': ' + self.detail if self.detail else ''}"]
        if self.receipt is not None:
            lines += self.receipt.lines()
        if self.ack:
            lines.append(f"  acknowledgement drafted: mail/outbox/{self.ack}.eml")
        return "\n".join(lines)


class Mailroom:
    """Receives messages into one campaign; use as a context manager around a batch."""

    def __init__(self, campaign: Campaign):
        self.campaign = campaign
        self.root = campaign.folder
        self.outbox = Outbox(self.root, durable=False)
        self._renderer = None
        self._position = None
        self._addresses: dict[str, str] | None = None  # registered address -> player
        self._lock = None
        self._index: dict[str, str] | None = None
        self._book: OrderBook | None = None
        self._pending_index: list[dict] = []
        self._raw_written: list[Path] = []

    # -- batch ------------------------------------------------------------------------------
    def __enter__(self) -> "Mailroom":
        self._lock = self.campaign.locked()
        self._lock.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        try:
            if exc[0] is None:
                self.flush()
            else:
                try:  # the drafts being written are not indexed: the batch is read again
                    self.outbox.wait()
                except Exception:
                    pass
        finally:
            self._lock.__exit__(*exc)

    def flush(self) -> None:
        """Make the batch durable: orders and drafts, then the index."""
        self.outbox.wait()  # every draft file written
        if self._raw_written or self.outbox.pending:
            os.sync()  # the messages kept and the drafts, all at once
        self.outbox.flush()
        if self._book is not None:
            self._book.save()
        if self._pending_index:
            index = self.root / INDEX
            with open(index, "a", encoding="utf-8") as f:
                for entry in self._pending_index:
                    f.write(json.dumps(entry, ensure_ascii=False) + "\n")
                f.flush()
                os.fsync(f.fileno())
        self._pending_index = []
        self._raw_written = []

    # -- one message -------------------------------------------------------------------------------
    def receive(self, raw: bytes, source: str = "file", path: Path | None = None) -> Outcome:
        """Receive one message; ``path``, when the message is a file already
        (a Maildir), lets it be kept by a hard link instead of a copy."""
        sha = hashlib.sha256(raw).hexdigest()
        message_id = _message_id(raw)
        index = self._load_index()
        seen = index.get("sha:" + sha) or (message_id and index.get("id:" + message_id))
        relative = str(RECEIVED / f"{sha[:20]}.eml")
        if seen:
            return Outcome(seen, DUPLICATE, "this message was read before; nothing changed")
        self._keep(relative, raw, path)
        outcome = self._process(raw, relative)
        entry = {
            "file": relative, "sha256": sha, "message_id": message_id, "source": source,
            "received": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "sender": outcome.sender, "player": outcome.player, "status": outcome.status,
            "detail": outcome.detail, "ack": outcome.ack,
        }
        self._pending_index.append(entry)
        index["sha:" + sha] = relative
        if message_id:
            index["id:" + message_id] = relative
        return outcome

    def _keep(self, relative: str, raw: bytes, source: Path | None = None) -> None:
        path = self.root / relative
        if path.exists():
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        if source is not None:
            try:
                os.link(source, path)  # the same bytes, no copy (creating files is slow)
                self._raw_written.append(path)
                return
            except OSError:
                pass  # another file system, or no hard links: copy
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(raw)
        os.replace(tmp, path)
        self._raw_written.append(path)

    def _load_index(self) -> dict[str, str]:
        if self._index is None:
            self._index = {}
            path = self.root / INDEX
            if path.exists():
                for line in path.read_text(encoding="utf-8").splitlines():
                    try:
                        entry = json.loads(line)
                    except json.JSONDecodeError:
                        continue  # a torn last line: that message is read again
                    self._index["sha:" + entry["sha256"]] = entry["file"]
                    if entry.get("message_id"):
                        self._index["id:" + entry["message_id"]] = entry["file"]
        return self._index

    def _book_for_batch(self) -> OrderBook:
        if self._book is None:
            self._book = self.campaign.order_book()
        return self._book

    def _process(self, raw: bytes, relative: str) -> Outcome:
        from .mailreader import UnreadableMail, read_mail

        campaign = self.campaign
        if self._position is None:
            self._position = campaign.position()
        position = self._position
        players = position.players
        if self._addresses is None:
            self._addresses = {p.email.lower(): p.name for p in campaign.config.players}
        addresses = self._addresses
        try:
            mail = read_mail(raw)
        except UnreadableMail as e:
            sender = _bare_sender(raw)
            outcome = Outcome(relative, UNREADABLE, str(e), sender, addresses.get(sender))
            if outcome.player:
                outcome.ack = self._ack(outcome, None, position, problem=(
                    f"Your message could not be read: {e}. It is kept; please send your orders "
                    f"again as plain text."))
            return outcome
        sender = mail.sender
        player = addresses.get(sender)
        if player is None or player not in players:
            return Outcome(relative, UNKNOWN_SENDER,
                           f"{sender or 'no sender'} is not a player's address; the message is kept",
                           sender)
        known = self.outbox.known_ids()
        thread = next((known[i] for i in (*mail.in_reply_to, *mail.references) if i in known), None)
        if mail.tag is not None and mail.tag.casefold() != campaign.name.casefold() and thread is None:
            return Outcome(relative, OTHER_CAMPAIGN,
                           f"the subject names the campaign [{mail.tag}], this is [{campaign.name}]",
                           sender, player)
        turn = mail.turn
        if turn is None and thread is not None and thread.get("kind") in ("private", "public", "ack", "reminder"):
            turn = thread.get("turn")
        outcome = Outcome(relative, RECORDED, "", sender, player)
        code_problem = self._check_code(mail.full_text, player, position.seed)
        if code_problem:
            outcome.status, outcome.detail, told = code_problem
            outcome.ack = self._ack(outcome, mail, position, problem=told)
            return outcome
        if position.game.finished:
            outcome.status, outcome.detail = GAME_OVER, "the game is over; no more orders are taken"
            outcome.ack = self._ack(outcome, mail, position, problem=outcome.detail)
            return outcome
        book = self._book_for_batch()
        outcome.keywords = [k.upper() for k in KEYWORD.findall(mail.own_text)]
        if "CLEAR" in outcome.keywords:
            book.clear(player, source=relative)
        outcome.receipt = book.submit(player, mail.own_text, source=relative, turn=turn)
        if not outcome.receipt.checked and not outcome.keywords:
            outcome.detail = "no order could be read in this message"
        outcome.ack = self._ack(outcome, mail, position)
        return outcome

    def _check_code(self, text: str, player: str, seed: str) -> tuple[str, str, str] | None:
        """None when the code is right (or absent and not required); else the
        status, a line for the GM, and what the player is told."""
        mine = order_code(seed, player)
        found = set(CODE.findall(text.upper()))
        if mine in found:
            return None
        if found:
            code = sorted(found)[0]
            return (CODE_MISMATCH, f"order code {code} is not {player}'s (a forgery?); {player} was told",
                    f"A message from your address carried the order code {code}, which is not yours, "
                    f"so it was refused. If you did not send it, tell the GM: someone may be writing "
                    f"in your name. If you did, reply to your own turn mail, which holds your code.")
        if self.campaign.config.require_code:
            return (CODE_MISSING, "no order code; this game requires one",
                    "Your order code is missing, and this game requires it in every order mail: "
                    "reply to your turn mail, or copy the code from it. Your orders were not recorded.")
        return None

    # -- acknowledgements -----------------------------------------------------------------------
    def _ack(self, outcome: Outcome, mail, position, problem: str = "") -> str:
        """Draft the acknowledgement of one message; returns its draft id."""
        from .reports import Renderer

        campaign = self.campaign
        config = campaign.config
        player = outcome.player
        person = next(p for p in config.players if p.name == player)
        seat = position.players.index(player)
        game = position.game
        receipt = outcome.receipt
        on_file = receipt.on_file if receipt else self._book_for_batch().mine(player) if not game.finished else {}
        missing = receipt.missing if receipt else ([] if game.finished else self._book_for_batch().missing(player))
        rejected = problem or (receipt is not None and receipt.any_rejected)
        hands = []
        if "STATUS" in outcome.keywords:
            hands = [{"number": h.number, "cards": [c.title for c in h.cards[seat]],
                      "your_turn": h.active == seat}
                     for h in game.hands if not h.ended and h.alive[seat]]
        context = {
            "campaign": campaign.name,
            "title": config.title,
            "player": player,
            "turn": game.turn,
            "problem": problem,
            "receipt": receipt,
            "keywords": outcome.keywords,
            "detail": outcome.detail,
            "on_file": on_file,
            "missing": missing,
            "hands": hands,
            "code": order_code(position.seed, player),
        }
        if self._renderer is None:
            self._renderer = Renderer(campaign.store.templates_dir())
        body = self._renderer.render("ack.txt.j2", context)
        subject = f"[{campaign.name}] Turn {game.turn}: " + ("orders NOT all accepted" if rejected
                                                                else "orders received")
        if rejected:
            subject = "[ERROR] " + subject
        gm = config.gm
        draft_id = f"ack-t{game.turn:03d}-{seat_part(seat)}-{outcome.file.rsplit('/', 1)[-1][:12]}"
        if self.outbox.has(draft_id):  # acknowledged by a batch that crashed before its index
            return draft_id
        message_id = self.outbox.message_id(draft_id, gm.email if gm else "")
        reply_to = mail.message_id if mail is not None else None
        refs = list(mail.references) + ([mail.message_id] if mail and mail.message_id else []) if mail else []
        raw = make_message(sender_name=gm.name if gm else "pbem", sender=gm.email if gm else "",
                           to_name=player, to=person.email, subject=subject, body=body,
                           message_id=message_id, in_reply_to=reply_to, references=refs[-10:])
        self.outbox.add(draft_id, raw, message_id=message_id, kind="ack", turn=game.turn,
                        to=person.email, player=player)
        return draft_id


def _tag_of(subject: str) -> str | None:
    """The campaign tag of a raw Subject header (RFC 2047 words decoded)."""
    from email.header import decode_header, make_header

    try:
        subject = str(make_header(decode_header(subject)))
    except (ValueError, LookupError, UnicodeDecodeError):
        pass
    match = SUBJECT_TAG.search(subject)
    return match.group(1) if match else None


def _message_id(raw: bytes) -> str | None:
    """The Message-ID, read cheaply from the header block (no full parse)."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    match = re.search(rb"(?im)^message-id:\s*(<[^>\s]{1,500}>)", head)
    return match.group(1).decode("ascii", "replace") if match else None


def _bare_sender(raw: bytes) -> str:
    """The From address of a message the reader could not read, if any."""
    from email.utils import parseaddr

    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    match = re.search(rb"(?im)^from:(.*)$", head)
    if not match:
        return ""
    return parseaddr(match.group(1).decode("latin-1").strip())[1].lower()


# -- ways in --------------------------------------------------------------------------------------------


def receive_file(campaign: Campaign, path: Path) -> Outcome:
    """``pbem order DIR --mail FILE``."""
    raw = Path(path).read_bytes()
    with Mailroom(campaign) as room:
        return room.receive(raw, source=f"file:{Path(path).name}")


def fetch_maildir(campaign: Campaign, maildir: Path | None = None) -> list[Outcome]:
    """``pbem fetch`` without a ``mail:`` section: read every new message of the
    campaign's Maildir (``mail/inbox``), then file it under ``cur/`` as seen."""
    maildir = Path(maildir) if maildir else campaign.folder / INBOX
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True, exist_ok=True)
    outcomes = []
    with Mailroom(campaign) as room:
        # Listed under the lock: a fetch that waited for another finds only what is left.
        new = sorted((maildir / "new").iterdir(), key=lambda p: (p.stat().st_mtime, p.name))
        for path in new:
            outcomes.append(room.receive(path.read_bytes(), source=f"maildir:{path.name}", path=path))
        room.flush()
        for path in new:  # only once the batch is durable, and before the lock goes
            os.replace(path, maildir / "cur" / (path.name + ("" if ":2," in path.name else ":2,S")))
    return outcomes


def fetch_imap(campaign: Campaign) -> list[Outcome]:
    """Fetch this campaign's new messages by IMAP into the Mailroom: a message
    is the campaign's by its subject tag or as a reply to a message the tool sent."""
    # Imported here for start-up time: imapclient loads only when a fetch runs.
    from .postoffice import IMAP_LEDGER, imap_settings
    from .transport.imap import FetchLedger, fetch_new as fetch_from_server

    settings = imap_settings(campaign.config)
    known = Outbox(campaign.folder).known_ids()
    name = campaign.name.casefold()

    def belongs(headers) -> bool:
        tag = _tag_of(str(headers.get("Subject", "")))
        if tag is not None and tag.casefold() == name:
            return True
        ids = " ".join(str(headers.get(h, "")) for h in ("In-Reply-To", "References"))
        return any(i in known for i in ids.split())

    outcomes: list[Outcome] = []
    ledger = FetchLedger(campaign.folder / IMAP_LEDGER)
    with Mailroom(campaign) as room:
        def deliver(raw: bytes) -> None:
            outcomes.append(room.receive(raw, source="imap"))
            room.flush()  # durable before the server copy is moved away

        fetch_from_server(settings, ledger, belongs, deliver)
    return outcomes


def fetch_new(campaign: Campaign) -> list[Outcome]:
    """``pbem fetch``: from IMAP when campaign.yaml has a ``mail:`` section with
    ``imap:``, else from the campaign's Maildir."""
    imap = campaign.config.extra.get("mail", {}) or {}
    if isinstance(imap, dict) and imap.get("imap"):
        outcomes = fetch_imap(campaign)
    else:
        outcomes = fetch_maildir(campaign)
    _auto_ack(campaign, outcomes)
    return outcomes


def _auto_ack(campaign: Campaign, outcomes: list[Outcome]) -> None:
    """With ``auto_ack: true`` and SMTP set up, acknowledgements go at once."""
    from .postoffice import auto_ack, send, smtp_settings

    acks = [o.ack for o in outcomes if o.ack]
    if acks and auto_ack(campaign.config) and smtp_settings(campaign.config) is not None:
        send(campaign, acks)


def refused_messages(campaign: Campaign) -> list[dict]:
    """The messages refused so far (for `pbem status`)."""
    path = campaign.folder / INDEX
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if entry.get("status") in REFUSED:
            out.append(entry)
    return out
