"""MIME structure: which parts are the body, and one part's bytes with its encoding undone."""

from __future__ import annotations

import binascii
import email
import email.message
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .htmltext import _html_reader
from .notes import _Notes
from .policy import _POLICY, _default_header, _raw_first, _simple_mime_header, _unfold
from .text import _decode_text, _normalise, _raw_bytes, unflow

_MAX_MIME_DEPTH = 25  # real mail nests 3-5 deep; beyond this it is a bomb or garbage
# Real mail has a handful of parts; each costs header parsing and a walk through our steps.
_MAX_PARTS = 300


class _Seen:
    """What the MIME walk skipped, so that an unreadable message can say why it is one."""

    def __init__(self) -> None:
        self.skipped: list[str] = []  # "orders.txt (text/plain)"
        self.files = 0  # attached files and messages not read, pictures and signatures aside
        self.encrypted = False
        self.parts = 0  # parts visited, against _MAX_PARTS
        self.too_deep = False


class _Text:
    """Readable text from one body part; kind says whether it came from HTML.

    The text of an HTML part is made when first asked for: most HTML parts are the other
    version of a plain text part (multipart/alternative), and it is the plain one that is read.
    """

    __slots__ = ("_make", "_text", "kind")

    def __init__(self, kind: str, text: str | None = None, make: Callable[[], str] | None = None) -> None:
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
    "InvalidHeaderDefect": "a header line without a name; ignored it",  # ": value" (the only one on a part)
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
    params: Mapping[str, str] = {}
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
    # Every ctype holds a "/": the default type, the shortcut's type/subtype, policy.default's
    # content_type (text/plain for a malformed value).
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
        seen.files += 1
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
            seen.files += 1
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
        if maintype != "image":
            seen.files += 1
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


def _related_root(start: str | None, children: list[email.message.Message]) -> email.message.Message | None:
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
    if boundary is not None:
        body = _raw_bytes(payload)
        safe_subtype = subtype if re.fullmatch(r"[a-z0-9.+-]{1,40}", subtype) else "mixed"
        head = f'Content-Type: multipart/{safe_subtype}; boundary="{boundary}"\r\n\r\n'
        rebuilt = email.message_from_bytes(head.encode("ascii") + body, policy=_POLICY)
        if rebuilt.is_multipart():  # the parser gives a multipart one part at least
            notes.add(f"multipart {subtype} without a usable boundary; guessed it from the body")
            # At this part's own depth: its parts are no deeper than with the boundary (and
            # the rebuilt part is a multipart: it is never rebuilt again).
            return _collect(rebuilt, notes, seen, depth)
    if re.search(r"(?im)^content-(?:type|transfer-encoding)\s*:", payload[:200_000]):
        notes.add(f"multipart {subtype} without a usable boundary; its parts cannot be separated")
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
    """A boundary candidate: a "--token" line that occurs at least twice (start and end).

    The token is the whole line: a boundary may end in "-" (RFC 2046), and a closing line
    "--b--" before any opening one cannot be parsed whatever the guess.
    """
    for count, found in enumerate(_BOUNDARY_LINE.finditer(payload[:200_000])):
        if count >= 20:
            break
        token = found.group(1)
        if payload.count("--" + token) >= 2:
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
# One text part: bytes -> normalised text
# --------------------------------------------------------------------------------------------


def _read_text_part(part: email.message.Message, info: _PartInfo, notes: _Notes) -> _Text | None:
    """Decode one text/plain or text/html part into normalised text; None if it is binary."""
    data = _part_bytes(part, notes)  # its defects were noted by `_collect`; decoding adds none
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


def _raw_payload(part: email.message.Message) -> str | list[email.message.Message] | None:
    """The payload exactly as parsed (8-bit bytes as surrogates).

    Not `get_payload()`: for 8-bit payloads it decodes with the declared charset, which loses
    the bytes we want to decode ourselves and raises on absurd charset names.
    """
    return getattr(part, "_payload", None)


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
        if chunk:  # only base64 characters, of a length padding completes: it decodes
            out.append(binascii.a2b_base64(chunk + b"=" * (-len(chunk) % 4)))
    return b"".join(out)
