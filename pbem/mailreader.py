"""Read one player's reply mail: who sent it, for which campaign and turn, and their own words.

The order parser needs the player's *new* words only: the turn mail they quote is full of lines
that look like orders ("Hand 3:", 'Examples: "Hand 3: Guard on Bruno, guess Prince"'), so reading
the whole body would make up orders nobody gave.  This module knows nothing of the game beyond
the shape of that turn mail (the blank form lines "Hand N:"), and it touches no files and no
network: bytes in, a `ReadMail` out, or `UnreadableMail` with a reason the player can act on.

Robustness is part of the contract: mail from the wild is broken in every way (no boundary,
truncated base64, undeclared 8-bit text, absurd charsets), and one bad message must never stop
the GM's run.  So every step degrades to "read what can be read, note what was odd" (`defects`),
and only a message with no readable text at all raises `UnreadableMail`.
"""

from __future__ import annotations

import binascii
import codecs
import email
import email._encoded_words
import email.header
import email.headerregistry
import email.message
import email.policy
import email.utils
import html
import itertools
import re
import secrets
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import html_text
import lxml.etree

from .grammar import SUBJECT_TAG

__all__ = ["ReadMail", "UnreadableMail", "read_mail"]


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReadMail:
    """What the order parser needs from one message (see the module docstring)."""

    sender: str  # From address, lowercased ("" if none)
    sender_name: str  # decoded display name (RFC 2047), "" if none
    subject: str  # decoded subject
    message_id: str | None  # with angle brackets, as in the header
    in_reply_to: tuple[str, ...]
    references: tuple[str, ...]
    tag: str | None  # campaign tag from the subject: "[game7] Turn 3" -> "game7"
    turn: int | None  # -> 3
    full_text: (
        str  # the whole readable body, quotes included ("> " marks quotes from HTML)
    )
    own_text: str  # only the player's own new words, "\n" line ends
    defects: tuple[str, ...]  # human-readable notes about what was odd


class UnreadableMail(ValueError):
    """The message has no readable text at all; str(e) says why, in words for the player."""


def read_mail(raw: bytes) -> ReadMail:
    """Read one raw RFC 5322 message.

    Raises only `UnreadableMail`.  The inner steps already degrade gracefully; this last guard
    exists because the stdlib parsers have had crash bugs on hostile input, and one such
    message must not stop a whole batch: it becomes an unreadable mail the GM can look at.
    """
    try:
        return _read(raw)
    except UnreadableMail:
        raise
    except RecursionError as exc:
        raise UnreadableMail(
            "Your message is nested too deeply for me to read it."
        ) from exc
    except Exception as exc:  # last-resort guard, see docstring
        raise UnreadableMail(
            f"Your message could not be read (it looks damaged: {type(exc).__name__})."
        ) from exc


# --------------------------------------------------------------------------------------------
# The steps
# --------------------------------------------------------------------------------------------

_MAX_MIME_DEPTH = 25  # real mail nests 3-5 deep; beyond this it is a bomb or garbage
# Real mail has a handful of parts; each costs header parsing and a walk through our steps.
_MAX_PARTS = 300
_MAX_HTML_QUOTE_DEPTH = 30  # deeper blockquotes are read as they are, without more "> "
_SHORT_LINE = 500  # the heuristic patterns only look at lines up to this length (speed)


class _Notes:
    """Defect notes in the order found, each once: the GM reads them, repeats are noise."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, note: str) -> None:
        """Keep a note unless it is already there."""
        if note not in self.items:
            self.items.append(note)

    def add_at(self, position: int, note: str) -> None:
        """Add a note late, where `add` would have put it when there were `position` notes.

        Notes only ever grow, so those from `position` on came later: if one of them is this
        note, the `add` then would have found it already there and added nothing.
        """
        if note in self.items[:position]:
            return
        if note in self.items:
            self.items.remove(note)
        self.items.insert(position, note)


class _Seen:
    """What the MIME walk skipped, so that an unreadable message can say why it is one."""

    def __init__(self) -> None:
        self.skipped: list[str] = []  # "orders.txt (text/plain)"
        self.encrypted = False
        self.parts = 0  # parts visited, against _MAX_PARTS
        self.too_deep = False


def _read(raw: bytes) -> ReadMail:
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
    except (
        RecursionError
    ) as exc:  # the stdlib parser recurses once per nested multipart
        raise UnreadableMail(
            "Your message is nested too deeply for me to read it."
        ) from exc

    sender, sender_name = _read_sender(msg, notes)
    subject = _read_subject(msg, notes)
    tag, turn = _subject_tag(subject, notes)
    message_id = _first_id(_raw_header(msg, "message-id"))
    in_reply_to = tuple(_all_ids(_raw_header(msg, "in-reply-to", limit=100_000)))
    references = tuple(_all_ids(_raw_header(msg, "references", limit=100_000)))

    seen = _Seen()
    pieces = _collect(msg, notes, seen, depth=0, top=True)
    if pieces and all(piece.kind == "html" for piece in pieces):
        notes.add("no text part; read the HTML part")
    full_text = _tidy_blank_runs("\n".join(p.text.strip("\n") for p in pieces)).strip(
        "\n"
    )
    if not any(ch.isalnum() for ch in full_text):
        raise UnreadableMail(_unreadable_reason(pieces, seen))
    own_text = own_words(full_text)
    return ReadMail(
        sender=sender,
        sender_name=sender_name,
        subject=subject,
        message_id=message_id,
        in_reply_to=in_reply_to,
        references=references,
        tag=tag,
        turn=turn,
        full_text=full_text,
        own_text=own_text,
        defects=tuple(notes.items),
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
    notes.add(
        f"more than {_MAX_BOUNDARY_LINES} MIME boundary lines; read only the start"
    )
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
    if not pieces and seen.skipped:
        listed = ", ".join(seen.skipped[:5])
        return (
            f"Your message has no text I can read, only parts I cannot read as text ({listed}). "
            "Please write your orders in the body of the mail."
        )
    if not pieces:
        return "Your message has no text part I can read."
    return "Your message is empty: I found no text in it."


# --------------------------------------------------------------------------------------------
# Parsing: the speed of compat32, the header values of policy.default
# --------------------------------------------------------------------------------------------
#
# policy.default parses every header anew, into an object, at every access: the parser itself
# asks for a part's Content-Type several times, and that made up three quarters of the time
# this module took (about 2.5 ms of 3 ms per message).  compat32 hands out raw strings, but the
# stdlib's answers (content type, boundary, transfer encoding) then differ from policy.default's
# for hostile values: policy.default renders MIME parameters anew (unquoted, RFC 2231 decoded,
# duplicates dropped), decodes encoded words, closes open quotes and comments, and replaces
# 8-bit bytes.  So the parser runs with compat32 and a policy whose `header_fetch_parse` returns
# exactly `str()` of policy.default's header object: worked out directly for the values real
# mail has (a plain token, "type/subtype; name=value; ..."), and by policy.default itself for
# anything else.  Every Message method (get_content_type, get_boundary, get_payload, ...) only
# looks at that string, so the parse and the decoding are the same as with policy.default.

_DEFAULT_HEADER_CLASSES: dict[str, type] = {}
# Readings of header values are remembered (the parser asks for a part's Content-Type several
# times), within bounds: hostile mail has any number of values, of any length.
_DEFAULT_STR_CACHE: dict[tuple[str, str], str] = {}
_CACHE_ENTRIES = 1000
_CACHED_VALUE_MAX = 1000


def _default_header(name: str, value: str) -> email.headerregistry.BaseHeader:
    """policy.default's header object for a value: what `header_factory(name, value)` gives.

    The factory builds a new class for every header it makes (a large part of its cost); the
    class only depends on the lowercased name, so it is built once per name here.
    """
    key = name.lower()
    cls = _DEFAULT_HEADER_CLASSES.get(key)
    if cls is None:
        cls = email.policy.default.header_factory[key]
        if len(_DEFAULT_HEADER_CLASSES) < 100:  # hostile mail has any number of names
            _DEFAULT_HEADER_CLASSES[key] = cls
    return cls(name, value)


# RFC 2045 token as the stdlib's header parser reads it: printable ASCII but tspecials.
_TOKEN = r"[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+"
# Parameter names and unquoted values, without the characters of RFC 2231 syntax (* ' %).
_PARAM_TOKEN = r"[!#$&+\-.0-9A-Z^_`a-z{|}~]+"
_QUOTED = r'"[\t !#-\[\]-~]*"'  # a quoted string without quoted pairs
_PARAMS = rf"(?:;[ \t]*{_PARAM_TOKEN}=(?:{_PARAM_TOKEN}|{_QUOTED}))*(?:;[ \t]*)?"
_PARAM = re.compile(rf";[ \t]*({_PARAM_TOKEN})=({_PARAM_TOKEN}|{_QUOTED})")
_SIMPLE_CONTENT_TYPE = re.compile(rf"({_TOKEN}/{_TOKEN}[ \t]*)({_PARAMS})")
_SIMPLE_DISPOSITION = re.compile(rf"({_TOKEN}[ \t]*)({_PARAMS})")
# A value policy.default's token and unstructured parsers give back unchanged: printable
# ASCII without comments, quoted pairs or encoded words ("=?" is checked apart).
_SIMPLE_CHARS = r"\t\x20\x21\x23-\x27\x2a-\x5b\x5d-\x7e"
_SIMPLE_VALUE = re.compile(
    rf'[{_SIMPLE_CHARS}]*(?:"[{_SIMPLE_CHARS}]*"[{_SIMPLE_CHARS}]*)*'
)
# Headers policy.default parses with a structured parser of its own (the others: unstructured).
_STRUCTURED_HEADERS = frozenset(email.policy.default.header_factory.registry) - {
    "subject"
}


@dataclass(frozen=True)
class _MimeHeader:
    """A Content-Type or Content-Disposition value as policy.default reads it."""

    text: str  # str() of policy.default's header object
    value: str  # its content_type / content_disposition, lowercased
    # Its params: names lowercased, values unquoted; read-only (readings are remembered).
    params: Mapping[str, str]


_SIMPLE_MIME_CACHE: dict[tuple[str, str], _MimeHeader | None] = {}


def _simple_mime_header(name: str, value: str) -> _MimeHeader | None:
    """`_read_simple_mime_header`, remembered (see `_DEFAULT_STR_CACHE`); callers only read it."""
    key = (name, value)
    try:
        return _SIMPLE_MIME_CACHE[key]
    except KeyError:
        pass
    found = _read_simple_mime_header(name, value)
    if len(value) <= _CACHED_VALUE_MAX:
        if len(_SIMPLE_MIME_CACHE) >= _CACHE_ENTRIES:
            _SIMPLE_MIME_CACHE.clear()
        _SIMPLE_MIME_CACHE[key] = found
    return found


def _read_simple_mime_header(name: str, value: str) -> _MimeHeader | None:
    """Read a plain Content-Type / Content-Disposition value the way policy.default does.

    Only for the plain form real mail uses ("text/plain; charset=utf-8; format=flowed",
    'attachment; filename="a.pdf"'): tokens, quoted strings without quoted pairs, no comments,
    no RFC 2231 or encoded words, no parameter given twice.  None for anything else (the caller
    then asks policy.default itself).  policy.default renders the parameters anew: each as
    name="value" (a bare name when the value is empty), joined with "; ", after the type.
    """
    if name == "content-type":
        found = _SIMPLE_CONTENT_TYPE.fullmatch(value)
    else:
        found = _SIMPLE_DISPOSITION.fullmatch(value)
    if found is None or "=?" in value:
        return None
    head, tail = found.groups()
    params: dict[str, str] = {}
    rendered: list[str] = []
    for key, param in _PARAM.findall(tail):
        lowered = key.lower()
        if lowered in params:
            return None  # policy.default keeps the first or the last: not worth copying
        if param.startswith('"'):
            param = param[1:-1]
        params[lowered] = param
        rendered.append(f'{key}="{param}"' if param else key)
    text = head
    if tail:
        text += "; " + "; ".join(rendered) if rendered else ";"
    return _MimeHeader(text, head.strip().lower(), types.MappingProxyType(params))


def _default_str(name: str, value: str) -> str:
    """str() of policy.default's header object for a raw value (CR and LF already removed)."""
    key = name.lower()
    if key in ("content-type", "content-disposition"):
        simple = _simple_mime_header(key, value)
        if simple is not None:
            return simple.text
    elif (
        (key not in _STRUCTURED_HEADERS or key == "content-transfer-encoding")
        and "=?" not in value
        and _SIMPLE_VALUE.fullmatch(value)
    ):
        return value
    cached = _DEFAULT_STR_CACHE.get((key, value))
    if cached is None:
        cached = str(_default_header(name, value))  # may raise, as policy.default would
        if len(value) <= _CACHED_VALUE_MAX:
            if len(_DEFAULT_STR_CACHE) >= _CACHE_ENTRIES:
                _DEFAULT_STR_CACHE.clear()
            _DEFAULT_STR_CACHE[(key, value)] = cached
    return cached


def _unfold(value: str) -> str:
    """What policy.default does first to a raw value: drop every CR and LF."""
    if "\r" in value or "\n" in value:
        return value.replace("\r", "").replace("\n", "")
    return value


class _ReaderPolicy(email.policy.Compat32):
    """compat32, but header values come out as policy.default would give them (see above)."""

    def header_fetch_parse(self, name, value):  # the stdlib's signature
        """The value as str() of policy.default's parsed header."""
        if hasattr(value, "name"):  # a header object (not made by the parser)
            return value
        return _default_str(name, _unfold(value))


_POLICY = _ReaderPolicy()


def _raw_first(part: email.message.Message, name: str) -> str | None:
    """The first raw value of a header (what `part.get` looks at), None when there is none."""
    for key, value in getattr(part, "_headers", None) or ():
        if key.lower() == name:
            return value
    return None


# --------------------------------------------------------------------------------------------
# Headers
# --------------------------------------------------------------------------------------------

_SURROGATE = re.compile("[\udc80-\udcff]")


def _raw_header(msg: email.message.Message, name: str, limit: int = 4000) -> str | None:
    """The first raw value of a header, unfolded, cut at `limit` characters, 8-bit decoded.

    Raw, not the policy's parsed object: the parsed header classes have crashed on hostile
    values in some Python versions, and ids and 8-bit bytes are easier to handle ourselves.
    The cut matters: the stdlib's header parser slows down badly on very long values (a
    100 kB subject takes most of a second), and no real From or Subject is that long.
    """
    try:
        items = msg.raw_items()
        for key, value in items:
            if str(key).lower() == name:
                text = re.sub(r"[\r\n]+", "", str(value)[: limit * 2])[:limit]
                if _SURROGATE.search(text):
                    text = _decode_guess(_raw_bytes(text))
                return text.strip()
    except Exception:  # noqa: BLE001 - a broken header is a missing header
        return None
    return None


def _decode_words(name: str, value: str, notes: _Notes) -> str:
    """Decode RFC 2047 encoded words; fall back to the older API, then to the raw text.

    policy.default's unstructured header gives a value without "=?" back unchanged (and
    `_raw_header` left no 8-bit bytes in it to replace), so only encoded words cost a parse.
    """
    if "=?" not in value:
        return value
    try:
        return str(_default_header(name, value))
    except Exception:  # noqa: BLE001 - stdlib parser crash on hostile input
        notes.add(f"the {name} header is malformed; read it as it stands")
    try:
        return str(email.header.make_header(email.header.decode_header(value)))
    except Exception:  # noqa: BLE001
        return value


def _read_sender(msg: email.message.Message, notes: _Notes) -> tuple[str, str]:
    """The From address (lowercased) and display name; ("", "") when there is none."""
    value = _raw_header(msg, "from")
    if not value:
        notes.add("no From header")
        return "", ""
    address, name = "", ""
    simple = _simple_sender(value)
    if simple is not None:
        address, name = simple
    else:
        try:
            header = _default_header("from", value)
            addresses = list(header.addresses)
            if addresses:
                address = addresses[0].addr_spec or ""
                name = addresses[0].display_name or ""
        except Exception:  # noqa: BLE001 - stdlib parser crash on hostile input
            notes.add("the From header is malformed; guessed the address")
    if not _PLAIN_ADDRESS.fullmatch(address):
        address, name = _guess_sender(value, name)
    address = _clean_line(address).strip().lower()
    name = " ".join(_clean_line(name).split())
    if not address:
        notes.add("no sender address in the From header")
    return address, name


_PLAIN_ADDRESS = re.compile(r"[^\s<>()\"',;:@\[\]]+@[^\s<>()\"',;:@\[\]]+")

_ADDRESS_ATOM = r"[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+"
_ADDRESS_DOT_ATOM = rf"{_ADDRESS_ATOM}(?:\.{_ADDRESS_ATOM})*"
_SIMPLE_FROM = re.compile(
    rf"(.*?)[ \t]*<({_ADDRESS_DOT_ATOM}@{_ADDRESS_DOT_ATOM})>"
    rf"|({_ADDRESS_DOT_ATOM}@{_ADDRESS_DOT_ATOM})",
    re.DOTALL,
)
_NAME_WORD = r'"(?:[ \t]|[^\s"\\])*"|[^\s"]+'
_NAME_WORDS = re.compile(rf"(?:{_NAME_WORD})(?:[ \t]+(?:{_NAME_WORD}))*")
_NAME_WORD_RE = re.compile(_NAME_WORD)
_NAME_ATOM = re.compile(r'[^\s()<>@,:;.\\"\[\]]+')
# An encoded word as the stdlib's phrase parser finds it: ASCII, Q text whose "=" are escapes.
_NAME_ENCODED_WORD = re.compile(
    r"=\?[A-Za-z0-9!#$%&'+\-^_`{|}~]+\?"
    r"(?:[Qq]\?(?:[!-<>@-~]|=[0-9A-Fa-f]{2})+|[Bb]\?[A-Za-z0-9+/]+={0,2})\?="
)
_NOT_IN_NAME = re.compile("[\r\n\ud800-\udfff]")


def _simple_sender(value: str) -> tuple[str, str] | None:
    """(address, display name) of a plain From value, as policy.default reads it; else None.

    Plain: "a@b.c" or "Name <a@b.c>", the address a dot-atom, the name words separated by
    spaces, each an atom, a quoted string without quoted pairs, or a well-formed encoded word
    that decodes cleanly.  The name is only right up to whitespace (policy.default keeps some
    runs of it that `_read_sender` collapses anyway), and only when the address is a plain one
    (`_guess_sender` would look at the name otherwise): None for everything else, and the
    caller asks policy.default itself.
    """
    found = _SIMPLE_FROM.fullmatch(value)
    if found is None:
        return None
    phrase, address = found.group(1) or "", found.group(2) or found.group(3)
    if "=?" in address or not _PLAIN_ADDRESS.fullmatch(address):
        return None
    if phrase and not _NAME_WORDS.fullmatch(phrase):
        return None  # words not apart, or odd whitespace
    words: list[str] = []
    for word in _NAME_WORD_RE.findall(phrase):
        if "=?" in word:
            if not _NAME_ENCODED_WORD.fullmatch(word):
                return None  # an encoded word in a quoted string, or broken
            try:
                text, _charset, _lang, defects = email._encoded_words.decode(word)
            except Exception:  # noqa: BLE001 - the caller's parser will say what it makes of it
                return None
            if defects or _NOT_IN_NAME.search(text):
                return None
            words.append(text)
        elif word.startswith('"'):
            words.append(word[1:-1])
        elif _NAME_ATOM.fullmatch(word):
            words.append(word)
        else:
            return None
    return address, " ".join(words)


def _guess_sender(value: str, name: str) -> tuple[str, str]:
    """Last-resort sender parsing for From headers the structured parser could not read."""
    try:
        guessed_name, guessed_addr = email.utils.parseaddr(value)
    except Exception:  # noqa: BLE001
        guessed_name, guessed_addr = "", ""
    if not _PLAIN_ADDRESS.fullmatch(guessed_addr or ""):
        found = _PLAIN_ADDRESS.search(value[:2000])
        guessed_addr = found.group(0) if found else ""
    if not name and guessed_name:
        try:
            name = str(
                email.header.make_header(email.header.decode_header(guessed_name))
            )
        except Exception:  # noqa: BLE001
            name = guessed_name
    return guessed_addr, name


def _read_subject(msg: email.message.Message, notes: _Notes) -> str:
    """The decoded subject on one line."""
    value = _raw_header(msg, "subject")
    if value is None:
        return ""
    return " ".join(_clean_line(_decode_words("subject", value, notes)).split())




def _subject_tag(subject: str, notes: _Notes) -> tuple[str | None, int | None]:
    """Campaign tag and turn from "[game7] Turn 3" anywhere in the subject.

    Never anchored: clients prepend Re:, AW:, Re[2]:, [EXTERNAL] and the like.
    """
    found = SUBJECT_TAG.search(subject)
    if not found:
        return None, None
    digits = found.group(2)
    if len(digits) > 9:
        notes.add("the turn number in the subject is absurdly long; ignored it")
        return found.group(1), None
    return found.group(1), int(digits)


_MSG_ID = re.compile(r"<[^<>\s]+>")


def _first_id(value: str | None) -> str | None:
    """The message id with its angle brackets; a bracket-less id is kept as written."""
    if not value:
        return None
    found = _MSG_ID.search(value)
    if found:
        return found.group(0)
    return value.split()[0] if value.split() else None


def _all_ids(value: str | None) -> list[str]:
    """All <ids> of In-Reply-To or References, in order."""
    return _MSG_ID.findall(value) if value else []


# --------------------------------------------------------------------------------------------
# MIME structure: which parts are the body
# --------------------------------------------------------------------------------------------


class _Text:
    """Readable text from one body part; kind says whether it came from HTML.

    The text of an HTML part is made when first asked for: most HTML parts are the other
    version of a plain text part (multipart/alternative), and it is the plain one that is read.
    """

    __slots__ = ("_make", "_text", "kind")

    def __init__(
        self, kind: str, text: str | None = None, make: Callable[[], str] | None = None
    ) -> None:
        self.kind = kind  # "plain" or "html"
        self._text = text
        self._make = make

    @property
    def text(self) -> str:
        """The part's text (made now if it was not made yet)."""
        if self._text is None:
            make, self._make = self._make, None
            self._text = make() if make is not None else ""
        return self._text


_MIME_DEFECT_NOTES = {
    "NoBoundaryInMultipartDefect": "a multipart part declares no boundary",
    "StartBoundaryNotFoundDefect": "a multipart boundary never appears in the body",
    "CloseBoundaryNotFoundDefect": "a multipart part has no closing boundary (message cut short?)",
    "FirstHeaderLineIsContinuationDefect": "the first header line is a continuation line",
    "MisplacedEnvelopeHeaderDefect": "a 'From ' envelope line among the headers",
    "MissingHeaderBodySeparatorDefect": "a malformed header line; the rest was read as body",
    "MultipartInvariantViolationDefect": "a multipart part holds no parts",
    "InvalidMultipartContentTransferEncodingDefect": "a multipart part declares a transfer encoding",
    "InvalidBase64PaddingDefect": "base64 text with bad padding",
    "InvalidBase64CharactersDefect": "base64 text with invalid characters",
    "InvalidBase64LengthDefect": "base64 text of impossible length (cut short?)",
}


def _note_part_defects(part: email.message.Message, notes: _Notes) -> None:
    """Turn the parser's defect objects of one part into readable notes."""
    for defect in getattr(part, "defects", []) or []:
        name = type(defect).__name__
        notes.add("MIME: " + _MIME_DEFECT_NOTES.get(name, name))


@dataclass(frozen=True)
class _PartInfo:
    """What a part's Content-Type and Content-Disposition say, read once.

    The stdlib parses a header anew at every access, and its get_param / get_filename /
    get_content_charset helpers each access it again.
    """

    ctype: str  # "text/plain"; a malformed header means text/plain, as RFC 2045 says
    # Content-Type parameters, names lowercased, RFC 2231 decoded
    params: Mapping[str, str]
    disposition: str | None  # "inline", "attachment" or None
    filename: str | None

    @property
    def attached(self) -> bool:
        """An attachment: marked so, or a named file (an attached orders.txt is not the body)."""
        return self.disposition == "attachment" or self.filename is not None

    def describe(self) -> str:
        """The part as notes and the unreadable-mail message name it: name.pdf (application/pdf)."""
        return f"{self.filename} ({self.ctype})" if self.filename else self.ctype


def _part_info(part: email.message.Message) -> _PartInfo:
    """Read a part's Content-Type and Content-Disposition headers once (see `_PartInfo`).

    As policy.default reads them: its header objects for values out of the ordinary, the same
    reading done directly (`_simple_mime_header`) for the plain values real mail has.
    """
    ctype, params = "text/plain", {}
    try:
        ctype = part.get_default_type()
        raw = _raw_first(part, "content-type")
        if raw is not None:
            raw = _unfold(raw)
            simple = _simple_mime_header("content-type", raw)
            if simple is not None:
                ctype, params = simple.value, simple.params
            else:
                header = _default_header("content-type", raw)
                ctype = str(header.content_type).lower()
                params = {str(k).lower(): str(v) for k, v in header.params.items()}
    except Exception:  # noqa: BLE001 - stdlib parser crash on hostile input
        ctype = "text/plain"
    if "/" not in ctype:
        ctype = "text/plain"
    disposition, filename = None, None
    try:
        raw = _raw_first(part, "content-disposition")
        if raw is not None:
            raw = _unfold(raw)
            simple = _simple_mime_header("content-disposition", raw)
            if simple is not None:
                disposition = simple.value or None
                filename = simple.params.get("filename")
            else:
                header = _default_header("content-disposition", raw)
                disposition = str(header.content_disposition or "").lower() or None
                filename = header.params.get("filename")
    except Exception:  # noqa: BLE001
        disposition = None
    filename = filename or params.get("name")
    return _PartInfo(ctype, params, disposition, str(filename) if filename else None)


_SIGNATURE_TYPES = {
    "application/pgp-signature",
    "application/pkcs7-signature",
    "application/x-pkcs7-signature",
}


def _collect(
    part: email.message.Message,
    notes: _Notes,
    seen: _Seen,
    depth: int,
    top: bool = False,
) -> list[_Text]:
    """The readable body texts of a part, in reading order.

    multipart/alternative gives one version (see `_choose_alternative`); mixed and unknown
    multiparts give every inline text child in order (Apple Mail splits a body around an
    inline picture); related gives its root; signed gives the signed part.  Attachments,
    attached messages and named text files are skipped: they are not the player's reply.
    """
    _note_part_defects(part, notes)
    if depth > _MAX_MIME_DEPTH:
        notes.add("MIME parts nested absurdly deep; ignored the deepest ones")
        seen.too_deep = True
        return []
    seen.parts += 1
    if seen.parts > _MAX_PARTS:
        notes.add(f"more than {_MAX_PARTS} MIME parts; ignored the rest")
        return []
    info = _part_info(part)
    ctype = info.ctype
    maintype, _, subtype = ctype.partition("/")
    if maintype == "message":
        seen.skipped.append("an attached message")
        notes.add("ignored an attached message")
        return []
    if maintype == "multipart":
        return _collect_multipart(part, info, subtype, notes, seen, depth)
    if ctype == "application/pkcs7-mime" or ctype == "application/x-pkcs7-mime":
        seen.encrypted = True
        return []
    if maintype == "text" and subtype in ("plain", "html"):
        if not top and info.attached:
            seen.skipped.append(info.describe())
            notes.add(f"ignored attached file {info.describe()}")
            return []
        if top and info.disposition == "attachment":
            notes.add("the text is marked as an attachment; read it anyway")
        text = _read_text_part(part, info, notes)
        if text is None:
            seen.skipped.append(f"binary data sent as {ctype}")
            return []
        return [text]
    seen.skipped.append(info.describe())
    if ctype not in _SIGNATURE_TYPES:
        notes.add(f"ignored attachment {info.describe()}")
    return []


def _children(part: email.message.Message) -> list[email.message.Message]:
    """The subparts of a multipart (a damaged payload may hold other things: skip them)."""
    payload = part.get_payload()
    if isinstance(payload, list):
        return [p for p in payload if isinstance(p, email.message.Message)]
    return []


def _collect_multipart(
    part: email.message.Message,
    info: _PartInfo,
    subtype: str,
    notes: _Notes,
    seen: _Seen,
    depth: int,
) -> list[_Text]:
    """Dispatch on the multipart subtype (see `_collect`)."""
    if not part.is_multipart():
        return _broken_multipart(part, subtype, notes, seen, depth)
    children = _children(part)
    if subtype == "encrypted":
        seen.encrypted = True
        return []
    if subtype == "alternative":
        return _choose_alternative(children, notes, seen, depth)
    if subtype == "related":
        root = _related_root(info.params.get("start"), children)
        return _collect(root, notes, seen, depth + 1) if root is not None else []
    if subtype == "signed":
        return _collect(children[0], notes, seen, depth + 1) if children else []
    texts: list[_Text] = []
    for child in children:
        texts.extend(_collect(child, notes, seen, depth + 1))
    return texts


def _related_root(
    start: str | None, children: list[email.message.Message]
) -> email.message.Message | None:
    """The root of multipart/related: the part named by start=, else the first one."""
    if not children:
        return None
    if start and start.strip():
        for child in children:
            if _content_id(child) == start.strip():
                return child
    return children[0]


def _content_id(part: email.message.Message) -> str:
    """The part's Content-ID, "" when missing or unreadable (it only serves related's start=)."""
    try:
        return str(part.get("content-id") or "").strip()
    except Exception:  # noqa: BLE001 - a broken Content-ID names nothing
        return ""


def _broken_multipart(
    part: email.message.Message, subtype: str, notes: _Notes, seen: _Seen, depth: int
) -> list[_Text]:
    """A multipart whose boundary is missing or wrong: guess the boundary, else read as text.

    The boundary parameter gets lost by relays and hand-made mail; the parts are usually
    still there, between "--something" lines, and reading them beats refusing the player's
    orders.  When no boundary can be found, a body that is plain text is read as such, and
    one that holds MIME part headers is unreadable (its raw base64 is nobody's words).
    """
    payload = _raw_payload(part)
    if not isinstance(payload, str):
        return []
    boundary = _guess_boundary(payload)
    if boundary is not None and depth < _MAX_MIME_DEPTH:
        body = _raw_bytes(payload)
        safe_subtype = (
            subtype if re.fullmatch(r"[a-z0-9.+-]{1,40}", subtype) else "mixed"
        )
        head = f'Content-Type: multipart/{safe_subtype}; boundary="{boundary}"\r\n\r\n'
        rebuilt = email.message_from_bytes(head.encode("ascii") + body, policy=_POLICY)
        if rebuilt.is_multipart() and _children(rebuilt):
            notes.add(
                f"multipart {subtype} without a usable boundary; guessed it from the body"
            )
            return _collect(rebuilt, notes, seen, depth + 1)
    if re.search(r"(?im)^content-(?:type|transfer-encoding)\s*:", payload[:200_000]):
        notes.add(
            f"multipart {subtype} without a usable boundary; its parts cannot be separated"
        )
        seen.skipped.append("MIME parts without a boundary")
        return []
    notes.add(f"multipart {subtype} without a usable boundary; read it as plain text")
    text = _decode_text(_part_bytes(part, notes), None, notes)
    if _looks_binary(text):
        return []
    return [_Text("plain", _normalise(text))]


# RFC 2046 boundary: 1-70 printable ASCII characters, spaces allowed but not last (HCL Notes
# writes "=_alternative 0041A2C9C1258C3A_="); '"' and '\' are left out to keep quoting simple.
_BOUNDARY_LINE = re.compile(
    r"^--([\x21\x23-\x5b\x5d-\x7e](?:[\x20\x21\x23-\x5b\x5d-\x7e]{0,68}[\x21\x23-\x5b\x5d-\x7e])?)[ \t]*\r?$",
    re.MULTILINE,
)


def _guess_boundary(payload: str) -> str | None:
    """A boundary candidate: a "--token" line that occurs at least twice (start and end)."""
    for count, found in enumerate(_BOUNDARY_LINE.finditer(payload[:200_000])):
        if count >= 20:
            break
        token = found.group(1)
        token = token.removesuffix("--")  # the closing line "--b--" may come first
        if token and payload.count("--" + token) >= 2:
            return token
    return None


_STUB = re.compile(
    r"html|view (this|the) (message|e-?mail)|does not support|cannot display|"
    r"can ?not be displayed|plain[- ]text version|kann .{0,40}nicht anzeigen|no text",
    re.IGNORECASE,
)


def _is_stub(plain: str, html_version: Callable[[], str]) -> bool:
    """A plain part that is empty or only says "view this in HTML" while the HTML has more.

    The HTML version is a function: its text is only made when the plain part looks like a stub.
    """
    bare = plain.strip()
    if not bare:
        return True
    if len(bare) >= 300 or not _STUB.search(bare):
        return False
    return any(ch.isalnum() for ch in html_version())


def _choose_alternative(
    children: list[email.message.Message], notes: _Notes, seen: _Seen, depth: int
) -> list[_Text]:
    """Pick one version of multipart/alternative: the plain text, unless it is a stub.

    Plain first because it is what the player's client meant as text, quote markers and all;
    the HTML is the fallback for clients that send an empty or "use HTML" plain part.
    """
    plain: list[_Text] | None = None
    rich: list[_Text] | None = None
    for child in children:
        texts = _collect(child, notes, seen, depth + 1)  # skips attached files itself
        if not texts:
            continue
        if all(t.kind == "plain" for t in texts):
            plain = texts if plain is None else plain
        else:
            rich = texts  # the last one is the richest, as RFC 2046 orders them
    if plain is not None and rich is not None:
        plain_text = "\n".join(t.text for t in plain)
        if _is_stub(plain_text, lambda: "\n".join(t.text for t in rich)):
            notes.add("the text part is empty or a stub; read the HTML part")
            return rich
        return plain
    return plain if plain is not None else (rich or [])


# --------------------------------------------------------------------------------------------
# One text part: bytes -> str -> normalised lines
# --------------------------------------------------------------------------------------------


def _read_text_part(
    part: email.message.Message, info: _PartInfo, notes: _Notes
) -> _Text | None:
    """Decode one text/plain or text/html part into normalised text; None if it is binary."""
    data = _part_bytes(part, notes)
    _note_part_defects(part, notes)  # decoding base64 adds defects to the part
    charset = info.params.get("charset", "").strip().lower() or None
    text = _decode_text(data, charset, notes)
    if _looks_binary(text):
        notes.add("a text part holds binary data; ignored it")
        return None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if info.ctype == "text/html":
        to_text = _html_reader(text, notes)
        return _Text("html", make=lambda: _normalise(to_text()))
    if info.params.get("format", "").strip().lower() == "flowed":
        text = unflow(text, delsp=info.params.get("delsp", "").strip().lower() == "yes")
    return _Text("plain", _normalise(text))


_BINARY_CHARS = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\ufffd]")


def _looks_binary(text: str) -> bool:
    """Text with many control characters is a file sent as text/plain, not words to read."""
    if len(text) < 20:
        return False
    return len(_BINARY_CHARS.findall(text)) > len(text) // 20


def _part_bytes(part: email.message.Message, notes: _Notes) -> bytes:
    """The part's payload with its transfer encoding undone (base64, quoted-printable, ...)."""
    if _transfer_encoding(part) == "base64":
        raw = _raw_payload(part)
        if isinstance(raw, str):
            return _decode_base64(_raw_bytes(raw), notes)
    try:
        data = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001 - e.g. a payload the decoder chokes on
        notes.add("could not undo the transfer encoding; read the raw text")
        raw = _raw_payload(part)
        return _raw_bytes(raw) if isinstance(raw, str) else b""
    if data is None:
        return b""
    if isinstance(data, str):  # pragma: no cover - not seen with bytes input
        return data.encode("utf-8", "surrogateescape")
    return bytes(data)


def _raw_payload(part: email.message.Message) -> str | list | None:
    """The payload exactly as parsed (8-bit bytes as surrogates).

    Not `get_payload()`: for 8-bit payloads it decodes with the declared charset, which loses
    the bytes we want to decode ourselves and raises on absurd charset names.
    """
    return getattr(part, "_payload", None)


def _raw_bytes(payload: str) -> bytes:
    """A payload string back to the bytes it was parsed from (8-bit bytes are surrogates)."""
    try:
        return payload.encode("utf-8", "surrogateescape")
    except UnicodeError:
        return payload.encode("utf-8", "replace")


def _transfer_encoding(part: email.message.Message) -> str:
    """The Content-Transfer-Encoding, lowercased; "" when missing or unreadable."""
    try:
        return str(part.get("content-transfer-encoding", "")).strip().lower()
    except Exception:  # noqa: BLE001
        return ""


def _decode_base64(data: bytes, notes: _Notes) -> bytes:
    """Lenient base64: skip stray characters, decode each padded chunk, keep a cut-off tail.

    The stdlib returns the *undecoded* text when the length is impossible (a message cut
    short), which would show the player's orders as base64 soup.
    """
    cleaned = re.sub(rb"[^A-Za-z0-9+/=]", b"", data)
    if len(cleaned) != len(re.sub(rb"\s", b"", data)):
        notes.add("MIME: base64 text with invalid characters")
    out = []
    for chunk in re.split(rb"=+", cleaned):
        if len(chunk) % 4 == 1:
            chunk = chunk[:-1]
            notes.add("MIME: base64 text of impossible length (cut short?)")
        if chunk:
            try:
                out.append(binascii.a2b_base64(chunk + b"=" * (-len(chunk) % 4)))
            except binascii.Error:  # pragma: no cover - padding is fixed above
                notes.add("MIME: base64 text that could not be decoded")
    return b"".join(out)


# Codecs that decode bytes into text but are not charsets anyone writes mail in: they would turn
# "\n" sequences into other things, or always fail.
_NOT_CHARSETS = {
    "undefined",
    "unicode_escape",
    "raw_unicode_escape",
    "idna",
    "punycode",
    "mbcs",
    "oem",
    "palmos",
}
_LATIN_FAMILY = {"iso8859_1", "cp1252", "iso8859_15"}


def _codec(charset: str | None) -> str | None:
    """The Python codec for a declared charset, or None if it is unknown or not a charset."""
    if not charset or len(charset) > 60:
        return None
    try:
        info = codecs.lookup(charset.strip().strip("\"'"))
    except Exception:  # noqa: BLE001 - LookupError, and odder things for odd names
        return None
    name = info.name.replace("-", "_")
    if not getattr(info, "_is_text_encoding", True) or name in _NOT_CHARSETS:
        return None
    return name


def _decode_text(data: bytes, charset: str | None, notes: _Notes) -> str:
    """Bytes to text with the declared charset, falling back sensibly and never failing.

    Undeclared or wrongly declared 8-bit text is common (old clients, hand-made mail): read it
    as UTF-8 where it is valid UTF-8 and as windows-1252 elsewhere, line by line, so that a
    mixture of the two (a UTF-8 quote under a Latin-1 answer) still reads right.
    """
    codec = _codec(charset)
    if charset and codec is None:
        notes.add(f"unknown charset {charset[:60]!r}; read the text as UTF-8")
    if codec is None or codec == "ascii":
        if data.isascii():
            return data.decode("ascii")
        if codec == "ascii":
            notes.add(
                "8-bit text declared as US-ASCII; read it as UTF-8 / windows-1252"
            )
        elif not charset:
            notes.add(
                "8-bit text without a declared charset; read it as UTF-8 / windows-1252"
            )
        return _decode_guess(data)
    try:
        text = data.decode(codec)
    except (UnicodeError, LookupError, ValueError):
        if codec == "utf_8":
            notes.add(
                "text declared as UTF-8 is not valid UTF-8; read those lines as windows-1252"
            )
            return _decode_guess(data)
        try:
            text = data.decode("utf-8")
        except UnicodeError:
            notes.add(f"text is not valid {charset}; replaced the bad bytes")
            try:
                return data.decode(codec, "replace")
            except Exception:  # noqa: BLE001 - some codecs fail even with "replace"
                return _decode_guess(data)
        notes.add(f"text declared as {charset} is UTF-8; read it as UTF-8")
        return text
    if codec in _LATIN_FAMILY and not data.isascii() and _is_utf8(data):
        notes.add(f"text declared as {charset} is UTF-8; read it as UTF-8")
        return data.decode("utf-8")
    return text


def _is_utf8(data: bytes) -> bool:
    """Valid UTF-8?  Non-ASCII text that is valid UTF-8 is UTF-8, whatever the label says."""
    try:
        data.decode("utf-8")
    except UnicodeError:
        return False
    return True


def _decode_guess(data: bytes) -> str:
    """Undeclared bytes: the whole as UTF-8 if valid, else each line as UTF-8 or windows-1252."""
    try:
        return data.decode("utf-8")
    except UnicodeError:
        pass
    return "\n".join(_decode_line(line) for line in data.split(b"\n"))


def _decode_line(line: bytes) -> str:
    """One undeclared line: UTF-8 if valid, else windows-1252 (what old clients really send)."""
    try:
        return line.decode("utf-8")
    except UnicodeError:
        pass
    try:
        return line.decode("cp1252")
    except UnicodeError:
        return line.decode(
            "latin-1"
        )  # cp1252 leaves five bytes undefined; latin-1 has all


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200d\u2060\ufeff]")
_ODD_SPACE = re.compile("[\u00a0\u2007\u202f]")


def _clean_line(text: str) -> str:
    """Drop control and zero-width characters; odd spaces (NBSP, U+202F) become spaces."""
    return _ODD_SPACE.sub(" ", _CONTROL.sub("", text))


def _normalise(text: str) -> str:
    """Newline line ends, no control characters, no trailing whitespace, blank runs collapsed."""
    text = (
        text.replace("\r\n", "\n")
        .replace("\r", "\n")
        .replace("\u2028", "\n")
        .replace("\u2029", "\n")
    )
    text = _clean_line(text)
    return _tidy_blank_runs("\n".join(line.rstrip() for line in text.split("\n")))


def _tidy_blank_runs(text: str) -> str:
    """Collapse runs of blank lines ("\n" three or more times in a row) into one blank line.

    Removing quotes leaves the blank lines that surrounded them side by side; one blank line
    keeps the player's paragraphs apart without the holes.
    """
    return re.sub(r"\n(?:[ \t]*\n){2,}", "\n\n", text)


# --------------------------------------------------------------------------------------------
# format=flowed (RFC 3676)
# --------------------------------------------------------------------------------------------


def unflow(text: str, delsp: bool = False) -> str:
    """Undo format=flowed: join soft line breaks, keep quote depth, write quotes as "> ".

    A line ending in a space is continued by the next line of the same quote depth; with
    DelSp=yes that space was added by the sender and is removed.  The signature separator
    "-- " is never flowed.  Space-stuffing (one leading space) is removed.
    """
    out: list[str] = []
    pieces: list[
        str
    ] = []  # the logical line being joined (a list: += on str is quadratic)
    depth_open = -1  # quote depth of the open logical line; -1 when none is open

    def flush() -> None:
        nonlocal depth_open
        if depth_open >= 0:
            joined = "".join(pieces)
            out.append(
                ">" * depth_open + (" " + joined if joined else "")
                if depth_open
                else joined
            )
        pieces.clear()
        depth_open = -1

    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:].removeprefix(" ")  # space-stuffing
        soft = content.endswith(" ") and content != "-- "
        if soft and delsp:
            content = content[:-1]
        if depth_open >= 0 and depth != depth_open:
            flush()
        pieces.append(content)
        depth_open = depth
        if not soft:
            flush()
    flush()
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# HTML to text
# --------------------------------------------------------------------------------------------

_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_ASCII_LOWER = str.maketrans(_UPPER, _LOWER)
_XML_SPACE = re.compile("[ \t\r\n]+")
# Elements whose text is quoted: any blockquote (Thunderbird's and Apple's type=cite, Gmail's
# blockquote.gmail_quote), attribution blocks, Yahoo's quote, web.de's div name="quote".
# Gmail's div.gmail_quote only when it holds no blockquote: Gmail keeps the player's inline
# answers inside that div, between the blockquotes, so the div as a whole must not be quoted
# then (a forward has no blockquote).  Signatures: Gmail's, Thunderbird's, any id="signature".
#
# These tests were XPath expressions; in Python they cost a fifth (lxml's XPath has a high
# price per call, and the string functions ran on every element with an attribute).  Class
# names are matched as XPath's contains(concat(' ', normalize-space(translate(@class, A-Z,
# a-z)), ' '), ' name ') does: ASCII case folded, XML whitespace (not Unicode's) collapsed.
_QUOTE_CLASSES = (
    " gmail_attr ",
    " moz-cite-prefix ",
    " yahoo_quoted ",
    " outlookmessageheader ",
)
_SIGNATURE_CLASSES = (" gmail_signature ", " moz-signature ")
# Any of the class names in the ASCII-lowercased attribute: the cheap test before the exact
# one (whitespace is only collapsed by the exact one, and no name holds any).
_CLASS_HINT = re.compile(
    "gmail_attr|moz-cite-prefix|yahoo_quoted|outlookmessageheader|gmail_quote"
    "|gmail_signature|moz-signature"
)
_OUTLOOK_IDS = ("appendonsend", "divrplyfwdmsg")


def _special_kind(element: lxml.etree._Element) -> str | None:
    """The kind of a special element: "quote", "signature" (see above), or None."""
    if element.tag == "blockquote":
        return "quote"
    if element.get("name") == "quote":
        return "quote"
    value = element.get("class")
    if value is not None:
        lowered = value.translate(_ASCII_LOWER)
        if _CLASS_HINT.search(lowered):
            classes = " " + _XML_SPACE.sub(" ", lowered).strip(" ") + " "
            if any(name in classes for name in _QUOTE_CLASSES):
                return "quote"
            if " gmail_quote " in classes and (
                next(element.iterdescendants("blockquote"), None) is None
            ):
                return "quote"
            if any(name in classes for name in _SIGNATURE_CLASSES):
                return "signature"
    ident = element.get("id")
    if ident is not None and ident.translate(_ASCII_LOWER) == "signature":
        return "signature"
    return None


def _outermost_specials(
    element: lxml.etree._Element,
) -> list[tuple[lxml.etree._Element, str]]:
    """The special descendants of a root or detached element that lie in no other special
    descendant, in document order, with their kind (the element itself may be special: its
    own are counted).
    """
    found: list[tuple[lxml.etree._Element, str]] = []
    walk = element.iterdescendants()
    for node in walk:
        if not isinstance(node.tag, str):
            continue  # not an element (the parser drops comments and PIs anyway)
        kind = _special_kind(node)
        if kind is not None:
            found.append((node, kind))
            inside = sum(1 for _ in node.iterdescendants())
            if inside:  # skip them: they are converted with their special ancestor
                next(itertools.islice(walk, inside - 1, inside), None)
    return found


def _outlook_start(root: lxml.etree._Element) -> lxml.etree._Element | None:
    """The first element (document order) whose id is appendonsend or divRplyFwdMsg.

    Searched in the whole document, not only under `root`: libxml2 leaves what it finds after
    a closing </html> in a second top-level element now and then.
    """
    tops = [
        *reversed(list(root.itersiblings(preceding=True))),
        root,
        *root.itersiblings(),
    ]
    for top in tops:
        for element in top.iter():
            if not isinstance(element.tag, str):
                continue
            ident = element.get("id")
            if ident is not None and ident.translate(_ASCII_LOWER) in _OUTLOOK_IDS:
                return element
    return None


_INVISIBLE = (
    "script", "style", "head", "title", "link", "meta", "object", "embed", "applet",
    "iframe", "frame", "frameset", "noscript", "template",
)  # fmt: skip
_HTML_PARSER = lxml.etree.HTMLParser(
    recover=True,
    encoding="utf-8",
    remove_comments=True,
    remove_pis=True,
    no_network=True,
)


_NONCE_BYTES = 6
# Any placeholder word of `_element_plan`, whatever its nonce and depth (12 hex digits: a
# nonce of _NONCE_BYTES).  One compiled pattern: compiling one per nonce cost ~0.2 ms a message.
_PLACEHOLDER = re.compile("pbemq([0-9a-f]{12})d([0-9]+)n([0-9]+)q")


def html_to_text(markup: str, notes: _Notes | None = None) -> str:
    """HTML to text with html_text, keeping line breaks and marking quotes with "> ".

    Blockquotes, Gmail's quote block, Thunderbird's and Apple's cite blockquotes, and Outlook's
    original message (from #appendonsend / #divRplyFwdMsg to the end) come out as "> " lines,
    so that the plain-text quote rules of `own_words` apply to HTML mail too.  Parsing and
    cleaning use plain lxml.etree (not lxml.html and its Cleaner): the same text, several
    times faster on the multi-megabyte HTML some clients send.
    """
    return _html_reader(markup, notes if notes is not None else _Notes())()


_MALFORMED_HTML = "the HTML part is malformed; stripped its tags crudely"


def _html_reader(markup: str, notes: _Notes) -> Callable[[], str]:
    """`html_to_text` in two steps: the tree work now, the text (most of the time) on call.

    Parsing and rearranging the tree (Outlook's original, the quotes and signatures swapped
    for placeholders) happen now, as does the note when they fail.  Writing out the text
    (html_text, the placeholders filled in) waits for the call, which never comes for an
    HTML version that is not read; it cannot fail on the trees made here, and should it fail
    all the same, it reads as if it had failed now (the note in the place it would have had).
    """
    data = markup.strip().replace("\x00", "").encode("utf-8", "replace")
    if not data:
        return str
    position = len(notes.items)
    try:
        root = lxml.etree.fromstring(data, _HTML_PARSER)
        if root is None:
            return str
        lxml.etree.strip_elements(root, *_INVISIBLE, with_tail=False)
        _quote_outlook_original(root)
        plan = _element_plan(root, 0, secrets.token_hex(_NONCE_BYTES))
    except Exception:  # noqa: BLE001 - lxml on hostile markup; a crude reading beats none
        notes.add(_MALFORMED_HTML)
        crude = _crude_html_text(markup)
        return lambda: crude

    def to_text() -> str:
        try:
            return plan.text()
        except Exception:  # noqa: BLE001 - see the docstring
            notes.add_at(position, _MALFORMED_HTML)
            return _crude_html_text(markup)

    return to_text


def _crude_html_text(markup: str) -> str:
    """Fallback: drop tags, turn <br>/<p>/<div> into line breaks, unescape entities."""
    text = re.sub(
        r"(?i)<(script|style)\b[^>]*>[^<]*</\1\s*>", " ", markup
    )  # linear: no .*?
    text = re.sub(r"(?i)<\s*(br|/p|/div|p|div)\b[^>]*>", "\n", text)
    text = re.sub(r"<[^>]*>", " ", text)
    return html.unescape(text)


def _quote_outlook_original(root: lxml.etree._Element) -> None:
    """Move Outlook's original message (its marker and everything after) into a blockquote.

    Outlook web does not quote the original: it writes a #divRplyFwdMsg header block (after an
    empty #appendonsend div) and the original unquoted below it.
    """
    start = _outlook_start(root)
    if start is None:
        return
    bodies = root.findall(".//body")
    container = bodies[0] if bodies else root
    if start is root or start is container:
        return
    moving: list[lxml.etree._Element] = [start]
    node = start
    while True:
        moving.extend(node.itersiblings())
        parent = node.getparent()
        if parent is None or parent is container or parent is root:
            break
        if parent.tail and parent.tail.strip():
            holder = lxml.etree.Element("span")
            holder.text = parent.tail
            moving.append(holder)
        parent.tail = None
        node = parent
    quote = lxml.etree.Element("blockquote")
    for element in moving:
        quote.append(element)
    container.append(quote)


@dataclass
class _ElementPlan:
    """An element whose special descendants were swapped for placeholders (`_element_plan`)."""

    element: lxml.etree._Element
    depth: int
    nonce: str
    # placeholder number -> (plan, kind)
    replacements: dict[str, tuple[_ElementPlan, str]]

    def text(self) -> str:
        """The element's text, each placeholder replaced by its element's marked-up text."""
        text = html_text.etree_to_text(self.element)
        if self.replacements:
            filled = {
                index: _mark(plan.text(), kind)
                for index, (plan, kind) in self.replacements.items()
            }
            wanted = (self.nonce, str(self.depth))

            def put_back(found: re.Match[str]) -> str:
                if found.group(1, 2) != wanted:
                    return found.group(0)
                return "\n" + filled.get(found.group(3), "") + "\n"

            text = _PLACEHOLDER.sub(put_back, text)
        return text


def _element_plan(element: lxml.etree._Element, depth: int, nonce: str) -> _ElementPlan:
    """Prepare an element's text, with quote descendants as "> " lines, signatures after "-- ".

    Each outermost special element is swapped for a placeholder word, prepared on its own
    (recursively, so nested quotes get "> > "); `_ElementPlan.text` converts each element
    and puts the marked-up text in place of its word.  The element being prepared may itself
    be special (a detached blockquote): its specials are then those inside it (see
    `_outermost_specials`).  Only the tree work is done here: converting a tree to text does
    not change it, so converting later gives what converting at once gave.
    """
    replacements: dict[str, tuple[_ElementPlan, str]] = {}
    if depth < _MAX_HTML_QUOTE_DEPTH:
        for index, (node, kind) in enumerate(_outermost_specials(element)):
            parent = node.getparent()
            if parent is None:
                continue
            holder = lxml.etree.Element("div")
            holder.text = f"pbemq{nonce}d{depth}n{index}q"
            holder.tail, node.tail = node.tail, None
            parent.replace(node, holder)
            replacements[str(index)] = (_element_plan(node, depth + 1, nonce), kind)
    return _ElementPlan(element, depth, nonce, replacements)


def _mark(inner: str, kind: str) -> str:
    """Prefix quoted lines with "> "; put the "-- " separator above a signature."""
    if kind == "signature":
        return inner if inner.lstrip().startswith("--") else "-- \n" + inner
    return "\n".join("> " + line if line.strip() else ">" for line in inner.split("\n"))


# --------------------------------------------------------------------------------------------
# The player's own words
# --------------------------------------------------------------------------------------------

_FORM_LINE_MAX = 80
# The blank form line of the turn mail, `^\s*(hand|h)\s*(\d+)\s*[:.\-]?\s*$` once the quote
# markers are gone, matched here together with them.
_QUOTED_FORM_LINE = re.compile(
    r"^(?:[ \t]*>)+\s*(hand|h)\s*(\d+)\s*[:.\-]?\s*$", re.IGNORECASE
)
_QUOTED_BLANK = re.compile(r"^(?:[ \t]*>)+\s*$")
_HAND_REF = re.compile(r"^\s*(?:(?:hand|h)\s*\d+|\d+\s*[:.)\-])", re.IGNORECASE)

_CUT_LINE = re.compile(
    r"""^\s*(?:
        -{2,}\s*(?:original\ message|ursprüngliche\ nachricht|message\ d'origine|mensaje\ original
            |messaggio\ originale|oorspronkelijk\ bericht|originalmeddelande|oprindelig\ meddelelse
            |opprinnelig\ melding|alkuperäinen\ viesti|wiadomość\ oryginalna|mensagem\ original)\s*-{2,}
      | -{2,}\s*(?:forwarded\ message|weitergeleitete\ nachricht|message\ transféré|mensaje\ reenviado
            |messaggio\ inoltrato|doorgestuurd\ bericht|vidarebefordrat\ meddelande
            |videresendt\ meddelelse|wiadomość\ przekazana\ dalej|mensagem\ encaminhada)\s*-{2,}
      | _{10,}
      | (?:begin\ forwarded\ message|anfang\ der\ weitergeleiteten\ nachricht
            |début\ du\ message\ réexpédié|inicio\ del\ mensaje\ reenviado
            |inizio\ messaggio\ inoltrato)\s*:
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)

_SENDER_KEYS = "from|von|de|da|van|fra|från|od|lähettäjä|feladó"
_OTHER_KEYS = (
    "sent|date|to|cc|subject|gesendet|datum|an|betreff|kopie|envoyé|à|objet|enviado|fecha|para"
    "|asunto|inviato|data|a|oggetto|verzonden|aan|onderwerp|skickat|till|ämne|sendt|til|emne"
    "|wysłano|do|temat|lähetetty|vastaanottaja|aihe|enviada|assunto"
)
# A header line of a quoted original as mail clients write it: "From: x", "*From:* x" (Gmail's
# plain text of bold HTML), "De : x" (French spacing).
_HEADER_LINE = re.compile(
    rf"^\s*\*?\s*(?:(?P<sender>{_SENDER_KEYS})|(?P<other>{_OTHER_KEYS}))\s*\*?\s*:",
    re.IGNORECASE,
)

_ATTRIBUTION_START = re.compile(
    r"^\s*(?:on|am|le|el|op|den|il\ giorno|em|w\ dniu|dnia|zitat\ von|quoting)\b",
    re.IGNORECASE | re.VERBOSE,
)
_ATTRIBUTION_END = re.compile(
    r"""(?:\b(?:wrote|writes|a\ écrit|a\ ecrit|escribió|escribio|ha\ scritto|escreveu|kirjoitti
            |írta)\s*:
        | \b(?:schrieb|schreef|skrev|napisał|napisała|napisał\(a\))\b.{0,200}:
        | ^\s*(?:zitat\ von|quoting)\b.{0,200}:
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)

_FOOTERS = re.compile(
    r"""^\s*(?:
        sent\ (?:from|via|with|using)\ .{1,60}
      | get\ outlook\ for\ .{1,80}
      | von\ meinem\ .{1,40}\ gesendet\.?
      | gesendet\ (?:von|mit|vom)\ .{1,40}
      | envoyé\ (?:de|depuis|à\ partir\ de)\ .{1,40}
      | enviado\ (?:desde|do|de|con)\ .{1,40}
      | inviato\ da\ .{1,40}
      | verzonden\ (?:vanaf|met|van)\ .{1,40}
      | (?:skickat|sendt)\ fr[åa]\ .{1,40}
      | wysłane\ z\ .{1,40}
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


def _is_quoted(line: str) -> bool:
    """Quoted text starts with ">" (any depth; some clients indent the marker)."""
    return line.lstrip().startswith(">")


def _is_short(line: str) -> bool:
    """Short enough for the heuristic patterns: keeps a multi-MB line from costing seconds."""
    return len(line) <= _SHORT_LINE


def _is_signature_separator(line: str) -> bool:
    """The "-- " line before a signature; hand-typed "--" counts too."""
    return line.rstrip() == "--"


_Memo = dict[int, "tuple[str, bool] | None"]


def _header_key(lines: list[str], i: int, memo: _Memo) -> tuple[str, bool] | None:
    """(key, is-sender) of a header-like line ("From: x" -> ("from", True)), memoised.

    Memoised because each line of a block is looked at again from every line above it.
    """
    if i not in memo:
        line = lines[i]
        found = _HEADER_LINE.match(line) if _is_short(line) else None
        if found:
            memo[i] = (
                found.group(0).strip(" *:").lower(),
                found.group("sender") is not None,
            )
        else:
            memo[i] = None
    return memo[i]


def _is_header_block(lines: list[str], i: int, memo: _Memo) -> bool:
    """An unquoted original's header block starts here: From/Sent/To/Subject in any order.

    Outlook writes "From: Sent: To: Subject:" (or "Von: Gesendet: An: Betreff:", ...), web.de
    starts with "Gesendet:".  Three different keys, one of them the sender, within a few
    lines: a player's own "From: ..." or "To: ..." line alone never cuts their orders.
    """
    if _header_key(lines, i, memo) is None:
        return False
    keys: set[str] = set()
    has_sender = False
    for j in range(i, min(i + 8, len(lines))):
        found = _header_key(lines, j, memo)
        if found:
            keys.add(found[0])
            has_sender = has_sender or found[1]
    return has_sender and len(keys) >= 3


def _is_cut(lines: list[str], i: int, memo: _Memo) -> bool:
    """From this line on, nothing is the player's new words (original, forward, signature)."""
    line = lines[i]
    if _is_signature_separator(line):
        return True
    if not _is_short(line):
        return False
    return bool(_CUT_LINE.match(line)) or _is_header_block(lines, i, memo)


def _next_nonblank(lines: list[str], i: int) -> str | None:
    """The first non-blank line from index i on, None at the end (what follows an attribution)."""
    for line in lines[i:]:
        if line.strip():
            return line
    return None


def _attribution_span(lines: list[str], i: int) -> int:
    """How many lines (1-3) an attribution ("On ... wrote:") starting at line i takes; 0: none.

    Clients wrap long attributions, so up to three lines are joined.  One that starts like an
    attribution ("On", "Am", "Le", ...) must also hold a date or an address (a digit or "@"),
    so that a player's "Am Ende schrieb ich:" stays theirs.  Any other line ending in
    "wrote:" only counts when a quote follows it, which covers "Rita <gm@example.org> wrote:".
    """
    first = lines[i]
    if not first.strip() or _is_quoted(first) or not _is_short(first):
        return 0
    keyword = bool(_ATTRIBUTION_START.match(first))
    joined = ""
    for span in (1, 2, 3):
        if i + span > len(lines):
            return 0
        line = lines[i + span - 1]
        if span > 1 and (not line.strip() or _is_quoted(line) or not keyword):
            return 0
        joined = (joined + " " + line.strip()).strip()
        if len(joined) > 2 * _SHORT_LINE:
            return 0
        if joined.endswith(":") and _ATTRIBUTION_END.search(joined):  # cheap test first
            if keyword and re.search(r"[0-9@]", joined):
                return span
            following = _next_nonblank(lines, i + span)
            return span if following is None or _is_quoted(following) else 0
    return 0


_HAND_LINE = re.compile(r"^(?:hand|h)\s*\d+\s*[:.\-]?\s*(.*)$", re.IGNORECASE)
_HAND_NUMBER = re.compile(
    r"^\s*(?:(?:hand|h)\s*(\d{1,4})|(\d{1,4})\s*[:.)\-])", re.IGNORECASE
)


def _hand_of(line: str) -> int | None:
    """The hand an order line starts with ("Hand 3: ...", "h3 ...", "3: ..."), if any."""
    found = _HAND_NUMBER.match(line)
    return int(found.group(1) or found.group(2)) if found else None


def _answers_in_unmarked_form(lines: list[str], start: int) -> list[str]:
    """Order lines the player typed into the form of an original that has no quote marks.

    Outlook quotes nothing: a player who types "Guard on Bruno" after "Hand 3:" in the
    original leaves no marker but the filled line itself.  The form is recognised by its
    layout, not its wording: a run of "Hand N:" lines right after a line ending in ":"
    ("Orders for turn 3 -- fill in one line per hand and reply to this mail:").  The card
    list above it ("Your cards" has no colon) and quoted ("> ") lines never count.  The
    turn mail's form lines are blank, so a filled one is the player's.  The caller drops the
    hands the player ordered above the original: those words are newer and explicit (and an
    original that echoes orders, like an acknowledgement, must not override them).
    """
    answers: list[str] = []
    in_form = False
    previous = ""
    for line in lines[start:]:
        found = None
        if not _is_quoted(line) and len(line) <= _SHORT_LINE:
            found = _HAND_LINE.match(line.strip())
        if found and (in_form or previous.rstrip().endswith(":")):
            in_form = True
            if found.group(1).strip():
                answers.append(line.strip())
        else:
            in_form = False
        previous = line
    return answers


def _add_unmarked_answers(out: list[str], lines: list[str], start: int) -> None:
    """Append the filled form lines of an unquoted original, for hands not ordered above it."""
    ordered = {_hand_of(line) for line in out} - {None}
    answers = _answers_in_unmarked_form(lines, start)
    out.extend(answer for answer in answers if _hand_of(answer) not in ordered)


def own_words(full_text: str) -> str:
    """The player's own new words from a body: quotes, attributions, originals and footers gone.

    Inline answers are kept and attached to their hand: a quoted blank form line "> Hand 3:"
    followed (after blank lines at most) by the player's unquoted line makes that line
    "Hand 3: <line>", unless it already names a hand.
    """
    lines = full_text.split("\n")
    out: list[str] = []
    # The hand of the last quoted blank form line, while it awaits the player's answer.
    pending: int | None = None
    header_memo: _Memo = {}
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if _is_quoted(line):
            # A blank form line is short; longer quoted lines are content and end the wait.
            form = (
                _QUOTED_FORM_LINE.match(line) if len(line) <= _FORM_LINE_MAX else None
            )
            if form:
                pending = int(form.group(2))
            elif not _QUOTED_BLANK.match(line):
                pending = None
            i += 1
            continue
        if _is_cut(lines, i, header_memo):
            if not _is_signature_separator(line):
                _add_unmarked_answers(out, lines, i)
            break
        span = _attribution_span(lines, i)
        if span:
            following = _next_nonblank(lines, i + span)
            if following is not None and not _is_quoted(following):
                _add_unmarked_answers(out, lines, i)  # the original follows unquoted
                break
            i += span
            continue
        if _is_short(line) and _FOOTERS.match(line):
            i += 1
            continue
        if line.strip() and pending is not None:
            if not (_is_short(line) and _HAND_REF.match(line)):
                line = f"Hand {pending}: {line.strip()}"
            pending = None
        out.append(line)
        i += 1
    return _tidy_blank_runs("\n".join(out)).strip("\n")
