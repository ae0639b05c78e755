"""What mutation testing of pbem/reader/ showed the reader's tests missed (issues 19 and 21).

Each test pins one rule whose change (a threshold moved, a condition dropped) no other test
noticed: the header block of three keys without an address, a From/To pair the player wrote
without a date, attributions wrapped over three to six lines, the tool's own mail rewrapped
by a client, and the limits of the player's own runs of orders; and (issue 21) the last-resort
reading of a From header (`headers._guess_sender`), format=flowed (`text.unflow`), the header
objects of `policy._default_header`, the phrase alternations built at import
(`quotes._alternation`) and a media query's lengths (`visible._length_text`).
"""

from __future__ import annotations

import email.policy
import re
import textwrap

import pytest
from reader_kit import SEEDS, html_message, inline_reply, message, multipart, multipart_message

from pbem.reader import UnreadableMail, read_mail
from pbem.reader.api import text_of
from pbem.reader.headers import _guess_sender
from pbem.reader.mime import _decode_base64
from pbem.reader.notes import _Notes
from pbem.reader.patterns import words_of
from pbem.reader.policy import _default_header
from pbem.reader.quotes import _alternation, drop_sent_words, own_words
from pbem.reader.text import unflow
from pbem.reader.visible import _length_text

# An unquoted original: its lines look like orders and must never be read.
BARE = (
    "Orders for turn 3 -- fill in one line per hand and reply to this mail:\nHand 3:\nHand 7:\n\n"
    "Your cards\n  Hand  7: Guard, Prince   <- your turn\n"
)
QUOTED = "\n".join("> " + line if line else ">" for line in BARE.splitlines())
ORDER = "Hand 3: Baron on Bruno"

# -- header blocks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "block",
    [
        "From: Rita (pbem)\nSent: Tuesday, 1 December 2026 10:00\nTo: Chloé",
        "Von: Rita\nGesendet: Dienstag, 1. Dezember 2026 10:00\nBetreff: [game7] Turn 3",
        "From: Rita\nTo: Chloé\nSubject: [game7] Turn 3",
    ],
)
def test_a_header_block_of_three_keys_without_an_address_ends_the_players_words(block):
    assert own_words(f"{ORDER}\n\n{block}\n\n{BARE}") == ORDER


def test_three_keys_without_the_sender_are_the_players():
    body = f"Date: next Tuesday\nTo: all players\nSubject: my orders for turn 3\n{ORDER}"
    assert own_words(body) == body


@pytest.mark.parametrize(
    "pair",
    [
        "From: Chloé\nTo: Rita",
        "From: chloe@example.fr\nTo: gm@example.org",
        "From: Chloé <chloe@example.fr>\nTo: everyone",
        "To: Rita <gm@example.org>\nFrom: Chloé",
    ],
)
def test_a_from_to_pair_the_player_wrote_without_a_date_is_theirs(pair):
    body = f"{pair}\n\n{ORDER}\nHand 7: Prince on myself"
    assert own_words(body) == body


def test_a_from_and_date_pair_with_an_address_ends_the_players_words():
    body = f"{ORDER}\n\nFrom: gm@example.org\nDate: Tue, 1 Dec 2026 10:00\n\n{BARE}"
    assert own_words(body) == ORDER


@pytest.mark.parametrize(
    "lines",
    [
        "Date: next Tuesday\nMy new address: chloe@example.fr",
        "Date: 1 Dec\nI moved to chloe@example.fr, please write there",
    ],
)
def test_a_date_line_of_the_players_with_an_address_near_is_theirs(lines):
    body = f"{lines}\n{ORDER}"
    assert own_words(body) == body


def test_a_header_block_whose_sender_wraps_over_lines_ends_the_players_words():
    block = (
        "From: Rita Gamemaster (pbem), on behalf of\n the game master of game7\n and of game8\n"
        " and of game9\nSent: Tuesday, 1 December 2026 10:00\nTo: Chloé"
    )
    assert own_words(f"{ORDER}\n\n{block}\n\n{BARE}") == ORDER


# -- wrapped attributions ------------------------------------------------------------------------

WRAPPED = {
    3: "On Tuesday,\nRita (pbem) <gm@example.org>\nwrote:",
    4: "On Tue, 1 Dec 2026 at 10:00,\nRita\n<gm@example.org>\nwrote:",
    5: "On Tue, 1 Dec 2026 at 10:00,\nRita\n(pbem)\n<gm@example.org>\nwrote:",
    6: "On Tue, 1 Dec 2026\nat 10:00,\nRita\n(pbem)\n<gm@example.org>\nwrote:",
    "6 with a blank": "Am Di., 1. Dez. 2026 um 10:00 Uhr\n\nschrieb\nRita\n<gm@example.org>\n:",
}


@pytest.mark.parametrize("attribution", WRAPPED.values(), ids=[f"{k} lines" for k in WRAPPED])
def test_an_attribution_wrapped_over_three_to_six_lines_goes(attribution):
    assert own_words(f"{ORDER}\n\n{attribution}\n{QUOTED}\n") == ORDER


# -- the tool's own mail, rewrapped ---------------------------------------------------------------

SENT = (
    'Chloé, here is your position for turn 3 of "Love Letter, postal game 7". It is your turn in hands '
    "3 and 7: reply to this mail with one order for each, on the form at the end. Each hand where it is "
    "your turn is shown below: who is still in, the cards played so far, and the plays you may make.\n\n"
    'Examples: "Hand 13: Guard on Dominik, guess Countess", "Hand 7: Prince on myself".\n\n' + BARE
)


@pytest.mark.parametrize("width", [50, 66, 90])
def test_a_rewrapped_paragraph_of_the_tools_own_mail_goes(width):
    paragraph = textwrap.fill(SENT.split("\n\n")[0], width)
    assert own_words(f"{ORDER}\n\n{paragraph}\n", [SENT]) == ORDER


def test_one_long_line_of_the_tools_own_mail_goes():
    line = 'Chloé, here is your position for turn 3 of "Love Letter, postal game 7".'
    assert own_words(f"{ORDER}\n\n{line}\n", [SENT]) == ORDER


def test_an_order_found_inside_the_tools_prose_is_the_players():
    """ "Hand 13: Guard on Dominik, guess Countess" stands inside the examples' line: an order
    line is never taken for a piece of rewrapped prose."""
    body = f"{ORDER}\nHand 13: Guard on Dominik, guess Countess"
    assert own_words(body, [SENT]) == body


# -- the player's own runs of orders --------------------------------------------------------------

OLD_ACK = (
    "What I read:\n  Hand 1: Countess\n      RECORDED\n\n"
    "Orders on file for turn 3:\n  Hand 1: Countess\n  Hand 9: Handmaid\n"
)


def test_a_run_for_hands_the_player_does_not_play_is_the_tools():
    own = "My orders are below.\n\nHand 2: Baron\nHand 4: Handmaid"
    sent = "Your cards\n  Hand  2: Baron\n  Hand  4: Handmaid\n"
    assert drop_sent_words(own, [sent], {1, 9, 13}) == "My orders are below."


def test_a_run_right_under_another_run_of_the_tools_is_the_tools():
    """Two mails of the tool's quoted bare one after the other: the second run of orders sits
    right under the first's words, not under the player's."""
    reminder = "Hand 1: Countess\nHand 9: Handmaid\n"
    ack = "Thank you for your orders.\nThis mail was sent by the pbem tool.\n"
    own = f"Thanks!\n\n{ack}Hand 1: Countess\nHand 9: Handmaid"
    assert drop_sent_words(own, [reminder, ack], {1, 9}) == "Thanks!"


def test_an_old_acknowledgements_echo_under_a_header_block_is_not_read_as_a_filled_form():
    """An acknowledgement of before its echo was tagged: below the header block its "Orders on
    file:" lines look like a filled form; they repeat the sent mail word for word, and a filled
    form line never does (the form's lines are blank)."""
    body = f"Thanks!\n\nFrom: Rita <gm@example.org>\nSent: Tuesday\nTo: Chloé\nSubject: x\n\n{OLD_ACK}"
    assert "Hand 9: Handmaid" in own_words(body)  # the trap: read bare, the echo is a form
    assert own_words(body, [OLD_ACK], {1, 9}) == "Thanks!"


def test_a_disclaimer_heading_above_the_players_orders_cuts_nothing():
    body = f"Disclaimer\nI am new here, so my orders may look odd:\n{ORDER}"
    assert own_words(body) == body


def test_an_order_right_under_the_tools_rewrapped_prose_is_the_players():
    paragraph = textwrap.fill(SENT.split("\n\n")[0], 60)
    body = f"{ORDER}\n\n{paragraph}\nHand 13: Guard on Dominik, guess Countess"
    assert own_words(body, [SENT]) == f"{ORDER}\n\nHand 13: Guard on Dominik, guess Countess"


# -- issue 21: what mutation testing of the rest of pbem/reader/ showed -------------------------


def test_the_phrases_of_a_pattern_table_are_listed_longest_first_then_alphabetically():
    # words_of builds the reader's tables at import, before a test could see a change in it.
    table = (("en", "regards", "best regards", "cheers"), ("de", "gruß", "grüße"), ("fr", "bises"))
    assert words_of(table) == ["best regards", "regards", "cheers", "bises", "grüße", "gruß"]


# == issue 21: the last-resort From reading, format=flowed, header objects, import-time tables ==

# -- a From header the parser cannot read ------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "name", "expected"),
    [
        # the parser's own reading when it finds a plain address, its name decoded
        ("Chloé <chloe@example.org", "", ("chloe@example.org", "Chloé")),
        ("=?utf-8?q?Chlo=C3=A9?= <chloe@example.org", "", ("chloe@example.org", "Chloé")),
        # the parser joins "chloe @ example.org"; the text alone holds no plain address
        ("Chloé <chloe @ example.org", "", ("chloe@example.org", "Chloé")),
        # a name the structured parser found is kept
        ("Rita <rita@example.org", "Chloé", ("rita@example.org", "Chloé")),
        ("<chloe@example.org", "Chloé", ("chloe@example.org", "Chloé")),
        ("Rita <rita@", "Rita", ("", "Rita")),
        # no plain address from the parser: the first plain one in the text, as written
        ('"Chloé <broken <Chloe@example.org>', "", ("Chloe@example.org", "")),
        # none at all: no address, never a made-up one
        ("Rita <rita@", "", ("", "Rita")),
        # a name in a charset Python does not know stays as it was written
        ("=?bogus?q?Chlo=E9?= <chloe@example.org", "", ("chloe@example.org", "=?bogus?q?Chlo=E9?=")),
    ],
)
def test_a_from_header_the_parser_cannot_read_is_guessed_from_its_text(value, name, expected):
    assert _guess_sender(value, name) == expected


def test_the_guess_looks_for_an_address_in_the_first_2000_characters_only():
    value = '"' + " " * 1989 + "ab@cdefghijk"  # the address starts at 1990 and runs past 2000
    assert _guess_sender(value, "") == ("ab@cdefghi", "")


# -- format=flowed ---------------------------------------------------------------------------------


def test_unflow_without_delsp_keeps_the_space_of_a_soft_break():
    assert unflow("Hand 3: Baron \non Bruno") == "Hand 3: Baron on Bruno"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hand 3: Baron", "Hand 3: Baron"),
        ("Hand 3: Baron\nHand 7: Guard", "Hand 3: Baron\nHand 7: Guard"),
        ("> quoted\nmine", "> quoted\nmine"),
        # a quoted blank line stays ">", never "> " nor anything else
        (">\n> Hand 3:", ">\n> Hand 3:"),
        # a soft line is not continued by a line of another quote depth
        ("Hand 3: \n> Hand 7:", "Hand 3: \n> Hand 7:"),
        ("> Hand 3: \n>> Hand 7:", "> Hand 3: \n>> Hand 7:"),
    ],
)
def test_unflow_keeps_each_line_at_its_quote_depth(text, expected):
    assert unflow(text) == expected


# -- the header objects of policy.default ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("From", "Chloé <chloe@example.org>"),
        ("Subject", "=?utf-8?q?Tour_3?="),
        ("Content-Type", "text/plain; charset=utf-8"),
        ("X-Odd", "anything"),
    ],
)
def test_a_default_header_is_the_header_factorys(name, value):
    ours, theirs = _default_header(name, value), email.policy.default.header_factory(name, value)
    assert (ours.name, str(ours), type(ours).__name__) == (theirs.name, str(theirs), type(theirs).__name__)
    assert _default_header(name, value).name == name  # and the same again, from the cache


# -- built at import: the phrase alternation of a pattern table -----------------------------------


def test_a_pattern_tables_alternation_matches_each_phrase_with_any_run_of_spaces():
    pattern = re.compile(f"(?:{_alternation((('en', 'wrote'), ('fr', 'a écrit'), ('de', 'schrieb')))})")
    assert [
        bool(pattern.fullmatch(t)) for t in ("wrote", "a  écrit", "a\técrit", "schrieb", "a|écrit", "a")
    ] == [
        True,
        True,
        True,
        True,
        False,
        False,
    ]
    assert _alternation((("en", "a.b"),)) == r"a\.b"


# -- the lengths of a media query -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "px"),
    # (a length in rem was read by the em branch, which cannot read "40r": a bug these mutants found)
    [("600px", 600.0), ("40em", 640.0), ("40rem", 640.0), ("2.5px", 2.5), ("wide", None), ("xpx", None)],
)
def test_a_media_query_length_is_read_in_pixels(word, px):
    assert _length_text(word) == px


# -- lenient base64 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "decoded", "notes"),
    [
        (b"SGFuZA==\n", b"Hand", []),
        (b"SGk=SGk=", b"HiHi", []),  # each padded chunk decoded alone
        (b"SG!k\n", b"Hi", ["MIME: base64 text with invalid characters"]),
        (b"SGFuZ", b"Han", ["MIME: base64 text of impossible length (cut short?)"]),
    ],
)
def test_base64_is_decoded_chunk_by_chunk_with_a_note_for_each_fault(data, decoded, notes):
    found = _Notes()
    assert (_decode_base64(data, found), found.items) == (decoded, notes)


# -- the whole text of the tool's own mails -----------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        message("Hand 3: Baron on Bruno\n\n\n\nThanks"),
        message("\n\n  Hand 3: Baron  \n\n"),
        message(inline_reply("Baron on Bruno", "Guard on Rita, guess Priest")),
        html_message("<div>Hand 3: Baron</div><blockquote>Hand 3:</blockquote>"),
        message("-- \n...\n"),
        message(""),
        *SEEDS,
    ],
)
def test_text_of_is_the_full_text_read_mail_gives_or_nothing_without_a_letter(raw):
    try:
        full = read_mail(raw).full_text
    except UnreadableMail:  # "Your message is empty"
        full = ""
    assert text_of(raw) == (full if any(ch.isalnum() for ch in full) else "")


# -- why a message could not be read: the whole sentence the player gets --------------------------


def _attachment(name: str) -> str:
    return f'Content-Type: text/plain; charset=utf-8\nContent-Disposition: attachment; filename="{name}"\n\nHand 1: Guard\n'


def _nested(depth: int) -> str:
    entity = "Content-Type: text/plain; charset=utf-8\n\nHand 1: Guard\n"
    for level in range(depth):
        entity = multipart("mixed", [entity], boundary=f"level{level}")
    return entity


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (
            multipart_message(
                multipart(
                    "encrypted",
                    [
                        "Content-Type: application/pgp-encrypted\n\nVersion: 1\n",
                        "Content-Type: application/octet-stream\n\n-----BEGIN PGP MESSAGE-----\n",
                    ],
                )
            ),
            "Your message is encrypted; I can only read orders sent as ordinary, unencrypted text. "
            "Please send them again without encryption.",
        ),
        (multipart_message(_nested(30)), "Your message is nested too deeply for me to read it."),
        (
            multipart_message(multipart("mixed", [_attachment(f"{n}.txt") for n in "abcdef"])),
            "Your message has no text I can read, only parts I cannot read as text "
            "(a.txt (text/plain), b.txt (text/plain), c.txt (text/plain), d.txt (text/plain), "
            "e.txt (text/plain)). Please write your orders in the body of the mail.",
        ),
        (
            multipart_message(multipart("signed", ["Content-Type: application/pgp-signature\n\nxx\n"])),
            "Your message has no text I can read, only parts I cannot read as text "
            "(application/pgp-signature). Please write your orders in the body of the mail.",
        ),
        (message("\n\n   \n"), "Your message is empty: I found no text in it."),
        (
            multipart_message(
                multipart("mixed", ["Content-Type: text/plain\n\n\n", _attachment("orders.txt")])
            ),
            "Your message has no text I can read, only parts I cannot read as text "
            "(orders.txt (text/plain)). Please write your orders in the body of the mail.",
        ),
    ],
    ids=[
        "encrypted",
        "too deep",
        "only attachments, five named",
        "only a signature",
        "empty",
        "blank beside a file",
    ],
)
def test_an_unreadable_message_says_why_in_the_players_words(raw, reason):
    with pytest.raises(UnreadableMail) as caught:
        read_mail(raw)
    assert str(caught.value) == reason


# -- which HTML elements are quotes or signatures ---------------------------------------------------


@pytest.mark.parametrize(
    ("markup", "kind"),
    [
        ("<blockquote>x</blockquote>", "quote"),
        ('<div name="quote">x</div>', "quote"),  # web.de
        ('<div class="Gmail_Quote">x</div>', "quote"),  # a forward: no blockquote inside
        ('<div class="gmail_quote"><blockquote>x</blockquote></div>', None),  # the answers sit between
        ('<div class="\tnote\n  GMAIL_ATTR  ">x</div>', "quote"),  # XML whitespace, any case
        ('<div class="moz-cite-prefix">x</div>', "quote"),
        ('<div class="yahoo_quoted">x</div>', "quote"),
        ('<div class="gmail_signature">x</div>', "signature"),
        ('<div class=" moz-signature">x</div>', "signature"),
        ('<div id="Signature">x</div>', "signature"),
        ('<div id="signatures">x</div>', None),
        ('<div class="gmail_attribution">x</div>', None),  # a longer name is another class
        ('<div class="my-gmail_quote">x</div>', None),
        ('<div class="\u00a0gmail_signature">x</div>', None),  # no-break space: not a class separator
        ("<div>x</div>", None),
    ],
)
def test_an_element_is_a_quote_or_a_signature_by_its_tag_name_class_or_id(markup, kind):
    import lxml.html

    from pbem.reader.htmltext import _special_kind

    assert _special_kind(lxml.html.fragment_fromstring(markup)) == kind


# -- Outlook on the web: the original below its reply header is quoted, wherever it sits -------


def test_outlooks_original_is_quoted_with_the_text_after_the_block_that_holds_its_header():
    """Outlook's header block (#divRplyFwdMsg) sits inside a wrapper whose tail holds more
    of the original: the header, what follows it and that tail are quoted, in order, at
    the end of the body; the player's words above stay their own."""
    markup = (
        "<html><body><div>Hand 3: Baron on Bruno</div>"
        '<div class="wrap"><div id="divRplyFwdMsg">From: Rita</div>Hand 7: Princess</div>'
        "Hand 9: Guard on Chloé</body></html>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"
    lines = [line for line in read.full_text.splitlines() if line.strip()]
    # (the wrapper's tail joins the line before it: an inline run, as a mail client shows it)
    assert lines == ["Hand 3: Baron on Bruno", "> From: Rita", "> Hand 7: Princess Hand 9: Guard on Chloé"]


@pytest.mark.parametrize("where", ["body", "html"])
def test_an_outlook_marker_on_the_body_itself_quotes_nothing(where):
    """The marker's id on the body (or the page) itself: there is no original below it to
    move, and the player's words are read as they are."""
    body = "<div>Hand 3: Baron on Bruno</div>"
    markup = (
        f'<html><body id="divRplyFwdMsg">{body}</body></html>'
        if where == "body"
        else f'<html id="appendonsend"><body>{body}</body></html>'
    )
    assert read_mail(html_message(markup)).own_text == "Hand 3: Baron on Bruno"


# -- a declared charset: the Python codec it names, or None -------------------------------------


@pytest.mark.parametrize(
    ("charset", "codec"),
    [
        ("utf-8", "utf_8"),  # the codec's own name, with "_" for "-"
        ("UTF8", "utf_8"),
        ('"utf-8"', "utf_8"),  # quoted, as some clients write it
        ("'latin-1'", "iso8859_1"),
        (" " * 55 + "utf-8", "utf_8"),  # 60 characters: still a name
        (" " * 56 + "utf-8", None),  # longer: not a charset (a header stuffed with junk)
        ("utf-8X", None),  # no codec strips letters off a name
        ("base64", None),  # a codec, not a text encoding
        ("rot13", None),
        ("unicode_escape", None),  # a text codec that is no charset
        ("idna", None),
        ("", None),
        (None, None),
    ],
)
def test_a_declared_charset_names_its_codec_or_none(charset, codec):
    from pbem.reader.text import _codec

    assert _codec(charset) == codec


# -- bytes to text: what was read, and the note the GM gets ------------------------------------

_LATIN = "Chloé".encode("cp1252")
_UTF8 = "Chloé".encode()


@pytest.mark.parametrize(
    ("data", "charset", "text", "notes"),
    [
        (b"Hand 1", "us-ascii", "Hand 1", []),
        (b"Hand 1", None, "Hand 1", []),
        (_LATIN, "iso-8859-1", "Chloé", []),
        (_UTF8, "iso-8859-1", "Chloé", ["text declared as iso-8859-1 is UTF-8; read it as UTF-8"]),
        (_UTF8, "us-ascii", "Chloé", ["8-bit text declared as US-ASCII; read it as UTF-8 / windows-1252"]),
        (_LATIN, None, "Chloé", ["8-bit text without a declared charset; read it as UTF-8 / windows-1252"]),
        (_LATIN, "utf-8", "Chloé", ["text declared as UTF-8 is not valid UTF-8; read those lines as windows-1252"]),
        (_UTF8, "iso-8859-8", "Chloé", ["text declared as iso-8859-8 is UTF-8; read it as UTF-8"]),
        (b"Chlo\xff", "iso-8859-8", "Chlo\ufffd", ["text is not valid iso-8859-8; replaced the bad bytes"]),
        (
            _UTF8,
            "x" * 55 + "-klingon",
            "Chloé",
            ["unknown charset " + repr(("x" * 55 + "-klingon")[:60]) + "; read the text as UTF-8"],
        ),
    ],
    ids=["ascii", "undeclared ascii", "latin-1", "utf-8 called latin-1", "8-bit called ascii",
         "8-bit undeclared", "latin-1 called utf-8", "utf-8 called hebrew", "neither hebrew nor utf-8", "unknown, cut at 60"],
)  # fmt: skip
def test_text_is_decoded_as_declared_or_as_it_is_with_a_note_saying_so(data, charset, text, notes):
    from pbem.reader.text import _decode_text

    found = _Notes()
    assert _decode_text(data, charset, found) == text
    assert found.items == notes


def test_an_undeclared_line_with_a_byte_windows_1252_leaves_undefined_is_read_as_latin_1():
    # 0x81 is no character in windows-1252 (nor in UTF-8 after "é"): the line is latin-1, its
    # control character dropped, and the rest of the text read as it is.
    body = b"Hand 3: Baron on Chlo\xe9\x81\nHand 7: Prince on myself\n"
    read = read_mail(message(body, content_type="text/plain"))
    assert read.own_text == "Hand 3: Baron on Chloé\nHand 7: Prince on myself"
    assert "8-bit text without a declared charset; read it as UTF-8 / windows-1252" in read.defects


def test_an_8bit_header_is_read_back_from_its_own_bytes():
    # A client that writes the subject and the name in raw UTF-8, unencoded.
    read = read_mail(
        message(
            "Hand 3: Baron on Bruno",
            subject="Re: [game7] Turn 3 — à Chloé",
            sender="Chloé <chloe@example.org>",
        )
    )
    assert (read.subject, read.sender_name, read.turn) == ("Re: [game7] Turn 3 — à Chloé", "Chloé", 3)
