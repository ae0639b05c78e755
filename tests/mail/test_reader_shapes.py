"""Issue 19, items 8 to 11: reply shapes the reader got wrong, each as a class of fresh examples.

8. a reply line right above the attribution (no blank line), attributions wrapped over lines;
9. the player's words under a quoted forward, and a paragraph of theirs that starts
   "Original message";
10. header blocks of other clients (Tobit david, Android's squeezed "Reply message");
11. device footers, gateway banners, disclaimers, trackers in other languages, and quote
    prefixes other than ">".
"""

from __future__ import annotations

import pytest
from reader_kit import message

from pbem.reader import own_words, read_mail

# A quoted turn mail: its lines look like orders and must never be read.
QUOTED = "> Orders for turn 3 -- fill in one line per hand and reply to this mail:\n> Hand 3:\n> Hand 7:\n>\n> Your cards\n>   Hand  7: Guard, Prince   <- your turn\n"
# The same unquoted (an original under a header block).
BARE = "Orders for turn 3 -- fill in one line per hand and reply to this mail:\nHand 3:\nHand 7:\n\nYour cards\n  Hand  7: Guard, Prince   <- your turn\n"

ORDER = "Hand 3: Guard on Arthur, guess Prince"

# -- 8 -------------------------------------------------------------------------------------------

ATTRIBUTIONS = {
    "en": "On Sun, 29 Nov 2026 at 10:00, Rita <gm@example.org> wrote:",
    "en no address": "On Sun, 29 Nov 2026 at 10:00, Rita (pbem) wrote:",
    "de": "Am So., 29. Nov. 2026 um 10:00 Uhr schrieb Rita <gm@example.org>:",
    "de wrapped": "Am So., 29. Nov. 2026 um 10:00 Uhr schrieb Rita <\ngm@example.org>:",
    "nl": "Op zo 29 nov. 2026 om 10:00 schreef Rita <gm@example.org>:",
    "nl wrapped": "Op zo 29 nov. 2026 om 10:00 schreef Rita\n<gm@example.org>:",
    "fr wrapped": "Le dim. 29 nov. 2026 à 10:00, Rita <gm@example.org> a\nécrit :",
    "en wrapped in three": "On Sun, 29 Nov 2026 at 10:00,\nRita (pbem)\n<gm@example.org> wrote:",
}


@pytest.mark.parametrize("attribution", ATTRIBUTIONS.values(), ids=ATTRIBUTIONS.keys())
@pytest.mark.parametrize("gap", ["", "\n"], ids=["no blank line", "blank line"])
def test_a_reply_line_right_above_the_attribution_is_kept(attribution, gap):
    body = f"{ORDER}\n{gap}{attribution}\n{QUOTED}"
    assert own_words(body) == ORDER


@pytest.mark.parametrize("attribution", ATTRIBUTIONS.values(), ids=ATTRIBUTIONS.keys())
def test_two_reply_lines_right_above_the_attribution_are_kept(attribution):
    body = f"Sorry, late again.\nHand 7: Prince on myself\n{attribution}\n{QUOTED}"
    assert own_words(body) == "Sorry, late again.\nHand 7: Prince on myself"


def test_a_reply_line_above_an_attribution_over_the_unquoted_original_is_kept():
    body = f"{ORDER}\nOn Sun, 29 Nov 2026 at 10:00, Rita <gm@example.org> wrote:\n\n{BARE}"
    assert own_words(body) == ORDER


# -- 9 -------------------------------------------------------------------------------------------

FORWARD_SEPARATORS = [
    "Begin forwarded message:",
    "Forwarded message:",
    "---------- Forwarded message ---------",
    "-------- Weitergeleitete Nachricht --------",
    "Début du message réexpédié :",
]


@pytest.mark.parametrize("separator", FORWARD_SEPARATORS)
def test_the_players_words_under_a_quoted_forward_are_kept(separator):
    body = (
        f"Rita, my turn mail is below, I answer under it.\n\n{separator}\n\n"
        "> From: Rita <gm@example.org>\n> Subject: [game7] Turn 3\n> Date: 1 Dec 2026\n>\n"
        f"{QUOTED}\nHand 3: Baron on Bruno\nHand 7: Prince on myself\n"
    )
    assert own_words(body) == (
        "Rita, my turn mail is below, I answer under it.\n\nHand 3: Baron on Bruno\nHand 7: Prince on myself"
    )


@pytest.mark.parametrize("separator", FORWARD_SEPARATORS)
def test_an_unquoted_forward_still_ends_the_players_words(separator):
    body = f"FYI\n\n{separator}\nFrom: Rita <gm@example.org>\nDate: 1 Dec 2026\nSubject: x\n\n{BARE}"
    assert own_words(body) == "FYI"


@pytest.mark.parametrize(
    "paragraph",
    [
        "Original message was wrong, sorry.",
        "Original message: I wrote Guard, I meant Baron.",
        "Original Message - the one of yesterday - please ignore it.",
        "Forwarded message from Bruno: he wants a rematch.",
    ],
)
def test_a_paragraph_of_the_players_that_begins_like_a_separator_is_theirs(paragraph):
    body = f"Hand 3: Baron on Bruno\n\n{paragraph}\nHand 7: Prince on myself\n"
    assert own_words(body) == f"Hand 3: Baron on Bruno\n\n{paragraph}\nHand 7: Prince on myself"


# -- 10 ------------------------------------------------------------------------------------------

HEADER_BLOCKS = {
    "david": "[Original Message processed by david®]\n\nRe: [game7] Turn 3\n1. Dezember 2026, 10:00 Uhr\n"
    "Von:   Rita <gm@example.org>\nAn:   chloe@example.fr\nCc:\n",
    "david, no colons": " Original Message processed by david®\n\n Re: Turn 3\n 1. Dezember 2026, 10:00 Uhr\n"
    " Von  Rita <gm@example.org>\n An  chloe@example.fr\n",
    "android": "-----Reply message----- From: Rita <gm@example.org> To: Chloé <chloe@example.fr> "
    "Subject: [game7] Turn 3 Date: Tue, Dec 1, 2026 10:00",
    "android, German": "-----Ursprüngliche Nachricht----- Von: Rita <gm@example.org> An: Chloé "
    "Betreff: [game7] Turn 3 Datum: 1.12.2026 10:00",
    "outlook without address": "From: Rita (pbem)\nSent: Tuesday, December 1, 2026 10:00\nTo: Chloé\n",
}


@pytest.mark.parametrize("block", HEADER_BLOCKS.values(), ids=HEADER_BLOCKS.keys())
def test_header_blocks_of_other_clients_end_the_players_words(block):
    body = f"Hand 3: Baron on Bruno\n\n{block}\n\n{BARE}"
    assert own_words(body) == "Hand 3: Baron on Bruno"


# -- 11 ------------------------------------------------------------------------------------------

FOOTERS = [
    "發自我的iPhone",
    "发自我的iPhone",
    "從我的 iPhone 傳送",
    "iPhoneから送信",
    "Android端末から送信",
    "Von meinem iPhone gesendet",
    "Outlook für iOS beziehen",
    "Outlook für Android herunterladen<https://aka.ms/ghei36>",
    "Obtenir Outlook pour iOS",
    "ᐧ",
]


@pytest.mark.parametrize("footer", FOOTERS)
def test_device_footers_and_trackers_in_other_languages_go(footer):
    assert own_words(f"Hand 3: Baron on Bruno\n\n{footer}\n") == "Hand 3: Baron on Bruno"
    assert own_words(f"Hand 3: Baron on Bruno\n{footer}\n\n{QUOTED}") == "Hand 3: Baron on Bruno"


BANNERS = [
    "CAUTION: This email originated from outside of the organization. Do not click links or open "
    "attachments unless you recognize the sender and know the content is safe.",
    "[EXTERNAL] This message came from an external sender. Be careful with links and attachments.",
    "EXTERNAL EMAIL: This email originated from outside of the organisation.",
    "ACHTUNG: Diese E-Mail stammt von außerhalb der Organisation. Klicken Sie nicht auf Links.",
]


@pytest.mark.parametrize("banner", BANNERS)
def test_gateway_banners_go(banner):
    assert own_words(f"{banner}\n\nHand 3: Baron on Bruno\n") == "Hand 3: Baron on Bruno"


def test_a_players_sentence_about_caution_stays():
    body = "Caution: this email is my last before the holidays.\nHand 3: Baron on Bruno\n"
    assert own_words(body) == body.strip()


DISCLAIMERS = [
    "Disclaimer\nThis e-mail and any attachments are confidential and intended solely for the addressee.\n"
    "If you are not the intended recipient, please delete it.",
    "DISCLAIMER:\nThe information in this message is confidential.",
    "Haftungsausschluss:\nDiese E-Mail enthält vertrauliche Informationen.",
    "Disclaimer: This message and its attachments are confidential and may be privileged.",
]


@pytest.mark.parametrize("disclaimer", DISCLAIMERS)
def test_a_legal_disclaimer_under_its_heading_goes(disclaimer):
    body = f"Hand 3: Baron on Bruno\n\nThanks\n\n{disclaimer}\n"
    assert own_words(body) == "Hand 3: Baron on Bruno\n\nThanks"


def test_a_disclaimer_heading_above_orders_cuts_nothing():
    body = "Disclaimer: I have never played this before.\nHand 3: Baron on Bruno\n"
    assert own_words(body) == body.strip()


@pytest.mark.parametrize("prefix", ["| ", "|", "C> ", "RB> ", "  Rita> "])
def test_other_quote_prefixes_are_quotes(prefix):
    quoted = "\n".join(prefix + line for line in BARE.splitlines())
    body = f"Hand 3: Baron on Bruno\n\nRita wrote:\n{quoted}\n"
    assert own_words(body) == "Hand 3: Baron on Bruno"
    inline = "Rita wrote:\n" + f"{prefix}Hand 3:\nBaron on Bruno\n{prefix}Hand 7:\nPrince on myself\n"
    assert own_words(inline) == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"


def test_a_player_line_with_a_pipe_or_an_arrow_inside_stays():
    body = "Hand 3: Baron on Bruno | Hand 7: Prince\nH7> Prince on myself\n"
    assert own_words(body) == body.strip()


def test_a_whole_message_reads_the_orders_only():
    body = (
        f"{BANNERS[0]}\n\nHand 3: Baron on Bruno\n發自我的iPhone\n"
        "On Sun, 29 Nov 2026 at 10:00, Rita <gm@example.org> wrote:\n" + QUOTED
    )
    assert read_mail(message(body)).own_text == "Hand 3: Baron on Bruno"
