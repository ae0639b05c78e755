"""Quotes and signatures: the player's own words, without what they quote or sign with."""

from __future__ import annotations

import re

from .text import _tidy_blank_runs

_SHORT_LINE = 500  # the heuristic patterns only look at lines up to this length (speed)

_FORM_LINE_MAX = 80
# The blank form line of the turn mail, `^\s*(hand|h)\s*(\d+)\s*[:.\-]?\s*$` once the quote
# markers are gone, matched here together with them.
_QUOTED_FORM_LINE = re.compile(
    r"^(?:[ \t]*>)+\s*(hand|h)\s*(\d+)\s*[:.\-]?\s*$", re.IGNORECASE
)
_QUOTED_BLANK = re.compile(r"^(?:[ \t]*>)+\s*$")
_HAND_REF = re.compile(r"^\s*(?:(?:hand|h)\s*\d+|\d+\s*[:.)\-])", re.IGNORECASE)

_CUT_LINE = re.compile(
    r"""^\s*(?:
        -{2,}\s*(?:original\ message|ursprüngliche\ nachricht|message\ d'origine|mensaje\ original
            |messaggio\ originale|oorspronkelijk\ bericht|originalmeddelande|oprindelig\ meddelelse
            |opprinnelig\ melding|alkuperäinen\ viesti|wiadomość\ oryginalna|mensagem\ original)\s*-{2,}
      | -{2,}\s*(?:forwarded\ message|weitergeleitete\ nachricht|message\ transféré|mensaje\ reenviado
            |messaggio\ inoltrato|doorgestuurd\ bericht|vidarebefordrat\ meddelande
            |videresendt\ meddelelse|wiadomość\ przekazana\ dalej|mensagem\ encaminhada)\s*-{2,}
      | _{10,}
      | (?:begin\ forwarded\ message|anfang\ der\ weitergeleiteten\ nachricht
            |début\ du\ message\ réexpédié|inicio\ del\ mensaje\ reenviado
            |inizio\ messaggio\ inoltrato)\s*:
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)

_SENDER_KEYS = "from|von|de|da|van|fra|från|od|lähettäjä|feladó"
_OTHER_KEYS = (
    "sent|date|to|cc|subject|gesendet|datum|an|betreff|kopie|envoyé|à|objet|enviado|fecha|para"
    "|asunto|inviato|data|a|oggetto|verzonden|aan|onderwerp|skickat|till|ämne|sendt|til|emne"
    "|wysłano|do|temat|lähetetty|vastaanottaja|aihe|enviada|assunto"
)
# A header line of a quoted original as mail clients write it: "From: x", "*From:* x" (Gmail's
# plain text of bold HTML), "De : x" (French spacing).
_HEADER_LINE = re.compile(
    rf"^\s*\*?\s*(?:(?P<sender>{_SENDER_KEYS})|(?P<other>{_OTHER_KEYS}))\s*\*?\s*:",
    re.IGNORECASE,
)

_ATTRIBUTION_START = re.compile(
    r"^\s*(?:on|am|le|el|op|den|il\ giorno|em|w\ dniu|dnia|zitat\ von|quoting)\b",
    re.IGNORECASE | re.VERBOSE,
)
_ATTRIBUTION_END = re.compile(
    r"""(?:\b(?:wrote|writes|a\ écrit|a\ ecrit|escribió|escribio|ha\ scritto|escreveu|kirjoitti
            |írta)\s*:
        | \b(?:schrieb|schreef|skrev|napisał|napisała|napisał\(a\))\b.{0,200}:
        | ^\s*(?:zitat\ von|quoting)\b.{0,200}:
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)

_FOOTERS = re.compile(
    r"""^\s*(?:
        sent\ (?:from|via|with|using)\ .{1,60}
      | get\ outlook\ for\ .{1,80}
      | von\ meinem\ .{1,40}\ gesendet\.?
      | gesendet\ (?:von|mit|vom)\ .{1,40}
      | envoyé\ (?:de|depuis|à\ partir\ de)\ .{1,40}
      | enviado\ (?:desde|do|de|con)\ .{1,40}
      | inviato\ da\ .{1,40}
      | verzonden\ (?:vanaf|met|van)\ .{1,40}
      | (?:skickat|sendt)\ fr[åa]\ .{1,40}
      | wysłane\ z\ .{1,40}
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


def _is_quoted(line: str) -> bool:
    """Quoted text starts with ">" (any depth; some clients indent the marker)."""
    return line.lstrip().startswith(">")


def _is_short(line: str) -> bool:
    """Short enough for the heuristic patterns: keeps a multi-MB line from costing seconds."""
    return len(line) <= _SHORT_LINE


def _is_signature_separator(line: str) -> bool:
    """The "-- " line before a signature; hand-typed "--" counts too."""
    return line.rstrip() == "--"


_Memo = dict[int, "tuple[str, bool] | None"]


def _header_key(lines: list[str], i: int, memo: _Memo) -> tuple[str, bool] | None:
    """(key, is-sender) of a header-like line ("From: x" -> ("from", True)), memoised.

    Memoised because each line of a block is looked at again from every line above it.
    """
    if i not in memo:
        line = lines[i]
        found = _HEADER_LINE.match(line) if _is_short(line) else None
        if found:
            memo[i] = (
                found.group(0).strip(" *:").lower(),
                found.group("sender") is not None,
            )
        else:
            memo[i] = None
    return memo[i]


def _is_header_block(lines: list[str], i: int, memo: _Memo) -> bool:
    """An unquoted original's header block starts here: From/Sent/To/Subject in any order.

    Outlook writes "From: Sent: To: Subject:" (or "Von: Gesendet: An: Betreff:", ...), web.de
    starts with "Gesendet:".  Three different keys, one of them the sender, within a few
    lines: a player's own "From: ..." or "To: ..." line alone never cuts their orders.
    """
    if _header_key(lines, i, memo) is None:
        return False
    keys: set[str] = set()
    has_sender = False
    for j in range(i, min(i + 8, len(lines))):
        found = _header_key(lines, j, memo)
        if found:
            keys.add(found[0])
            has_sender = has_sender or found[1]
    return has_sender and len(keys) >= 3


def _is_cut(lines: list[str], i: int, memo: _Memo) -> bool:
    """From this line on, nothing is the player's new words (original, forward, signature)."""
    line = lines[i]
    if _is_signature_separator(line):
        return True
    if not _is_short(line):
        return False
    return bool(_CUT_LINE.match(line)) or _is_header_block(lines, i, memo)


def _next_nonblank(lines: list[str], i: int) -> str | None:
    """The first non-blank line from index i on, None at the end (what follows an attribution)."""
    for line in lines[i:]:
        if line.strip():
            return line
    return None


def _attribution_span(lines: list[str], i: int) -> int:
    """How many lines (1-3) an attribution ("On ... wrote:") starting at line i takes; 0: none.

    Clients wrap long attributions, so up to three lines are joined.  One that starts like an
    attribution ("On", "Am", "Le", ...) must also hold a date or an address (a digit or "@"),
    so that a player's "Am Ende schrieb ich:" stays theirs.  Any other line ending in
    "wrote:" only counts when a quote follows it, which covers "Rita <gm@example.org> wrote:".
    """
    first = lines[i]
    if not first.strip() or _is_quoted(first) or not _is_short(first):
        return 0
    keyword = bool(_ATTRIBUTION_START.match(first))
    joined = ""
    for span in (1, 2, 3):
        if i + span > len(lines):
            return 0
        line = lines[i + span - 1]
        if span > 1 and (not line.strip() or _is_quoted(line) or not keyword):
            return 0
        joined = (joined + " " + line.strip()).strip()
        if len(joined) > 2 * _SHORT_LINE:
            return 0
        if joined.endswith(":") and _ATTRIBUTION_END.search(joined):  # cheap test first
            if keyword and re.search(r"[0-9@]", joined):
                return span
            following = _next_nonblank(lines, i + span)
            return span if following is None or _is_quoted(following) else 0
    return 0


_HAND_LINE = re.compile(r"^(?:hand|h)\s*\d+\s*[:.\-]?\s*(.*)$", re.IGNORECASE)
_HAND_NUMBER = re.compile(
    r"^\s*(?:(?:hand|h)\s*(\d{1,4})|(\d{1,4})\s*[:.)\-])", re.IGNORECASE
)


def _hand_of(line: str) -> int | None:
    """The hand an order line starts with ("Hand 3: ...", "h3 ...", "3: ..."), if any."""
    found = _HAND_NUMBER.match(line)
    return int(found.group(1) or found.group(2)) if found else None


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
        if not _is_quoted(line) and len(line) <= _SHORT_LINE:
            found = _HAND_LINE.match(line.strip())
        if found and (in_form or previous.rstrip().endswith(":")):
            in_form = True
            if found.group(1).strip():
                answers.append(line.strip())
        else:
            in_form = False
        previous = line
    return answers


def _add_unmarked_answers(out: list[str], lines: list[str], start: int) -> None:
    """Append the filled form lines of an unquoted original, for hands not ordered above it."""
    ordered = {_hand_of(line) for line in out} - {None}
    answers = _answers_in_unmarked_form(lines, start)
    out.extend(answer for answer in answers if _hand_of(answer) not in ordered)


def own_words(full_text: str) -> str:
    """The player's own new words from a body: quotes, attributions, originals and footers gone.

    Inline answers are kept and attached to their hand: a quoted blank form line "> Hand 3:"
    followed (after blank lines at most) by the player's unquoted line makes that line
    "Hand 3: <line>", unless it already names a hand.
    """
    lines = full_text.split("\n")
    out: list[str] = []
    # The hand of the last quoted blank form line, while it awaits the player's answer.
    pending: int | None = None
    header_memo: _Memo = {}
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if _is_quoted(line):
            # A blank form line is short; longer quoted lines are content and end the wait.
            form = (
                _QUOTED_FORM_LINE.match(line) if len(line) <= _FORM_LINE_MAX else None
            )
            if form:
                pending = int(form.group(2))
            elif not _QUOTED_BLANK.match(line):
                pending = None
            i += 1
            continue
        if _is_cut(lines, i, header_memo):
            if not _is_signature_separator(line):
                _add_unmarked_answers(out, lines, i)
            break
        span = _attribution_span(lines, i)
        if span:
            following = _next_nonblank(lines, i + span)
            if following is not None and not _is_quoted(following):
                _add_unmarked_answers(out, lines, i)  # the original follows unquoted
                break
            i += span
            continue
        if _is_short(line) and _FOOTERS.match(line):
            i += 1
            continue
        if line.strip() and pending is not None:
            if not (_is_short(line) and _HAND_REF.match(line)):
                line = f"Hand {pending}: {line.strip()}"
            pending = None
        out.append(line)
        i += 1
    return _tidy_blank_runs("\n".join(out)).strip("\n")
