"""Tests of pbem.reader: Transfer encodings, charsets, line ends, format=flowed.

Hand-written messages pin each rule (every test names what breaks if the rule breaks).
"""

from __future__ import annotations

import pytest
from reader_kit import message

from pbem.reader import read_mail

# --------------------------------------------------------------------------------------------
# Transfer encodings, charsets, line ends, format=flowed
# --------------------------------------------------------------------------------------------

ACCENTED = "Hand 3: Baron sur Bérénice\nHand 7: Prince sur moi-même"


@pytest.mark.parametrize("cte", ["8bit", "quoted-printable", "base64"])
def test_transfer_encodings(cte):
    read = read_mail(message(ACCENTED, cte=cte))
    assert read.own_text == ACCENTED


def test_7bit_ascii():
    read = read_mail(message("Hand 3: Baron on Bruno", cte="7bit", content_type="text/plain"))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert read.defects == ()


@pytest.mark.parametrize("charset", ["iso-8859-1", "windows-1252", "utf-8", "ISO-8859-15"])
def test_declared_charsets(charset):
    body = "Hand 3: Baron sur Bérénice, très bien"
    read = read_mail(message(body.encode(charset), content_type=f"text/plain; charset={charset}"))
    assert read.own_text == body


def test_windows_1252_specials():
    body = "Hand 3: “Baron” – on Bruno … 5€"
    read = read_mail(message(body.encode("cp1252"), content_type='text/plain; charset="windows-1252"'))
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
    read = read_mail(message(body.encode("utf-8"), content_type="text/plain; charset=iso-8859-1"))
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
    read = read_mail(message("Hand 3: Bérénice", content_type=f'text/plain; charset="{charset}"'))
    assert "Hand 3: B" in read.own_text
    assert read.defects


def test_crlf_becomes_lf():
    read = read_mail(message("Hand 3: Baron\nHand 7: Prince on me\n", crlf=True))
    assert read.own_text == "Hand 3: Baron\nHand 7: Prince on me"
    assert "\r" not in read.full_text


def test_format_flowed_soft_breaks_are_joined():
    body = "Hand 3: Guard on Bruno, \nguess Prince\nHand 7: Prince on myself\n"
    read = read_mail(message(body, content_type="text/plain; charset=utf-8; format=flowed"))
    assert read.own_text == "Hand 3: Guard on Bruno, guess Prince\nHand 7: Prince on myself"


def test_format_flowed_delsp_removes_the_soft_space():
    body = "Hand 3: Guard on Bru \nno, guess Prince\n"
    read = read_mail(message(body, content_type="text/plain; charset=utf-8; format=flowed; delsp=yes"))
    assert read.own_text == "Hand 3: Guard on Bruno, guess Prince"


def test_format_flowed_quotes_keep_depth_and_are_dropped():
    body = (
        "Hand 3: Baron on Bruno\n\n"
        '>> Examples: "Hand 3: Guard on \n>> Bruno, guess Prince"\n'
        "> Hand 7: Prince \n> on myself\n"
    )
    read = read_mail(message(body, content_type="text/plain; charset=utf-8; format=flowed"))
    assert '>> Examples: "Hand 3: Guard on Bruno, guess Prince"' in read.full_text
    assert "> Hand 7: Prince on myself" in read.full_text
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_format_flowed_signature_separator_is_not_flowed():
    body = "Hand 3: Baron\n-- \nChloé\n"
    read = read_mail(message(body, content_type="text/plain; charset=utf-8; format=flowed"))
    assert read.own_text == "Hand 3: Baron"


def test_format_flowed_space_stuffing_is_removed():
    body = " From the start: Hand 3: Baron\n"
    read = read_mail(message(body, content_type="text/plain; charset=utf-8; format=flowed"))
    assert read.own_text == "From the start: Hand 3: Baron"


def test_without_format_flowed_trailing_space_lines_are_not_joined():
    read = read_mail(message("Hand 3: Baron \nHand 7: Prince\n"))
    assert read.own_text == "Hand 3: Baron\nHand 7: Prince"
