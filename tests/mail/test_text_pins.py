"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/text.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest
from reader_kit import message

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
