"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/policy.py (the seventh run).

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import email
import email.policy

import pytest
from reader_kit import message

from pbem.reader import policy, read_mail

ORDERS = "Hand 3: Baron on Bruno"


def test_a_plain_mail_is_read():
    """The shape every pin below varies: a plain mail's orders and sender."""
    read = read_mail(message(ORDERS, sender="Bruno <bruno@example.org>"))
    assert read.sender == "bruno@example.org"


# -- folded headers (_unfold): a header's value runs on over its line breaks -----------------------


def _mixed(content_type: str, boundary: str, eol: str) -> bytes:
    """A multipart/mixed reply whose Content-Type is `content_type`, with `eol` line ends."""
    text = (
        "From: Bruno <bruno@example.org>\n"
        "To: Rita (pbem) <gm@example.org>\n"
        "Subject: Re: [game7] Turn 3: your cards and orders\n"
        "Message-ID: <reply-1@example.org>\n"
        "MIME-Version: 1.0\n"
        f"Content-Type: {content_type}\n"
        "\n"
        f"--{boundary}\n"
        "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: 8bit\n"
        "\n"
        f"{ORDERS}\n"
        f"--{boundary}--\n"
    )
    return text.replace("\n", eol).encode("utf-8")


LINE_ENDS = pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])


@LINE_ENDS
@pytest.mark.parametrize(
    "content_type",
    [
        'multipart/mixed;\n boundary="b1"',
        "multipart/mixed;\n\tboundary=b1",
        'multipart/mixed; charset=utf-8;\n boundary="b1"',
    ],
)
def test_a_content_type_folded_onto_the_next_line_keeps_its_boundary(content_type, eol):
    """Mail programs fold a long Content-Type before its boundary (Thunderbird, Apple Mail), and
    old Macs end lines with CR alone: the boundary is the folded line's, the parts are read and
    the GM is told of nothing (a boundary lost is guessed from the body, with a note)."""
    read = read_mail(_mixed(content_type, "b1", eol))
    assert (read.own_text, read.defects) == (ORDERS, ())


@LINE_ENDS
def test_a_folded_boundary_written_as_an_encoded_word_is_used_as_written(eol):
    """RFC 2047 forbids encoded words in a quoted string: boundary="=?utf-8?q?b1?=" is those
    characters, on the folded line as well as on the first (decoded, no delimiter is found)."""
    read = read_mail(_mixed('multipart/mixed;\n boundary="=?utf-8?q?b1?="', "=?utf-8?q?b1?=", eol))
    assert (read.own_text, read.defects) == (ORDERS, ())


# -- the other headers the parser asks for (_default_str): as policy.default gives them ------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("Content-Transfer-Encoding", "quoted-printable"),
        ("Content-Transfer-Encoding", "=?us-ascii?q?base64?="),
        ("Content-Transfer-Encoding", "base64; x=y"),
        ("Content-ID", "<root@example.org>"),
        ("Content-ID", "<root@example.org> (the letter)"),
        ("Content-ID", "=?utf-8?q?root?="),
        ("Content-ID", "root; v=1"),
    ],
)
def test_a_parts_transfer_encoding_and_id_read_as_policy_default_gives_them(name, value):
    """The reader's policy promises the header values of policy.default (policy.py's design):
    the stdlib decodes a part by its Content-Transfer-Encoding and the reader finds related's
    root by its Content-ID, so an encoded word there is decoded and a parameter left as written,
    as policy.default does (not rendered anew as a Content-Type's parameters are)."""
    raw = f"MIME-Version: 1.0\nContent-Type: text/plain\n{name}: {value}\n\n{ORDERS}\n".encode()
    expected = str(email.message_from_bytes(raw, policy=email.policy.default)[name])
    assert email.message_from_bytes(raw, policy=policy._POLICY)[name] == expected
