"""The text of the tool's own mails (`pbem.reader.api.text_of`), read once per content:
the copies of a turn's public report differ only in the headers that name their reader,
and a folder of games quotes each of them in every player's reply."""

from __future__ import annotations

import base64

from hypothesis import given
from hypothesis import strategies as st
from reader_kit import FUZZ, MUTATION_SEEDS, mutated

from pbem.reader import api
from pbem.reader.quotes import _form_intros, _sent_index

REPORT = "g7: turn 3\n\nPlayers, in seating order: Arthur, Bruno, Chloe.\nYour orders:\nHand 1:\nHand 2:\n"


def copy_for(name: str, body: bytes = REPORT.encode(), cte: str = "8bit", crlf: bool = True) -> bytes:
    head = (
        "MIME-Version: 1.0\n"
        'Content-Type: text/plain; charset="utf-8"\n'
        f"Content-Transfer-Encoding: {cte}\n"
        f"From: Rita <gm@example.org>\nTo: {name} <{name.lower()}@example.org>\n"
        "Subject: [g7] Turn 3: what happened\n"
        f"Message-ID: <t003-public-{name}@pbem.invalid>\n"
        " (folded comment)\n"
    )
    raw = head.encode() + b"\n" + body
    return raw.replace(b"\n", b"\r\n") if crlf else raw


def test_the_copies_of_a_report_are_read_once_and_alike():
    api._text_of_content.cache_clear()
    texts = [api.text_of(copy_for(name)) for name in ("Arthur", "Bruno", "Chloe")]
    assert texts[0] == REPORT.strip("\n")
    assert texts[0] is texts[1] is texts[2]  # one text: the quote indexes are built once too
    info = api._text_of_content.cache_info()
    assert (info.misses, info.hits) == (1, 2)


def test_what_the_text_depends_on_is_in_the_key():
    """A copy whose transfer encoding, body or line ends differ is read on its own."""
    plain = api.text_of(copy_for("Arthur"))
    encoded = copy_for("Arthur", base64.encodebytes(b"Hand 1: Baron\n"), cte="base64")
    assert api.text_of(encoded) == "Hand 1: Baron" != plain
    assert api.text_of(copy_for("Arthur", b"Other words\n")) == "Other words"
    assert api.text_of(copy_for("Bruno", crlf=False)) == plain


def test_a_header_block_read_otherwise_by_a_parser_is_read_whole():
    """A lone CR, a line that is no field, a first line folded: the key could split the
    header block where Python's parser does not; such a message is read whole."""
    for raw in (
        b"Subject: a\rContent-Type: text/html\n\n<b>Hand 1: Baron</b>\n",
        b"Subject: a\nnot a field\n\nHand 1: Baron\n",
        b" folded: first\nSubject: a\n\nHand 1: Baron\n",
        b"From someone Tue Dec  1 10:00:00 2026\nSubject: a\n\nHand 1: Baron\n",
        b"Subject: no body at all",
    ):
        assert api._content_of(raw) is None
        assert api.text_of(raw) == api._text_of(raw)


@FUZZ
@given(st.one_of(mutated(), st.sampled_from(MUTATION_SEEDS), st.binary(max_size=300)))
def test_the_text_read_by_content_is_the_text_read_whole(raw):
    assert api.text_of(raw) == api._text_of(raw)


def test_the_quote_indexes_of_several_mails_are_those_of_each_mail():
    """`_sent_index` and `_form_intros` of a player's mails, built from each mail's own
    (shared by every player who got that mail), are those of the mails read together."""
    private = "Your cards:\nHand 1: Guard, Baron\nYour orders:\nHand 1:\nHand 3:\n"
    lines, blob = _sent_index((private, REPORT))
    assert lines["your orders:"] == (2, 7)  # in both mails: the third line of each
    assert blob.startswith("your cards: hand 1: guard, baron your orders:")
    intros, openings = _form_intros((private, REPORT))
    assert intros == {"your orders:": frozenset({1, 2, 3})}
    assert openings == frozenset({"your ord"})
