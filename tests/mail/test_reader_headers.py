"""Tests of pbem.reader: Headers: sender, subject tag, ids.

Hand-written messages pin each rule (every test names what breaks if the rule breaks).
"""

from __future__ import annotations

import pytest
from reader_kit import message

from pbem.reader import read_mail

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
    read = read_mail(message("Hand 3: Baron", sender='"Chloé <broken <Chloe@example.org>'))
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


@pytest.mark.parametrize("subject", ["Re: your cards", "[game7] orders", "[game 7] Turn 3", ""])
def test_subject_without_tag_gives_none(subject):
    read = read_mail(message("Hand 3: Baron", subject=subject))
    assert (read.tag, read.turn) == (None, None)


def test_subject_is_decoded():
    read = read_mail(message("x", subject="=?iso-8859-1?q?R=E9p=2E_=3A_=5Bgame7=5D_Turn_3?="))
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
# From: tricks: an ambiguous sender is no player (issue 8, item 8)
# --------------------------------------------------------------------------------------------

AMBIGUOUS_FROM = {
    "address as the display name": "From: bruno@example.org <evil@attacker.example>\n",
    "quoted address as the name": 'From: "bruno@example.org" <evil@attacker.example>\n',
    "encoded address as the name": "From: =?utf-8?q?bruno=40example.org?= <evil@attacker.example>\n",
    "address in a comment": "From: evil@attacker.example (bruno@example.org)\n",
    "two at signs": "From: bruno@example.org@attacker.example\n",
    "a group": "From: Friends: bruno@example.org, evil@attacker.example;\n",
    "a list": "From: bruno@example.org, evil@attacker.example\n",
    "two From headers": "From: bruno@example.org\nFrom: evil@attacker.example\n",
    # Issue 18, item 8: the address is the mailbox the mail system delivers to, never a
    # player's address shown inside a quoted local part or behind a comment.
    "a quoted local part in brackets": 'From: Bruno <"bruno@example.org"@attacker.example>\n',
    "a quoted local part": 'From: "bruno@example.org"@attacker.example\n',
    "a quoted local part with a space": 'From: "bruno@example.org "@attacker.example\n',
    "a comment before a second domain": "From: bruno@example.org(x)@attacker.example\n",
    "a quoted local part, comment after": 'From: "bruno@example.org"@mallory.test (Bruno)\n',
    "a quoted bracket": 'From: Bruno <"bruno@example.org>"@mallory.test>\n',
    "spaced comment": "From: bruno@example.org\t(x) @mallory.test\n",
    "a domain literal": "From: Bruno <bruno@[192.0.2.7]>\n",
}
ROUND_TWO = list(AMBIGUOUS_FROM.values())[8:]


@pytest.mark.parametrize("header", AMBIGUOUS_FROM.values(), ids=AMBIGUOUS_FROM.keys())
def test_an_ambiguous_from_header_is_reported(header):
    raw = (header + "To: gm@example.org\nSubject: Re: [game7] Turn 3\n\nHand 3: Baron on Chloé\n").encode()
    read = read_mail(raw)
    assert read.sender_problem, read
    assert "From" in read.sender_problem
    if header in ROUND_TWO:
        assert read.sender != "bruno@example.org"  # never the player's address


@pytest.mark.parametrize(
    "header",
    [
        "From: Bruno <bruno@example.org>\n",
        "From: bruno@example.org\n",
        'From: "bruno@example.org" <Bruno@Example.org>\n',  # the name repeats the address: one sender
        "From: bruno@example.org (Bruno Keller)\n",
        'From: "Keller, Bruno" <bruno@example.org>\n',
        'From: "bruno"@example.org\n',  # a quoted local part that is the plain one
        "From: Bruno <bruno(desk)@example.org>\n",  # a comment inside the address
        "From: Bruno <@relay.example:bruno@example.org>\n",  # an obsolete route
    ],
)
def test_a_plain_from_header_is_no_problem(header):
    read = read_mail((header + "Subject: x\n\nHand 3: Baron\n").encode())
    assert read.sender == "bruno@example.org" and read.sender_problem is None
