"""One text part's characters: bytes to str with charsets, normalised lines, format=flowed."""

from __future__ import annotations

import codecs
import re

from .notes import _Notes


def _raw_bytes(payload: str) -> bytes:
    """A payload or header string back to the bytes it was parsed from (8-bit bytes are surrogates).

    Every such string was cut from the message's bytes decoded as ASCII with
    "surrogateescape" (`message_from_bytes`): it holds ASCII and U+DC80-U+DCFF alone, which
    this encoding takes back to the very bytes, and nothing it cannot encode.
    """
    return payload.encode("utf-8", "surrogateescape")


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
        # The lookup reads a name with spaces or quotes around it ('"utf-8"', " 'koi8-r' ") as
        # the name: `encodings.normalize_encoding` drops the punctuation at its ends.
        info = codecs.lookup(charset)
    except Exception:  # noqa: BLE001 - LookupError, and odder things for odd names
        return None
    name = info.name.replace("-", "_")
    if not info._is_text_encoding or name in _NOT_CHARSETS:  # every CodecInfo has it (codecs.py)
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
            notes.add("8-bit text declared as US-ASCII; read it as UTF-8 / windows-1252")
        elif not charset:
            notes.add("8-bit text without a declared charset; read it as UTF-8 / windows-1252")
        return _decode_guess(data)
    try:
        text = data.decode(codec)
    except (UnicodeError, LookupError, ValueError):
        if codec == "utf_8":
            notes.add("text declared as UTF-8 is not valid UTF-8; read those lines as windows-1252")
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
        return line.decode("latin-1")  # cp1252 leaves five bytes undefined; latin-1 has all


# Control and invisible characters; U+00AD (a soft hyphen: where a word may break) is one.
# So is half of a surrogate pair, which UTF-7 can encode ("+2AA-") and no file can hold.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u200b-\u200d\u2060\ufeff\ud800-\udfff]")
_ODD_SPACE = re.compile("[\u00a0\u2007\u202f]")


def _clean_line(text: str) -> str:
    """Drop control and zero-width characters and halves of surrogate pairs; odd spaces
    (NBSP, U+202F) become spaces."""
    return _ODD_SPACE.sub(" ", _CONTROL.sub("", text))


def _normalise(text: str) -> str:
    """Newline line ends, no control characters, no trailing whitespace, blank runs collapsed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u2028", "\n").replace("\u2029", "\n")
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
    pieces: list[str] = []  # the logical line being joined (a list: += on str is quadratic)
    depth_open = -1  # quote depth of the open logical line; -1 when none is open

    def flush() -> None:
        nonlocal depth_open
        if depth_open >= 0:
            joined = "".join(pieces)
            out.append(">" * depth_open + (" " + joined if joined else "") if depth_open else joined)
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
