"""Mail in: every message kept, its orders recorded, its sender answered.

For each message, in this order:

1. the bytes are kept as they came, in ``mail/received/`` under a name of
   pbem's own (even a stranger's, even an unreadable one); a message already
   seen (the same bytes: a Message-ID is the sender's word) is recorded once;
2. :func:`pbem.reader.read_mail` finds the sender, the subject tag, the
   turn and the player's own words;
3. the sender must be a registered player; the message must be for this
   campaign (subject tag, or a reply to a message the tool sent); the order
   code, when present, must be the sender's (and must be present with
   ``require_code: true``);
4. ``CLEAR`` drops the player's orders for the turn, ``STATUS`` asks for the
   cards and orders on file again; the orders are recorded;
5. an acknowledgement is drafted in the outbox. It echoes only what was read
   as orders (in the tool's own words) and counts the other lines: a stranger
   writing from a player's address must not make the GM's acknowledgement carry
   their text (a link, a "password reset") to the real player. At most
   :func:`acks_per_hour` acknowledgements go to one player in an hour; beyond
   that the message is still kept and its orders recorded, but the
   acknowledgement is *held*: drafted for the GM, never sent on its own
   (``auto_send``), and listed by ``pbem status`` (:func:`held_acks`).

A batch (``pbem fetch``) holds the campaign lock once and writes in phases:
the messages first, then the orders and drafts, then the index of messages
processed. A crash anywhere leaves messages that will simply be read again;
a message whose orders were recorded before is answered but not applied again
(an order recorded since stands), and the acknowledgements a crashed batch
drafted are indexed by the next one (:meth:`Mailroom._repair_index`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import stat
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .campaign import Campaign, order_code
from .config import CampaignConfig, ConfigError
from .forked import ReadAhead
from .grammar import SUBJECT_TAG, codes_in, is_absence_text, mask_codes
from .orderbook import OrderBook, Position, Receipt
from .orders import orders_with_subject
from .outbox import Outbox, make_message, seat_part
from .received import held_acks, received_entries
from .store import RECEIVED, CampaignStore, fsync_dir, fsync_files, side_by_side, write_atomic, write_kept

if TYPE_CHECKING:  # for the annotations only: the reports load when an acknowledgement is drafted
    import email.message
    from contextlib import AbstractContextManager

    from .reader import ReadMail
    from .reports import Renderer

# The tool's own mails a reply may repeat (the turn mail under an Outlook header, say): every
# mail it sends a player.  A reply to an acknowledgement, quoted bare, repeats its echo of the
# orders; a player who repeats an acknowledged order as their own is still read (the reader
# keeps a short run of orders for the hands they play).
ANSWERABLE_KINDS = ("private", "public", "reminder", "ack")
# Of those, the ones found by the subject's turn as well as by In-Reply-To / References: an
# acknowledgement is found only when the reply names it.
TURN_KINDS = ("private", "public", "reminder")

KEYWORD = re.compile(r"^\s*(STATUS|CLEAR|RULES)\s*[.!]?\s*$", re.IGNORECASE | re.MULTILINE)

# What became of a message (the index and `pbem status` use these words).
RECORDED = "recorded"
DUPLICATE = "duplicate"
UNREADABLE = "unreadable"
UNKNOWN_SENDER = "unknown sender"
OTHER_CAMPAIGN = "other campaign"
CODE_MISMATCH = "code mismatch"
CODE_MISSING = "code missing"
GAME_OVER = "game over"
AMBIGUOUS_SENDER = "ambiguous sender"
NOT_A_FILE = "not a plain file"  # a Maildir entry that is a symlink, a folder...: never read
REFUSED = {
    UNREADABLE,
    UNKNOWN_SENDER,
    OTHER_CAMPAIGN,
    CODE_MISMATCH,
    CODE_MISSING,
    GAME_OVER,
    AMBIGUOUS_SENDER,
}

#: Acknowledgements sent on their own to one player in any hour; more are held
#: for the GM (100 spoofed messages must not make 100 mails in the GM's name).
#: ``mail: acks_per_hour:`` in campaign.yaml changes it.
ACKS_PER_HOUR = 3


def acks_per_hour(config: CampaignConfig) -> int:
    """The hourly limit of acknowledgements to one player (``mail.acks_per_hour``)."""
    mail = config.extra.get("mail") or {}
    value = mail.get("acks_per_hour", ACKS_PER_HOUR) if isinstance(mail, dict) else ACKS_PER_HOUR
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(
            f"campaign.yaml: mail.acks_per_hour: a whole number, at least 1 (the "
            f"acknowledgements one player may get in an hour), not {value!r}"
        )
    return value


@dataclass
class Outcome:
    """What became of one message."""

    file: str  # where its bytes are kept, relative to the campaign
    status: str
    detail: str = ""
    sender: str = ""
    player: str | None = None
    receipt: Receipt | None = None
    keywords: list[str] = field(default_factory=list)
    ack: str | None = None  # the draft id of the acknowledgement, if any
    ack_held: bool = False  # over the hourly limit: the acknowledgement waits for the GM

    @property
    def recorded(self) -> bool:
        return self.status == RECORDED

    def summary(self) -> str:
        who = self.player or self.sender or "unknown sender"
        lines = [f"{self.file}: {self.status} ({who}){': ' + self.detail if self.detail else ''}"]
        if self.receipt is not None:
            lines += self.receipt.lines()
        if self.ack and self.ack_held:
            lines.append(
                f"  acknowledgement held for your review (too many to {self.player} in an "
                f"hour): mail/outbox/{self.ack}.eml"
            )
        elif self.ack:
            lines.append(f"  acknowledgement drafted: mail/outbox/{self.ack}.eml")
        return "\n".join(lines)


class Mailroom:
    """Receives messages into one campaign; use as a context manager around a batch."""

    def __init__(self, campaign: Campaign, renderer: Renderer | None = None, one_of_many: bool = False):
        """``renderer``: one that words the campaign's mail already (a GM folder's games
        without templates of their own share one: each template is loaded once).
        ``one_of_many``: one game of a GM folder's fetch, whose drafts are handed to the
        writer a game at a time (see :class:`pbem.outbox.Outbox`, ``quick_switching``)."""
        self.campaign = campaign
        self.root = campaign.folder
        self.store: CampaignStore = campaign.store
        self.outbox = Outbox(self.root, durable=False, quick_switching=not one_of_many)
        self._renderer: Renderer | None = renderer
        self._position: Position | None = None
        self._addresses: dict[str, str] | None = None  # registered address -> player
        self._code_owner: dict[str, str] | None = None  # order code -> player
        self._lock: AbstractContextManager[None] | None = None
        self._index: dict[str, str] | None = None
        self._acks_sent: dict[str, list[datetime]] = {}  # player -> when each unheld ack was drafted
        self._ack_limit = acks_per_hour(campaign.config)
        self._book: OrderBook | None = None
        self._pending_index: list[dict[str, Any]] = []
        self._recorded: set[str] | None = None  # messages whose orders were recorded before
        self._raw_written: list[Path] = []
        self._sent_texts: dict[str, str] = {}  # Message-ID -> text of a mail the tool sent
        self._turn_mails: dict[tuple[str, int], list[str]] | None = None  # (player, turn) -> ids
        # What a player may write in a hand (seat, hand) -> its plays and their words: the
        # position does not change within a batch, so each is worked out and worded once.
        self._plays: dict[tuple[int, int], tuple[list[dict[str, Any]], str]] = {}
        self._received_folder_made = False
        self._drafts_waiting: set[str] | None = None  # the outbox's draft files, listed once a batch

    # -- batch ------------------------------------------------------------------------------
    def __enter__(self) -> Mailroom:
        self._lock = self.campaign.locked()
        self._lock.__enter__()
        try:
            self._repair_index()
        except BaseException:
            self._lock.__exit__(None, None, None)
            raise
        return self

    def _repair_index(self) -> None:
        """Index again the acknowledgements a killed batch drafted but never indexed.

        A batch writes its drafts, then their lines in the index of Message-IDs
        (``mail/messages.jsonl``); killed in between, the drafts are there (the
        messages read again find them and draft nothing new) and the index does not
        name them. A reply to such an acknowledgement would not be traced to it (over
        IMAP: not even fetched when its subject lost the tag). So every batch first
        looks for drafts of its kind, waiting or sent, that the index lacks, and
        indexes each from its own headers (the lines go with the batch's)."""
        known = self.outbox.known_ids()
        # File names, so that the drafts indexed already (nearly all: every mail of a long game
        # sits in sent/) go in one set difference, not one pattern match each.
        indexed = {f"{entry.get('draft')}.eml" for entry in known.values()}
        players = None
        for folder in (self.outbox.folder, self.store.sent_folder):
            try:
                names = os.listdir(folder)
            except FileNotFoundError:
                continue
            for name in sorted(set(names).difference(indexed)):
                match = _ACK_DRAFT.fullmatch(name)
                if match is None:
                    continue
                try:
                    with open(folder / name, "rb") as f:
                        head = f.read(8192)
                except OSError:
                    continue
                message_id = _message_id(head)
                if message_id is None or message_id in known:
                    continue
                if players is None:
                    players = self.campaign.position().players
                seat = int(match["seat"]) - 1
                to = _bare_address(head, "to")
                self.outbox.index(
                    {
                        "message_id": message_id,
                        "draft": name[:-4],
                        "kind": "ack",
                        "turn": int(match["turn"]),
                        "to": to,
                        "player": players[seat] if 0 <= seat < len(players) else None,
                    }
                )
                indexed.add(name)

    def __exit__(self, *exc: Any) -> None:  # (type, value, traceback), passed on to the lock
        try:
            if exc[0] is None:
                self.flush()
            else:
                try:  # the drafts being written are not indexed: the batch is read again
                    self.outbox.wait()
                except Exception:
                    pass
        finally:
            assert self._lock is not None  # taken by __enter__
            self._lock.__exit__(*exc)

    def flush(self) -> None:
        """Make the batch durable: the messages kept and the drafts, then the orders,
        then the index (see :func:`flush_together`)."""
        flush_together([self])

    def _take_unsynced(self) -> tuple[list[Path], set[Path]]:
        """The batch's files written without a sync (the messages kept, the drafts, every
        draft written first) and their folders, handed over to be synced: the batch
        forgets them, and :meth:`_record` may follow once they are on disk."""
        self.outbox.wait()  # every draft file written (an error writing one is raised here)
        files = self._raw_written
        folders = {self.store.received} if files else set()
        drafts = self.outbox.take_unsynced()
        if drafts:
            folders.add(self.outbox.folder)
        self._raw_written = []
        return files + drafts, folders

    def _record(self) -> None:
        """The batch's records, once the files they name are on disk: the drafts' index,
        the orders, then what became of each message (the index a batch read again
        trusts: written last, so that nothing it names can be missing)."""
        self.outbox.flush()
        if self._book is not None:
            self._book.save()
            self._book = None  # saved: read again if the batch goes on (a flush per chunk)
        if self._pending_index:
            index = self.store.received_index
            # errors="replace": no text of a message, however odd, can stop the index
            # being written once its orders are saved (the batch would be read again).
            with open(index, "a", encoding="utf-8", errors="replace") as f:
                for entry in self._pending_index:
                    f.write(json.dumps(entry, ensure_ascii=False) + "\n")
                f.flush()
                os.fsync(f.fileno())
        self._pending_index = []

    # -- one message -------------------------------------------------------------------------------
    def receive(
        self,
        raw: bytes,
        source: str = "file",
        path: Path | None = None,
        read: Callable[[bytes], ReadMail] | None = None,
    ) -> Outcome:
        """Receive one message; ``path``, when the message is a file already
        (a Maildir), lets it be kept by a hard link instead of a copy; ``read``, how
        to read it (:func:`pbem.reader.read_mail`, or a batch's :class:`ReadAhead`).

        A message is the same as one read before when its bytes are: a Message-ID is
        the sender's word, and a stranger who used a player's (next) Message-ID first
        must not make the player's own message pass for a copy of theirs."""
        sha = hashlib.sha256(raw).hexdigest()
        message_id = _message_id(raw)
        index = self._load_index()
        seen = index.get("sha:" + sha)
        relative = str(RECEIVED / f"{sha[:20]}.eml")
        if seen:
            return Outcome(seen, DUPLICATE, "this message was read before; nothing changed")
        self._keep(relative, raw, path)
        outcome = self._process(raw, relative, read)
        entry: dict[str, Any] = {
            "file": relative,
            "sha256": sha,
            "message_id": message_id,
            "source": _printable(source),
            "received": self.campaign.now().isoformat(timespec="seconds"),
            "sender": outcome.sender,
            "player": outcome.player,
            "status": outcome.status,
            "detail": outcome.detail,
            "ack": outcome.ack,
        }
        if outcome.ack_held:
            entry["ack_held"] = True
        self._pending_index.append(entry)
        index["sha:" + sha] = relative
        return outcome

    def _keep(self, relative: str, raw: bytes, source: Path | None = None) -> None:
        path = self.root / relative
        if not self._received_folder_made:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._received_folder_made = True
        if source is not None:
            try:
                os.link(source, path, follow_symlinks=False)  # the same bytes, no copy
                info = os.lstat(path)
                if stat.S_ISREG(info.st_mode) and info.st_size == len(raw):
                    self._raw_written.append(path)
                    return
                path.unlink()  # swapped for a symlink or another file meanwhile: a copy of ours
            except FileExistsError:
                pass  # kept before (the name is the bytes' digest), or torn by a crash: see below
            except OSError:
                pass  # another file system, or no hard links: copy
        if write_kept(path, raw):  # synced with the batch, in flush(); a whole copy is left be
            self._raw_written.append(path)

    def _load_index(self) -> dict[str, str]:
        if self._index is None:
            self._index = {}
            for entry in received_entries(self.campaign):  # a torn last line: that message is read again
                if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str):
                    continue  # not a line pbem wrote
                self._index["sha:" + entry["sha256"]] = entry.get("file", "")
                if entry.get("ack") and not entry.get("ack_held") and entry.get("player"):
                    self._acks_sent.setdefault(entry["player"], []).append(_moment(entry.get("received")))
        return self._index

    def _recorded_sources(self) -> set[str]:
        """The kept messages whose orders are on record already (read once a batch)."""
        if self._recorded is None:
            self._recorded = self.store.received_sources()
        return self._recorded

    def _book_for_batch(self) -> OrderBook:
        if self._book is None:
            self._book = self.campaign.order_book()
        return self._book

    def _process(self, raw: bytes, relative: str, read: Callable[[bytes], ReadMail] | None = None) -> Outcome:
        """What becomes of one message kept at RELATIVE: read, its sender and campaign
        identified, its code checked, its orders submitted, acknowledged."""
        from .reader import UnreadableMail, read_mail

        if self._position is None:
            self._position = self.campaign.position()
        position = self._position
        try:
            mail = (read or read_mail)(raw)
        except UnreadableMail as e:
            return self._unreadable(raw, relative, str(e), position)
        outcome, turn = self._identify(mail, relative, position)
        if outcome.player is None or outcome.status != RECORDED:
            return outcome
        player = outcome.player
        mail = mail.answering(self._answered_texts(mail, player, turn), _playing(position, player))
        code_problem = self._check_code(mail.full_text, player, position.seed)
        if code_problem:
            outcome.status, outcome.detail, told = code_problem
            outcome.ack = self._ack(outcome, mail, position, problem=told)
            return outcome
        if position.game.finished:
            outcome.status, outcome.detail = GAME_OVER, "the game is over; no more orders are taken"
            outcome.ack = self._ack(outcome, mail, position, problem=outcome.detail)
            return outcome
        self._submit(outcome, mail, turn)
        outcome.ack = self._ack(outcome, mail, position, answered_turn=turn)
        return outcome

    def _player_addresses(self) -> dict[str, str]:
        """Each player's address (lower case) to their name, read once a batch."""
        if self._addresses is None:
            self._addresses = {p.email.lower(): p.name for p in self.campaign.config.players}
        return self._addresses

    def _unreadable(self, raw: bytes, relative: str, error: str, position: Position) -> Outcome:
        """The outcome of a message the reader could not read (ERROR says why): UNREADABLE,
        acknowledged (asking for plain text) when its bare From is a player's."""
        sender = _bare_sender(raw)
        outcome = Outcome(relative, UNREADABLE, error, sender, self._player_addresses().get(sender))
        if outcome.player:
            outcome.ack = self._ack(
                outcome,
                None,
                position,
                problem=(
                    f"Your message could not be read: {_without_names(error)} It is kept; please "
                    f"send your orders again as plain text."
                ),
            )
        return outcome

    def _identify(self, mail: ReadMail, relative: str, position: Position) -> tuple[Outcome, int | None]:
        """Who sent MAIL and which turn it answers. The outcome is RECORDED with its player
        when the sender is a player of this campaign (by the subject's tag, or by a reply
        to one of its mails); otherwise refused (AMBIGUOUS_SENDER, UNKNOWN_SENDER,
        OTHER_CAMPAIGN), never acknowledged. The turn is the subject's, else the turn of
        the tool's mail it replies to, else None."""
        campaign = self.campaign
        sender = mail.sender
        if mail.sender_problem:  # a forger shows a player's address beside their own: no one's
            return Outcome(
                relative,
                AMBIGUOUS_SENDER,
                f"{mail.sender_problem}, so no player is taken to have sent it; the message is kept",
                sender,
            ), None
        player = self._player_addresses().get(sender)
        if player is None or player not in position.players:
            return Outcome(
                relative,
                UNKNOWN_SENDER,
                f"{sender or 'no sender'} is not a player's address; the message is kept",
                sender,
            ), None
        known = self.outbox.known_ids()
        thread = next((known[i] for i in (*mail.in_reply_to, *mail.references) if i in known), None)
        if mail.tag is not None and mail.tag.casefold() != campaign.name.casefold() and thread is None:
            return Outcome(
                relative,
                OTHER_CAMPAIGN,
                f"the subject names the campaign [{mail.tag}], this is [{campaign.name}]",
                sender,
                player,
            ), None
        turn = mail.turn
        if (
            turn is None
            and thread is not None
            and thread.get("kind") in ("private", "public", "ack", "reminder")
        ):
            turn = thread.get("turn")
        return Outcome(relative, RECORDED, "", sender, player), turn

    def _submit(self, outcome: Outcome, mail: ReadMail, turn: int | None) -> None:
        """Record the player's orders (and CLEAR, and an absence) from MAIL's own words into
        the batch's order book, filling OUTCOME's keywords, receipt and detail (nothing read;
        hidden text the GM should hear of). A message read again after a crash is answered
        but never applied again."""
        from .reader.notes import HIDDEN_TEXT_NOTE

        player = outcome.player
        assert player is not None  # submitted: the message came from a player
        relative = outcome.file
        book = self._book_for_batch()
        outcome.keywords = [k.upper() for k in KEYWORD.findall(mail.own_text)]
        # Read again after a crash (its index line lost): what it asked was recorded the
        # first time, and may have been replaced since; it is answered, never applied again.
        again = relative in self._recorded_sources()
        if "CLEAR" in outcome.keywords and not again:
            book.clear(player, source=relative)
        before = self.campaign.deadline() if is_absence_text(mail.own_text) else None
        players = book.position.players
        text = orders_with_subject(mail.subject, mail.own_text, players, player)
        outcome.receipt = book.submit(player, text, source=relative, turn=turn, record=not again)
        absence = outcome.receipt.absence
        if absence is not None and absence["status"] in ("accepted", "back"):
            book.save_absences()  # now, so that the deadline it moves is told (and acknowledged)
            absence["deadline"] = self.campaign.absence_changed(before)
        if (
            not outcome.receipt.checked
            and not outcome.keywords
            and outcome.receipt.proxy is None
            and not absence
        ):
            outcome.detail = "no order could be read in this message"
            if mail.attached_files:  # "Orders attached.": the player is told too (ack.txt.j2)
                outcome.detail += " (a file attached to it was not read: orders are read from the text)"
        hidden = next((note for note in mail.defects if note.startswith(HIDDEN_TEXT_NOTE)), None)
        if hidden:  # the GM hears of it: someone hoped the tool would read what the player never saw
            outcome.detail = "; ".join(filter(None, (hidden, outcome.detail)))

    # -- the tool's own words ----------------------------------------------------------------
    def _answered_texts(self, mail: ReadMail, player: str, turn: int | None) -> list[str]:
        """The texts of the tool's own mails this message may answer: those its In-Reply-To
        and last References name, and the player's turn mails of the subject's turn."""
        known = self.outbox.known_ids()
        ids = [
            i
            for i in (*mail.in_reply_to, *mail.references[-3:])
            if i in known and known[i].get("kind") in ANSWERABLE_KINDS
        ]
        if turn is not None:
            if self._turn_mails is None:
                self._turn_mails = {}
                for message_id, entry in known.items():
                    if entry.get("kind") in TURN_KINDS and isinstance(entry.get("turn"), int):
                        key = (entry.get("player") or "", entry["turn"])
                        self._turn_mails.setdefault(key, []).append(message_id)
            ids += self._turn_mails.get((player, turn), [])
        texts = (self._sent_text(i, known[i]) for i in dict.fromkeys(ids))
        return [text for text in texts if text][:6]

    def _sent_text(self, message_id: str, entry: dict[str, Any]) -> str:
        """The readable text of a mail the tool sent ("" when its draft is gone), read once."""
        if message_id not in self._sent_texts:
            from .reader.api import text_of  # as in _process: only mail in needs it

            text = ""
            draft = entry.get("draft")
            turn = entry.get("turn")
            places = [self.outbox.folder, self.store.sent_folder]
            if isinstance(turn, int) and turn >= 1:  # a turn's mails live in the folder of the turn before
                places.append(self.store.turn_mail(self.store.turn_dir(turn - 1)))
            for place in places if isinstance(draft, str) and "/" not in draft else []:
                try:
                    raw = (place / f"{draft}.eml").read_bytes()
                except OSError:
                    continue
                text = text_of(raw)
                break
            self._sent_texts[message_id] = text
        return self._sent_texts[message_id]

    def _codes(self, seed: str) -> dict[str, str]:
        """Every player's order code -> the player (once per batch)."""
        if self._code_owner is None:
            self._code_owner = {order_code(seed, p.name): p.name for p in self.campaign.config.players}
        return self._code_owner

    def _check_code(self, text: str, player: str, seed: str) -> tuple[str, str, str] | None:
        """None when the code is right (or absent and not required); else the
        status, a line for the GM, and what the player is told. No code is ever
        repeated (not even to the GM's screen): whoever reads the warning would
        learn it."""
        codes = self._codes(seed)
        seen = codes_in(text, codes)
        if any(s.exact and codes[s.code] == player for s in seen):
            return None
        others = [s for s in seen if codes[s.code] != player]
        if others:
            owner = codes[others[0].code]
            nearly = "" if others[0].exact else "nearly "
            return (
                CODE_MISMATCH,
                f"it carried {nearly}{owner}'s order code, not {player}'s (a forgery, "
                f"or a code passed on?); {player} was told",
                "A message from your address carried an order code that is not yours, so it was "
                "refused. If you did not send it, tell the GM: someone may be writing in your name. "
                "If you did, reply to your own turn mail, which holds your code.",
            )
        if seen:
            return (
                CODE_MISMATCH,
                f"{player}'s order code, mistyped; {player} was told",
                "Your message carried your order code mistyped (a character wrong, or two swapped), "
                "so it was refused. Reply to your turn mail, or copy the code from it exactly.",
            )
        if self.campaign.config.require_code:
            return (
                CODE_MISSING,
                "no order code; this game requires one",
                "Your order code is missing, and this game requires it in every order mail: "
                "reply to your turn mail, or copy the code from it. Your orders were not recorded.",
            )
        return None

    # -- acknowledgements -----------------------------------------------------------------------
    def _ack(
        self,
        outcome: Outcome,
        mail: ReadMail | None,
        position: Position,
        problem: str = "",
        answered_turn: int | None = None,
    ) -> str:
        """Draft the acknowledgement of one message; returns its draft id.
        ``answered_turn``: the turn whose mail the player answered, when known."""
        player = outcome.player
        assert player is not None  # acknowledged: the message came from a player
        seat = position.players.index(player)
        game = position.game
        rejected = bool(problem) or (outcome.receipt is not None and outcome.receipt.any_rejected)
        context = self._ack_context(outcome, mail, position, problem, answered_turn)
        draft_id = f"ack-t{game.turn:03d}-{seat_part(seat)}-{outcome.file.rsplit('/', 1)[-1][:12]}"
        if f"{draft_id}.eml" in self._waiting_drafts():  # acknowledged by a batch that crashed
            return draft_id  # before its index
        held, free_at = self._ack_share(player)
        context["limit"] = self._limit_context(free_at) if free_at is not None and not game.finished else None
        body = self._renderer_for_batch().render("ack.txt.j2", context)
        from .reports import left_to_chance  # the Sycophant's mark completes an order, but not at random

        receipt = context["receipt"]
        completed = receipt is not None and any(left_to_chance(c) for c in receipt.checked)
        subject = _ack_subject(self.campaign.name, game.turn, rejected, completed)
        self._draft_ack(draft_id, player, mail, subject, body, game.turn)
        outcome.ack_held = held
        return draft_id

    def _ack_context(
        self,
        outcome: Outcome,
        mail: ReadMail | None,
        position: Position,
        problem: str,
        answered_turn: int | None,
    ) -> dict[str, Any]:
        """The acknowledgement's template context (all but ``limit``): what was read, as
        the player will read it (their codes defanged), the orders on file and those
        still missing with the plays open in them, and what the keywords asked for
        (STATUS: the player's hands; RULES: the deck reference)."""
        from .reader.notes import HIDDEN_TEXT_NOTE
        from .reports import deck_reference

        campaign = self.campaign
        player = outcome.player
        assert player is not None  # acknowledged: the message came from a player
        seat = position.players.index(player)
        game = position.game
        receipt = outcome.receipt
        on_file = (
            receipt.on_file if receipt else self._book_for_batch().mine(player) if not game.finished else {}
        )
        missing = (
            receipt.missing if receipt else ([] if game.finished else self._book_for_batch().missing(player))
        )
        hands = []
        if "STATUS" in outcome.keywords:
            hands = [
                {"number": h.number, "cards": [c.title for c in h.cards[seat]], "your_turn": h.active == seat}
                for h in game.hands
                if not h.ended and h.alive[seat]
            ]
        codes = self._codes(position.seed)
        other_lines = 0
        if receipt is not None:  # only what was read as orders goes back, in the tool's words
            other_lines = len(receipt.ignored)
            receipt = _as_player_reads(receipt, codes)
        on_file = {
            hand: {**order, "reason": _defang(order.get("reason") or "", codes)}
            for hand, order in on_file.items()
        }
        # the plays open in the hands still missing (examples from the cards held), and their words
        plays = {h: self._plays_in(position, seat, h) for h in missing}
        return {
            "campaign": campaign.name,
            "title": campaign.config.title,
            "player": player,
            "turn": game.turn,
            "problem": problem,
            "receipt": receipt,
            "keywords": outcome.keywords,
            "detail": outcome.detail,
            "on_file": on_file,
            "missing": missing,
            "hands": hands,
            "other_lines": other_lines,
            "code": order_code(position.seed, player),
            "answered_turn": answered_turn,
            "reference": deck_reference(game.players) if "RULES" in outcome.keywords else [],
            "hidden_text": mail is not None and any(n.startswith(HIDDEN_TEXT_NOTE) for n in mail.defects),
            "attached_files": mail.attached_files if mail is not None else 0,
            "choices": {h: found for h, (found, _) in plays.items()},
            "plays": {h: words for h, (_, words) in plays.items()},
        }

    def _limit_context(self, free_at: datetime) -> dict[str, Any]:
        """The acknowledgement's ``limit``, when it is the last one the hour allows: the
        limit, when the next one is free (FREE_AT), and the deadline if it comes first."""
        campaign = self.campaign
        deadline = campaign.deadline()
        return {
            "per_hour": self._ack_limit,
            "free_at": campaign.deadline_text(free_at),
            "deadline": campaign.deadline_text(deadline)
            if deadline is not None and deadline <= free_at
            else "",
        }

    def _draft_ack(
        self, draft_id: str, player: str, mail: ReadMail | None, subject: str, body: str, turn: int
    ) -> None:
        """Put the acknowledgement DRAFT_ID to PLAYER in the outbox, from the GM, threaded
        as a reply to MAIL (None: a message that could not be read)."""
        config = self.campaign.config
        person = next(p for p in config.players if p.name == player)
        gm = config.gm
        message_id = self.outbox.message_id(draft_id, gm.email if gm else "")
        reply_to = mail.message_id if mail is not None else None
        refs = list(mail.references) + ([mail.message_id] if mail and mail.message_id else []) if mail else []
        raw = make_message(
            sender_name=gm.name if gm else "pbem",
            sender=gm.email if gm else "",
            to_name=player,
            to=person.email,
            subject=subject,
            body=body,
            message_id=message_id,
            in_reply_to=reply_to,
            references=refs[-10:],
        )
        self.outbox.add(
            draft_id, raw, message_id=message_id, kind="ack", turn=turn, to=person.email, player=player
        )
        self._waiting_drafts().add(f"{draft_id}.eml")

    def _waiting_drafts(self) -> set[str]:
        """The outbox's files (what :meth:`Outbox.has` looks for), listed once per batch: the
        lock is held, only this batch adds drafts, and a look-up of each name would wait on
        the drafts being written into that folder meanwhile."""
        if self._drafts_waiting is None:
            try:
                self._drafts_waiting = set(os.listdir(self.outbox.folder))
            except FileNotFoundError:
                self._drafts_waiting = set()
        return self._drafts_waiting

    def _renderer_for_batch(self) -> Renderer:
        if self._renderer is None:
            from .reports import Renderer

            self._renderer = Renderer(self.campaign.store.templates_dir())
        return self._renderer

    def _plays_in(self, position: Position, seat: int, hand: int) -> tuple[list[dict[str, Any]], str]:
        """The plays open to ``seat`` in ``hand`` and what the acknowledgement says of them
        (``ack_hand.txt.j2``): the same for every message of the batch."""
        if (seat, hand) not in self._plays:
            from .reports import choices

            found = choices(position.players, position.game.hand(hand), seat)
            words = self._renderer_for_batch().render("ack_hand.txt.j2", {"hand": hand, "choices": found})
            self._plays[(seat, hand)] = (found, words)
        return self._plays[(seat, hand)]

    def _ack_share(self, player: str) -> tuple[bool, datetime | None]:
        """Whether ``player`` has had their hourly share of acknowledgements
        (:func:`acks_per_hour`) in the last hour (this one is then held); if
        not, this one counts. The second value, for the last acknowledgement the
        share allows, is when the next one may go on its own again (the player is
        told: a correction sent before then is recorded, its answer held)."""
        self._load_index()
        now = self.campaign.now()
        recent = [t for t in self._acks_sent.get(player, []) if now - t < timedelta(hours=1)]
        if len(recent) >= self._ack_limit:
            return True, None
        recent = recent + [now]
        self._acks_sent[player] = recent
        if len(recent) < self._ack_limit:
            return False, None
        return False, min(recent) + timedelta(hours=1)


def flush_together(rooms: Sequence[Mailroom]) -> None:
    """Make the batches of several rooms durable at once (one per game of a routed fetch,
    or one alone), in the order one batch keeps: every message kept and every draft
    synced, side by side, then their folders, then each batch's records
    (:meth:`Mailroom._record`, side by side too). Three rounds of syncs for all the
    games, where one game after another waited for five rounds each: the file system
    commits concurrent syncs together. The first error is raised, once no sync is
    under way; nothing of a batch is then indexed, and its mail is read again."""
    files: list[Path] = []
    folders: set[Path] = set()
    for room in rooms:
        room.outbox.write_given()  # every game's drafts written side by side
    for room in rooms:
        room_files, room_folders = room._take_unsynced()
        files += room_files
        folders |= room_folders
    fsync_files(files)
    side_by_side(fsync_dir, sorted(folders))
    side_by_side(Mailroom._record, list(rooms))


def _playing(position: Position, player: str) -> set[int]:
    """The hands where the player must play now (active, still in, the hand not over)."""
    seat = position.players.index(player)
    return {
        hand.number
        for hand in position.game.hands
        if not hand.ended and hand.active == seat and hand.alive[seat]
    }


def _as_player_reads(receipt: Receipt, codes: dict[str, str]) -> Receipt:
    """The receipt as the acknowledgement may echo it: the orders in the tool's
    words, no line that was not an order (they are counted instead), no order
    code, and no link in a word quoted back ("evil.example names no player")."""
    checked = [
        c._replace(reason=_defang(c.reason, codes), note=_defang(c.note, codes)) for c in receipt.checked
    ]
    return receipt._replace(checked=checked, ignored=[])


# A word the player wrote, quoted back in a reason ('"Brunno" names no player').
_QUOTED = re.compile(r'"[^"\n]{0,400}"')
# What may be quoted back: a short word of letters (one hyphen or apostrophe inside, as in
# "Jean-Luc" or "O'Neil"), a few digits at most.  Not a link, an address, a phone number or a
# sentence glued with hyphens ("Your-account-is-suspended-reply-with-your-password"): the
# acknowledgement goes out in the GM's name, and the message may not be the player's.
_QUOTABLE = re.compile(r"(?=(?:\D*\d){0,3}\D*$)[^\W_]+(?:['’-][^\W_]+)?")
MAX_QUOTED = 16
UNQUOTED_WORD = "the word you wrote"


def _defang(text: str, codes: dict[str, str]) -> str:
    """A reason as the acknowledgement may say it: the player's words quoted only when short
    and harmless, else named "the word you wrote"; no order code."""
    if not text:
        return text

    def quote(found: re.Match[str]) -> str:
        word = found.group(0)[1:-1]
        if len(word) <= MAX_QUOTED and _QUOTABLE.fullmatch(word):
            return found.group(0)
        return UNQUOTED_WORD

    return _QUOTED.sub(quote, mask_codes(text, codes))


# A parenthesised aside, one level of nesting deep: "(name.pdf (application/pdf))".
_ASIDE = re.compile(r"\s*\((?:[^()]|\([^()]*\))*\)")


def _without_names(reason: str) -> str:
    """The reader's reason a message is unreadable, without the asides that name
    its parts: an attachment's name is the sender's text, and the sender may not
    be the player (the GM's index keeps the whole reason)."""
    reason = _ASIDE.sub("", reason).strip()
    return reason if reason.endswith(".") else reason + "."


def _printable(text: str, limit: int = 200) -> str:
    """A name that came from outside (a Maildir file's) as text that can be written and
    shown anywhere: bytes that are not UTF-8 as ``\\xNN``, control characters as ``?``."""
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    text = "".join("?" if unicodedata.category(c) in ("Cc", "Cs") else c for c in text)
    return text if len(text) <= limit else text[:limit] + "..."


def _moment(text: str | None) -> datetime:
    """A time of the index (UTC when it names no zone)."""
    if text is None:
        return datetime.min.replace(tzinfo=UTC)  # none: counts as long ago
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return datetime.min.replace(tzinfo=UTC)  # unreadable: counts as long ago
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


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


# The file of an acknowledgement's draft (see Mailroom._ack).
_ACK_DRAFT = re.compile(r"ack-t(?P<turn>\d{3,})-seat(?P<seat>\d+)-[0-9a-f]{12}\.eml")


def _bare_address(raw: bytes, header: str) -> str:
    """The address of a header of the tool's own draft (``Name <addr>``)."""
    head = raw.split(b"\r\n\r\n", 1)[0]
    match = re.search(rb"(?im)^" + header.encode() + rb":[^\r\n]*<([^<>\s]+)>", head)
    return match.group(1).decode("ascii", "replace") if match else ""


def _ack_subject(campaign: str, turn: int, rejected: bool, completed: bool) -> str:
    """An acknowledgement's subject: [ERROR] when an order was rejected (or the message
    refused), [INCOMPLETE] when one will be completed at random, plain otherwise."""
    subject = f"[{campaign}] Turn {turn}: " + (
        "orders NOT all accepted"
        if rejected
        else "orders received, some to be completed at random"
        if completed
        else "orders received"
    )
    if rejected:
        return "[ERROR] " + subject
    if completed:  # a reply would help: marked as plainly as an error
        return "[INCOMPLETE] " + subject
    return subject


def _bare_sender(raw: bytes) -> str:
    """The From address of a message the reader could not read, if any."""
    from email.utils import parseaddr

    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    found = re.findall(rb"(?im)^from:(.*)$", head)
    if len(found) != 1 or found[0].count(b"@") != 1:
        return ""  # no sender, or an ambiguous one (see ReadMail.sender_problem): nobody's
    return parseaddr(found[0].decode("latin-1").strip())[1].lower()


# -- ways in --------------------------------------------------------------------------------------------


def receive_file(campaign: Campaign, path: Path) -> Outcome:
    """``pbem order DIR --mail FILE``."""
    raw = Path(path).read_bytes()
    with Mailroom(campaign) as room:
        return room.receive(raw, source=f"file:{Path(path).name}")


def fetch_maildir(campaign: Campaign, maildir: Path | None = None) -> list[Outcome]:
    """``pbem fetch`` without a ``mail:`` section: read every new message of the
    campaign's Maildir (``mail/inbox``), then file it under ``cur/`` as seen.

    A file's name is the sender's data (or their mail system's): it is never
    trusted, written or used but to find the file; the message is kept under a
    name of pbem's own. Only plain files are read: a symlink (to /etc/passwd, say),
    a folder or a pipe in ``new/`` is refused with a note, never followed nor kept,
    and moved to ``cur/`` so that it is not refused again on every fetch."""
    maildir = Path(maildir) if maildir else campaign.store.inbox
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True, exist_ok=True)
    outcomes = []
    with Mailroom(campaign) as room:
        # Listed under the lock: a fetch that waited for another finds only what is left.
        entries = []
        for path in (maildir / "new").iterdir():
            try:
                entries.append((path.lstat(), path))
            except FileNotFoundError:
                continue  # gone meanwhile (another mail client)
        new = [path for info, path in sorted(entries, key=lambda e: (e[0].st_mtime, e[1].name))]
        refused = set()
        with ReadAhead([functools.partial(_plain_file, path) for path in new]) as ahead:
            for index, path in enumerate(new):
                raw = _plain_file(path)
                if raw is None:
                    outcomes.append(_not_a_file(maildir, path))
                    refused.add(path)
                    continue
                read = functools.partial(ahead.read, index)
                outcomes.append(room.receive(raw, source=f"maildir:{path.name}", path=path, read=read))
        room.flush()
        for path in new:  # only once the batch is durable, and before the lock goes
            # (a folder that cannot be moved is refused again next time, no worse)
            with contextlib.suppress(OSError if path in refused else FileNotFoundError):
                os.replace(path, maildir / "cur" / (path.name + ("" if ":2," in path.name else ":2,S")))
    return outcomes


def _plain_file(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a plain file, read without following a symlink
    (nor waiting on a pipe); else None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None  # a symlink (ELOOP), a socket, gone, unreadable
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        # os.read, not a file object: one asks the file five more things first (a terminal?
        # where? how big, again?), and each call lets the draft writer's thread in between.
        chunks = [os.read(fd, info.st_size + 1)]
        while chunks[-1]:  # to the end, however it grew meanwhile
            chunks.append(os.read(fd, 1 << 20))
        return b"".join(chunks)
    finally:
        os.close(fd)


def _not_a_file(maildir: Path, path: Path) -> Outcome:
    """The note for an entry of the Maildir that is not a plain file."""
    try:
        mode = path.lstat().st_mode
        kind = "a symlink" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode) else "not a file"
    except OSError:
        kind = "unreadable"
    shown = _printable(str(path.relative_to(maildir.parent)) if maildir.parent in path.parents else path.name)
    return Outcome(
        shown,
        NOT_A_FILE,
        f"{kind} in the Maildir: never followed nor kept; moved to cur/ unread",
    )


def fetch_imap(campaign: Campaign) -> list[Outcome]:
    """Fetch this campaign's new messages by IMAP into the Mailroom: a message
    is the campaign's by its subject tag or as a reply to a message the tool sent."""
    # Imported here for start-up time: imapclient loads only when a fetch runs.
    from .postoffice import imap_settings
    from .routing import is_own
    from .transport.imap import FetchLedger
    from .transport.imap import fetch_new as fetch_from_server

    settings = imap_settings(campaign.config)
    assert settings is not None, "fetched by IMAP only when campaign.yaml has mail: imap:"
    name = campaign.name.casefold()
    outcomes: list[Outcome] = []
    ledger = FetchLedger(campaign.store.imap_ledger)
    with Mailroom(campaign) as room:
        known = room.outbox.known_ids()  # the index repaired by the room (a killed batch's acks)

        def belongs(headers: email.message.Message) -> bool:
            if is_own(headers, known):  # a notice to the GM, a copy: left in the INBOX for the GM
                return False
            tag = _tag_of(str(headers.get("Subject", "")))
            if tag is not None and tag.casefold() == name:
                return True
            ids = " ".join(str(headers.get(h, "")) for h in ("In-Reply-To", "References"))
            return any(i in known for i in ids.split())

        def deliver(raw: bytes) -> None:
            outcomes.append(room.receive(raw, source="imap"))
            room.flush()  # durable before the server copy is moved away

        fetch_from_server(settings, ledger, belongs, deliver)
    return outcomes


def fetch_new(campaign: Campaign, acknowledge: bool = True) -> list[Outcome]:
    """``pbem fetch``: from IMAP when campaign.yaml has a ``mail:`` section with
    ``imap:``, else from the campaign's Maildir; then (``acknowledge``) the
    acknowledgements go where the campaign allows it (:func:`acknowledge`)."""
    imap = campaign.config.extra.get("mail", {}) or {}
    if isinstance(imap, dict) and imap.get("imap"):
        outcomes = fetch_imap(campaign)
    else:
        outcomes = fetch_maildir(campaign)
    if acknowledge:
        _auto_ack(campaign, outcomes)
    return outcomes


def acknowledge(campaign: Campaign, outcomes: list[Outcome]) -> None:
    """Send the acknowledgements of messages received by other means (a GM folder's
    shared fetch, :func:`pbem.gmfolder.fetch_folder`) as :func:`fetch_new` does."""
    _auto_ack(campaign, outcomes)


def _auto_ack(campaign: Campaign, outcomes: list[Outcome]) -> None:
    """With ``auto_ack: true`` and SMTP set up, acknowledgements go at once."""
    from .postoffice import auto_ack, send, smtp_settings

    acks = [o.ack for o in outcomes if o.ack and not o.ack_held]
    if acks and auto_ack(campaign.config) and smtp_settings(campaign.config) is not None:
        send(campaign, acks)


def refused_seen(campaign: Campaign) -> set[str]:
    """The refused messages the GM has acknowledged (``pbem status --seen``)."""
    path = campaign.store.refused_seen
    if not path.exists():
        return set()
    try:
        return set(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, TypeError):
        return set()  # a damaged file: every refused message shows again, nothing is lost


def mark_refused_seen(campaign: Campaign) -> int:
    """Acknowledge every message refused so far; returns how many there are."""
    files = sorted({entry["file"] for entry in refused_messages(campaign)})
    with campaign.locked():
        write_atomic(campaign.store.refused_seen, json.dumps(files, indent=1).encode("utf-8"))
    return len(files)


def refused_messages(campaign: Campaign) -> list[dict[str, Any]]:
    """The messages refused so far (for `pbem status`)."""
    return [entry for entry in received_entries(campaign) if entry.get("status") in REFUSED]


def unheld_drafts(campaign: Campaign, outbox: Outbox) -> tuple[list[str], list[str]]:
    """What a plain ``pbem send`` sends: (the drafts' ids but the held acknowledgements, the
    held ones).  A held acknowledgement goes only on the GM's word: named, or ``--held``
    (100 spoofed messages must not become 100 mails in the GM's name at the next send)."""
    held = {entry["ack"] for entry in held_acks(campaign)}
    ids = [path.stem for path in outbox.drafts()]
    return [i for i in ids if i not in held], [i for i in ids if i in held]
