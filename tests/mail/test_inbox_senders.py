"""From: tricks against the inbox: an ambiguous sender is no player (issue 8, item 8).

The message is kept byte for byte, refused with a status that says why, answered to nobody,
and no order of it reaches the order book.
"""

from __future__ import annotations

import pytest
from corpus_game import make_game7

from pbem import inbox

TRICKS = {
    "address as the display name": "From: bruno@example.org <evil@attacker.example>\n",
    "two at signs": "From: bruno@example.org@attacker.example\n",
    "a group": "From: Friends: bruno@example.org, evil@attacker.example;\n",
    "two From headers": "From: bruno@example.org\nFrom: evil@attacker.example\n",
    # Issue 18, item 8: the mailbox is at attacker.example, whatever its local part shows.
    "a quoted local part in brackets": 'From: Bruno <"bruno@example.org"@attacker.example>\n',
    "a quoted local part": 'From: "bruno@example.org"@attacker.example\n',
    "a quoted local part with a space": 'From: "bruno@example.org "@attacker.example\n',
    "a comment before a second domain": "From: bruno@example.org(x)@attacker.example\n",
    "a quoted local part and a name": 'From: "Bruno Keller" <"bruno@example.org"@mallory.test>\n',
}


def message(from_lines: str, n: int) -> bytes:
    return (
        f"{from_lines}To: Rita <gm@example.org>\nSubject: Re: [game7] Turn 3\n"
        f"Message-ID: <trick-{n}@attacker.example>\n\nHand 1: Guard on Arthur, guess Princess\n"
        "Hand 2: Guard on Arthur, guess Princess\n"
    ).encode()


@pytest.mark.parametrize("from_lines", TRICKS.values(), ids=TRICKS.keys())
def test_an_ambiguous_sender_is_kept_and_refused(tmp_path, from_lines):
    game = make_game7(tmp_path)
    raw = message(from_lines, 1)
    with inbox.Mailroom(game) as room:
        outcome = room.receive(raw)
    assert outcome.status == inbox.AMBIGUOUS_SENDER
    assert outcome.player is None and outcome.ack is None  # nobody is answered
    assert "From" in outcome.detail and "kept" in outcome.detail
    assert (game.folder / outcome.file).read_bytes() == raw
    assert game.order_book().mine("Bruno") == {}
    assert any(r["status"] == inbox.AMBIGUOUS_SENDER for r in inbox.refused_messages(game))


def test_the_real_player_is_still_heard(tmp_path):
    game = make_game7(tmp_path)
    with inbox.Mailroom(game) as room:
        outcome = room.receive(message("From: Bruno Keller <bruno@example.org>\n", 2))
    assert outcome.status == inbox.RECORDED and outcome.player == "Bruno"


@pytest.mark.parametrize("from_lines", TRICKS.values(), ids=TRICKS.keys())
def test_an_unreadable_message_from_an_ambiguous_sender_answers_nobody(tmp_path, from_lines):
    game = make_game7(tmp_path)
    raw = (f"{from_lines}Subject: Re: [game7] Turn 3\nMessage-ID: <empty@attacker.example>\n\n \n").encode()
    with inbox.Mailroom(game) as room:
        outcome = room.receive(raw)
    assert outcome.status == inbox.UNREADABLE
    assert outcome.player is None and outcome.ack is None
