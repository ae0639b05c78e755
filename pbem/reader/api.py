"""The public API: `read_mail` and what it returns, and the steps it takes in order."""

from __future__ import annotations

import dataclasses
import email
import functools
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..errors import PbemError
from .headers import _all_ids, _first_id, _raw_header, _read_sender, _read_subject, _subject_tag
from .mime import _collect, _Seen, _Text
from .notes import _Notes
from .policy import _POLICY
from .quotes import drop_sent_words, own_words_read
from .text import _tidy_blank_runs

# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReadMail:
    """What the order parser needs from one message (see the module docstring)."""

    sender: str  # From address, lowercased ("" if none)
    sender_name: str  # decoded display name (RFC 2047), "" if none
    # Why the sender is ambiguous (two From headers, an address shown over another, a group):
    # such a message is no player's, whatever `sender` says.  None for one plain sender.
    sender_problem: str | None
    subject: str  # decoded subject
    message_id: str | None  # with angle brackets, as in the header
    in_reply_to: tuple[str, ...]
    references: tuple[str, ...]
    tag: str | None  # campaign tag from the subject: "[game7] Turn 3" -> "game7"
    turn: int | None  # -> 3
    full_text: str  # the whole readable body, quotes included ("> " marks quotes from HTML)
    own_text: str  # only the player's own new words, "\n" line ends
    defects: tuple[str, ...]  # human-readable notes about what was odd
    # How many of own_text's last lines are filled form lines read from an unquoted original
    # under the player's words (Outlook quotes without marks): `answering` checks them apart.
    answers_below: int = 0
    # Files attached beside the text and not read (pictures and signatures aside): an
    # acknowledgement that found no order says so ("Orders attached.").
    attached_files: int = 0

    def answering(self, sent: Sequence[str], playing: Collection[int] | None = None) -> ReadMail:
        """This mail's own words read again, knowing the texts of the tool's own mails it may
        answer (see `read_mail`): for a caller that finds them only after reading the sender.
        `playing`: the hands the player must play now (a short run of orders for them that
        happens to repeat a sent mail is still theirs), None when not known."""
        if not sent:
            return self
        own = drop_sent_words(self.own_text, sent, playing, self.answers_below, self.full_text)
        return dataclasses.replace(self, own_text=own, answers_below=0)


class UnreadableMail(PbemError, ValueError):
    """The message has no readable text at all; str(e) says why, in words for the player."""


def read_mail(raw: bytes, answering: Sequence[str] = (), playing: Collection[int] | None = None) -> ReadMail:
    """Read one raw RFC 5322 message.

    `answering`: the texts of the tool's own mails this message may answer (the turn mail
    it replies to).  Any run of lines that repeats one of them, quoted or not, under any
    header block or none, is the original and never the player's words: the defence that
    does not depend on knowing every client's way of quoting.

    Raises only `UnreadableMail`.  The inner steps already degrade gracefully; this last guard
    exists because the stdlib parsers have had crash bugs on hostile input, and one such
    message must not stop a whole batch: it becomes an unreadable mail the GM can look at.
    """
    try:
        return _read(raw, answering, playing)
    except UnreadableMail:
        raise
    except RecursionError as exc:
        raise UnreadableMail("Your message is nested too deeply for me to read it.") from exc
    except Exception as exc:  # last-resort guard, see docstring
        raise UnreadableMail(
            f"Your message could not be read (it looks damaged: {type(exc).__name__})."
        ) from exc


def text_of(raw: bytes) -> str:
    """The whole readable body of a message, as `ReadMail.full_text` gives it, without
    reading the sender's own words out of it: for the tool's own mails, whose text a
    reply may quote (reading the quotes of every game's turn mails cost more than the
    replies themselves over a folder of games). "" when there is no text to read.

    Read once for the same content: the copies of a turn's public report differ only in
    the headers that name their reader (To, Message-ID), which no text depends on."""
    content = _content_of(bytes(raw))
    return _text_of_content(*content) if content is not None else _text_of(raw)


# What a message's text depends on: its Content-* headers (type, charset, transfer encoding,
# disposition, the parts' ids) and its body; the other headers only name and route it.
_CONTENT_HEADER = re.compile(rb"content-", re.IGNORECASE)
_HEADER_LINE = re.compile(rb"[!-9;-~]+:|[ \t]")  # a field's first line, or its folding


def _content_of(raw: bytes) -> tuple[bytes, bytes] | None:
    """The Content-* header lines and the body of RAW, when its header block is one that
    every parser reads alike (each line a field or its folding, then a blank line); None
    for any other message, which is read whole."""
    ends = [(at, len(blank)) for blank in (b"\r\n\r\n", b"\n\n") if (at := raw.find(blank)) >= 0]
    if not ends:
        return None
    end, blank = min(ends)
    block = raw[:end].replace(b"\r\n", b"\n")
    if b"\r" in block:
        return None  # a lone CR ends a line for Python's parser
    lines = block.split(b"\n")
    if lines[0][:1] in (b" ", b"\t") or not all(_HEADER_LINE.match(line) for line in lines):
        return None
    kept: list[bytes] = []
    keeping = False
    for line in lines:
        if line[:1] not in (b" ", b"\t"):
            keeping = _CONTENT_HEADER.match(line) is not None
        if keeping:
            kept.append(line)
    return b"\n".join(kept), raw[end + blank :]


@functools.lru_cache(maxsize=64)  # a folder's turn mails: each game's public report, read once
def _text_of_content(headers: bytes, body: bytes) -> str:
    return _text_of((headers + b"\n" if headers else b"") + b"\n" + body)


def _text_of(raw: bytes) -> str:
    """`text_of`, read from the whole of RAW."""
    try:
        notes = _Notes()
        msg = email.message_from_bytes(_cut_part_bomb(bytes(raw), notes), policy=_POLICY)
        pieces = _collect(msg, notes, _Seen(), depth=0, top=True)
    except Exception:  # noqa: BLE001 - as read_mail's guard: a damaged draft has no text to repeat
        return ""
    text = _tidy_blank_runs("\n".join(p.text.strip("\n") for p in pieces)).strip("\n")
    return text if any(ch.isalnum() for ch in text) else ""


# --------------------------------------------------------------------------------------------
# The steps
# --------------------------------------------------------------------------------------------


def _read(raw: bytes, answering: Sequence[str] = (), playing: Collection[int] | None = None) -> ReadMail:
    """The unguarded core of `read_mail` (the fuzz tests call it to see real exceptions)."""
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise UnreadableMail("This is not an email message (expected bytes).")
    raw = bytes(raw)
    notes = _Notes()
    if not raw.strip():
        raise UnreadableMail("Your message is empty.")
    raw = _cut_part_bomb(raw, notes)
    try:
        msg = email.message_from_bytes(raw, policy=_POLICY)
    except RecursionError as exc:  # the stdlib parser recurses once per nested multipart
        raise UnreadableMail("Your message is nested too deeply for me to read it.") from exc

    sender, sender_name, sender_problem = _read_sender(msg, notes)
    subject = _read_subject(msg, notes)
    tag, turn = _subject_tag(subject, notes)
    message_id = _first_id(_raw_header(msg, "message-id"))
    in_reply_to = tuple(_all_ids(_raw_header(msg, "in-reply-to", limit=100_000)))
    references = tuple(_all_ids(_raw_header(msg, "references", limit=100_000)))

    seen = _Seen()
    pieces = _collect(msg, notes, seen, depth=0, top=True)
    if pieces and all(piece.kind == "html" for piece in pieces):
        notes.add("no text part; read the HTML part")
    full_text = _tidy_blank_runs("\n".join(p.text.strip("\n") for p in pieces)).strip("\n")
    if not any(ch.isalnum() for ch in full_text):
        raise UnreadableMail(_unreadable_reason(pieces, seen))
    own_text, answers_below = own_words_read(full_text)
    if answering:
        own_text, answers_below = drop_sent_words(own_text, answering, playing, answers_below, full_text), 0
    return ReadMail(
        sender=sender,
        sender_name=sender_name,
        sender_problem=sender_problem,
        subject=subject,
        message_id=message_id,
        in_reply_to=in_reply_to,
        references=references,
        tag=tag,
        turn=turn,
        full_text=full_text,
        own_text=own_text,
        defects=tuple(notes.items),
        answers_below=answers_below,
        attached_files=seen.files,
    )


_MAX_BOUNDARY_LINES = 600


def _cut_part_bomb(raw: bytes, notes: _Notes) -> bytes:
    """Cut a message with absurdly many "--" lines (MIME boundaries) after the 600th.

    The stdlib parser spends about 0.02 ms per MIME part (0.3 ms with policy.default's header
    objects), and each part read costs more, so 50,000 tiny parts (2 MB) would take seconds.
    Real mail has a handful of parts; the cut message reads like one cut short, with what
    came first.
    """
    at = -1
    for _ in range(_MAX_BOUNDARY_LINES):
        at = raw.find(b"\n--", at + 1)
        if at < 0:
            return raw
    notes.add(f"more than {_MAX_BOUNDARY_LINES} MIME boundary lines; read only the start")
    return raw[: at + 1]


def _unreadable_reason(pieces: list[_Text], seen: _Seen) -> str:
    """Say in the player's words why nothing could be read, so that they can fix it."""
    if seen.encrypted:
        return (
            "Your message is encrypted; I can only read orders sent as ordinary, "
            "unencrypted text. Please send them again without encryption."
        )
    if not pieces and seen.too_deep:
        return "Your message is nested too deeply for me to read it."
    if seen.skipped:  # blank text beside an attachment: the attachment is what to tell of
        listed = ", ".join(seen.skipped[:5])
        return (
            f"Your message has no text I can read, only parts I cannot read as text ({listed}). "
            "Please write your orders in the body of the mail."
        )
    if not pieces:
        return "Your message has no text part I can read."
    return "Your message is empty: I found no text in it."
