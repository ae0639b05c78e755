"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/htmltext.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest
from reader_kit import html_message

from pbem.reader import UnreadableMail, html_to_text, read_mail
from pbem.reader.notes import _Notes


def _html(markup: str):
    return read_mail(html_message(f"<html><body>{markup}</body></html>"))


def _html_raw(markup: str):
    return read_mail(html_message(markup))


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


# -- what the HTML parser gives nothing for ------------------------------------------------------


@pytest.mark.parametrize("markup", ["<!DOCTYPE html>", "<!-- Hand 3: Baron on Bruno -->"])
def test_html_that_holds_no_element_is_an_empty_mail(markup):
    """A doctype alone, or an order commented out: nothing a client shows."""
    with pytest.raises(UnreadableMail, match="Your message is empty"):
        read_mail(html_message(markup))


# -- markup after a closing </html> ------------------------------------------------------------


def test_text_after_the_closing_html_tag_is_read_as_a_browser_shows_it():
    """Browsers show what follows </html> at the end of the body (a footer some servers
    append, a client's broken markup); libxml2 leaves it in a second top-level element."""
    read = read_mail(
        html_message(
            "<html><head><style>.o{display:none}</style></head><body><div>Hand 3: Baron on Bruno</div>"
            '</body></html><div>Hand 7: Prince on myself</div><div class="o">Hand 9: Guard</div>'
        )
    )
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert "the HTML hides text from the reader (display:none); that text was not read" in read.defects


def test_outlooks_original_after_the_closing_html_tag_is_quoted():
    read = read_mail(
        html_message(
            '<html><body><div>Hand 3: Baron on Bruno</div><div id="appendonsend"></div></body></html>'
            '<div id="divRplyFwdMsg">From: Rita (pbem)</div><div>Hand 3:<br>Hand 7:</div>'
        )
    )
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert "> Hand 7:" in read.full_text


def test_what_follows_the_closing_body_tag_below_outlooks_original_is_quoted_with_it():
    """Outlook's original runs to the end of what a browser shows: a footer after </body>
    (or after </html>) comes below it, so it is quoted too; the player's own text stays."""
    after_body = "</body>Hand 9: Guard on Rita<p>Hand 9: Baron</p></html>"
    for after in (after_body, "</body></html><p>Hand 9: Baron</p>"):
        read = read_mail(
            html_message(
                '<html><body><div>Hand 3: Baron on Bruno</div><div id="appendonsend"></div>'
                f'<div id="divRplyFwdMsg">From: Rita (pbem)</div><div>Hand 3:<br>Hand 7:</div>{after}'
            )
        )
        assert read.own_text == "Hand 3: Baron on Bruno", after
        assert "> Hand 9: Baron" in read.full_text.split("\n"), after


def test_text_after_the_closing_body_tag_is_read_after_the_body():
    read = _html_raw("<html><body><div>Hand 3: Baron on Bruno</div></body>Hand 7: Prince on myself</html>")
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"


@pytest.mark.parametrize("tag", ["html", "body"])
def test_an_outlook_marker_on_the_page_itself_quotes_nothing(tag):
    """The marker on the <html> or <body> element would make the whole page the original:
    no client writes that; the page is read as the player's, whole and without a note."""
    markup = "<html><body><div>Hand 3: Baron on Bruno</div><div>Hand 7: Prince on myself</div></body></html>"
    read = _html_raw(markup.replace(f"<{tag}>", f'<{tag} id="divRplyFwdMsg">'))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert read.defects == ("no text part; read the HTML part",)


def test_a_page_of_a_head_alone_is_empty_whatever_its_ids():
    """A title is no text of the page (a client shows none), even with Outlook's id on it."""
    with pytest.raises(UnreadableMail, match="Your message is empty"):
        _html_raw('<html id="appendonsend"><head><title>Hand 3: Baron</title></head></html>')


# -- quotes and signatures inside a line of the player's ------------------------------------


def test_a_quote_inside_a_line_stands_apart_from_the_text_around_it():
    """A client that quotes inside the player's paragraph (the answer typed around the
    quote): the quote is a block of its own, the text after it a line of its own, with no
    space left over at its start, nor a line glued to the quote."""
    read = _html(
        "<div>Hand 3: Baron on Bruno <blockquote>Hand 7:</blockquote> Hand 7: Prince on myself</div>"
    )
    assert read.full_text == "Hand 3: Baron on Bruno\n\n> Hand 7:\n\nHand 7: Prince on myself"
    assert read.own_text == "Hand 3: Baron on Bruno\n\nHand 7: Prince on myself"
    read = _html('<div>Hand 3: Baron on Bruno <span class="gmail_signature">Max</span></div>')
    assert read.full_text == "Hand 3: Baron on Bruno\n\n--\nMax"


def test_gmails_quote_block_without_a_blockquote_is_quoted_whatever_it_holds():
    """Gmail's div.gmail_quote is the quote when no blockquote is inside (a forward): also
    when its lines are elements of their own, not only text and <br>."""
    read = _html(
        '<div>Hand 7: Prince</div><div class="gmail_quote"><div>Rita wrote:</div><div>Hand 3:</div></div>'
    )
    assert read.full_text == "Hand 7: Prince\n\n> Rita wrote:\n> Hand 3:"


def test_html_to_text_reads_a_lone_surrogate_as_a_question_mark():
    """A str that holds a lone surrogate (bytes decoded with "surrogateescape") is no
    error: the character is replaced, the rest read."""
    assert html_to_text("<p>Hand 3: Baron on Bruno\udce9</p>") == "Hand 3: Baron on Bruno?"
