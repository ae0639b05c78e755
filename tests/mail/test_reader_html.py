"""Tests of pbem.reader: HTML quotes become "> " lines; the shortcuts against the XPath oracle.

Hand-written messages pin each rule (every test names what breaks if the rule breaks).
"""

from __future__ import annotations

import lxml.etree
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reader_kit import (
    FUZZ,
    TURN_HTML,
    assert_no_lookalikes,
    html_message,
    multipart,
    multipart_message,
    part,
    reply,
)

from pbem.reader import htmltext, read_mail
from pbem.reader.notes import _Notes

# --------------------------------------------------------------------------------------------
# HTML: quotes of the big clients become "> " lines
# --------------------------------------------------------------------------------------------


def test_gmail_html_reply():
    markup = (
        '<div dir="ltr">Hand 3: Baron on Bruno<br>Hand 7: Prince on myself</div><br>'
        '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Tue, 1 Dec 2026 at 10:00, '
        'Rita (pbem) &lt;<a href="mailto:gm@example.org">gm@example.org</a>&gt; wrote:<br></div>'
        f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">{TURN_HTML}</blockquote></div>'
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert "> Hand 3:" in read.full_text  # quotes are kept in full_text, marked
    assert_no_lookalikes(read)


def test_gmail_html_inline_answers_between_split_blockquotes():
    head, tail = TURN_HTML.split("Hand 7:<br>")
    head = head.replace("Hand 3:<br>", "Hand 3:")
    markup = (
        '<div dir="ltr">See below</div><div class="gmail_quote">'
        '<div class="gmail_attr">On Tue, 1 Dec 2026 Rita wrote:</div>'
        f'<blockquote class="gmail_quote">{head}</blockquote>'
        "<div>Baron on Bruno</div>"
        '<blockquote class="gmail_quote">Hand 7:</blockquote>'
        "<div>Prince on myself</div>"
        f'<blockquote class="gmail_quote">{tail}</blockquote></div>'
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "See below\n\nHand 3: Baron on Bruno\n\nHand 7: Prince on myself"


def test_gmail_forward_div_without_blockquote_is_quoted():
    markup = (
        '<div>FYI</div><div class="gmail_quote">---------- Forwarded message ---------<br>'
        "From: Rita<br>Hand 3: Guard on Bruno</div>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "FYI"


def test_outlook_web_html_reply():
    markup = (
        "<html><head><style>p {margin:0}</style></head><body>"
        '<div style="font-family: Calibri">Hand 3: Baron on Bruno</div>'
        '<div style="font-family: Calibri">Hand 7: Prince on myself</div>'
        '<div id="appendonsend"></div><hr style="display:inline-block;width:98%">'
        '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>From:</b> Rita (pbem) &lt;gm@example.org&gt;<br>'
        "<b>Sent:</b> Tuesday, December 1, 2026 10:00 AM<br><b>To:</b> Chloé<br>"
        "<b>Subject:</b> [game7] Turn 3: your cards and orders</font><div>&nbsp;</div></div>"
        f"<div>{TURN_HTML}</div></body></html>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert "p {margin" not in read.full_text
    assert_no_lookalikes(read)


def test_outlook_web_original_nested_in_a_container_is_quoted_to_the_end():
    markup = (
        "<body><div>Hand 3: Baron on Bruno</div>"
        '<div class="wrapper"><div id="divRplyFwdMsg">From: Rita</div><div>Hand 7: Guard on Bruno</div>tail text</div>'
        "<div>Hand 11: Countess</div></body>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert "> tail text" in read.full_text


def test_outlook_desktop_html_header_block_is_cut():
    markup = (
        '<body><div class="WordSection1"><p class="MsoNormal">Hand 3: Baron on Bruno</p>'
        '<div style="border:none;border-top:solid #E1E1E1 1.0pt"><p class="MsoNormal"><b>From:</b> Rita (pbem) '
        "&lt;gm@example.org&gt;<br><b>Sent:</b> Tuesday, 1 December 2026 10:00<br><b>To:</b> Chloé "
        "&lt;chloe@example.org&gt;<br><b>Subject:</b> [game7] Turn 3</p></div>"
        f'<p class="MsoNormal">{TURN_HTML}</p></div></body>'
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_thunderbird_html_reply():
    markup = (
        "<html><body><p>Hand 3: Baron on Bruno</p>"
        '<div class="moz-cite-prefix">On 01/12/2026 10:00, Rita (pbem) wrote:<br></div>'
        f'<blockquote type="cite" cite="mid:turn3@example.org">{TURN_HTML}</blockquote>'
        '<div class="moz-signature">-- <br>Chloé</div></body></html>'
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert_no_lookalikes(read)


def test_apple_mail_html_reply_with_nested_quotes():
    markup = (
        '<html><body><div>Hand 3: Baron on Bruno</div><div><br><blockquote type="cite">'
        "<div>On 1 Dec 2026, at 10:00, Rita (pbem) &lt;gm@example.org&gt; wrote:</div><br>"
        f'<div>{TURN_HTML}<blockquote type="cite">Hand 5: King on Arthur</blockquote></div>'
        "</blockquote></div></body></html>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert "> > Hand 5: King on Arthur" in read.full_text


def test_gmail_signature_div_is_cut():
    markup = '<div>Hand 3: Baron</div><div class="gmail_signature">Chloé<br>Hand 9: Princess fan club</div>'
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron"


# Text struck through is text its writer took back: "Hand 3: <s>Baron on Bruno</s> Prince on
# myself" played the Baron (the first card named). Found writing mail as players do: Gmail's and
# Outlook's strikethrough button, and a style that strikes the text.
@pytest.mark.parametrize(
    "struck",
    [
        "<s>Baron on Bruno</s>",
        "<strike>Baron on Bruno</strike>",
        "<del>Baron on Bruno</del>",
        '<span style="text-decoration: line-through">Baron on Bruno</span>',
        '<span style="TEXT-DECORATION:LINE-THROUGH;color:red">Baron <b>on Bruno</b></span>',
    ],
)
def test_text_struck_through_is_not_read(struck):
    read = read_mail(html_message(f"<div>Hand 3: {struck} Prince on myself<br>Hand 7: Handmaid</div>"))
    assert read.own_text == "Hand 3: Prince on myself\nHand 7: Handmaid"


@pytest.mark.parametrize(
    "markup, own",
    [
        # the words around the struck text stay where they were, each of them
        ("<div><b>Hand 3:</b><s>Baron</s> Prince on myself</div>", "Hand 3: Prince on myself"),
        (
            "<div><b>Hand 3:</b> Guard <s>on Bruno</s> on Ines, guess Baron</div>",
            "Hand 3: Guard on Ines, guess Baron",
        ),
        ("<div>Hand 3: Prince on myself <s>Baron on Bruno</s></div>", "Hand 3: Prince on myself"),
        ("<div><s>Hand 3: Baron on Bruno</s>Hand 3: Prince on myself</div>", "Hand 3: Prince on myself"),
        ("<div>Hand 3: <s>Baron <del>on</del> Bruno</s> Prince on myself</div>", "Hand 3: Prince on myself"),
    ],
)
def test_the_words_around_struck_text_are_read_in_their_place(markup, own):
    assert " ".join(read_mail(html_message(markup)).own_text.split()) == own


def test_text_underlined_or_overlined_is_read():
    markup = '<div>Hand 3: <span style="text-decoration: underline">Baron on Bruno</span></div>'
    assert read_mail(html_message(markup)).own_text == "Hand 3: Baron on Bruno"


def test_html_keeps_line_breaks_and_entities():
    markup = "<p>Hand 3: Guard &rarr; Bruno (Prince)<br>Hand 7: Prince&nbsp;on&nbsp;me</p>"
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Guard → Bruno (Prince)\nHand 7: Prince on me"


def test_html_with_xml_declaration_and_garbage_does_not_crash():
    markup = '<?xml version="1.0" encoding="utf-8"?><html><body><p>Hand 3: Baron</p><<<</div>\x00</body>'
    read = read_mail(html_message(markup))
    assert "Hand 3: Baron" in read.own_text


# The XPath tests the reader used, now the oracle of its Python tests.
_XP_CLASS = "concat(' ', normalize-space(translate(@class, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')), ' ')"
_XP_ID = "translate(@id, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
_XP_QUOTE = (
    f"self::blockquote or contains({_XP_CLASS}, ' gmail_attr ')"
    f" or contains({_XP_CLASS}, ' moz-cite-prefix ') or contains({_XP_CLASS}, ' yahoo_quoted ')"
    f" or contains({_XP_CLASS}, ' outlookmessageheader ') or @name = 'quote'"
    f" or (contains({_XP_CLASS}, ' gmail_quote ') and not(.//blockquote))"
)
_XP_SPECIAL = (
    f"{_XP_QUOTE} or contains({_XP_CLASS}, ' gmail_signature ')"
    f" or contains({_XP_CLASS}, ' moz-signature ') or {_XP_ID} = 'signature'"
)
XP_IS_QUOTE = lxml.etree.XPath(f"boolean(self::*[{_XP_QUOTE}])")
XP_IS_SPECIAL = lxml.etree.XPath(f"boolean(self::*[{_XP_SPECIAL}])")
XP_SPECIALS_AT = lxml.etree.XPath(f".//*[{_XP_SPECIAL}][count(ancestor::*[{_XP_SPECIAL}]) = $base]")
XP_OUTLOOK_START = lxml.etree.XPath(f"(//*[@id][{_XP_ID} = 'appendonsend' or {_XP_ID} = 'divrplyfwdmsg'])[1]")

HTML_ATTRIBUTES = st.lists(
    st.sampled_from(
        [
            ' class="gmail_quote"',
            ' class="GMAIL_Quote"',
            ' class="gmail_attr"',
            ' class="a\tgmail_signature\nb"',
            ' class="moz-cite-prefix"',
            ' class="moz-signature"',
            ' class="yahoo_quoted"',
            ' class="OutlookMessageHeader"',
            ' class="gmail_quote\u00a0x"',
            ' class="gmail_quotex"',
            ' class=""',
            ' id="Signature"',
            ' id="signature "',
            ' id="appendonsend"',
            ' id="divRplyFwdMsg"',
            ' name="quote"',
            ' name="Quote"',
            ' CLASS="gmail_attr"',
            ' xml:id="signature"',
            ' type="cite"',
        ]
    ),
    max_size=2,
).map("".join)
HTML_TAG = st.sampled_from(
    [
        "div",
        "blockquote",
        "BLOCKQUOTE",
        "p",
        "span",
        "x:blockquote",
        "body",
        "html",
        "td",
    ]
)
HTML_MARKUP = st.recursive(
    st.sampled_from(["Hand 3: Baron", " ", "<br>", "</html>", "<html>", ""]),
    lambda inner: st.builds(
        lambda tag, attributes, content, close: (
            f"<{tag}{attributes}>{''.join(content)}" + (f"</{tag}>" if close else "")
        ),
        HTML_TAG,
        HTML_ATTRIBUTES,
        st.lists(inner, max_size=3),
        st.booleans(),
    ),
    max_leaves=12,
)


@FUZZ
@given(st.lists(HTML_MARKUP, min_size=1, max_size=3).map("".join))
def test_special_html_elements_are_found_as_the_xpath_found_them(markup):
    root = lxml.etree.fromstring(markup.encode("utf-8"), htmltext._HTML_PARSER)
    if root is None:
        return
    htmltext._gather_body(root)  # as the reader does first: every element is under root now
    outlook = XP_OUTLOOK_START(root)
    assert htmltext._outlook_start(root) is (outlook[0] if outlook else None)
    for element in root.iter():
        kind = htmltext._special_kind(element)
        assert (kind == "quote") == XP_IS_QUOTE(element)
        assert (kind is not None) == XP_IS_SPECIAL(element)
    base = 1 if XP_IS_SPECIAL(root) else 0
    found = [node for node, _ in htmltext._outermost_specials(root)]
    assert found == XP_SPECIALS_AT(root, base=base)


def test_an_unread_html_version_is_never_converted(monkeypatch):
    """The HTML of multipart/alternative is only written out as text when it is read."""
    calls = []
    original = htmltext.html_text.etree_to_text
    monkeypatch.setattr(
        htmltext.html_text,
        "etree_to_text",
        lambda tree: calls.append(1) or original(tree),
    )
    raw = multipart_message(
        multipart(
            "alternative",
            [
                part(reply("Hand 3: Baron on Bruno")),
                part(f"<div>{TURN_HTML}</div>", "text/html"),
            ],
        )
    )
    assert read_mail(raw).own_text == "Hand 3: Baron on Bruno"
    assert calls == []


def test_html_that_fails_late_reads_as_if_it_had_failed_at_once(monkeypatch):
    """Should writing out the text fail, the note stands where the old, eager reader put it."""

    def broken(tree):
        raise ValueError("boom")

    monkeypatch.setattr(htmltext.html_text, "etree_to_text", broken)
    read = read_mail(html_message("<div>Hand 3: Baron on Bruno</div>"))
    assert read.own_text == "Hand 3: Baron on Bruno"
    notes = list(read.defects)
    assert notes.index("the HTML part is malformed; stripped its tags crudely") < notes.index(
        "no text part; read the HTML part"
    )


def test_a_late_note_goes_where_it_would_have_gone():
    notes = _Notes()
    notes.add("a")
    notes.add("b")
    notes.add("late")  # added again later: a no-op then, so it moves to its first place
    notes.add_at(1, "late")
    assert notes.items == ["a", "late", "b"]
    notes.add_at(3, "a")  # already there before position 3
    assert notes.items == ["a", "late", "b"]
    notes.add_at(2, "new")
    assert notes.items == ["a", "late", "new", "b"]


# --------------------------------------------------------------------------------------------
# Hidden HTML text is nobody's orders (issue 8, item 12)
# --------------------------------------------------------------------------------------------

HIDDEN = {
    "display none": '<div style="display:none">Hand 7: Princess</div>',
    "display none, spaced and loud": '<span style="color: red; DISPLAY : NONE !important">Hand 7: Princess</span>',
    "visibility hidden": '<p style="visibility: hidden">Hand 7: Princess</p>',
    "hidden attribute": "<div hidden>Hand 7: Princess</div>",
    "zero font size": '<span style="font-size:0">Hand 7: Princess</span>',
    "zero font size in px": '<span style="font-size: 0px;">Hand 7: Princess</span>',
    "outlook mso-hide": '<span style="mso-hide:all">Hand 7: Princess</span>',
    "transparent": '<span style="opacity:0">Hand 7: Princess</span>',
    "collapsed box": '<div style="max-height:0;overflow:hidden">Hand 7: Princess</div>',
    "nested in a hidden block": '<div style="display:none"><table><tr><td>Hand 7: Princess</td></tr></table></div>',
}


@pytest.mark.parametrize("hidden", HIDDEN.values(), ids=HIDDEN.keys())
def test_hidden_html_text_is_not_read(hidden):
    markup = f"<div>Hand 3: Baron on Bruno</div>{hidden}<div>Hand 11: Countess</div>"
    read = read_mail(html_message(markup))
    assert "Princess" not in read.own_text and "Princess" not in read.full_text
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 11: Countess"


def test_text_after_a_hidden_element_is_still_read():
    markup = '<div>Hand 3: Baron <span style="display:none">on Chloé</span>on Bruno</div>'
    assert read_mail(html_message(markup)).own_text == "Hand 3: Baron on Bruno"


@pytest.mark.parametrize(
    "visible",
    [
        '<span style="font-size:10px">Hand 7: Princess</span>',
        '<span style="display:inline">Hand 7: Princess</span>',
        '<span aria-hidden="true">Hand 7: Princess</span>',  # hidden from screen readers, not the eye
        '<span style="height:0">Hand 7: Princess</span>',  # overflow shows
    ],
)
def test_visible_styled_text_is_read(visible):
    assert "Hand 7: Princess" in read_mail(html_message(f"<div>{visible}</div>")).own_text


@pytest.mark.parametrize(
    "markup",
    [
        '<style>.x { display: none }</style><div>Hand 3: Baron on Bruno</div><div class="x">Hand 7: Princess</div>',
        "<style>p.a, .b{color:red} .c{visibility:hidden}</style><div>Hand 3: Baron on Bruno</div>"
        '<p class="b c">Hand 7: Princess</p>',
        '<style>#n{font-size:0}</style><div>Hand 3: Baron on Bruno</div><span id="n">Hand 7: Princess</span>',
        '<head><style type="text/css">\n.MsoHide {mso-hide: all; display: none !important}\n</style></head>'
        '<body><div>Hand 3: Baron on Bruno</div><div class="MsoHide">Hand 7: Princess</div></body>',
    ],
)
def test_text_hidden_by_a_stylesheet_class_or_id_is_not_read(markup):
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_a_class_the_stylesheet_does_not_hide_is_read():
    markup = '<style>.x{display:none} .y{color:blue}</style><div class="y">Hand 3: Baron on Bruno</div>'
    assert read_mail(html_message(markup)).own_text == "Hand 3: Baron on Bruno"


def test_an_unread_html_version_is_not_even_parsed(monkeypatch):
    """The plain text of multipart/alternative is read: its HTML twin costs no parsing (a
    batch of mail spent a tenth of its time on trees it never read)."""
    parsed = []
    original = htmltext.lxml.etree.fromstring
    monkeypatch.setattr(
        htmltext.lxml.etree, "fromstring", lambda *a, **k: parsed.append(1) or original(*a, **k)
    )
    alternative = multipart(
        "alternative",
        [part(reply("Hand 3: Baron on Bruno")), part(f"<div>{TURN_HTML}</div>", "text/html")],
    )
    assert read_mail(multipart_message(alternative)).own_text == "Hand 3: Baron on Bruno"
    assert parsed == []
    assert read_mail(html_message("<div>Hand 3: Baron on Bruno</div>")).own_text == "Hand 3: Baron on Bruno"
    assert parsed == [1]  # read when it is the text


# --------------------------------------------------------------------------------------------
# Hidden HTML, second round: text is read the way a mail client shows it, through a real CSS
# cascade (issue 18, item 10).  Each trick hides "Hand 7: Princess" between two visible orders.
# --------------------------------------------------------------------------------------------

HIDDEN_ROUND_TWO = {
    # the issue's own
    "a comment before display": '<div style="/**/display:none">Hand 7: Princess</div>',
    "an escaped none": '<div style="display:\\6e one">Hand 7: Princess</div>',
    "a 1px font": '<span style="font-size:1px">Hand 7: Princess</span>',
    "a 0.01px font": '<span style="font-size:0.01px">Hand 7: Princess</span>',
    "white on white": '<span style="color:#ffffff">Hand 7: Princess</span>',
    "transparent text": '<span style="color:transparent">Hand 7: Princess</span>',
    "off-screen": '<div style="position:absolute;left:-9999px">Hand 7: Princess</div>',
    "text-indent": '<div style="text-indent:-9999px">Hand 7: Princess</div>',
    "clip": '<div style="position:absolute;clip:rect(0 0 0 0)">Hand 7: Princess</div>',
    "scale(0)": '<div style="transform:scale(0)">Hand 7: Princess</div>',
    "a descendant rule": "<style>div span{display:none}</style><div><span>Hand 7: Princess</span></div>",
    "an attribute rule": '<style>[data-h]{visibility:hidden}</style><p data-h="1">Hand 7: Princess</p>',
    # fresh ones
    "an escaped property name": '<div style="disp\\lay:none">Hand 7: Princess</div>',
    "a comment inside the value": '<div style="display:/* x */none">Hand 7: Princess</div>',
    "white by name, loud": '<font color="white">Hand 7: Princess</font>',
    "near-white": '<span style="color:rgb(250,250,250)">Hand 7: Princess</span>',
    "black on black": '<div style="background-color:#000"><span style="color:#111">Hand 7: Princess</span></div>',
    "the table's colour": '<table bgcolor="#336699"><tr><td style="color:#336699">Hand 7: Princess</td></tr></table>',
    "a colour of zero alpha": '<span style="color:rgba(0,0,0,0)">Hand 7: Princess</span>',
    "font shorthand 0/0": '<span style="font:0/0 a">Hand 7: Princess</span>',
    "a tiny font in em of a small one": '<div style="font-size:2px"><span style="font-size:1.5em">Hand 7: Princess</span></div>',
    "a font in pt": '<span style="font-size:1pt">Hand 7: Princess</span>',
    "clamp() to a pixel": '<span style="font-size:clamp(1px, 0.1vw, 2px)">Hand 7: Princess</span>',
    "off-screen on top": '<div style="position:fixed;top:-500px">Hand 7: Princess</div>',
    "off-screen to the right": '<div style="position:absolute;left:5000px">Hand 7: Princess</div>',
    "a negative margin": '<div style="margin-left:-10000px">Hand 7: Princess</div>',
    "clip-path inset": '<div style="clip-path:inset(50%)">Hand 7: Princess</div>',
    "clip-path circle": '<div style="clip-path:circle(0)">Hand 7: Princess</div>',
    "scaleY(0)": '<div style="transform:scaleY(0)">Hand 7: Princess</div>',
    "a flat matrix": '<div style="transform:matrix(0,0,0,0,0,0)">Hand 7: Princess</div>',
    "translated away": '<div style="transform:translateX(-9999px)">Hand 7: Princess</div>',
    "turned edge-on": '<div style="transform:rotateY(90deg)">Hand 7: Princess</div>',
    "zoomed to nothing": '<div style="zoom:0.01">Hand 7: Princess</div>',
    "faint opacity": '<div style="opacity:0.02">Hand 7: Princess</div>',
    "opacity that multiplies": '<div style="opacity:.2"><p style="opacity:.2">Hand 7: Princess</p></div>',
    "one pixel high": '<div style="height:1px;overflow:hidden">Hand 7: Princess</div>',
    "a child of a hidden parent": '<div style="visibility:hidden"><b><i>Hand 7: Princess</i></b></div>',
    "content-visibility": '<div style="content-visibility:hidden">Hand 7: Princess</div>',
    "a sibling rule": "<style>h6 + p{display:none}</style><h6></h6><p>Hand 7: Princess</p>",
    "nth-child": "<style>div > p:nth-child(2){font-size:0.5px}</style><div><p></p><p>Hand 7: Princess</p></div>",
    "an attribute value rule": '<style>[title^="x"]{color:#fff}</style><p title="xy">Hand 7: Princess</p>',
    "an important rule over the inline style": (
        '<style>.a{display:none!important}</style><p class="a" style="display:block">Hand 7: Princess</p>'
    ),
    "a rule in @media screen": "<style>@media screen{.m{display:none}}</style><p class=m>Hand 7: Princess</p>",
    "a rule in @supports": "<style>@supports (display:grid){.m{opacity:0}}</style><p class=m>Hand 7: Princess</p>",
    "a comment in the stylesheet": "<style>/* x */ p.q /**/ { display /**/ : none }</style><p class=q>Hand 7: Princess</p>",
    "hidden attribute on a table": "<table hidden><tr><td>Hand 7: Princess</td></tr></table>",
    "white in CSS Color 4 syntax": '<span style="color:rgb(255 255 255)">Hand 7: Princess</span>',
    "white in hsl": '<span style="color:hsl(0 0% 100%)">Hand 7: Princess</span>',
    "an important declaration before a later one": (
        '<p style="display:none !important; display:block">Hand 7: Princess</p>'
    ),
    "filter opacity": '<div style="filter:opacity(0)">Hand 7: Princess</div>',
    "a screen-only stylesheet": '<style media="screen">.s{display:none}</style><p class=s>Hand 7: Princess</p>',
    "a tiny percentage font": '<span style="font-size:1%">Hand 7: Princess</span>',
    "an element inheriting a tiny em": '<div style="font-size:.1em"><p>Hand 7: <b>Princess</b></p></div>',
    "the screen-reader-only pattern": (
        '<div style="position:absolute;width:1px;height:1px;overflow:hidden">Hand 7: Princess</div>'
    ),
}


@pytest.mark.parametrize("hidden", HIDDEN_ROUND_TWO.values(), ids=HIDDEN_ROUND_TWO.keys())
def test_text_hidden_by_css_is_not_read_and_the_gm_is_told(hidden):
    markup = f"<div>Hand 3: Baron on Bruno</div>{hidden}<div>Hand 11: Countess</div>"
    read = read_mail(html_message(markup))
    assert "Princess" not in read.full_text, read.full_text
    lines = [line for line in read.own_text.split("\n") if line.strip()]  # an empty <h6> makes one
    assert lines == ["Hand 3: Baron on Bruno", "Hand 11: Countess"]
    assert any(htmltext.HIDDEN_TEXT_NOTE in note for note in read.defects), read.defects


GMAIL_HTML = (
    '<div dir="ltr"><div class="gmail_default" style="font-family:arial,sans-serif;font-size:small;'
    'color:#222222">Hand 3: Baron on Bruno</div><div class="gmail_default" style="font-family:arial,'
    'sans-serif;font-size:small;color:#222222"><br></div><div style="color:rgb(34,34,34)">Hand 7: Princess'
    '</div></div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, Nov 30, 2026'
    ' at 10:00 AM Rita &lt;gm@example.org&gt; wrote:<br></div><blockquote class="gmail_quote" '
    'style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">Hand 3:'
    "</blockquote></div>"
)
OUTLOOK_HTML = (
    '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style><!--\n'
    "@font-face {font-family:Calibri; panose-1:2 15 5 2 2 2 4 3 2 4;}\n"
    'p.MsoNormal, li.MsoNormal, div.MsoNormal {margin:0in; font-size:11.0pt; font-family:"Calibri",sans-serif;}\n'
    "span.EmailStyle17 {mso-style-type:personal-compose; color:windowtext;}\n"
    ".MsoChpDefault {mso-style-type:export-only; font-size:10.0pt;}\n"
    "@page WordSection1 {size:8.5in 11.0in; margin:1.0in 1.0in 1.0in 1.0in;}\n"
    "div.WordSection1 {page:WordSection1;}\n--></style></head>"
    '<body lang="EN-US" link="#0563C1" vlink="#954F72"><div class="WordSection1">'
    '<p class="MsoNormal">Hand 3: Baron on Bruno<o:p></o:p></p>'
    '<p class="MsoNormal" style="text-indent:-.25in;margin-left:.5in"><span style=\'font-size:11.0pt;'
    "color:#1F497D'>Hand 7: Princess<o:p></o:p></span></p></div></body></html>"
)


@pytest.mark.parametrize(
    "visible",
    [
        '<span style="color:#c00000">Hand 7: Princess</span>',  # red: coloured, visible
        '<span style="color:#777">Hand 7: Princess</span>',  # the grey of a sent-from line
        '<div style="background:#1e1e1e;color:#eeeeee">Hand 7: Princess</div>',  # dark mode
        '<table bgcolor="black"><tr><td><font color="white">Hand 7: Princess</font></td></tr></table>',
        '<span style="font-size:7pt">Hand 7: Princess</span>',  # small but legible
        '<span style="font-size:x-small">Hand 7: Princess</span>',
        '<span style="font-size:0"><span style="font-size:14px">Hand 7: Princess</span></span>',  # the layout trick
        '<div style="visibility:hidden"><span style="visibility:visible">Hand 7: Princess</span></div>',
        '<div style="color:white"><span style="color:black">Hand 7: Princess</span></div>',
        '<div style="background-image:url(cid:x);color:#fff">Hand 7: Princess</div>',  # on a picture
        '<div style="position:relative;left:-4px">Hand 7: Princess</div>',
        '<div style="transform:scale(0.9)">Hand 7: Princess</div>',
        '<div style="opacity:0.6">Hand 7: Princess</div>',
        "<style>@media print{p{display:none}}</style><p>Hand 7: Princess</p>",  # only on paper
        "<style>@media (max-width:480px){.d{display:none}}</style><p class=d>Hand 7: Princess</p>",  # phones
        "<style>@media (max-width:30rem){.d{display:none}}</style><p class=d>Hand 7: Princess</p>",  # in rem
        "<style>@media (max-width:30em){.d{display:none}}</style><p class=d>Hand 7: Princess</p>",  # in em
        '<style>.x{display:none}</style><p class="x" style="display:block !important">Hand 7: Princess</p>',
        "<style>p{color:#fff} p.v{color:#000}</style><p class=v>Hand 7: Princess</p>",  # specificity
        '<p style="color:inherit">Hand 7: Princess</p>',
        '<p style="font-size:calc(100% - 2px)">Hand 7: Princess</p>',  # can't tell: read
        '<p style="display:none;display:block">Hand 7: Princess</p>',  # the last declaration wins
        '<style media="print">p{display:none}</style><p>Hand 7: Princess</p>',  # a print stylesheet
        '<p style="background-color:initial">Hand 7: Princess</p>',  # transparent, not black
        '<p style="color:rgb(20 20 20 / 90%)">Hand 7: Princess</p>',
        '<div style="font-size:0"><p style="font-size:13px">Hand 7: Princess</p></div>',
    ],
)
def test_visible_text_is_read_however_it_is_styled(visible):
    read = read_mail(html_message(f"<div>{visible}</div>"))
    assert "Hand 7: Princess" in read.own_text, read.own_text
    assert not any(htmltext.HIDDEN_TEXT_NOTE in note for note in read.defects), read.defects


@pytest.mark.parametrize("markup", [GMAIL_HTML, OUTLOOK_HTML], ids=["gmail", "outlook"])
def test_ordinary_client_html_is_read_whole(markup):
    read = read_mail(html_message(markup))
    assert read.own_text.split("\n")[0] == "Hand 3: Baron on Bruno"
    assert "Hand 7: Princess" in read.own_text
    assert not any(htmltext.HIDDEN_TEXT_NOTE in note for note in read.defects), read.defects


def test_a_hidden_word_inside_a_visible_line_goes_and_the_line_stays():
    markup = '<p>Hand 3: Baron on <span style="font-size:1px">Chloé and</span>Bruno</p>'
    assert read_mail(html_message(markup)).own_text == "Hand 3: Baron on Bruno"


def test_the_body_text_attribute_is_a_colour_too():
    markup = (
        '<html><body text="#ffffff"><div><font color="#000000">Hand 3: Baron on Bruno</font></div>'
        "<div>Hand 7: Princess</div></body></html>"
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"


@pytest.mark.parametrize(
    "styles",
    [
        '<p style="font-size:' + "calc(" * 1000 + "1px" + ")" * 1000 + '">Hand 7: Princess</p>',
        "<style>"
        + "@media screen{" * 1000
        + ".p{display:none}"
        + "}" * 1000
        + "</style><p class=p>Hand 7: Princess</p>",
        "<style>p{font-size:"
        + "min(" * 1000
        + "1px"
        + ")" * 1000
        + "}</style><p class=x>Hand 7: Princess</p>",
    ],
    ids=["deep calc", "deep media", "deep min in a sheet"],
)
def test_styles_too_intricate_to_read_hide_their_text_rather_than_show_it(styles):
    read = read_mail(html_message(f"<div>Hand 3: Baron on Bruno</div>{styles}"))
    assert "Princess" not in read.full_text
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert any(htmltext.HIDDEN_TEXT_NOTE in note for note in read.defects), read.defects


# --------------------------------------------------------------------------------------------
# HTML: lines as the client showed them
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "markup",
    [
        "<pre>Hand 3: Baron on Bruno\nHand 7: Prince on myself</pre>",
        '<div style="white-space: pre-wrap">Hand 3: Baron on Bruno\nHand 7: Prince on myself</div>',
        '<div style="white-space:pre-line">Hand 3: Baron on Bruno\nHand 7: Prince on myself</div>',
        "<pre>Hand 3: <b>Baron</b> on Bruno\nHand 7: Prince on <i>myself</i>\n</pre>",
    ],
)
def test_the_lines_of_preformatted_text_stay_lines(markup):
    read = read_mail(html_message(f"<html><body>{markup}</body></html>"))
    assert read.own_text == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"


def test_a_thunderbird_reply_quoting_in_pre_keeps_the_quoted_lines_apart():
    # Thunderbird quotes a plain-text mail as <blockquote type="cite"><pre class="moz-quote-pre">.
    turn = "Hand 3:\nHand 7:\n\nYour order code: Z9FD-2LJE"
    markup = (
        "<html><body><p>Hand 3: Baron on Bruno</p>"
        '<div class="moz-cite-prefix">On 01/12/2026 10:00, Rita (pbem) wrote:<br></div>'
        f'<blockquote type="cite"><pre class="moz-quote-pre" wrap="">{turn}</pre></blockquote></body></html>'
    )
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron on Bruno"
    assert "> Hand 3:\n> Hand 7:" in read.full_text


@pytest.mark.parametrize(
    "markup",
    ["Hand 3: Ba<wbr>ron on Bru<wbr/>no", "Hand 3: Baron on Bru&shy;no", "Hand 3: Bar\u00adon on Bruno"],
)
def test_a_word_break_hint_does_not_split_a_word(markup):
    read = read_mail(html_message(f"<html><body><div>{markup}</div></body></html>"))
    assert read.own_text == "Hand 3: Baron on Bruno"
