"""Tests of pbem.reader: quotes, attributions, originals, signatures, footers, inline answers.

Hand-written messages pin each rule (every test names what breaks if the rule breaks).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reader_kit import (
    ATTRIBUTION,
    FUZZ,
    TURN_HTML,
    TURN_MAIL,
    assert_no_lookalikes,
    html_message,
    inline_reply,
    message,
    quote,
    reply,
)

from pbem.reader import read_mail

# --------------------------------------------------------------------------------------------
# own_text: quotes, attributions, originals, signatures, footers
# --------------------------------------------------------------------------------------------


def own(body: str) -> str:
    return read_mail(message(body)).own_text


def test_top_posted_reply_drops_the_quote():
    read = read_mail(message(reply("Hand 3: Baron on Bruno\nHand 7: Prince on myself")))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert_no_lookalikes(read)
    assert TURN_MAIL.splitlines()[0] in read.full_text


def test_bottom_posted_reply_drops_the_quote():
    read = read_mail(message(reply("Hand 3: Baron on Bruno", top=False)))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert_no_lookalikes(read)


@pytest.mark.parametrize("prefix", ["> ", ">", "> > ", ">> ", "  > "])
def test_quotes_of_any_depth_are_dropped(prefix):
    body = "Hand 3: Baron\n" + quote("Hand 7: Guard on Bruno\nold words", prefix)
    assert own(body) == "Hand 3: Baron"


@pytest.mark.parametrize(
    "attribution",
    [
        "On Tue, 1 Dec 2026 at 10:00, Rita (pbem) <gm@example.org> wrote:",
        "On Tue, Dec 1, 2026 at 10:00 AM Rita (pbem) <gm@example.org>\nwrote:",
        "On 1 Dec 2026, at 10:00, Rita (pbem) <\ngm@example.org> wrote:",
        "Am Di., 1. Dez. 2026 um 10:00 Uhr schrieb Rita (pbem) <gm@example.org>:",
        "Am 01.12.2026 um 10:00 schrieb Rita:",
        "Le mar. 1 déc. 2026 à 10:00, Rita (pbem) <gm@example.org> a écrit :",
        "Le 1 déc. 2026 à 10:00, Rita (pbem) <gm@example.org> a\u00a0écrit\u00a0:",
        "El mar, 1 dic 2026 a las 10:00, Rita (pbem) (<gm@example.org>) escribió:",
        "Op di 1 dec. 2026 om 10:00 schreef Rita (pbem) <gm@example.org>:",
        "Den tir. 1. dec. 2026 kl. 10.00 skrev Rita (pbem) <gm@example.org>:",
        "Il giorno mar 1 dic 2026 alle ore 10:00 Rita (pbem) <gm@example.org> ha scritto:",
        "Rita (pbem) <gm@example.org> wrote:",
        "Rita (pbem) <gm@example.org> schrieb am Di., 1. Dez. 2026, 10:00:",
    ],
)
@pytest.mark.parametrize("top", [True, False])
def test_attribution_lines_are_dropped(attribution, top):
    quoted = attribution + "\n" + quote(TURN_MAIL)
    body = f"Hand 3: Baron on Bruno\n\n{quoted}\n" if top else f"{quoted}\n\nHand 3: Baron on Bruno\n"
    read = read_mail(message(body))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_attribution_followed_by_an_unquoted_original_cuts_it():
    body = f"Hand 3: Baron on Bruno\n\n{ATTRIBUTION}\n\n{TURN_MAIL}"
    read = read_mail(message(body))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_a_players_line_like_an_attribution_without_date_is_kept():
    body = "Am Ende schrieb ich:\nHand 3: Baron on Bruno\n"
    assert own(body) == "Am Ende schrieb ich:\nHand 3: Baron on Bruno"


def test_a_players_line_ending_in_wrote_is_kept_when_no_quote_follows():
    assert own("Hand 3: Baron\nBruno wrote:\nI will win") == "Hand 3: Baron\nBruno wrote:\nI will win"


@pytest.mark.parametrize(
    "block",
    [
        "From: Rita (pbem) <gm@example.org>\nSent: Tuesday, December 1, 2026 10:00 AM\nTo: Chloé\nSubject: [game7] Turn 3",
        "From: Rita (pbem) <gm@example.org>\nDate: Tuesday, December 1, 2026 at 10:00\nTo: Chloé <chloe@example.org>\nSubject: [game7] Turn 3",
        "*From:* Rita (pbem) <gm@example.org>\n*Sent:* Tuesday, December 1, 2026 10:00 AM\n*To:* Chloé",
        "Von: Rita (pbem) <gm@example.org>\nGesendet: Dienstag, 1. Dezember 2026 10:00\nAn: Chloé\nBetreff: [game7] Turn 3",
        "De : Rita (pbem) <gm@example.org>\nEnvoyé : mardi 1 décembre 2026 10:00\nÀ : Chloé\nObjet : [game7] Turn 3",
        "De: Rita (pbem) <gm@example.org>\nEnviado: martes, 1 de diciembre de 2026 10:00\nPara: Chloé\nAsunto: [game7] Turn 3",
        "-----Original Message-----\nFrom: Rita (pbem) [mailto:gm@example.org]\nSent: Tuesday\nSubject: x",
        "-----Ursprüngliche Nachricht-----\nVon: Rita",
        "________________________________\nFrom: Rita (pbem) <gm@example.org>",
        "---------- Forwarded message ---------\nFrom: Rita (pbem) <gm@example.org>\nDate: Tue",
        "Begin forwarded message:\n\nFrom: Rita (pbem) <gm@example.org>",
    ],
)
def test_unquoted_original_blocks_end_the_own_words(block):
    body = f"Hand 3: Baron on Bruno\n\n{block}\n\n{TURN_MAIL}"
    read = read_mail(message(body))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_a_lone_from_line_of_the_player_is_kept():
    assert own("From: Chloé, with love\nHand 3: Baron") == "From: Chloé, with love\nHand 3: Baron"


@pytest.mark.parametrize("separator", ["-- ", "--"])
def test_signature_is_dropped(separator):
    body = f"Hand 3: Baron on Bruno\n{separator}\nChloé Martin\nHand 9: nothing\n\n" + quote(TURN_MAIL)
    assert own(body) == "Hand 3: Baron on Bruno"


def test_double_dash_inside_a_line_is_not_a_signature():
    assert (
        own("Hand 3: Baron -- on Bruno\n---\nHand 7: Prince")
        == "Hand 3: Baron -- on Bruno\n---\nHand 7: Prince"
    )


@pytest.mark.parametrize(
    "footer",
    [
        "Sent from my iPhone",
        "Sent from my Android",
        "Sent from my Galaxy",
        "Sent from Outlook",
        "Sent from Yahoo Mail on Android",
        "Get Outlook for iOS",
        "Get Outlook for Android<https://aka.ms/AAb9ysg>",
        "Von meinem iPhone gesendet",
        "Envoyé de mon iPhone",
        "Enviado desde mi iPhone",
    ],
)
def test_mobile_footers_are_dropped(footer):
    assert own(f"Hand 3: Baron on Bruno\n\n{footer}\n") == "Hand 3: Baron on Bruno"


def test_web_de_header_block_starting_with_gesendet_is_cut():
    block = "Gesendet: Sonntag, 29. November 2026 um 19:00 Uhr\nVon: Rita <gm@example.org>\nAn: Chloé\nBetreff: [game7] Turn 3"
    assert own(f"Hand 3: Baron on Bruno\n\n{block}\n\n{TURN_MAIL}") == "Hand 3: Baron on Bruno"


def test_web_de_quote_div_is_quoted():
    markup = f'<div>Hand 3: Baron on Bruno</div><div name="quote"><div>Gesendet: heute</div>{TURN_HTML}</div>'
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_answers_typed_into_an_unmarked_outlook_original_are_taken():
    original = TURN_MAIL.replace("Hand 3:\n", "Hand 3: Baron on Bruno\n").replace(
        "Hand 7:\n", "Hand 7: Prince on myself\n"
    )
    block = "From: Rita (pbem) <gm@example.org>\nSent: Tuesday\nTo: Chloé\nSubject: [game7] Turn 3"
    read = read_mail(message(f"My orders are in the form below.\n\n{block}\n\n{original}"))
    assert (
        read.own_text
        == "My orders are in the form below.\n\nHand 3: Baron on Bruno\nHand 7: Prince on myself"
    )


def test_orders_above_an_unmarked_original_win_over_its_filled_form():
    original = TURN_MAIL.replace("Hand 3:\n", "Hand 3: Guard on Bruno, guess Prince\n").replace(
        "Hand 7:\n", "Hand 7: Prince on myself\n"
    )
    block = "From: Rita (pbem) <gm@example.org>\nSent: Tuesday\nTo: Chloé\nSubject: [game7] Turn 3"
    read = read_mail(message(f"Hand 3: Baron on Bruno\n\n{block}\n\n{original}"))
    assert read.own_text == "Hand 3: Baron on Bruno\n\nHand 7: Prince on myself"


def test_answers_typed_into_an_original_below_an_attribution_are_taken():
    original = TURN_MAIL.replace("Hand 7:\n", "Hand 7: Prince on myself\n")
    read = read_mail(message(f"Hand 3: Baron on Bruno\n\n{ATTRIBUTION}\n\n{original}"))
    assert read.own_text == "Hand 3: Baron on Bruno\n\nHand 7: Prince on myself"


def test_an_unmarked_original_with_a_blank_form_gives_nothing():
    block = "From: Rita (pbem) <gm@example.org>\nSent: Tuesday\nTo: Chloé\nSubject: [game7] Turn 3"
    unindented = TURN_MAIL.replace("  Hand  ", "Hand ")  # as HTML-to-text leaves the card list
    read = read_mail(message(f"Hand 3: Baron on Bruno\n\n{block}\n\n{unindented}"))
    assert read.own_text == "Hand 3: Baron on Bruno"


# --------------------------------------------------------------------------------------------
# own_text: inline answers under the quoted form
# --------------------------------------------------------------------------------------------


def test_inline_answers_get_their_hand():
    read = read_mail(message(inline_reply("Baron on Bruno", "Prince on myself")))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert "Examples" not in read.own_text


@pytest.mark.parametrize("blank_lines", [1, 2])
def test_inline_answers_after_blank_lines(blank_lines):
    read = read_mail(message(inline_reply("Baron on Bruno", "Prince on myself", blank_lines)))
    lines = [line for line in read.own_text.splitlines() if line]
    assert lines == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"]


def test_inline_answer_after_a_quoted_blank_line():
    body = "> Hand 3:\n>\n>\nBaron on Bruno\n"
    assert own(body) == "Hand 3: Baron on Bruno"


@pytest.mark.parametrize(
    "answer",
    [
        "Hand 3: Baron on Bruno",
        "h3 Baron on Bruno",
        "3: Baron on Bruno",
        "HAND 3 - Baron",
    ],
)
def test_inline_answer_that_names_its_hand_is_kept_as_is(answer):
    read = read_mail(message(inline_reply(answer, None)))
    assert read.own_text == answer


def test_inline_answer_only_for_the_hand_answered():
    read = read_mail(message(inline_reply(None, "Prince on myself")))
    assert read.own_text == "Hand 7: Prince on myself"


def test_form_line_variants_and_nested_quotes():
    body = "> > hand 3 -\nBaron on Bruno\n> H7.\nPrince on me\n"
    assert own(body) == "Hand 3: Baron on Bruno\nHand 7: Prince on me"


def test_a_quoted_content_line_between_form_and_text_breaks_the_link():
    body = '> Hand 7:\n>\n> Examples: "Hand 3: Guard on Bruno"\n\nThanks, see you\n'
    assert own(body) == "Thanks, see you"


def test_form_edited_in_place_is_still_quoted_and_not_taken():
    quoted = quote(TURN_MAIL).replace("> Hand 3:\n", "> Hand 3: Guard on Bruno, guess Prince\n")
    read = read_mail(message("See my orders below.\n\n" + ATTRIBUTION + "\n" + quoted))
    assert read.own_text == "See my orders below."


def test_footer_and_attribution_do_not_take_the_pending_hand():
    body = "> Hand 3:\n\nSent from my iPhone\nBaron on Bruno\n"
    assert own(body) == "Hand 3: Baron on Bruno"


# --------------------------------------------------------------------------------------------
# own_text: layout
# --------------------------------------------------------------------------------------------


def test_own_lines_are_not_reflowed_and_trailing_space_is_stripped():
    long_line = "Hand 3: Guard on Bruno, guess Prince, because " + "I am sure " * 20
    body = f"{long_line.rstrip()}   \n    indented line\t\nshort\n"
    assert own(body) == f"{long_line.rstrip()}\n    indented line\nshort"


def test_runs_of_blank_lines_are_collapsed():
    assert own("Hand 3: Baron\n\n\n\n\n\nHand 7: Prince\n\nbye") == "Hand 3: Baron\n\nHand 7: Prince\n\nbye"


def test_own_text_has_no_leading_or_trailing_blank_lines():
    assert own("\n\n\nHand 3: Baron\n\n\n") == "Hand 3: Baron"


def test_readmail_is_frozen():
    read = read_mail(message("Hand 3: Baron"))
    with pytest.raises(AttributeError):
        read.sender = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    "answer",
    [
        "Hand #3: Baron on Bruno",
        "* Hand 3: Baron on Bruno",
        "\u2022 H3 Baron on Bruno",
        "- hand 3 - Baron on Bruno",
    ],
)
def test_an_answer_under_a_form_line_that_names_another_hand_keeps_its_own(answer):
    """One grammar for hand references (pbem.grammar): the reader must see the hand the order
    parser sees, or it files the order under the form line above it ("Hand 7: Hand #3: ...")."""
    from pbem.orders import parse_orders

    read = read_mail(message(f"> Hand 7:\n{answer}\n"))
    assert read.own_text == answer
    orders = parse_orders(read.own_text, ["Arthur", "Bruno", "Chloé"], "Chloé").orders
    assert [(order.hand, order.card.title, order.target) for order in orders] == [(3, "Baron", "Bruno")]


PIECES = [
    "",
    "Hand 3: Baron on Bruno",
    "H7 Prince on myself",
    "> Hand 3:",
    ">",
    "> Your cards",
    "Guard on Bruno",
    "On Tue, 1 Dec 2026 at 10:00, Rita <gm@example.org> wrote:",
    "reply On Tue, 1 Dec 2026, Rita <gm@example.org> wrote:",
    "Von: Rita",
    "Gesendet: 1.12.2026",
    "An: Chloé",
    "Betreff: x",
    "-----",
    "====",
    "Regards,",
    "Chloé Martin",
    "Sent from my iPhone",
    "2026-12-01 10:00 GMT+01:00 Rita <gm@example.org>:",
    "发件人: Rita",
    "发送时间: 2026年",
    "-- ",
    "Hand 10: Handmaid, Countess      <- your turn",
    "Orders for turn 3 -- reply to this mail:",
    "Hand 11:",
    "Hand 11: Countess",
    "---- Rita wrote ----",
    "Thanks,",
]


@FUZZ
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.lists(st.sampled_from(PIECES), max_size=20))
def test_own_words_keep_only_words_of_the_body(body_lines, sent_lines):
    """Whatever the mix, own_words never invents a line: each is a body line, a part of one
    (reply text before an attribution), or an inline answer given its hand."""
    from pbem.reader import own_words

    body = "\n".join(body_lines)
    for answering in ((), ["\n".join(sent_lines)]):
        for line in own_words(body, answering).split("\n"):
            bare = re.sub(r"^Hand \d+: ", "", line.strip())
            assert not line.strip() or any(bare in source for source in body_lines), (line, body)


@FUZZ
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.lists(st.sampled_from(PIECES), max_size=20))
def test_knowing_the_sent_mail_later_reads_the_same_orders(body_lines, sent_lines):
    """The inbox learns which mail a reply answers after reading it (ReadMail.answering): the
    orders read then are those a reading that knew it from the start gives."""
    from pbem.orders import parse_orders
    from pbem.reader import own_words
    from pbem.reader.quotes import drop_sent_words, own_words_read

    body, sent = "\n".join(body_lines), ["\n".join(sent_lines)]
    own, answers_below = own_words_read(body)
    later = drop_sent_words(own, sent, None, answers_below, body)  # as ReadMail.answering calls it
    at_once = own_words(body, sent)
    players = ["Bruno", "Chloé", "Rita"]
    assert parse_orders(later, players, "Chloé").orders == parse_orders(at_once, players, "Chloé").orders
