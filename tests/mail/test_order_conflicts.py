"""Two different orders for one hand in one message: a conflict, not a replacement.

A reply's new words come first; a later line for the same hand is as likely a quoted or
pasted original as a change of mind.  The first order stands, the later one is refused with a
reason, and the acknowledgement says so.  Orders from separate messages still replace each
other (RULES.md 3): a new message is a new decision.
"""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default

import pytest
from corpus_game import make_game7

from pbem import inbox

PLAYER, ADDRESS = "Chloé", "chloe@example.fr"


@pytest.fixture
def game(tmp_path):
    return make_game7(tmp_path)


def two_playable_cards(campaign) -> tuple[int, str, str]:
    """A hand where Chloé plays this turn and may play either of her two cards."""
    position = campaign.position()
    seat = position.players.index(PLAYER)
    for hand in position.game.hands:
        cards = [card.title for card in hand.cards[seat]] if not hand.ended and hand.alive[seat] else []
        if hand.active == seat and len(set(cards)) == 2 and "Countess" not in cards:
            return hand.number, cards[0], cards[1]
    raise AssertionError("game7 at turn 3 gives Chloé such a hand")


def mail(body: str, n: int = 1) -> bytes:
    return (
        f"From: Chloé Martin <{ADDRESS}>\nTo: Rita <gm@example.org>\nSubject: Re: [game7] Turn 3\n"
        f"Message-ID: <conflict-{n}@example.fr>\nContent-Type: text/plain; charset=utf-8\n"
        f"Content-Transfer-Encoding: 8bit\n\n{body}\n"
    ).encode()


def ack_text(campaign, draft_id: str) -> str:
    raw = (campaign.folder / "mail" / "outbox" / f"{draft_id}.eml").read_bytes()
    return message_from_bytes(raw, policy=default).get_content()


def test_a_later_line_of_the_same_message_never_replaces_the_first_order(game):
    hand, first, second = two_playable_cards(game)
    with inbox.Mailroom(game) as room:
        outcome = room.receive(mail(f"Hand {hand}: {first}\nHand {hand}: {second}"))
    statuses = [(c.hand, c.written.card.title, c.status) for c in outcome.receipt.checked]
    assert statuses[0][:2] == (hand, first) and statuses[0][2] != "rejected"
    assert statuses[1] == (hand, second, "rejected")
    assert f'another order ("Hand {hand}: {first}' in outcome.receipt.checked[1].reason
    assert game.order_book().mine(PLAYER)[hand]["card"] == first
    told = " ".join(ack_text(game, outcome.ack).split())
    assert f"this message already gives hand {hand} another order" in told
    assert "that first one stands" in told


def test_the_same_order_twice_in_one_message_is_one_order(game):
    hand, first, _ = two_playable_cards(game)
    with inbox.Mailroom(game) as room:
        outcome = room.receive(mail(f"Hand {hand}: {first}\n\nhand {hand}:   {first}"))
    assert [(c.hand, c.written.card.title) for c in outcome.receipt.checked] == [(hand, first)]
    assert not outcome.receipt.any_rejected


def test_a_new_message_still_replaces_the_order_on_file(game):
    hand, first, second = two_playable_cards(game)
    with inbox.Mailroom(game) as room:
        room.receive(mail(f"Hand {hand}: {first}", 1))
        outcome = room.receive(mail(f"Hand {hand}: {second}", 2))
    assert not outcome.receipt.any_rejected
    assert game.order_book().mine(PLAYER)[hand]["card"] == second
