"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/quotes.py (the functions other than own_words_read, and the quoted form's).

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest
from reader_kit import ATTRIBUTION, TURN_MAIL, message, quote

from pbem.reader import own_words, read_mail

SENT = [TURN_MAIL]


def filled(three: str | None = "Baron on Bruno", seven: str | None = "Prince on myself") -> str:
    """The turn mail with answers typed after its form lines."""
    text = TURN_MAIL
    if three is not None:
        text = text.replace("\nHand 3:\n", f"\nHand 3: {three}\n")
    if seven is not None:
        text = text.replace("\nHand 7:\n", f"\nHand 7: {seven}\n")
    return text


# -- a blank form line quoted at any depth (_quoted_form_hand) ------------------------------------


@pytest.mark.parametrize("depth", [1, 2, 36, 40])
def test_a_blank_form_line_quoted_deep_in_a_long_thread_awaits_the_answer_under_it(depth):
    """A thread of forty replies quotes the form forty deep: the line the player types under
    its blank "Hand 3:" answers hand 3, as under a form quoted once (the line grows past 80
    characters, and is still a blank form line)."""
    marks = "> " * depth
    body = f"{marks}Hand 3:\nBaron on Bruno\n{marks}Hand 7:\nPrince on myself\n"
    assert own_words(body) == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"


# -- answers typed on the quoted form (_answers_on_quoted_form) -----------------------------------

INTRO = "Orders for turn 3 -- fill in one line per hand and reply to this mail:"


def test_answers_on_the_quoted_form_are_read_under_a_reply_that_opens_with_the_forms_intro():
    """The player copied the form's intro line as the first line of the reply: the form
    quoted below still holds their answers."""
    body = f"{INTRO} see below.\n\n{ATTRIBUTION}\n{quote(filled())}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines()[-2:] == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"], own


def test_answers_on_the_quoted_form_are_read_under_a_long_german_reply():
    """Casefolding makes each "ß" two letters: under a long German letter the form is
    found at a place some hundred characters further down than it is."""
    letter = "Grüße aus der Straße, ich weiß nicht, ob das heißt, dass Bruno groß spielt.\n" * 20
    body = f"{letter}\n{ATTRIBUTION}\n{quote(filled())}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines()[-2:] == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"], own
