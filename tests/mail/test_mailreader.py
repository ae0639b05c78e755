"""Tests of pbem.mailreader: one raw message in, sender / campaign / turn / own words out.

Hand-written messages pin each rule (every test names what breaks if the rule breaks);
hypothesis fuzzing shows that broken input only ever raises UnreadableMail; and, when the
shared corpus of real-client messages exists (tests/mail/corpus/), every file of it is read
and checked against its expected.yaml.
"""

from __future__ import annotations

import base64
import email
import email.policy
import quopri
import random
import re
from pathlib import Path

import lxml.etree
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import mailreader
from pbem.mailreader import ReadMail, UnreadableMail, read_mail

# --------------------------------------------------------------------------------------------
# Building messages
# --------------------------------------------------------------------------------------------

TURN_MAIL = """\
Chloé, here is your position for turn 3 of "Love Letter, postal game 7".
Orders are due by Tuesday 1 December 2026, 20:00 Europe/Paris (19:00 UTC).

Your cards
  Hand  1: Guard
  Hand  3: Baron, Countess      <- your turn
  Hand  7: Guard, Prince        <- your turn

Your order code: Z9FD-2LJE (keep it in your reply)

Orders for turn 3 -- fill in one line per hand and reply to this mail:
Hand 3:
Hand 7:

Examples: "Hand 3: Guard on Bruno, guess Prince", "Hand 7: Prince on myself",
"Hand 11: Countess".
"""

SUBJECT = "Re: [game7] Turn 3: your cards and orders"
FROM = "Chloé Martin <chloe@example.org>"
ATTRIBUTION = "On Tue, 1 Dec 2026 at 10:00, Rita (pbem) <gm@example.org> wrote:"

# Lines of the turn mail that look like orders: none may ever reach own_text.
QUOTED_ORDER_LOOKALIKES = (
    "Guard on Bruno",
    "Baron, Countess",
    "Guard, Prince",
    "your turn",
    "Z9FD",
    "Hand 11",
)


def quote(text: str, prefix: str = "> ") -> str:
    """Quote text the way mail clients do: "> " before each line, ">" alone on blank ones."""
    return "\n".join(
        prefix + line if line.strip() else prefix.rstrip() for line in text.splitlines()
    )


def message(
    body: str | bytes,
    *,
    content_type: str = "text/plain; charset=utf-8",
    cte: str = "8bit",
    subject: str = SUBJECT,
    sender: str | None = FROM,
    extra: str = "",
    crlf: bool = False,
) -> bytes:
    """A single-part message; a str body is encoded as UTF-8 (then transfer-encoded)."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    if cte == "base64":
        data = base64.encodebytes(data)
    elif cte == "quoted-printable":
        data = quopri.encodestring(data)
    head = ""
    if sender is not None:
        head += f"From: {sender}\n"
    head += (
        "To: Rita (pbem) <gm@example.org>\n"
        f"Subject: {subject}\n"
        "Date: Tue, 01 Dec 2026 11:00:00 +0100\n"
        "Message-ID: <reply-1@example.org>\n"
        "In-Reply-To: <turn3-chloe@example.org>\n"
        "References: <turn2-chloe@example.org>\n <turn3-chloe@example.org>\n"
        "MIME-Version: 1.0\n"
        f"Content-Type: {content_type}\n"
        f"Content-Transfer-Encoding: {cte}\n"
        f"{extra}"
        "\n"
    )
    raw = head.encode("utf-8") + data
    if crlf:
        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return raw


def multipart(
    subtype: str, parts: list[str], *, boundary: str = "b1", headers: str = ""
) -> str:
    """A multipart entity (headers + body) as text, for nesting into `message`-like builds."""
    body = "".join(f"--{boundary}\n{part}\n" for part in parts) + f"--{boundary}--\n"
    return (
        f'Content-Type: multipart/{subtype}; boundary="{boundary}"\n{headers}\n{body}'
    )


def part(
    body: str, content_type: str = "text/plain; charset=utf-8", extra: str = ""
) -> str:
    return f"Content-Type: {content_type}\nContent-Transfer-Encoding: 8bit\n{extra}\n{body}"


def multipart_message(entity: str, *, subject: str = SUBJECT) -> bytes:
    head = (
        f"From: {FROM}\nTo: gm@example.org\nSubject: {subject}\n"
        "Message-ID: <reply-2@example.org>\nMIME-Version: 1.0\n"
    )
    return (head + entity).encode("utf-8")


def reply(own: str, *, top: bool = True) -> str:
    """A reply body: own words above (top) or below the quoted turn mail."""
    quoted = ATTRIBUTION + "\n" + quote(TURN_MAIL)
    return f"{own}\n\n{quoted}\n" if top else f"{quoted}\n\n{own}\n"


def assert_no_lookalikes(read: ReadMail) -> None:
    for text in QUOTED_ORDER_LOOKALIKES:
        assert text not in read.own_text, f"quoted {text!r} leaked into own_text"
    assert "Hand 11" not in read.own_text
    assert "Examples" not in read.own_text


# --------------------------------------------------------------------------------------------
# Headers: sender, subject tag, ids
# --------------------------------------------------------------------------------------------


def test_sender_is_lowercased_and_display_name_decoded():
    read = read_mail(
        message(
            "Hand 3: Baron on Bruno",
            sender="=?utf-8?q?Chlo=C3=A9_M?= <Chloe@Example.ORG>",
        )
    )
    assert read.sender == "chloe@example.org"
    assert read.sender_name == "Chloé M"


def test_sender_without_display_name():
    read = read_mail(message("Hand 3: Baron on Bruno", sender="chloe@example.org"))
    assert (read.sender, read.sender_name) == ("chloe@example.org", "")


def test_no_from_header_gives_empty_sender_and_a_defect():
    read = read_mail(message("Hand 3: Baron on Bruno", sender=None))
    assert read.sender == "" and read.sender_name == ""
    assert any("From" in d for d in read.defects)


def test_malformed_from_still_yields_the_address():
    read = read_mail(
        message("Hand 3: Baron", sender='"Chloé <broken <Chloe@example.org>')
    )
    assert read.sender == "chloe@example.org"


@pytest.mark.parametrize(
    "subject",
    [
        "[game7] Turn 3: your cards and orders",
        "Re: [game7] Turn 3: your cards and orders",
        "RE: RE: [game7] Turn 3",
        "Re[2]: [game7] Turn 3: your cards and orders",
        "AW: [game7] Turn 3: your cards and orders",
        "SV: [game7] Turn 3",
        "VS: [game7] Turn 3",
        "WG: [game7] Turn 3",
        "Fwd: [game7] Turn 3",
        "FW: [game7] Turn 3",
        "Antw: [game7] Turn 3",
        "Odp: [game7] Turn 3",
        "[EXTERNAL] Re: [game7] Turn 3: your cards and orders",
        "re: [GAME7] turn 3",
        "Re:[game7]Turn   3",
        "=?utf-8?q?AW=3A_=5Bgame7=5D_Turn_3=3A_deine_Karten?=",
    ],
)
def test_subject_tag_and_turn_behind_any_prefix(subject):
    read = read_mail(message("Hand 3: Baron on Bruno", subject=subject))
    assert read.tag.lower() == "game7"
    assert read.turn == 3


def test_subject_tag_keeps_its_case_and_allows_dots_dashes_underscores():
    read = read_mail(message("x", subject="Re: [Love_Letter.7-b] Turn 12"))
    assert (read.tag, read.turn) == ("Love_Letter.7-b", 12)


@pytest.mark.parametrize(
    "subject", ["Re: your cards", "[game7] orders", "[game 7] Turn 3", ""]
)
def test_subject_without_tag_gives_none(subject):
    read = read_mail(message("Hand 3: Baron", subject=subject))
    assert (read.tag, read.turn) == (None, None)


def test_subject_is_decoded():
    read = read_mail(
        message("x", subject="=?iso-8859-1?q?R=E9p=2E_=3A_=5Bgame7=5D_Turn_3?=")
    )
    assert read.subject == "Rép. : [game7] Turn 3"
    assert (read.tag, read.turn) == ("game7", 3)


def test_absurd_turn_number_is_ignored_not_crashing():
    read = read_mail(message("x", subject="[game7] Turn " + "9" * 5000))
    assert read.tag == "game7" and read.turn is None


def test_message_ids_keep_angle_brackets_and_folded_references_are_split():
    read = read_mail(message("Hand 3: Baron"))
    assert read.message_id == "<reply-1@example.org>"
    assert read.in_reply_to == ("<turn3-chloe@example.org>",)
    assert read.references == ("<turn2-chloe@example.org>", "<turn3-chloe@example.org>")


def test_missing_ids_are_none_and_empty():
    raw = b"From: a@example.org\nSubject: [g] Turn 1\n\nHand 1: Guard\n"
    read = read_mail(raw)
    assert read.message_id is None and read.in_reply_to == () and read.references == ()


# --------------------------------------------------------------------------------------------
# Transfer encodings, charsets, line ends, format=flowed
# --------------------------------------------------------------------------------------------

ACCENTED = "Hand 3: Baron sur Bérénice\nHand 7: Prince sur moi-même"


@pytest.mark.parametrize("cte", ["8bit", "quoted-printable", "base64"])
def test_transfer_encodings(cte):
    read = read_mail(message(ACCENTED, cte=cte))
    assert read.own_text == ACCENTED


def test_7bit_ascii():
    read = read_mail(
        message("Hand 3: Baron on Bruno", cte="7bit", content_type="text/plain")
    )
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert read.defects == ()


@pytest.mark.parametrize(
    "charset", ["iso-8859-1", "windows-1252", "utf-8", "ISO-8859-15"]
)
def test_declared_charsets(charset):
    body = "Hand 3: Baron sur Bérénice, très bien"
    read = read_mail(
        message(body.encode(charset), content_type=f"text/plain; charset={charset}")
    )
    assert read.own_text == body


def test_windows_1252_specials():
    body = "Hand 3: “Baron” – on Bruno … 5€"
    read = read_mail(
        message(
            body.encode("cp1252"), content_type='text/plain; charset="windows-1252"'
        )
    )
    assert read.own_text == body


def test_undeclared_8bit_latin1_is_read_and_noted():
    body = "Hand 3: Baron sur Bérénice"
    read = read_mail(message(body.encode("latin-1"), content_type="text/plain"))
    assert read.own_text == body
    assert any("charset" in d for d in read.defects)


def test_undeclared_8bit_utf8_is_read_as_utf8():
    body = "Hand 3: Baron sur Bérénice"
    read = read_mail(message(body.encode("utf-8"), content_type="text/plain"))
    assert read.own_text == body


def test_latin1_label_on_utf8_bytes_is_read_as_utf8():
    body = "Hand 3: Baron sur Bérénice"
    read = read_mail(
        message(body.encode("utf-8"), content_type="text/plain; charset=iso-8859-1")
    )
    assert read.own_text == body
    assert any("UTF-8" in d for d in read.defects)


def test_invalid_utf8_lines_fall_back_to_windows_1252():
    raw_body = "Hand 3: Bérénice\n".encode() + "Hand 7: Hélène\n".encode("cp1252")
    read = read_mail(message(raw_body))
    assert read.own_text == "Hand 3: Bérénice\nHand 7: Hélène"
    assert read.defects


@pytest.mark.parametrize(
    "charset",
    ["x-unknown", "utf-8\\x00", "base64", "rot13", "undefined", "idna", "a" * 300],
)
def test_absurd_charsets_do_not_crash(charset):
    read = read_mail(
        message("Hand 3: Bérénice", content_type=f'text/plain; charset="{charset}"')
    )
    assert "Hand 3: B" in read.own_text
    assert read.defects


def test_crlf_becomes_lf():
    read = read_mail(message("Hand 3: Baron\nHand 7: Prince on me\n", crlf=True))
    assert read.own_text == "Hand 3: Baron\nHand 7: Prince on me"
    assert "\r" not in read.full_text


def test_format_flowed_soft_breaks_are_joined():
    body = "Hand 3: Guard on Bruno, \nguess Prince\nHand 7: Prince on myself\n"
    read = read_mail(
        message(body, content_type="text/plain; charset=utf-8; format=flowed")
    )
    assert (
        read.own_text
        == "Hand 3: Guard on Bruno, guess Prince\nHand 7: Prince on myself"
    )


def test_format_flowed_delsp_removes_the_soft_space():
    body = "Hand 3: Guard on Bru \nno, guess Prince\n"
    read = read_mail(
        message(
            body, content_type="text/plain; charset=utf-8; format=flowed; delsp=yes"
        )
    )
    assert read.own_text == "Hand 3: Guard on Bruno, guess Prince"


def test_format_flowed_quotes_keep_depth_and_are_dropped():
    body = (
        "Hand 3: Baron on Bruno\n\n"
        '>> Examples: "Hand 3: Guard on \n>> Bruno, guess Prince"\n'
        "> Hand 7: Prince \n> on myself\n"
    )
    read = read_mail(
        message(body, content_type="text/plain; charset=utf-8; format=flowed")
    )
    assert '>> Examples: "Hand 3: Guard on Bruno, guess Prince"' in read.full_text
    assert "> Hand 7: Prince on myself" in read.full_text
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_format_flowed_signature_separator_is_not_flowed():
    body = "Hand 3: Baron\n-- \nChloé\n"
    read = read_mail(
        message(body, content_type="text/plain; charset=utf-8; format=flowed")
    )
    assert read.own_text == "Hand 3: Baron"


def test_format_flowed_space_stuffing_is_removed():
    body = " From the start: Hand 3: Baron\n"
    read = read_mail(
        message(body, content_type="text/plain; charset=utf-8; format=flowed")
    )
    assert read.own_text == "From the start: Hand 3: Baron"


def test_without_format_flowed_trailing_space_lines_are_not_joined():
    read = read_mail(message("Hand 3: Baron \nHand 7: Prince\n"))
    assert read.own_text == "Hand 3: Baron\nHand 7: Prince"


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
    entity = multipart(
        "alternative", [part("\n  \n"), part(HTML_REPLY, "text/html; charset=utf-8")]
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert any("HTML" in d for d in read.defects)


def test_alternative_with_stub_plain_uses_html():
    stub = "This message is in HTML format. Please use an HTML-capable mail program to view it."
    entity = multipart(
        "alternative", [part(stub), part(HTML_REPLY, "text/html; charset=utf-8")]
    )
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
            "Content-Type: message/rfc822\nContent-Disposition: attachment; filename=old.eml\n\n"
            + eml,
        ],
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Guard on Bruno"
    assert "King" not in read.full_text and "Princess" not in read.full_text
    assert any("rules.pdf" in d for d in read.defects)


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
    entity = multipart(
        "alternative", [part("Hand 3: Baron on Bruno\n"), part(HTML_REPLY, "text/html")]
    )
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


# --------------------------------------------------------------------------------------------
# HTML: quotes of the big clients become "> " lines
# --------------------------------------------------------------------------------------------

TURN_HTML = (
    TURN_MAIL.replace("&", "&amp;")
    .replace("<", "&lt;")
    .replace(">", "&gt;")
    .replace("\n", "<br>\n")
)


def html_message(markup: str) -> bytes:
    return message(markup, content_type="text/html; charset=utf-8")


def test_gmail_html_reply():
    markup = (
        '<div dir="ltr">Hand 3: Baron on Bruno<br>Hand 7: Prince on myself</div><br>'
        '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Tue, 1 Dec 2026 at 10:00, '
        'Rita (pbem) &lt;<a href="mailto:gm@example.org">gm@example.org</a>&gt; wrote:<br></div>'
        f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">{TURN_HTML}</blockquote></div>'
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert "> Hand 3:" in read.full_text  # quotes are kept in full_text, marked
    assert_no_lookalikes(read)


def test_gmail_html_inline_answers_between_split_blockquotes():
    head, tail = TURN_HTML.split("Hand 7:<br>")
    head = head.replace("Hand 3:<br>", "Hand 3:")
    markup = (
        '<div dir="ltr">See below</div><div class="gmail_quote">'
        '<div class="gmail_attr">On Tue, 1 Dec 2026 Rita wrote:</div>'
        f'<blockquote class="gmail_quote">{head}</blockquote>'
        "<div>Baron on Bruno</div>"
        '<blockquote class="gmail_quote">Hand 7:</blockquote>'
        "<div>Prince on myself</div>"
        f'<blockquote class="gmail_quote">{tail}</blockquote></div>'
    )
    read = read_mail(html_message(markup))
    assert (
        read.own_text
        == "See below\n\nHand 3: Baron on Bruno\n\nHand 7: Prince on myself"
    )


def test_gmail_forward_div_without_blockquote_is_quoted():
    markup = (
        '<div>FYI</div><div class="gmail_quote">---------- Forwarded message ---------<br>'
        "From: Rita<br>Hand 3: Guard on Bruno</div>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "FYI"


def test_outlook_web_html_reply():
    markup = (
        "<html><head><style>p {margin:0}</style></head><body>"
        '<div style="font-family: Calibri">Hand 3: Baron on Bruno</div>'
        '<div style="font-family: Calibri">Hand 7: Prince on myself</div>'
        '<div id="appendonsend"></div><hr style="display:inline-block;width:98%">'
        '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>From:</b> Rita (pbem) &lt;gm@example.org&gt;<br>'
        "<b>Sent:</b> Tuesday, December 1, 2026 10:00 AM<br><b>To:</b> Chloé<br>"
        "<b>Subject:</b> [game7] Turn 3: your cards and orders</font><div>&nbsp;</div></div>"
        f"<div>{TURN_HTML}</div></body></html>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert "p {margin" not in read.full_text
    assert_no_lookalikes(read)


def test_outlook_web_original_nested_in_a_container_is_quoted_to_the_end():
    markup = (
        "<body><div>Hand 3: Baron on Bruno</div>"
        '<div class="wrapper"><div id="divRplyFwdMsg">From: Rita</div><div>Hand 7: Guard on Bruno</div>tail text</div>'
        "<div>Hand 11: Countess</div></body>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert "> tail text" in read.full_text


def test_outlook_desktop_html_header_block_is_cut():
    markup = (
        '<body><div class="WordSection1"><p class="MsoNormal">Hand 3: Baron on Bruno</p>'
        '<div style="border:none;border-top:solid #E1E1E1 1.0pt"><p class="MsoNormal"><b>From:</b> Rita (pbem) '
        "&lt;gm@example.org&gt;<br><b>Sent:</b> Tuesday, 1 December 2026 10:00<br><b>To:</b> Chloé "
        "&lt;chloe@example.org&gt;<br><b>Subject:</b> [game7] Turn 3</p></div>"
        f'<p class="MsoNormal">{TURN_HTML}</p></div></body>'
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_thunderbird_html_reply():
    markup = (
        "<html><body><p>Hand 3: Baron on Bruno</p>"
        '<div class="moz-cite-prefix">On 01/12/2026 10:00, Rita (pbem) wrote:<br></div>'
        f'<blockquote type="cite" cite="mid:turn3@example.org">{TURN_HTML}</blockquote>'
        '<div class="moz-signature">-- <br>Chloé</div></body></html>'
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert_no_lookalikes(read)


def test_apple_mail_html_reply_with_nested_quotes():
    markup = (
        '<html><body><div>Hand 3: Baron on Bruno</div><div><br><blockquote type="cite">'
        "<div>On 1 Dec 2026, at 10:00, Rita (pbem) &lt;gm@example.org&gt; wrote:</div><br>"
        f'<div>{TURN_HTML}<blockquote type="cite">Hand 5: King on Arthur</blockquote></div>'
        "</blockquote></div></body></html>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert "> > Hand 5: King on Arthur" in read.full_text


def test_gmail_signature_div_is_cut():
    markup = '<div>Hand 3: Baron</div><div class="gmail_signature">Chloé<br>Hand 9: Princess fan club</div>'
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron"


def test_html_keeps_line_breaks_and_entities():
    markup = (
        "<p>Hand 3: Guard &rarr; Bruno (Prince)<br>Hand 7: Prince&nbsp;on&nbsp;me</p>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Guard → Bruno (Prince)\nHand 7: Prince on me"


def test_html_with_xml_declaration_and_garbage_does_not_crash():
    markup = '<?xml version="1.0" encoding="utf-8"?><html><body><p>Hand 3: Baron</p><<<</div>\x00</body>'
    read = read_mail(html_message(markup))
    assert "Hand 3: Baron" in read.own_text


# --------------------------------------------------------------------------------------------
# own_text: quotes, attributions, originals, signatures, footers
# --------------------------------------------------------------------------------------------


def own(body: str) -> str:
    return read_mail(message(body)).own_text


def test_top_posted_reply_drops_the_quote():
    read = read_mail(message(reply("Hand 3: Baron on Bruno\nHand 7: Prince on myself")))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert_no_lookalikes(read)
    assert TURN_MAIL.splitlines()[0] in read.full_text


def test_bottom_posted_reply_drops_the_quote():
    read = read_mail(message(reply("Hand 3: Baron on Bruno", top=False)))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert_no_lookalikes(read)


@pytest.mark.parametrize("prefix", ["> ", ">", "> > ", ">> ", "  > "])
def test_quotes_of_any_depth_are_dropped(prefix):
    body = "Hand 3: Baron\n" + quote("Hand 7: Guard on Bruno\nold words", prefix)
    assert own(body) == "Hand 3: Baron"


@pytest.mark.parametrize(
    "attribution",
    [
        "On Tue, 1 Dec 2026 at 10:00, Rita (pbem) <gm@example.org> wrote:",
        "On Tue, Dec 1, 2026 at 10:00 AM Rita (pbem) <gm@example.org>\nwrote:",
        "On 1 Dec 2026, at 10:00, Rita (pbem) <\ngm@example.org> wrote:",
        "Am Di., 1. Dez. 2026 um 10:00 Uhr schrieb Rita (pbem) <gm@example.org>:",
        "Am 01.12.2026 um 10:00 schrieb Rita:",
        "Le mar. 1 déc. 2026 à 10:00, Rita (pbem) <gm@example.org> a écrit :",
        "Le 1 déc. 2026 à 10:00, Rita (pbem) <gm@example.org> a\u00a0écrit\u00a0:",
        "El mar, 1 dic 2026 a las 10:00, Rita (pbem) (<gm@example.org>) escribió:",
        "Op di 1 dec. 2026 om 10:00 schreef Rita (pbem) <gm@example.org>:",
        "Den tir. 1. dec. 2026 kl. 10.00 skrev Rita (pbem) <gm@example.org>:",
        "Il giorno mar 1 dic 2026 alle ore 10:00 Rita (pbem) <gm@example.org> ha scritto:",
        "Rita (pbem) <gm@example.org> wrote:",
        "Rita (pbem) <gm@example.org> schrieb am Di., 1. Dez. 2026, 10:00:",
    ],
)
@pytest.mark.parametrize("top", [True, False])
def test_attribution_lines_are_dropped(attribution, top):
    quoted = attribution + "\n" + quote(TURN_MAIL)
    body = (
        f"Hand 3: Baron on Bruno\n\n{quoted}\n"
        if top
        else f"{quoted}\n\nHand 3: Baron on Bruno\n"
    )
    read = read_mail(message(body))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_attribution_followed_by_an_unquoted_original_cuts_it():
    body = f"Hand 3: Baron on Bruno\n\n{ATTRIBUTION}\n\n{TURN_MAIL}"
    read = read_mail(message(body))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_a_players_line_like_an_attribution_without_date_is_kept():
    body = "Am Ende schrieb ich:\nHand 3: Baron on Bruno\n"
    assert own(body) == "Am Ende schrieb ich:\nHand 3: Baron on Bruno"


def test_a_players_line_ending_in_wrote_is_kept_when_no_quote_follows():
    assert (
        own("Hand 3: Baron\nBruno wrote:\nI will win")
        == "Hand 3: Baron\nBruno wrote:\nI will win"
    )


@pytest.mark.parametrize(
    "block",
    [
        "From: Rita (pbem) <gm@example.org>\nSent: Tuesday, December 1, 2026 10:00 AM\nTo: Chloé\nSubject: [game7] Turn 3",
        "From: Rita (pbem) <gm@example.org>\nDate: Tuesday, December 1, 2026 at 10:00\nTo: Chloé <chloe@example.org>\nSubject: [game7] Turn 3",
        "*From:* Rita (pbem) <gm@example.org>\n*Sent:* Tuesday, December 1, 2026 10:00 AM\n*To:* Chloé",
        "Von: Rita (pbem) <gm@example.org>\nGesendet: Dienstag, 1. Dezember 2026 10:00\nAn: Chloé\nBetreff: [game7] Turn 3",
        "De : Rita (pbem) <gm@example.org>\nEnvoyé : mardi 1 décembre 2026 10:00\nÀ : Chloé\nObjet : [game7] Turn 3",
        "De: Rita (pbem) <gm@example.org>\nEnviado: martes, 1 de diciembre de 2026 10:00\nPara: Chloé\nAsunto: [game7] Turn 3",
        "-----Original Message-----\nFrom: Rita (pbem) [mailto:gm@example.org]\nSent: Tuesday\nSubject: x",
        "-----Ursprüngliche Nachricht-----\nVon: Rita",
        "________________________________\nFrom: Rita (pbem) <gm@example.org>",
        "---------- Forwarded message ---------\nFrom: Rita (pbem) <gm@example.org>\nDate: Tue",
        "Begin forwarded message:\n\nFrom: Rita (pbem) <gm@example.org>",
    ],
)
def test_unquoted_original_blocks_end_the_own_words(block):
    body = f"Hand 3: Baron on Bruno\n\n{block}\n\n{TURN_MAIL}"
    read = read_mail(message(body))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_a_lone_from_line_of_the_player_is_kept():
    assert (
        own("From: Chloé, with love\nHand 3: Baron")
        == "From: Chloé, with love\nHand 3: Baron"
    )


@pytest.mark.parametrize("separator", ["-- ", "--"])
def test_signature_is_dropped(separator):
    body = (
        f"Hand 3: Baron on Bruno\n{separator}\nChloé Martin\nHand 9: nothing\n\n"
        + quote(TURN_MAIL)
    )
    assert own(body) == "Hand 3: Baron on Bruno"


def test_double_dash_inside_a_line_is_not_a_signature():
    assert (
        own("Hand 3: Baron -- on Bruno\n---\nHand 7: Prince")
        == "Hand 3: Baron -- on Bruno\n---\nHand 7: Prince"
    )


@pytest.mark.parametrize(
    "footer",
    [
        "Sent from my iPhone",
        "Sent from my Android",
        "Sent from my Galaxy",
        "Sent from Outlook",
        "Sent from Yahoo Mail on Android",
        "Get Outlook for iOS",
        "Get Outlook for Android<https://aka.ms/AAb9ysg>",
        "Von meinem iPhone gesendet",
        "Envoyé de mon iPhone",
        "Enviado desde mi iPhone",
    ],
)
def test_mobile_footers_are_dropped(footer):
    assert own(f"Hand 3: Baron on Bruno\n\n{footer}\n") == "Hand 3: Baron on Bruno"


def test_web_de_header_block_starting_with_gesendet_is_cut():
    block = "Gesendet: Sonntag, 29. November 2026 um 19:00 Uhr\nVon: Rita <gm@example.org>\nAn: Chloé\nBetreff: [game7] Turn 3"
    assert (
        own(f"Hand 3: Baron on Bruno\n\n{block}\n\n{TURN_MAIL}")
        == "Hand 3: Baron on Bruno"
    )


def test_web_de_quote_div_is_quoted():
    markup = f'<div>Hand 3: Baron on Bruno</div><div name="quote"><div>Gesendet: heute</div>{TURN_HTML}</div>'
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_answers_typed_into_an_unmarked_outlook_original_are_taken():
    original = TURN_MAIL.replace("Hand 3:\n", "Hand 3: Baron on Bruno\n").replace(
        "Hand 7:\n", "Hand 7: Prince on myself\n"
    )
    block = "From: Rita (pbem) <gm@example.org>\nSent: Tuesday\nTo: Chloé\nSubject: [game7] Turn 3"
    read = read_mail(
        message(f"My orders are in the form below.\n\n{block}\n\n{original}")
    )
    assert (
        read.own_text
        == "My orders are in the form below.\n\nHand 3: Baron on Bruno\nHand 7: Prince on myself"
    )


def test_orders_above_an_unmarked_original_win_over_its_filled_form():
    original = TURN_MAIL.replace(
        "Hand 3:\n", "Hand 3: Guard on Bruno, guess Prince\n"
    ).replace("Hand 7:\n", "Hand 7: Prince on myself\n")
    block = "From: Rita (pbem) <gm@example.org>\nSent: Tuesday\nTo: Chloé\nSubject: [game7] Turn 3"
    read = read_mail(message(f"Hand 3: Baron on Bruno\n\n{block}\n\n{original}"))
    assert read.own_text == "Hand 3: Baron on Bruno\n\nHand 7: Prince on myself"


def test_answers_typed_into_an_original_below_an_attribution_are_taken():
    original = TURN_MAIL.replace("Hand 7:\n", "Hand 7: Prince on myself\n")
    read = read_mail(message(f"Hand 3: Baron on Bruno\n\n{ATTRIBUTION}\n\n{original}"))
    assert read.own_text == "Hand 3: Baron on Bruno\n\nHand 7: Prince on myself"


def test_an_unmarked_original_with_a_blank_form_gives_nothing():
    block = "From: Rita (pbem) <gm@example.org>\nSent: Tuesday\nTo: Chloé\nSubject: [game7] Turn 3"
    unindented = TURN_MAIL.replace(
        "  Hand  ", "Hand "
    )  # as HTML-to-text leaves the card list
    read = read_mail(message(f"Hand 3: Baron on Bruno\n\n{block}\n\n{unindented}"))
    assert read.own_text == "Hand 3: Baron on Bruno"


# --------------------------------------------------------------------------------------------
# own_text: inline answers under the quoted form
# --------------------------------------------------------------------------------------------


def inline_reply(answer3: str | None, answer7: str | None, blank_lines: int = 0) -> str:
    """The turn mail quoted, with the player's lines typed under the form lines."""
    out = [ATTRIBUTION]
    for line in TURN_MAIL.splitlines():
        out.append("> " + line if line else ">")
        if line == "Hand 3:" and answer3 is not None:
            out.extend([""] * blank_lines + [answer3])
        if line == "Hand 7:" and answer7 is not None:
            out.extend([""] * blank_lines + [answer7])
    return "\n".join(out) + "\n"


def test_inline_answers_get_their_hand():
    read = read_mail(message(inline_reply("Baron on Bruno", "Prince on myself")))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert "Examples" not in read.own_text


@pytest.mark.parametrize("blank_lines", [1, 2])
def test_inline_answers_after_blank_lines(blank_lines):
    read = read_mail(
        message(inline_reply("Baron on Bruno", "Prince on myself", blank_lines))
    )
    lines = [line for line in read.own_text.splitlines() if line]
    assert lines == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"]


def test_inline_answer_after_a_quoted_blank_line():
    body = "> Hand 3:\n>\n>\nBaron on Bruno\n"
    assert own(body) == "Hand 3: Baron on Bruno"


@pytest.mark.parametrize(
    "answer",
    [
        "Hand 3: Baron on Bruno",
        "h3 Baron on Bruno",
        "3: Baron on Bruno",
        "HAND 3 - Baron",
    ],
)
def test_inline_answer_that_names_its_hand_is_kept_as_is(answer):
    read = read_mail(message(inline_reply(answer, None)))
    assert read.own_text == answer


def test_inline_answer_only_for_the_hand_answered():
    read = read_mail(message(inline_reply(None, "Prince on myself")))
    assert read.own_text == "Hand 7: Prince on myself"


def test_form_line_variants_and_nested_quotes():
    body = "> > hand 3 -\nBaron on Bruno\n> H7.\nPrince on me\n"
    assert own(body) == "Hand 3: Baron on Bruno\nHand 7: Prince on me"


def test_a_quoted_content_line_between_form_and_text_breaks_the_link():
    body = '> Hand 7:\n>\n> Examples: "Hand 3: Guard on Bruno"\n\nThanks, see you\n'
    assert own(body) == "Thanks, see you"


def test_form_edited_in_place_is_still_quoted_and_not_taken():
    quoted = quote(TURN_MAIL).replace(
        "> Hand 3:\n", "> Hand 3: Guard on Bruno, guess Prince\n"
    )
    read = read_mail(message("See my orders below.\n\n" + ATTRIBUTION + "\n" + quoted))
    assert read.own_text == "See my orders below."


def test_footer_and_attribution_do_not_take_the_pending_hand():
    body = "> Hand 3:\n\nSent from my iPhone\nBaron on Bruno\n"
    assert own(body) == "Hand 3: Baron on Bruno"


# --------------------------------------------------------------------------------------------
# own_text: layout
# --------------------------------------------------------------------------------------------


def test_own_lines_are_not_reflowed_and_trailing_space_is_stripped():
    long_line = "Hand 3: Guard on Bruno, guess Prince, because " + "I am sure " * 20
    body = f"{long_line.rstrip()}   \n    indented line\t\nshort\n"
    assert own(body) == f"{long_line.rstrip()}\n    indented line\nshort"


def test_runs_of_blank_lines_are_collapsed():
    assert (
        own("Hand 3: Baron\n\n\n\n\n\nHand 7: Prince\n\nbye")
        == "Hand 3: Baron\n\nHand 7: Prince\n\nbye"
    )


def test_own_text_has_no_leading_or_trailing_blank_lines():
    assert own("\n\n\nHand 3: Baron\n\n\n") == "Hand 3: Baron"


def test_readmail_is_frozen():
    read = read_mail(message("Hand 3: Baron"))
    with pytest.raises(AttributeError):
        read.sender = "x"  # type: ignore[misc]


# --------------------------------------------------------------------------------------------
# Bad input and speed
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\x01\x02\x03",
        b"Content-Type: text/plain\n\n" + bytes(range(256)) * 4,
        b"Content-Type: multipart/mixed\n\n",
        b"Content-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n",
        b"Content-Type: text/plain\n\n\x00\x00\x00\n",
    ],
)
def test_bad_input_raises_only_unreadable_mail(raw):
    with pytest.raises(UnreadableMail) as info:
        read_mail(raw)
    assert str(info.value)


def test_non_bytes_input_is_unreadable():
    with pytest.raises(UnreadableMail):
        read_mail("Subject: x\n\nHand 3: Baron")  # type: ignore[arg-type]


def test_deeply_nested_multiparts_do_not_crash():
    entity = part("Hand 3: Baron\n")
    for level in range(60):
        entity = multipart("mixed", [entity], boundary=f"n{level}")
    try:
        read = read_mail(multipart_message(entity))
    except UnreadableMail:
        return
    assert read.defects


def test_deeply_nested_blockquotes_do_not_crash():
    markup = (
        "<div>Hand 3: Baron</div>"
        + "<blockquote>" * 400
        + "deep"
        + "</blockquote>" * 400
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron"


def test_a_few_megabytes_of_plain_text():
    body = "Hand 3: Baron on Bruno\n\n" + (quote(TURN_MAIL) + "\n") * 6000  # about 3 MB
    assert len(body) > 2_500_000
    read = read_mail(message(body, cte="quoted-printable"))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_a_few_megabytes_of_html_with_an_attachment():
    """A long HTML thread (about 1 MB of markup) plus a 2 MB picture: what big replies look like."""
    markup = (
        "<div>Hand 3: Baron on Bruno</div><blockquote>"
        + f"<div>{TURN_HTML}</div>" * 1500
        + "</blockquote>"
    )
    picture = base64.encodebytes(random.Random(1).randbytes(1_500_000)).decode()
    entity = multipart(
        "mixed",
        [
            multipart(
                "related", [part(markup, "text/html; charset=utf-8")], boundary="rel"
            ),
            (
                "Content-Type: image/jpeg; name=p.jpg\nContent-Disposition: attachment; filename=p.jpg\n"
                f"Content-Transfer-Encoding: base64\n\n{picture}"
            ),
        ],
    )
    raw = multipart_message(entity)
    assert len(raw) > 2_500_000
    read = read_mail(raw)
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_a_bomb_of_tiny_parts_reads_the_start():
    """50,000 tiny parts would cost the stdlib parser about 15 s; the reader reads the start."""
    raw = (
        b'From: a@example.org\nContent-Type: multipart/mixed; boundary="b"\n\n'
        + (b"--b\nContent-Type: text/plain\n\nHand 3: Baron\n" * 50_000)
        + b"--b--\n"
    )
    read = read_mail(raw)
    assert read.own_text.startswith("Hand 3: Baron")
    assert any("boundary lines" in d for d in read.defects)


def test_a_few_megabytes_of_one_line():
    body = "Hand 3: " + "x " * 1_500_000 + "\n" + "h3" + " " * 100_000 + "x\n"
    read = read_mail(message(body))
    assert read.own_text.startswith("Hand 3: x x")


# --------------------------------------------------------------------------------------------
# Fuzzing: never anything but UnreadableMail, never slow
# --------------------------------------------------------------------------------------------

SEEDS = [
    message(reply("Hand 3: Baron on Bruno")),
    message(
        reply("Hand 3: Baron sur Bérénice"),
        cte="quoted-printable",
        content_type="text/plain; charset=utf-8; format=flowed",
    ),
    message(inline_reply("Baron on Bruno", "Prince on myself"), cte="base64"),
    message("Hand 3: Bérénice".encode("latin-1"), content_type="text/plain"),
    multipart_message(
        multipart(
            "mixed",
            [
                multipart(
                    "alternative",
                    [
                        part(reply("Hand 3: Baron")),
                        part(f"<blockquote>{TURN_HTML}</blockquote>", "text/html"),
                    ],
                    boundary="alt",
                ),
                "Content-Type: application/pdf\nContent-Disposition: attachment; filename=a.pdf\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n",
                "Content-Type: message/rfc822\n\nSubject: x\n\nHand 3: Princess\n",
            ],
        )
    ),
    html_message(
        '<div>Hand 3: Baron</div><div id="appendonsend"></div><div id="divRplyFwdMsg">From: Rita</div><div class="gmail_quote"><blockquote type="cite">Hand 3:</blockquote>Guard</div>'
    ),
]


def _check(raw: bytes) -> None:
    """The unguarded core must not raise either: the guard in read_mail is only a safety net."""
    try:
        read = mailreader._read(raw)
    except UnreadableMail as exc:
        assert str(exc)
        return
    assert isinstance(read, ReadMail)
    assert isinstance(read.own_text, str) and "\r" not in read.own_text
    assert read.sender == read.sender.lower()
    assert all(isinstance(d, str) for d in read.defects)


FUZZ = settings(
    max_examples=300,
    deadline=None,  # speed is measured in bench/reader.py, not in tests
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(st.binary(max_size=4000))
def test_fuzz_random_bytes(raw):
    _check(raw)


@FUZZ
@given(
    st.lists(
        st.sampled_from(
            [
                b"From: a@b\n",
                b"Subject: [g] Turn 1\n",
                b"Content-Type: multipart/mixed; boundary=x\n",
                b"Content-Type: text/html; charset=utf-8\n",
                b"Content-Transfer-Encoding: base64\n",
                b"Content-Transfer-Encoding: quoted-printable\n",
                b"\n",
                b"--x\n",
                b"--x--\n",
                b"> Hand 3:\n",
                b"Hand 3: Baron\n",
                b"=C3=A9=\n",
                b"SGFuZA==\n",
                b"<blockquote>",
                b"</blockquote>",
                b"-- \n",
                b"On Tue, Rita wrote:\n",
                b"\xff\xfe\x00",
                b'Content-Type: text/plain; charset="\xff"\n',
                b"Content-Type: text/plain; format=flowed; delsp=yes\n",
                b"Hand 3: Guard \n",
            ]
        ),
        max_size=60,
    )
)
def test_fuzz_mime_shaped_fragments(chunks):
    _check(b"".join(chunks))


CORPUS = Path(__file__).parent / "corpus"
MUTATION_SEEDS = SEEDS + [path.read_bytes() for path in sorted(CORPUS.glob("*.eml"))]


@st.composite
def mutated(draw):
    """A valid message (ours or a corpus one) with bytes flipped, inserted, deleted, or cut."""
    data = bytearray(draw(st.sampled_from(MUTATION_SEEDS)))
    for _ in range(draw(st.integers(1, 8))):
        if not data:
            break
        op = draw(st.sampled_from(["flip", "insert", "delete", "cut", "dup"]))
        at = draw(st.integers(0, len(data) - 1))
        if op == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif op == "delete":
            del data[at : at + draw(st.integers(1, 64))]
        elif op == "cut":
            del data[at:]
        else:
            data[at:at] = data[at : at + draw(st.integers(1, 200))]
    return bytes(data)


@FUZZ
@given(mutated())
def test_fuzz_mutated_valid_messages(raw):
    _check(raw)
    try:
        read_mail(raw)
    except UnreadableMail:
        pass


def test_unreadable_mail_is_a_value_error():
    assert issubclass(UnreadableMail, ValueError)


def test_fuzz_seeds_are_readable():
    """The fuzzing starts from messages that read cleanly (else it would fuzz nothing useful)."""
    for raw in SEEDS:
        read = read_mail(raw)
        assert read.own_text and "Examples" not in read.own_text


# --------------------------------------------------------------------------------------------
# The shared corpus of real-client messages (tests/mail/corpus/, built by another engineer)
# --------------------------------------------------------------------------------------------

CARD_ALIASES = {
    "guard": ["guard"],
    "spy": ["spy", "priest", "courtier"],
    "baron": ["baron", "diplomat"],
    "handmaid": ["handmaid", "shugenja"],
    "prince": ["prince", "hatamoto"],
    "king": ["king", "manipulator"],
    "countess": ["countess", "sensei"],
    "princess": ["princess"],
}


def _corpus_expectations() -> list[dict]:
    """The entries of expected.yaml (a list of mappings with a `file` key)."""
    path = CORPUS / "expected.yaml"
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if isinstance(data, dict):  # tolerate a {file: entry} layout too
        data = [dict(entry or {}, file=name) for name, entry in data.items()]
    return [entry for entry in data if isinstance(entry, dict) and entry.get("file")]


CORPUS_CASES = _corpus_expectations()


def _as_list(value) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _order_fields(order) -> tuple[int | None, str | None]:
    """(hand, card) of an expected order, whether written as a mapping or as an order line."""
    if isinstance(order, dict):
        hand = order.get("hand")
        return (int(hand) if hand is not None else None), (order.get("card") or None)
    found = re.search(r"(\d+)\s*:?\s*([A-Za-z]+)", str(order))
    return (int(found.group(1)), found.group(2)) if found else (None, None)


def _hand_on_line(hand: int, line: str) -> bool:
    return re.search(rf"(?<!\d){hand}(?!\d)", line) is not None


def _card_on_line(card: str, line: str) -> bool:
    names = CARD_ALIASES.get(card.lower(), [card.lower()])
    low = line.lower()
    return any(re.search(rf"\b{re.escape(name)}\b", low) for name in names)


def test_corpus_is_there():
    """The corpus test below must not silently parametrize over nothing."""
    assert len(CORPUS_CASES) >= 45


@pytest.mark.parametrize("expected", CORPUS_CASES, ids=[entry["file"] for entry in CORPUS_CASES])
def test_corpus(expected):
    raw = (CORPUS / expected["file"]).read_bytes()
    if expected.get("unreadable"):
        with pytest.raises(UnreadableMail):
            read_mail(raw)
        return
    read = read_mail(raw)
    if "sender" in expected:
        assert read.sender == (expected["sender"] or "").lower()
    if "tag" in expected:
        assert read.tag == expected["tag"]
    if "turn" in expected:
        assert read.turn == expected["turn"]
    for text in _as_list(expected.get("own_text_contains")):
        assert text in read.own_text, (
            f"{text!r} missing from own_text:\n{read.own_text}"
        )
    for text in _as_list(expected.get("own_text_excludes")):
        assert text not in read.own_text, (
            f"{text!r} should not be in own_text:\n{read.own_text}"
        )
    lines = read.own_text.splitlines()
    for order in _as_list(expected.get("orders")):
        hand, card = _order_fields(order)
        assert hand is not None and card is not None, order
        assert any(
            _hand_on_line(hand, line) and _card_on_line(card, line) for line in lines
        ), f"order hand {hand} {card} not on one line of own_text:\n{read.own_text}"


def test_corpus_38_boundary_is_recovered():
    """What the reader does with corpus file 38 (a lost boundary, recovered)."""
    read = read_mail((CORPUS / "38-broken-missing-boundary.eml").read_bytes())
    assert read.own_text.splitlines()[:3] == [
        "Hand 2: Countess",
        "Hand 6: Spy on Arthur",
        "Hand 10: Baron on Dominik",
    ]
    assert any("guessed" in d for d in read.defects)


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
                attempt(
                    lambda p=part: (
                        None if p.is_multipart() else p.get_payload(decode=True)
                    )
                ),
                [type(defect).__name__ for defect in part.defects],
            )
        )
    return shape


def _parse_both(raw: bytes) -> tuple:
    def parse(policy):
        try:
            return _shape(email.message_from_bytes(raw, policy=policy))
        except Exception as exc:  # noqa: BLE001
            return ("raised", type(exc).__name__)

    return parse(email.policy.default), parse(mailreader._POLICY)


HOSTILE_MIME_HEADERS = [
    b'Content-Type: multipart/mixed; boundary="b1',  # open quote: policy.default closes it
    b"Content-Type: multipart/mixed; boundary=b1 (comment)",
    b"Content-Type: multipart/mixed; boundary*=utf-8''b1",
    b"Content-Type: multipart/mixed; boundary*0=b; boundary*1=1",
    b'Content-Type: multipart/mixed; boundary="=?utf-8?q?b1?="',
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
    raw = (
        b"From: a@example.org\n" + header + b"\n\n--b1\nContent-Type: text/plain\n\n"
        b"Hand 3: Baron\n--b1--\n"
    )
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
            mailreader._default_str(name, value)
        return
    assert mailreader._default_str(name, value) == expected


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
    simple = mailreader._simple_mime_header(kind, value)
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
        assert mailreader._simple_mime_header(kind, value) is not None, value


def _encoded_word(text: str, charset: str, encoding: str) -> str:
    data = text.encode(charset, "replace")
    if encoding in "bB":
        return f"=?{charset}?{encoding}?{base64.b64encode(data).decode()}?="
    coded = "".join(
        chr(byte)
        if chr(byte).isalnum() and byte < 128
        else "_"
        if byte == 32
        else f"={byte:02X}"
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
    st.sampled_from(
        ["=?utf-8?q?=Zz?=", "=?bogus?q?x?=", "=?utf-8?b?QQ?=", "=?utf-8?q?x?=abc"]
    ),
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
    simple = mailreader._simple_sender(value)
    if simple is None:
        return  # not plain: the reader asks policy.default itself
    address = email.policy.default.header_factory("from", value).addresses[0]
    assert simple[0] == address.addr_spec

    def tidy(name: str) -> str:
        return " ".join(mailreader._clean_line(name).split())

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
        assert mailreader._simple_sender(value) is not None, value


@FUZZ
@given(st.text(max_size=60).filter(lambda text: "=?" not in text))
def test_a_subject_without_encoded_words_is_its_own_decoding(value):
    """`_decode_words` skips policy.default for these: it would give them back unchanged."""
    value = value.replace("\r", "").replace("\n", "")
    value = value.encode("utf-8", "replace").decode("utf-8")  # no lone surrogates
    assert str(email.policy.default.header_factory("subject", value)) == value


# The XPath tests the reader used, now the oracle of its Python tests.
_XP_CLASS = "concat(' ', normalize-space(translate(@class, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')), ' ')"
_XP_ID = "translate(@id, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
_XP_QUOTE = (
    f"self::blockquote or contains({_XP_CLASS}, ' gmail_attr ')"
    f" or contains({_XP_CLASS}, ' moz-cite-prefix ') or contains({_XP_CLASS}, ' yahoo_quoted ')"
    f" or contains({_XP_CLASS}, ' outlookmessageheader ') or @name = 'quote'"
    f" or (contains({_XP_CLASS}, ' gmail_quote ') and not(.//blockquote))"
)
_XP_SPECIAL = (
    f"{_XP_QUOTE} or contains({_XP_CLASS}, ' gmail_signature ')"
    f" or contains({_XP_CLASS}, ' moz-signature ') or {_XP_ID} = 'signature'"
)
XP_IS_QUOTE = lxml.etree.XPath(f"boolean(self::*[{_XP_QUOTE}])")
XP_IS_SPECIAL = lxml.etree.XPath(f"boolean(self::*[{_XP_SPECIAL}])")
XP_SPECIALS_AT = lxml.etree.XPath(
    f".//*[{_XP_SPECIAL}][count(ancestor::*[{_XP_SPECIAL}]) = $base]"
)
XP_OUTLOOK_START = lxml.etree.XPath(
    f"(//*[@id][{_XP_ID} = 'appendonsend' or {_XP_ID} = 'divrplyfwdmsg'])[1]"
)

HTML_ATTRIBUTES = st.lists(
    st.sampled_from(
        [
            ' class="gmail_quote"',
            ' class="GMAIL_Quote"',
            ' class="gmail_attr"',
            ' class="a\tgmail_signature\nb"',
            ' class="moz-cite-prefix"',
            ' class="moz-signature"',
            ' class="yahoo_quoted"',
            ' class="OutlookMessageHeader"',
            ' class="gmail_quote\u00a0x"',
            ' class="gmail_quotex"',
            ' class=""',
            ' id="Signature"',
            ' id="signature "',
            ' id="appendonsend"',
            ' id="divRplyFwdMsg"',
            ' name="quote"',
            ' name="Quote"',
            ' CLASS="gmail_attr"',
            ' xml:id="signature"',
            ' type="cite"',
        ]
    ),
    max_size=2,
).map("".join)
HTML_TAG = st.sampled_from(
    [
        "div",
        "blockquote",
        "BLOCKQUOTE",
        "p",
        "span",
        "x:blockquote",
        "body",
        "html",
        "td",
    ]
)
HTML_MARKUP = st.recursive(
    st.sampled_from(["Hand 3: Baron", " ", "<br>", "</html>", "<html>", ""]),
    lambda inner: st.builds(
        lambda tag, attributes, content, close: (
            f"<{tag}{attributes}>{''.join(content)}" + (f"</{tag}>" if close else "")
        ),
        HTML_TAG,
        HTML_ATTRIBUTES,
        st.lists(inner, max_size=3),
        st.booleans(),
    ),
    max_leaves=12,
)


@FUZZ
@given(st.lists(HTML_MARKUP, min_size=1, max_size=3).map("".join))
def test_special_html_elements_are_found_as_the_xpath_found_them(markup):
    root = lxml.etree.fromstring(markup.encode("utf-8"), mailreader._HTML_PARSER)
    if root is None:
        return
    outlook = XP_OUTLOOK_START(root)
    assert mailreader._outlook_start(root) is (outlook[0] if outlook else None)
    for element in root.iter():
        kind = mailreader._special_kind(element)
        assert (kind == "quote") == XP_IS_QUOTE(element)
        assert (kind is not None) == XP_IS_SPECIAL(element)
    base = 1 if XP_IS_SPECIAL(root) else 0
    found = [node for node, _ in mailreader._outermost_specials(root)]
    assert found == XP_SPECIALS_AT(root, base=base)


def test_an_unread_html_version_is_never_converted(monkeypatch):
    """The HTML of multipart/alternative is only written out as text when it is read."""
    calls = []
    original = mailreader.html_text.etree_to_text
    monkeypatch.setattr(
        mailreader.html_text,
        "etree_to_text",
        lambda tree: calls.append(1) or original(tree),
    )
    raw = multipart_message(
        multipart(
            "alternative",
            [
                part(reply("Hand 3: Baron on Bruno")),
                part(f"<div>{TURN_HTML}</div>", "text/html"),
            ],
        )
    )
    assert read_mail(raw).own_text == "Hand 3: Baron on Bruno"
    assert calls == []


def test_html_that_fails_late_reads_as_if_it_had_failed_at_once(monkeypatch):
    """Should writing out the text fail, the note stands where the old, eager reader put it."""

    def broken(tree):
        raise ValueError("boom")

    monkeypatch.setattr(mailreader.html_text, "etree_to_text", broken)
    read = read_mail(html_message("<div>Hand 3: Baron on Bruno</div>"))
    assert read.own_text == "Hand 3: Baron on Bruno"
    notes = list(read.defects)
    assert notes.index(
        "the HTML part is malformed; stripped its tags crudely"
    ) < notes.index("no text part; read the HTML part")


def test_a_late_note_goes_where_it_would_have_gone():
    notes = mailreader._Notes()
    notes.add("a")
    notes.add("b")
    notes.add("late")  # added again later: a no-op then, so it moves to its first place
    notes.add_at(1, "late")
    assert notes.items == ["a", "late", "b"]
    notes.add_at(3, "a")  # already there before position 3
    assert notes.items == ["a", "late", "b"]
    notes.add_at(2, "new")
    assert notes.items == ["a", "late", "new", "b"]
