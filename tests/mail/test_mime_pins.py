"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/mime.py, headers.py and policy.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest
from reader_kit import multipart, multipart_message, part

from pbem.reader import UnreadableMail, read_mail

ORDERS = "Hand 3: Baron on Bruno\nHand 7: Prince on myself"

# -- multipart/related: the root is the part start= names, else the first ------------------------

LOGO = (
    "Content-Type: image/png\nContent-ID: <logo@example.org>\n"
    "Content-Disposition: inline; filename=logo.png\nContent-Transfer-Encoding: base64\n\niVBORw0K\n"
)
HTML_ROOT = part(
    "<html><body><p><img src='cid:logo@example.org'></p><p>Hand 3: Baron on Bruno"
    "<br>Hand 7: Prince on myself</p></body></html>",
    "text/html; charset=utf-8",
    "Content-ID: <body@example.org>\n",
)


def _related(parts: list[str], start: str | None) -> bytes:
    entity = multipart("related", parts, boundary="rel")
    if start is not None:
        entity = entity.replace('boundary="rel"', f'boundary="rel"; type="text/html"; start="{start}"', 1)
    return multipart_message(entity)


def test_the_root_of_related_is_the_part_its_start_names_even_after_a_picture():
    read = read_mail(_related([LOGO, HTML_ROOT], "<body@example.org>"))
    assert read.own_text == ORDERS
    # The picture belongs to the HTML it illustrates: no attachment to tell the GM of.
    assert read.defects == ("no text part; read the HTML part",)


def test_a_start_that_names_no_part_leaves_the_first_part_the_root():
    with pytest.raises(UnreadableMail, match=r"only parts I cannot read as text \(logo.png \(image/png\)\)"):
        read_mail(_related([LOGO, HTML_ROOT], "<gone@example.org>"))
    assert read_mail(_related([HTML_ROOT, LOGO], "<gone@example.org>")).own_text == ORDERS


# -- a multipart that lost its boundary: the boundary guessed from the body ----------------------


def _lost_boundary(body: str, subtype: str = "alternative") -> bytes:
    head = "From: chloe@example.org\nSubject: [game7] Turn 3\nMIME-Version: 1.0\n"
    head += f"Content-Type: multipart/{subtype}\n\n"
    return (head + body).encode("utf-8")


def _versions(boundary: str) -> str:
    return (
        f"--{boundary}\nContent-Type: text/plain; charset=utf-8\n\n{ORDERS}\n"
        f"--{boundary}\nContent-Type: text/html\n\n<p>Hand 3: Countess</p>\n--{boundary}--\n"
    )


@pytest.mark.parametrize("boundary", ["XyZ", "----=_Part_1", "=_XyZ--", "--XyZ--"])
def test_a_lost_boundary_is_guessed_whatever_dashes_it_ends_with(boundary):
    # RFC 2046 lets a boundary end in "-": its opening line "--=_XyZ--" is no closing line.
    read = read_mail(_lost_boundary(_versions(boundary)))
    assert read.own_text == ORDERS
    assert "multipart alternative without a usable boundary; guessed it from the body" in read.defects
