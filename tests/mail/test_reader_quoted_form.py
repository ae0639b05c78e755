"""Orders typed on the quoted form lines themselves (issue 19: no line lost).

A player who clicks into the quoted turn mail and types after "Hand 3:" leaves the answer
inside the quote: Gmail's web client puts it in the blockquote, Thunderbird's plain text
editor continues the quoted line, so the reply carries "> Hand 3: Baron on Bruno". Knowing
the turn mail, whose form lines are blank, such a line is the player's. What must never be
read: the player's own earlier words quoted in a reply to their own mail, an order
quoted one level deeper, a report's lines, the form's lines the tool sent.
"""

from __future__ import annotations

import pytest
from reader_kit import ATTRIBUTION, TURN_MAIL, html_message, message, quote

from pbem.reader import read_mail

SENT = [TURN_MAIL]


def filled(
    text: str = TURN_MAIL, three: str | None = "Baron on Bruno", seven: str | None = "Prince on myself"
) -> str:
    """The turn mail with answers typed after its form lines."""
    if three is not None:
        text = text.replace("\nHand 3:\n", f"\nHand 3: {three}\n")
    if seven is not None:
        text = text.replace("\nHand 7:\n", f"\nHand 7: {seven}\n")
    return text


@pytest.mark.parametrize(
    "body",
    [
        f"Here you go\n\n{ATTRIBUTION}\n{quote(filled())}\n",  # Gmail plain text, words above
        f"{ATTRIBUTION}\n{quote(filled())}\n",  # nothing above the quote
        f"{ATTRIBUTION}\n{quote(filled(), prefix='>')}\n",  # Thunderbird: ">" with no space
        f"Orders in the form below.\n\nRita wrote:\n{quote(filled())}\n\nChloé\n",
    ],
)
def test_answers_typed_on_the_quoted_form_lines_are_read(body):
    own = read_mail(message(body), answering=SENT).own_text
    assert "Hand 3: Baron on Bruno" in own and "Hand 7: Prince on myself" in own, own


def test_an_answer_typed_on_one_quoted_form_line_is_read_beside_the_blank_one():
    body = f"{ATTRIBUTION}\n{quote(filled(seven=None))}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own == "Hand 3: Baron on Bruno"


def test_answers_typed_into_gmails_html_blockquote_are_read():
    quoted = filled().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>\n")
    markup = (
        '<div dir="ltr">See below</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
        f'{ATTRIBUTION}<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;'
        f'border-left:1px solid rgb(204,204,204);padding-left:1ex">{quoted}</blockquote></div>'
    )
    own = read_mail(html_message(markup), answering=SENT).own_text
    assert "Hand 3: Baron on Bruno" in own and "Hand 7: Prince on myself" in own, own


def test_an_order_written_above_the_quote_stands_over_the_quoted_form_line():
    body = f"Hand 3: Guard on Dario, guess Prince\n\n{ATTRIBUTION}\n{quote(filled())}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines() == ["Hand 3: Guard on Dario, guess Prince", "Hand 7: Prince on myself"]


# -- what must never be read ------------------------------------------------------------------


def test_without_the_turn_mail_a_quoted_form_line_is_not_read():
    body = f"Here you go\n\n{ATTRIBUTION}\n{quote(filled())}\n"
    assert read_mail(message(body)).own_text == "Here you go"


def test_the_players_earlier_words_quoted_in_a_reply_to_their_own_mail_are_not_read_again():
    earlier = f"Hand 3: Guard on Dario, guess Prince\n\n{ATTRIBUTION}\n{quote(TURN_MAIL)}"
    body = f"Hand 7: King on Bruno\n\nOn Tue, 1 Dec 2026 at 11:00, Chloé <chloe@example.org> wrote:\n{quote(earlier)}\n"
    assert read_mail(message(body), answering=SENT).own_text == "Hand 7: King on Bruno"


def test_a_filled_form_quoted_one_level_deeper_is_not_read_again():
    earlier = f"{ATTRIBUTION}\n{quote(filled())}"  # the player's earlier reply, answers in the quote
    body = f"Hand 7: King on Bruno\n\nOn Tue, 1 Dec 2026 at 11:00, Chloé <chloe@example.org> wrote:\n{quote(earlier)}\n"
    assert read_mail(message(body), answering=SENT).own_text == "Hand 7: King on Bruno"


def test_lines_of_a_report_under_a_line_ending_in_a_colon_are_not_read():
    report = "Turn 2 results:\nHand 3: Chloé played the Guard on Bruno, guessing Prince: wrong.\nHand 7: Bruno played the Handmaid."
    sent = [report, TURN_MAIL]
    body = f"Thanks!\n\n{ATTRIBUTION}\n{quote(report)}\n"
    assert read_mail(message(body), answering=sent).own_text == "Thanks!"


def test_a_form_line_filled_in_the_mail_the_tool_sent_is_the_tools():
    sent_filled = filled(three="Baron on Bruno (on file)", seven=None)  # an acknowledgement's echo
    body = f"Is the deadline Thursday?\n\n{ATTRIBUTION}\n{quote(sent_filled)}\n"
    assert (
        read_mail(message(body), answering=[sent_filled, TURN_MAIL]).own_text == "Is the deadline Thursday?"
    )


def test_a_quoted_line_under_something_else_than_the_forms_intro_is_not_read():
    body = f"{ATTRIBUTION}\n> I think:\n> Hand 3: Baron on Bruno\n>\n{quote(TURN_MAIL)}\n"
    assert read_mail(message(body), answering=SENT).own_text == ""


def test_answers_on_the_quoted_form_are_read_under_words_that_casefold_longer():
    body = f"Viele Grüße aus der Straße (ß folds to ss)\n\n{ATTRIBUTION}\n{quote(filled())}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines()[1:] == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"], own
