"""Headers: sender, subject, campaign tag and turn, message ids."""

from __future__ import annotations

import email._encoded_words
import email.header
import email.message
import email.utils
import re

from ..grammar import SUBJECT_TAG
from .notes import _Notes
from .policy import _default_header
from .text import _clean_line, _decode_guess, _raw_bytes

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


def _read_sender(msg: email.message.Message, notes: _Notes) -> tuple[str, str, str | None]:
    """The From address (lowercased), display name and what makes the sender ambiguous
    (see `_sender_problem`); ("", "", None) when there is no From header.

    The address is the one the mail system delivers to, the addr-spec the parser finds, and
    nothing else: its domain is the one DMARC checks.  A quoted or odd local part
    ('"bruno@example.org"@attacker.example' is a mailbox at attacker.example) or a value the
    parser reads no plain address from is nobody's; the address is only guessed from the
    text (a broken quote or bracket) when the value holds a single "@", so that the guess
    cannot pick a domain the mail did not come from.
    """
    value = _raw_header(msg, "from")
    if not value:
        notes.add("no From header")
        return "", "", None
    address, name = "", ""
    odd: str | None = None  # why the parsed address is no plain one
    simple = _simple_sender(value)
    if simple is not None:
        address, name = simple
    else:
        try:
            header = _default_header("from", value)
            # policy.default decodes an encoded word in an address, which RFC 2047 forbids
            # there: the mailbox is the text as it stands (the guess below reads it).
            addresses = [] if _ENCODED_IN_ADDRESS.search(value) else list(header.addresses)
            if addresses:
                address = addresses[0].addr_spec  # "<>" for an empty one, never ""
                name = addresses[0].display_name or ""
        except Exception:  # noqa: BLE001 - stdlib parser crash on hostile input
            notes.add("the From header is malformed")
        if address in ("", "<>"):
            address = ""
        elif not _PLAIN_ADDRESS.fullmatch(address):
            odd = f"the From address {_clean_line(address)[:80]!r} is not a plain name@domain address"
            address = ""
    if not address and value.count("@") == 1:
        address, name = _guess_sender(value, name)
        odd = None if _PLAIN_ADDRESS.fullmatch(address) else odd
    address = _clean_line(address).strip().lower()
    name = " ".join(_clean_line(name).split())
    if not address:
        notes.add("no sender address in the From header")
        if odd is None and "@" in value:
            odd = f"the From header {_clean_line(value)[:80]!r} holds no plain name@domain address"
    return address, name, odd or _sender_problem(msg, value, address, name)


# An apostrophe may stand inside a local part (o'brien@example.ie), not first: 'a@b.c' is quoted.
_PLAIN_ADDRESS = re.compile(r"[^\s<>()\"',;:@\[\]][^\s<>()\",;:@\[\]]*@[^\s<>()\"',;:@\[\]]+")
# An encoded word in an addr-spec (its local part), as policy.default would decode it.
_ENCODED_IN_ADDRESS = re.compile(r"=\?[^?\s]*\?[BbQq]\?[^?\s]*\?=[^\s<>@]*@")
# An address with a second "@" ("bruno@example.org@attacker.example"): whose is it?
_DOUBLE_AT = re.compile(r"[^\s<>()\"',;:@\[\]]*@[^\s<>()\"',;:@\[\]]*@")


def _sender_problem(msg: email.message.Message, value: str, address: str, name: str) -> str | None:
    """Why the From header does not name one sender unambiguously, in the GM's words; None if it does.

    A forger hopes the tool reads the address a person would see: "bruno@example.org
    <evil@attacker.example>", "bruno@example.org@attacker.example", a group or a list that
    holds the player's address, a second From header.  A sender that is not one plain
    address is nobody's: the caller keeps the message and takes no orders from it.
    """
    count = sum(1 for key, _ in msg.raw_items() if str(key).lower() == "from")
    if count > 1:
        return f"the message has {count} From headers"
    if "@" not in name and value.count("@") <= 1:
        return None  # the common case, decided without more parsing
    if _DOUBLE_AT.search(value):
        return f"the From address {value[:80]!r} holds more than one @"
    shown = {found.lower() for found in _PLAIN_ADDRESS.findall(value + " " + name)} | {address}
    shown.discard("")
    if len(shown) > 1:
        listed = ", ".join(sorted(shown)[:4])
        return f"the From header shows more than one address ({listed})"
    return None


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
    caller asks policy.default itself.  An encoded word in the address is left as it stands
    (policy.default would decode it; `_read_sender` does not let it).
    """
    found = _SIMPLE_FROM.fullmatch(value)
    if found is None:
        return None
    phrase, address = found.group(1) or "", found.group(2) or found.group(3)
    if not _PLAIN_ADDRESS.fullmatch(address):
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
            name = str(email.header.make_header(email.header.decode_header(guessed_name)))
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
