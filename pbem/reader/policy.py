"""Parsing: the speed of compat32, the header values of policy.default (see the comment below)."""

from __future__ import annotations

import email.headerregistry
import email.message
import email.policy
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

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
# looks at that string, so the parse and the decoding are the same as with policy.default, but
# for one thing: a boundary in the syntax of an encoded word is used as written (`_ReaderMessage`).

_DEFAULT_HEADER_CLASSES: dict[str, type] = {}
# Readings of header values are remembered (the parser asks for a part's Content-Type several
# times), within bounds: hostile mail has any number of values, of any length.
_DEFAULT_STR_CACHE: dict[tuple[str, str], str] = {}
_CACHE_ENTRIES = 1000
_CACHED_VALUE_MAX = 1000


# typeshed calls policy.default's header_factory a plain callable; it is a HeaderRegistry
# (indexed by name, with a registry of the structured headers).
_HEADER_FACTORY: Any = email.policy.default.header_factory


def _default_header(name: str, value: str) -> Any:
    """policy.default's header object for a value: what `header_factory(name, value)` gives.

    The factory builds a new class for every header it makes (a large part of its cost); the
    class only depends on the lowercased name, so it is built once per name here. Typed Any:
    each header class has the attributes of its kind (addresses, content_type, params...).
    """
    key = name.lower()
    cls = _DEFAULT_HEADER_CLASSES.get(key)
    if cls is None:
        cls = _HEADER_FACTORY[key]
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
_SIMPLE_VALUE = re.compile(rf'[{_SIMPLE_CHARS}]*(?:"[{_SIMPLE_CHARS}]*"[{_SIMPLE_CHARS}]*)*')
# Headers policy.default parses with a structured parser of its own (the others: unstructured).
_STRUCTURED_HEADERS = frozenset(_HEADER_FACTORY.registry) - {"subject"}


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


# A quoted boundary parameter, its characters as written (no quoted pairs).
_QUOTED_BOUNDARY = re.compile(r';[ \t]*boundary[ \t]*=[ \t]*"([^"\\]*)"', re.IGNORECASE)


class _ReaderMessage(email.message.Message):
    """compat32's Message, but a boundary that has an encoded word's syntax is used as written."""

    def get_boundary(self, failobj: Any = None) -> Any:  # the stdlib's signature
        """policy.default's boundary, but a quoted one in the syntax of an encoded word as written.

        RFC 2047 (section 5) forbids encoded words in a quoted string, so a parameter holds none;
        policy.default decodes them anyway: boundary="=?utf-8?q?b1?=" became "b1", the delimiter
        lines "--=?utf-8?q?b1?=" were not found and the mail read as empty.  (Encoded words in a
        comment are allowed, and decoded or dropped as policy.default does.)
        """
        raw = _raw_first(self, "content-type")
        if raw is not None and "=?" in raw:
            quoted = _QUOTED_BOUNDARY.search(_unfold(raw))
            if quoted is not None and "=?" in quoted.group(1):
                return quoted.group(1)
        return super().get_boundary(failobj)


class _ReaderPolicy(email.policy.Compat32):
    """compat32, but header values come out as policy.default would give them (see above)."""

    message_factory = _ReaderMessage

    def header_fetch_parse(self, name: str, value: str) -> str:  # the stdlib's signature (typeshed's Policy)
        """The value as str() of policy.default's parsed header."""
        if hasattr(value, "name"):  # a header object (not made by the parser)
            return value
        return _default_str(name, _unfold(value))


_POLICY = _ReaderPolicy()


def _raw_first(part: email.message.Message, name: str) -> str | None:
    """The first raw value of a header (what `part.get` looks at), None when there is none."""
    for key, value in getattr(part, "_headers", None) or ():
        if key.lower() == name:
            return cast(str, value)  # compat32 keeps the raw values as text
    return None
