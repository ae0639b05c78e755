#!/usr/bin/env python3
"""Rebuild the reply corpus (tests/mail/corpus/*.eml, expected.yaml).

Every message below is written out by hand, header by header and part by
part, in the layout the named mail client produces.  This script only does
the mechanical work a client does when it sends: CRLF line ends,
quoted-printable / base64 / 8bit transfer encodings, RFC 2047 header words
and the tiny binary attachments.  It does not use, and must not use, any
code of the pbem reader that the corpus judges.

Run:  python3 tests/mail/corpus/make_corpus.py [OUT_DIR]
(OUT_DIR defaults to this folder; tests/mail/test_corpus_generator.py rebuilds
the corpus elsewhere and checks it equals the committed files byte for byte.)
"""

import base64
import html
import os
import quopri

HERE = os.path.dirname(os.path.abspath(__file__))

# --------------------------------------------------------------------------
# binary attachments (made once: a 64x48 JPEG "photo", an 80x40 PNG
# "screenshot", a one-page PDF written by hand)
# --------------------------------------------------------------------------
PHOTO_JPG = (
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4p"
    "LSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09P"
    "T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAwAEADASIA"
    "AhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQA"
    "AAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3"
    "ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWm"
    "p6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEA"
    "AwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSEx"
    "BhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElK"
    "U1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3"
    "uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDvqKq6"
    "lJHb2FxdSQrL9nieQK3fAzjPbpUUxgivI7dbNHLwySjaBn5SgwM+u/17Vmlcov0VlRXMDaY13LYx"
    "o4kaLylw2XEhQDOB1IH51PbJ5kkkdzp8UTJghl+dGBz0OByMcjHpTcbAXqKh+zW//PCL/vgUfZrf"
    "/nhF/wB8Cp0AmoqH7Nb/APPCL/vgU5IYozmONFPTKqBRoBDqNml/Yz2z7QZYmjDld2zIxmoV0eyj"
    "vo7mG2t4gsTxsiQqN24qQePTafzqbUpI7ewuLqSFZfs8TyBW74GcZ7dKq6hcW9lNHH9jicyIzA4A"
    "53ogB46Zk69sVcb7Jgx39jwGwktjs3NK8qyCMZUmQuPyJH1xSWekpBd3FzN9nkadUUrHAEUFS3PU"
    "9d36fk1rmBNPvrh7ODzLIP5kakEEqobAbHoR2qxbfZ7l5THaxeSh2rJtHzkdcDHQdM9+fxbcrbiJ"
    "/s1v/wA8Iv8AvgUfZrf/AJ4Rf98Cj7Nb/wDPCL/vgUfZrf8A54Rf98Cpv5jsH2a3/wCeEX/fApyQ"
    "xRnMcaKemVUCm/Zrf/nhF/3wKckMUZzHGinplVApN+YEOo2aX9jPbPtBliaMOV3bMjGap3Gg2jyi"
    "S2it7ciJkIWBcMSyEE+o+UjHcMelabxRyY8yNXx03DOKZ9mt/wDnhF/3wKak11CxQGiQf2Zd2uIV"
    "e5VwzpCFCkrtGF7AADjNT2mmQWrSqiRmBm3JH5Y/d+oB9M847c/hY+zW/wDzwi/74FH2a3/54Rf9"
    "8CnzvuFg+zW//PCL/vgUfZrf/nhF/wB8Cj7Nb/8APCL/AL4FH2a3/wCeEX/fApX8wsH2a3/54Rf9"
    "8CnJDFGcxxop6ZVQKb9mt/8AnhF/3wKckMUZzHGinplVApN+YH//2Q=="
)
SHOT_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAFAAAAAoCAIAAADmAupWAAAB5ElEQVR42u2aMYvCMBSA2+MgRFE7"
    "CYL+AkGdo/RGJx3FQegkiKvg4E9w6ORUHB2cLP0LTg6ODiK6KEgFRXFqFHw35OhJ9eCOOzzR9y1N"
    "wuuDrwmkL0QGAOmZeJGejFfxkGX54VXFWn719B8Vd0afbkmjMAqjMAqjMAqjMAqjMAr/bbV0FUVR"
    "drvdV91vcv5WsVi0bVuSpMPhMJlM1uv1fQn/Od1uVzTa7fZ8Pv+3KlEUhnBBKBS67I5Go3Q6HY/H"
    "dV13xxuNhqqqiUSi1+sBgG3buVwuk8lomuZJAgCn0ymVSq1WK7ghn6Y/Fa5UKv1+f7PZRCIRMU4p"
    "FfKz2SwWiwFAqVTqdDoAYJomIcST1rKscrkMt+VbwpTStzMopQCw3+8Nw6jX636/X4QRQrbbrWgH"
    "g0EAiEajjuMAwPF49Pl8nrSqqo7H43sUvjrD2WzWMIzFYhEIBMS423BjwuGwEOaci8/kMhgM8vk8"
    "3BxX8Mfb0nA4LBQKjuNwzj92thdvEsaYZVmSJJmm6Tk5ajabtVrtTrelq1SrVcZYMplUFIVzTgi5"
    "jNF1XdO0VqvFGDsPmE6ny+VSVdX/PNwSMyDL8sMf4glB/LVEYRRGYRRGYRRGYRRGYRT+bbX0DLce"
    "PqslXNIPyzt7p376GKk4tQAAAABJRU5ErkJggg=="
)
NOTES_PDF = (
    "JVBERi0xLjQKJeLjz9MKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4K"
    "ZW5kb2JqCjIgMCBvYmoKPDwgL1R5cGUgL1BhZ2VzIC9LaWRzIFszIDAgUl0gL0NvdW50IDEgPj4K"
    "ZW5kb2JqCjMgMCBvYmoKPDwgL1R5cGUgL1BhZ2UgL1BhcmVudCAyIDAgUiAvTWVkaWFCb3ggWzAg"
    "MCA1OTUgODQyXSAvQ29udGVudHMgNCAwIFIgL1Jlc291cmNlcyA8PCAvRm9udCA8PCAvRjEgNSAw"
    "IFIgPj4gPj4gPj4KZW5kb2JqCjQgMCBvYmoKPDwgL0xlbmd0aCAxMTggPj4Kc3RyZWFtCkJUIC9G"
    "MSAxNCBUZiA3MiA3NzAgVGQgKEJydW5vIC0gbm90ZXMgb24gdHVybiAzLCBnYW1lNykgVGogMCAt"
    "MjIgVGQgKEhhbmQgNjogQ2hsb2UgcHJvYmFibHkgaG9sZHMgdGhlIFByaW5jZXNzLikgVGogRVQK"
    "ZW5kc3RyZWFtCmVuZG9iago1IDAgb2JqCjw8IC9UeXBlIC9Gb250IC9TdWJ0eXBlIC9UeXBlMSAv"
    "QmFzZUZvbnQgL0hlbHZldGljYSA+PgplbmRvYmoKeHJlZgowIDYKMDAwMDAwMDAwMCA2NTUzNSBm"
    "IAowMDAwMDAwMDE1IDAwMDAwIG4gCjAwMDAwMDAwNjQgMDAwMDAgbiAKMDAwMDAwMDEyMSAwMDAw"
    "MCBuIAowMDAwMDAwMjQ3IDAwMDAwIG4gCjAwMDAwMDA0MTYgMDAwMDAgbiAKdHJhaWxlcgo8PCAv"
    "U2l6ZSA2IC9Sb290IDEgMCBSID4+CnN0YXJ0eHJlZgo0ODYKJSVFT0YK"
)


def b64data(parts):
    return base64.b64decode("".join(parts))


# --------------------------------------------------------------------------
# encoding helpers (what a client does on send)
# --------------------------------------------------------------------------
def qp(text, charset="utf-8"):
    """Quoted-printable body, lines <= 76 with '=' soft breaks."""
    return quopri.encodestring(text.encode(charset)).decode("ascii")


def b64(data, charset="utf-8"):
    if isinstance(data, str):  # text is sent with CRLF line ends inside the base64 too
        data = data.replace("\r\n", "\n").replace("\n", "\r\n").encode(charset)
    return base64.encodebytes(data).decode("ascii")


def qword(text, charset="UTF-8"):
    """RFC 2047 Q encoded-word."""
    out = []
    for byte in text.encode(charset.lower() if charset.lower() != "utf-8" else "utf-8"):
        ch = chr(byte)
        if ch.isascii() and (ch.isalnum() or ch in "!*+-/"):
            out.append(ch)
        elif ch == " ":
            out.append("_")
        else:
            out.append("=%02X" % byte)
    return "=?%s?Q?%s?=" % (charset, "".join(out))


def bwords(text, charset="UTF-8", max_bytes=45):
    """RFC 2047 B encoded-words, split on character boundaries."""
    words, chunk = [], ""
    for ch in text:
        if len((chunk + ch).encode("utf-8")) > max_bytes:
            words.append(chunk)
            chunk = ""
        chunk += ch
    words.append(chunk)
    return ["=?%s?B?%s?=" % (charset, base64.b64encode(w.encode("utf-8")).decode()) for w in words]


def esc(s):
    return html.escape(s, quote=False)


def nbsp_runs(s, nb):
    """Render runs of spaces the way HTML editors keep them visible."""
    out, i = [], 0
    while i < len(s):
        if s[i] == " ":
            j = i
            while j < len(s) and s[j] == " ":
                j += 1
            n = j - i
            if n == 1 and i != 0:
                out.append(" ")
            else:
                out.append("".join(nb if k % 2 == 0 else " " for k in range(n)))
            i = j
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def gt(text, prefix="> ", blank=">"):
    """Quote every line with '> ' (blank lines get `blank`)."""
    return "\n".join(prefix + l if l else blank for l in text.split("\n"))


def mp(boundary, parts, preamble=""):
    """Assemble a multipart body; each part is 'headers\\n\\nbody' text."""
    out = preamble
    for p in parts:
        out += "--" + boundary + "\n" + p
        if not p.endswith("\n"):
            out += "\n"
    out += "--" + boundary + "--\n"
    return out


# --------------------------------------------------------------------------
# the game and the turn mails the tool sent
# --------------------------------------------------------------------------
GM = "Rita (pbem) <gm@example.org>"
PLAYERS = {
    "arthur": dict(
        name="Arthur",
        full="Arthur Pendleton",
        addr="arthur@example.org",
        code="K7QM-3XTP",
        mid="t3.private.arthur.1c9e@example.org",
        cards=[
            (1, "Guard, Baron", 1),
            (2, "Handmaid", 0),
            (5, "Handmaid, Prince", 1),
            (6, "Spy", 0),
            (9, "Guard, King", 1),
            (10, "Countess", 0),
        ],
        learned="Hand 6: your Spy saw that Chloé holds the Princess.",
        victim="Bruno",
    ),
    "bruno": dict(
        name="Bruno",
        full="Bruno Leal",
        addr="bruno@example.org",
        code="B4HN-8RWC",
        mid="t3.private.bruno.4d07@example.org",
        cards=[
            (2, "Guard, Countess", 1),
            (3, "King", 0),
            (6, "Spy, Prince", 1),
            (7, "Baron", 0),
            (10, "Baron, Guard", 1),
            (12, "Handmaid", 0),
        ],
        learned="Hand 7: your Baron tied with Chloé's Baron; nobody is out.",
        victim="Chloé",
    ),
    "chloe": dict(
        name="Chloé",
        full="Chloé Martin",
        addr="chloe@example.fr",
        code="Z9FD-2LJE",
        mid="t3.private.chloe.8f2a@example.org",
        cards=[
            (1, "Guard", 0),
            (2, "Prince", 0),
            (3, "Baron, Countess", 1),
            (4, "Handmaid", 0),
            (7, "Guard, Prince", 1),
            (11, "King, Spy", 1),
        ],
        learned="Hand 5: your Spy saw that Bruno holds the King.",
        victim="Bruno",
    ),
    "dominik": dict(
        name="Dominik",
        full="Dominik Müller",
        addr="dominik@example.de",
        code="M6VT-5GYA",
        mid="t3.private.dominik.b35c@example.org",
        cards=[
            (4, "Prince, Countess", 1),
            (5, "Guard", 0),
            (8, "Guard, Handmaid", 1),
            (9, "Spy", 0),
            (11, "Baron", 0),
            (12, "King, Baron", 1),
        ],
        learned="Hand 8: Arthur's King swapped hands with you; you now hold the Handmaid.",
        victim="Arthur",
    ),
}
BRUNO_T2 = dict(
    PLAYERS["bruno"],
    mid="t2.private.bruno.77e1@example.org",
    cards=[
        (2, "Guard, Baron", 1),
        (3, "King", 0),
        (6, "Spy, Handmaid", 1),
        (7, "Baron, Guard", 1),
        (10, "Guard", 0),
        (12, "Handmaid", 0),
    ],
    learned="Hand 10: Dominik's Guard guessed wrong (Prince).",
)

TURN3_DUE = "Tuesday 1 December 2026, 20:00 Europe/Paris (19:00 UTC)"
TURN2_DUE = "Sunday 29 November 2026, 18:00 Europe/Paris (17:00 UTC)"
SUBJ3 = "[game7] Turn 3: your cards and orders"
SUBJ2 = "[game7] Turn 2: your cards and orders"


def turn_text(p, turn=3):
    """Body of the private turn mail the tool sent to player p."""
    due = TURN3_DUE if turn == 3 else TURN2_DUE
    mine = [h for h, _, t in p["cards"] if t]
    lines = [
        '%s, here is your position for turn %d of "Love Letter, postal game 7".' % (p["name"], turn),
        "Orders are due by %s." % due,
        "",
        "Your cards",
    ]
    for h, cards, t in p["cards"]:
        row = "  Hand %2d: %s" % (h, cards.ljust(21) + "<- your turn" if t else cards)
        lines.append(row)
    lines += [
        "",
        "What you learned this turn",
        "  " + p["learned"],
        "",
        "Your order code: %s (keep it in your reply)" % p["code"],
        "",
        "Orders for turn %d -- fill in one line per hand and reply to this mail:" % turn,
    ]
    lines += ["Hand %d:" % h for h in mine]
    lines += [
        "",
        'Examples: "Hand %d: Guard on %s, guess Prince", "Hand %d: Prince on myself",'
        % (mine[0], p["victim"], mine[1]),
        '"Hand %d: Countess". Cards: Guard 1, Spy 2, Baron 3, Handmaid 4, Prince 5,' % mine[2],
        "King 6, Countess 7, Princess 8.",
    ]
    return "\n".join(lines)


# Phrases of the turn mail that must never show up in a player's own text.
TURN_EXCLUDES = [
    "Examples:",
    "<- your turn",
    "Your order code",
    "What you learned this turn",
    "fill in one line per hand",
    "Cards: Guard 1, Spy 2",
]


def example_line(p):
    mine = [h for h, _, t in p["cards"] if t]
    return "Hand %d: Guard on %s, guess Prince" % (mine[0], p["victim"])


def html_lines(text, fmt, nb="&nbsp;"):
    """The quoted plain-text turn mail as the various HTML editors render it."""
    lines = text.split("\n")
    r = lambda l: nbsp_runs(esc(l), nb)
    if fmt == "gmail":  # <br> separated, runs of spaces as U+00A0 + space
        return "".join(r(l) + "<br>" for l in lines)
    if fmt == "apple":  # one <div> per line
        return "".join("<div>%s</div>" % (r(l) if l else "<br>") for l in lines)
    if fmt == "ios":  # <span> per line
        return "".join(("<span>%s</span><br>" % r(l)) if l else "<br>" for l in lines)
    if fmt == "word":  # Outlook renders a plain original as MsoPlainText paragraphs
        return "\n".join(
            '<p class="MsoPlainText">%s<o:p></o:p></p>' % r(l)
            if l
            else '<p class="MsoPlainText"><o:p>&nbsp;</o:p></p>'
            for l in lines
        )
    if fmt == "owa":
        return "<br>\n".join(r(l) for l in lines)
    if fmt == "webde":
        return "<br/>\n".join(r(l) for l in lines)
    raise ValueError(fmt)


WORD_HEAD = """<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word" xmlns:m="http://schemas.microsoft.com/office/2004/12/omml" xmlns="http://www.w3.org/TR/REC-html40">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=@CHARSET@">
<meta name="Generator" content="Microsoft Word 15 (filtered medium)">
<style><!--
/* Font Definitions */
@font-face
	{font-family:"Cambria Math";
	panose-1:2 4 5 3 5 4 6 3 2 4;}
@font-face
	{font-family:Aptos;}
/* Style Definitions */
p.MsoNormal, li.MsoNormal, div.MsoNormal
	{margin:0cm;
	font-size:12.0pt;
	font-family:"Aptos",sans-serif;
	mso-ligatures:standardcontextual;
	mso-fareast-language:EN-US;}
a:link, span.MsoHyperlink
	{mso-style-priority:99;
	color:#467886;
	text-decoration:underline;}
p.MsoPlainText, li.MsoPlainText, div.MsoPlainText
	{mso-style-priority:99;
	mso-style-link:"Plain Text Char";
	margin:0cm;
	font-size:11.0pt;
	font-family:"Calibri",sans-serif;
	mso-ligatures:standardcontextual;
	mso-fareast-language:EN-US;}
span.PlainTextChar
	{mso-style-name:"Plain Text Char";
	mso-style-priority:99;
	mso-style-link:"Plain Text";
	font-family:"Calibri",sans-serif;}
span.E-MailFormatvorlage20
	{mso-style-type:personal-reply;
	font-family:"Aptos",sans-serif;
	color:windowtext;}
.MsoChpDefault
	{mso-style-type:export-only;
	font-size:10.0pt;
	mso-ligatures:none;}
@page WordSection1
	{size:612.0pt 792.0pt;
	margin:70.85pt 70.85pt 2.0cm 70.85pt;}
div.WordSection1
	{page:WordSection1;}
--></style><!--[if gte mso 9]><xml>
<o:shapedefaults v:ext="edit" spidmax="1026" />
</xml><![endif]--><!--[if gte mso 9]><xml>
<o:shapelayout v:ext="edit">
<o:idmap v:ext="edit" data="1" />
</o:shapelayout></xml><![endif]-->
</head>
"""


def word_html(body_paras, header_block, quoted_html, lang="EN-GB", charset="utf-8", inner_lang="EN-US"):
    """Outlook (Word editor) HTML: own paragraphs, the From/Sent block, the quote."""
    paras = []
    for l in body_paras:
        if l:
            paras.append(
                '<p class="MsoNormal"><span lang="%s">%s<o:p></o:p></span></p>' % (inner_lang, esc(l))
            )
        else:
            paras.append('<p class="MsoNormal"><span lang="%s"><o:p>&nbsp;</o:p></span></p>' % inner_lang)
    labels = header_block  # list of (label, value)
    first, rest = labels[0], labels[1:]
    hb = (
        '<div>\n<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">\n'
        '<p class="MsoNormal"><b><span lang="%s">%s</span></b><span lang="%s"> %s<br>\n'
        % (lang, esc(first[0]), lang, esc(first[1]))
    )
    hb += "<br>\n".join("<b>%s</b> %s" % (esc(k), esc(v)) for k, v in rest)
    hb += "<o:p></o:p></span></p>\n</div>\n</div>\n"
    return (
        WORD_HEAD.replace("@CHARSET@", charset)
        + '<body lang="%s" link="#467886" vlink="#96607D" style="word-wrap:break-word">\n'
        '<div class="WordSection1">\n'
        % lang
        + "\n".join(paras)
        + "\n"
        + '<p class="MsoNormal"><span lang="%s"><o:p>&nbsp;</o:p></span></p>\n' % inner_lang
        + hb
        + '<p class="MsoNormal"><o:p>&nbsp;</o:p></p>\n'
        + quoted_html
        + "\n</div>\n</body>\n</html>\n"
    )


def outlook_plain_block(labels):
    """Outlook's plain alternative of the From/Sent block: first line keeps a trailing space."""
    lines = ["%s %s " % labels[0]] + ["%s %s" % kv for kv in labels[1:]]
    return "\n".join(lines)


# --------------------------------------------------------------------------
# registry of messages
# --------------------------------------------------------------------------
MESSAGES = []


def message(
    file,
    client,
    sender,
    player,
    tag,
    turn,
    code,
    orders,
    text,
    encoding="ascii",
    keywords=(),
    own=None,
    contains=(),
    excludes=(),
    unreadable=False,
    covers="",
):
    MESSAGES.append(
        dict(
            file=file,
            client=client,
            sender=sender,
            player=player,
            tag=tag,
            turn=turn,
            code=code,
            keywords=list(keywords),
            orders=orders,
            text=text,
            encoding=encoding,
            own=own,
            contains=list(contains),
            excludes=list(excludes),
            unreadable=unreadable,
            covers=covers,
        )
    )


def O(hand, card, target=None, guess=None):
    return dict(hand=hand, card=card, target=target, guess=guess)


A, B, C, D = (PLAYERS[k] for k in ("arthur", "bruno", "chloe", "dominik"))


# --------------------------------------------------------------------------
# client building blocks that repeat
# --------------------------------------------------------------------------
def received(addr, helo, ip, when, dkim=None):
    """Headers the GM's own server (mx.example.org) puts on top at delivery."""
    h = "Return-Path: <%s>\nDelivered-To: gm@example.org\n" % addr
    h += (
        "Received: from %s (%s [%s])\n\tby mx.example.org (Postfix) with ESMTPS id %s\n"
        "\tfor <gm@example.org>; %s\n" % (helo, helo, ip, dkim or "4dM1qX0b3Kz9sVn", when)
    )
    return h


def gmail_headers(
    frm, date, mid, subject, irt=None, ctype="", to='"Rita (pbem)" <gm@example.org>', refs=None
):
    h = "MIME-Version: 1.0\n"
    if irt:
        h += "References: %s\nIn-Reply-To: <%s>\n" % (refs or "<%s>" % irt, irt)
    h += "From: %s\nDate: %s\nMessage-ID: <%s>\nSubject: %s\nTo: %s\nContent-Type: %s\n" % (
        frm,
        date,
        mid,
        subject,
        to,
        ctype,
    )
    return h


def gattr(text):
    """Gmail's HTML attribution: address turned into a mailto link."""
    t = esc(text)
    return t.replace("&lt;gm@example.org&gt;", '&lt;<a href="mailto:gm@example.org">gm@example.org</a>&gt;')


GMAIL_BQ = (
    '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;'
    'border-left:1px solid rgb(204,204,204);padding-left:1ex">'
)
GMAIL_BQ_ANDROID = (
    '<blockquote class="gmail_quote" style="margin:0 0 0 .8ex;border-left:1px #ccc solid;padding-left:1ex">'
)


def gmail_own_html(lines, dir_="ltr"):
    out = '<div dir="%s">' % dir_
    for i, l in enumerate(lines):
        if i == 0:
            out += esc(l) if l else "<br>"
        else:
            out += (
                '<div dir="%s">%s</div>' % (dir_, esc(l) if l else "<br>")
                if dir_ == "auto"
                else "<div>%s</div>" % (esc(l) if l else "<br>")
            )
    return out + "</div>"


def gmail_reply(frm, date, mid, subject, irt, own, attr, quoted, boundary, android=False, extra_top=""):
    """Gmail (web or Android) top-posted reply: text/plain + text/html, both QP."""
    plain = own + "\n\n" + attr + "\n\n" + gt(quoted) + "\n"
    lines = own.split("\n")
    h = (
        gmail_own_html(lines, "auto" if android else "ltr")
        + "<br>"
        + '<div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">'
        + gattr(attr)
        + "<br></div>"
        + (GMAIL_BQ_ANDROID if android else GMAIL_BQ)
        + html_lines(quoted, "gmail", "\u00a0")
        + "</blockquote></div>\n"
    )
    body = mp(
        boundary,
        [
            'Content-Type: text/plain; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(plain)
            + "\n",
            'Content-Type: text/html; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(h)
            + "\n",
        ],
    )
    return (
        extra_top
        + gmail_headers(frm, date, mid, subject, irt, 'multipart/alternative; boundary="%s"' % boundary)
        + "\n"
        + body
    )


def exchange_headers(
    frm, to, subject, topic, index, date, mid, irt, boundary, lang="en-GB", accept="en-GB, en-US", extra=""
):
    h = "From: %s\nTo: %s\nSubject: %s\nThread-Topic: %s\nThread-Index: %s\nDate: %s\nMessage-ID: <%s>\n" % (
        frm,
        to,
        subject,
        topic,
        index,
        date,
        mid,
    )
    if irt:
        h += "References: <%s>\nIn-Reply-To: <%s>\n" % (irt, irt)
    h += (
        "Accept-Language: %s\nContent-Language: %s\nX-MS-Has-Attach:\nX-MS-TNEF-Correlator:\n%s"
        'Content-Type: multipart/alternative;\n\tboundary="%s"\nMIME-Version: 1.0\n'
        % (accept, lang, extra, boundary)
    )
    return h


EX = []  # filled by the message definitions below


# ==========================================================================
# 01  Gmail web, top-posted, canonical orders
# ==========================================================================
own = """Hi Rita,

Hand 3: Baron on Bruno
Hand 7: Guard on Dominik, guess Prince
Hand 11: King on Arthur

Merci !
Chloé"""
message(
    "01-gmail-web-topposted.eml",
    "Gmail web",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Baron", "Bruno"), O(7, "Guard", "Dominik", "Prince"), O(11, "King", "Arthur")],
    received(C["addr"], "mail-wm1-f48.google.com", "192.0.2.48", "Mon, 30 Nov 2026 09:14:31 +0100 (CET)")
    + gmail_reply(
        "=?UTF-8?Q?Chlo=C3=A9_Martin?= <chloe@example.fr>",
        "Mon, 30 Nov 2026 09:14:27 +0100",
        "CAJq8vN2pZ0xR4m+Lk7wT1cQe9bH3sYd5UfGa6oVnXrE2iWmPtA@mail.gmail.com",
        "Re: " + SUBJ3,
        C["mid"],
        own,
        "On Sun, Nov 29, 2026 at 7:00 PM Rita (pbem) <gm@example.org> wrote:",
        turn_text(C),
        "0000000000002c8f4a0627b1e9d3",
    ),
    own=own,
    contains=["Hand 3: Baron on Bruno", "Hand 11: King on Arthur"],
    excludes=TURN_EXCLUDES + [example_line(C)],
    covers="top-posted reply, text/plain + text/html (gmail_quote), QP UTF-8, RFC 2047 From, canonical order syntax",
)

# ==========================================================================
# 02  Gmail web, inline answers under the quoted form
# ==========================================================================
t = turn_text(A)
head, tail = t.split("\nHand 1:\nHand 5:\nHand 9:\n")
plain = (
    "Answers inline.\n\nOn Sun, 29 Nov 2026 at 18:00, Rita (pbem) <gm@example.org> wrote:\n\n"
    + gt(head)
    + "\n> Hand 1:\n\nBaron on Bruno\n\n> Hand 5:\n\nPrince on dom\n\n"
    "> Hand 9:\n\nKing on Chloé\n\n" + gt(tail) + "\n"
)
h = (
    '<div dir="ltr">Answers inline.</div><br><div class="gmail_quote gmail_quote_container">'
    '<div dir="ltr" class="gmail_attr">'
    + gattr("On Sun, 29 Nov 2026 at 18:00, Rita (pbem) <gm@example.org> wrote:")
    + "<br></div>"
    + GMAIL_BQ
    + html_lines(head + "\nHand 1:", "gmail", "\u00a0")
    + "</blockquote>"
    "<div><br></div><div>Baron on Bruno</div><div><br></div>" + GMAIL_BQ + "Hand 5:<br></blockquote>"
    "<div><br></div><div>Prince on dom</div><div><br></div>" + GMAIL_BQ + "Hand 9:<br></blockquote>"
    "<div><br></div><div>King on Chloé</div><div><br></div>"
    + GMAIL_BQ
    + html_lines(tail, "gmail", "\u00a0")
    + "</blockquote></div>\n"
)
bnd = "000000000000f41a9e0627b2035c"
message(
    "02-gmail-inline-under-form.eml",
    "Gmail web (inline reply)",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Baron", "Bruno"), O(5, "Prince", "Dominik"), O(9, "King", "Chloé")],
    received(A["addr"], "mail-ed1-f43.google.com", "192.0.2.43", "Mon, 30 Nov 2026 10:02:19 +0000 (UTC)")
    + gmail_headers(
        "Arthur Pendleton <arthur@example.org>",
        "Mon, 30 Nov 2026 10:02:15 +0000",
        "CAPx7Hq0Wm3nK9tB+zV2rLc4YjE8sD1fUa5oGiN6bQw7eXpTyRg@mail.gmail.com",
        "Re: " + SUBJ3,
        A["mid"],
        'multipart/alternative; boundary="%s"' % bnd,
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(plain)
            + "\n",
            'Content-Type: text/html; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(h)
            + "\n",
        ],
    ),
    own="Answers inline.\nBaron on Bruno\nPrince on dom\nKing on Chloé",
    contains=["Baron on Bruno", "Prince on dom", "King on Chloé"],
    excludes=TURN_EXCLUDES + [example_line(A)],
    covers="inline answers below each quoted '> Hand N:' line (split blockquotes in HTML), target by prefix 'dom'",
)

# ==========================================================================
# 03  Outlook desktop on Exchange Online, RE:, base64 UTF-8, no '>' quoting
# ==========================================================================
own = """Hi Rita,

Hand 2: Guard on Chloé, guess King
Hand 6: Prince on Arthur
Hand 10: Baron on Dominik

Regards,
Bruno"""
labels = [
    ("From:", "Rita (pbem) <gm@example.org>"),
    ("Sent:", "Sunday, November 29, 2026 7:00 PM"),
    ("To:", "Bruno Leal <bruno@example.org>"),
    ("Subject:", SUBJ3),
]
plain = own + "\n\n" + outlook_plain_block(labels) + "\n\n" + turn_text(B) + "\n"
h = word_html(own.split("\n"), labels, html_lines(turn_text(B), "word"))
bnd = "_000_DB9PR07MB87121C3A0F4E9B2D6A1C5E7AD91A2DB9PR07MB8712eurp_"
message(
    "03-outlook-desktop-exchange.eml",
    "Outlook desktop (Microsoft 365, Exchange Online)",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(2, "Guard", "Chloé", "King"), O(6, "Prince", "Arthur"), O(10, "Baron", "Dominik")],
    received(
        B["addr"],
        "EUR05-DB8-obe.outbound.protection.outlook.com",
        "198.51.100.71",
        "Mon, 30 Nov 2026 09:41:16 +0100 (CET)",
        "4dM2sQ7Ltbz9sWk",
    )
    + exchange_headers(
        "Bruno Leal <bruno@example.org>",
        '"Rita (pbem)" <gm@example.org>',
        "RE: " + SUBJ3,
        SUBJ3,
        "AQHbYjP4n0vJ6sG2kEuT9xWcQ1RzWLTkbBUw",
        "Mon, 30 Nov 2026 08:41:12 +0000",
        "DB9PR07MB87121C3A0F4E9B2D6A1C5E7AD91A2@DB9PR07MB8712.eurprd07.prod.outlook.com",
        B["mid"],
        bnd,
        extra="authentication-results: dkim=none (message not signed)\n"
        " header.d=none;dmarc=none action=none header.from=example.org;\n",
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + b64(plain),
            'Content-Type: text/html; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + b64(h),
        ],
    ),
    own=own,
    contains=["Hand 2: Guard on Chloé, guess King", "Regards"],
    excludes=TURN_EXCLUDES + [example_line(B), "Sent: Sunday"],
    covers="Outlook 'From: Sent: To: Subject:' block without '>' quoting, base64 UTF-8 parts, Word HTML",
)

# ==========================================================================
# 04  Outlook on the web (OWA), divRplyFwdMsg, ISO-8859-1 QP, H1 short syntax
# ==========================================================================
own = """H1 Guard Chlo King
H5 Handmaid
H9 King Dominik

Arthur"""
plain = (
    own + "\n\n________________________________\nFrom: Rita (pbem) <gm@example.org>\n"
    "Sent: Sunday, November 29, 2026 18:00\nTo: Arthur Pendleton <arthur@example.org>\n"
    "Subject: " + SUBJ3 + "\n\n" + turn_text(A) + "\n"
)
divs = "\n".join(
    '<div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont, '
    'Aptos_MSFontService, Calibri, Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">\n'
    + (esc(l) if l else "<br>")
    + "</div>"
    for l in own.split("\n")
)
h = (
    "<html>\n<head>\n"
    '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">\n'
    '<style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style>\n'
    '</head>\n<body dir="ltr">\n' + divs + "\n"
    '<div id="appendonsend"></div>\n<hr style="display:inline-block;width:98%" tabindex="-1">\n'
    '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" '
    'color="#000000"><b>From:</b> Rita (pbem) &lt;gm@example.org&gt;<br>\n'
    "<b>Sent:</b> Sunday, November 29, 2026 18:00<br>\n"
    "<b>To:</b> Arthur Pendleton &lt;arthur@example.org&gt;<br>\n"
    "<b>Subject:</b> " + esc(SUBJ3) + "</font>\n<div>&nbsp;</div>\n</div>\n"
    '<div class="BodyFragment"><font size="2"><span style="font-size:11pt;">\n'
    '<div class="PlainText">' + html_lines(turn_text(A), "owa") + "</div>\n"
    "</span></font></div>\n</body>\n</html>\n"
)
bnd = "_000_AM9PR02MB7249D1E5B2C8A4F3E6B7C1D0A5F02AM9PR02MB7249eurp_"
message(
    "04-outlook-web-owa.eml",
    "Outlook on the web (OWA)",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Guard", "Chloé", "King"), O(5, "Handmaid"), O(9, "King", "Dominik")],
    exchange_headers(
        "Arthur Pendleton <arthur@example.org>",
        '"Rita (pbem)" <gm@example.org>',
        "Re: " + SUBJ3,
        SUBJ3,
        "AQHbYjP5vE1kQb9x2kOq7LwZ3fT0nA==",
        "Mon, 30 Nov 2026 12:03:55 +0000",
        "AM9PR02MB7249D1E5B2C8A4F3E6B7C1D0A5F02@AM9PR02MB7249.eurprd02.prod.outlook.com",
        A["mid"],
        bnd,
        extra="msip_labels:\n",
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="iso-8859-1"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(plain, "iso-8859-1"),
            'Content-Type: text/html; charset="iso-8859-1"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(h, "iso-8859-1"),
        ],
    ),
    own=own,
    contains=["H1 Guard Chlo King", "H9 King Dominik"],
    excludes=TURN_EXCLUDES + [example_line(A), "Sent: Sunday"],
    covers="OWA '____' rule + From/Sent block, divRplyFwdMsg HTML, ISO-8859-1 QP, short 'H1 Guard Chlo King' syntax",
)

# ==========================================================================
# 05  Outlook desktop, German UI (AW:, Von: Gesendet: An: Betreff:), guess by rank
# ==========================================================================
own = """Hallo Rita,

Hand 4: Countess
Hand 8: Guard on Arthur, guess 6
Hand 12: King on Bruno

Viele Grüße
Dominik"""
labels = [
    ("Von:", "Rita (pbem) <gm@example.org>"),
    ("Gesendet:", "Sonntag, 29. November 2026 19:00"),
    ("An:", "dominik@example.de"),
    ("Betreff:", SUBJ3),
]
plain = own + "\n\n" + outlook_plain_block(labels) + "\n\n" + turn_text(D) + "\n"
h = word_html(
    own.split("\n"),
    labels,
    html_lines(turn_text(D), "word"),
    lang="DE",
    charset="iso-8859-1",
    inner_lang="DE",
)
bnd = "----=_NextPart_000_0007_01DB4B24.A053F210"
message(
    "05-outlook-desktop-german.eml",
    "Outlook 2021 desktop, German UI",
    D["addr"],
    "Dominik",
    "game7",
    3,
    D["code"],
    [O(4, "Countess"), O(8, "Guard", "Arthur", "King"), O(12, "King", "Bruno")],
    received(
        D["addr"],
        "mout.example.de",
        "203.0.113.17",
        "Mon, 30 Nov 2026 07:12:44 +0100 (CET)",
        "4dLz8H3pNcz9sTq",
    )
    + "From: =?iso-8859-1?Q?Dominik_M=FCller?= <dominik@example.de>\n"
    "To: \"'Rita (pbem)'\" <gm@example.org>\n"
    "References: <%s>\nIn-Reply-To: <%s>\n"
    % (D["mid"], D["mid"])
    + "Subject: AW: "
    + SUBJ3
    + "\nDate: Mon, 30 Nov 2026 07:12:40 +0100\n"
    "Message-ID: <000601db4b1c$3e8f2a10$bbad7e30$@example.de>\nMIME-Version: 1.0\n"
    'Content-Type: multipart/alternative;\n\tboundary="%s"\n'
    % bnd
    + "X-Mailer: Microsoft Outlook 16.0\nThread-Index: AQHbYjP6q4WmV0c4S0iK2c+5hGJz37Tj7lVg\n"
    "Content-Language: de\n\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain;\n\tcharset="iso-8859-1"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(plain, "iso-8859-1")
            + "\n",
            'Content-Type: text/html;\n\tcharset="iso-8859-1"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(h, "iso-8859-1")
            + "\n",
        ],
        preamble="This is a multipart message in MIME format.\n\n",
    ),
    own=own,
    contains=["Hand 8: Guard on Arthur, guess 6", "Viele Grüße"],
    excludes=TURN_EXCLUDES + [example_line(D), "Gesendet:"],
    covers="German Outlook 'Von: Gesendet: An: Betreff:', AW:, ISO-8859-1 QP, 'guess 6' (rank names the King), Countess without target",
)

# ==========================================================================
# 06  Outlook plain-text mode, -----Original Message-----, prose order syntax
# ==========================================================================
own = """Hand 1 - play the Guard on Bruno and guess that he has a Countess
Hand 5 - play the Prince on myself
Hand 9 - play the King on Dominik

Arthur"""
body = (
    own + "\n\n-----Original Message-----\nFrom: Rita (pbem) [mailto:gm@example.org] \n"
    "Sent: 29 November 2026 18:00\nTo: arthur@example.org\nSubject: " + SUBJ3 + "\n\n" + turn_text(A) + "\n\n"
)
message(
    "06-outlook-original-message.eml",
    "Outlook 2010, plain-text mode",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Guard", "Bruno", "Countess"), O(5, "Prince", "Arthur"), O(9, "King", "Dominik")],
    'From: "Arthur Pendleton" <arthur@example.org>\nTo: "\'Rita (pbem)\'" <gm@example.org>\n'
    "References: <%s>\nIn-Reply-To: <%s>\n"
    % (A["mid"], A["mid"])
    + "Subject: RE: "
    + SUBJ3
    + "\nDate: Mon, 30 Nov 2026 17:48:02 -0000\n"
    "Message-ID: <002a01db4b6e$91c2d5f0$b54881d0$@example.org>\nMIME-Version: 1.0\n"
    'Content-Type: text/plain;\n\tcharset="iso-8859-1"\nContent-Transfer-Encoding: quoted-printable\n'
    "X-Mailer: Microsoft Outlook 14.0\nThread-Index: AQHbYjP4n0vJ6sG2kEuT9xWcQ1RzWLLXq8Ag\n"
    "Content-Language: en-gb\n\n" + qp(body, "iso-8859-1"),
    own=own,
    contains=["Hand 1 - play the Guard on Bruno and guess that he has a Countess"],
    excludes=TURN_EXCLUDES + [example_line(A), "-----Original Message-----"],
    covers="'-----Original Message-----' + [mailto:] From line, unquoted original, 'Hand 1 - play the ... and guess that he has a ...', 'myself'",
)

# ==========================================================================
# 07  Apple Mail (macOS), QP, blockquote type=cite, quoted attribution
# ==========================================================================
own = """Hand 2: guard -> chloé (king)
Hand 6: Prince on me
Hand 10: Baron on Dominik

Bruno"""
attr = "On 29 Nov 2026, at 19:00, Rita (pbem) <gm@example.org> wrote:"
plain = own + "\n\n" + gt(attr + "\n\n" + turn_text(B), blank="> ") + "\n\n"
own_l = own.split("\n")
h = (
    '<html aria-label="message body"><head><meta http-equiv="content-type" content="text/html; '
    'charset=utf-8"></head><body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; '
    'line-break: after-white-space;">'
    + esc(own_l[0])
    + "".join("<div>%s</div>" % (esc(l) if l else "<br>") for l in own_l[1:-1])
    + "<div>"
    + esc(own_l[-1])
    + '<br id="lineBreakAtBeginningOfMessage"><div><br><blockquote type="cite">'
    "<div>"
    + esc(attr)
    + '</div><br class="Apple-interchange-newline"><div><div>'
    + html_lines(turn_text(B), "apple")
    + "</div></div></blockquote></div><br></div></body></html>"
)
bnd = "Apple-Mail=_7C1E9F42-3B5D-4A8E-9F60-2D1C8B7A6E50"
message(
    "07-apple-mail-macos.eml",
    "Apple Mail (macOS 15)",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(2, "Guard", "Chloé", "King"), O(6, "Prince", "Bruno"), O(10, "Baron", "Dominik")],
    'From: Bruno Leal <bruno@example.org>\nContent-Type: multipart/alternative;\n\tboundary="%s"\n' % bnd
    + "Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3826.500.181.1.5\\))\nSubject: Re: "
    + SUBJ3
    + "\n"
    "Date: Mon, 30 Nov 2026 10:02:44 +0100\nReferences: <%s>\n"
    % B["mid"]
    + 'To: "Rita (pbem)" <gm@example.org>\nIn-Reply-To: <%s>\n' % B["mid"]
    + "Message-Id: <5E2B7C19-8D4F-4A31-B6E0-9C7D2F1A8B34@example.org>\n"
    "X-Mailer: Apple Mail (2.3826.500.181.1.5)\n\n"
    + mp(
        bnd,
        [
            "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/plain;\n\tcharset=utf-8\n\n"
            + qp(plain),
            "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/html;\n\tcharset=utf-8\n\n"
            + qp(h)
            + "\n",
        ],
    ),
    own=own,
    contains=["Hand 2: guard -> chloé (king)", "Hand 6: Prince on me"],
    excludes=TURN_EXCLUDES + [example_line(B), "wrote:"],
    covers="Apple Mail: attribution inside the quote ('> On ... wrote:'), blockquote type=cite, arrow syntax 'guard -> chloé (king)', 'me'",
)

# ==========================================================================
# 08  Apple Mail (older macOS), plain text, format=flowed; delsp=yes, ISO-8859-1 QP
# ==========================================================================
own = """3: baron dom
7: guard bruno king
11: spy arthur

Chloé"""
body = own + "\n\nOn 29 Nov 2026, at 19:00, Rita (pbem) wrote:\n\n" + gt(turn_text(C)) + "\n\n"
message(
    "08-apple-mail-flowed-latin1.eml",
    "Apple Mail (Mac OS X 10.7), plain text",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Baron", "Dominik"), O(7, "Guard", "Bruno", "King"), O(11, "Spy", "Arthur")],
    "Content-Type: text/plain;\n\tcharset=iso-8859-1;\n\tdelsp=yes;\n\tformat=flowed\n"
    "Mime-Version: 1.0 (Apple Message framework v1283)\nSubject: Re: " + SUBJ3 + "\n"
    "From: =?iso-8859-1?Q?Chlo=E9_Martin?= <chloe@example.fr>\nIn-Reply-To: <%s>\n"
    % C["mid"]
    + "Date: Mon, 30 Nov 2026 22:31:09 +0100\nContent-Transfer-Encoding: quoted-printable\n"
    "Message-Id: <B3D8F1A2-6C4E-4F9B-A7D1-3E5C2B8F0A64@example.fr>\nReferences: <%s>\n"
    % C["mid"]
    + 'To: "Rita (pbem)" <gm@example.org>\nX-Mailer: Apple Mail (2.1283)\n\n'
    + qp(body, "iso-8859-1"),
    own=own,
    contains=["3: baron dom", "11: spy arthur"],
    excludes=TURN_EXCLUDES + [example_line(C)],
    covers="format=flowed; delsp=yes with QP ISO-8859-1, terse '3: baron dom' syntax, lower-case names, prefix 'dom'",
)

# ==========================================================================
# 09  iOS Mail (English), plain + HTML, "Sent from my iPhone", BOM in the quote
# ==========================================================================
own = """Hand 3: Countess
Hand 7: Prince on myself
Hand 11: Courtier on Dominik"""
attr = "On 29 Nov 2026, at 19:00, Rita (pbem) <gm@example.org> wrote:"
plain = (
    own + "\n\nSent from my iPhone\n\n> " + attr + "\n> \n" + gt("\ufeff" + turn_text(C), blank="> ") + "\n"
)
own_l = own.split("\n")
h = (
    '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
    '<body dir="auto"><div dir="ltr">'
    + esc(own_l[0])
    + "</div>"
    + "".join('<div dir="ltr">%s</div>' % esc(l) for l in own_l[1:-1])
    + '<div dir="ltr">'
    + esc(own_l[-1])
    + '<br><br><div dir="ltr">Sent from my iPhone</div>'
    '<div dir="ltr"><br><blockquote type="cite">' + esc(attr) + "<br><br></blockquote></div>"
    '<blockquote type="cite"><div dir="ltr">\ufeff'
    + html_lines(turn_text(C), "ios")
    + "</div></blockquote></div></body></html>"
)
bnd = "Apple-Mail-4F0B9C2E-7A1D-4E63-9B85-C2D0E1F3A7B6"
message(
    "09-ios-mail-english.eml",
    "iOS Mail (iPhone, English)",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Countess"), O(7, "Prince", "Chloé"), O(11, "Spy", "Dominik")],
    "Content-Type: multipart/alternative; boundary=%s\nContent-Transfer-Encoding: 7bit\n"
    % bnd
    + "From: =?utf-8?Q?Chlo=C3=A9_Martin?= <chloe@example.fr>\nMime-Version: 1.0 (1.0)\n"
    "Subject: Re: " + SUBJ3 + "\nDate: Tue, 1 Dec 2026 08:15:33 +0100\n"
    "Message-Id: <1D7E4A90-2C5B-4F8E-A3D6-9B1C0E2F4A75@example.fr>\n"
    "References: <%s>\nIn-Reply-To: <%s>\n"
    % (C["mid"], C["mid"])
    + 'To: "Rita (pbem)" <gm@example.org>\nX-Mailer: iPhone Mail (22B91)\n\n'
    + mp(
        bnd,
        [
            "Content-Type: text/plain;\n\tcharset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + qp(plain),
            "Content-Type: text/html;\n\tcharset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + qp(h)
            + "\n",
        ],
    ),
    own=own,
    contains=["Hand 11: Courtier on Dominik"],
    excludes=TURN_EXCLUDES + [example_line(C), "Sent from my iPhone"],
    covers="iOS Mail 'Sent from my iPhone', U+FEFF at the start of the quote, alias Courtier = Spy, 'myself'",
)

# ==========================================================================
# 10  iOS Mail (German), plain only, "Von meinem iPhone gesendet", terse syntax
# ==========================================================================
own = """4: countess
8: guard arthur princess
12: manipulator bru"""
body = (
    own + "\n\nVon meinem iPhone gesendet\n\n"
    "> Am 29.11.2026 um 19:00 schrieb Rita (pbem) <gm@example.org>:\n> \n"
    + gt("\ufeff" + turn_text(D), blank="> ")
    + "\n"
)
message(
    "10-ios-mail-german.eml",
    "iOS Mail (iPhone, German)",
    D["addr"],
    "Dominik",
    "game7",
    3,
    D["code"],
    [O(4, "Countess"), O(8, "Guard", "Arthur", "Princess"), O(12, "King", "Bruno")],
    "From: =?utf-8?Q?Dominik_M=C3=BCller?= <dominik@example.de>\nContent-Type: text/plain;\n"
    "\tcharset=utf-8\nContent-Transfer-Encoding: quoted-printable\nMime-Version: 1.0 (1.0)\n"
    "Subject: Re: " + SUBJ3 + "\nDate: Mon, 30 Nov 2026 07:55:10 +0100\n"
    "Message-Id: <A1B2C3D4-E5F6-4789-ABCD-0123456789AB@example.de>\n"
    "References: <%s>\nIn-Reply-To: <%s>\n"
    % (D["mid"], D["mid"])
    + 'To: "Rita (pbem)" <gm@example.org>\nX-Mailer: iPhone Mail (22B91)\n\n'
    + qp(body),
    own=own,
    contains=["8: guard arthur princess", "12: manipulator bru"],
    excludes=TURN_EXCLUDES + [example_line(D), "Von meinem iPhone gesendet"],
    covers="'Von meinem iPhone gesendet', 'Am ... schrieb ...:', terse '4: countess', alias Manipulator = King, prefix 'bru'",
)

# ==========================================================================
# 11  Gmail for Android, dir="auto", short syntax with aliases
# ==========================================================================
own = """H2 Guard Dominik Baron
H6 Hatamoto Arthur
H10 Diplomat Chlo"""
message(
    "11-gmail-android.eml",
    "Gmail app (Android)",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(2, "Guard", "Dominik", "Baron"), O(6, "Prince", "Arthur"), O(10, "Baron", "Chloé")],
    received(
        B["addr"],
        "mail-pj1-f52.google.com",
        "192.0.2.52",
        "Mon, 30 Nov 2026 13:27:40 +0100 (CET)",
        "4dM5tY2wqRz9sXb",
    )
    + gmail_reply(
        "Bruno Leal <bruno@example.org>",
        "Mon, 30 Nov 2026 13:27:36 +0100",
        "CAM4vX8sRz+Qe1bT6nWk0pLy3fJd9HcGa2oU7iNmVtSxB5rEqYw@mail.gmail.com",
        "Re: " + SUBJ3,
        B["mid"],
        own,
        "On Sun, 29 Nov 2026, 19:00 Rita (pbem), <gm@example.org> wrote:",
        turn_text(B),
        "0000000000007e3b5c0627b23a11",
        android=True,
    ),
    own=own,
    contains=["H6 Hatamoto Arthur"],
    excludes=TURN_EXCLUDES + [example_line(B)],
    covers="Gmail Android attribution 'On <date>, <time> <name>, <addr> wrote:', short syntax, aliases Hatamoto = Prince and Diplomat = Baron, prefix 'Chlo'",
)

# ==========================================================================
# 12  Thunderbird (German), format=flowed 8bit, answers inline under the form, '-- ' signature
# ==========================================================================
t = turn_text(D)
head, tail = t.split("\nHand 4:\nHand 8:\nHand 12:\n")
body = (
    "Hallo Rita,\n\nmeine Befehle stehen unten im Formular.\n\n"
    "Am 29.11.26 um 19:00 schrieb Rita (pbem):\n"
    + gt(head)
    + "\n> Hand 4:\nCountess\n> Hand 8:\nGuard on Chloé, guess Princess\n> Hand 12:\nBaron on Arthur\n"
    + gt(tail)
    + "\n\nDanke und Gruß\nDominik\n\n-- \nDominik Müller\nKöln\n\n"
)
message(
    "12-thunderbird-inline-flowed.eml",
    "Thunderbird 128 (German)",
    D["addr"],
    "Dominik",
    "game7",
    3,
    D["code"],
    [O(4, "Countess"), O(8, "Guard", "Chloé", "Princess"), O(12, "Baron", "Arthur")],
    received(
        D["addr"],
        "mout.example.de",
        "203.0.113.17",
        "Mon, 30 Nov 2026 21:12:11 +0100 (CET)",
        "4dMHk03Rfvz9sYc",
    )
    + "Message-ID: <9b2f5e1c-3d47-4a8e-b6f0-1c2d3e4f5a6b@example.de>\n"
    "Date: Mon, 30 Nov 2026 21:12:08 +0100\nMIME-Version: 1.0\nUser-Agent: Mozilla Thunderbird\n"
    "Subject: Re: " + SUBJ3 + '\nContent-Language: de-DE\nTo: "Rita (pbem)" <gm@example.org>\n'
    "References: <%s>\n"
    % D["mid"]
    + "From: =?UTF-8?Q?Dominik_M=C3=BCller?= <dominik@example.de>\nIn-Reply-To: <%s>\n" % D["mid"]
    + "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 8bit\n\n"
    + body,
    encoding="utf-8",
    own="Hallo Rita,\nmeine Befehle stehen unten im Formular.\nCountess\nGuard on Chloé, guess Princess\nBaron on Arthur\nDanke und Gruß",
    contains=["Guard on Chloé, guess Princess", "Baron on Arthur"],
    excludes=TURN_EXCLUDES + [example_line(D), "schrieb Rita"],
    covers="answers typed on the line right under each quoted '> Hand N:' (no blank line), 8bit UTF-8, RFC 2047 From, '-- ' signature",
)

# ==========================================================================
# 13  Thunderbird (English), bottom-posted, format=flowed soft break inside an order line
# ==========================================================================
body = (
    "On 29/11/2026 18:00, Rita (pbem) wrote:\n" + gt(turn_text(A)) + "\n\n"
    "Hand 5: Handmaid; Hand 9: King on Bruno; Hand 1: Guard on Chloé, guess¶\nPrincess\n\n"
    'Cheers,\nArthur\n\n-- \nArthur Pendleton · Leeds\n"Always guard your Princess."\n\n'
)
body = body.replace("¶\n", " \n")
message(
    "13-thunderbird-bottompost-flowed.eml",
    "Thunderbird 128 (English)",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(5, "Handmaid"), O(9, "King", "Bruno"), O(1, "Guard", "Chloé", "Princess")],
    "Message-ID: <e7a94c12-0b3f-4d58-9a61-8c2f7d3e1b40@example.org>\n"
    "Date: Mon, 30 Nov 2026 19:40:52 +0000\nMIME-Version: 1.0\n"
    "User-Agent: Mozilla Thunderbird\nSubject: Re: " + SUBJ3 + "\nContent-Language: en-GB\n"
    'To: "Rita (pbem)" <gm@example.org>\nReferences: <%s>\n'
    % A["mid"]
    + "From: Arthur Pendleton <arthur@example.org>\nIn-Reply-To: <%s>\n" % A["mid"]
    + "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 8bit\n\n"
    + body,
    encoding="utf-8",
    own="Hand 5: Handmaid; Hand 9: King on Bruno; Hand 1: Guard on Chloé, guess Princess\nCheers,\nArthur",
    contains=["Hand 1: Guard on Chloé, guess Princess"],
    excludes=TURN_EXCLUDES + [example_line(A), "wrote:"],
    covers="bottom-posting (own words after the quote), three orders on one line with ';', flowed soft break between 'guess' and 'Princess', signature mentioning a card",
)

# ==========================================================================
# 14  Gmail (French UI), "Le ... a écrit :", aliases, guess by rank 8
# ==========================================================================
own = """Bonjour Rita,

Voici mes ordres pour ce tour :

Hand 3: Diplomat on Dominik
Hand 7: Guard on Arthur, guess 8
Hand 11: Manipulator on Bruno

Bonne soirée,
Chloé"""
message(
    "14-gmail-french.eml",
    "Gmail web (French UI)",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Baron", "Dominik"), O(7, "Guard", "Arthur", "Princess"), O(11, "King", "Bruno")],
    gmail_reply(
        "=?UTF-8?Q?Chlo=C3=A9_Martin?= <chloe@example.fr>",
        "Mon, 30 Nov 2026 20:05:48 +0100",
        "CAJq8vN0tLw5Rb+Gk3mXe8YpQ1sHd7cV2fUa9oZnTiB4rWqEyNg@mail.gmail.com",
        "Re: " + SUBJ3,
        C["mid"],
        own,
        "Le dim. 29 nov. 2026 à 19:00, Rita (pbem) <gm@example.org> a écrit :",
        turn_text(C),
        "000000000000b2d97f0627b2e4a8",
    ),
    own=own,
    contains=["Hand 3: Diplomat on Dominik", "Bonne soirée"],
    excludes=TURN_EXCLUDES + [example_line(C), "a écrit"],
    covers="French quote header 'Le ... a écrit :', French prose, aliases Diplomat/Manipulator, 'guess 8' = Princess",
)

# ==========================================================================
# 15  Gmail (Spanish UI), "El ... escribió:" wrapped over two lines, arrow syntax
# ==========================================================================
own = """Hola Rita,

hand 2: guard -> dominik (countess)
hand 6: hatamoto -> arthur
hand 10: baron -> chloé

Saludos,
Bruno"""
attr = "El dom, 29 nov 2026 a las 19:00, Rita (pbem) (<gm@example.org>)\nescribió:"
plain = own + "\n\n" + attr + "\n\n" + gt(turn_text(B)) + "\n"
h = (
    gmail_own_html(own.split("\n")) + '<br><div class="gmail_quote gmail_quote_container">'
    '<div dir="ltr" class="gmail_attr">'
    + gattr(attr.replace("\n", " "))
    + "<br></div>"
    + GMAIL_BQ
    + html_lines(turn_text(B), "gmail", "\u00a0")
    + "</blockquote></div>\n"
)
bnd = "0000000000005a8e210627b2f7c6"
message(
    "15-gmail-spanish.eml",
    "Gmail web (Spanish UI)",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(2, "Guard", "Dominik", "Countess"), O(6, "Prince", "Arthur"), O(10, "Baron", "Chloé")],
    gmail_headers(
        "Bruno Leal <bruno@example.org>",
        "Mon, 30 Nov 2026 21:44:02 +0100",
        "CAM4vX8uKq2+Tz7bLn1pWe4YcR9sHg3dV6fJa0oUiNmQtSxB8rA@mail.gmail.com",
        "Re: " + SUBJ3,
        B["mid"],
        'multipart/alternative; boundary="%s"' % bnd,
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(plain)
            + "\n",
            'Content-Type: text/html; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(h)
            + "\n",
        ],
    ),
    own=own,
    contains=["hand 2: guard -> dominik (countess)", "hand 10: baron -> chloé"],
    excludes=TURN_EXCLUDES + [example_line(B), "escribió"],
    covers="Spanish quote header 'El ... (<addr>) escribió:' broken over two lines, lower-case arrow syntax, accented lower-case 'chloé'",
)

# ==========================================================================
# 16  Gmail (Dutch UI), "Op ... schreef ...:", own name as target
# ==========================================================================
own = """Hoi Rita,

Hand 1: Guard on Bruno, guess Spy
Hand 5: Prince on Arthur
Hand 9: King on Dominik

Groetjes,
Arthur"""
message(
    "16-gmail-dutch.eml",
    "Gmail web (Dutch UI)",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Guard", "Bruno", "Spy"), O(5, "Prince", "Arthur"), O(9, "King", "Dominik")],
    gmail_reply(
        "Arthur Pendleton <arthur@example.org>",
        "Tue, 1 Dec 2026 07:30:12 +0100",
        "CAPx7Hq2Rm5nL1tC+yW8sKd0ZjF4bE6gUa3oHiP9cQv2eXrTwUh@mail.gmail.com",
        "Re: " + SUBJ3,
        A["mid"],
        own,
        "Op zo 29 nov 2026 om 19:00 schreef Rita (pbem) <gm@example.org>:",
        turn_text(A),
        "000000000000c91f3b0627b3a2e5",
    ),
    own=own,
    contains=["Hand 1: Guard on Bruno, guess Spy", "Groetjes"],
    excludes=TURN_EXCLUDES + [example_line(A), "schreef"],
    covers="Dutch quote header 'Op ... schreef ...:', own name as Prince target, own order close to the quoted example ('guess Spy' vs 'guess Prince')",
)

# ==========================================================================
# 17  Outlook 2007 (Dutch UI), "Antw:", Van: Verzonden: Aan: Onderwerp:, Priest alias
# ==========================================================================
own = """Hallo Rita,

Hand 2: Countess
Hand 6: Priest on Dominik
Hand 10: Guard on Chloé, guess 7

Groet,
Bruno"""
labels = [
    ("Van:", "Rita (pbem) [mailto:gm@example.org]"),
    ("Verzonden:", "zondag 29 november 2026 19:00"),
    ("Aan:", "bruno@example.org"),
    ("Onderwerp:", SUBJ3),
]
plain = own + "\n\n" + outlook_plain_block(labels) + "\n\n" + turn_text(B) + "\n"
h = word_html(
    own.split("\n"),
    labels,
    html_lines(turn_text(B), "word"),
    lang="NL",
    charset="iso-8859-1",
    inner_lang="NL",
)
bnd = "----=_NextPart_000_0019_01DB4B3A.6E2F8C90"
message(
    "17-outlook-dutch-antw.eml",
    "Outlook 2007 (Dutch UI)",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(2, "Countess"), O(6, "Spy", "Dominik"), O(10, "Guard", "Chloé", "Countess")],
    'From: "Bruno Leal" <bruno@example.org>\nTo: "\'Rita (pbem)\'" <gm@example.org>\n'
    "References: <%s>\nSubject: Antw: %s\nDate: Mon, 30 Nov 2026 18:02:33 +0100\n"
    % (B["mid"], SUBJ3)
    + "Message-ID: <001801db4b52$0a7d3e60$1f77bb20$@example.org>\nMIME-Version: 1.0\n"
    'Content-Type: multipart/alternative;\n\tboundary="%s"\n'
    % bnd
    + "X-Mailer: Microsoft Office Outlook 12.0\nThread-Index: AdtLUgqcR3v2m0QeSm2Cz4vX7sY1Ng==\n"
    "Content-Language: nl\nIn-Reply-To: <%s>\n\n"
    % B["mid"]
    + mp(
        bnd,
        [
            'Content-Type: text/plain;\n\tcharset="iso-8859-1"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(plain, "iso-8859-1")
            + "\n",
            'Content-Type: text/html;\n\tcharset="iso-8859-1"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(h, "iso-8859-1")
            + "\n",
        ],
        preamble="This is a multi-part message in MIME format.\n\n",
    ),
    own=own,
    contains=["Hand 6: Priest on Dominik", "Hand 10: Guard on Chloé, guess 7"],
    excludes=TURN_EXCLUDES + [example_line(B), "Verzonden:"],
    covers="Dutch Outlook 'Van: Verzonden: Aan: Onderwerp:', 'Antw:' prefix, alias Priest = Spy, 'guess 7' = Countess",
)

# ==========================================================================
# 18  Outlook desktop (Swedish UI), "SV:", Från: Skickat: Till: Ämne:, ';'-separated orders
# ==========================================================================
own = """Hand 1: Baron on Dominik; Hand 5: Shugenja; Hand 9: King on Bruno

/Arthur"""
labels = [
    ("Från:", "Rita (pbem) <gm@example.org>"),
    ("Skickat:", "den 29 november 2026 19:00"),
    ("Till:", "arthur@example.org"),
    ("Ämne:", SUBJ3),
]
plain = own + "\n\n" + outlook_plain_block(labels) + "\n\n" + turn_text(A) + "\n"
h = word_html(own.split("\n"), labels, html_lines(turn_text(A), "word"), lang="SV", inner_lang="SV")
bnd = "----=_NextPart_000_0033_01DB4B5F.C81E2A70"
message(
    "18-outlook-swedish-sv.eml",
    "Outlook 2019 desktop (Swedish UI)",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Baron", "Dominik"), O(5, "Handmaid"), O(9, "King", "Bruno")],
    'From: "Arthur Pendleton" <arthur@example.org>\nTo: "\'Rita (pbem)\'" <gm@example.org>\n'
    "References: <%s>\nIn-Reply-To: <%s>\n"
    % (A["mid"], A["mid"])
    + "Subject: SV: "
    + SUBJ3
    + "\nDate: Mon, 30 Nov 2026 20:17:09 +0100\n"
    "Message-ID: <003201db4b64$b4e3f1c0$1eabd540$@example.org>\nMIME-Version: 1.0\n"
    'Content-Type: multipart/alternative;\n\tboundary="%s"\n'
    % bnd
    + "X-Mailer: Microsoft Outlook 16.0\nThread-Index: AQHbYjP4n0vJ6sG2kEuT9xWcQ1RzWLTp3CKg\n"
    "Content-Language: sv\n\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain;\n\tcharset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(plain)
            + "\n",
            'Content-Type: text/html;\n\tcharset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(h)
            + "\n",
        ],
        preamble="This is a multipart message in MIME format.\n\n",
    ),
    own=own,
    contains=["Hand 5: Shugenja"],
    excludes=TURN_EXCLUDES + [example_line(A), "Skickat:"],
    covers="Swedish Outlook 'Från: Skickat: Till: Ämne:', 'SV:' prefix, three orders on one line with ';', alias Shugenja = Handmaid",
)

# ==========================================================================
# 19  The Bat!, "Re[2]:", nested quotes that contain earlier orders, bottom-posted
# ==========================================================================
body = """Hello Rita,

Monday, November 30, 2026, 1:30:12 PM, you wrote:

> Bruno, your order for hand 10 names no target. Please resend it.
> Rita

> On 30/11/2026 10:00, Bruno Leal wrote:
>> Hello Rita,
>>
>> Hand 2: Guard on Arthur, guess Handmaid
>> Hand 6: Prince on Dominik
>> Hand 10: Baron
>>
>> Code B4HN-8RWC

Sorry! Here it is:

Hand 10: Baron on Chloé



-- 
Best regards,
 Bruno                            mailto:bruno@example.org

"""
message(
    "19-thebat-re2-nested.eml",
    "The Bat! 11 (Windows)",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(10, "Baron", "Chloé")],
    "Date: Mon, 30 Nov 2026 14:02:17 +0100\nFrom: Bruno Leal <bruno@example.org>\n"
    "X-Mailer: The Bat! (v11.2.1) Professional\nReply-To: Bruno Leal <bruno@example.org>\n"
    "X-Priority: 3 (Normal)\nMessage-ID: <1406281937.20261130140217@example.org>\n"
    'To: "Rita (pbem)" <gm@example.org>\nSubject: Re[2]: ' + SUBJ3 + "\n"
    "In-Reply-To: <7d3c1a9e-5b2f-4e80-a6c4-91f0e2d3b5a8@example.org>\n"
    "References: <%s> <1918273645.20261130100005@example.org>\n"
    % B["mid"]
    + " <7d3c1a9e-5b2f-4e80-a6c4-91f0e2d3b5a8@example.org>\n"
    "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n" + body,
    encoding="utf-8",
    own="Hello Rita,\nSorry! Here it is:\nHand 10: Baron on Chloé",
    contains=["Hand 10: Baron on Chloé"],
    excludes=[
        "Hand 2: Guard on Arthur, guess Handmaid",
        "Hand 6: Prince on Dominik",
        "names no target",
        "Code B4HN-8RWC",
    ],
    covers="'Re[2]:' subject, The Bat! 'you wrote:' header, nested '>>' quotes holding an earlier order set, unquoted blank lines inside the quote, bottom-posted single correction",
)

# ==========================================================================
# 20  Outlook (Exchange), "RE: [EXTERNAL]", Word AutoFormat turned ' - ' into an en dash
# ==========================================================================
own = """Hello Rita,

Hand 3 – play the Countess
Hand 7 – play the Guard on Bruno and guess that he has a King
Hand 11 – play the Spy on Dominik

Best,
Chloé"""
ext = "[EXTERNAL] " + SUBJ3
labels = [
    ("From:", "Rita (pbem) <gm@example.org>"),
    ("Sent:", "Sunday, November 29, 2026 7:00 PM"),
    ("To:", "Martin, Chloé <chloe@example.fr>"),
    ("Subject:", ext),
]
banner = (
    "CAUTION: This email originated from outside of the organisation. Do not click links or "
    "open attachments unless you recognise the sender and know the content is safe."
)
plain = own + "\n\n" + outlook_plain_block(labels) + "\n\n" + banner + "\n\n" + turn_text(C) + "\n"
h = word_html(
    own.split("\n"),
    labels,
    '<div style="border:solid #9C6500 1.0pt;padding:2.0pt 2.0pt 2.0pt 2.0pt">\n'
    '<p class="MsoNormal" style="background:#FFEB9C"><b><span style="font-size:10.0pt;'
    'color:#9C6500">'
    + esc(banner)
    + "</span></b><o:p></o:p></p>\n</div>\n"
    + html_lines(turn_text(C), "word"),
)
h = h.replace(" – ", " &#8211; ")
bnd = "_000_PR3PR10MB4142A8C7E1D95F0B3A6C2E4DB7F19PR3PR10MB4142EURP_"
message(
    "20-outlook-external-endash.eml",
    "Outlook desktop (Microsoft 365) behind a corporate gateway",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Countess"), O(7, "Guard", "Bruno", "King"), O(11, "Spy", "Dominik")],
    exchange_headers(
        "=?utf-8?B?TWFydGluLCBDaGxvw6k=?= <chloe@example.fr>",
        '"Rita (pbem)" <gm@example.org>',
        "RE: " + ext,
        ext,
        "AQHbYjP8mT2kVx0cR0e3Nq7bJ5sLwQ==",
        "Mon, 30 Nov 2026 16:20:05 +0000",
        "PR3PR10MB4142A8C7E1D95F0B3A6C2E4DB7F19@PR3PR10MB4142.EURPRD10.PROD.OUTLOOK.COM",
        C["mid"],
        bnd,
        lang="en-GB",
        accept="en-GB, fr-FR, en-US",
        extra="X-MS-Exchange-Organization-SCL: -1\n",
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(plain)
            + "\n",
            'Content-Type: text/html; charset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(h)
            + "\n",
        ],
    ),
    own=own,
    contains=["play the Guard on Bruno and guess that he has a King"],
    excludes=TURN_EXCLUDES + [example_line(C), "CAUTION: This email originated"],
    covers="'RE: [EXTERNAL] [game7] ...' subject, gateway banner inside the quote, en dash (U+2013) from Word AutoFormat in 'Hand 3 – play the Countess', 'Martin, Chloé' base64 From",
)

# ==========================================================================
# 21  Gmail forward ("Fwd:") with orders written above the forwarded turn mail
# ==========================================================================
own = """Rita, my reply from this morning bounced, so here it is again:

Hand 3: Baron on Arthur
Hand 7: Prince on chloé
Hand 11: King on Dominik

Chloé"""
fwd_plain = (
    "---------- Forwarded message ---------\nFrom: Rita (pbem) <gm@example.org>\n"
    "Date: Sun, Nov 29, 2026 at 7:00 PM\nSubject: " + SUBJ3 + "\nTo: Chloé <chloe@example.fr>\n\n\n"
)
plain = own + "\n\n" + fwd_plain + turn_text(C) + "\n"
h = (
    gmail_own_html(own.split("\n")) + '<br><div class="gmail_quote gmail_quote_container">'
    '<div dir="ltr" class="gmail_attr">---------- Forwarded message ---------<br>From: '
    '<strong class="gmail_sendername" dir="auto">Rita (pbem)</strong> <span dir="auto">&lt;'
    '<a href="mailto:gm@example.org">gm@example.org</a>&gt;</span><br>Date: Sun, Nov 29, 2026 at 7:00 PM'
    "<br>Subject: " + esc(SUBJ3) + '<br>To: Chloé &lt;<a href="mailto:chloe@example.fr">chloe@example.fr</a>'
    "&gt;<br></div><br><br>" + html_lines(turn_text(C), "gmail", "\u00a0") + "</div></div>\n"
)
bnd = "000000000000e6c0a50627b3f1d2"
message(
    "21-gmail-forward-orders-above.eml",
    "Gmail web (forward)",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Baron", "Arthur"), O(7, "Prince", "Chloé"), O(11, "King", "Dominik")],
    gmail_headers(
        "=?UTF-8?Q?Chlo=C3=A9_Martin?= <chloe@example.fr>",
        "Mon, 30 Nov 2026 18:31:57 +0100",
        "CAJq8vN3cWm6Tz+Rb1kYe9LpQ4sGd2hV7fUa0oXnSiE5rBqTyMw@mail.gmail.com",
        "Fwd: " + SUBJ3,
        None,
        'multipart/alternative; boundary="%s"' % bnd,
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(plain)
            + "\n",
            'Content-Type: text/html; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(h)
            + "\n",
        ],
    ),
    own=own,
    contains=["Hand 7: Prince on chloé", "bounced"],
    excludes=TURN_EXCLUDES + [example_line(C), "Forwarded message"],
    covers="'Fwd:' subject without In-Reply-To, '---------- Forwarded message ---------' with the unquoted turn mail below the orders, own accented name in lower case as Prince target",
)

# ==========================================================================
# 22  Outlook desktop (German UI), forward "WG:" with orders above
# ==========================================================================
own = """Hallo Rita,

meine Antwort von gestern ist wohl nicht angekommen, hier nochmal:

Hand 4: Countess
Hand 8: Handmaid
Hand 12: Baron on Chloé

Gruß
Dominik"""
labels = [
    ("Von:", "Rita (pbem) <gm@example.org>"),
    ("Gesendet:", "Sonntag, 29. November 2026 19:00"),
    ("An:", "Dominik Müller <dominik@example.de>"),
    ("Betreff:", SUBJ3),
]
plain = own + "\n\n" + outlook_plain_block(labels) + "\n\n" + turn_text(D) + "\n"
h = word_html(own.split("\n"), labels, html_lines(turn_text(D), "word"), lang="DE", inner_lang="DE")
bnd = "----=_NextPart_000_0041_01DB4C0E.7D2B9A30"
message(
    "22-outlook-german-wg-forward.eml",
    "Outlook 2021 desktop, German UI (forward)",
    D["addr"],
    "Dominik",
    "game7",
    3,
    D["code"],
    [O(4, "Countess"), O(8, "Handmaid"), O(12, "Baron", "Chloé")],
    "From: =?utf-8?Q?Dominik_M=C3=BCller?= <dominik@example.de>\nTo: \"'Rita (pbem)'\" <gm@example.org>\n"
    "Subject: WG: " + SUBJ3 + "\nDate: Tue, 1 Dec 2026 08:03:26 +0100\n"
    "Message-ID: <004001db4c05$e9b1a2f0$bd14e8d0$@example.de>\nMIME-Version: 1.0\n"
    'Content-Type: multipart/alternative;\n\tboundary="%s"\n'
    % bnd
    + "X-Mailer: Microsoft Outlook 16.0\nThread-Index: AQHbYjP6q4WmV0c4S0iK2c+5hGJz37TqQzpQ\n"
    "Content-Language: de\n\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain;\n\tcharset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(plain)
            + "\n",
            'Content-Type: text/html;\n\tcharset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            + qp(h)
            + "\n",
        ],
        preamble="This is a multipart message in MIME format.\n\n",
    ),
    own=own,
    contains=["Hand 12: Baron on Chloé"],
    excludes=TURN_EXCLUDES + [example_line(D), "Gesendet:"],
    covers="'WG:' forward from German Outlook, no In-Reply-To/References, forwarded text unquoted under a Von:/Gesendet: block",
)

# ==========================================================================
# 23  Thunderbird, forward as attachment (message/rfc822) with orders in the body
# ==========================================================================
own = """Rita,

forwarding the turn mail so you can see which one I'm answering.

H1 Baron Dominik
H5 Prince Bruno
H9 King Chloé

Arthur"""
inner = (
    "Return-Path: <gm@example.org>\nDelivered-To: arthur@example.org\n"
    "Message-ID: <%s>\nDate: Sun, 29 Nov 2026 18:00:00 +0000\nFrom: %s\n"
    "To: Arthur <arthur@example.org>\nSubject: %s\nMIME-Version: 1.0\n"
    'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 8bit\n'
    "X-Mailer: pbem\n\n%s\n" % (A["mid"], GM, SUBJ3, turn_text(A))
)
bnd = "------------0QpZ3rX7bN2mK5vL8wY1cT4d"
fname = "[game7] Turn 3: your cards and orders.eml"
message(
    "23-thunderbird-forward-as-attachment.eml",
    "Thunderbird 128 (forward as attachment)",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Baron", "Dominik"), O(5, "Prince", "Bruno"), O(9, "King", "Chloé")],
    'Content-Type: multipart/mixed; boundary="%s"\n'
    % bnd
    + "Message-ID: <2c6f9e1a-4b8d-4f3e-a5c7-0d9e8f7a6b51@example.org>\n"
    "Date: Tue, 1 Dec 2026 09:47:21 +0000\nMIME-Version: 1.0\nUser-Agent: Mozilla Thunderbird\n"
    'Content-Language: en-GB\nTo: "Rita (pbem)" <gm@example.org>\n'
    "From: Arthur Pendleton <arthur@example.org>\nSubject: Fwd: "
    + SUBJ3
    + "\n\n"
    + mp(
        bnd,
        [
            "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 8bit\n\n"
            + own
            + "\n\n",
            'Content-Type: message/rfc822; name="%s"\nContent-Disposition: attachment;\n'
            ' filename="%s"\n\n' % (fname, fname) + inner,
        ],
        preamble="This is a multi-part message in MIME format.\n",
    ),
    encoding="utf-8",
    own=own,
    contains=["H1 Baron Dominik", "H9 King Chloé"],
    excludes=TURN_EXCLUDES + [example_line(A)],
    covers="forward as attachment: the turn mail (with its order-looking lines and the code) is a message/rfc822 part, orders in the covering text/plain part",
)

# ==========================================================================
# 24  Gmail with a PDF attachment (multipart/mixed around multipart/alternative)
# ==========================================================================
own = """Hi Rita,

Hand 2: Guard on Chloé, guess Baron
Hand 6: Spy on Dominik
Hand 10: Guard on Arthur, guess 4

My notes for the write-up are in the PDF.

Bruno"""
inner_b = "0000000000009d1c6a0627b41b37"
outer_b = "0000000000009d1c6c0627b41b39"
attr = "On Sun, 29 Nov 2026 at 19:00, Rita (pbem) <gm@example.org> wrote:"
plain = own + "\n\n" + attr + "\n\n" + gt(turn_text(B)) + "\n"
h = (
    gmail_own_html(own.split("\n")) + '<br><div class="gmail_quote gmail_quote_container">'
    '<div dir="ltr" class="gmail_attr">'
    + gattr(attr)
    + "<br></div>"
    + GMAIL_BQ
    + html_lines(turn_text(B), "gmail", "\u00a0")
    + "</blockquote></div>\n"
)
alt = mp(
    inner_b,
    [
        'Content-Type: text/plain; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
        + qp(plain)
        + "\n",
        'Content-Type: text/html; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
        + qp(h)
        + "\n",
    ],
)
message(
    "24-gmail-pdf-attachment.eml",
    "Gmail web (with PDF attachment)",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(2, "Guard", "Chloé", "Baron"), O(6, "Spy", "Dominik"), O(10, "Guard", "Arthur", "Handmaid")],
    gmail_headers(
        "Bruno Leal <bruno@example.org>",
        "Tue, 1 Dec 2026 11:52:40 +0100",
        "CAM4vX8wPq6+Nz3bKm8pTe1YfR5sJg9dH2cLa4oViUmWtQxC0rD@mail.gmail.com",
        "Re: " + SUBJ3,
        B["mid"],
        'multipart/mixed; boundary="%s"' % outer_b,
    )
    + "\n"
    + mp(
        outer_b,
        [
            'Content-Type: multipart/alternative; boundary="%s"\n\n' % inner_b + alt,
            'Content-Type: application/pdf; name="notes-turn3.pdf"\n'
            'Content-Disposition: attachment; filename="notes-turn3.pdf"\nContent-Transfer-Encoding: base64\n'
            "Content-ID: <f_m3k2x9q10>\nX-Attachment-Id: f_m3k2x9q10\n\n" + b64(b64data(NOTES_PDF)),
        ],
    ),
    own=own,
    contains=["Hand 10: Guard on Arthur, guess 4", "in the PDF"],
    excludes=TURN_EXCLUDES + [example_line(B), "Chloe probably holds"],
    covers="multipart/mixed with a PDF attachment (whose text holds a hand number), 'guess 4' = Handmaid, Spy with target",
)

# ==========================================================================
# 25  Apple Mail (macOS) with an inline screenshot between the orders
# ==========================================================================
top = """Hand 3: Baron on Arthur
Hand 7: Guard on Bruno, guess Handmaid

Here is what my table looks like:"""
bottom = """Hand 11: King on Dominik

Chloé"""
attr = "On 29 Nov 2026, at 19:00, Rita (pbem) <gm@example.org> wrote:"
plain = top + "\n\n\n\n" + bottom + "\n\n" + gt(attr + "\n\n" + turn_text(C), blank="> ") + "\n\n"
apple_body = (
    '<html aria-label="message body"><head><meta http-equiv="content-type" content="text/html; '
    'charset=utf-8"></head><body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; '
    'line-break: after-white-space;">'
)
tl = top.split("\n")
h1 = (
    apple_body
    + esc(tl[0])
    + "".join("<div>%s</div>" % (esc(l) if l else "<br>") for l in tl[1:])
    + "<div><br></div><div></div></body></html>"
)
bl = bottom.split("\n")
h2 = (
    apple_body
    + "<div></div><div><br></div>"
    + "".join("<div>%s</div>" % (esc(l) if l else "<br>") for l in bl[:-1])
    + "<div>"
    + esc(bl[-1])
    + '<br id="lineBreakAtBeginningOfMessage"><div><br><blockquote type="cite">'
    "<div>"
    + esc(attr)
    + '</div><br class="Apple-interchange-newline"><div><div>'
    + html_lines(turn_text(C), "apple")
    + "</div></div></blockquote></div><br></div></body></html>"
)
outer_b = "Apple-Mail=_1B7E5D20-94C3-4F8A-B2E6-0D3C9A8F7E14"
inner_b = "Apple-Mail=_6A2F0C93-1E4B-4D7A-8C35-F9B2E1D0A6C8"
mixed = mp(
    inner_b,
    [
        "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/html;\n\tcharset=utf-8\n\n"
        + qp(h1)
        + "\n",
        "Content-Disposition: inline;\n\tfilename=table.png\nContent-Type: image/png;\n\tx-unix-mode=0644;\n"
        '\tname="table.png"\nContent-Transfer-Encoding: base64\n\n' + b64(b64data(SHOT_PNG)),
        "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/html;\n\tcharset=utf-8\n\n"
        + qp(h2)
        + "\n",
    ],
)
message(
    "25-apple-mail-inline-image.eml",
    "Apple Mail (macOS 15) with inline image",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Baron", "Arthur"), O(7, "Guard", "Bruno", "Handmaid"), O(11, "King", "Dominik")],
    "From: =?utf-8?Q?Chlo=C3=A9_Martin?= <chloe@example.fr>\n"
    'Content-Type: multipart/alternative;\n\tboundary="%s"\n'
    % outer_b
    + "Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3826.500.181.1.5\\))\nSubject: Re: "
    + SUBJ3
    + "\n"
    "Date: Mon, 30 Nov 2026 11:48:20 +0100\nReferences: <%s>\n"
    % C["mid"]
    + 'To: "Rita (pbem)" <gm@example.org>\nIn-Reply-To: <%s>\n' % C["mid"]
    + "Message-Id: <0C4E8B27-5F1A-4D93-9E6B-A2D7C3F10B85@example.fr>\n"
    "X-Mailer: Apple Mail (2.3826.500.181.1.5)\n\n"
    + mp(
        outer_b,
        [
            "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/plain;\n\tcharset=utf-8\n\n"
            + qp(plain),
            'Content-Type: multipart/mixed;\n\tboundary="%s"\n\n\n' % inner_b + mixed,
        ],
    ),
    own=top + "\n" + bottom,
    contains=["Hand 7: Guard on Bruno, guess Handmaid", "Hand 11: King on Dominik"],
    excludes=TURN_EXCLUDES + [example_line(C), "wrote:"],
    covers="Apple's alternative(text/plain, mixed(html, image/png, html)): the orders are split across two HTML parts around the picture",
)

# ==========================================================================
# 26  iOS Mail with a photo: multipart/mixed(text/plain, image/jpeg, text/plain)
# ==========================================================================
top = """Hand 1: Guard on Dominik, guess Baron
Hand 5: Prince on Bruno
Hand 9: King on Chloé

Photo of my notes attached."""
rest = (
    "\n\n\nSent from my iPhone\n\n> On 29 Nov 2026, at 18:00, Rita (pbem) <gm@example.org> wrote:\n> \n"
    + gt("\ufeff" + turn_text(A), blank="> ")
    + "\n"
)
bnd = "Apple-Mail-9E2D4C71-0B8A-4F36-A5D2-7C1E3F9B6A04"
message(
    "26-iphone-photo-attachment.eml",
    "iOS Mail (iPhone) with photo",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Guard", "Dominik", "Baron"), O(5, "Prince", "Bruno"), O(9, "King", "Chloé")],
    "Content-Type: multipart/mixed; boundary=%s\nContent-Transfer-Encoding: 7bit\n"
    % bnd
    + "From: Arthur Pendleton <arthur@example.org>\nMime-Version: 1.0 (1.0)\n"
    "Subject: Re: " + SUBJ3 + "\nDate: Mon, 30 Nov 2026 08:02:51 +0000\n"
    "Message-Id: <8F41B2D7-3C6E-4A95-B0D8-E5F7A1C29D63@example.org>\n"
    "References: <%s>\nIn-Reply-To: <%s>\n"
    % (A["mid"], A["mid"])
    + 'To: "Rita (pbem)" <gm@example.org>\nX-Mailer: iPhone Mail (22B91)\n\n'
    + mp(
        bnd,
        [
            "Content-Type: text/plain;\n\tcharset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + qp(top + "\n\n"),
            "Content-Type: image/jpeg;\n\tname=IMG_4187.jpeg;\n\tx-apple-part-url=C0B1F2A3-9D84-4E57-86A1-3F2B5C7D9E10\n"
            "Content-Disposition: inline;\n\tfilename=IMG_4187.jpeg\nContent-Transfer-Encoding: base64\n\n"
            + b64(b64data(PHOTO_JPG)),
            "Content-Type: text/plain;\n\tcharset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + qp(rest),
        ],
    ),
    own=top,
    contains=["Hand 9: King on Chloé", "Photo of my notes"],
    excludes=TURN_EXCLUDES + [example_line(A), "Sent from my iPhone"],
    covers="iOS multipart/mixed with two text/plain parts around an inline JPEG: orders in the first part, signature + quote in the second",
)

# ==========================================================================
# 27  K-9 Mail (Android, German): '>' quoting without a space, orders on one line
# ==========================================================================
own = "Hand 4: Countess; Hand 8: Guard on chlo, guess King; Hand 12: Baron on ARTHUR"
body = (
    own + "\n\n-- \nDiese Nachricht wurde von meinem Android-Gerät mit K-9 Mail gesendet.\n\n"
    'Am 29. November 2026 19:00:00 MEZ schrieb "Rita (pbem)" <gm@example.org>:\n'
    + gt(turn_text(D), prefix=">")
    + "\n"
)
message(
    "27-k9-android-semicolons.eml",
    "K-9 Mail (Android, German)",
    D["addr"],
    "Dominik",
    "game7",
    3,
    D["code"],
    [O(4, "Countess"), O(8, "Guard", "Chloé", "King"), O(12, "Baron", "Arthur")],
    "MIME-Version: 1.0\nDate: Mon, 30 Nov 2026 12:31:44 +0100\nUser-Agent: K-9 Mail for Android\n"
    "In-Reply-To: <%s>\nReferences: <%s>\n"
    % (D["mid"], D["mid"])
    + "Content-Type: text/plain;\n charset=UTF-8\nContent-Transfer-Encoding: quoted-printable\n"
    "Subject: Re: " + SUBJ3 + '\nTo: "Rita (pbem)" <gm@example.org>\n'
    "From: =?UTF-8?Q?Dominik_M=C3=BCller?= <dominik@example.de>\n"
    "Message-ID: <A7F3C2E1-9B4D-4E6A-8C15-2D0F1E3B7A94@example.de>\n\n" + qp(body),
    own=own,
    contains=[own],
    excludes=TURN_EXCLUDES + [example_line(D), "K-9 Mail gesendet"],
    covers="K-9 quote prefix '>' with no space, German 'Am ... MEZ schrieb ...:', ';'-separated orders, name prefix 'chlo', upper-case 'ARTHUR'",
)

# ==========================================================================
# 28  Gmail, prose around the orders (mentions of hands and cards that are not orders)
# ==========================================================================
own = """Hi Rita,

What a turn! I was really hoping to draw the Princess in hand 9, oh well. Bruno has been far too lucky with his Guards, so let's change that.

So, my orders:

Hand 1: Guard on Bruno, guess King
Hand 9: King on Chloé

I'm still torn about hand 5. I could protect myself with the Handmaid but the Prince is tempting... fine, let's be brave:

Hand 5: Prince on Dominik

By the way, could we use the Japanese deck (Shugenja, Hatamoto and so on) for game 8?

Cheers,
Arthur"""
message(
    "28-gmail-prose-around-orders.eml",
    "Gmail web",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Guard", "Bruno", "King"), O(9, "King", "Chloé"), O(5, "Prince", "Dominik")],
    gmail_reply(
        "Arthur Pendleton <arthur@example.org>",
        "Mon, 30 Nov 2026 22:10:03 +0000",
        "CAPx7Hq5Yn8pM3tD+xV0rJc6ZkG2bF9hUa1oKiQ4dRw3eYsTvBn@mail.gmail.com",
        "Re: " + SUBJ3,
        A["mid"],
        own,
        "On Sun, 29 Nov 2026 at 18:00, Rita (pbem) <gm@example.org> wrote:",
        turn_text(A),
        "000000000000d37e8b0627b4c6f0",
    ),
    own=own,
    contains=["Hand 5: Prince on Dominik", "let's be brave"],
    excludes=TURN_EXCLUDES + [example_line(A)],
    covers="chatty prose around the order lines; prose mentions 'Princess in hand 9', 'hand 5 ... Handmaid', alias names: none of these is an order; orders out of hand order",
)

# ==========================================================================
# 29  Yahoo Mail, late orders for turn 2 (old turn); Yahoo quotes without '>'
# ==========================================================================
own = """Sorry Rita, I forgot to send these on time. Maybe you can still use them?
Hand 2: Baron on Arthur
Hand 6: Spy on Chloé
Hand 7: Guard on Dominik, guess Prince
Bruno"""
t2 = turn_text(BRUNO_T2, 2)
yattr = "On Thursday, November 26, 2026 at 07:00:00 PM GMT+1, Rita (pbem) <gm@example.org> wrote:"
plain = own + "\n\n    " + yattr + "  \n \n" + "\n".join(" " + l for l in t2.split("\n")) + "\n"
ydiv = "".join(
    '<div dir="ltr" data-setdir="false">%s</div>' % (esc(l) if l else "<br>") for l in own.split("\n")
)
h = (
    '<html><head></head><body><div class="ydp4e7c2b19yahoo-style-wrap" style="font-family:Helvetica Neue, '
    'Helvetica, Arial, sans-serif;font-size:13px;">' + ydiv + "</div><div><br></div>"
    '<div id="yahoo_quoted_8274619350" class="yahoo_quoted">\n'
    "            <div style=\"font-family:'Helvetica Neue', Helvetica, Arial, sans-serif;font-size:13px;color:#26282a;\">\n"
    "                \n                <div>\n                        " + esc(yattr) + "\n"
    "                    </div>\n                    <div><br></div>\n                    <div><br></div>\n"
    '                <div><div dir="ltr">'
    + html_lines(t2, "gmail", "&nbsp;")
    + "</div></div>\n            </div>\n        </div></body></html>"
)
bnd = "----=_Part_2847560_1203847561.1764484869122"
message(
    "29-yahoo-turn2-late.eml",
    "Yahoo Mail (web)",
    B["addr"],
    "Bruno",
    "game7",
    2,
    B["code"],
    [O(2, "Baron", "Arthur"), O(6, "Spy", "Chloé"), O(7, "Guard", "Dominik", "Prince")],
    "Date: Mon, 30 Nov 2026 06:41:09 +0000 (UTC)\nFrom: Bruno Leal <bruno@example.org>\n"
    'To: "Rita (pbem)" <gm@example.org>\n'
    "Message-ID: <1729384756.2847561.1764484869123@mail.yahoo.com>\n"
    "In-Reply-To: <%s>\nReferences: <%s>\n"
    % (BRUNO_T2["mid"], BRUNO_T2["mid"])
    + "Subject: Re: "
    + SUBJ2
    + "\nMIME-Version: 1.0\n"
    'Content-Type: multipart/alternative; \n\tboundary="%s"\n'
    % bnd
    + "X-Mailer: WebService/1.1.24752 YMailNorrin\n\n"
    + mp(
        bnd,
        [
            "Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + qp(plain)
            + "\n",
            "Content-Type: text/html; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + qp(h)
            + "\n",
        ],
    ),
    own=own,
    contains=["Hand 6: Spy on Chloé", "forgot to send"],
    excludes=TURN_EXCLUDES[:3] + ["Orders for turn 2", example_line(BRUNO_T2)],
    covers="orders for an old turn ('[game7] Turn 2'), Yahoo's plain part indents the quote with a space instead of '>'",
)

# ==========================================================================
# 30  Unknown sender (stranger@example.net) answering a forward of Chloé's turn mail
# ==========================================================================
own = """Hello Rita,

Chloé forwarded me this, I'm her friend Sam and I'd love to join the next game.
If it helps, this is what I would play for her:

Hand 3: Baron on Bruno
Hand 11: King on Dominik

Sam"""
chloe_fwd = (
    "Sam, look, this is how the game works! Don't tell anyone my cards ;)\n\n" + fwd_plain + turn_text(C)
)
plain = (
    own + "\n\n________________________________\nFrom: Chloé Martin <chloe@example.fr>\n"
    "Sent: Monday, November 30, 2026 20:14\nTo: stranger@example.net <stranger@example.net>\n"
    "Subject: Fwd: " + SUBJ3 + "\n\n" + chloe_fwd + "\n"
)
divs = "\n".join(
    '<div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont, '
    'Aptos_MSFontService, Calibri, Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">\n'
    + (esc(l) if l else "<br>")
    + "</div>"
    for l in own.split("\n")
)
h = (
    "<html>\n<head>\n"
    '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\n'
    '<style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style>\n'
    '</head>\n<body dir="ltr">\n' + divs + "\n"
    '<div id="appendonsend"></div>\n<hr style="display:inline-block;width:98%" tabindex="-1">\n'
    '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" '
    'color="#000000"><b>From:</b> Chloé Martin &lt;chloe@example.fr&gt;<br>\n'
    "<b>Sent:</b> Monday, November 30, 2026 20:14<br>\n"
    "<b>To:</b> stranger@example.net &lt;stranger@example.net&gt;<br>\n"
    "<b>Subject:</b> Fwd: " + esc(SUBJ3) + "</font>\n<div>&nbsp;</div>\n</div>\n"
    '<div dir="ltr">' + html_lines(chloe_fwd, "owa") + "</div>\n</body>\n</html>\n"
)
bnd = "_000_DU0P192MB2193F1A7C4E2B9D05A8C3E6FB1D27DU0P192MB2193EURP_"
message(
    "30-unknown-sender.eml",
    "Outlook.com (web)",
    "stranger@example.net",
    None,
    "game7",
    3,
    C["code"],
    [O(3, "Baron", "Bruno"), O(11, "King", "Dominik")],
    exchange_headers(
        "Sam Whitfield <stranger@example.net>",
        '"Rita (pbem)" <gm@example.org>',
        "Re: Fwd: " + SUBJ3,
        "Fwd: " + SUBJ3,
        "AQHbYvR2xK8mN0pQz0G3tL7bH9cWvA==",
        "Mon, 30 Nov 2026 20:51:38 +0000",
        "DU0P192MB2193F1A7C4E2B9D05A8C3E6FB1D27@DU0P192MB2193.EURP192.PROD.OUTLOOK.COM",
        "CAJq8vN4dXn7Uz+Sc2lZf0MqR5tHe3iW8gVb1pYoTjF6sCrUzNx@mail.gmail.com",
        bnd,
        lang="en-US",
        accept="en-US",
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + b64(plain),
            'Content-Type: text/html; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + b64(h),
        ],
    ),
    own=own,
    contains=["Hand 3: Baron on Bruno", "friend Sam"],
    excludes=TURN_EXCLUDES + [example_line(C), "Don't tell anyone my cards"],
    covers="sender not registered (stranger@example.net) whose quote holds Chloé's forwarded turn mail and her code: reader must not make it Chloé's",
)

# ==========================================================================
# 31  Roundcube, new message (not a reply) from Bruno's address with a mistyped code
# ==========================================================================
own = """Hi Rita,

I'm on a friend's computer and don't have your mail here, so from memory:

Code: B4HN-8WRC
Hand 2: Guard on Dominik, guess Prince
Hand 6: Prince on Arthur
Hand 10: Baron on Arthur

Bruno"""
message(
    "31-roundcube-wrong-code.eml",
    "Roundcube Webmail 1.6",
    B["addr"],
    "Bruno",
    "game7",
    3,
    "B4HN-8WRC",
    [O(2, "Guard", "Dominik", "Prince"), O(6, "Prince", "Arthur"), O(10, "Baron", "Arthur")],
    received(
        B["addr"],
        "webmail.example.org",
        "198.51.100.23",
        "Mon, 30 Nov 2026 19:55:05 +0100 (CET)",
        "4dMF7x1kTqz9sZd",
    )
    + "MIME-Version: 1.0\nDate: Mon, 30 Nov 2026 19:55:03 +0100\nFrom: Bruno Leal <bruno@example.org>\n"
    "To: gm@example.org\nSubject: [game7] Turn 3 orders\n"
    "Message-ID: <5f1a7c93e2d84b06a1c9e3f2d7b8a4c5@example.org>\nX-Sender: bruno@example.org\n"
    "User-Agent: Roundcube Webmail/1.6.9\nContent-Type: text/plain; charset=US-ASCII;\n format=flowed\n"
    "Content-Transfer-Encoding: 7bit\n\n" + own.replace("so from memory:", "so from \nmemory:") + "\n",
    own=own,
    contains=["Code: B4HN-8WRC", "Hand 2: Guard on Dominik, guess Prince"],
    covers="registered address but a made-up code (B4HN-8WRC, not Bruno's B4HN-8RWC) and no quote, fresh subject '[game7] Turn 3 orders', no In-Reply-To",
)

# ==========================================================================
# 32  Gmail, no order at all
# ==========================================================================
own = """Rita, I need one more night to think about hand 7. Orders tomorrow morning, promised!

Chloé"""
message(
    "32-gmail-no-orders.eml",
    "Gmail web",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [],
    gmail_reply(
        "=?UTF-8?Q?Chlo=C3=A9_Martin?= <chloe@example.fr>",
        "Mon, 30 Nov 2026 23:48:19 +0100",
        "CAJq8vN5eYo8Va+Td3mAg1NrS6uIf4jX9hWc2qZpUkG7tDsVaOy@mail.gmail.com",
        "Re: " + SUBJ3,
        C["mid"],
        own,
        "On Sun, Nov 29, 2026 at 7:00 PM Rita (pbem) <gm@example.org> wrote:",
        turn_text(C),
        "00000000000048fa2d0627b5018e",
    ),
    own=own,
    contains=["one more night"],
    excludes=TURN_EXCLUDES + [example_line(C)],
    covers="a reply without any order line (prose names 'hand 7'), while the quote is full of order-looking lines",
)

# ==========================================================================
# 33  Gmail, STATUS keyword
# ==========================================================================
own = """STATUS

--
Arthur"""
message(
    "33-gmail-status.eml",
    "Gmail web",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [],
    gmail_reply(
        "Arthur Pendleton <arthur@example.org>",
        "Tue, 1 Dec 2026 12:01:44 +0000",
        "CAPx7Hq6Zo9qN4tE+wU1sKd7AlH3cG0iVb2pLjR5eSx4fZtUwCo@mail.gmail.com",
        "Re: " + SUBJ3,
        A["mid"],
        own,
        "On Sun, 29 Nov 2026 at 18:00, Rita (pbem) <gm@example.org> wrote:",
        turn_text(A),
        "000000000000a0c17e0627b5e3d4",
    ),
    keywords=["STATUS"],
    own=own,
    contains=["STATUS"],
    excludes=TURN_EXCLUDES + [example_line(A)],
    covers="keyword STATUS alone on a line, then a hand-typed '--' (no trailing space) before the name",
)

# ==========================================================================
# 34  Thunderbird HTML compose (moz-cite-prefix), CLEAR followed by fresh orders
# ==========================================================================
own = """CLEAR
Hand 2: Guard on Chloé, guess Countess
Hand 6: Prince on Dominik
Hand 10: Baron on Arthur

Bruno"""
plain = own + "\n\nOn 29/11/2026 19:00, Rita (pbem) wrote:\n" + gt(turn_text(B)) + "\n\n"
ol = own.split("\n")
h = (
    '<!DOCTYPE html>\n<html>\n  <head>\n\n    <meta http-equiv="content-type" content="text/html; charset=UTF-8">\n'
    "  </head>\n  <body>\n    <p>" + "<br>\n      ".join(esc(l) for l in ol[:4]) + "</p>\n"
    "    <p>Bruno<br>\n    </p>\n"
    '    <div class="moz-cite-prefix">On 29/11/2026 19:00, Rita (pbem) wrote:<br>\n    </div>\n'
    '    <blockquote type="cite"\n      cite="mid:%s">\n'
    % B["mid"]
    + '      <pre wrap="" class="moz-quote-pre">'
    + esc(turn_text(B))
    + "\n</pre>\n"
    "    </blockquote>\n  </body>\n</html>\n"
)
bnd = "------------Xa9Bc3De5Fg7Hi1Jk2Lm4No6"
message(
    "34-thunderbird-html-clear.eml",
    "Thunderbird 128 (HTML compose)",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(2, "Guard", "Chloé", "Countess"), O(6, "Prince", "Dominik"), O(10, "Baron", "Arthur")],
    'Content-Type: multipart/alternative;\n boundary="%s"\n'
    % bnd
    + "Message-ID: <6a0d3f81-c25e-4b97-8e14-f3a9b7d2c560@example.org>\n"
    "Date: Tue, 1 Dec 2026 10:12:37 +0100\nMIME-Version: 1.0\nUser-Agent: Mozilla Thunderbird\n"
    "Subject: Re: " + SUBJ3 + '\nContent-Language: en-US\nTo: "Rita (pbem)" <gm@example.org>\n'
    "References: <%s>\nFrom: Bruno Leal <bruno@example.org>\nIn-Reply-To: <%s>\n\n"
    % (B["mid"], B["mid"])
    + mp(
        bnd,
        [
            "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 8bit\n\n"
            + plain,
            "Content-Type: text/html; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\n" + h + "\n",
        ],
        preamble="This is a multi-part message in MIME format.\n",
    ),
    encoding="utf-8",
    keywords=["CLEAR"],
    own=own,
    contains=["CLEAR", "Hand 6: Prince on Dominik"],
    excludes=TURN_EXCLUDES + [example_line(B)],
    covers="keyword CLEAR followed by new orders, Thunderbird HTML (moz-cite-prefix, blockquote type=cite, pre.moz-quote-pre) + flowed plain",
)

# ==========================================================================
# 35  Proton Mail, subject changed (no tag) but In-Reply-To names the turn mail
# ==========================================================================
own = """Hand 3: Baron on Dominik; Hand 7: Guard on Bruno, guess Countess
Hand 11: Spy on Arthur

Chloé"""
sig = "Sent with Proton Mail secure email."
attr = "On Sunday, November 29th, 2026 at 19:00, Rita (pbem) <gm@example.org> wrote:"
plain = own + "\n\n" + sig + "\n\n" + attr + "\n\n" + gt(turn_text(C), blank=">") + "\n"
h = (
    '<div style="font-family: Arial, sans-serif; font-size: 14px;">'
    + "".join("<div>%s</div>" % (esc(l) if l else "<br>") for l in own.split("\n"))
    + '</div><div style="font-family: Arial, sans-serif; font-size: 14px;"><br></div>\n'
    '<div class="protonmail_signature_block" style="font-family: Arial, sans-serif; font-size: 14px;">\n'
    '    <div class="protonmail_signature_block-user protonmail_signature_block-empty">\n        \n    </div>\n'
    '    \n            <div class="protonmail_signature_block-proton">\n        Sent with <a target="_blank" '
    'href="https://proton.me/mail/home">Proton Mail</a> secure email.\n    </div>\n</div>\n'
    '<div style="font-family: Arial, sans-serif; font-size: 14px;"><br></div><div class="protonmail_quote">\n'
    "        "
    + gattr(attr).replace('<a href="mailto:gm@example.org">', '<a href="mailto:gm@example.org" class="">')
    + "<br><br>\n        "
    '<blockquote class="protonmail_quote" type="cite">\n            '
    + html_lines(turn_text(C), "gmail", "&nbsp;")
    + "\n        </blockquote><br>\n    </div>"
)
bnd = "b1=_qT8vZkL3mN0pR5sW7yB2dF4hJ6xC9eG1aU3iO5"
message(
    "35-protonmail-no-subject-tag.eml",
    "Proton Mail (web)",
    C["addr"],
    "Chloé",
    None,
    None,
    C["code"],
    [O(3, "Baron", "Dominik"), O(7, "Guard", "Bruno", "Countess"), O(11, "Spy", "Arthur")],
    'Date: Mon, 30 Nov 2026 17:20:44 +0000\nTo: "Rita (pbem)" <gm@example.org>\n'
    "From: =?utf-8?Q?Chlo=C3=A9_Martin?= <chloe@example.fr>\nSubject: mes ordres\n"
    "Message-ID: <kP3vX9qT2mWcR7yLbN4sZ1dFgH6jA8eU0oIiQ5tVxYwL2nM8rB4cK7zQ1pS9fJ3gD6hA0eT5uW=@proton.me>\n"
    "In-Reply-To: <%s>\nReferences: <%s>\n"
    % (C["mid"], C["mid"])
    + "Feedback-ID: 28301947:user:proton\nX-Pm-Message-ID: 7c1e4b2d9a0f3e8c5b6d2a1f0e9c8b7a6d5c4b3a\n"
    'MIME-Version: 1.0\nContent-Type: multipart/alternative;\n boundary="%s"\n\n'
    % bnd
    + "This is a multi-part message in MIME format.\n\n"
    + mp(
        bnd,
        [
            "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + qp(plain)
            + "\n",
            "Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + qp(h)
            + "\n",
        ],
    ),
    own=own,
    contains=["Hand 11: Spy on Arthur"],
    excludes=TURN_EXCLUDES + [example_line(C)],
    covers="subject without campaign tag ('mes ordres'); only In-Reply-To/References link it to the turn mail; Proton quote header",
)

# ==========================================================================
# 36  BROKEN: Gmail message cut off in the middle of the HTML part (no closing boundary)
# ==========================================================================
own = """Hand 1: Baron on Bruno
Hand 5: Handmaid
Hand 9: King on Dominik

Arthur"""
full = gmail_reply(
    "Arthur Pendleton <arthur@example.org>",
    "Tue, 1 Dec 2026 14:22:09 +0000",
    "CAPx7Hq8Bq1sP6tG+yW3uMf9CnJ5eI2kXd4rNlT7gUz6hBvWyEq@mail.gmail.com",
    "Re: " + SUBJ3,
    A["mid"],
    own,
    "On Sun, 29 Nov 2026 at 18:00, Rita (pbem) <gm@example.org> wrote:",
    turn_text(A),
    "000000000000f9b2c40627b6d8a1",
)
cut = full.index("Content-Type: text/html")
cut = full.index("\n", full.index("\n\n", cut) + 2 + 300)  # a few lines into the HTML part
message(
    "36-broken-truncated-mime.eml",
    "Gmail web (message truncated in transit)",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Baron", "Bruno"), O(5, "Handmaid"), O(9, "King", "Dominik")],
    full[: cut + 1],
    own=own,
    contains=["Hand 5: Handmaid"],
    excludes=TURN_EXCLUDES + [example_line(A)],
    covers="BROKEN: truncated inside the QP text/html part, closing boundary missing; the text/plain part is whole and must still be read",
)

# ==========================================================================
# 37  BROKEN: undeclared 8-bit UTF-8 (no MIME headers at all, raw UTF-8 in From)
# ==========================================================================
own = """Hand 4: Sensei
Hand 8: Guard on Chloé, guess Baron
Hand 12: King on Bruno

Grüße, Dominik"""
body = own + "\n\nRita (pbem) <gm@example.org> schrieb am 29.11.2026 um 19:00:\n" + gt(turn_text(D)) + "\n"
message(
    "37-broken-undeclared-8bit.eml",
    "home-made script (sendmail pipe, no MIME headers)",
    D["addr"],
    "Dominik",
    "game7",
    3,
    D["code"],
    [O(4, "Countess"), O(8, "Guard", "Chloé", "Baron"), O(12, "King", "Bruno")],
    received(
        D["addr"], "pc.example.de", "203.0.113.90", "Tue, 1 Dec 2026 06:58:14 +0100 (CET)", "4dMT1c8Yxpz9sQa"
    )
    + "From: Dominik Müller <dominik@example.de>\nTo: gm@example.org\nSubject: Re: "
    + SUBJ3
    + "\n"
    "Date: Tue, 1 Dec 2026 06:58:12 +0100\nMessage-ID: <20261201055812.GA4721@pc.example.de>\n"
    "In-Reply-To: <%s>\n\n" % D["mid"] + body,
    encoding="utf-8",
    own=own,
    contains=["Hand 8: Guard on Chloé, guess Baron"],
    excludes=TURN_EXCLUDES + [example_line(D)],
    covers="BROKEN: 8-bit UTF-8 body and From header with no MIME-Version/Content-Type (must be read as UTF-8, 'Chloé' intact), alias Sensei = Countess, 'schrieb am' attribution",
)

# ==========================================================================
# 38  BROKEN: multipart/alternative whose boundary parameter was lost by a relay
# ==========================================================================
plain = (
    "Hand 2: Countess\nHand 6: Spy on Arthur\nHand 10: Baron on Dominik\n\nBruno\n\n"
    "On 29/11/2026 19:00, Rita (pbem) wrote:\n" + gt(turn_text(B)) + "\n"
)
hb = "<html><body><p>Hand 2: Countess<br>Hand 6: Spy on Arthur<br>Hand 10: Baron on Dominik</p><p>Bruno</p></body></html>\n"
nb = "=_alternative 0041A2C9C1258C3A_="
message(
    "38-broken-missing-boundary.eml",
    "HCL Notes via a relay that dropped the boundary parameter",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(2, "Countess"), O(6, "Spy", "Arthur"), O(10, "Baron", "Dominik")],
    "MIME-Version: 1.0\nSubject: Re: " + SUBJ3 + '\nTo: "Rita (pbem)" <gm@example.org>\n'
    "From: Bruno Leal <bruno@example.org>\nDate: Tue, 1 Dec 2026 09:15:00 +0100\n"
    "Message-ID: <OF3A1C27B9.5E8D4F12-ONC1258C3A.0041A2C9-C1258C3A.0041B7E3@example.org>\n"
    "In-Reply-To: <%s>\nX-Mailer: HCL Notes Release 12.0.2 November 03, 2022\n"
    % B["mid"]
    + "Content-Type: multipart/alternative\n\n"
    + mp(
        nb,
        [
            'Content-Type: text/plain; charset="UTF-8"\nContent-Transfer-Encoding: base64\n\n' + b64(plain),
            'Content-Type: text/html; charset="UTF-8"\nContent-Transfer-Encoding: base64\n\n' + b64(hb),
        ],
    ),
    own="Hand 2: Countess\nHand 6: Spy on Arthur\nHand 10: Baron on Dominik\n\nBruno",
    contains=["Hand 6: Spy on Arthur"],
    excludes=TURN_EXCLUDES + [example_line(B)],
    covers="BROKEN: 'Content-Type: multipart/alternative' with no boundary= but the parts intact between their delimiter lines: the boundary is recovered from them and Bruno's orders are read (decided after review: refusing readable orders would be worse)",
)

# ==========================================================================
# 39  web.de webmail, HTML only, "Aw:", Gesendet:/Von:/An:/Betreff: block
# ==========================================================================
own = """Hallo Rita,

Hand 4: Countess
Hand 8: Guard on Bruno, guess Prince
Hand 12: king on chloé

Gruß
Dominik"""
divs = "\n\n".join("<div>%s</div>" % (esc(l) if l else "&nbsp;") for l in own.split("\n"))
h = (
    '<html><head></head><body><div style="font-family: Verdana;font-size: 12.0px;">' + divs + "\n\n"
    "<div>&nbsp;\n<div>&nbsp;\n"
    '<div name="quote" style="margin:10.0px 5.0px 5.0px 10.0px; padding: 10.0px 0 10.0px 10.0px; '
    "border-left:2.0px solid #C3D9E5; word-wrap: break-word; -webkit-nbsp-mode: space; "
    '-webkit-line-break: after-white-space;">\n'
    '<div style="margin:0 0 10.0px 0;"><b>Gesendet:</b>&nbsp;Sonntag, 29. November 2026 um 19:00 Uhr<br/>\n'
    "<b>Von:</b>&nbsp;&quot;Rita (pbem)&quot; &lt;gm@example.org&gt;<br/>\n"
    "<b>An:</b>&nbsp;dominik@example.de<br/>\n"
    "<b>Betreff:</b>&nbsp;" + esc(SUBJ3) + "</div>\n\n"
    '<div name="quoted-content">' + html_lines(turn_text(D), "webde") + "</div>\n"
    "</div>\n</div>\n</div>\n</div></div></body></html>\n"
)
message(
    "39-webde-html-only.eml",
    "WEB.DE FreeMail (webmail)",
    D["addr"],
    "Dominik",
    "game7",
    3,
    D["code"],
    [O(4, "Countess"), O(8, "Guard", "Bruno", "Prince"), O(12, "King", "Chloé")],
    received(
        D["addr"], "mout.web.de", "203.0.113.3", "Mon, 30 Nov 2026 14:22:14 +0100 (CET)", "4dM9vR5nLbz9sKw"
    )
    + "MIME-Version: 1.0\n"
    "Message-ID: <trinity-8f3c2a71-5d4e-4b9a-a6c1-2e7f0d9b3c58-1764508931245@3c-app-webde-bap58>\n"
    'From: Dominik =?UTF-8?Q?M=C3=BCller?= <dominik@example.de>\nTo: "Rita (pbem)" <gm@example.org>\n'
    "Subject: Aw: " + SUBJ3 + "\nContent-Type: text/html; charset=UTF-8\n"
    "Date: Mon, 30 Nov 2026 14:22:11 +0100\nImportance: normal\nSensitivity: Normal\n"
    "In-Reply-To: <%s>\nReferences: <%s>\n"
    % (D["mid"], D["mid"])
    + "Content-Transfer-Encoding: quoted-printable\nX-UI-Message-Type: mail\nX-Priority: 3\n\n"
    + qp(h),
    own=own,
    contains=["Hand 8: Guard on Bruno, guess Prince", "king on chloé"],
    excludes=TURN_EXCLUDES + [example_line(D), "Gesendet:"],
    covers="HTML-only message (no text/plain), web.de 'Aw:' prefix and div name=quote block, RFC 2047 word in the middle of From",
)

# ==========================================================================
# 40  Samsung Email, HTML only (base64), "-------- Original message --------" with no blockquote
# ==========================================================================
own = ["Hand 2: Countess", "Hand 6: Spy on Arthur", "Hand 10: Guard on Dominik, guess Prince"]
h = (
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"></head><body>'
    + "".join('<div dir="auto">%s</div>' % esc(l) for l in own)
    + '<div dir="auto"><br></div><div dir="auto"><br></div><div id="composer_signature" dir="auto">'
    '<div style="font-size:85%;color:#575757" dir="auto">Sent from my Galaxy</div></div>'
    '<div dir="auto"><br></div><div align="left" dir="auto" style="font-size:100%;color:#000000">'
    "<div>-------- Original message --------</div><div>From: &quot;Rita (pbem)&quot; &lt;gm@example.org&gt; </div>"
    "<div>Date: 29/11/2026  19:00  (GMT+01:00) </div><div>To: bruno@example.org </div>"
    "<div>Subject: "
    + esc(SUBJ3)
    + " </div><div><br></div></div>"
    + html_lines(turn_text(B), "gmail", "&nbsp;")
    + "</body></html>"
)
message(
    "40-samsung-html-only.eml",
    "Samsung Email (Android)",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(2, "Countess"), O(6, "Spy", "Arthur"), O(10, "Guard", "Dominik", "Prince")],
    "Message-ID: <m9fk2w8x7n3q1v5z4r6t0yb2.1764492101872@email.android.com>\n"
    "X-Android-Message-ID: <m9fk2w8x7n3q1v5z4r6t0yb2.1764492101872@email.android.com>\n"
    "In-Reply-To: <%s>\n" % B["mid"] + "Date: Mon, 30 Nov 2026 09:41:41 +0100\nSubject: Re: " + SUBJ3 + "\n"
    'From: Bruno Leal <bruno@example.org>\nTo: "Rita (pbem)" <gm@example.org>\n'
    "Importance: normal\nX-Priority: 3\nMIME-Version: 1.0\n"
    "Content-Type: text/html; charset=UTF-8\nContent-Transfer-Encoding: base64\n\n" + b64(h),
    own="\n".join(own),
    contains=["Hand 10: Guard on Dominik, guess Prince"],
    excludes=TURN_EXCLUDES + [example_line(B), "Sent from my Galaxy", "Original message"],
    covers="HTML-only base64 from Samsung Email: the quoted turn mail follows '-------- Original message --------' as plain <br> text, no blockquote",
)

# ==========================================================================
# 41  Mutt, ISO-8859-1 8bit, trimmed quote, full order lines typed under each quoted line
# ==========================================================================
t = turn_text(C).split("\n")
kept = t[:2] + ["[...]"] + t[t.index("Your order code: Z9FD-2LJE (keep it in your reply)") :]
kept = kept[: kept.index("Hand 3:")]
body = (
    "On Sun, Nov 29, 2026 at 07:00:00PM +0100, Rita (pbem) wrote:\n" + gt("\n".join(kept)) + "\n"
    "> Hand 3:\n\nHand 3: Countess\n\n> Hand 7:\n\nHand 7: Prince on Dominik\n\n> Hand 11:\n\n"
    "Hand 11: Spy on Bruno\n\nBonne nuit,\nChloé\n\n-- \nChloé Martin -- Lyon\n"
)
message(
    "41-mutt-latin1-inline.eml",
    "Mutt 2.2",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Countess"), O(7, "Prince", "Dominik"), O(11, "Spy", "Bruno")],
    received(
        C["addr"],
        "maison.example.fr",
        "203.0.113.54",
        "Mon, 30 Nov 2026 23:05:19 +0100 (CET)",
        "4dMKq62Hsnz9sRf",
    )
    + "Date: Mon, 30 Nov 2026 23:05:17 +0100\nFrom: =?iso-8859-1?Q?Chlo=E9?= Martin <chloe@example.fr>\n"
    'To: "Rita (pbem)" <gm@example.org>\nSubject: Re: ' + SUBJ3 + "\n"
    "Message-ID: <aSyP3f7Kq9xLm2Tn@maison.example.fr>\nReferences: <%s>\n"
    % C["mid"]
    + "MIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\nContent-Disposition: inline\n"
    "Content-Transfer-Encoding: 8bit\nIn-Reply-To: <%s>\nUser-Agent: Mutt/2.2.13 (2024-03-09)\n\n"
    % C["mid"]
    + body,
    encoding="latin-1",
    own="Hand 3: Countess\nHand 7: Prince on Dominik\nHand 11: Spy on Bruno\nBonne nuit,\nChloé",
    contains=["Hand 7: Prince on Dominik", "Bonne nuit"],
    excludes=["Your order code", "Orders are due", "here is your position", "fill in one line per hand"],
    covers="raw ISO-8859-1 8bit body, Mutt attribution, trimmed quote with '[...]', full order lines repeated under the quoted '> Hand N:' lines",
)

# ==========================================================================
# 42  Outlook desktop: orders typed INTO the quoted form (no '>' in Outlook), in red
# ==========================================================================
own_top = ["Hi Rita, my orders are in red in your form below.", "", "Arthur"]
labels = [
    ("From:", "Rita (pbem) <gm@example.org>"),
    ("Sent:", "Sunday, November 29, 2026 6:00 PM"),
    ("To:", "Arthur Pendleton <arthur@example.org>"),
    ("Subject:", SUBJ3),
]
answers = {"Hand 1:": "Guard on Dominik, guess Baron", "Hand 5:": "Handmaid", "Hand 9:": "King on Bruno"}
tl = turn_text(A).split("\n")
plain_q = "\n".join(l + " " + answers[l] if l in answers else l for l in tl)
quoted = html_lines(turn_text(A), "word")
for k, v in answers.items():
    quoted = quoted.replace(
        '<p class="MsoPlainText">%s<o:p></o:p></p>' % k,
        '<p class="MsoPlainText">%s <b><span style="color:red">%s</span></b><o:p></o:p></p>' % (k, esc(v)),
    )
plain = "\n".join(own_top) + "\n\n" + outlook_plain_block(labels) + "\n\n" + plain_q + "\n"
h = word_html(own_top, labels, quoted)
bnd = "_000_AS8PR07MB7350E2B9C41F6A8D3C0B5E7A9D264AS8PR07MB7350eurp_"
message(
    "42-outlook-answers-inside-quote.eml",
    "Outlook desktop (Microsoft 365)",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Guard", "Dominik", "Baron"), O(5, "Handmaid"), O(9, "King", "Bruno")],
    exchange_headers(
        "Arthur Pendleton <arthur@example.org>",
        '"Rita (pbem)" <gm@example.org>',
        "RE: " + SUBJ3,
        SUBJ3,
        "AQHbYjP5vE1kQb9x2kOq7LwZ3fT0nLTr8mWQ",
        "Tue, 1 Dec 2026 08:55:30 +0000",
        "AS8PR07MB7350E2B9C41F6A8D3C0B5E7A9D264@AS8PR07MB7350.eurprd07.prod.outlook.com",
        A["mid"],
        bnd,
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + b64(plain),
            'Content-Type: text/html; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + b64(h),
        ],
    ),
    own="\n".join(own_top)
    + "\nHand 1: Guard on Dominik, guess Baron\nHand 5: Handmaid\nHand 9: King on Bruno",
    contains=["my orders are in red", "Guard on Dominik, guess Baron"],
    excludes=["Examples:", "<- your turn", "Your order code", "What you learned this turn", example_line(A)],
    covers="HARD: Outlook has no quote marks, and the player typed the answers (red, bold) onto the form lines inside the quoted turn mail; they are the player's orders",
)

# ==========================================================================
# 43  Apple Mail (macOS, French UI): "Le ... a écrit :" with a no-break space, arrows with rank
# ==========================================================================
own = """hand 3: diplomat -> dom
hand 7: guard -> bruno (5)
hand 11: spy -> ARTHUR

Bises,
Chloé"""
attr = "Le 29 nov. 2026 à 19:00, Rita (pbem) <gm@example.org> a écrit\u00a0:"
plain = own + "\n\n" + gt(attr + "\n\n" + turn_text(C), blank="> ") + "\n\n"
ol = own.split("\n")
h = (
    '<html aria-label="corps du message"><head><meta http-equiv="content-type" content="text/html; '
    'charset=utf-8"></head><body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; '
    'line-break: after-white-space;">'
    + esc(ol[0])
    + "".join("<div>%s</div>" % (esc(l) if l else "<br>") for l in ol[1:-1])
    + "<div>"
    + esc(ol[-1])
    + '<br id="lineBreakAtBeginningOfMessage"><div><br><blockquote type="cite">'
    "<div>"
    + esc(attr)
    + '</div><br class="Apple-interchange-newline"><div><div>'
    + html_lines(turn_text(C), "apple")
    + "</div></div></blockquote></div><br></div></body></html>"
)
bnd = "Apple-Mail=_E3A61F08-72C4-4B1D-9D5E-8F0A2C7B3E91"
message(
    "43-apple-mail-french.eml",
    "Apple Mail (macOS 14, French UI)",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Baron", "Dominik"), O(7, "Guard", "Bruno", "Prince"), O(11, "Spy", "Arthur")],
    "From: =?utf-8?Q?Chlo=C3=A9_Martin?= <chloe@example.fr>\n"
    'Content-Type: multipart/alternative;\n\tboundary="%s"\n'
    % bnd
    + "Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.600.62\\))\nSubject: Re: "
    + SUBJ3
    + "\n"
    "Date: Mon, 30 Nov 2026 15:37:08 +0100\nReferences: <%s>\n"
    % C["mid"]
    + 'To: "Rita (pbem)" <gm@example.org>\nIn-Reply-To: <%s>\n' % C["mid"]
    + "Message-Id: <7A9C2E15-B3D8-4F60-A1E4-5C0B8D2F9E37@example.fr>\nX-Mailer: Apple Mail (2.3774.600.62)\n\n"
    + mp(
        bnd,
        [
            "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/plain;\n\tcharset=utf-8\n\n"
            + qp(plain),
            "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/html;\n\tcharset=utf-8\n\n"
            + qp(h)
            + "\n",
        ],
    ),
    own=own,
    contains=["hand 7: guard -> bruno (5)", "Bises"],
    excludes=TURN_EXCLUDES + [example_line(C), "a écrit"],
    covers="Apple Mail French attribution with U+00A0 before ':', quoted inside '>', arrow syntax with a rank in parentheses '(5)' = Prince, upper-case 'ARTHUR', prefix 'dom'",
)

# ==========================================================================
# 44  Gmail (US English): names in odd case, unique prefixes, own-name prefix for the Prince
# ==========================================================================
own = """Hand 1: Guard on BRUNO, guess countess
Hand 5: prince on ar
Hand 9: king on dom

A."""
message(
    "44-gmail-case-and-prefix.eml",
    "Gmail web (US English)",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Guard", "Bruno", "Countess"), O(5, "Prince", "Arthur"), O(9, "King", "Dominik")],
    gmail_reply(
        "Arthur Pendleton <arthur@example.org>",
        "Mon, 30 Nov 2026 15:05:41 +0000",
        "CAPx7Hq9Cr2tQ7uH+zX4vNg0DoK6fJ3lYe5sOmU8hVa7iCwXzFr@mail.gmail.com",
        "Re: " + SUBJ3,
        A["mid"],
        own,
        "On Sun, Nov 29, 2026 at 6:00 PM Rita (pbem) <gm@example.org> wrote:",
        turn_text(A),
        "00000000000017ae5d0627b61c2b",
    ),
    own=own,
    contains=["Hand 5: prince on ar"],
    excludes=TURN_EXCLUDES + [example_line(A)],
    covers="upper/lower-case player and card names, unique prefixes 'ar' (the sender himself) and 'dom', guess in lower case",
)

# ==========================================================================
# 45  iOS Mail (English), plain only, short syntax with a rank as the guess, 'self'
# ==========================================================================
own = """H2 Guard Dominik 3
H6 Prince self
H10 Baron Arthur"""
body = (
    own
    + "\n\nSent from my iPhone\n\n> On 29 Nov 2026, at 19:00, Rita (pbem) <gm@example.org> wrote:\n> \n"
    + gt("\ufeff" + turn_text(B), blank="> ")
    + "\n"
)
message(
    "45-iphone-short-rank.eml",
    "iOS Mail (iPhone, English)",
    B["addr"],
    "Bruno",
    "game7",
    3,
    B["code"],
    [O(2, "Guard", "Dominik", "Baron"), O(6, "Prince", "Bruno"), O(10, "Baron", "Arthur")],
    "From: Bruno Leal <bruno@example.org>\nContent-Type: text/plain;\n\tcharset=utf-8\n"
    "Content-Transfer-Encoding: quoted-printable\nMime-Version: 1.0 (1.0)\n"
    "Subject: Re: " + SUBJ3 + "\nDate: Mon, 30 Nov 2026 18:09:27 +0100\n"
    "Message-Id: <C6E0F3A8-41B7-4D29-9E5C-2A8B7D1F0C43@example.org>\n"
    "References: <%s>\nIn-Reply-To: <%s>\n"
    % (B["mid"], B["mid"])
    + 'To: "Rita (pbem)" <gm@example.org>\nX-Mailer: iPhone Mail (22B91)\n\n'
    + qp(body),
    own=own,
    contains=["H2 Guard Dominik 3", "H6 Prince self"],
    excludes=TURN_EXCLUDES + [example_line(B), "Sent from my iPhone"],
    covers="short syntax with a bare rank as the guess ('H2 Guard Dominik 3' = guess Baron), 'self' as target",
)

# ==========================================================================
# 46  Outlook (Exchange), French UI: "RE :", De : Envoyé : À : Objet : with no-break spaces
# ==========================================================================
own = """Bonjour Rita,

Hand 3: Sensei
Hand 7: Guard on Dominik, guess Handmaid
Hand 11: King on Bruno

Cordialement,
Chloé Martin"""
labels = [
    ("De\u00a0:", "Rita (pbem) <gm@example.org>"),
    ("Envoyé\u00a0:", "dimanche 29 novembre 2026 19:00"),
    ("À\u00a0:", "chloe@example.fr"),
    ("Objet\u00a0:", SUBJ3),
]
plain = own + "\n\n" + outlook_plain_block(labels) + "\n\n" + turn_text(C) + "\n"
h = word_html(own.split("\n"), labels, html_lines(turn_text(C), "word"), lang="FR", inner_lang="FR")
h = h.replace("\u00a0:", "&nbsp;:")
bnd = "_000_PAXPR04MB8975B3E1C7A24D96F0E2B8C5A7D31PAXPR04MB8975eurp_"
message(
    "46-outlook-french.eml",
    "Outlook desktop (Microsoft 365, French UI)",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Countess"), O(7, "Guard", "Dominik", "Handmaid"), O(11, "King", "Bruno")],
    exchange_headers(
        "=?utf-8?B?Q2hsb8OpIE1hcnRpbg==?= <chloe@example.fr>",
        '"Rita (pbem)" <gm@example.org>',
        "RE : " + SUBJ3,
        SUBJ3,
        "AQHbYjP8mT2kVx0cR0e3Nq7bJ5sLwLTu1A8Q",
        "Mon, 30 Nov 2026 10:47:52 +0000",
        "PAXPR04MB8975B3E1C7A24D96F0E2B8C5A7D31@PAXPR04MB8975.eurprd04.prod.outlook.com",
        C["mid"],
        bnd,
        lang="fr-FR",
        accept="fr-FR, en-US",
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + b64(plain),
            'Content-Type: text/html; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + b64(h),
        ],
    ),
    own=own,
    contains=["Hand 3: Sensei", "Cordialement"],
    excludes=TURN_EXCLUDES + [example_line(C), "Envoyé"],
    covers="French Outlook 'RE :' prefix, 'De : Envoyé : À : Objet :' block with U+00A0 before the colons, alias Sensei = Countess, base64 UTF-8",
)

# ==========================================================================
# 47  Gmail, quote deleted by the player, code typed in his own words, plain 7bit
# ==========================================================================
own = """K7QM-3XTP

Hand 1: Guard on Dominik, guess Handmaid
Hand 5: Prince on Bruno
Hand 9: King on chlo

Arthur"""
bnd = "0000000000003bd2f80627b6a7c9"
hh = gmail_own_html(own.split("\n")) + "\n"
message(
    "47-gmail-code-typed-no-quote.eml",
    "Gmail web (quote removed)",
    A["addr"],
    "Arthur",
    "game7",
    3,
    A["code"],
    [O(1, "Guard", "Dominik", "Handmaid"), O(5, "Prince", "Bruno"), O(9, "King", "Chloé")],
    gmail_headers(
        "Arthur Pendleton <arthur@example.org>",
        "Tue, 1 Dec 2026 17:58:02 +0000",
        "CAPx7Hq1Ds3uR8vI+aY5wOh1EpL7gK4mZf6tPnV9iWb8jDxYaGs@mail.gmail.com",
        "Re: " + SUBJ3,
        A["mid"],
        'multipart/alternative; boundary="%s"' % bnd,
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="UTF-8"\n\n' + own + "\n\n",
            'Content-Type: text/html; charset="UTF-8"\n\n' + hh + "\n",
        ],
    ),
    own=own,
    contains=["K7QM-3XTP", "Hand 9: King on chlo"],
    covers="no quoted text at all, order code typed by the player, 7bit parts without Content-Transfer-Encoding, prefix 'chlo'",
)

# ==========================================================================
# 48  Outlook for iOS: "Get Outlook for iOS", '____' + From/Sent block, aliases
# ==========================================================================
own = """Hand 4: Sensei
Hand 8: Guard on Arthur, guess Spy
Hand 12: Baron on Bruno"""
labels_txt = (
    "________________________________\nFrom: Rita (pbem) <gm@example.org>\n"
    "Sent: Sunday, November 29, 2026 7:00:00 PM\nTo: dominik@example.de <dominik@example.de>\n"
    "Subject: " + SUBJ3 + "\n"
)
plain = own + "\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n" + labels_txt + "\n" + turn_text(D) + "\n"
h = (
    '<html>\n<head>\n<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\n</head>\n<body>\n'
    + "\n".join('<div dir="ltr">%s</div>' % esc(l) for l in own.split("\n"))
    + '\n<div dir="ltr"><br>\n</div>\n<div class="ms-outlook-mobile-signature">\n<div dir="ltr">Get '
    '<a href="https://aka.ms/o0ukef">Outlook for iOS</a></div>\n</div>\n'
    '<div id="mail-editor-reference-message-container" class="ms-outlook-mobile-reference-message skipProofing">\n'
    '<hr style="display:inline-block;width:98%" tabindex="-1">\n'
    '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" color="#000000">'
    "<b>From:</b> Rita (pbem) &lt;gm@example.org&gt;<br>\n<b>Sent:</b> Sunday, November 29, 2026 7:00:00 PM<br>\n"
    "<b>To:</b> dominik@example.de &lt;dominik@example.de&gt;<br>\n<b>Subject:</b> "
    + esc(SUBJ3)
    + "</font>\n<div>&nbsp;</div>\n</div>\n"
    '<div class="BodyFragment"><font size="2"><span style="font-size:11pt;">\n<div class="PlainText">'
    + html_lines(turn_text(D), "owa")
    + "</div>\n</span></font></div>\n</div>\n</body>\n</html>\n"
)
bnd = "_000_VI1PR03MB6301C4A8E2F7B5D90A1E3C6B8F742VI1PR03MB6301eurp_"
message(
    "48-outlook-ios.eml",
    "Outlook for iOS",
    D["addr"],
    "Dominik",
    "game7",
    3,
    D["code"],
    [O(4, "Countess"), O(8, "Guard", "Arthur", "Spy"), O(12, "Baron", "Bruno")],
    exchange_headers(
        "=?utf-8?B?RG9taW5payBNw7xsbGVy?= <dominik@example.de>",
        '"Rita (pbem)" <gm@example.org>',
        "Re: " + SUBJ3,
        SUBJ3,
        "AQHbYjP6q4WmV0c4S0iK2c+5hGJz37Ty0x9B",
        "Mon, 30 Nov 2026 06:14:03 +0000",
        "VI1PR03MB6301C4A8E2F7B5D90A1E3C6B8F742@VI1PR03MB6301.eurprd03.prod.outlook.com",
        D["mid"],
        bnd,
        lang="en-US",
        accept="de-DE, en-US",
    )
    + "\n"
    + mp(
        bnd,
        [
            'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + b64(plain),
            'Content-Type: text/html; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + b64(h),
        ],
    ),
    own=own,
    contains=["Hand 4: Sensei", "Hand 8: Guard on Arthur, guess Spy"],
    excludes=TURN_EXCLUDES + [example_line(D), "Get Outlook for iOS"],
    covers="Outlook for iOS signature line glued to the '____' rule and From/Sent block, base64 UTF-8, alias Sensei",
)

# ==========================================================================
# 49  iOS Mail (German), CLEAR alone
# ==========================================================================
body = (
    "CLEAR\n\nVon meinem iPhone gesendet\n\n"
    "> Am 29.11.2026 um 19:00 schrieb Rita (pbem) <gm@example.org>:\n> \n"
    + gt("\ufeff" + turn_text(D), blank="> ")
    + "\n"
)
message(
    "49-iphone-clear-only.eml",
    "iOS Mail (iPhone, German)",
    D["addr"],
    "Dominik",
    "game7",
    3,
    D["code"],
    [],
    "From: =?utf-8?Q?Dominik_M=C3=BCller?= <dominik@example.de>\nContent-Type: text/plain;\n"
    "\tcharset=utf-8\nContent-Transfer-Encoding: quoted-printable\nMime-Version: 1.0 (1.0)\n"
    "Subject: Re: " + SUBJ3 + "\nDate: Tue, 1 Dec 2026 18:40:55 +0100\n"
    "Message-Id: <E4B7D1C9-0F3A-4E82-B65D-9A1C3E7F2B08@example.de>\n"
    "References: <%s>\nIn-Reply-To: <%s>\n"
    % (D["mid"], D["mid"])
    + 'To: "Rita (pbem)" <gm@example.org>\nX-Mailer: iPhone Mail (22B91)\n\n'
    + qp(body),
    keywords=["CLEAR"],
    own="CLEAR",
    contains=["CLEAR"],
    excludes=TURN_EXCLUDES + [example_line(D), "Von meinem iPhone gesendet"],
    covers="keyword CLEAR alone, no orders",
)

# ==========================================================================
# 50  Outlook plain-text mode (German): "-----Ursprüngliche Nachricht-----", prose line holding "Hand 8:"
# ==========================================================================
own = """Hallo Rita,

Änderung für Hand 8:
Hand 8: Guard on Bruno, guess 7

Der Rest bleibt wie gehabt.

Gruß, Dominik"""
body = (
    own + "\n\n-----Ursprüngliche Nachricht-----\nVon: Rita (pbem) <gm@example.org> \n"
    "Gesendet: Sonntag, 29. November 2026 19:00\nAn: dominik@example.de\nBetreff: "
    + SUBJ3
    + "\n\n"
    + turn_text(D)
    + "\n\n"
)
message(
    "50-outlook-german-urspruengliche.eml",
    "Outlook 2016, plain-text mode, German UI",
    D["addr"],
    "Dominik",
    "game7",
    3,
    D["code"],
    [O(8, "Guard", "Bruno", "Countess")],
    "From: =?iso-8859-1?Q?Dominik_M=FCller?= <dominik@example.de>\nTo: \"'Rita (pbem)'\" <gm@example.org>\n"
    "References: <%s>\nIn-Reply-To: <%s>\n"
    % (D["mid"], D["mid"])
    + "Subject: AW: "
    + SUBJ3
    + "\nDate: Tue, 1 Dec 2026 12:33:19 +0100\n"
    "Message-ID: <005b01db4c2b$7f1e0c30$7d5a2490$@example.de>\nMIME-Version: 1.0\n"
    'Content-Type: text/plain;\n\tcharset="iso-8859-1"\nContent-Transfer-Encoding: quoted-printable\n'
    "X-Mailer: Microsoft Outlook 16.0\nThread-Index: AQHbYjP6q4WmV0c4S0iK2c+5hGJz37T0YJcA\n"
    "Content-Language: de\n\n" + qp(body, "iso-8859-1"),
    own=own,
    contains=["Hand 8: Guard on Bruno, guess 7", "Der Rest bleibt"],
    excludes=TURN_EXCLUDES + [example_line(D), "Ursprüngliche Nachricht"],
    covers="'-----Ursprüngliche Nachricht-----', a prose line 'Änderung für Hand 8:' that is not an order, a single changed order, ISO-8859-1 QP",
)

# ==========================================================================
# 51  Gmail, RFC 2047 base64 Subject (tag only visible after decoding)
# ==========================================================================
own = """Hand 3: Countess
Hand 7: Guard on Arthur, guess Baron
Hand 11: Priest on Bruno

Chloé"""
subj_words = bwords("Re: " + SUBJ3 + " — ordres de Chloé")
bnd = "0000000000006ef4130627b7b08d"
msg = gmail_reply(
    "=?UTF-8?Q?Chlo=C3=A9_Martin?= <chloe@example.fr>",
    "Tue, 1 Dec 2026 13:14:45 +0100",
    "CAJq8vN6fZp9Wb+Ue4nBh2OsT7vJg5kY0iXd3rAqVlH8uEtWbPz@mail.gmail.com",
    "\n ".join(subj_words),
    C["mid"],
    own,
    "On Sun, 29 Nov 2026 at 19:00, Rita (pbem) <gm@example.org> wrote:",
    turn_text(C),
    bnd,
)
message(
    "51-gmail-encoded-subject.eml",
    "Gmail web",
    C["addr"],
    "Chloé",
    "game7",
    3,
    C["code"],
    [O(3, "Countess"), O(7, "Guard", "Arthur", "Baron"), O(11, "Spy", "Bruno")],
    msg,
    own=own,
    contains=["Hand 11: Priest on Bruno"],
    excludes=TURN_EXCLUDES + [example_line(C)],
    covers="Subject entirely in RFC 2047 base64 words folded over two lines (the [game7] tag only appears after decoding), alias Priest = Spy",
)


# --------------------------------------------------------------------------
# output
# --------------------------------------------------------------------------
CARDS = {"Guard", "Spy", "Baron", "Handmaid", "Prince", "King", "Countess", "Princess"}
NAMES = {"Arthur", "Bruno", "Chloé", "Dominik"}


def y(s):
    """A YAML scalar: JSON-style double quotes when needed."""
    import json

    if s is None:
        return "null"
    if isinstance(s, bool):
        return "true" if s else "false"
    if isinstance(s, int):
        return str(s)
    plain_ok = (
        s
        and all(c.isalnum() or c in "@.-_ " for c in s)
        and s[0] not in "-. "
        and s.lower() not in ("null", "true", "false", "yes", "no", "on", "off")
        and not s[0].isdigit()
    )
    return s if plain_ok else json.dumps(s, ensure_ascii=False)


def ylist(items):
    import json

    return "[" + ", ".join(json.dumps(i, ensure_ascii=False) for i in items) + "]"


def check(m):
    own = m["own"]
    for o in m["orders"]:
        assert o["card"] in CARDS, (m["file"], o)
        assert o["target"] is None or o["target"] in NAMES, (m["file"], o)
        assert o["guess"] is None or o["guess"] in CARDS, (m["file"], o)
    if own is not None:
        for c in m["contains"]:
            assert c in own, (m["file"], "contains", c)
        for e in m["excludes"]:
            assert e not in own, (m["file"], "excludes", e)
    assert m["file"][:2].isdigit()


def main(out_dir=HERE):
    files = [m["file"] for m in MESSAGES]
    assert len(files) == len(set(files))
    assert files == sorted(files)
    for m in MESSAGES:
        check(m)
        text = m["text"]
        assert "\r" not in text, m["file"]
        raw = text.replace("\n", "\r\n").encode(m["encoding"])
        with open(os.path.join(out_dir, m["file"]), "wb") as f:
            f.write(raw)

    out = [YAML_HEAD.rstrip("\n"), ""]
    for m in MESSAGES:
        out.append("- file: %s" % m["file"])
        out.append("  client: %s" % y(m["client"]))
        out.append("  sender: %s" % y(m["sender"]))
        out.append("  player: %s" % y(m["player"]))
        out.append("  tag: %s" % y(m["tag"]))
        out.append("  turn: %s" % y(m["turn"]))
        out.append("  code: %s" % y(m["code"]))
        out.append("  keywords: %s" % ylist(m["keywords"]))
        if m["orders"]:
            out.append("  orders:")
            for o in m["orders"]:
                out.append(
                    "    - {hand: %d, card: %s, target: %s, guess: %s}"
                    % (o["hand"], o["card"], y(o["target"]), y(o["guess"]))
                )
        else:
            out.append("  orders: []")
        if m["contains"]:
            out.append("  own_text_contains: %s" % ylist(m["contains"]))
        if m["excludes"]:
            out.append("  own_text_excludes: %s" % ylist(m["excludes"]))
        out.append("  unreadable: %s" % y(m["unreadable"]))
    with open(os.path.join(out_dir, "expected.yaml"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out) + "\n")

    with open(os.path.join(out_dir, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(README_HEAD.replace("@N@", str(len(MESSAGES))))
        f.write("| file | client | what it exercises |\n| --- | --- | --- |\n")
        for m in MESSAGES:
            f.write("| `%s` | %s | %s |\n" % (m["file"], m["client"], m["covers"].replace("|", "\\|")))
        f.write(README_TAIL)
    print("%d messages written" % len(MESSAGES))


README_HEAD = """# Reply corpus: how real mail clients answer a turn mail

This folder is an independent test corpus for the part of pbem that reads player replies:
@N@ complete RFC 5322 messages (`NN-name.eml`, CRLF line ends) that the four players of
campaign `game7` ("Love Letter, postal game 7"; Arthur, Bruno, Chloé, Dominik; GM Rita
<gm@example.org>) send back to their private turn-3 mail (`[game7] Turn 3: your cards and
orders`, Message-ID `<t3.private.NAME.XXXX@example.org>`), plus a stranger, a late turn-2
reply and three messages broken on purpose (36-38), and `expected.yaml`, which says for each
file who sent it, the campaign tag and turn of its subject, the order code found anywhere in
it, the keywords and the orders the player wrote in their own new words, phrases the
extracted own text must and must not hold, and whether the body is unreadable (its header
comment gives the conventions). The messages were written by hand after the way each named
client really lays out a reply: its header set and order, Message-ID and boundary styles,
transfer encodings and charsets, attribution line or "From:/Sent:" block in its UI language,
quote markers, HTML structure (`gmail_quote`, `divRplyFwdMsg`, `blockquote type="cite"`,
`moz-cite-prefix`, web.de's `name="quote"`, Samsung's bare "Original message") and
signature. `make_corpus.py` holds those hand-written messages and only does what a client
does mechanically on send (CRLF, quoted-printable, base64, raw 8bit bytes, RFC 2047 words,
three tiny attachments); it shares no code with the reader it judges. After changing a
message there, rerun `python3 tests/mail/corpus/make_corpus.py`; do not edit an `.eml` by
hand without mirroring the change.

"""

README_TAIL = ""

YAML_HEAD = """# Expected reading of every message in this folder (see README.md); one entry per
# .eml file, in file order.  Generated by make_corpus.py: edit there, not here.
#
# Conventions
# - sender: the From address, lower-cased.  player: the registered player owning that
#   address, null for an unknown sender (30), whose orders are still listed as written.
# - tag/turn: from the "[tag] Turn N" in the (decoded) Subject, null when it has none (35).
# - code: the code-shaped token present anywhere in the message, quoted text and
#   attachments included, even when it is wrong: 31 comes from Bruno's address with the
#   made-up B4HN-8WRC (Bruno's real code is B4HN-8RWC).  null only for 38.
# - orders: what the player meant, in order of appearance in their own words; canonical
#   card and player names (aliases resolved, a rank 1-8 as guess resolved to its card,
#   me/myself/self/own name/own prefix resolved to the sender's name).  Quoted text never
#   yields orders.  42 is the one case where the player's words sit inside Outlook's
#   unmarked quote: the answers were typed onto the quoted form lines.
# - unreadable: true only for 38, whose multipart body has no boundary and cannot be split
#   into parts; its header fields are still expected.  36 (truncated) and 37 (undeclared
#   8-bit UTF-8) are broken too but must still be read.
# - own_text_excludes lists quoted turn-mail lines that look like orders or instructions.

"""

if __name__ == "__main__":
    import sys

    main(sys.argv[1] if len(sys.argv) > 1 else HERE)
