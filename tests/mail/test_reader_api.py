"""Tests of pbem.reader: bad input, fuzzing, and the shared corpus of real-client messages.

Hand-written messages pin each rule (every test names what breaks if the rule breaks).
"""

from __future__ import annotations

import base64
import random
import re

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from reader_kit import (
    CORPUS,
    FUZZ,
    SEEDS,
    TURN_HTML,
    TURN_MAIL,
    html_message,
    message,
    multipart,
    multipart_message,
    mutated,
    part,
    quote,
)

from pbem.reader import ReadMail, UnreadableMail, api, read_mail

# --------------------------------------------------------------------------------------------
# Bad input and speed
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\x01\x02\x03",
        b"Content-Type: text/plain\n\n" + bytes(range(256)) * 4,
        b"Content-Type: multipart/mixed\n\n",
        b"Content-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n",
        b"Content-Type: text/plain\n\n\x00\x00\x00\n",
    ],
)
def test_bad_input_raises_only_unreadable_mail(raw):
    with pytest.raises(UnreadableMail) as info:
        read_mail(raw)
    assert str(info.value)


def test_non_bytes_input_is_unreadable():
    with pytest.raises(UnreadableMail):
        read_mail("Subject: x\n\nHand 3: Baron")  # type: ignore[arg-type]


def test_deeply_nested_multiparts_do_not_crash():
    entity = part("Hand 3: Baron\n")
    for level in range(60):
        entity = multipart("mixed", [entity], boundary=f"n{level}")
    try:
        read = read_mail(multipart_message(entity))
    except UnreadableMail:
        return
    assert read.defects


def test_deeply_nested_blockquotes_do_not_crash():
    markup = "<div>Hand 3: Baron</div>" + "<blockquote>" * 400 + "deep" + "</blockquote>" * 400
    read = read_mail(html_message(markup))
    assert read.own_text == "Hand 3: Baron"


def test_a_few_megabytes_of_plain_text():
    body = "Hand 3: Baron on Bruno\n\n" + (quote(TURN_MAIL) + "\n") * 6000  # about 3 MB
    assert len(body) > 2_500_000
    read = read_mail(message(body, cte="quoted-printable"))
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_a_few_megabytes_of_html_with_an_attachment():
    """A long HTML thread (about 1 MB of markup) plus a 2 MB picture: what big replies look like."""
    markup = (
        "<div>Hand 3: Baron on Bruno</div><blockquote>" + f"<div>{TURN_HTML}</div>" * 1500 + "</blockquote>"
    )
    picture = base64.encodebytes(random.Random(1).randbytes(1_500_000)).decode()
    entity = multipart(
        "mixed",
        [
            multipart("related", [part(markup, "text/html; charset=utf-8")], boundary="rel"),
            (
                "Content-Type: image/jpeg; name=p.jpg\nContent-Disposition: attachment; filename=p.jpg\n"
                f"Content-Transfer-Encoding: base64\n\n{picture}"
            ),
        ],
    )
    raw = multipart_message(entity)
    assert len(raw) > 2_500_000
    read = read_mail(raw)
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_a_bomb_of_tiny_parts_reads_the_start():
    """50,000 tiny parts would cost the stdlib parser about 15 s; the reader reads the start."""
    raw = (
        b'From: a@example.org\nContent-Type: multipart/mixed; boundary="b"\n\n'
        + (b"--b\nContent-Type: text/plain\n\nHand 3: Baron\n" * 50_000)
        + b"--b--\n"
    )
    read = read_mail(raw)
    assert read.own_text.startswith("Hand 3: Baron")
    assert any("boundary lines" in d for d in read.defects)


def test_a_few_megabytes_of_one_line():
    body = "Hand 3: " + "x " * 1_500_000 + "\n" + "h3" + " " * 100_000 + "x\n"
    read = read_mail(message(body))
    assert read.own_text.startswith("Hand 3: x x")


# --------------------------------------------------------------------------------------------
# Fuzzing: never anything but UnreadableMail, never slow
# --------------------------------------------------------------------------------------------


def _check(raw: bytes) -> None:
    """The unguarded core must not raise either: the guard in read_mail is only a safety net."""
    try:
        read = api._read(raw)
    except UnreadableMail as exc:
        assert str(exc)
        return
    assert isinstance(read, ReadMail)
    assert isinstance(read.own_text, str) and "\r" not in read.own_text
    assert read.sender == read.sender.lower()
    assert all(isinstance(d, str) for d in read.defects)


@FUZZ
@given(st.binary(max_size=4000))
def test_fuzz_random_bytes(raw):
    _check(raw)


@FUZZ
@given(
    st.lists(
        st.sampled_from(
            [
                b"From: a@b\n",
                b"Subject: [g] Turn 1\n",
                b"Content-Type: multipart/mixed; boundary=x\n",
                b"Content-Type: text/html; charset=utf-8\n",
                b"Content-Transfer-Encoding: base64\n",
                b"Content-Transfer-Encoding: quoted-printable\n",
                b"\n",
                b"--x\n",
                b"--x--\n",
                b"> Hand 3:\n",
                b"Hand 3: Baron\n",
                b"=C3=A9=\n",
                b"SGFuZA==\n",
                b"<blockquote>",
                b"</blockquote>",
                b"-- \n",
                b"On Tue, Rita wrote:\n",
                b"\xff\xfe\x00",
                b'Content-Type: text/plain; charset="\xff"\n',
                b"Content-Type: text/plain; format=flowed; delsp=yes\n",
                b"Hand 3: Guard \n",
            ]
        ),
        max_size=60,
    )
)
def test_fuzz_mime_shaped_fragments(chunks):
    _check(b"".join(chunks))


@FUZZ
@given(mutated())
def test_fuzz_mutated_valid_messages(raw):
    _check(raw)
    try:
        read_mail(raw)
    except UnreadableMail:
        pass


def test_unreadable_mail_is_a_value_error():
    assert issubclass(UnreadableMail, ValueError)


def test_fuzz_seeds_are_readable():
    """The fuzzing starts from messages that read cleanly (else it would fuzz nothing useful)."""
    for raw in SEEDS:
        read = read_mail(raw)
        assert read.own_text and "Examples" not in read.own_text


# --------------------------------------------------------------------------------------------
# The shared corpus of real-client messages (tests/mail/corpus/, built by another engineer)
# --------------------------------------------------------------------------------------------

CARD_ALIASES = {
    "guard": ["guard"],
    "spy": ["spy", "priest", "courtier"],
    "baron": ["baron", "diplomat"],
    "handmaid": ["handmaid", "shugenja"],
    "prince": ["prince", "hatamoto"],
    "king": ["king", "manipulator"],
    "countess": ["countess", "sensei"],
    "princess": ["princess"],
}


def _corpus_expectations() -> list[dict]:
    """The entries of expected.yaml (a list of mappings with a `file` key)."""
    path = CORPUS / "expected.yaml"
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if isinstance(data, dict):  # tolerate a {file: entry} layout too
        data = [dict(entry or {}, file=name) for name, entry in data.items()]
    return [entry for entry in data if isinstance(entry, dict) and entry.get("file")]


CORPUS_CASES = _corpus_expectations()


def _as_list(value) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _order_fields(order) -> tuple[int | None, str | None]:
    """(hand, card) of an expected order, whether written as a mapping or as an order line."""
    if isinstance(order, dict):
        hand = order.get("hand")
        return (int(hand) if hand is not None else None), (order.get("card") or None)
    found = re.search(r"(\d+)\s*:?\s*([A-Za-z]+)", str(order))
    return (int(found.group(1)), found.group(2)) if found else (None, None)


def _hand_on_line(hand: int, line: str) -> bool:
    return re.search(rf"(?<!\d){hand}(?!\d)", line) is not None


def _card_on_line(card: str, line: str) -> bool:
    names = CARD_ALIASES.get(card.lower(), [card.lower()])
    low = line.lower()
    return any(re.search(rf"\b{re.escape(name)}\b", low) for name in names)


def test_corpus_is_there():
    """The corpus test below must not silently parametrize over nothing."""
    assert len(CORPUS_CASES) >= 45


@pytest.mark.parametrize("expected", CORPUS_CASES, ids=[entry["file"] for entry in CORPUS_CASES])
def test_corpus(expected):
    raw = (CORPUS / expected["file"]).read_bytes()
    if expected.get("unreadable"):
        with pytest.raises(UnreadableMail):
            read_mail(raw)
        return
    read = read_mail(raw)
    if "sender" in expected:
        assert read.sender == (expected["sender"] or "").lower()
    if "tag" in expected:
        assert read.tag == expected["tag"]
    if "turn" in expected:
        assert read.turn == expected["turn"]
    for text in _as_list(expected.get("own_text_contains")):
        assert text in read.own_text, f"{text!r} missing from own_text:\n{read.own_text}"
    for text in _as_list(expected.get("own_text_excludes")):
        assert text not in read.own_text, f"{text!r} should not be in own_text:\n{read.own_text}"
    lines = read.own_text.splitlines()
    for order in _as_list(expected.get("orders")):
        hand, card = _order_fields(order)
        assert hand is not None and card is not None, order
        assert any(_hand_on_line(hand, line) and _card_on_line(card, line) for line in lines), (
            f"order hand {hand} {card} not on one line of own_text:\n{read.own_text}"
        )


def test_corpus_38_boundary_is_recovered():
    """What the reader does with corpus file 38 (a lost boundary, recovered)."""
    read = read_mail((CORPUS / "38-broken-missing-boundary.eml").read_bytes())
    assert read.own_text.splitlines()[:3] == [
        "Hand 2: Countess",
        "Hand 6: Spy on Arthur",
        "Hand 10: Baron on Dominik",
    ]
    assert any("guessed" in d for d in read.defects)


def test_the_old_module_name_still_reads_mail():
    """Scripts outside the project import pbem.mailreader.read_mail: the alias is the reader itself."""
    from pbem import mailreader, reader

    assert mailreader.read_mail is reader.read_mail
    assert mailreader.ReadMail is reader.ReadMail
    assert mailreader.UnreadableMail is reader.UnreadableMail
