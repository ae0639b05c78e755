"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/policy.py (the seventh run).

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

from reader_kit import message

from pbem.reader import read_mail

ORDERS = "Hand 3: Baron on Bruno"


def test_a_plain_mail_is_read():
    """The shape every pin below varies: a plain mail's orders and sender."""
    read = read_mail(message(ORDERS, sender="Bruno <bruno@example.org>"))
    assert read.sender == "bruno@example.org"
