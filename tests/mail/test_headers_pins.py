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
