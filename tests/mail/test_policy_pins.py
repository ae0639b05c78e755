"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/policy.py (the seventh run).

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest
from reader_kit import message

from pbem.reader import read_mail

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
