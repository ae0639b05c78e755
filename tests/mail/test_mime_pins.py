"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/mime.py, headers.py and policy.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import base64
import email.policy

import pytest
from reader_kit import message, multipart, multipart_message, part

from pbem.reader import UnreadableMail, policy, read_mail

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


@pytest.mark.parametrize(("dashed", "guessed"), [(19, True), (20, False)])
def test_the_guess_tries_the_first_20_dashed_lines_only(dashed, guessed):
    # Lines of dashes before the parts: each once, none a boundary; the search ends after 20.
    body = "".join(f"--note {chr(65 + n)}\n" for n in range(dashed)) + _versions("XyZ")
    if guessed:
        assert read_mail(_lost_boundary(body)).own_text == ORDERS
    else:
        with pytest.raises(UnreadableMail, match="MIME parts without a boundary"):
            read_mail(_lost_boundary(body))


@pytest.mark.parametrize(("end", "guessed"), [(199_999, True), (200_000, False)])
def test_the_guess_looks_for_boundary_lines_in_the_first_200000_characters(end, guessed):
    # The first boundary line ends at character `end` (counted from 0) after a long preamble:
    # whole in the first 200,000 it is guessed; cut by the bound, the multipart reads as text.
    start = end - len("--XyZ") + 1
    filler = ("Hand 3: Baron on Bruno\n" * (start // 23 + 1))[: start - 1] + "\n"
    read = read_mail(_lost_boundary(filler + _versions("XyZ"), "mixed"))
    assert read.own_text.endswith("Hand 3: Countess" if guessed else "<p>Hand 3: Countess</p>\n--XyZ--")
    assert ("multipart mixed without a usable boundary; guessed it from the body" in read.defects) == guessed


def _nested_orders(depth: int, boundary_lost: bool, subtype: str = "mixed") -> bytes:
    """The orders in a multipart at `depth`, inside depth - 1 others; its boundary lost or not."""
    inner = multipart(subtype, [part(f"{ORDERS}\n")], boundary="inner")
    if boundary_lost:
        inner = inner.replace('; boundary="inner"', "", 1)
    for level in range(depth - 1):
        inner = multipart("mixed", [inner], boundary=f"level{level}")
    return multipart_message(inner)


def _reading(raw: bytes) -> str:
    try:
        return read_mail(raw).own_text
    except UnreadableMail as exc:
        return str(exc)


@pytest.mark.parametrize("depth", [5, 24, 25, 26, 27])
def test_a_multipart_that_lost_its_boundary_reads_as_it_would_with_it_however_deep(depth):
    # The guessed multipart is the level it replaces: its parts are no deeper than they were.
    assert _reading(_nested_orders(depth, boundary_lost=True)) == _reading(
        _nested_orders(depth, boundary_lost=False)
    )


def test_a_text_signed_with_dashes_whose_multipart_lost_its_boundary_is_read_whole():
    # "--Chloe" occurs once: a sign-off, not a boundary that would cut the orders off as preamble.
    read = read_mail(_lost_boundary(f"{ORDERS}\n--Chloe\n", "mixed"))
    assert read.own_text == f"{ORDERS}\n--Chloe"
    assert read.defects == (
        "MIME: a multipart part declares no boundary",
        "MIME: a multipart part holds no parts",
        "multipart mixed without a usable boundary; read it as plain text",
    )


def test_part_headers_without_a_boundary_are_unreadable_and_the_player_told_why():
    body = "Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: base64\n\n"
    body += "SGFuZCAyOiBDb3VudGVzcw==\n"
    with pytest.raises(UnreadableMail) as raised:
        read_mail(_lost_boundary(body))
    assert str(raised.value) == (
        "Your message has no text I can read, only parts I cannot read as text "
        "(MIME parts without a boundary). Please write your orders in the body of the mail."
    )
    # Beside a text that reads, the GM is told of them.
    lost = "Content-Type: multipart/alternative\n\n" + body
    read = read_mail(multipart_message(multipart("mixed", [part(f"{ORDERS}\n"), lost])))
    assert read.own_text == ORDERS
    assert "multipart alternative without a usable boundary; its parts cannot be separated" in read.defects


@pytest.mark.parametrize(("at", "found"), [(199_987, True), (199_988, False)])
def test_part_headers_are_looked_for_in_the_first_200000_characters(at, found):
    filler = ("Hand 3: Baron on Bruno\n" * (at // 23 + 1))[: at - 1] + "\n"  # `at` characters
    raw = _lost_boundary(filler + "Content-Type: text/plain\n\nHand 7: Prince on myself\n", "mixed")
    if found:
        with pytest.raises(UnreadableMail, match="MIME parts without a boundary"):
            read_mail(raw)
    else:
        assert read_mail(raw).full_text.endswith("Content-Type: text/plain\n\nHand 7: Prince on myself")


def test_a_text_without_a_boundary_is_decoded_with_the_notes_of_its_decoding():
    latin1 = _lost_boundary("", "mixed") + f"{ORDERS}, merci Chloé\n".encode("latin-1")
    read = read_mail(latin1)
    assert read.own_text == f"{ORDERS}, merci Chloé"
    assert "8-bit text without a declared charset; read it as UTF-8 / windows-1252" in read.defects
    stray = _lost_boundary("SGFuZCAzOiBCYXJvbiBvbiBCcnVubw*==\n", "mixed").replace(
        b"multipart/mixed\n", b"multipart/mixed\nContent-Transfer-Encoding: base64\n"
    )
    read = read_mail(stray)
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert "MIME: base64 text with invalid characters" in read.defects


def test_a_text_without_a_boundary_is_the_plain_version_of_an_alternative():
    lost = "Content-Type: multipart/mixed\n\nHand 3: Baron on Bruno\n"
    entity = multipart("alternative", [lost, part("<p>Hand 3: Countess</p>", "text/html; charset=utf-8")])
    assert read_mail(multipart_message(entity)).own_text == "Hand 3: Baron on Bruno"


def test_a_multipart_of_an_odd_subtype_that_lost_its_boundary_is_read_as_mixed():
    raw = _lost_boundary(_versions("XyZ"), "x-é")
    read = read_mail(raw)
    assert read.own_text == f"{ORDERS}\nHand 3: Countess"


def test_the_parts_under_a_guessed_boundary_are_read_with_the_readers_own_header_rules():
    # policy.default closes an open quote: the inner boundary is "inner", not guessed again.
    inner = multipart(
        "alternative", [part(f"{ORDERS}\n"), part("<p>Hand 3: Countess</p>", "text/html")], boundary="inner"
    )
    inner = inner.replace('boundary="inner"', 'boundary="inner', 1)
    read = read_mail(_lost_boundary(f"--XyZ\n{inner}--XyZ--\n", "mixed"))
    assert read.own_text == ORDERS
    assert [note for note in read.defects if "boundary" in note] == [
        "MIME: a multipart part declares no boundary",
        "multipart mixed without a usable boundary; guessed it from the body",
    ]


def test_orders_beside_a_part_nested_too_deep_are_read_and_the_gm_told():
    deep = multipart("mixed", [part("Hand 7: Countess\n")], boundary="deep")
    for level in range(25):
        deep = multipart("mixed", [deep], boundary=f"level{level}")
    read = read_mail(multipart_message(multipart("mixed", [part(f"{ORDERS}\n"), deep], boundary="top")))
    assert (read.own_text, read.defects) == (
        ORDERS,
        ("MIME parts nested absurdly deep; ignored the deepest ones",),
    )


@pytest.mark.parametrize(("parts", "read_last"), [(300, True), (301, False)])
def test_a_mail_is_read_up_to_its_300th_mime_part(parts, read_last):
    # The multipart, the orders, pictures, and a last text: the 300th part is read, the 301st not.
    pictures = [PICTURE] * (parts - 3)
    entity = multipart(
        "mixed", [part("Hand 3: Baron on Bruno\n"), *pictures, part("Hand 7: Prince on myself\n")]
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == (ORDERS if read_last else "Hand 3: Baron on Bruno")
    notes = ["ignored attachment cards.png (image/png)"] + (
        [] if read_last else ["more than 300 MIME parts; ignored the rest"]
    )
    assert list(read.defects) == notes


def test_a_forwarded_message_is_not_the_players_orders():
    forwarded = "Content-Type: message/rfc822\n\nFrom: bruno@example.org\nSubject: x\n\nHand 3: Princess\n"
    read = read_mail(multipart_message(multipart("mixed", [part(f"{ORDERS}\n"), forwarded])))
    assert (read.own_text, read.defects) == (ORDERS, ("ignored an attached message",))
    with pytest.raises(UnreadableMail, match=r"only parts I cannot read as text \(an attached message\)"):
        read_mail(multipart_message(multipart("mixed", [forwarded])))


@pytest.mark.parametrize("ctype", ["application/pkcs7-mime", "application/x-pkcs7-mime"])
def test_a_mail_encrypted_with_smime_is_unreadable_and_the_player_told_why(ctype):
    # Outlook's S/MIME: the whole body one encrypted part (older clients write the x- type).
    raw = message(
        b"MIAGCSqGSIb3DQEHA6CAMIACAQAxggFgMIIBXAIBADBE\n",
        content_type=f'{ctype}; smime-type=enveloped-data; name="smime.p7m"',
        cte="7bit",
    )
    with pytest.raises(UnreadableMail, match="^Your message is encrypted; I can only read orders sent as"):
        read_mail(raw)


def test_a_calendar_invitation_beside_the_orders_is_not_read():
    # Outlook and Google Calendar send a meeting as an inline text/calendar part.
    invitation = part(
        "BEGIN:VCALENDAR\nMETHOD:REQUEST\nSUMMARY:Hand 3: Guard\nEND:VCALENDAR\n", "text/calendar"
    )
    read = read_mail(multipart_message(multipart("mixed", [part(f"{ORDERS}\n"), invitation])))
    assert (read.own_text, read.defects) == (ORDERS, ("ignored attachment text/calendar",))


# -- multipart/signed: the signed part, the signature never read -------------------------------

SIGNATURE = "Content-Type: application/pgp-signature\n\n-----BEGIN PGP SIGNATURE-----\n"


def test_a_signed_message_with_nothing_in_it_is_empty():
    with pytest.raises(UnreadableMail, match="^Your message is empty: I found no text in it.$"):
        read_mail(multipart_message(multipart("signed", [part("\n"), SIGNATURE])))


def test_the_gm_is_told_of_an_attachment_inside_a_signed_message():
    pdf = "Content-Type: application/pdf\nContent-Disposition: attachment; filename=rules.pdf\n\nxx\n"
    signed = multipart("mixed", [part(f"{ORDERS}\n"), pdf], boundary="m")
    read = read_mail(multipart_message(multipart("signed", [signed, SIGNATURE])))
    assert read.own_text == ORDERS
    assert read.defects == ("ignored attachment rules.pdf (application/pdf)",)


# -- multipart/alternative: the plain version, unless it is a stub ------------------------------

HTML_ORDERS = part("<p>Hand 3: Baron on Bruno<br>Hand 7: Prince on myself</p>", "text/html; charset=utf-8")
PICTURE = "Content-Type: image/png\nContent-Disposition: inline; filename=cards.png\n\nxx\n"
STUB = "View this message in HTML."


def test_a_blank_alternative_is_an_empty_message():
    with pytest.raises(UnreadableMail, match="^Your message is empty: I found no text in it.$"):
        read_mail(multipart_message(multipart("alternative", [part("\n \n")])))


def test_a_stub_before_an_amp_version_gives_way_to_the_html_after_it():
    # Gmail's AMP mail: text/plain, text/x-amp-html, text/html; the AMP part is not read.
    amp = part("<html amp4email><body>Hand 3: Countess</body></html>", "text/x-amp-html; charset=utf-8")
    read = read_mail(multipart_message(multipart("alternative", [part(STUB), amp, HTML_ORDERS])))
    assert read.own_text == ORDERS
    assert "the text part is empty or a stub; read the HTML part" in read.defects


def test_of_two_plain_versions_the_first_is_read():
    split = multipart(
        "mixed", [part("Hand 3: Baron on Bruno\n"), PICTURE, part("Hand 7: Countess\n")], boundary="m"
    )
    assert (
        read_mail(multipart_message(multipart("alternative", [part(f"{ORDERS}\n"), split]))).own_text
        == ORDERS
    )


def test_blank_text_around_a_picture_gives_way_to_the_html():
    blank = multipart("mixed", [part("\n"), PICTURE, part("\n")], boundary="m")
    assert read_mail(multipart_message(multipart("alternative", [blank, HTML_ORDERS]))).own_text == ORDERS


def test_a_stub_is_read_when_the_html_pieces_hold_no_words_either():
    # Apple Mail splits its HTML around a picture; here no piece has a letter.
    rich = multipart(
        "mixed",
        [part("<p><img src=cid:a></p>", "text/html"), PICTURE, part("<p>&nbsp;</p>", "text/html")],
        boundary="m",
    )
    assert read_mail(multipart_message(multipart("alternative", [part(STUB), rich]))).own_text == STUB


@pytest.mark.parametrize(("length", "read_html"), [(299, True), (300, False)])
def test_a_plain_version_of_300_characters_is_the_players_even_if_it_mentions_html(length, read_html):
    plain = ("I could not see the HTML version. " + ORDERS.replace("\n", " ") + " ").ljust(length, ".")
    entity = multipart("alternative", [part(plain), HTML_ORDERS])
    assert read_mail(multipart_message(entity)).own_text == (ORDERS if read_html else plain)


@pytest.mark.parametrize("subtype", ["alternative", "related", "signed", "mixed"])
@pytest.mark.parametrize(("depth", "read"), [(25, True), (26, False)])
def test_the_parts_of_a_multipart_are_one_level_deeper_than_it(subtype, depth, read):
    reading = _reading(_nested_orders(depth, boundary_lost=False, subtype=subtype))
    assert reading == (ORDERS if read else "Your message is nested too deeply for me to read it.")


# -- one text part: read in the charset it declares ----------------------------------------------


@pytest.mark.parametrize(
    ("body", "charset"),
    [("Hand 3: Baron on Борис", "koi8-r"), ("Hand 3: Baron on Bruno, 5 € on Chloé", "ISO-8859-15")],
)
def test_a_text_part_is_read_in_the_charset_it_declares_without_a_note(body, charset):
    # Read as undeclared 8-bit text, its bytes would be windows-1252: "Hand 3: Baron on âÏÒÉÓ".
    raw = message(body.encode(charset), content_type=f"text/plain; charset={charset}")
    read = read_mail(raw)
    assert (read.own_text, read.defects) == (body, ())
    # In an alternative, beside the HTML, as most mail programs send it.
    entity = multipart(
        "alternative",
        [part(body, f'text/plain; charset="{charset}"'), part("<p>Hand 3: Countess</p>", "text/html")],
    )
    read = read_mail(multipart_message(entity).replace(body.encode(), body.encode(charset)))
    assert (read.own_text, read.defects) == (body, ())


@pytest.mark.parametrize(
    "content_type", ['text/plain; charset = "koi8-r"', 'text/plain; Charset="KOI8-R" (Cyrillic)']
)
def test_the_charset_of_a_content_type_out_of_the_ordinary_is_read_as_policy_default_reads_it(content_type):
    # Spaces around "=", a comment: not the shortcut's plain form, so policy.default reads it.
    assert policy._simple_mime_header("content-type", content_type) is None
    read = read_mail(message("Hand 3: Baron on Борис".encode("koi8-r"), content_type=content_type))
    assert (read.own_text, read.defects) == ("Hand 3: Baron on Борис", ())


def test_the_gm_is_told_of_a_utf8_text_declared_windows_1252_by_its_charset_in_lower_case():
    # Outlook writes charset="Windows-1252"; the text is UTF-8 all the same.
    raw = message("Hand 3: Baron on Chloé", content_type='text/plain; charset="Windows-1252"')
    read = read_mail(raw)
    assert read.own_text == "Hand 3: Baron on Chloé"
    assert read.defects == ("text declared as windows-1252 is UTF-8; read it as UTF-8",)


def test_a_file_sent_inline_as_text_is_not_read_and_the_gm_is_told():
    # A mail program took a file for text: inline, no name, text/plain, its bytes in base64.
    data = base64.encodebytes(b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(256))).decode()
    file = f"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n{data}"
    read = read_mail(multipart_message(multipart("mixed", [part(f"{ORDERS}\n"), file])))
    assert read.own_text == ORDERS
    assert read.defects == (
        "8-bit text without a declared charset; read it as UTF-8 / windows-1252",
        "a text part holds binary data; ignored it",
    )


def test_a_flowed_text_whose_lines_end_in_a_bare_cr_is_unflowed():
    # Classic Mac OS line ends (CR alone): lines all the same, unflowed as with CRLF or LF.
    body = b"Hand 3: Baron \ron Bruno\rHand 7: Prince on \rmyself\r"
    read = read_mail(message(body, content_type="text/plain; charset=utf-8; format=flowed"))
    assert read.own_text == ORDERS


def test_a_flowed_text_with_delsp_yes_joins_a_word_split_at_a_soft_line_break():
    # RFC 3676 DelSp=yes (Apple Mail, for scripts without spaces): the space before a soft
    # line break was added by the sender's program and is deleted when the lines are joined.
    body = "Hand 3: Baron on Bru \nno\nHand 7: Prince on my \nself\n"
    read = read_mail(message(body, content_type="text/plain; charset=utf-8; format=flowed; delsp=yes"))
    assert (read.own_text, read.defects) == (ORDERS, ())
    # Without DelSp the space is the sender's: the words stay apart.
    read = read_mail(message(body, content_type="text/plain; charset=utf-8; format=flowed"))
    assert read.own_text == "Hand 3: Baron on Bru no\nHand 7: Prince on my self"


# -- attachments: a text file attached is not the body --------------------------------------------

RULES = "Rule 1: a Countess held with the King or a Prince is played\n"


@pytest.mark.parametrize(
    ("disposition", "note"),
    [
        # Thunderbird writes a non-ASCII name in RFC 2231 form: policy.default reads it.
        ("attachment; filename*=UTF-8''r%C3%A8gles.txt", "ignored attached file règles.txt (text/plain)"),
        # Marked an attachment, with no name.
        ("attachment", "ignored attached file text/plain"),
        # The same out of the ordinary (a comment, spaces around "="): policy.default reads it.
        ("attachment (sent as a file)", "ignored attached file text/plain"),
        ("Attachment; size = 61", "ignored attached file text/plain"),
    ],
)
def test_a_text_file_attached_beside_the_orders_is_not_read(disposition, note):
    attached = part(RULES, extra=f"Content-Disposition: {disposition}\n")
    read = read_mail(multipart_message(multipart("mixed", [part(f"{ORDERS}\n"), attached])))
    assert (read.own_text, read.defects) == (ORDERS, (note,))


def test_a_text_file_named_only_by_its_content_type_is_an_attachment():
    # Older Outlook and Apple Mail name the file in Content-Type (name=) and write no disposition.
    attached = part(RULES, 'text/plain; charset=utf-8; name="rules.txt"')
    read = read_mail(multipart_message(multipart("mixed", [part(f"{ORDERS}\n"), attached])))
    assert (read.own_text, read.defects) == (ORDERS, ("ignored attached file rules.txt (text/plain)",))


def test_a_lone_text_marked_as_an_attachment_is_read_and_the_gm_told():
    read = read_mail(message(ORDERS, extra="Content-Disposition: attachment\n"))
    assert (read.own_text, read.defects) == (ORDERS, ("the text is marked as an attachment; read it anyway",))


# -- headers: the subject's encoded words --------------------------------------------------------


def test_an_encoded_subject_is_decoded_without_a_note():
    # Two encoded words of two charsets, as Outlook and Thunderbird write them.
    subject = "=?utf-8?q?R=C3=A9p=2E_=3A?= =?iso-8859-1?q?_=5Bgame7=5D_Turn_3_=E0_Chlo=E9?="
    read = read_mail(message("Hand 3: Baron on Bruno", subject=subject))
    assert (read.subject, read.tag, read.turn) == ("Rép. : [game7] Turn 3 à Chloé", "game7", 3)
    assert read.defects == ()


# -- headers: why a From header names no one sender, in the GM's words -----------------------------


@pytest.mark.parametrize(
    ("header", "problem"),
    [
        ("From: bruno@example.org\nFrom: evil@attacker.example\n", "the message has 2 From headers"),
        (
            "From: bruno@example.org, evil@attacker.example\n",
            "the From header shows more than one address (bruno@example.org, evil@attacker.example)",
        ),
        (
            # A long value is shown by its first 80 characters.
            "From: Bruno Keller of the Tuesday evening postal game group <bruno@example.org>,"
            " x@y.z@attacker.example\n",
            "the From address 'Bruno Keller of the Tuesday evening postal game group"
            " <bruno@example.org>, x@y.z' holds more than one @",
        ),
        (
            # The first four of them, in order.
            "From: e@example.org, d@example.org, c@example.org, b@example.org, a@example.org\n",
            "the From header shows more than one address"
            " (a@example.org, b@example.org, c@example.org, d@example.org)",
        ),
        # A null address beside a name that reads as one: no sender, and no second address.
        ("From: =?utf-8?q?bruno=40example.org?= <>\n", None),
        # One "@", one address, however its text reads: a comment between the words of its
        # local part (RFC 5322) is no second address "keller@example.org".
        ("From: Bruno Keller <bruno.(home)keller@example.org>\n", None),
        # A name in quotes with the address typed into them: a quoted local part, nobody's.
        (
            'From: "Bruno Keller"@example.org\n',
            "the From address '\"Bruno Keller\"@example.org' is not a plain name@domain address",
        ),
        (
            # A From header cut short is shown by its first 80 characters.
            "From: Bruno Keller of the Tuesday evening postal game group at the Lamb, table two <bruno@\n",
            "the From header 'Bruno Keller of the Tuesday evening postal game group at the Lamb,"
            " table two <br' holds no plain name@domain address",
        ),
        # The docstring's forger: a quoted local part, a mailbox at attacker.example.
        (
            'From: "bruno@example.org"@attacker.example\n',
            "the From address '\"bruno@example.org\"@attacker.example' is not a plain name@domain address",
        ),
        (
            # An address that is not plain is shown by its first 80 characters.
            'From: "Bruno Keller of the Tuesday evening postal game group, table two"@attacker.example\n',
            "the From address '\"Bruno Keller of the Tuesday evening postal game group,"
            " table two\"@attacker.exam' is not a plain name@domain address",
        ),
    ],
)
def test_a_from_header_that_names_no_one_sender_says_why(header, problem):
    read = read_mail((header + "Subject: Re: [game7] Turn 3\n\nHand 3: Baron on Chloé\n").encode())
    assert read.sender_problem == problem


# -- headers: the sender and the name a From header gives --------------------------------------


@pytest.mark.parametrize(
    ("header", "sender", "name", "notes"),
    [
        # No From header at all (a hand-made mail): nobody's, and the GM is told.
        ("", "", "", ("no From header",)),
        # A group of no one, as bulk mail writes it: no sender, no name, nothing else to say.
        ("From: undisclosed-recipients:;\n", "", "", ("no sender address in the From header",)),
        # A name with a nickname in quotes (quoted pairs): read by policy.default, name and all.
        (
            'From: "Bruno \\"le Baron\\" Keller" <bruno@example.org>\n',
            "bruno@example.org",
            'Bruno "le Baron" Keller',
            (),
        ),
        # A quote left open (hand-typed): the parser reads no address, the one "@" is guessed.
        ('From: "Bruno Keller <bruno@example.org>\n', "bruno@example.org", "", ()),
        # A comment after the address is no name.
        ("From: bruno@example.org (home)\n", "bruno@example.org", "", ()),
    ],
)
def test_the_sender_and_the_name_a_from_header_gives(header, sender, name, notes):
    read = read_mail((header + "Subject: Re: [game7] Turn 3\n\nHand 3: Baron on Chloe\n").encode())
    assert (read.sender, read.sender_name, read.sender_problem, read.defects) == (sender, name, None, notes)


def test_a_from_header_cut_short_is_malformed_and_names_no_sender():
    # The stdlib's address parser fails on it; the GM is told, and the message is nobody's.
    read = read_mail(b"From: Bruno Keller <bruno@\nSubject: Re: [game7] Turn 3\n\nHand 3: Baron on Chloe\n")
    assert (read.sender, read.sender_name) == ("", "Bruno Keller")
    assert read.sender_problem == "the From header 'Bruno Keller <bruno@' holds no plain name@domain address"
    assert read.defects == ("the From header is malformed", "no sender address in the From header")


# -- policy: a plain MIME header read as policy.default reads it ---------------------------------


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("content-type", 'text/plain; charset=""; format=flowed'),
        ("content-disposition", 'attachment; filename=""'),
        ("content-type", "text/plain;"),
        ("content-disposition", "inline; "),
    ],
)
def test_an_empty_parameter_or_list_is_rendered_as_policy_default_renders_it(kind, value):
    # The parser's own questions (boundary, charset) read this text: it must be policy.default's.
    simple = policy._simple_mime_header(kind, value)
    assert simple is not None
    assert simple.text == str(email.policy.default.header_factory(kind, value))


# -- a boundary in the syntax of an encoded word is used as written -------------------------------
#
# RFC 2047 (section 5) forbids encoded words inside a quoted string, so a MIME parameter holds
# none: boundary="=?utf-8?q?b1?=" is that string of characters, and the delimiter lines say so.
# policy.default decodes it to "b1", finds no delimiter, and the mail read as empty (an order lost).

ENCODED_WORD_BOUNDARY = "=?utf-8?q?b1?="


@pytest.mark.parametrize("nested", [False, True], ids=["top", "inside-mixed"])
def test_a_boundary_written_as_an_encoded_word_is_used_as_written(nested):
    entity = multipart("alternative", [part("Hand 3: Baron on Bruno")], boundary=ENCODED_WORD_BOUNDARY)
    if nested:
        entity = multipart("mixed", [entity], boundary="outer")
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert read.defects == ()


def test_an_encoded_word_in_a_comment_beside_the_boundary_is_no_part_of_it():
    # RFC 2047 allows encoded words in a comment: the boundary is "b1", as policy.default reads it.
    entity = multipart("mixed", [part("Hand 3: Baron on Bruno")]).replace(
        'boundary="b1"', "boundary=b1 (=?utf-8?q?Pegasus_Mail?=)", 1
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert read.defects == ()


def test_a_multipart_with_an_encoded_word_but_no_boundary_has_its_boundary_guessed():
    entity = multipart("mixed", [part("Hand 3: Baron on Bruno")]).replace(
        'boundary="b1"', 'name="=?utf-8?q?Orders?="', 1
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert "multipart mixed without a usable boundary; guessed it from the body" in read.defects


@pytest.mark.parametrize(
    "header",
    [
        "Content-Type: application/pdf\n"
        'Content-Disposition: attachment; filename="=?utf-8?q?Z=C3=BCge.pdf?="',
        'Content-Type: application/pdf; name="=?utf-8?b?WsO8Z2UucGRm?="',
    ],
    ids=["filename", "name"],
)
def test_the_gm_is_told_of_an_attachment_by_its_name_an_encoded_word_decoded(header):
    # Outlook and Gmail write a file's non-ASCII name as an encoded word in quotes (RFC 2231
    # says otherwise; everyone reads it): the note names the file as the player sees it.
    attachment = f"{header}\nContent-Transfer-Encoding: base64\n\nJVBERi0K\n"
    read = read_mail(multipart_message(multipart("mixed", [part(ORDERS), attachment])))
    assert read.own_text == ORDERS
    assert read.defects == ("ignored attachment Züge.pdf (application/pdf)",)


def test_a_boundary_written_unquoted_with_an_equals_sign_is_guessed_and_the_gm_told():
    # RFC 2045 wants a value with "=" quoted; policy.default reads boundary=----=_Part_1 as
    # "----", which no delimiter line is: the boundary is guessed from the body, and the GM told.
    entity = multipart("mixed", [part(ORDERS)], boundary="----=_Part_1").replace(
        'boundary="----=_Part_1"', "boundary=----=_Part_1", 1
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == ORDERS
    assert "multipart mixed without a usable boundary; guessed it from the body" in read.defects


# -- a text part's bytes: a few stray control bytes are text, more are a file -------------------


@pytest.mark.parametrize(
    ("body", "read"),
    [
        # 60 characters, 3 of them NUL padding (one in twenty): still the player's words.
        (ORDERS.ljust(57) + "\0" * 3, True),
        (ORDERS.ljust(57) + "\0" * 4, False),
        # Under 20 characters a text is too short to judge by its control bytes.
        ("Hand 3: Countess" + "\0" * 3, True),
        ("Hand 3: Countess" + "\0" * 4, False),
    ],
)
def test_a_text_with_a_few_control_bytes_is_read_more_than_one_in_twenty_is_a_file(body, read):
    if read:
        assert read_mail(message(body)).own_text == body.rstrip("\0 ")
    else:
        with pytest.raises(
            UnreadableMail, match=r"only parts I cannot read as text \(binary data sent as text/plain\)"
        ):
            read_mail(message(body))


# -- the parser's defects, told to the GM in words ----------------------------------------------


def test_a_header_line_without_a_name_is_told_to_the_gm_in_words():
    # A line ": ..." among the headers (a name lost in copying): the parser skips it.
    read = read_mail(message("Hand 3: Countess\n", extra=": 2 attachments\n"))
    assert (read.own_text, read.defects) == (
        "Hand 3: Countess",
        ("MIME: a header line without a name; ignored it",),
    )
