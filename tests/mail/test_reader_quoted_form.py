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
    text: str = TURN_MAIL,
    three: str | None = "Baron on Bruno",
    seven: str | None = "Prince on myself",
    between: str = " ",
) -> str:
    """The turn mail with answers typed after its form lines (``between="\\n"``: on the line
    under each)."""
    if three is not None:
        text = text.replace("\nHand 3:\n", f"\nHand 3:{between}{three}\n")
    if seven is not None:
        text = text.replace("\nHand 7:\n", f"\nHand 7:{between}{seven}\n")
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


# -- answers under the form lines of an original that has no quote marks (Outlook) ----------------

OUTLOOK_HEADER = (
    "-----Original Message-----\nFrom: Rita (pbem) <gm@example.org>\n"
    "Sent: Tuesday, December 1, 2026 10:00 AM\nTo: Chloé Martin <chloe@example.org>\n"
    "Subject: [game7] Turn 3: your cards and orders\n\n"
)


def under(
    text: str = TURN_MAIL, three: str | None = "Baron on Bruno", seven: str | None = "Prince on myself"
) -> str:
    """The turn mail with answers typed on the line under its form lines."""
    return filled(text, three, seven, between="\n")


@pytest.mark.parametrize(
    "original",
    [
        under(),  # Enter pressed after "Hand 3:"
        under(three="\nBaron on Bruno\n", seven="\nPrince on myself\n"),  # a paragraph of its own
        under(three="[Chloé Martin] Baron on Bruno", seven="[Chloé Martin] Prince on myself"),  # marked
    ],
)
def test_answers_under_the_form_lines_of_an_unmarked_original_are_read(original):
    own = read_mail(message(f"See my answers inline.\n\n{OUTLOOK_HEADER}{original}"), answering=SENT).own_text
    assert own.splitlines()[0] == "See my answers inline."
    assert "Baron on Bruno" in own.split("Hand 3:")[1].splitlines()[0], own
    assert "Prince on myself" in own.split("Hand 7:")[1].splitlines()[0], own


@pytest.mark.parametrize(
    "body",
    [
        OUTLOOK_HEADER + TURN_MAIL,  # nothing typed: the line after the form is the tool's
        f"Thanks, nothing yet.\n\n{OUTLOOK_HEADER}{TURN_MAIL}",
        # A quoted line under an unmarked form line is a quote, not an answer.
        OUTLOOK_HEADER + TURN_MAIL.replace("\nHand 3:\n", "\nHand 3:\n> Baron on Bruno\n"),
    ],
)
def test_nothing_under_an_unmarked_blank_form_is_read_as_an_answer(body):
    own = read_mail(message(body), answering=SENT).own_text
    assert "Hand 3" not in own and "Hand 7" not in own, own


def test_an_answer_under_an_unmarked_form_line_gives_way_to_the_order_above_the_original():
    body = f"Hand 3: Guard on Dario, guess Priest\n\n{OUTLOOK_HEADER}{under()}"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines() == ["Hand 3: Guard on Dario, guess Priest", "Hand 7: Prince on myself"]


def test_an_answer_under_a_form_line_is_read_only_knowing_the_mail_sent():
    own = read_mail(message(f"See my answers inline.\n\n{OUTLOOK_HEADER}{under()}")).own_text
    assert own == "See my answers inline."


def test_an_answer_typed_in_the_quote_under_its_form_line_is_read():
    body = f"{ATTRIBUTION}\n{quote(under())}\n"  # "> Hand 3:" then "> Baron on Bruno"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines() == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"]


def test_an_answer_under_a_form_line_of_outlooks_html_original_is_read():
    original = "".join(
        f"<div>{line}</div>" if line else "<div>&nbsp;</div>"
        for line in under(three='<span style="color:#C00000">[Chloé Martin] Baron on Bruno</span>').split(
            "\n"
        )
    )
    markup = (
        '<html><body><div>My answers inline.</div><div id="appendonsend"></div>'
        '<hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri">'
        "<b>From:</b> Rita &lt;gm@example.org&gt;<br><b>Sent:</b> Tuesday, December 1, 2026 10:00<br>"
        "<b>To:</b> Chloé Martin<br><b>Subject:</b> [game7] Turn 3</font><div>&nbsp;</div></div>"
        f"{original}</body></html>"
    )
    own = read_mail(html_message(markup), answering=SENT).own_text
    assert own.splitlines() == [
        "My answers inline.",
        "Hand 3: [Chloé Martin] Baron on Bruno",
        "Hand 7: Prince on myself",
    ]


@pytest.mark.parametrize(
    "body",
    [
        # Quoted twice: the player's earlier answer, quoted again in a reply to their own mail.
        f"{ATTRIBUTION}\n{quote(quote(under()))}\n",
        # Under a quoted form line, a line quoted deeper, or one typed outside the quote (that
        # one is the player's own text, read as such, not as the form's answer).
        f"{ATTRIBUTION}\n" + quote(TURN_MAIL).replace("> Hand 3:\n", "> Hand 3:\n>> Baron on Bruno\n"),
        # The turn mail quoted with nothing typed: the line after its form is the tool's.
        f"Not yet.\n\n{ATTRIBUTION}\n{quote(TURN_MAIL)}\n",
    ],
)
def test_nothing_under_a_quoted_form_line_that_is_not_the_players_answer_is_read(body):
    own = read_mail(message(body), answering=SENT).own_text
    assert "Hand 3" not in own and "Hand 7" not in own, own


@pytest.mark.parametrize(
    "own",
    [
        # The player's own copy of the form, some lines blank, above the quoted mail: a blank
        # line of theirs is no form of the tool's, and the attribution under it no answer
        # (before, "Hand 7:" left blank took the attribution: "1 Dec" read as a Guard).
        "Orders for turn 3:\nHand 3: Baron on Bruno\nHand 7:\n\n",
        "Hand 3: Baron on Bruno\nHand 7:\n",
        "Hand 3:\nHand 7:\n\n",
        # The form's own intro copied too: an attribution, a rule or a header line under a
        # blank form line is the quote's, never the answer.
        "Orders for turn 3 -- fill in one line per hand and reply to this mail:\nHand 3: Baron on Bruno\nHand 7:\n\n",
    ],
)
def test_a_blank_form_line_of_the_players_own_copy_takes_no_line_of_the_quote_as_its_answer(own):
    header_block = (
        "From: Rita <gm@example.org>\nSent: Tuesday, 1 December 2026 10:00\nTo: Chloé\nSubject: Turn 3"
    )
    for under_it in (ATTRIBUTION, "-----Original Message-----", header_block):
        body = f"{own}{under_it}\n{quote(TURN_MAIL)}\n"
        read = read_mail(message(body), answering=SENT).own_text
        assert not any(
            line.startswith("Hand 7:") and line.strip() != "Hand 7:" for line in read.split("\n")
        ), read
