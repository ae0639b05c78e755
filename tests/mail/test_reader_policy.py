"""Tests of pbem.reader: The fast header policy and the header shortcuts, each against the slow original.

Hand-written messages pin each rule (every test names what breaks if the rule breaks).
"""

from __future__ import annotations

import base64
import email
import email.message
import email.policy
from email.policy import compat32

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reader_kit import FUZZ, mutated

from pbem.reader import headers, policy, text

# --------------------------------------------------------------------------------------------
# Speed without a change of meaning: each shortcut agrees with what it stands in for
# --------------------------------------------------------------------------------------------
#
# The reader parses with compat32 (policy.default's header objects cost most of its time) and
# reads header values, From, Subject and the HTML quote markers by shortcuts.  Each test below
# holds the slow original as an oracle and checks the shortcut against it.


def _shape(msg) -> list:
    """What the reader looks at in a parsed message, part by part (exceptions by type)."""

    def attempt(function):
        try:
            return function()
        except Exception as exc:  # noqa: BLE001 - the oracle may raise too: compare types
            return ("raised", type(exc).__name__)

    parts = attempt(lambda: list(msg.walk()))
    if isinstance(parts, tuple):
        return [parts]
    shape = []
    for part in parts:
        shape.append(
            (
                part.get_default_type(),
                attempt(part.get_content_type),
                attempt(part.get_boundary),
                attempt(part.get_content_charset),
                attempt(part.get_filename),
                attempt(lambda p=part: str(p.get("content-transfer-encoding", ""))),
                attempt(lambda p=part: str(p.get("content-id", ""))),
                part.is_multipart(),
                part._headers,
                None if part.is_multipart() else part._payload,
                attempt(lambda p=part: None if p.is_multipart() else p.get_payload(decode=True)),
                [type(defect).__name__ for defect in part.defects],
            )
        )
    return shape


class _BoundaryAsWritten(email.message.EmailMessage):
    """policy.default's message, but a quoted boundary holding an encoded word used as written.

    The reader's one departure from policy.default (the lead's decision, issue 21): RFC 2047
    forbids encoded words in a quoted string, and policy.default decoded
    boundary="=?utf-8?q?b1?=" to "b1", found no delimiter and read the mail as empty.
    """

    def get_boundary(self, failobj=None):
        raw = next((value for key, value in self._headers if key.lower() == "content-type"), None)
        if raw is not None:
            unfolded = raw.replace("\r", "").replace("\n", "")
            written = email.message_from_string(f"Content-Type: {unfolded}\n\n", policy=compat32)
            value = written.get_param("boundary", unquote=False)  # compat32's: the quotes kept
            if isinstance(value, str) and len(value) > 1 and value[0] == value[-1] == '"':
                if "=?" in value and "\\" not in value:
                    return value[1:-1]
        return super().get_boundary(failobj)


DEFAULT_BOUNDARY_AS_WRITTEN = email.policy.default.clone(message_factory=_BoundaryAsWritten)


def _parse_both(raw: bytes) -> tuple:
    def parse(policy):
        try:
            return _shape(email.message_from_bytes(raw, policy=policy))
        except Exception as exc:  # noqa: BLE001
            return ("raised", type(exc).__name__)

    return parse(DEFAULT_BOUNDARY_AS_WRITTEN), parse(policy._POLICY)


HOSTILE_MIME_HEADERS = [
    b'Content-Type: multipart/mixed; boundary="b1',  # open quote: policy.default closes it
    b"Content-Type: multipart/mixed; boundary=b1 (comment)",
    b"Content-Type: multipart/mixed; boundary*=utf-8''b1",
    b"Content-Type: multipart/mixed; boundary*0=b; boundary*1=1",
    b'Content-Type: multipart/mixed; boundary="=?utf-8?q?b1?="',  # used as written: see above
    b'Content-Type: multipart/mixed; boundary="b\\1"',
    b"Content-Type: multipart/mixed; boundary=b1; BOUNDARY=b2",
    b"Content-Type: multipart/mixed; boundary=b1; boundary=b2",
    b'Content-Type: multipart/mixed;\r\n boundary="b1"',
    b"Content-Type: multipart/(c)mixed; boundary=b1",
    b"Content-Type: =?utf-8?q?multipart/mixed?=; boundary=b1",
    b"Content-Type: multipart/mixed; boundary=\xe9b1",
    b'Content-Type: text/plain; charset="utf-8" ; format=flowed;',
    b"Content-Transfer-Encoding: base64 (c)",
    b"Content-Transfer-Encoding: =?utf-8?q?base64?=",
    b'Content-Transfer-Encoding: "base64"',
    b"Content-Transfer-Encoding: b\xe4se64",
    b"Content-Disposition: attachment; filename*=utf-8''%C3%A9.txt",
]


@pytest.mark.parametrize("header", HOSTILE_MIME_HEADERS)
def test_reader_policy_parses_hostile_mime_headers_like_policy_default(header):
    raw = b"From: a@example.org\n" + header + b"\n\n--b1\nContent-Type: text/plain\n\nHand 3: Baron\n--b1--\n"
    default, reader = _parse_both(raw)
    assert reader == default


@FUZZ
@given(mutated())
def test_reader_policy_parses_like_policy_default(raw):
    """compat32 + our header_fetch_parse: the same parts, boundaries, payloads and defects."""
    default, reader = _parse_both(raw)
    assert reader == default


HEADER_TEXT = st.lists(
    st.sampled_from(
        list("abcXYZ019 \t;=\"/*'%?,:@<>[].-_()\\!#$&+^`{|}~é\udce9")
        + ["=?", "?=", "text/plain", "charset=", "boundary=", "=?utf-8?q?a?=", "base64"]
    ),
    max_size=20,
).map("".join)


@FUZZ
@given(
    st.sampled_from(
        [
            "content-type",
            "Content-Disposition",
            "content-transfer-encoding",
            "content-id",
        ]
    ),
    HEADER_TEXT,
)
def test_header_values_read_as_policy_default_gives_them(name, value):
    try:
        expected = str(email.policy.default.header_factory(name, value))
    except Exception as exc:  # noqa: BLE001
        with pytest.raises(type(exc)):
            policy._default_str(name, value)
        return
    assert policy._default_str(name, value) == expected


_TOKENS = [
    "text",
    "plain",
    "TEXT",
    "Html",
    "multipart",
    "x-foo",
    "a.b",
    "o'k",
    "a*b",
    "a%b",
    "~",
    "utf-8",
    "b1",
]
MIME_VALUE = st.builds(
    lambda kind, head, ws, params, end: (
        kind,
        head + ws + "".join(params) + end,
    ),
    st.sampled_from(["content-type", "content-disposition"]),
    st.sampled_from(
        [
            "text/plain",
            "TEXT/Html",
            "multipart/mixed",
            "inline",
            "attachment",
            "a.b/c*d",
            "text /plain",
        ]
    ),
    st.sampled_from(["", "", " ", "\t"]),
    st.lists(
        st.builds(
            lambda sep, name, eq, value, after: sep + name + eq + value + after,
            st.sampled_from([";", "; ", ";\t", " ;"]),
            st.sampled_from(
                [
                    "charset",
                    "Charset",
                    "boundary",
                    "name",
                    "filename",
                    "format",
                    "x*",
                    "a'",
                ]
            ),
            st.sampled_from(["=", "=", " ="]),
            st.one_of(
                st.sampled_from(_TOKENS),
                st.lists(
                    st.sampled_from(list("ab Z\t;=!#()<>@,:/[]?\\\"'*%") + ["=?"]),
                    max_size=8,
                ).map(lambda chars: '"' + "".join(chars) + '"'),
            ),
            st.sampled_from(["", "", " "]),
        ),
        max_size=4,
    ),
    st.sampled_from(["", "", ";", "; "]),
)


@FUZZ
@given(MIME_VALUE)
def test_plain_mime_headers_read_as_policy_default_reads_them(kind_and_value):
    kind, value = kind_and_value
    simple = policy._simple_mime_header(kind, value)
    if simple is None:
        return  # not plain: the reader asks policy.default itself
    header = email.policy.default.header_factory(kind, value)
    main = header.content_type if kind == "content-type" else header.content_disposition
    assert simple.text == str(header)
    assert simple.value == main.lower()
    assert dict(simple.params) == dict(header.params)


def test_the_usual_mime_headers_take_the_shortcut():
    for kind, value in [
        ("content-type", 'text/plain; charset="UTF-8"; format=flowed; delsp=yes'),
        (
            "content-type",
            'multipart/alternative;\tboundary="000000000000a8b1c305f4e2d6a1"',
        ),
        ("content-type", "text/html; charset=iso-8859-1;"),
        ("content-disposition", 'attachment; filename="notes-turn3.pdf"'),
        ("content-disposition", "inline"),
    ]:
        assert policy._simple_mime_header(kind, value) is not None, value


def _encoded_word(text: str, charset: str, encoding: str) -> str:
    data = text.encode(charset, "replace")
    if encoding in "bB":
        return f"=?{charset}?{encoding}?{base64.b64encode(data).decode()}?="
    coded = "".join(
        chr(byte) if chr(byte).isalnum() and byte < 128 else "_" if byte == 32 else f"={byte:02X}"
        for byte in data
    )
    return f"=?{charset}?{encoding}?{coded}?="


FROM_WORD = st.one_of(
    st.sampled_from(
        [
            "Arthur",
            "Pendleton",
            "O'Brien",
            "J.",
            "Chloé",
            "x=?y",
            "a,b",
            "(c)",
            '"A, B"',
            '""',
            '" x "',
            '"a\\"b"',
            '"=?utf-8?q?x?="',
        ]
    ),
    st.builds(
        _encoded_word,
        st.text(st.sampled_from(list("aé ü_,=?\r\n\u200b")), min_size=1, max_size=6),
        st.sampled_from(["utf-8", "iso-8859-1", "utf-16"]),
        st.sampled_from(["q", "Q", "b", "B"]),
    ),
    st.sampled_from(["=?utf-8?q?=Zz?=", "=?bogus?q?x?=", "=?utf-8?b?QQ?=", "=?utf-8?q?x?=abc"]),
)
FROM_VALUE = st.builds(
    lambda words, sep, gap, local, domain, bare: (
        f"{local}@{domain}" if bare else sep.join(words) + gap + f"<{local}@{domain}>"
    ),
    st.lists(FROM_WORD, max_size=3),
    st.sampled_from([" ", "  ", "\t", "", "\u00a0"]),
    st.sampled_from([" ", "", "\t"]),
    st.sampled_from(["chloe", "Chloe.Martin", "a+tag", "o'brien", "a..b", "x=?y", "é"]),
    st.sampled_from(["example.fr", "Example.ORG", "b", "[1.2.3.4]"]),
    st.booleans(),
)


@FUZZ
@given(FROM_VALUE)
def test_plain_from_read_as_policy_default_reads_it(value):
    simple = headers._simple_sender(value)
    if simple is None:
        return  # not plain: the reader asks policy.default itself
    address = email.policy.default.header_factory("from", value).addresses[0]
    assert simple[0] == address.addr_spec

    def tidy(name: str) -> str:
        return " ".join(text._clean_line(name).split())

    assert tidy(simple[1]) == tidy(address.display_name)


def test_the_usual_from_headers_take_the_shortcut():
    for value in [
        "=?UTF-8?Q?Chlo=C3=A9_Martin?= <chloe@example.fr>",
        "=?utf-8?B?TWFydGluLCBDaGxvw6k=?= <chloe@example.fr>",
        '"Arthur Pendleton" <arthur@example.org>',
        "Dominik =?UTF-8?Q?M=C3=BCller?= <dominik@example.de>",
        "Chloé Martin <chloe@example.fr>",
        "bruno@example.org",
    ]:
        assert headers._simple_sender(value) is not None, value


@FUZZ
@given(st.text(max_size=60).filter(lambda text: "=?" not in text))
def test_a_subject_without_encoded_words_is_its_own_decoding(value):
    """`_decode_words` skips policy.default for these: it would give them back unchanged."""
    value = value.replace("\r", "").replace("\n", "")
    value = value.encode("utf-8", "replace").decode("utf-8")  # no lone surrogates
    assert str(email.policy.default.header_factory("subject", value)) == value
