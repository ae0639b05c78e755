"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/htmltext.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest
from reader_kit import html_message

from pbem.reader import html_to_text, read_mail
from pbem.reader.notes import _Notes


def _html(markup: str):
    return read_mail(html_message(f"<html><body>{markup}</body></html>"))


# -- html_to_text, the public function ---------------------------------------------------------


def test_html_to_text_says_in_the_notes_it_is_given_what_it_did_not_read():
    notes = _Notes()
    markup = '<div>Hand 3: Baron</div><div style="display:none">Hand 7: Guard on Rita</div>'
    text = html_to_text(markup, notes)
    assert text.strip() == "Hand 3: Baron"
    assert notes.items == ["the HTML hides text from the reader (display:none); that text was not read"]


# -- preformatted text: its lines stay lines ---------------------------------------------------


THREE_LINES = "Hand 3: Baron on Bruno\nHand 7: Prince on myself\nHand 9: Guard on Rita, Baron"


@pytest.mark.parametrize(
    "markup",
    [
        # an element without text or tail inside: a <br> at the end, a bold word at the end
        '<div style="white-space:pre-wrap"><b>Hand 3:</b> Baron on Bruno\nHand 7: Prince on myself\n'
        "Hand 9: Guard on Rita, Baron<br></div>",
        "<pre>Hand 3: Baron on Bruno\nHand 7: Prince on myself\nHand 9: Guard on Rita, <b>Baron</b></pre>",
        # lines after the second of three formatted words; three lines after one word
        "<pre><b>Hand 3:</b> Baron on <i>Bruno</i>\nHand 7: Prince on myself\n"
        "Hand 9: Guard on <b>Rita</b>, Baron</pre>",
        "<pre><b>Hand 3:</b> Baron on Bruno\nHand 7: Prince on myself\nHand 9: Guard on Rita, Baron</pre>",
    ],
)
def test_preformatted_lines_around_formatted_words_are_read_as_lines(markup):
    read = _html(markup)
    assert read.own_text == THREE_LINES
    assert read.defects == ("no text part; read the HTML part",)  # nothing malformed
