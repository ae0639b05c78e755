"""Quotes and signatures: the player's own words, without what they quote or sign with.

The words clients write around a quote (attributions, separators, header blocks, device
footers, sign-offs) are data, per language, in `patterns`; this module holds the rules that
use them.  One rule does not depend on any client's wording: the tool knows what it sent, and
a run of lines that repeats one of its own mails is the original, never the player's words
(`own_words(..., answering=...)`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Collection, Sequence

from ..grammar import HAND_REF, HAND_WORD, NUMBER_SIGN, hand_number, hand_of
from .patterns import (
    ATTRIBUTION_OPENERS,
    ATTRIBUTION_VERBS,
    DEVICE_FOOTER_ENDS,
    DEVICE_FOOTERS,
    DISCLAIMER_HEADINGS,
    DISCLAIMER_WORDS,
    GATEWAY_BANNERS,
    HEADER_DATE_KEYS,
    HEADER_OTHER_KEYS,
    HEADER_SENDER_KEYS,
    SEPARATOR_TAILS,
    SEPARATORS,
    VALEDICTIONS,
    VERBS_BEFORE_NAME,
    words_of,
)
from .text import _tidy_blank_runs

_SHORT_LINE = 500  # the heuristic patterns only look at lines up to this length (speed)


def _alternation(table: tuple[tuple[str, ...], ...]) -> str:
    """A regex alternation of a pattern table's phrases, any run of spaces between words."""
    return "|".join(r"\s+".join(re.escape(word) for word in phrase.split()) for phrase in words_of(table))


# Quote marks: ">" (any depth, some clients indent it), "|" and Supercite's initials ("RB> ").
_MARK = r"[ \t]*(?:>|\||[A-Za-z]{1,4}>)"
_QUOTE_START = re.compile(_MARK)
_QUOTE_MARKERS = re.compile(rf"^(?:{_MARK})+")
_QUOTED_BLANK = re.compile(rf"^(?:{_MARK})+\s*$")

# A separator above an original or a forward: the phrase alone on its line, with dashes,
# equals signs or a colon around it; Outlook's long underscore rule.
# Tobit david frames it in brackets and adds "processed by david®" inside the frame.
_CUT_LINE = re.compile(
    rf"^[\s*_=~\[-]*(?:{_alternation(SEPARATORS)})(?:\s+(?:{_alternation(SEPARATOR_TAILS)})\s+\S.{{0,40}}?)?"
    rf"[\s*_=~\]-]*[:：]?[\s*_=~\]-]*$|^\s*_{{10,}}\s*$",
    re.IGNORECASE,
)
# Android squeezes the separator and the header block on one line: "-----Reply message-----
# From: ... To: ... Subject: ...".
_SQUEEZED_CUT = re.compile(
    rf"^[\s*_=~-]*(?:{_alternation(SEPARATORS)})\s*-{{2,}}\s*\*?(?:{_alternation(HEADER_SENDER_KEYS)})\s*\*?\s*[:：]",
    re.IGNORECASE,
)
# A line of rule characters only ("-----", "=====", "__", "—————"): no words of anyone's.
_RULE_LINE = re.compile(r"^\s*[-_=~*#.\u2013\u2014\u2015\u2500]{2,}\s*$")

# A header line of a quoted original as mail clients write it: "From: x", "*From:* x" (Gmail's
# plain text of bold HTML), "De : x" (French spacing), "发件人：x" (a full-width colon).
_HEADER_LINE = re.compile(
    rf"^\s*\*?\s*(?:(?P<sender>{_alternation(HEADER_SENDER_KEYS)})|(?P<date>{_alternation(HEADER_DATE_KEYS)})"
    rf"|(?P<other>{_alternation(HEADER_OTHER_KEYS)}))\s*\*?\s*[:：]",
    re.IGNORECASE,
)
# "From: bob@example.com Date: Thu, 24 Mar 2016": a block that HTML put on one line.
_INLINE_DATE_KEY = re.compile(rf"\s\*?(?:{_alternation(HEADER_DATE_KEYS)})\s*\*?\s*[:：]", re.IGNORECASE)

_ATTRIBUTION_START = re.compile(rf"^\s*(?:{_alternation(ATTRIBUTION_OPENERS)})(?![^\W\d_])", re.IGNORECASE)
# An opener inside a line, after the reply's own words ("reply On Wed, ... wrote:").
_ATTRIBUTION_INSIDE = re.compile(
    rf"(?:(?<=\s)|-{{2,}}\s*)(?:{_alternation(ATTRIBUTION_OPENERS)})\s", re.IGNORECASE
)
_VERB = _alternation(ATTRIBUTION_VERBS)
# A verb is a word of its own ("wrote", not "rewrote"), but Chinese and Japanese put no
# space before it: "Rita <gm@example.org> 于2026年12月1日周二 上午10:00写道：".
_UNSPACED_VERB = "|".join(
    re.escape(verb) for verb in words_of(ATTRIBUTION_VERBS) if "\u3040" <= verb[0] <= "\u9fff"
)
_VERB_AT_END = re.compile(rf"(?:(?<![\w@.-])(?:{_VERB})|{_UNSPACED_VERB})$", re.IGNORECASE)
_VERB_BEFORE_NAME = re.compile(
    rf"(?<![\w@.-])(?:{_alternation(VERBS_BEFORE_NAME)})(?![^\W\d_])", re.IGNORECASE
)
_ADDRESS = re.compile(r"[^\s<>()\"'\[\]:]+@[^\s<>()\"'\[\]:]+\.[^\s<>()\"'\[\]:]+")
# The address closes the attribution: "... Rémi Dolan <do_not_reply@dolan.com>:".
_ADDRESS_AT_END = re.compile(r"(?:[>)\]\"]|@[^\s<>()\"']+\.[^\s<>()\"']+)$")
_DASH_FRAME = re.compile(r"^[\s=_~-]{2,}(.*?)[\s=_~-]{2,}$")

# After the opener a space, but none after a CJK one ("發自我的iPhone").
_FOOTERS = re.compile(
    rf"^\s*(?:{_alternation(DEVICE_FOOTERS)})(?:\s+|(?<=[^\x00-\x7f]))[^,;!?<>]{{1,40}}"
    rf"(?:<[^<>\s]{{1,200}}>)?[.!]?\s*$",
    re.IGNORECASE,
)
# A footer that names the device first ("iPhoneから送信"): short, no punctuation, one of these
# ends (a link aside); tested with str.endswith, as most lines are no footer.
_FOOTER_ENDS = tuple(phrase.casefold() for phrase in words_of(DEVICE_FOOTER_ENDS))
_FOOTER_LINK = re.compile(r"\s*<[^<>\s]{1,200}>\s*$")
_FOOTER_HEAD = re.compile(r"^\s*[^\s,;!?<>:][^,;!?<>:]{0,40}$")
_HAND_INSIDE = re.compile(rf"(?<![^\W\d_]){HAND_WORD}\s*{NUMBER_SIGN}\s*\d{{1,3}}(?![^\W_])", re.IGNORECASE)


def _is_footer(line: str) -> bool:
    """A device footer: "Sent from my iPhone", "發自我的iPhone", "Outlook für iOS beziehen".

    Never a line that names a hand: "Elküldve H3 Baron on Bruno" opens like a Hungarian
    footer, but the order parser reads an order after other words on its line.  (The caller
    strips the line on the right.)"""
    if _HAND_INSIDE.search(line):
        return False
    if _FOOTERS.match(line):
        return True
    bare = _FOOTER_LINK.sub("", line) if line.endswith(">") else line  # (stripped on the right)
    if len(bare) > 60 or not bare.casefold().endswith(_FOOTER_ENDS):
        return False
    head = bare[: len(bare) - next(len(end) for end in _FOOTER_ENDS if bare.casefold().endswith(end))]
    return not head.strip() or _FOOTER_HEAD.match(head) is not None


# Gmail's tracker (Streak, Mailtrack) leaves a lone "ᐧ" on its line.
_TRACKER_LINE = re.compile(r"^\s*\u1427\s*$")
_BANNER = re.compile(rf"^\s*(?:{_alternation(GATEWAY_BANNERS)})", re.IGNORECASE)
_DISCLAIMER = re.compile(
    rf"^\s*\*?(?:{_alternation(DISCLAIMER_HEADINGS)})\*?\s*(?:[:：]\s*(?P<text>.*))?$", re.IGNORECASE
)
_DISCLAIMER_WORD = re.compile(_alternation(DISCLAIMER_WORDS), re.IGNORECASE)
_VALEDICTION = re.compile(rf"^\s*(?:{_alternation(VALEDICTIONS)})[\s,.!:;]*$", re.IGNORECASE)
_SIGN_OFF_LINES = 4  # name, title, company, phone: a sign-off is short
_SIGN_OFF_LINE_MAX = 60


def _is_quoted(line: str) -> bool:
    """Quoted text starts with ">" (any depth; some clients indent the marker), "|" or
    Supercite's initials ("RB> ")."""
    start = line.lstrip(" \t")[:1]
    if start == ">" or start == "|":
        return True
    return ">" in line[:10] and _QUOTE_START.match(line) is not None  # "RB> " (cheap test first)


def _is_short(line: str) -> bool:
    """Short enough for the heuristic patterns: keeps a multi-MB line from costing seconds."""
    return len(line) <= _SHORT_LINE


def _is_signature_separator(line: str) -> bool:
    """The "-- " line before a signature; hand-typed "--" counts too."""
    return line.rstrip() == "--"


def _reads_as_order(line: str) -> bool:
    """Starts with a hand reference (quote markers aside): an order, or a form line for one."""
    return _is_short(line) and HAND_REF.match(_QUOTE_MARKERS.sub("", line)) is not None


# The hand reference after quote markers: one match per quoted line (this is the hot loop).
_QUOTED_HAND_REF = re.compile(_QUOTE_MARKERS.pattern + HAND_REF.pattern.removeprefix("^"), HAND_REF.flags)
_FORM_LINE_ENDS = frozenset("0123456789:.)]-=\u2013\u2014")


def _quoted_form_hand(line: str) -> int | None:
    """The hand of a quoted blank form line ("> Hand 3:"), None for any other line."""
    if line[-1:] not in _FORM_LINE_ENDS:
        return None  # a blank form line ends with its number or a colon (cheap test first)
    found = _QUOTED_HAND_REF.match(line)
    if found is None or not found.group("h1") or found.group("rest").strip():
        return None
    return int(found.group("h1"))


_Memo = dict[int, "tuple[str, str] | None"]


def _header_key(lines: list[str], i: int, memo: _Memo) -> tuple[str, str] | None:
    """(key, kind) of a header-like line ("From: x" -> ("from", "sender")), memoised.

    Memoised because each line of a block is looked at again from every line above it.
    """
    if i not in memo:
        line = lines[i]
        found = _HEADER_LINE.match(line) if _is_short(line) else None
        if found:
            kind = found.lastgroup or "other"
            memo[i] = (" ".join(found.group(0).strip(" *:：").lower().split()), kind)
        else:
            memo[i] = None
    return memo[i]


def _is_header_block(lines: list[str], i: int, memo: _Memo) -> bool:
    """An unquoted original's header block starts here: From/Sent/To/Subject in any order.

    Outlook writes "From: Sent: To: Subject:" (or "Von: Gesendet: An: Betreff:", "От:
    Отправлено: Кому: Тема:", ...), web.de starts with "Gesendet:".  Three different keys
    with the sender among them within a few lines, or, with an address in the block, the
    sender and a date, or a date first and another key: a player's own "From: ..." or
    "To: ..." line alone never cuts their orders.
    """
    first = _header_key(lines, i, memo)
    if first is None:
        return False
    keys: set[str] = set()
    kinds: set[str] = set()
    for j in range(i, min(i + 8, len(lines))):
        found = _header_key(lines, j, memo)
        if found:
            keys.add(found[0])
            kinds.add(found[1])
            if found[1] == "sender" and _INLINE_DATE_KEY.search(lines[j]):
                keys.add("date")
                kinds.add("date")
    if len(keys) >= 3 and "sender" in kinds:
        return True
    # Two keys are weaker evidence: they need an address too, which a player's own "From: me"
    # and "Date: Tuesday" lines above their orders do not have.
    block = " ".join(lines[i : min(i + 8, len(lines))])
    if "@" not in block:
        return False
    if "sender" in kinds:
        return "date" in kinds  # "From: bob@example.com\nDate: ..."
    return first[1] == "date" and bool(re.search(r"\d", lines[i])) and len(keys) >= 2


def _is_cut(lines: list[str], i: int, memo: _Memo) -> bool:
    """From this line on, nothing is the player's new words (original, forward, signature)."""
    line = lines[i]
    if _is_signature_separator(line):
        return True
    if not _is_short(line):
        return False
    return bool(_CUT_LINE.match(line) or _SQUEEZED_CUT.match(line)) or _is_header_block(lines, i, memo)


def _next_nonblank(lines: list[str], i: int) -> str | None:
    """The first non-blank line from index i on, None at the end (what follows an attribution)."""
    for line in lines[i:]:
        if line.strip():
            return line
    return None


_STRONG, _WEAK = 2, 1


def _attribution_strength(text: str, opener: bool) -> int:
    """How surely `text` (one or a few joined lines) is an attribution: strong, weak or 0.

    Strong (cut, even with the original unquoted below): a verb ("wrote", "schrieb",
    "написал", "写道", ...) with a date after an opener ("On", "Am", "Le", ...) or with an
    address; or an address and a date closing on the colon, as Gmail writes it in any
    language ("2014-03-20 8:48 GMT+01:00 Name <a@b.c>:").  Weak (only when a quote follows):
    any other line ending in a verb and a colon ("Rita wrote:").  A player's "Am Ende
    schrieb ich:" holds neither a date nor an address, and stays theirs.
    """
    if not text.endswith((":", "：")) and "@" not in text and text[:1] not in "-=_~ ":
        return 0  # every kind below ends in a colon, holds an address or is framed (cheap test first)
    framed = _DASH_FRAME.match(text)  # "---- On ... wrote ----", "-----On ... wrote-----"
    core = (framed.group(1) if framed else text).strip()
    colon = core.endswith((":", "："))
    core = core.rstrip(":： ").rstrip()
    address = _ADDRESS.search(core) is not None
    digit = re.search(r"\d", core) is not None
    verb_at_end = _VERB_AT_END.search(core) is not None
    if (colon or framed) and verb_at_end and ((opener and digit) or address or framed):
        return _STRONG
    if colon and (address or (opener and digit)) and _VERB_BEFORE_NAME.search(core):
        return _STRONG  # "tir. 18. apr. 2017 kl. 13:09 skrev Test user <test@example.com>:"
    if colon and address and digit and _ADDRESS_AT_END.search(core):
        return _STRONG
    if not colon and verb_at_end and opener and digit and address:
        return _STRONG  # "On Wed, 14 Nov 2018 08:14:43 -0200 John Doe <john@doe.com> wrote"
    if colon and verb_at_end:
        return _WEAK
    if not colon and address and digit and _ADDRESS_AT_END.search(core) and core[:1].isdigit():
        return _WEAK  # "2011/4/7 Nathan <support@example.com>" above a quote
    return 0


def _attribution_span(lines: list[str], i: int) -> int:
    """How many lines an attribution ("On ... wrote:") starting at line i takes; 0: none.

    Clients wrap long attributions, so up to three lines are joined; after an opener and a
    date, up to six, across blank lines and a quoted "> wrote:" (Polymail breaks its address
    out that way).  A weak attribution (see `_attribution_strength`) only counts when a
    quote follows it, which covers "Rita <gm@example.org> wrote:".
    """
    first = lines[i]
    if not first.strip() or _is_quoted(first) or not _is_short(first) or _is_order_line(first):
        return 0  # an order is the player's line, even right above an attribution that wraps
    framed = _DASH_FRAME.match(first)
    opener = bool(_ATTRIBUTION_START.match(framed.group(1) if framed else first))
    digit = re.search(r"\d", first) is not None
    stretch = digit and (opener or "@" in first)
    joined = ""
    for span in range(1, 7 if stretch else 4):
        if i + span > len(lines):
            return 0
        line = lines[i + span - 1]
        if span > 1:
            if not _is_short(line):
                return 0  # a paragraph on one line (HTML) is the player's, never an attribution's end
            if not line.strip() or _is_quoted(line):
                if not stretch:
                    return 0
                if not line.strip():
                    continue
                line = _QUOTE_MARKERS.sub("", line)
            elif not opener and not re.search(r"[0-9@]", first):
                return 0  # an attribution that wraps starts with its date or address
            elif (
                _is_order_line(line)
                or _ATTRIBUTION_START.match(line)
                or (
                    # (read as after an opener: its date may stand before its verb and name)
                    _ends_a_reply(first) and _attribution_strength(line.strip(), True)
                )
            ):
                return 0  # an order, or the attribution starts on the next line: the reply's
        joined = (joined + " " + line.strip()).strip()
        if len(joined) > 2 * _SHORT_LINE:
            return 0
        strength = _attribution_strength(joined, opener)
        if strength == _STRONG:
            return span
        if strength == _WEAK:
            following = _next_nonblank(lines, i + span)
            return span if following is None or _is_quoted(following) else 0
    return 0


def _is_order_line(line: str) -> bool:
    """Starts with "Hand N" or "HN" (not a bare number, which starts many a date)."""
    found = HAND_REF.match(line)
    return found is not None and found.group("h1") is not None


# An order after other words on its line: "Oops, typo. H4 Prince on Hugo".
_ORDER_INSIDE = re.compile(rf"[.!?:)]\s+{HAND_WORD}\s*{NUMBER_SIGN}\s*\d{{1,3}}\b", re.IGNORECASE)


def _ends_a_reply(line: str) -> bool:
    """An order ("Hand 3: Guard on Arthur", "Sorry. H4 Prince on Hugo") or a sentence: a
    reply's line, not the start of an attribution that wraps (those start with a date: "ti 1.
    jouluk. 2026 klo 10.00 Rita", or an opener: "On Tue, 1 Dec 2026 at 10:00, Rita")."""
    return (
        _is_order_line(line)
        or line.rstrip().endswith((".", "!", "?"))
        or _ORDER_INSIDE.search(line) is not None
    )


def _split_reply_line(line: str) -> tuple[str, str] | None:
    """(reply, attribution) when a line holds both: "reply On Wed, ... wrote:".

    Some clients put the attribution right after the last line of the reply, on the same line.
    (The caller strips the line on the right.)
    """
    if not _is_short(line) or not line.endswith((":", "：")):
        return None
    candidates = list(_ATTRIBUTION_INSIDE.finditer(line))
    for index, found in enumerate(candidates):
        digit = re.search(r"\d", line[found.end() : found.end() + 16])
        if digit is None:
            continue  # the date follows the opener closely: "On Tue, 1 Dec ..."
        later = candidates[index + 1] if index + 1 < len(candidates) else None
        if later is not None and (
            later.start() < found.end() + digit.start() or found.group(0).lstrip("- ")[:1].islower()
        ):
            continue  # "Baron on Bruno On Tue, 1 Dec", "on Bruno, guess 4 On Tue": the next opener is the one
        reply, rest = line[: found.start()], line[found.start() :]
        if reply.strip(" -") and _attribution_strength(rest.strip(), True) == _STRONG:
            return reply.rstrip(" -"), rest.strip()
    return None


def _answers_in_unmarked_form(lines: list[str], start: int) -> list[str]:
    """Order lines the player typed into the form of an original that has no quote marks.

    Outlook quotes nothing: a player who types "Guard on Bruno" after "Hand 3:" in the
    original leaves no marker but the filled line itself.  The form is recognised by its
    layout, not its wording: a run of "Hand N:" lines right after a line ending in ":"
    ("Orders for turn 3 -- fill in one line per hand and reply to this mail:").  The card
    list above it ("Your cards" has no colon) and quoted ("> ") lines never count.  The
    turn mail's form lines are blank, so a filled one is the player's.  The caller drops the
    hands the player ordered above the original: those words are newer and explicit (and an
    original that echoes orders, like an acknowledgement, must not override them).
    """
    answers: list[str] = []
    in_form = False
    previous = ""
    for line in lines[start:]:
        found = None
        if not _is_quoted(line):  # a filled line of any length (HTML puts a paragraph on one)
            found = HAND_REF.match(line.strip())
            if found is not None and not found.group("h1"):
                found = None  # the form writes "Hand N:"
        if found and (in_form or previous.rstrip().endswith(":")):
            in_form = True
            if found.group("rest").strip():
                answers.append(line.strip())
        else:
            in_form = False
        previous = line
    return answers


def _add_unmarked_answers(out: list[str], lines: list[str], start: int) -> int:
    """Append the filled form lines of an unquoted original, for hands not ordered above it;
    returns how many were appended (they end the own text: see `drop_sent_words`)."""
    ordered = {hand_of(line) for line in out} - {None}
    answers = [line for line in _answers_in_unmarked_form(lines, start) if hand_of(line) not in ordered]
    out.extend(answers)
    return len(answers)


class _OrdersBelow:
    """Whether any line from some index on reads as an order (quoted form lines included).

    Worked out once per text, on first need: the index of the last such line.
    """

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.last: int | None = None

    def after(self, i: int) -> bool:
        if self.last is None:
            self.last = -1
            for j in range(len(self.lines) - 1, -1, -1):
                if _reads_as_order(self.lines[j]):
                    self.last = j
                    break
        return self.last > i


def own_words(full_text: str, answering: Sequence[str] = (), playing: Collection[int] | None = None) -> str:
    """The player's own new words from a body: quotes, attributions, originals and footers gone.

    Inline answers are kept and attached to their hand: a quoted blank form line "> Hand 3:"
    followed (after blank lines at most) by the player's unquoted line makes that line
    "Hand 3: <line>", unless it already names a hand.  `answering`: the texts of the tool's
    own mails this message may answer; runs of lines that repeat them are dropped, except a
    short run of the player's orders (see `drop_sent_words`; `playing`: the hands the player
    must play now, None when not known).
    """
    own, answers_below = own_words_read(full_text)
    # Knowing the sent mails is one more step on the words read without them, so that the
    # inbox, which learns them late (`drop_sent_words`), reads exactly what this reads.
    return drop_sent_words(own, answering, playing, answers_below, full_text)


def own_words_read(full_text: str) -> tuple[str, int]:
    """`own_words` without knowing the sent mails, and how many of its last lines are filled
    form lines read from an unquoted original under the player's words (0 when none)."""
    lines = full_text.split("\n")
    out: list[str] = []
    # The hand of the last quoted blank form line, while it awaits the player's answer.
    pending: int | None = None
    header_memo: _Memo = {}
    orders_below = _OrdersBelow(lines)
    long_quote_above = False  # the line above is a long quoted line (it may wrap)
    answers_below = 0
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if _is_quoted(line):
            pending, long_quote_above = _after_quoted(line, pending)
            i += 1
            continue
        if long_quote_above and line[:1].islower() and not _reads_as_order(line):
            i += 1  # the wrapped end of a long quoted line whose client lost the marker
            continue
        long_quote_above = False
        if "\u1427" in line and _TRACKER_LINE.match(line):
            i += 1
            continue
        if (not out or not out[-1].strip()) and _is_short(line) and _BANNER.match(line):
            end = _paragraph_end(lines, i)
            if not any(_reads_as_order(other) for other in lines[i:end]):
                i = end  # a gateway's banner: its paragraph is nobody's words
                continue
        if _is_cut(lines, i, header_memo):
            following = _next_nonblank(lines, i + 1)
            if following is not None and _is_quoted(following) and _CUT_LINE.match(line):
                i += 1  # "Begin forwarded message:" above a quoted forward: the words under it stand
                continue
            if not _is_signature_separator(line):
                answers_below = _add_unmarked_answers(out, lines, i)
            break
        split = None if _ATTRIBUTION_START.match(line) else _split_reply_line(line)
        if split is not None:
            reply, lines[i] = split
            out.append(reply)
            continue
        span = _attribution_span(lines, i)
        if span:
            following = _next_nonblank(lines, i + span)
            if following is not None and not _is_quoted(following):
                answers_below = _add_unmarked_answers(out, lines, i)  # the original follows unquoted
                break
            i += span
            continue
        if _is_short(line) and _is_footer(line):
            if pending is None and _original_under_footer(lines, i):
                answers_below = _add_unmarked_answers(out, lines, i)
                break
            i += 1
            continue
        if _nothing_of_the_players_below(lines, i, line, orders_below):
            break
        if line.strip() and pending is not None:
            if not _reads_as_order(line):
                line = f"Hand {pending}: {line.strip()}"
            pending = None
        out.append(line)
        i += 1
    return _finish(out), answers_below


def _after_quoted(line: str, pending: int | None) -> tuple[int | None, bool]:
    """After the quoted ``line``: the hand whose blank form line awaits the player's
    answer (``pending`` is the one before the line: a quoted form line sets it, a quoted
    blank line keeps it, any other quoted line clears it), and whether ``line`` is a long
    one that its client may have wrapped."""
    form = _quoted_form_hand(line)
    if form is not None:
        pending = form
    elif not _QUOTED_BLANK.match(line):
        pending = None
    return pending, len(line) >= 60 and len(line.lstrip("> \t")) >= 60


def _original_under_footer(lines: list[str], i: int) -> bool:
    """Whether the client put the original under the footer at ``lines[i]``, unquoted,
    after a blank line (Outlook mobile): no quote or attribution follows, and what follows
    is no order the player typed under the footer.  (The caller checks that no inline
    answer is awaited.)"""
    j = next((j for j in range(i + 1, len(lines)) if lines[j].strip()), None)  # what follows
    return (
        j is not None
        and j > i + 1  # after a blank line
        and not _reads_as_order(lines[j])
        and not _is_quoted(lines[j])
        and not _attribution_span(lines, j)
    )


def _nothing_of_the_players_below(lines: list[str], i: int, line: str, orders_below: _OrdersBelow) -> bool:
    """Whether the player's words end above ``line`` (``lines[i]``, stripped on the right):
    a rule above a signature or a list footer, or a legal disclaimer under its heading,
    with no order anywhere below."""
    if _is_short(line) and _RULE_LINE.match(line):
        if not orders_below.after(i) and _signature_like(lines, i + 1):
            return True
    return bool(_is_short(line) and _is_disclaimer(lines, i) and not orders_below.after(i))


def drop_sent_words(
    own_text: str,
    answering: Sequence[str],
    playing: Collection[int] | None = None,
    answers_below: int = 0,
    full_text: str = "",
) -> str:
    """`own_words_read`'s own text again, knowing the tool's own mails it may answer.

    For a caller that learns which mails those are only after reading the message (the
    inbox needs its sender first): `own_words(full_text, answering, playing)` is this, by
    construction.  `answers_below`: how many of the last lines are form lines read from an
    unquoted original; one that repeats a line of a sent mail is the tool's (a filled form
    line is never in the mail the tool sent: its form lines are blank).  `full_text`: the
    whole body, whose quoted form lines of a sent mail may hold the player's answers
    (`_answers_on_form`), for hands not ordered above.
    """
    if not answering:
        return own_text
    out = own_text.split("\n")
    tail: list[str] = []
    if answers_below:
        out, tail = out[:-answers_below], out[-answers_below:]
        sent_lines = _sent_index(tuple(answering))[0]
        tail = [line for line in tail if _plain(line) not in sent_lines]
    own = _finish(_drop_repeats(out, answering, playing) + tail)
    if full_text:
        ordered = {hand_of(line) for line in own.split("\n")} - {None}
        typed = [line for line in _answers_on_form(full_text, answering) if hand_of(line) not in ordered]
        own = "\n".join([own, *typed] if own else typed)
    return own


# A line quoted once: ">" (or "> ", indented or not) and no second mark.
_FIRST_DEPTH = re.compile(r"^[ \t]*>(?![ \t]*>)[ \t]?")


def _answers_on_form(full_text: str, answering: Sequence[str]) -> list[str]:
    """Order lines the player typed into the form of a mail the tool sent, quoted or not.

    Clients that leave the cursor in the quote quote what is typed there (Gmail's web client
    after a click in the quoted mail, Thunderbird's plain-text editor): the reply carries
    "> Hand 3: Baron on Bruno" where the turn mail has "Hand 3:", or "> Baron on Bruno" on
    the line under it. Outlook quotes nothing: the answer stands in the unmarked original,
    on the form line or under it, plain or as Outlook marks a comment ("[Chloé Martin]
    Baron on Bruno"). Such a line is the player's only where nothing else can have written
    it: in a run of form lines right under the line that stands above a form in a sent
    mail, quoted as that line is (once, or not at all: a form filled in an earlier reply is
    quoted twice in a reply to it), on a form line that mail leaves blank or under one (blank
    lines between), and no line of any sent mail (an acknowledgement's echo is the tool's;
    "Examples: ..." under the turn mail's form is the tool's, and ends the run). An answer
    under its form line is read as "Hand 3: Baron on Bruno"."""
    intros, openings = _form_intros(tuple(answering))
    folded = full_text.casefold()
    starts = [at for at in map(folded.find, intros) if at >= 0]
    if not starts:
        return []  # no form of a sent mail is in the text
    # From the line of the first intro on (where casefolding kept every character's place):
    # the turn mail's form is at its end, so most of a reply is never looked at.
    first = full_text.rfind("\n", 0, min(starts)) + 1 if len(folded) == len(full_text) else 0
    sent_lines = _sent_index(tuple(answering))[0]
    answers: list[str] = []
    form: frozenset[int] | None = None  # the hands of the form whose run the line is in
    quoted = False  # whether that run is quoted once (else it is unmarked)
    waiting: int | None = None  # the form line above, left blank: its answer may follow
    for line in full_text[first:].split("\n"):
        if not line.strip():
            continue  # a blank line keeps the run
        mark = _FIRST_DEPTH.match(line)  # a line of any length (HTML puts a paragraph on one)
        if mark is None and _is_quoted(line):
            form = waiting = None  # a line quoted deeper
            continue
        rest = line[mark.end() :].strip() if mark else line.strip()
        if not rest:
            continue  # ">" alone: a blank line of the quote
        if form is not None and quoted and mark is None:
            waiting = None  # the player's own line, typed under a quoted form line: the run goes on
            continue
        if form is not None and quoted == (mark is not None):
            found = HAND_REF.match(rest)
            if found is not None and found.group("h1") and int(found.group("h1")) in form:
                waiting = None if found.group("rest").strip() else int(found.group("h1"))
                if waiting is None and _plain(rest) not in sent_lines:
                    answers.append(rest)
                continue
            if (
                waiting is not None
                and found is None
                and not _ends_the_form(rest)
                and _plain(rest) not in sent_lines
            ):
                answers.append(f"Hand {waiting}: {rest}")
                waiting = None
                continue
        # Only a line that opens as an intro does is compared whole (`_plain` costs).
        form = intros.get(_plain(rest)) if rest[:_OPENING].casefold() in openings else None
        quoted, waiting = mark is not None, None
    return answers


_OPENING = 8  # the characters of a line `_answers_on_form` looks at first


def _ends_the_form(line: str) -> bool:
    """Whether ``line``, under a blank form line, opens a quote (an attribution, a separator,
    a header line): the form's run is over, and it is no answer ("On Tue, 1 Dec ..." would
    read as a Guard, rank 1)."""
    return bool(_ATTRIBUTION_START.match(line) or _CUT_LINE.match(line) or _HEADER_LINE.match(line))


def _form_hand(line: str) -> int | None:
    """The hand of a blank form line ("Hand 3:", stripped), None for any other line."""
    found = HAND_REF.match(line)
    if found is None or not found.group("h1") or found.group("rest").strip():
        return None
    return int(found.group("h1"))


@functools.lru_cache(maxsize=32)
def _form_intros(answering: tuple[str, ...]) -> tuple[dict[str, frozenset[int]], frozenset[str]]:
    """The lines of the sent mails that stand right above a form (a run of blank "Hand N:"
    lines), as compared (`_plain`), each with its form's hands; and how they open (their
    first `_OPENING` characters)."""
    intros: dict[str, frozenset[int]] = {}
    for text in answering:
        for intro, hands in _text_intros(text).items():
            intros[intro] = intros.get(intro, frozenset()) | hands
    return intros, frozenset(intro[:_OPENING] for intro in intros)


@functools.lru_cache(maxsize=64)  # a game's public report is in the mails of all its players
def _text_intros(text: str) -> dict[str, frozenset[int]]:
    """`_form_intros` of one sent mail (shared by every caller: read, never changed)."""
    lines = [line.strip() for line in text.split("\n")]
    form = [_form_hand(line) for line in lines]
    intros: dict[str, frozenset[int]] = {}
    for i, line in enumerate(lines):
        if form[i] is not None or not line:
            continue  # a form line is no intro: a player's own copy of the form is no original
        hands: list[int] = []
        for hand in form[i + 1 :]:  # most lines stop at the first: none is a form line
            if hand is None:
                break
            hands.append(hand)
        if hands:
            intros[_plain(line)] = intros.get(_plain(line), frozenset()) | frozenset(hands)
    return intros


def _finish(out: list[str]) -> str:
    """The last steps of `own_words`: a closing rule and a sign-off go."""
    while out and (not out[-1].strip() or (_is_short(out[-1]) and _RULE_LINE.match(out[-1]))):
        out.pop()  # a rule above what was cut off: it closed the player's words
    _drop_sign_off(out)
    return _tidy_blank_runs("\n".join(out)).strip("\n")


def _paragraph_end(lines: list[str], i: int) -> int:
    """The index of the first blank line from i on (len(lines) at the end)."""
    for j in range(i, len(lines)):
        if not lines[j].strip():
            return j
    return len(lines)


def _is_disclaimer(lines: list[str], i: int) -> bool:
    """A disclaimer starts here: its heading alone ("Disclaimer", "Haftungsausschluss:") with
    text under it, or the heading and legal words on one line ("Disclaimer: This message is
    confidential...")."""
    found = _DISCLAIMER.match(lines[i])
    if found is None:
        return False
    if found.group("text"):
        paragraph = " ".join(lines[i : _paragraph_end(lines, i)])
        return _DISCLAIMER_WORD.search(paragraph) is not None
    return _next_nonblank(lines, i + 1) is not None


def _signature_like(lines: list[str], start: int) -> bool:
    """The lines from `start` on look like a signature or a list footer, not like sentences.

    A few short lines (a name, a title, a phone number, a link), none ending like a sentence:
    a rule line above them closes the writer's words.  Markdown rules between paragraphs
    ("----" then "The dashes above are ...") are followed by sentences, and kept.
    """
    if len(lines) - start > 40:
        return False
    filled = [line.strip() for line in lines[start:] if line.strip()]
    if not filled or len(filled) > 12:
        return False
    return all(len(line) <= 80 and not line.endswith((".", "?", "!", ":")) for line in filled)


def _drop_sign_off(out: list[str]) -> None:
    """Drop a sign-off closing the writer's words: a valediction and the short lines under it.

    "Regards," then a name and a title (or a blank line and a name block): never a line that
    reads as an order, at most a few short lines.  A valediction with a bare name under it
    ("Best regards,\nJohn") is kept: reply parsers disagree on it, and it is no order.
    """
    filled = [j for j, line in enumerate(out) if line.strip()]
    if len(filled) < 3:
        return
    tail = filled[-(_SIGN_OFF_LINES + 1) :]
    for position, j in enumerate(tail):
        if not _is_short(out[j]) or not _VALEDICTION.match(out[j]) or j == filled[0]:
            continue
        after = tail[position + 1 :]
        if not after or any(
            len(out[k].strip()) > _SIGN_OFF_LINE_MAX or _reads_as_order(out[k]) for k in after
        ):
            return
        if len(after) >= 2 or after[0] > j + 1:  # a name and a title, or a name block set apart
            del out[j:]
        return


# --------------------------------------------------------------------------------------------
# Know your own words: runs of lines that repeat a mail the tool sent
# --------------------------------------------------------------------------------------------

_REWRAPPED_MIN = 40  # a line this long found inside a sent mail's prose is a piece of it
# "Key: value" lines above a repeated run: the header block a client wrote over the original.
_KEY_LINE = re.compile(r"^\s*\*?\s*[^\W\d_][^:：]{0,30}[:：]")


def _plain(line: str) -> str:
    """A line as compared with the sent mails: no quote marks, spaces collapsed, case folded."""
    line = _QUOTE_MARKERS.sub("", unicodedata.normalize("NFC", line))
    return " ".join(line.split()).casefold()  # (str.split's whitespace is re's \s)


@functools.lru_cache(maxsize=32)  # a batch answers the same few turn mails again and again
def _sent_index(answering: tuple[str, ...]) -> tuple[dict[str, tuple[int, ...]], str]:
    """The sent mails' lines as compared (see `_plain`) with where each stands, and all of
    them as one string (for rewrapped prose)."""
    prose = [plain for text in answering for plain in _plain_lines(text)]
    where: dict[str, list[int]] = {}
    for position, plain in enumerate(prose):
        where.setdefault(plain, []).append(position)
    return {plain: tuple(positions) for plain, positions in where.items()}, " ".join(prose)


@functools.lru_cache(maxsize=64)  # a game's public report is in the mails of all its players
def _plain_lines(text: str) -> tuple[str, ...]:
    """The lines of one sent mail as compared (`_plain`), blank lines left out."""
    return tuple(plain for plain in map(_plain, text.split("\n")) if plain)


def _order_hand(line: str) -> int | None:
    """The hand of a line that is an order with words after its hand ("Hand 3: Baron"), or None."""
    found = HAND_REF.match(line)  # any length: HTML puts a paragraph on one line
    if found is None or not any(ch.isalpha() for ch in found.group("rest")):
        return None
    return hand_number(found)


def _is_players_run(
    out: list[str], run: list[int], dropped: set[int], playing: Collection[int] | None
) -> bool:
    """Whether a run of lines that repeat a sent mail is the player's orders all the same.

    The tool's mails hold lines any order may equal ("Hand 10: Handmaid" in a card list, an
    acknowledgement's echo), so two orders can repeat a sent mail by chance.  An original is a
    whole mail: its run holds more than orders, or sits under a header block, an attribution or
    more of the sent mail.  A run of nothing but orders, each for a different hand the player
    must play now (`playing`, when known) and none ordered elsewhere in the message, with
    the player's words or nothing above it, is the player's.
    """
    hands = [_order_hand(out[j]) for j in run]
    if None in hands or len(set(hands)) != len(hands):
        return False
    if playing is not None and not set(hands) <= set(playing):
        return False
    if playing is None and len(run) > _PLAYERS_RUN_MAX:
        return False  # (with `playing` known, the run's different hands are at most as many)
    inside = set(run)
    if any(_order_hand(line) in hands for j, line in enumerate(out) if j not in inside):
        return False  # a hand ordered again: the run repeats what the message already says
    above = run[0] - 1
    while above >= 0 and not out[above].strip():
        above -= 1
    if above < 0:
        return True  # nothing above: the player's first words
    line = out[above]
    if above in dropped or not _is_short(line):
        return False
    key = _KEY_LINE.match(line)
    if (_HEADER_LINE.match(line) or (key and line[key.end() :].strip())) and not _reads_as_order(line):
        return False  # under a header block ("Subject: ..."); "My orders:" is the player's
    return not _attribution_strength(line.strip(), bool(_ATTRIBUTION_START.match(line)))


_PLAYERS_RUN_MAX = 7  # with the hands in play unknown: a player plays at most 7 hands at once


def _drop_repeats(
    out: list[str], answering: Sequence[str], playing: Collection[int] | None = None
) -> list[str]:
    """Drop the runs of lines that repeat one of the tool's own mails, with their header block.

    A line repeats a sent mail when it is one of its lines (quote marks, spacing and case
    aside), or, when long and no order line, a piece of its prose (a client rewrapped it).  A
    run of two or more such lines in the sent mail's order (blank lines and rules between do
    not count), or one long one, is the original, whatever the client wrote above it: the
    "key: value" lines right above the run go with it; unless the run is the player's orders
    (`_is_players_run`).  Whatever the player wrote in between, filled form lines included,
    stays.
    """
    sent_lines, blob = _sent_index(tuple(answering))
    if not sent_lines:
        return out
    anywhere = -1  # a piece of rewrapped prose: it follows anything

    prose = ""  # the line before, when it was a piece of rewrapped prose

    def position_after(line: str, last: int) -> int | None:
        """Where the line stands in the sent mail after position `last`; None: not there."""
        nonlocal prose
        plain = _plain(line)
        later = [p for p in sent_lines.get(plain, ()) if p > last]
        if later:
            prose = ""
            return later[0]
        if not _reads_as_order(line) and (
            (len(plain) >= _REWRAPPED_MIN and plain in blob)
            or (prose and f"{prose} {plain}" in blob)  # the short end of a rewrapped paragraph
        ):
            prose = plain
            return max(last, anywhere)
        prose = ""
        return None

    drop: set[int] = set()
    run: list[int] = []
    last = anywhere

    def close_run() -> None:
        if len(run) >= 2 or (run and len(_plain(out[run[0]])) >= _REWRAPPED_MIN):
            if _is_players_run(out, run, drop, playing):
                run.clear()
                return
            drop.update(run)
            above = run[0] - 1
            while above >= 0 and not out[above].strip():
                above -= 1
            while (
                above >= 0
                and out[above].strip()
                and _is_short(out[above])
                and _KEY_LINE.match(out[above])
                and not _reads_as_order(out[above])
            ):
                drop.add(above)
                above -= 1
        run.clear()

    for j, line in enumerate(out):
        if not any(ch.isalnum() for ch in line[:_SHORT_LINE]):
            continue  # blank lines and rules carry no words: they neither make nor break a run
        found = position_after(line, last)  # a line of any length (a linear cost)
        if found is None and run:  # out of the sent mail's order: a new run may start here
            close_run()
            found = position_after(line, anywhere)
        if found is None:
            close_run()
            last = anywhere
        else:
            run.append(j)
            last = found
    close_run()
    return [line for j, line in enumerate(out) if j not in drop]
