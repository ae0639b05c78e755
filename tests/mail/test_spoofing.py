"""Issue 8, spoofing and leaks: what a hostile player (or a stranger writing
from a player's address) can make the inbox do. Each test is the attack.

No servers: the messages go straight into the campaign's Mailroom.
"""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import inbox
from pbem.campaign import Campaign, order_code
from pbem.cli import main

YAML = """\
title: Spoof game
gm: {name: Rita, email: gm@example.org}
players:
  - {name: Arthur, email: arthur@example.org}
  - {name: Bruno, email: bruno@example.org}
  - {name: Chloé, email: chloe@example.fr}
  - {name: Dominik, email: dominik@example.de}
seed: 5b1c7e0d9a3f44e2b8c61d07a5e9f3c2
"""
ADDRESS = {"Arthur": "arthur@example.org", "Bruno": "bruno@example.org", "Chloé": "chloe@example.fr",
           "Dominik": "dominik@example.de"}


@pytest.fixture
def game(tmp_path) -> Campaign:
    folder = tmp_path / "spoof"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(YAML, encoding="utf-8")
    campaign = Campaign(folder)
    campaign.start()
    return campaign


def code(campaign: Campaign, name: str) -> str:
    return order_code(campaign.position().seed, name)


_count = 0


def mail(sender: str, body: str, *, subject: str = "[spoof] Turn 1") -> bytes:
    global _count
    _count += 1
    return (f"From: {sender}\r\nTo: gm@example.org\r\nSubject: {subject}\r\n"
            f"Message-ID: <m{_count}@sender.example>\r\nDate: Mon, 30 Nov 2026 10:00:00 +0000\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n").encode("utf-8")


def receive(campaign: Campaign, *raws: bytes) -> list[inbox.Outcome]:
    with inbox.Mailroom(campaign) as room:
        return [room.receive(raw, source="test") for raw in raws]


def drafts(campaign: Campaign) -> dict[str, object]:
    """Every mail the tool drafted: draft id -> parsed message."""
    folder = campaign.folder / "mail" / "outbox"
    return {p.stem: message_from_bytes(p.read_bytes(), policy=default_policy) for p in folder.glob("*.eml")}


def to_of(msg) -> str:
    return msg["To"].addresses[0].addr_spec


def body_of(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()


def gm_output(campaign: Campaign) -> str:
    """What the GM's commands print about the campaign (status, in text and JSON)."""
    runner = CliRunner()
    out = ""
    for args in (["status", str(campaign.folder)], ["status", "--json", str(campaign.folder)]):
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
        out += result.output
    return out


# -- 8.6: a forgery warning never mails the forged code ---------------------------------------------


def _one_off(text: str) -> str:
    """The code with one character changed (still in the code alphabet)."""
    last = text[-1]
    return text[:-1] + ("A" if last != "A" else "B")


@pytest.mark.parametrize("how", ["exact", "one character off", "lower case"])
def test_a_forgery_warning_never_mails_the_forged_code(game, how):
    chloe = code(game, "Chloé")
    carried = {"exact": chloe, "one character off": _one_off(chloe), "lower case": chloe.lower()}[how]
    (outcome,) = receive(game, mail(ADDRESS["Bruno"], f"Code: {carried}\nHand 2: Guard on Arthur, guess Spy"))
    assert outcome.status == inbox.CODE_MISMATCH, outcome.detail
    assert outcome.ack
    # Every mail the tool drafted: only Chloé's own mails may hold her code, in any spelling.
    for draft_id, msg in drafts(game).items():
        if to_of(msg) == ADDRESS["Chloé"]:
            continue
        text = body_of(msg) + str(msg["Subject"])
        for spelled in {chloe, carried, carried.upper()}:
            assert spelled.upper() not in text.upper(), (draft_id, text)
    warning = body_of(drafts(game)[outcome.ack])
    assert "not yours" in warning and to_of(drafts(game)[outcome.ack]) == ADDRESS["Bruno"]
    # Nor in what the tool prints or records about the message.
    for text in (outcome.detail, outcome.summary(), gm_output(game),
                 (game.folder / inbox.INDEX).read_text(encoding="utf-8")):
        assert chloe not in text.upper() and carried.upper() not in text.upper(), text
    # The GM still learns whose code it was.
    assert "Chloé" in outcome.detail


def test_a_code_quoted_in_an_accepted_message_is_not_echoed(game):
    """Bruno's own code makes the message his; another player's code in it (in
    a line that is not an order) never comes back in the acknowledgement."""
    chloe = code(game, "Chloé")
    for body in (f"{code(game, 'Bruno')}\nChloé told me her code is {chloe}, funny",
                 f"{code(game, 'Bruno')}\nHand 2: Guard on {chloe}\nHand 6: Guard on {chloe}\n"
                 f"Hand 10: Guard on {chloe}"):
        (outcome,) = receive(game, mail(ADDRESS["Bruno"], body))
        assert outcome.status == inbox.RECORDED
        ack = body_of(drafts(game)[outcome.ack])
        assert chloe not in ack.upper(), ack


# -- 8.7: ordinary words are not codes -------------------------------------------------------------


WORDS = ["well-kept", "self-made", "WELL-KEPT", "Self-Made", "bear-hunt", "part-time"]


@pytest.mark.parametrize("word", WORDS)
def test_a_hyphenated_word_is_not_an_order_code(game, word):
    body = f"A {word} plan this time.\nHand 2: Countess"
    (outcome,) = receive(game, mail(ADDRESS["Bruno"], body))
    assert outcome.status == inbox.RECORDED, outcome.detail
    ack = body_of(drafts(game)[outcome.ack])
    assert "writing in your name" not in ack and "not yours" not in ack


@pytest.mark.parametrize("word", WORDS)
def test_with_require_code_a_word_is_no_code_but_the_own_code_is(game, word):
    text = (game.folder / "campaign.yaml").read_text(encoding="utf-8") + "require_code: true\n"
    (game.folder / "campaign.yaml").write_text(text, encoding="utf-8")
    game = Campaign(game.folder)
    missing, mine = receive(game, mail(ADDRESS["Bruno"], f"A {word} plan.\nHand 2: Countess"),
                            mail(ADDRESS["Bruno"], f"A {word} plan. {code(game, 'Bruno')}\nHand 2: Countess"))
    assert missing.status == inbox.CODE_MISSING, missing.detail
    assert mine.status == inbox.RECORDED, mine.detail


def test_a_mistyped_own_code_is_refused_without_echo(game):
    bruno = code(game, "Bruno")
    swapped = bruno[:5] + bruno[6] + bruno[5] + bruno[7:]  # two neighbours swapped
    assert swapped != bruno
    for written in (swapped, _one_off(bruno)):
        (outcome,) = receive(game, mail(ADDRESS["Bruno"], f"Code {written}\nHand 2: Countess"))
        assert outcome.status == inbox.CODE_MISMATCH, written
        ack = body_of(drafts(game)[outcome.ack])
        assert written not in ack and "mistyped" in ack, ack
        assert "writing in your name" not in ack


def test_code_grammar_keeps_only_the_campaigns_codes():
    from pbem.grammar import codes_in

    codes = ["K7QM-3XTP", "B4HN-8RWC"]
    text = "well-kept self-made WELL-KEPT k7qm-3xtp B4HN-8WRC ZZZZ-ZZZZ B4HN-8RWCX K7QM-3XTQ"
    found = [(c.written, c.code, c.exact) for c in codes_in(text, codes)]
    assert found == [("k7qm-3xtp", "K7QM-3XTP", True), ("B4HN-8WRC", "B4HN-8RWC", False),
                     ("K7QM-3XTQ", "K7QM-3XTP", False)]
