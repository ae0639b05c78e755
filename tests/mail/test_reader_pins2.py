"""What mutation testing of pbem/reader/ showed the reader's tests missed (issue 21).

Each test pins a rule whose change no other test noticed (README "Mutation testing"): the
last-resort reading of a From header the parser cannot read (`headers._guess_sender`),
format=flowed (`text.unflow`), and the header objects `policy._default_header` builds.
"""

from __future__ import annotations

import email.policy
import re

import pytest

from pbem.reader.headers import _guess_sender
from pbem.reader.policy import _default_header
from pbem.reader.text import unflow

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
    from pbem.reader.quotes import _alternation

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
    # (a length in rem is read by the em branch, which cannot read "40r": None, a bug left open)
    [("600px", 600.0), ("40em", 640.0), ("2.5px", 2.5), ("wide", None), ("xpx", None)],
)
def test_a_media_query_length_is_read_in_pixels(word, px):
    from pbem.reader.visible import _length_text

    assert _length_text(word) == px
