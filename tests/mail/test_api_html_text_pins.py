"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/api.py, htmltext.py and text.py (the survivors left open by the
third run: docs/mutation/api-htmltext-text.md).

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest
from reader_kit import TURN_MAIL, html_message, message, multipart, multipart_message, part

from pbem.reader import UnreadableMail, api, html_to_text, htmltext, read_mail
from pbem.reader.api import text_of

# -- api.py: read_mail, text_of, ReadMail.answering ------------------------------------------


def _nested(levels: int, body: str = "Hand 3: Baron\n") -> bytes:
    entity = part(body)
    for level in range(levels):
        entity = multipart("mixed", [entity], boundary=f"n{level}")
    return multipart_message(entity)


def _bomb(parts: int, *, headers: bool = True) -> bytes:
    head = b'From: a@example.org\nContent-Type: multipart/mixed; boundary="b"\n' if headers else b""
    body = b"".join(b"--b\nContent-Type: text/plain\n\nHand %d: Baron\n" % (n + 1) for n in range(parts))
    return head + b"\n" + body + b"--b--\n"


# Mail shapes whose whole text `text_of` must give exactly as `read_mail` does (the tool
# compares the two to find its own mails quoted in a reply).
WHOLE_TEXT_SHAPES = {
    "plain": message("Hand 3: Baron on Bruno\n"),
    # the body's first line indented, its last a kiss: both ends read as written
    "indented, a kiss": message("    Hand 3: Baron on Bruno\n\nLove,\nMax\nX\n"),
    "two inline parts": multipart_message(
        multipart("mixed", [part("Xavier's orders:\n"), part("  Hand 3: Baron on Bruno\nX\n")])
    ),
    "HTML only": message("<p>Hand 3: Baron on Bruno</p>", content_type="text/html; charset=utf-8"),
    "the body marked as an attachment": message(
        "Hand 3: Baron on Bruno\n", extra="Content-Disposition: attachment; filename=orders.txt\n"
    ),
    "25 multiparts deep": _nested(25),
    "a bomb of tiny parts": _bomb(700),
}


@pytest.mark.parametrize("raw", WHOLE_TEXT_SHAPES.values(), ids=WHOLE_TEXT_SHAPES.keys())
def test_text_of_is_the_full_text_read_mail_reads(raw):
    assert text_of(raw) == read_mail(raw).full_text != ""


def test_the_whole_text_keeps_each_parts_first_and_last_characters():
    """Only the blank lines around a part are cut: an indented first line stays indented,
    an "X" (a kiss, a name) at either end of a part stays."""
    assert read_mail(WHOLE_TEXT_SHAPES["indented, a kiss"]).full_text == (
        "    Hand 3: Baron on Bruno\n\nLove,\nMax\nX"
    )
    assert read_mail(WHOLE_TEXT_SHAPES["two inline parts"]).full_text == (
        "Xavier's orders:\n  Hand 3: Baron on Bruno\nX"
    )


def test_a_body_marked_as_an_attachment_is_read_with_a_note():
    read = read_mail(WHOLE_TEXT_SHAPES["the body marked as an attachment"])
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert read.defects == ("the text is marked as an attachment; read it anyway",)


def test_a_text_25_multiparts_deep_is_read_and_26_is_too_deep():
    assert read_mail(_nested(25)).own_text == "Hand 3: Baron"
    with pytest.raises(UnreadableMail, match="nested too deeply"):
        read_mail(_nested(26))
    assert text_of(_nested(26)) == ""


def test_what_is_no_mail_gets_its_own_sentence():
    with pytest.raises(UnreadableMail) as info:
        read_mail("Subject: x\n\nHand 3: Baron")  # type: ignore[arg-type]
    assert str(info.value) == "This is not an email message (expected bytes)."
    for blank in (b"", b" \r\n\r\n\t"):
        with pytest.raises(UnreadableMail) as info:
            read_mail(blank)
        assert str(info.value) == "Your message is empty."


def test_attached_messages_nested_beyond_the_parsers_depth_are_too_deep_to_read():
    """The stdlib parser recurses once per attached message: 3,000 of them, each the only
    content of the one above, overflow it (no MIME boundary line, so no bomb cut helps)."""
    raw = b"From: a@example.org\n" + b"Content-Type: message/rfc822\n\n" * 3000 + b"Subject: x\n\nHand 3\n"
    with pytest.raises(UnreadableMail) as info:
        read_mail(raw)
    assert str(info.value) == "Your message is nested too deeply for me to read it."
    assert text_of(raw) == ""  # a damaged draft of the tool's has no text a reply can repeat


@pytest.mark.parametrize(
    ("crash", "sentence"),
    [
        (RecursionError, "Your message is nested too deeply for me to read it."),
        (LookupError, "Your message could not be read (it looks damaged: LookupError)."),
    ],
)
def test_a_crash_of_the_stdlib_inside_a_step_is_an_unreadable_mail_that_says_so(monkeypatch, crash, sentence):
    """The last-resort guard (the stdlib's header parsers have crashed on hostile values in
    some Python versions; none known today, so the crash is put in a step by hand)."""

    def crashing(*_args, **_kwargs):
        raise crash("hostile header")

    monkeypatch.setattr(api, "_read_subject", crashing)
    with pytest.raises(UnreadableMail) as info:
        read_mail(message("Hand 3: Baron on Bruno\n"))
    assert str(info.value) == sentence


def _long_ids(name: str, length: int) -> bytes:
    """A message whose header `name` is `length` characters of ids, the last "<last@example.org>"."""
    tail, unit = " <last@example.org>", "<a@example.org> "
    count = (length - len(tail)) // len(unit)
    value = unit * count + " " * (length - len(tail) - count * len(unit)) + tail
    assert len(value) == length
    return f"From: a@example.org\nSubject: x\n{name}: {value}\n\nHand 3: Baron\n".encode()


@pytest.mark.parametrize(("name", "field"), [("In-Reply-To", "in_reply_to"), ("References", "references")])
def test_ids_are_read_from_the_first_100_000_characters_of_their_header(name, field):
    """A longer In-Reply-To or References is garbage or a bomb: an id that ends on the
    100,000th character is read, one that ends a character later is not."""
    assert getattr(read_mail(_long_ids(name, 100_000)), field)[-1] == "<last@example.org>"
    ids = getattr(read_mail(_long_ids(name, 100_001)), field)
    assert ids[-1] == "<a@example.org>" and len(ids) == 6248


def _dashed_lines(count: int) -> bytes:
    return b"".join(b"--b\nHand %d: Baron\n" % (n + 1) for n in range(count))


@pytest.mark.parametrize(
    "head",
    [b"From: a@example.org\nContent-Type: text/plain\n\n", b"\n"],
    ids=["headers", "a blank header block"],
)
def test_a_mail_of_more_than_600_dashed_lines_is_read_to_its_600th_whole(head):
    """Any line that starts with "--" may be a MIME boundary; past 600 of them the parser
    would take seconds, so the mail is read up to its 600th such line, what is above it
    whole (here the first "--" line opens the body, or the message itself)."""
    read = read_mail(head + _dashed_lines(700))
    assert read.full_text.endswith("\n--b\nHand 598: Baron\n--b\nHand 599: Baron")
    assert read.full_text.count("--b") == 599
    assert "more than 600 MIME boundary lines; read only the start" in read.defects
    assert text_of(head + _dashed_lines(700)) == read.full_text


# A mail the tool sent: the orders on file, which a reply may repeat.
ON_FILE = (
    "Your orders on file for turn 3:\nHand 3: Baron on Bruno\nHand 7: Prince on myself\n\n"
    "Reply to change them.\n"
)
# Outlook quotes nothing: the turn mail under a German header block, one form line filled in.
OUTLOOK_FILLED = (
    "Hand 7: Prince on myself\n\nVon: Rita <gm@example.org>\nGesendet: Dienstag\nAn: Chloé\nBetreff: x\n\n"
    + TURN_MAIL.replace("\nHand 3:\n", "\nHand 3: Baron on Bruno\n")
)
ANSWERING_CASES = {
    "a filled form line of the unquoted turn mail": (OUTLOOK_FILLED, [TURN_MAIL], None),
    "a filled form line the sent mail already holds": (OUTLOOK_FILLED, [ON_FILE], None),
    "the orders on file repeated, hands 3 and 7 played": (
        "Hand 9: Guard on Rita, guess Priest\n\nHand 3: Baron on Bruno\nHand 7: Prince on myself\n",
        [ON_FILE],
        {3, 7},
    ),
    "the orders on file repeated, hand 9 played": (
        "Hand 9: Guard on Rita, guess Priest\n\nHand 3: Baron on Bruno\nHand 7: Prince on myself\n",
        [ON_FILE],
        {9},
    ),
}
ANSWERING_OWN = {
    "a filled form line of the unquoted turn mail": "Hand 7: Prince on myself\n\nHand 3: Baron on Bruno",
    "a filled form line the sent mail already holds": "Hand 7: Prince on myself",
    "the orders on file repeated, hands 3 and 7 played": (
        "Hand 9: Guard on Rita, guess Priest\n\nHand 3: Baron on Bruno\nHand 7: Prince on myself"
    ),
    "the orders on file repeated, hand 9 played": "Hand 9: Guard on Rita, guess Priest",
}


@pytest.mark.parametrize("case", ANSWERING_CASES)
def test_knowing_the_sent_mail_now_or_later_reads_the_same(case):
    """The inbox learns which of its mails a reply answers only after reading the sender
    (`ReadMail.answering`): what it reads then is, field by field, what `read_mail` reads
    knowing them at once; a filled form line under the player's words that repeats a line
    of the sent mail is the tool's, and a run of orders that repeats the sent mail is the
    player's only while it orders the hands they play."""
    body, sent, playing = ANSWERING_CASES[case]
    raw = message(body)
    at_once = read_mail(raw, answering=sent, playing=playing)
    assert at_once.own_text == ANSWERING_OWN[case]
    assert read_mail(raw).answering(sent, playing) == at_once
    assert at_once.answers_below == 0  # its own text holds no unchecked form line any more


def test_knowing_no_sent_mail_changes_nothing():
    read = read_mail(message(OUTLOOK_FILLED))
    assert read.answering([]) is read
    assert read.answers_below == 1  # the filled form line, still to be checked


# -- htmltext.py: quotes, signatures and hidden text of HTML mail ----------------------------


def _html(markup: str):
    return read_mail(html_message(markup))


def test_a_signature_block_gets_one_separator():
    """Gmail's signature has no "-- ": the reader puts one above it; Thunderbird's starts
    with one, or with a signature of its own that gets one: no second one."""
    assert _html('<div>Hand 3: Baron</div><div class="gmail_signature">Max<br>Paris</div>').full_text == (
        "Hand 3: Baron\n\n--\nMax\nParis"
    )
    for signature in (
        "-- <br>Max",
        "<div>-- </div><div>Max</div>",
        "<br>-- <br>Max",
        '<div class="gmail_signature">Max<br>Paris</div>',  # Gmail's, pasted into Thunderbird's
    ):
        read = _html(f'<div>Hand 3: Baron</div><div class="moz-signature">{signature}</div>')
        assert read.full_text.split("\n").count("--") == 1, signature
        assert read.own_text == "Hand 3: Baron"


def test_each_quote_and_signature_is_marked_whatever_is_inside_the_one_before():
    """A quote of several blocks, then a signature right after it; a quote whose last
    element is a quote of its own, then the player's answer: each is marked, none twice."""
    read = _html(
        "<div>Hand 3: Baron</div><blockquote><div><p>Hand 3:</p><p>Hand 7:</p></div></blockquote>"
        '<div class="moz-signature">Max</div>'
    )
    assert read.full_text == "Hand 3: Baron\n\n> Hand 3:\n>\n> Hand 7:\n\n--\nMax"
    read = _html(
        "<div>Hand 3: Baron</div><blockquote><p>Rita wrote:</p><blockquote>Hand 3:</blockquote></blockquote>"
        "<p>Hand 7: Prince</p>"
    )
    assert read.full_text == "Hand 3: Baron\n\n> Rita wrote:\n>\n>\n> > Hand 3:\n>\n\nHand 7: Prince"


def test_quotes_deeper_than_30_are_read_at_the_30th_level():
    read = _html("<div>Hand 3</div>" + "<blockquote>" * 32 + "deep" + "</blockquote>" * 32)
    (deep,) = [line for line in read.full_text.split("\n") if "deep" in line]
    assert deep == "> " * 30 + "deep"


def test_text_that_spells_a_placeholder_is_read_as_written():
    """The reader swaps quotes for placeholder words while it converts; a word of the same
    shape in the mail (another nonce) is the player's text, left alone."""
    read = _html("<div>Hand 3: Baron</div><blockquote>Hand 3:</blockquote><div>pbemq0123456789abd0n0q</div>")
    assert read.full_text == "Hand 3: Baron\n\n> Hand 3:\n\npbemq0123456789abd0n0q"


def test_a_nul_in_the_html_is_dropped_and_what_follows_is_read():
    assert _html("<div>Hand 3: Baron\x00 on Bruno</div>").own_text == "Hand 3: Baron on Bruno"


HIDDEN_SEVEN = '<div>Hand 3: Baron</div><div class="o">Hand 7: Guard on Rita</div>'
HIDES = "the HTML hides text from the reader (display:none); that text was not read"


@pytest.mark.parametrize(
    "styles",
    [
        "<style>.a{color:red}</style><style>.o{display:none}</style>",  # the second of two
        "<style></style><style>.o{display:none}</style>",  # an empty one first (Outlook)
        '<style media="screen">.o{display:none}</style>',
        '<style media="all">.o{display:none}</style>',
    ],
)
def test_every_style_that_applies_on_screen_hides_text(styles):
    read = _html(styles + HIDDEN_SEVEN)
    assert read.own_text == "Hand 3: Baron"
    assert HIDES in read.defects


def test_a_style_for_print_hides_nothing_on_screen():
    read = _html('<style media="print">.o{display:none}</style>' + HIDDEN_SEVEN)
    assert read.own_text == "Hand 3: Baron\nHand 7: Guard on Rita"
    assert not any("hides text" in note for note in read.defects)


def test_hidden_text_in_a_quote_or_a_signature_is_no_trick():
    read = _html(
        "<style>.o{display:none}</style><div>Hand 3: Baron</div>"
        '<blockquote><div class="o">tracking</div>Hand 3:</blockquote>'
        '<div class="moz-signature"><span class="o">x</span>Max</div>'
    )
    assert read.own_text == "Hand 3: Baron"
    assert not any("hides text" in note for note in read.defects)


def test_each_trick_is_named_in_the_note():
    read = _html(
        '<style>.o{display:none}</style><div>Hand 3: Baron</div><div class="o">Hand 7</div>'
        '<div style="font-size:0">x</div>'
    )
    assert (
        "the HTML hides text from the reader (display:none, a tiny font); that text was not read"
        in read.defects
    )


def test_the_crude_reading_of_broken_html_drops_scripts_and_styles_and_breaks_lines(monkeypatch):
    """Should lxml or html_text fail on hostile markup, the tags are stripped crudely: a
    script's or a style's text is no text, a <br>, <p> or <div> ends a line, entities read."""

    def broken(_tree):
        raise ValueError("hostile markup")

    monkeypatch.setattr(htmltext.html_text, "etree_to_text", broken)
    read = _html(
        "<STYLE type=text/css>p{color:red}</STYLE><P><FONT face=Arial>Hand 3: Baron&nbsp;on Bruno</FONT>"
        "<BR>Hand 7: Prince"
        "<script>var orders='Hand 9: Guard';</script> on myself</P><DIV>Max</DIV>"
    )
    # any other tag is a space
    assert read.full_text == " Hand 3: Baron on Bruno\nHand 7: Prince  on myself\n\nMax"
    assert read.defects[0] == "the HTML part is malformed; stripped its tags crudely"


def test_html_to_text_marks_a_blank_quoted_line_with_a_bare_marker():
    """As mail clients quote plain text: "> " before each line, ">" alone on a blank one
    (`html_to_text` is public: its text is not normalised after)."""
    markup = "<div>Hand 3: Baron</div><blockquote><p>Hand 3:</p><p>Hand 7:</p></blockquote>"
    assert html_to_text(markup) == "Hand 3: Baron\n\n> Hand 3:\n>\n> Hand 7:\n"


def test_the_text_after_a_script_or_a_style_is_read():
    read = _html(
        "<div>Hand 3: Baron</div><script>var x = 1;</script>Hand 7: Prince<style>p{}</style> on myself"
    )
    assert read.own_text == "Hand 3: Baron\nHand 7: Prince on myself"


def test_a_subject_the_stdlib_cannot_parse_is_read_with_the_older_api_and_a_note(monkeypatch):
    """policy.default's header parser has crashed on hostile encoded words in some Python
    versions (none known today: the crash is put in by hand): the subject is still read."""
    from pbem.reader import headers

    def crashing(name, value):
        raise IndexError("hostile encoded word")

    monkeypatch.setattr(headers, "_default_header", crashing)
    read = read_mail(message("Hand 3: Baron\n", subject="=?utf-8?q?Re=3A_=5Bgame7=5D_Turn_3?="))
    assert (read.subject, read.tag, read.turn) == ("Re: [game7] Turn 3", "game7", 3)
    assert "the subject header is malformed; read it as it stands" in read.defects


# -- api.py: the parse reads MIME parameters by the reader's rules --------------------------------


@pytest.mark.parametrize(
    "content_type",
    [
        'multipart/mixed; boundary="b1" (written by Pegasus Mail)',  # a comment (RFC 2045)
        "multipart/mixed; boundary=b1 (comment)",
        'multipart/mixed; boundary="b1',  # an open quote, closed as policy.default closes it
    ],
)
def test_a_boundary_read_by_the_readers_rules_needs_no_guess(content_type):
    """The boundary is read as policy.default reads it: its parts are found by it, without a
    guess from the body (compat32 read 'b1 (comment)' and '"b1', and guessed)."""
    entity = multipart("mixed", [part("Hand 3: Baron on Bruno")]).replace(
        'multipart/mixed; boundary="b1"', content_type, 1
    )
    read = read_mail(multipart_message(entity))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert read.defects == ()


def test_a_boundary_written_as_an_encoded_word_gives_its_text_to_text_of():
    # RFC 2047 forbids encoded words in a quoted parameter: the boundary is used as written.
    entity = multipart("mixed", [part("Hand 3: Baron on Bruno")], boundary="=?utf-8?q?b1?=")
    raw = multipart_message(entity)
    assert text_of(raw) == read_mail(raw).full_text == "Hand 3: Baron on Bruno"


# -- htmltext.py: text moved by the reader keeps its reading (seventh run) ---------------------

# A control character a client or a server's footer leaves in the text (a form feed, an
# escape), written or as a numeric reference, or a noncharacter: the reader drops it from
# every line (a form feed is a space), and it must not spoil the rest of the page.
CONTROL_CHARACTERS = ["\x0c", "\x01", "\x1b", "\x0b", "&#12;", "&#x1B;", "&#1", "\ufffe", "&#xFFFF;"]


@pytest.mark.parametrize("control", CONTROL_CHARACTERS, ids=repr)
def test_a_control_character_after_the_closing_body_tag_leaves_the_quote_a_quote(control):
    """Text after </body> is read after the body (a browser shows it there): a control
    character in it (dropped as everywhere) must not turn the whole page into the crude
    reading, where the quoted mail would be read as the player's own words."""
    markup = (
        "<html><body><div>Hand 3: Baron on Bruno</div>"
        "<blockquote><div>Hand 9: Guard on Rita</div></blockquote>"
        f"</body>Love, Max{control}</html>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno\n\nLove, Max"
    assert not any("malformed" in note for note in read.defects)


@pytest.mark.parametrize("control", CONTROL_CHARACTERS, ids=repr)
def test_a_control_character_after_outlooks_wrapper_leaves_the_original_quoted(control):
    """Outlook's original, in a wrapper followed by text: that text goes into the quote
    with the original, a control character in it dropped, the rest read as HTML."""
    markup = (
        "<html><body><div>Hand 3: Baron on Bruno</div>"
        '<div><div id="divRplyFwdMsg">From: The GM</div><div>Hand 9: Guard on Rita</div></div>'
        f"Turn 4 of the game{control}</body></html>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert not any("malformed" in note for note in read.defects)


@pytest.mark.parametrize("control", CONTROL_CHARACTERS, ids=repr)
def test_a_control_character_in_preformatted_lines_or_after_a_quote_in_a_line_spoils_nothing(control):
    """Thunderbird's <pre> of a plain-text mail keeps its lines, and a quote inside a line
    of the player's stands apart, a control character at a line's end or not."""
    pre = read_mail(
        html_message(f"<pre>Hand 3: Baron on Bruno{control}\nHand 7: Prince on myself{control}</pre>")
    )
    assert pre.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    markup = (
        f"<div>Hand 3: Baron on Bruno<blockquote>Hand 9: Guard on Rita</blockquote>Love, Max{control}</div>"
    )
    inline = read_mail(html_message(markup))
    assert inline.own_text == "Hand 3: Baron on Bruno\n\nLove, Max"
    assert not any("malformed" in note for note in (*pre.defects, *inline.defects))


# -- htmltext.py: _gather_body (seventh run) ----------------------------------------------------


def test_a_page_closed_after_its_head_is_read_from_what_follows_it():
    """A template that closes the page after its head (`<html><head>...</head></html>`) and
    writes the mail after it: libxml2 makes the mail a page of its own, with no body in the
    first; a browser shows it, and so does the reader (not the crude reading, title and all)."""
    markup = (
        "<html><head><title>Love Letter, turn 4</title></head></html>"
        "<div>Hand 3: Baron on Bruno</div><blockquote><div>Hand 9: Guard on Rita</div></blockquote>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert not any("malformed" in note for note in read.defects)


def test_the_pages_styles_apply_to_what_follows_the_closing_html_tag_as_a_browser_applies_them():
    """A browser puts what follows </html> in the body, as the body's own children: a
    style of the page hides or shows it there (`body > p` hides a paragraph after </html>,
    `body div` hides no paragraph), and the reader reads what the browser shows."""
    hidden = read_mail(
        html_message(
            "<html><head><style>body > p {display:none}</style></head><body>"
            "<div>Hand 3: Baron on Bruno</div></body></html><p>Hand 9: Guard on Rita</p>"
        )
    )
    assert hidden.own_text == "Hand 3: Baron on Bruno"
    assert "the HTML hides text from the reader (display:none); that text was not read" in hidden.defects
    shown = read_mail(
        html_message(
            "<html><head><style>body div {display:none}</style></head><body>"
            "<p>Hand 3: Baron on Bruno</p></body></html><p>Hand 7: Prince on myself</p>"
        )
    )
    assert shown.own_text == "Hand 3: Baron on Bruno\n\nHand 7: Prince on myself"
    # A second <body> tag after </html> opens no other body: its paragraph follows the
    # first page's, and `p + p` hides it, as in a browser.
    second = read_mail(
        html_message(
            "<html><head><style>p + p {display:none}</style></head><body>"
            "<p>Hand 3: Baron on Bruno</p></body></html><body><p>Hand 9: Guard on Rita</p></body>"
        )
    )
    assert second.own_text == "Hand 3: Baron on Bruno"


def test_text_after_the_closing_body_tag_is_the_bodys_own_text_for_the_pages_styles():
    """A browser shows the text after </body> as the body's own last text, in no element:
    a style hiding the page's spans (`body > span`, as a newsletter hides its preheader)
    does not hide it, and the reader reads it."""
    read = read_mail(
        html_message(
            "<html><head><style>body > span {display:none}</style></head><body>"
            "<div>Hand 3: Baron on Bruno</div></body>Hand 7: Prince on myself</html>"
        )
    )
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert not any("hides text" in note for note in read.defects)


def test_text_after_the_closing_body_tag_follows_a_body_of_text_alone():
    """A hand-made page whose body is text alone, no element, and a sign-off after </body>:
    both are read, on one line, as a browser shows them."""
    read = read_mail(html_message("<html><body>Hand 3: Baron on Bruno</body>\nLove, Max</html>"))
    assert read.own_text == "Hand 3: Baron on Bruno Love, Max"
    assert not any("malformed" in note for note in read.defects)
    empty = read_mail(html_message("<html><body></body>Hand 7: Prince on myself</html>"))
    assert empty.own_text == "Hand 7: Prince on myself"  # a body of nothing, then the text


def test_a_page_closed_after_its_head_has_its_styles_applied_to_the_body_that_follows():
    """What follows a page closed after its head is the body a browser shows, one body for
    all of it: `body > div` hides a div of it (and a second <body> tag opens no other)."""
    for after in ("<div>Hand 9: Guard on Rita</div>", "<body><div>Hand 9: Guard on Rita</div></body>"):
        read = read_mail(
            html_message(
                "<html><head><style>body > div {display:none}</style></head></html>"
                f"{after}</html><body><p>Hand 3: Baron on Bruno</p></body>"
            )
        )
        assert read.own_text == "Hand 3: Baron on Bruno", after
        assert "the HTML hides text from the reader (display:none); that text was not read" in read.defects


@pytest.mark.parametrize(
    ("control", "read_as"),
    [
        ("\x0c", " "),
        ("&#12;", " "),
        ("&#x0C;", " "),
        ("&#x1F;", " "),
        ("\x1f", " "),
        ("&#1;", ""),
        ("&#27", ""),
        ("\x01", ""),
    ],
    ids=repr,
)
def test_a_control_character_between_words_is_a_space_or_nothing_as_before(control, read_as):
    """Between two words, written or as a reference, a form feed or a separator is white
    space in HTML (a space), and another control character is nothing a client shows."""
    read = read_mail(html_message(f"<div>Hand 3:{control}Baron on Bruno</div>"))
    assert read.own_text == f"Hand 3:{read_as}Baron on Bruno"
