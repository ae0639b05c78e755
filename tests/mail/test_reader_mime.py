"""Tests of pbem.reader: MIME structure: which parts are the body.

Hand-written messages pin each rule (every test names what breaks if the rule breaks).
"""

from __future__ import annotations

import base64

import pytest
from reader_kit import message, multipart, multipart_message, part

from pbem.reader import UnreadableMail, read_mail

# --------------------------------------------------------------------------------------------
# MIME structure
# --------------------------------------------------------------------------------------------

HTML_REPLY = "<html><body><div>Hand 3: Baron on Bruno</div><div>Hand 7: Prince on myself</div></body></html>"


def test_alternative_prefers_plain():
    entity = multipart(
        "alternative",
        [
            part("Hand 3: Guard on Bruno\n"),
            part("<div>Hand 3: Countess</div>", "text/html; charset=utf-8"),
        ],
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Guard on Bruno"


def test_alternative_with_empty_plain_uses_html():
    entity = multipart("alternative", [part("\n  \n"), part(HTML_REPLY, "text/html; charset=utf-8")])
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert any("HTML" in d for d in read.defects)


def test_alternative_with_stub_plain_uses_html():
    stub = "This message is in HTML format. Please use an HTML-capable mail program to view it."
    entity = multipart("alternative", [part(stub), part(HTML_REPLY, "text/html; charset=utf-8")])
    read = read_mail(multipart_message(entity))
    assert "Hand 3: Baron on Bruno" in read.own_text
    assert "HTML format" not in read.full_text


def test_html_only_message_is_read_and_noted():
    read = read_mail(message(HTML_REPLY, content_type="text/html; charset=utf-8"))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert "no text part; read the HTML part" in read.defects


def test_alternative_html_only_inside_notes_the_html():
    entity = multipart("alternative", [part(HTML_REPLY, "text/html; charset=utf-8")])
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert "no text part; read the HTML part" in read.defects


def test_mixed_ignores_attachments_and_attached_files():
    eml = "From: x@example.org\nSubject: old\n\nHand 3: Princess\n"
    entity = multipart(
        "mixed",
        [
            multipart(
                "alternative",
                [
                    part("Hand 3: Guard on Bruno\n"),
                    part("<p>Hand 3: Guard on Bruno</p>", "text/html"),
                ],
                boundary="b2",
            ),
            (
                "Content-Type: application/pdf; name=rules.pdf\n"
                "Content-Disposition: attachment; filename=rules.pdf\n"
                "Content-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n"
            ),
            part(
                "Hand 7: King on Arthur\n",
                "text/plain; charset=utf-8; name=old-orders.txt",
                "Content-Disposition: attachment; filename=old-orders.txt\n",
            ),
            "Content-Type: message/rfc822\nContent-Disposition: attachment; filename=old.eml\n\n" + eml,
        ],
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Guard on Bruno"
    assert "King" not in read.full_text and "Princess" not in read.full_text
    assert any("rules.pdf" in d for d in read.defects)


# "Orders attached." with the orders in an attached orders.txt was answered "I found no order",
# not a word of the file: the player could not tell why (found writing mail as players do). The
# reader counts the files it did not read (a picture or a signature is no file of orders).
@pytest.mark.parametrize(
    "attachment, counted",
    [
        (part("Hand 3: Baron\n", "text/plain; name=orders.txt", "Content-Disposition: attachment\n"), 1),
        ("Content-Type: application/pdf; name=o.pdf\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n", 1),
        ("Content-Type: message/rfc822\n\nFrom: x@example.org\nSubject: s\n\nHand 3: Baron\n", 1),
        ("Content-Type: image/png; name=logo.png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n", 0),
        ("Content-Type: application/pgp-signature\n\n-----BEGIN PGP SIGNATURE-----\n", 0),
    ],
)
def test_the_files_attached_and_not_read_are_counted(attachment, counted):
    read = read_mail(multipart_message(multipart("mixed", [part("Orders attached.\n"), attachment])))
    assert read.own_text == "Orders attached."
    assert read.attached_files == counted


def test_each_file_attached_and_not_read_is_counted():
    txt = part("Hand 3: Baron\n", "text/plain; name=orders.txt", "Content-Disposition: attachment\n")
    pdf = "Content-Type: application/pdf; name=o.pdf\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n"
    eml = "Content-Type: message/rfc822\n\nFrom: x@example.org\nSubject: s\n\nHand 3: Baron\n"
    read = read_mail(multipart_message(multipart("mixed", [part("Orders attached.\n"), txt, pdf, eml, txt])))
    assert read.attached_files == 4


def test_a_message_without_attachments_counts_none():
    assert read_mail(message("Hand 3: Baron on Bruno")).attached_files == 0


def test_mixed_inline_text_parts_around_a_picture_are_joined():
    entity = multipart(
        "mixed",
        [
            part("Hand 3: Guard on Bruno\n"),
            "Content-Type: image/jpeg\nContent-Disposition: inline\nContent-Transfer-Encoding: base64\n\n/9j/4AAQ\n",
            part("Hand 7: Prince on myself\n"),
        ],
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Guard on Bruno\nHand 7: Prince on myself"


def test_related_reads_the_html_root():
    entity = multipart(
        "alternative",
        [
            part(""),
            multipart(
                "related",
                [
                    part(HTML_REPLY, "text/html; charset=utf-8"),
                    "Content-Type: image/png\nContent-ID: <logo>\nContent-Transfer-Encoding: base64\n\niVBORw0K\n",
                ],
                boundary="rel",
            ),
        ],
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"


def test_signed_mail_reads_the_signed_part():
    entity = multipart(
        "signed",
        [
            part("Hand 3: Baron on Bruno\n"),
            "Content-Type: application/pgp-signature\n\n-----BEGIN PGP SIGNATURE-----\n",
        ],
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_only_attachments_is_unreadable_and_says_which():
    entity = multipart(
        "mixed",
        [
            part(
                "Hand 3: Baron\n",
                "text/plain; name=orders.txt",
                "Content-Disposition: attachment; filename=orders.txt\n",
            )
        ],
    )
    with pytest.raises(UnreadableMail, match="orders.txt"):
        read_mail(multipart_message(entity))


def test_encrypted_mail_is_unreadable_and_says_so():
    entity = multipart(
        "encrypted",
        [
            "Content-Type: application/pgp-encrypted\n\nVersion: 1\n",
            "Content-Type: application/octet-stream\n\n-----BEGIN PGP MESSAGE-----\n",
        ],
    )
    with pytest.raises(UnreadableMail, match="encrypted"):
        read_mail(multipart_message(entity))


@pytest.mark.parametrize("body", ["", "\n\n   \n", "-- \n"])
def test_empty_body_is_unreadable(body):
    with pytest.raises(UnreadableMail):
        read_mail(message(body))


def test_missing_boundary_is_guessed():
    raw = (
        b"From: chloe@example.org\nSubject: [game7] Turn 3\nMIME-Version: 1.0\n"
        b"Content-Type: multipart/alternative\n\n"
        b"--XyZ\nContent-Type: text/plain; charset=utf-8\n\nHand 3: Baron on Bruno\n"
        b"--XyZ\nContent-Type: text/html\n\n<p>Hand 3: Baron on Bruno</p>\n--XyZ--\n"
    )
    read = read_mail(raw)
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert any("boundary" in d for d in read.defects)


def test_boundary_with_spaces_is_guessed():
    raw = (
        "From: bruno@example.org\nSubject: [game7] Turn 3\nMIME-Version: 1.0\n"
        "Content-Type: multipart/alternative\n\n"
        "--=_alternative 0041A2C9_=\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: base64\n\n"
        + base64.b64encode(b"Hand 2: Countess\r\n").decode()
        + "\n--=_alternative 0041A2C9_=--\n"
    ).encode()
    read = read_mail(raw)
    assert read.own_text == "Hand 2: Countess"


def test_parts_without_any_boundary_line_are_unreadable_not_base64_soup():
    raw = (
        b"From: bruno@example.org\nSubject: [game7] Turn 3\nMIME-Version: 1.0\n"
        b"Content-Type: multipart/alternative\n\n"
        b"Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: base64\n\nSGFuZCAyOiBDb3VudGVzcw==\n"
    )
    with pytest.raises(UnreadableMail):
        read_mail(raw)


def test_wrong_boundary_without_parts_reads_as_text():
    raw = (
        b"From: chloe@example.org\nSubject: [game7] Turn 3\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="nothere"\n\nHand 3: Baron on Bruno\n'
    )
    read = read_mail(raw)
    assert "Hand 3: Baron on Bruno" in read.own_text
    assert any("boundary" in d for d in read.defects)


def test_truncated_multipart_still_reads_what_is_there():
    entity = multipart("alternative", [part("Hand 3: Baron on Bruno\n"), part(HTML_REPLY, "text/html")])
    raw = multipart_message(entity)
    cut = raw[: raw.index(b"<html>") + 10]
    read = read_mail(cut)
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert read.defects


@pytest.mark.parametrize(
    "payload",
    [
        b"SGFu*ZCAz OiBC!YXJvbiBvbiBCcnVubw==\n",  # stray characters
        b"SGFuZCAzOiBCYXJvbiBvbiBCcnVubw\n",  # padding missing
        b"SGFuZCAzOiBCYXJvbiBvbiBCcnVubw==\nSGFuZCA3OiBQ",  # cut short mid-stream
        b"SGFuZCAzOiBCYXJvbiBvbiBCcnVubw==\nCg==\n",  # two padded chunks
        b"SGFuZCAzOiBCYXJvbiBvbiBCcnVubwpIYW5kIDc6I",  # cut at an impossible length: the stdlib
    ],  # would return the base64 text itself
)
def test_bad_base64_still_reads_what_it_can(payload):
    raw = message(b"", content_type="text/plain; charset=utf-8", cte="7bit").replace(
        b"Content-Transfer-Encoding: 7bit\n\n",
        b"Content-Transfer-Encoding: base64\n\n" + payload,
    )
    read = read_mail(raw)
    assert read.own_text.startswith("Hand 3: Baron on Bruno")
