"""What players write and what the tool prints back: one home for each shape.

Three small grammars are shared by the mail reader, the order parser, the inbox
and the campaign; each lives here once so that they can never disagree:

- the hand reference at the start of an order line ("Hand 3:", "H3", "3:");
- the campaign tag in mail subjects ("[game7] Turn 3");
- the personal order code ("K7QM-3XTP").

No game knowledge beyond that, no files: only patterns and the functions that
apply them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import date

from .lazyre import LazyPattern
from .tuples import NamedTuple

# --------------------------------------------------------------------------------------------
# Hand references
# --------------------------------------------------------------------------------------------

#: The hand reference at the start of an order line, and what follows it: "Hand 3: ...",
#: "H3 ...", "hand #3 - ...", "* Hand 3", "• H3", "1. Hand 3", "3: ...", "#3) ...".  Groups: ``h1`` the
#: hand after "Hand"/"H", ``h2`` a bare number (an order only with a card after it: "2. I
#: think" and "20:00" are not orders), ``h3`` a hand spelled out after "Hand" (an order only
#: with a card after it too: "Hand three is a mess"), ``rest`` the order.  The order parser and the mail
#: reader (blank form lines, inline answers) both read hands with this one pattern.
#: The word for "hand" before its number: English and German "Hand" ("H" for short), French
#: "main", Spanish and Italian "mano", Portuguese "mão"; and for several hands ("Hands 3
#: and 7", "mains", "manos", "mani", "mãos"). Every pattern that finds a hand uses these.
HAND_WORD = r"(?:hand|main|mano|m[aã]o|h)"
HANDS_WORD = r"(?:hands?|mains?|manos?|mani|m[aã]os?|h)"
#: What may stand between the word for "hand" and its number: "#", "No.", "number", German
#: "Nr."/"Nummer", French "n°", Spanish and Portuguese "nº"/"núm.", Italian "n.".
NUMBER_SIGN = r"(?:\#|n\s?[°º]|n\.|no\.?|nr\.?|nro\.?|n[uú]m\.?|number|nummer|n[uú]mero)?"
#: A hand's number spelled out after the word for "hand" ("Hand three:", "Hand drei:", "Main
#: trois :"), one to thirteen in the languages of the hand words and Dutch; accents optional.
SPELLED_HANDS = {
    word: number
    for number, words in enumerate(
        [
            "",
            "one eins een één un une uno um uma",
            "two zwei twee deux dos due dois duas",
            "three drei drie trois tres três tre",
            "four vier quatre cuatro quattro quatro",
            "five fünf funf fuenf vijf cinq cinco cinque",
            "six sechs zes seis sei",
            "seven sieben zeven sept siete sette sete",
            "eight acht huit ocho otto oito",
            "nine neun negen neuf nueve nove",
            "ten zehn tien dix diez dieci dez",
            "eleven elf onze once undici",
            "twelve zwölf zwolf zwoelf twaalf douze doce dodici doze",
            "thirteen dreizehn dertien treize trece tredici treze",
        ]
    )
    for word in words.split()
}
_SPELLED = "|".join(sorted(SPELLED_HANDS, key=len, reverse=True))
_HAND_WORD_WHOLE = r"(?:hand|main|mano|m[aã]o)"  # not "H": "H three" is no hand
#: "Hand three", the hand spelled out after the word for "hand" written whole.
SPELLED_HAND = rf"{_HAND_WORD_WHOLE}\s*{NUMBER_SIGN}\s*(?:{_SPELLED})(?![^\W\d_])"

_SEPARATOR = r"[:.)\]\-\u2013\u2014=]"
_AFTER_HAND = r"[:.)\]\-\u2013\u2014=*_]"  # and the end of markdown's "*Hand 3*:", "_Hand 3_"
HAND_REF = LazyPattern(
    rf"""^[\s*_\u2022·-]*                                       # bullets, markdown
        (?:\(?\d{{1,2}}[.)]\s*(?={HAND_WORD}\s*{NUMBER_SIGN}\s*\d))?  # a list's "1. " before "Hand 3"
        (?:{HAND_WORD}\s*{NUMBER_SIGN}\s*(?P<h1>\d{{1,3}})(?![^\W_])\s*{_AFTER_HAND}*  # "Hand 3:", "H3"
          |\#?(?P<h2>\d{{1,3}})\s*{_SEPARATOR}+                           # "3:", "3)", "3 -"
          |{_HAND_WORD_WHOLE}\s*{NUMBER_SIGN}\s*                            # "Hand three:"
           (?P<h3>{_SPELLED})(?![^\W\d_])\s*{_AFTER_HAND}*)
        \s*(?P<rest>.*)$""",
    re.IGNORECASE | re.VERBOSE,
)


def hand_of(line: str) -> int | None:
    """The hand a line starts with ("Hand 3: ...", "* H3 ...", "3: ..."), None when none."""
    found = HAND_REF.match(line)
    if found is None:
        return None
    return hand_number(found)


def hand_number(found: re.Match[str]) -> int:
    """The hand a match of :data:`HAND_REF` names, in digits or spelled out."""
    digits = found.group("h1") or found.group("h2")
    if digits:
        return int(digits)
    return SPELLED_HANDS[found.group("h3").casefold()]


# --------------------------------------------------------------------------------------------
# PROXY ON / PROXY OFF
# --------------------------------------------------------------------------------------------

#: ``PROXY ON`` / ``PROXY OFF`` alone on a line, like STATUS and CLEAR (INTERFACE.md, "Next").
PROXY_WORD = LazyPattern(r"^\s*PROXY\s+(ON|OFF)\s*[.!]?\s*$", re.IGNORECASE | re.MULTILINE)


def proxy_request(text: str) -> str | None:
    """``"on"`` or ``"off"`` when ``text`` holds a PROXY ON / PROXY OFF line (the
    last one stands), None when it holds neither."""
    found = PROXY_WORD.findall(text)
    return found[-1].lower() if found else None


def is_proxy_line(line: str) -> bool:
    return PROXY_WORD.fullmatch(line.strip()) is not None


# --------------------------------------------------------------------------------------------
# ABSENT <date> to <date> / BACK
# --------------------------------------------------------------------------------------------

#: ``ABSENT 2026-12-10 to 2026-12-20`` (a day, or a day and a time as ``pbem deadline``
#: reads them: the day counts) and ``BACK``, alone on a line (INTERFACE.md, "Next").
ABSENT_LINE = LazyPattern(r"^\s*ABSENT\b(?P<rest>.*?)\s*[.!]?\s*$", re.IGNORECASE | re.MULTILINE)
BACK_LINE = LazyPattern(r"^\s*BACK\s*[.!]?\s*$", re.IGNORECASE | re.MULTILINE)
_DAY = r"(\d{4}-\d{2}-\d{2})(?:[ T]\d{1,2}:\d{2})?"
_SPAN = LazyPattern(rf"\s*{_DAY}\s+(?:to|until|-)\s+{_DAY}\s*", re.IGNORECASE)


def absence_request(text: str) -> tuple[str, date | None, date | None] | None:
    """The last ABSENT or BACK line of ``text``: ``("absent", first day, last day)``,
    ``("back", None, None)``, ``("bad", None, None)`` for an ABSENT line whose dates
    cannot be read; None when there is neither."""
    found: list[tuple[int, tuple[str, date | None, date | None]]] = []
    for m in ABSENT_LINE.finditer(text):
        span = _SPAN.fullmatch(m["rest"])
        value: tuple[str, date | None, date | None] = ("bad", None, None)
        if span:
            try:
                value = ("absent", date.fromisoformat(span[1]), date.fromisoformat(span[2]))
            except ValueError:
                pass
        found.append((m.start(), value))
    found += [(m.start(), ("back", None, None)) for m in BACK_LINE.finditer(text)]
    return max(found, key=lambda f: f[0])[1] if found else None


def is_absence_text(text: str) -> bool:
    """Whether ``text`` holds an ABSENT or a BACK line (a quick look)."""
    return ABSENT_LINE.search(text) is not None or BACK_LINE.search(text) is not None


def is_absence_line(line: str) -> bool:
    return ABSENT_LINE.fullmatch(line.strip()) is not None or BACK_LINE.fullmatch(line.strip()) is not None


# --------------------------------------------------------------------------------------------
# Campaign tag in subjects
# --------------------------------------------------------------------------------------------

#: A campaign's tag is its folder's name: one plain word, matched in reply subjects.
TAG_WORD = r"[A-Za-z0-9_.-]{1,40}"

#: "[game7] Turn 3" anywhere in a subject: never anchored, as clients prepend
#: Re:, AW:, Re[2]:, [EXTERNAL] and the like.
SUBJECT_TAG = LazyPattern(r"\[([A-Za-z0-9_.-]+)\]\s*Turn\s+([0-9]+)", re.IGNORECASE)


def is_plain_tag(name: str) -> bool:
    """Whether ``name`` can be a campaign's tag (letters, digits, ``_ . -``; not hidden)."""
    return bool(re.fullmatch(TAG_WORD, name)) and not name.startswith(".")


# --------------------------------------------------------------------------------------------
# Order codes
# --------------------------------------------------------------------------------------------

#: The order code's alphabet: no look-alikes (no I, O, 0, 1).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

#: Something shaped like an order code: two groups of four from the alphabet.
CODE = LazyPattern(r"\b[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}\b")


def format_code(digest: bytes) -> str:
    """An order code from (at least) 8 bytes of a secret digest: ``XXXX-XXXX``."""
    chars = [CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:8]]
    return "".join(chars[:4]) + "-" + "".join(chars[4:])


#: Something shaped like an order code, in any case ("k7qm-3xtp" is a code typed
#: lazily). Only a candidate: English words have this shape too ("well-kept",
#: "self-made"), so a candidate counts as a code only when it is, or nearly is,
#: one of the campaign's codes (:func:`codes_in`).
CODE_SHAPE = LazyPattern(r"(?<![\w-])[A-Za-z2-9]{4}-[A-Za-z2-9]{4}(?![\w-])")


# Where a candidate can end: its hyphen and second half. The search looks for these
# (its hyphen is a literal the regex engine finds quickly) and checks the first half
# only there: CODE_SHAPE alone is tried at every character of a text, twenty times
# slower over a reply quoting its turn mail.
_CODE_TAIL = LazyPattern(r"-[A-Za-z2-9]{4}(?![\w-])")


def code_candidates(text: str) -> Iterator[re.Match[str]]:
    """The matches of :data:`CODE_SHAPE` in ``text``, in order: what
    ``CODE_SHAPE.finditer(text)`` gives, found from their hyphens."""
    for tail in _CODE_TAIL.finditer(text):
        start = tail.start() - 4
        if start >= 0:
            whole = CODE_SHAPE.match(text, start)
            if whole is not None:
                yield whole


class CodeSeen(NamedTuple):
    """An order code found in a text: as written, and the campaign's code it is
    (``exact``) or nearly is (one character wrong, or two neighbours swapped)."""

    written: str
    code: str
    exact: bool


def _nearly(written: str, code: str) -> bool:
    """One character wrong, or two neighbouring characters swapped: the typos a
    player makes copying a code. A random word is this close to one of a game's
    few codes with odds of about one in a hundred million (32**8 codes)."""
    diff = [i for i, (a, b) in enumerate(zip(written, code)) if a != b]
    if len(diff) == 1:
        return True
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and written[diff[0]] == code[diff[1]]
        and written[diff[1]] == code[diff[0]]
    )


def codes_in(text: str, codes: Iterable[str]) -> list[CodeSeen]:
    """The order codes in ``text``, in order: candidates (:data:`CODE_SHAPE`, in
    the code alphabet) that are or nearly are one of ``codes``. Anything else of
    that shape is an ordinary word, never a code."""
    codes = list(codes)
    found = []
    for match in code_candidates(text):
        written = match.group(0)
        upper = written.upper()
        if not CODE.fullmatch(upper):
            continue  # a letter outside the alphabet (I, O, 0, 1): a word
        if upper in codes:
            found.append(CodeSeen(written, upper, True))
            continue
        near = next((c for c in codes if _nearly(upper, c)), None)
        if near is not None:
            found.append(CodeSeen(written, near, False))
    return found


def mask_codes(text: str, codes: Iterable[str], mask: str = "(an order code)") -> str:
    """``text`` with every order code of :func:`codes_in` replaced by ``mask``:
    for text that goes back to a player, who must never receive a code (theirs
    comes in their own turn mail, from the GM)."""
    seen = {c.written for c in codes_in(text, codes)}
    if not seen:
        return text
    pieces, done = [], 0
    for match in code_candidates(text):
        if match.group(0) in seen:
            pieces += [text[done : match.start()], mask]
            done = match.end()
    return "".join(pieces) + text[done:]
