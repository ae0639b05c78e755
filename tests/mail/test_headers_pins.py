"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/headers.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest
from reader_kit import message

from pbem.reader import read_mail

ORDERS = "Hand 3: Baron on Bruno"


def _read(**kw):
    return read_mail(message(ORDERS, **kw))


# -- bugs found (each fixed, with this test first) --------------------------------------------------


@pytest.mark.parametrize(
    ("sender", "address", "name"),
    [
        ("O'Brien <o'brien@example.ie>", "o'brien@example.ie", "O'Brien"),
        ("o'brien@example.ie", "o'brien@example.ie", ""),
        ("\"Siobhan O'Neill\" <siobhan.o'neill@example.ie>", "siobhan.o'neill@example.ie", "Siobhan O'Neill"),
        ("x'bruno@example.org", "x'bruno@example.org", ""),  # a mailbox of its own, not bruno@
    ],
)
def test_an_apostrophe_in_the_local_part_is_part_of_the_address(sender, address, name):
    """RFC 5322 allows an apostrophe in a local part (and campaign.yaml accepts one): o'brien@
    is the player's address; it was read as brien@example.ie, someone else's mailbox."""
    read = _read(sender=sender)
    assert (read.sender, read.sender_name, read.sender_problem) == (address, name, None)


# -- the From header's shortcut (_simple_sender): the name as a person reads it --------------------


@pytest.mark.parametrize(
    ("sender", "name"),
    [
        ("Chloé Martin <chloe@example.fr>", "Chloé Martin"),
        ("Dominik =?UTF-8?Q?M=C3=BCller?= <dominik@example.de>", "Dominik Müller"),
        ('"Arthur Pendleton" <arthur@example.org>', "Arthur Pendleton"),
        ('"P." Ng <ng@example.sg>', "P. Ng"),
    ],
)
def test_a_display_name_of_several_words_is_read_whole(sender, name):
    read = _read(sender=sender)
    assert (read.sender, read.sender_name) == (sender.rpartition("<")[2].rstrip(">").lower(), name)


# -- the subject: its tag and turn -------------------------------------------------------------------


def test_a_turn_number_of_nine_digits_is_read_and_of_ten_ignored_with_a_note():
    read = _read(subject="Re: [game7] Turn 123456789")
    assert (read.tag, read.turn) == ("game7", 123456789)
    assert read.defects == ()
    read = _read(subject="Re: [game7] Turn 1234567890")
    assert (read.tag, read.turn) == ("game7", None)
    assert read.defects == ("the turn number in the subject is absurdly long; ignored it",)


def test_a_mail_without_a_subject_has_an_empty_one():
    raw = b"From: Bruno <bruno@example.org>\nMessage-ID: <b1@example.org>\n\nHand 3: Baron on Chloe\n"
    read = read_mail(raw)
    assert (read.subject, read.tag, read.turn) == ("", None, None)


def test_a_long_subject_is_read_to_its_4000th_character():
    subject = "Re: [game7] Turn 3 " + "very " * 1000
    read = _read(subject=subject)
    assert read.subject == subject[:4000].strip()
    assert (read.tag, read.turn) == ("game7", 3)


# -- message ids --------------------------------------------------------------------------------------


def test_a_message_id_without_brackets_is_kept_as_written():
    raw = message(ORDERS).replace(
        b"Message-ID: <reply-1@example.org>", b"Message-ID: reply-1@example.org (Bruno)"
    )
    assert read_mail(raw).message_id == "reply-1@example.org"


def test_a_comment_before_the_message_id_is_no_part_of_it():
    """RFC 5322 allows a comment around a msg-id; the id is what stands in the brackets (the
    replies to the GM's mail are matched by it)."""
    raw = message(ORDERS).replace(
        b"Message-ID: <reply-1@example.org>", b"Message-ID: (sent from my phone) <reply-1@example.org>"
    )
    assert read_mail(raw).message_id == "<reply-1@example.org>"


def test_a_folded_subject_and_from_are_read_on_one_line():
    """A client folds a long header onto the next line (a line break, then a space): the
    header is one line, the break no part of it."""
    raw = message(
        ORDERS, subject="Re: [game7]\n Turn 3: your cards", sender="Bruno\n Keller\n <bruno@example.org>"
    )
    read = read_mail(raw)
    assert (read.subject, read.tag, read.turn) == ("Re: [game7] Turn 3: your cards", "game7", 3)
    assert (read.sender, read.sender_name) == ("bruno@example.org", "Bruno Keller")


def test_a_folded_from_cut_short_is_quoted_to_the_gm_on_one_line():
    read = read_mail(message(ORDERS, sender="Bruno Keller\n <bruno@"))
    assert read.sender == ""
    assert read.sender_problem == "the From header 'Bruno Keller <bruno@' holds no plain name@domain address"


def test_a_display_name_that_decodes_to_two_lines_is_named_to_the_gm():
    """An encoded word hiding a line break in the name (=0A) is a crafted header: the name is
    read on one line, and the GM is told the From header is malformed."""
    read = _read(sender="=?utf-8?q?Bruno=0AKeller?= <bruno@example.org>")
    assert (read.sender, read.sender_name) == ("bruno@example.org", "Bruno Keller")
    assert "the From header is malformed" in read.defects


@pytest.mark.parametrize(
    "sender",
    [
        "=?utf-8?q?bruno?=@example.org",
        "Bruno <=?utf-8?q?bruno?=@example.org>",
        '"Bruno, K" <=?utf-8?q?bruno?=@example.org>',
    ],
)
def test_an_encoded_word_in_the_address_is_not_decoded(sender):
    """RFC 2047 forbids an encoded word in an address: "=?utf-8?q?bruno?=@example.org" is a
    mailbox of its own, delivered to as it stands, not bruno@example.org (policy.default
    decodes it, and the reader read the sender as bruno@example.org)."""
    read = _read(sender=sender)
    assert read.sender == "=?utf-8?q?bruno?=@example.org"


@pytest.mark.parametrize(
    "sender",
    [
        "Bruno (home) <=?utf-8?q?bruno?=@example.org>",
        '"Bruno \\"le Baron\\" Keller" <=?utf-8?q?bruno?=@example.org>',
        "=?utf-8?q?bruno?=@example.org (Bruno)",
    ],
)
def test_an_encoded_word_in_the_address_is_not_decoded_beside_a_comment_or_quoted_pair(sender):
    """The same mailbox of its own when the From header also holds a comment or a nickname in
    quotes (values the parser reads, not the reader's shortcut): policy.default decodes the
    address there too, and the reader must not take bruno@example.org from it."""
    read = _read(sender=sender)
    assert (read.sender, read.sender_problem) == ("=?utf-8?q?bruno?=@example.org", None)
