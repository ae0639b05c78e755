"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/quotes.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest

from pbem.reader import own_words

# A quoted turn mail: its lines look like orders and must never be read.
QUOTED = (
    "> Orders for turn 3 -- fill in one line per hand and reply to this mail:\n> Hand 3:\n> Hand 7:\n"
    ">\n> Your cards\n>   Hand  7: Guard, Prince   <- your turn\n"
)
ORDERS = "Hand 3: Baron on Bruno\nHand 7: Prince on myself"

# -- a dateless attribution right under the reply (a bug the mutants of _attribution_span showed) --

DATELESS = [
    "Rita wrote:",
    "Rita (pbem) wrote:",
    "Rita schrieb:",
    "Rita a écrit :",
    "Rita <gm@example.org> wrote:",
]


@pytest.mark.parametrize("attribution", DATELESS)
@pytest.mark.parametrize(
    "reply",
    [
        ORDERS,
        "Hand 3: Baron on Bruno\nI am away until the 10th.",
        "On second thought: H7 Prince on myself.",
        "Hand 3: Baron on Bruno\nOn Tuesday I leave, so: Hand 7: Prince on myself",
    ],
)
def test_the_reply_right_above_an_attribution_without_a_date_is_the_players(reply, attribution):
    """A client that writes no date ("Rita wrote:") right under the last line of the reply,
    no blank line between: the reply's lines are never joined to the attribution."""
    assert own_words(f"{reply}\n{attribution}\n{QUOTED}") == reply
