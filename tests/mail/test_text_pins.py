"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/text.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import email

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reader_kit import FUZZ, message

from pbem.reader import read_mail

ORDERS = "Hand 3: Baron on Bruno\nHand 7: Prince on myself"


@pytest.mark.parametrize(
    ("body", "crlf"),
    [
        # Each client's line end is one line end: CRLF (the wire's), CR alone (classic Mac
        # OS), and the Unicode line and paragraph separators some editors paste.
        (f"{ORDERS}\n", True),
        (b"Hand 3: Baron on Bruno\rHand 7: Prince on myself\r", False),
        ("Hand 3: Baron on Bruno\u2028Hand 7: Prince on myself", False),
        ("Hand 3: Baron on Bruno\u2029Hand 7: Prince on myself", False),
    ],
    ids=["crlf", "cr", "line-separator", "paragraph-separator"],
)
def test_every_line_end_a_client_writes_is_one_line_end(body, crlf):
    assert read_mail(message(body, crlf=crlf)).own_text == ORDERS


def test_trailing_spaces_go_and_leading_ones_stay():
    # Spaces after an order are the client's; an indented order keeps its indent (a
    # quoted form's answers and pasted blocks are read by their leading spaces).
    body = "Dear GM,   \n\n    Hand 3: Baron on Bruno\t \n    Hand 7: Prince on myself  \n"
    read = read_mail(message(body))
    assert read.own_text == "Dear GM,\n\n    Hand 3: Baron on Bruno\n    Hand 7: Prince on myself"
    assert read.full_text == read.own_text  # the whole body too, each line without its spaces


@pytest.mark.parametrize(
    "body",
    [
        b"Hand 3: Baron on Bruno\r\nHand 7: Prince on myself\r\n",
        b"Hand 3: Baron on Bruno\rHand 7: Prince on myself\r",
    ],
    ids=["crlf", "cr"],
)
def test_a_multipart_without_its_boundary_read_as_text_keeps_one_line_end_each(body):
    # A multipart whose boundary is lost is read as plain text, bytes as sent: a CRLF or a
    # lone CR is one line end there too, never a blank line between two orders.
    read = read_mail(message(body, content_type="multipart/mixed"))
    assert read.own_text == ORDERS
    assert "multipart mixed without a usable boundary; read it as plain text" in read.defects


# -- the parser's strings back to their bytes (_raw_bytes, eighth run) --------------------------

_EIGHT_BIT = st.binary(max_size=120).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b""))


@FUZZ
@given(_EIGHT_BIT, _EIGHT_BIT, st.binary(max_size=300))
def test_every_string_the_parser_hands_the_reader_goes_back_to_its_bytes(subject, name, body):
    """`_raw_bytes` has no fallback: a header's raw value and a payload, with any 8-bit bytes
    a mail holds (Latin-1, broken UTF-8, NULs), are cut from the message decoded as ASCII
    with surrogateescape, and go back to those very bytes (the headers' and the body's)."""
    from pbem.reader.policy import _POLICY
    from pbem.reader.text import _raw_bytes

    head = b"From: " + name + b" <chloe@example.org>\r\nSubject: " + subject + b"\r\n"
    raw = head + b"Content-Type: text/plain\r\n\r\n" + body
    msg = email.message_from_bytes(raw, policy=_POLICY)
    for _key, value in msg.raw_items():
        assert _raw_bytes(value) in raw
    payload = msg._payload  # what mime._raw_payload reads
    assert isinstance(payload, str)
    assert _raw_bytes(payload) in raw


def test_a_header_of_8_bit_bytes_and_a_body_of_them_are_read_from_their_bytes():
    """Latin-1 in the subject and the name, and UTF-8 in an undeclared body: each read from
    the very bytes sent (the subject and name guessed per line, the body as UTF-8)."""
    raw = (
        "From: Chloé Martin <chloe@example.org>\r\n".encode("latin-1")
        + "Subject: Re: [game7] Tour 3: vos cartes et ordres, Chloé\r\n".encode("latin-1")
        + "\r\nHand 3: Baron sur Bruno, il a sûrement la Comtesse\r\n".encode()
    )
    read = read_mail(raw)
    assert read.sender_name == "Chloé Martin"
    assert read.subject.endswith("ordres, Chloé")
    assert read.own_text == "Hand 3: Baron sur Bruno, il a sûrement la Comtesse"
