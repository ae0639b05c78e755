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

# --------------------------------------------------------------------------------------------
# Hand references
# --------------------------------------------------------------------------------------------

#: The hand reference at the start of an order line, and what follows it: "Hand 3: ...",
#: "H3 ...", "hand #3 - ...", "* Hand 3", "• H3", "3: ...", "#3) ...".  Groups: ``h1`` the
#: hand after "Hand"/"H", ``h2`` a bare number (an order only with a card after it: "2. I
#: think" and "20:00" are not orders), ``rest`` the order.  The order parser and the mail
#: reader (blank form lines, inline answers) both read hands with this one pattern.
HAND_REF = re.compile(
    r"""^[\s*\u2022·-]*                        # bullets
        (?:(?:hand|h)\s*\#?\s*(?P<h1>\d{1,3})\b\s*[:.)\]\-\u2013\u2014=]*   # "Hand 3:", "H3", "hand #3 -"
          |\#?(?P<h2>\d{1,3})\s*[:.)\]\-\u2013\u2014=]+)                   # "3:", "3)", "3 -"
        \s*(?P<rest>.*)$""",
    re.IGNORECASE | re.VERBOSE,
)


def hand_of(line: str) -> int | None:
    """The hand a line starts with ("Hand 3: ...", "* H3 ...", "3: ..."), None when none."""
    found = HAND_REF.match(line)
    if found is None:
        return None
    return int(found.group("h1") or found.group("h2"))


# --------------------------------------------------------------------------------------------
# Campaign tag in subjects
# --------------------------------------------------------------------------------------------

#: A campaign's tag is its folder's name: one plain word, matched in reply subjects.
TAG_WORD = r"[A-Za-z0-9_.-]{1,40}"

#: "[game7] Turn 3" anywhere in a subject: never anchored, as clients prepend
#: Re:, AW:, Re[2]:, [EXTERNAL] and the like.
SUBJECT_TAG = re.compile(r"\[([A-Za-z0-9_.-]+)\]\s*Turn\s+([0-9]+)", re.IGNORECASE)


def is_plain_tag(name: str) -> bool:
    """Whether ``name`` can be a campaign's tag (letters, digits, ``_ . -``; not hidden)."""
    return bool(re.fullmatch(TAG_WORD, name)) and not name.startswith(".")


# --------------------------------------------------------------------------------------------
# Order codes
# --------------------------------------------------------------------------------------------

#: The order code's alphabet: no look-alikes (no I, O, 0, 1).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

#: Something shaped like an order code: two groups of four from the alphabet.
CODE = re.compile(r"\b[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}\b")


def format_code(digest: bytes) -> str:
    """An order code from (at least) 8 bytes of a secret digest: ``XXXX-XXXX``."""
    chars = [CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:8]]
    return "".join(chars[:4]) + "-" + "".join(chars[4:])
