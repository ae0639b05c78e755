"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/quotes.py.

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest

from pbem.reader import own_words
from pbem.reader.quotes import drop_sent_words

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


# -- a rule line above a signature, a list or the player's words ----------------------------------


def test_a_reply_with_no_order_keeps_its_words_above_a_signature_under_a_rule():
    """No order anywhere: the rule closes the player's words and the signature goes."""
    body = "Please skip me this turn, I am travelling.\n\n____\nChloé Martin\n+33 1 23 45 67 89"
    assert own_words(body) == "Please skip me this turn, I am travelling."


def test_an_empty_reply_with_only_a_signature_under_a_rule_has_no_words():
    assert own_words("____\nChloé Martin\n+33 1 23 45 67 89\n") == ""


def test_an_order_framed_by_rule_lines_is_kept():
    """ "-----" above and below the only order: the rule above it closes nothing."""
    assert own_words("-----\nHand 3: Baron on Bruno\n-----") == "-----\nHand 3: Baron on Bruno"


SIGNATURE = [
    "Chloé Martin",
    "Senior Engineer",
    "Example Industries",
    "12 rue de la Paix",
    "75002 Paris",
    "France",
    "Phone +33 1 23 45 67 89",
    "Fax +33 1 23 45 67 80",
    "Mobile +33 6 12 34 56 78",
    "https://example.org",
    "Mastodon @chloe@example.social",
    "LinkedIn chloe-martin",
]


def test_a_signature_of_twelve_lines_under_a_rule_goes():
    body = "Thanks, see you next turn!\n\n----\n" + "\n".join(SIGNATURE)
    assert own_words(body) == "Thanks, see you next turn!"


def test_thirteen_short_lines_under_a_rule_are_the_players_list():
    """More lines than a signature has: the player's list (the cards seen so far) stays."""
    cards = ["Guard", "Guard", "Priest", "Baron", "Handmaid", "Prince", "Guard"]
    cards += ["King", "Countess", "Guard", "Priest", "Baron", "Princess"]
    body = "The cards I have seen so far:\n----\n" + "\n".join(cards)
    assert own_words(body) == body


def test_a_signature_under_a_rule_goes_after_a_long_reply():
    """The player's words above the rule are long (60 lines): the signature under it still goes."""
    words = "\n".join(f"Line {n} of my long letter about the game" for n in range(60))
    body = f"{words}\n\n----\nChloé Martin\nParis"
    assert own_words(body) == words


@pytest.mark.parametrize(("below", "cut"), [(40, True), (41, False)])
def test_a_signature_block_is_at_most_forty_lines_with_its_blank_lines(below, cut):
    """The limit of a signature block under a rule: 40 lines (blank ones too, as HTML to
    text leaves them) from the rule's next line to the end."""
    block = "\n".join(["Chloé Martin", "Paris"] + [""] * (below - 2))
    body = f"Thanks, see you next turn!\n\n----\n{block}"
    assert own_words(body) == ("Thanks, see you next turn!" if cut else body.rstrip("\n"))


@pytest.mark.parametrize(("width", "cut"), [(80, True), (81, False)])
def test_a_signature_line_is_at_most_eighty_characters(width, cut):
    line = ("Example Industries, 12 rue de la Paix, 75002 Paris, France, " + "x" * 40)[:width]
    body = f"Thanks, see you next turn!\n\n----\nChloé Martin\n{line}"
    assert own_words(body) == ("Thanks, see you next turn!" if cut else body)


@pytest.mark.parametrize(
    "sentence", ["Anyone up for a rematch?", "Good game, all!", "My plan for next turn:"]
)
def test_a_line_ending_like_a_sentence_under_a_rule_is_the_players(sentence):
    """A Markdown rule between paragraphs: the line under it ends like a sentence (".", "?",
    "!", ":"), so it is the player's, not a signature."""
    body = f"Thanks, see you next turn!\n\n----\n{sentence}"
    assert own_words(body) == body


# -- a device footer ---------------------------------------------------------------------------


def test_a_line_typed_right_under_a_device_footer_is_the_players():
    """No blank line between the footer and the next line: the player typed it (Outlook
    mobile sets its original apart with a blank line)."""
    body = "Hand 3: Baron on Bruno\n\nSent from my iPhone\nP.S. Hand 7: Prince on myself"
    assert own_words(body) == "Hand 3: Baron on Bruno\n\nP.S. Hand 7: Prince on myself"


# -- the tool's own mails -------------------------------------------------------------------------

# The turn mail's card list, for hands 1 to 8: eight lines that each read as an order.
CARD_LIST = "Your cards\n" + "".join(
    f"  Hand {n}: {card}\n"
    for n, card in enumerate(
        ["Guard", "Priest", "Baron", "Handmaid", "Prince", "King", "Countess", "Princess"], start=1
    )
)


def test_own_words_drop_a_run_for_hands_the_player_does_not_play():
    """`own_words` passes the hands in play on: two lines of the card list for hands not in
    play are the tool's, even as the player's first words."""
    body = "Hand 2: Priest\nHand 4: Handmaid\n\nHand 1: Guard on Bruno, guess Prince"
    assert own_words(body, [CARD_LIST], {1, 9}) == "Hand 1: Guard on Bruno, guess Prince"
    assert own_words(body, [CARD_LIST]) == body  # hands in play unknown: the player's


def test_own_words_drop_an_acknowledgements_echo_read_as_a_filled_form():
    """Below an unquoted header block, the acknowledgement's echo reads as a filled form line;
    it repeats the sent mail, so it is the tool's."""
    ack = "Orders on file for turn 3:\n  Hand 1: Countess\n"
    body = f"Thanks!\n\nFrom: Rita <gm@example.org>\nSent: Tuesday\nTo: Chloé\nSubject: x\n\n{ack}"
    assert own_words(body) == "Thanks!\n\nHand 1: Countess"  # the trap: read bare, a filled form
    assert own_words(body, [ack], {1}) == "Thanks!"


def test_eight_orders_repeating_the_card_list_are_the_tools_with_the_hands_unknown():
    """A player plays at most 7 hands at once: a run of 8 is the tool's card list."""
    body = "Thanks!\n\n" + "\n".join(CARD_LIST.splitlines()[1:])
    assert drop_sent_words(body, [CARD_LIST]) == "Thanks!"


def test_seven_orders_repeating_the_card_list_are_the_players_with_the_hands_unknown():
    seven = "\n".join(line.strip() for line in CARD_LIST.splitlines()[1:8])
    assert drop_sent_words(seven, [CARD_LIST]) == seven


def test_a_run_that_orders_one_hand_twice_is_the_tools():
    """The acknowledgement's "What I read" and "Orders on file" both echo hand 1: two orders
    for one hand are no player's run."""
    ack = (
        "What I read:\n  Hand 1: Countess\n      RECORDED\n\nOrders on file for turn 3:\n  Hand 1: Countess\n"
    )
    own = "Thanks!\n\nHand 1: Countess\nHand 1: Countess"
    assert drop_sent_words(own, [ack]) == "Thanks!"


def test_a_run_right_under_a_header_line_is_the_tools():
    own = "Thanks!\nFrom: Rita <gm@example.org>\nHand 2: Priest\nHand 4: Handmaid"
    assert drop_sent_words(own, [CARD_LIST], {2, 4}) == "Thanks!"


def test_an_order_with_a_bare_hand_number_beside_a_run_of_the_tools():
    """ "7: Countess" (a bare number) orders hand 7; the card list's run under it, with no
    header above, is checked against it and stays the player's."""
    own = "7: Countess\n\nHand 2: Priest\nHand 4: Handmaid"
    assert drop_sent_words(own, [CARD_LIST], {2, 4, 7}) == own


# -- the tool's own prose, rewrapped (issue 19's Must show; the others are in test_reader_pins) --

TURN = (
    "Chloé, it is your turn in hands 3 and 7 of the postal game: reply to this mail with one order "
    "for each hand, on the form at the end of this mail.\n\nOrders for turn 3:\nHand 3:\nHand 7:\n"
)


@pytest.mark.parametrize(("length", "cut"), [(40, True), (39, False)])
def test_a_piece_of_the_tools_prose_alone_on_its_line_goes_from_forty_characters(length, cut):
    """A client rewrapped the tool's paragraph and the player kept one piece of it: from 40
    characters it is the tool's; a shorter piece could be anyone's words."""
    piece = TURN[23 : 23 + length]
    assert len(piece.strip()) == length
    body = f"Hand 3: Baron on Bruno\n\n{piece}"
    assert own_words(body, [TURN]) == ("Hand 3: Baron on Bruno" if cut else body)


# -- attributions that start with the address, wrapped (issue 19's Must show, beside
# test_reader_pins' opener-first ones) --

ADDRESS_FIRST = {
    "across a blank line": "Rita (pbem) <gm@example.org> schrieb am 1. Dez. 2026\n\num 10:00:",
    "its verb quoted": "Rita (pbem) <gm@example.org> on 1 Dec 2026 at 10:00\n> wrote:",
    "its verb quoted, no space": "Rita (pbem) <gm@example.org> on 1 Dec 2026 at 10:00\n>wrote:",
    "over four lines": "Rita (pbem) <gm@example.org> on 1 Dec 2026\nat 10:00\n(Paris time)\nwrote:",
}


@pytest.mark.parametrize("attribution", ADDRESS_FIRST.values(), ids=ADDRESS_FIRST.keys())
def test_an_attribution_that_starts_with_the_address_and_wraps_goes(attribution):
    """Polymail breaks an attribution out over blank or quoted lines; one that starts with the
    address and a date may wrap like one that starts with "On"."""
    assert own_words(f"Hand 3: Baron on Bruno\n\n{attribution}\n{QUOTED}") == "Hand 3: Baron on Bruno"


# -- quoted lines, unmarked forms ------------------------------------------------------------------


def test_a_quoted_numbered_list_awaits_no_answer():
    """ "> 1." alone is a numbered list's item, not the form's "> Hand 1:" blank line."""
    assert own_words("> Three things:\n> 1.\n> 2.\nHand 3: Baron on Bruno") == "Hand 3: Baron on Bruno"


FORM_OPENING = "Orders for turn 3 -- fill in one line per hand and reply to this mail:"
HEADERS = "From: Rita <gm@example.org>\nSent: Tuesday\nTo: Chloé\nSubject: x\n\n"


def test_an_unmarked_forms_opening_line_may_end_in_spaces():
    """Outlook leaves spaces after the form's opening line: the filled line under it is read."""
    form = f"{FORM_OPENING}  \nHand 3: Baron on Bruno\nHand 7:\n"
    assert own_words(f"Thanks!\n\n{HEADERS}{form}") == "Thanks!\n\nHand 3: Baron on Bruno"


def test_a_bare_numbered_order_above_an_unmarked_filled_form():
    """ "7: Prince on myself" orders hand 7 above the original; hand 3's filled line is read."""
    form = f"{FORM_OPENING}\nHand 3: Baron on Bruno\nHand 7:\n"
    body = f"7: Prince on myself\n\n{HEADERS}{form}"
    assert own_words(body) == "7: Prince on myself\n\nHand 3: Baron on Bruno"


def test_the_header_line_right_above_the_tools_mail_goes_with_it():
    sent = "It is your turn in hands 3 and 7 of the game.\nReply to this mail with one order for each hand.\n"
    own = f"Thanks!\n\nSubject: [game7] Turn 3\n{sent.strip()}"
    assert drop_sent_words(own, [sent]) == "Thanks!"


PROSE = "the quick brown fox jumps over the lazy dog and then some more"


@pytest.mark.parametrize(
    "quoted",
    ["> " + PROSE[:60], "|" + PROSE[:59]],
    ids=["60 characters after the marker", "60 characters with the marker"],
)
def test_the_lowercase_end_of_a_long_quoted_line_goes(quoted):
    """A quoted line of 60 characters that the client wrapped: its end, unquoted and
    lowercase, is the quote's, not the player's."""
    assert own_words(f"{quoted}\nwords\nHand 3: Baron on Bruno") == "Hand 3: Baron on Bruno"


def test_a_short_line_deep_in_quotes_is_not_a_long_one():
    """Four quote marks make the line long, its words do not (55 characters): the lowercase
    line under it is the player's."""
    quoted = "> > > > " + PROSE[:55]
    assert own_words(f"{quoted}\nwords\nHand 3: Baron on Bruno") == "words\nHand 3: Baron on Bruno"


# -- what stands right above a run of the tool's lines --------------------------------------------

RUN = "Hand 2: Priest\nHand 4: Handmaid"


@pytest.mark.parametrize(
    "above",
    [
        "Subject: [game7] Turn 3",  # the first line of the message
        "Thanks!\nSubject: [game7] Turn 3\n",  # a blank line between
        "Thanks!\n\nImportance: High",  # a key the reader does not know, with a value
        "Thanks!\n\nOn 1 December 2026, Rita <gm@example.org> wrote",  # no colon
    ],
    ids=["first line", "blank line between", "unknown key", "attribution without a colon"],
)
def test_a_run_under_a_header_or_an_attribution_is_the_tools(above):
    """Two orders for hands in play that repeat the card list, under a header line or an
    attribution: the original's lines, not the player's."""
    own = drop_sent_words(f"{above}\n{RUN}", [CARD_LIST], {2, 4})
    assert "Hand 2" not in own and "Hand 4" not in own


def test_the_header_line_on_the_first_line_goes_with_the_tools_mail():
    sent = "It is your turn in hands 3 and 7 of the game.\nReply to this mail with one order for each hand.\n"
    assert drop_sent_words(f"Subject: [game7] Turn 3\n{sent.strip()}", [sent]) == ""


def test_an_order_written_twice_that_the_tools_mail_holds_once_is_the_players():
    """The acknowledgement echoes "Hand 1: Countess" once; the player wrote it twice (a paste
    gone wrong): two lines of the sent mail "in its order" must stand at two places in it."""
    ack = "Thank you for your orders.\n\nOrders on file for turn 3:\n  Hand 1: Countess\n"
    own = "Thanks!\n\nHand 1: Countess\nHand 1: Countess"
    assert drop_sent_words(own, [ack]) == own


# -- a long line in an unmarked form (a bug the survivors of _answers_in_unmarked_form showed) --

# HTML mail turned to text puts a paragraph on one line: an order with its reasons, over the
# 500 characters the reader's heuristics look at.
LONG_ORDER = "Hand 3: Baron on Bruno. " + "I know he holds the Princess: the Priest showed it to me. " * 9


def test_a_long_filled_line_of_an_unmarked_form_is_read():
    """The filled line is read whatever its length, as it is above the original."""
    assert len(LONG_ORDER) > 500
    form = f"{FORM_OPENING}\n{LONG_ORDER.strip()}\nHand 7:\n"
    assert own_words(f"Thanks!\n\n{HEADERS}{form}") == f"Thanks!\n\n{LONG_ORDER.strip()}"


def test_a_long_order_above_an_unmarked_form_orders_its_hand():
    """Hand 3 is ordered above the original in a long line: the form's line for hand 3 is
    older, and is not read beside it."""
    form = f"{FORM_OPENING}\nHand 3: Guard on Bruno, guess Prince\nHand 7: Prince on myself\n"
    body = f"{LONG_ORDER.strip()}\n\n{HEADERS}{form}"
    assert own_words(body) == f"{LONG_ORDER.strip()}\n\nHand 7: Prince on myself"


# -- long lines and the tool's own mails (the survivors _order_hand 3, _drop_repeats 85, 95) --

# A line of the tool's mail over 500 characters: the public mail's list of events, one line.
PLAYS = [("Bruno", "Guard"), ("Chloé", "Priest"), ("Arthur", "Baron")] * 9
EVENTS = "Turn 3 of hand 3: " + ", ".join(f"{name} played the {card}" for name, card in PLAYS)
SENT_LONG = f"Dear players,\n{EVENTS}\nOrders for turn 4:\nHand 3:\n"


@pytest.mark.parametrize(
    "own",
    [
        f"Hand 3: Baron on Bruno\n\n{EVENTS}",  # alone, after the player's words
        f"Hand 3: Baron on Bruno\n\nOrders for turn 4:\nHand 3:\n{EVENTS}",  # out of the mail's order
    ],
    ids=["alone", "after lines that follow it in the sent mail"],
)
def test_a_long_line_of_the_tools_mail_is_the_tools(own):
    """A line of the sent mail is the tool's whatever its length."""
    assert len(EVENTS) > 500
    assert drop_sent_words(own, [SENT_LONG]) == "Hand 3: Baron on Bruno"


def test_a_long_order_orders_its_hand_against_a_run_of_the_tools():
    """Hand 3 is ordered in a long line: a run of the card list that orders hand 3 again,
    under the player's words, is the tool's."""
    own = f"{LONG_ORDER.strip()}\n\nSee you!\nHand 3: Baron\nHand 4: Handmaid"
    assert drop_sent_words(own, [CARD_LIST], {3, 4}) == f"{LONG_ORDER.strip()}\n\nSee you!"


# -- attributions (the survivors of _attribution_strength) ----------------------------------------


def test_a_dateless_chinese_attribution_with_a_full_width_colon_goes():
    """ "Rita 写道：" (a full-width colon, no date, no address) above a quote."""
    assert own_words(f"Hand 3: Baron on Bruno\n\nRita 写道：\n{QUOTED}") == "Hand 3: Baron on Bruno"


def test_a_framed_attribution_without_colon_or_address_goes():
    """Zoho frames its attribution in dashes and writes no colon; without the address."""
    attribution = "---- On Tue, 01 Dec 2026 10:00:00 +0100 Rita wrote ----"
    assert own_words(f"Hand 3: Baron on Bruno\n\n{attribution}\n{QUOTED}") == "Hand 3: Baron on Bruno"


@pytest.mark.parametrize(
    "attribution",
    ["Le mar. 1 déc. 2026 à 10:00, Rita <gm@example.org> a écrit\u00a0:", "Rita a écrit\u202f:"],
    ids=["no-break space", "narrow no-break space, no date"],
)
def test_a_french_attribution_with_a_no_break_space_before_its_colon_goes(attribution):
    """French typography puts a no-break space before the colon (Gmail writes it)."""
    assert own_words(f"Hand 3: Baron on Bruno\n\n{attribution}\n{QUOTED}") == "Hand 3: Baron on Bruno"


def test_inline_answers_under_a_disclaimer_above_the_quote_are_read():
    """Outlook puts the signature, disclaimer and all, above the original; the player answered
    inline under the quoted form lines: those count as orders below the disclaimer."""
    body = (
        "Disclaimer:\nThis message is confidential and meant only for the person it is sent to.\n\n"
        "> Orders for turn 3 -- fill in one line per hand and reply to this mail:\n"
        "> Hand 3:\nBaron on Bruno\n> Hand 7:\nPrince on myself\n"
    )
    own = own_words(body)
    assert own.endswith("Hand 3: Baron on Bruno\nHand 7: Prince on myself")


@pytest.mark.parametrize(
    "words",
    ["On Tuesday Hugo wrote:", "In turn 2 Hugo wrote:"],
    ids=["an opener, no date", "a number, no opener"],
)
def test_the_players_line_that_introduces_someone_elses_words_is_theirs(words):
    """A line ending in "wrote:" with neither an opener and a date nor an address is a weak
    attribution: with no quote under it, the player is citing another player, unquoted."""
    body = f"{words}\nI never bluff.\nHand 3: Guard on Hugo, guess Princess"
    assert own_words(body) == body


@pytest.mark.parametrize("attribution", ["2026/12/1 Rita <gm@example.org>", "1/12/2026 Rita <gm@x.org>"])
def test_a_date_and_an_address_without_colon_above_a_quote_go(attribution):
    """ "2011/4/7 Nathan <support@example.com>" (a date, a name and an address, no colon or
    verb) above a quote is its attribution, whether the date starts with one digit or more."""
    assert own_words(f"Hand 3: Baron on Bruno\n\n{attribution}\n{QUOTED}") == "Hand 3: Baron on Bruno"


# -- header blocks (the survivors of _is_header_block) ----------------------------------------------


def test_header_lines_eight_lines_apart_are_the_players_letter():
    """A player writes their message as a letter, "From:" at the top and "To:" and "Subject:"
    lower down: the keys of a header block stand within 8 lines, so this is no header block."""
    body = (
        "From: Chloé, hand 3\n\nHand 3: Baron on Bruno\nHand 7: Prince on myself\n\n"
        "Bruno, a word about the next turn.\n\nTo: Bruno\nSubject: an alliance\n"
        "Let us not play the Guard on each other."
    )
    assert own_words(body) == body


def test_a_from_and_date_block_with_an_address_under_a_long_reply_cuts():
    """ "From:" with the address and "Date:" (two keys) above an unquoted original, under a
    reply of ten lines: the original is not the player's."""
    reply = "\n".join(["Dear all,", "", "my orders:", "", ORDERS, "", "Some words", "about it.", "", "Chloé"])
    original = f"From: Rita <gm@example.org>\nDate: Tue, 1 Dec 2026\n\n{FORM_OPENING}\nHand 3:\nHand 7:\n"
    assert own_words(f"{reply}\n\n{original}") == reply


def test_the_players_from_and_date_lines_with_an_address_far_below_are_theirs():
    """Two keys need an address in the block's 8 lines: the player's "From:" and "Date:"
    lines, their address 8 lines below in their signature, are their words."""
    body = f"From: Chloé\nDate: Tuesday\n\n{ORDERS}\n\nSee you,\nChloé\nchloe@example.org"
    assert ORDERS in own_words(body)


# -- attributions (the survivors of _attribution_span) ------------------------------------------------


def test_a_paragraph_on_one_line_that_ends_in_wrote_is_the_players():
    """HTML puts the player's paragraph on one line, over 500 characters: one that opens with
    "On" and a date and ends in "Hugo wrote:" is no attribution (those are short)."""
    paragraph = (
        "On 1 December 2026 the game took a turn I did not expect. "
        + "Bruno played the Baron on me and lost, then Arthur played the Prince on Hugo. " * 6
        + "After all that, Hugo wrote:"
    )
    assert len(paragraph) > 500
    body = f"{paragraph}\nI never bluff.\nHand 3: Guard on Hugo, guess Princess"
    assert own_words(body) == body


@pytest.mark.parametrize(
    "words",
    [
        "On Tuesday\nI am away, so\nI answer now\nwhat Rita wrote:",  # no date: more than 3 lines
        "On 1 December I go\nto Lyon\nfor a week,\nso these are\nmy orders,\nand I answer\nwhat Rita wrote:",
    ],
    ids=["four lines, no date", "seven lines, a date"],
)
def test_the_players_short_lines_above_the_quote_they_answer_are_theirs(words):
    """A phone wraps the player's words into short lines that end in "what Rita wrote:": an
    attribution wraps over at most 3 lines without a date, 6 with one; the lines above the
    last one ("what Rita wrote:" alone reads as an attribution) are the player's."""
    above = words.rsplit("\n", 1)[0]
    assert own_words(f"{ORDERS}\n\n{words}\n{QUOTED}") == f"{ORDERS}\n\n{above}"


def test_a_framed_date_line_over_the_name_line_goes_with_the_original():
    """The first line, framed in dashes, holds the opener and the date; the name and the verb
    follow: with an opener and a date, it cuts even with the original unquoted below."""
    original = f"{FORM_OPENING}\nHand 3:\nHand 7:\n"
    body = f"{ORDERS}\n\n-------- On 1 Dec 2026 at 10:00 --------\nRita wrote:\n{original}"
    assert own_words(body) == ORDERS


def test_an_attribution_on_the_last_line_goes():
    """The client cut the quote off under its attribution, and no newline ends the text."""
    attribution = "On Tue, 1 Dec 2026 at 10:00, Rita <gm@example.org> wrote:"
    assert own_words(f"{ORDERS}\n\n{attribution}") == ORDERS


def test_an_attribution_without_a_date_does_not_wrap_across_a_blank_line():
    """ "On my side, all is well" (an opener, no date), a blank line, then "Rita wrote:" above
    the quote: the player's line is no part of the attribution."""
    words = "On my side, all is well"
    assert own_words(f"{ORDERS}\n\n{words}\n\nRita wrote:\n{QUOTED}") == f"{ORDERS}\n\n{words}"


def test_a_reply_line_above_a_dated_attribution_with_its_verb_first_is_the_players():
    """Gmail's Norwegian attribution without the address ("... skrev Rita:": the verb before
    the name) under the reply's last line, which opens with "On": the reply line is never
    joined to it (the survivor _attribution_span 82 showed it was, and the order was lost)."""
    reply = "Hand 3: Baron on Bruno\nOn second thought: H7 Prince on myself."
    own = own_words(f"{reply}\ntir. 1. des. 2026 kl. 10:00 skrev Rita:\n{QUOTED}")
    assert own.startswith(reply)


@pytest.mark.parametrize("end", ["and so on.", "as Hugo wrote:"])
def test_a_dated_line_over_a_long_paragraph_is_the_players(end):
    """ "On 1 December, my plan" then a paragraph on one line (HTML), over 500 characters: no
    attribution ends so, even when the paragraph ends in "Hugo wrote:" (a bug: the two were
    joined and cut the message)."""
    paragraph = "Bruno played the Baron on me and lost, then Arthur played the Prince on Hugo. " * 8 + end
    assert 500 < len(paragraph) < 1000
    body = f"On 1 December, my plan\n{paragraph}\nI never bluff.\nHand 3: Guard on Hugo, guess Princess"
    assert own_words(body) == body


def test_a_dated_line_over_paragraphs_of_over_a_thousand_characters_is_the_players():
    """The same over three paragraphs of at most 500 characters: joined, over 1,000
    characters, they are no attribution."""
    paragraph = ("Bruno played the Baron on me and lost, then Arthur played the Prince on Hugo. " * 6).strip()
    assert len(paragraph) <= 500
    paragraphs = "\n".join([paragraph] * 3)
    body = f"On 1 December, my plan\n{paragraphs}\nAfter all that, as Hugo wrote:\nI never bluff."
    assert own_words(body) == body


def test_a_chinese_attribution_on_the_reply_line_goes():
    """Apple Mail in Chinese, its attribution right after the reply on one line, ending in a
    full-width colon."""
    line = "Hand 3: Baron on Bruno 在 2026年12月1日，上午10:00，Rita <gm@example.org> 写道："
    assert own_words(f"{line}\n{QUOTED}") == "Hand 3: Baron on Bruno"


def test_the_reply_line_splits_at_the_opener_that_the_date_follows():
    """ "Guard on Bruno On Tue, 1 Dec ... Rita Le Blanc <...> wrote:" on one line: three words
    that open attributions ("on", "On", the French "Le"); the attribution starts at the one
    the date follows, and the order before it is the player's."""
    line = "Hand 3: Guard on Bruno On Tue, 1 Dec 2026 at 10:00, Rita Le Blanc <gm@example.org> wrote:"
    assert own_words(f"{line}\n{QUOTED}") == "Hand 3: Guard on Bruno"


@pytest.mark.parametrize(
    "attribution",
    [" On Tue, 1 Dec 2026 at 10:00, Rita wrote:", " - On Tue, 1 Dec 2026 at 10:00, Rita <gm@x.org> wrote:"],
    ids=["no address (Thunderbird)", "a dash between"],
)
def test_an_attribution_after_the_reply_on_its_line_goes(attribution):
    """An opener and a date make the attribution after the reply sure without an address; a
    dash between the two goes with it."""
    assert own_words(f"Hand 3: Baron on Bruno{attribution}\n{QUOTED}") == "Hand 3: Baron on Bruno"


def test_the_reply_before_an_attribution_on_its_line_keeps_its_last_letter():
    """A player who writes names in capitals: "Baron on MAX" keeps its X."""
    line = "Hand 3: Baron on MAX On Tue, 1 Dec 2026 at 10:00, Rita <gm@x.org> wrote:"
    assert own_words(f"{line}\n{QUOTED}") == "Hand 3: Baron on MAX"


def test_a_reply_that_starts_in_lowercase_keeps_its_first_line():
    """Only a line under a long quoted line may be its wrapped end: the first line is the
    player's, in lowercase too."""
    body = f"ok, here are my orders:\n{ORDERS}"
    assert own_words(body) == body


# -- the sixth run: own_words_read and the open survivors ------------------------------------------


@pytest.mark.parametrize(
    "opening",
    [
        "On 1 Dec I leave, so my orders:",
        "On Tuesday, 1 Dec, my orders:",
        "On turn 3 I play:",
        "Am 1. Dezember bin ich weg, also:",
    ],
)
@pytest.mark.parametrize("attribution", ["Rita wrote:", "Rita <gm@example.org> wrote:"])
def test_orders_under_a_dated_line_right_above_an_attribution_are_the_players(opening, attribution):
    """A line that opens like an attribution ("On", a date) and ends in a colon, the
    player's orders under it, then a dateless attribution: the orders are never joined to
    the attribution (they were: the message read as no words at all, both orders lost)."""
    body = f"{opening}\nHand 3: Baron on Bruno\nHand 7: Prince on myself\n{attribution}\n{QUOTED}"
    assert own_words(body) == f"{opening}\nHand 3: Baron on Bruno\nHand 7: Prince on myself"


def test_a_sender_line_with_its_date_and_a_date_line_without_an_address_are_the_players():
    """The date on a "From:" line and a "Date:" line are one key, the date: with the sender,
    two keys without an address, which never cut the player's words (a header block needs
    three keys, or an address)."""
    body = (
        "From: Hugo, at the club  Date: Monday\n"
        "Date: Friday 4 December, at Hugo's, if you can come\n"
        "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    )
    assert own_words(body) == body


@pytest.mark.parametrize("depth", [1, 10, 72])
def test_a_blank_form_line_quoted_deep_awaits_the_answer(depth):
    """A turn mail quoted in a long thread: its blank form line "Hand 3:" under many quote
    marks (up to 80 characters, 72 marks) still awaits the player's answer below it."""
    form_line = ">" * depth + " Hand 3:"
    assert len(form_line) <= 80
    assert own_words(f"{form_line}\nBaron on Bruno\n") == "Hand 3: Baron on Bruno"


def _names(length: int) -> str:
    """A line of the players' names, exactly `length` characters, no space at either end."""
    line = ("Arthur, Bruno, Chloé, Dario, Hugo, Rita, " * 20)[:length]
    return line[:-1] + "s" if line[-1] in " ," else line


@pytest.mark.parametrize(("length", "goes"), [(1000, True), (1001, False)])
def test_an_attribution_wrapped_over_lines_is_joined_up_to_a_thousand_characters(length, goes):
    """A dated attribution wrapped over four lines is joined up to 1,000 characters (it
    goes); longer, it is no attribution, and its lines above "wrote:" stay the player's."""
    first, last = "On Tue, 1 Dec 2026 at 10:00, Rita Le Blanc for the table of", "wrote:"
    middle = length - len(first) - len(last) - 3  # the two lines of names, three joining spaces
    lines = [first, _names(middle // 2), _names(middle - middle // 2), last]
    assert len(" ".join(lines)) == length
    own = own_words("Hand 3: Baron on Bruno\n\n" + "\n".join(lines) + "\n" + QUOTED)
    assert own == "\n".join(["Hand 3: Baron on Bruno"] + ([] if goes else ["", *lines[:3]]))


@pytest.mark.parametrize(
    "reply",
    [
        "Hand 3: Guard on Bruno, guess 4",
        "Hand 3: Guard on Bruno guess 4, H7 Prince on Chloé",
        "Hand 3: Guard on Bruno, guess 4. Hand 7: Baron on Chloé",
        "Hand 3: Baron on Bruno",
    ],
)
def test_a_number_after_on_in_the_reply_does_not_start_the_attribution_on_its_line(reply):
    """The attribution right after the reply on one line: the reply's "on Bruno" with a
    number close after it ("guess 4") is not the attribution's "On Tue, 1 Dec" (it was: the
    reply read as "Hand 3: Guard", its target and guess lost, and the order after it)."""
    attribution = "On Tue, 1 Dec 2026 at 10:00, Rita <gm@example.org> wrote:"
    assert own_words(f"{reply} {attribution}\n{QUOTED}") == reply


def test_a_bullet_before_the_attribution_on_its_line_leaves_no_line():
    """HTML turned to text can put the attribution after a list bullet ("- On Tue, ...
    wrote:"): the bullet is nobody's words, and no blank line is left in its place between
    the player's answers."""
    attribution = "On Tue, 1 Dec 2026 at 10:00, Rita <gm@example.org> wrote:"
    body = f"Hand 3: Baron on Bruno\n- {attribution}\n> Hand 7:\nPrince on myself"
    assert own_words(body) == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"


def test_a_kiss_before_the_attribution_on_its_line_stays_the_players():
    """ "XX" (kisses) closing the reply, the attribution right after it on its line: the
    kisses are the player's words, only the attribution goes."""
    attribution = "On Tue, 1 Dec 2026 at 10:00, Rita <gm@example.org> wrote:"
    body = f"Hand 3: Baron on Bruno\n\nXX {attribution}\n{QUOTED}"
    assert own_words(body) == "Hand 3: Baron on Bruno\n\nXX"


@pytest.mark.parametrize("answer", ["2nd thought: H7 Prince on myself", "(and Hand 7: Prince on myself)"])
def test_a_line_under_a_long_quoted_line_that_starts_with_no_letter_is_the_players(answer):
    """Only a line that starts with a lowercase letter may be the wrapped end of a long quoted
    line; the player's line typed right under it that starts with a digit or a bracket stays
    theirs, order and all."""
    long_quoted = "> Orders for turn 3 -- fill in one line per hand and reply to this mail, please"
    body = f"Hand 3: Baron on Bruno\n{long_quoted}\n{answer}\n"
    assert own_words(body) == f"Hand 3: Baron on Bruno\n{answer}"


def test_the_trackers_mark_among_the_players_words_keeps_their_line():
    """Gmail's tracker (Streak, Mailtrack) leaves "ᐧ" alone on its line, which goes; the same
    mark at the end of the player's line (HTML turned to text joins them) leaves the order."""
    body = "Hand 3: Baron on Bruno \u1427\nHand 7: Prince on myself"
    assert own_words(body) == body


@pytest.mark.parametrize(
    ("body", "own"),
    [
        ("\u1427\nHand 3: Baron on Bruno", "Hand 3: Baron on Bruno"),
        ("Hand 3: Baron on Bruno\n\u1427\n-- \nRita Le Blanc\nwww.example.org", "Hand 3: Baron on Bruno"),
    ],
)
def test_the_line_under_a_tracker_line_is_read(body, own):
    """Only the tracker's line goes: the player's order under it stays, a signature separator
    under it still cuts the signature off."""
    assert own_words(body) == own


def test_a_banner_like_sentence_inside_the_players_paragraph_stays():
    """A gateway puts its banner at the top of the body, or in a paragraph of its own: a
    sentence of the player's that opens like one right under their own line is theirs."""
    body = "Hand 3: Baron on Bruno\nExternal email: this is my work address, write to my home one."
    assert own_words(body) == body


def test_own_words_drop_an_acknowledgements_echo_under_a_device_footer():
    """Outlook mobile puts the original under its footer, unquoted: the acknowledgement's echo
    there reads as a filled form line, and it repeats the sent mail, so it is the tool's."""
    ack = "Orders on file for turn 3:\n  Hand 1: Countess\n"
    body = f"Thanks!\n\nGet Outlook for iOS\n\n{ack}"
    assert own_words(body) == "Thanks!\n\nHand 1: Countess"  # read bare, a filled form
    assert own_words(body, [ack], {1}) == "Thanks!"


def test_an_attribution_on_its_own_line_is_never_split_at_its_am():
    """Gmail's "On Tue, Dec 1, 2026 at 10:00 AM Rita <...> wrote:" holds "AM" (German's
    opener "Am") with digits close after it: the line starts as an attribution and goes whole."""
    attribution = "On Tue, Dec 1, 2026 at 10:00 AM Rita <rita2026@example.org> wrote:"
    assert own_words(f"Hand 3: Baron on Bruno\n\n{attribution}\n{QUOTED}") == "Hand 3: Baron on Bruno"


def test_inline_answers_below_an_attribution_on_the_reply_line_are_read():
    """The attribution right after the reply on its line, then the quoted form with the
    player's answer typed under its line: the reading goes on after the split line."""
    attribution = "On Tue, 1 Dec 2026 at 10:00, Rita <gm@example.org> wrote:"
    body = f"Hand 3: Baron on Bruno {attribution}\n> Hand 7:\nPrince on myself\n"
    assert own_words(body) == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
