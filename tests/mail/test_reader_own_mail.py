"""Know your own words: replies to the real turn mails of a campaign.

The tool knows what it sent.  A player who answers the turn mail from a client that does not
quote (Outlook, many phones) leaves the turn mail unquoted below their orders, under a header
block in their language, or under nothing at all; its lines look like orders ("Hand 10:
Handmaid, Countess <- your turn").  The inbox looks up the mail being answered (In-Reply-To,
References, or the subject's turn) and the reader drops every run of lines that repeats it:
the player's orders stand, and none of the turn mail's lines is read as an order.
"""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default

import pytest
from corpus_game import make_game7

from pbem import inbox
from pbem.reader import read_mail

PLAYER, ADDRESS = "Chloé", "chloe@example.fr"

# Header blocks clients write above an unquoted original; the Turkish one is in no table of
# the reader's: only knowing its own words saves the orders under it.
HEADER_BLOCKS = {
    "ru-outlook": "От: Rita <gm@example.org>\nОтправлено: 1 декабря 2026 г. 10:00\nКому: Chloé\n"
    "Тема: {subject}",
    "de-outlook": "Von: Rita <gm@example.org>\nGesendet: Dienstag, 1. Dezember 2026 10:00\nAn: Chloé\n"
    "Betreff: {subject}",
    "zh-outlook": "发件人: Rita <gm@example.org>\n发送时间: 2026年12月1日 10:00\n收件人: Chloé\n"
    "主题: {subject}",
    "tr-outlook (no table knows it)": "Kimden: Rita <gm@example.org>\nGönderildi: 1 Aralık 2026 Salı 10:00\n"
    "Kime: Chloé\nKonu: {subject}",
    "no header at all": "",
}


@pytest.fixture
def game(tmp_path):
    """game7 at turn 3, its turn mails published to the outbox as `pbem send` does."""
    campaign = make_game7(tmp_path)
    campaign.publish_drafts()
    return campaign


def turn_mail(campaign) -> tuple[str, str, str]:
    """Chloé's private turn-3 mail: its Message-ID, subject and text as her client shows it."""
    entry_id, entry = next(
        (i, e)
        for i, e in campaign_outbox(campaign).items()
        if e["kind"] == "private" and e["player"] == PLAYER and e["turn"] == 3
    )
    raw = (campaign.folder / "turns" / "turn-002" / "mail" / f"{entry['draft']}.eml").read_bytes()
    msg = message_from_bytes(raw, policy=default)
    text = msg.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")
    return entry_id, str(msg["Subject"]), text


def campaign_outbox(campaign) -> dict:
    from pbem.outbox import Outbox

    return Outbox(campaign.folder).known_ids()


def my_orders(campaign) -> dict[int, str]:
    """An order of Chloé's for each hand where she plays this turn: the first card she holds."""
    position = campaign.position()
    seat = position.players.index(PLAYER)
    return {
        h.number: h.cards[seat][0].title
        for h in position.game.hands
        if not h.ended and h.alive[seat] and h.active == seat
    }


def reply(message_id: str | None, subject: str, body: str) -> bytes:
    head = (
        f"From: Chloé Martin <{ADDRESS}>\nTo: Rita <gm@example.org>\nSubject: RE: {subject}\n"
        "Message-ID: <reply-own-words@example.fr>\n"
    )
    if message_id:
        head += f"In-Reply-To: {message_id}\nReferences: {message_id}\n"
    head += "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
    return (head + body).encode("utf-8")


@pytest.mark.parametrize("header", HEADER_BLOCKS.values(), ids=HEADER_BLOCKS.keys())
@pytest.mark.parametrize("threaded", [True, False], ids=["in-reply-to", "subject only"])
def test_orders_above_the_unquoted_turn_mail_stand_alone(game, header, threaded):
    message_id, subject, text = turn_mail(game)
    orders = my_orders(game)
    assert len(orders) >= 2 and "<- your turn" in text and "Hand 1:" in text  # the trap is set
    written = "\n".join(f"Hand {hand}: {card}" for hand, card in orders.items())
    body = f"{written}\n\n{header.format(subject=subject)}\n\n{text}"
    with inbox.Mailroom(game) as room:
        outcome = room.receive(reply(message_id if threaded else None, subject, body))
    assert outcome.status == inbox.RECORDED, outcome.detail
    read = [(c.hand, c.written.card.title if c.written.card else None) for c in outcome.receipt.checked]
    assert read == list(orders.items())  # the player's orders, and nothing of the turn mail
    on_file = game.order_book().mine(PLAYER)
    assert {hand: order["card"] for hand, order in on_file.items()} == orders


def test_without_its_own_words_the_reader_would_read_the_turn_mail(game):
    """The defence is what saves the orders above: the bare reader reads the turn mail's lines."""
    message_id, subject, text = turn_mail(game)
    raw = reply(message_id, subject, f"Hand 1: Guard\n\n{text}")
    assert "<- your turn" in read_mail(raw).own_text
    assert read_mail(raw, answering=[text]).own_text == "Hand 1: Guard"


def test_a_filled_line_of_the_unquoted_form_is_still_read(game):
    """Outlook quotes nothing: a player may type the order into the form line itself."""
    message_id, subject, text = turn_mail(game)
    hand, card = next(iter(my_orders(game).items()))
    assert f"\nHand {hand}:\n" in text
    filled = text.replace(f"\nHand {hand}:\n", f"\nHand {hand}: {card}\n")
    body = "Von: Rita <gm@example.org>\nGesendet: Dienstag\nAn: Chloé\nBetreff: x\n\n" + filled
    with inbox.Mailroom(game) as room:
        outcome = room.receive(reply(message_id, subject, body))
    assert [(c.hand, c.written.card.title) for c in outcome.receipt.checked] == [(hand, card)]


def test_a_single_short_line_that_happens_to_match_the_sent_mail_is_kept():
    """Only a run (two lines or more, or one long one) is the original: one order the player
    wrote that equals one line of the sent mail is still theirs."""
    sent = "Your orders on file:\nHand 3: Baron on Bruno\nHand 7: (none)\n"
    assert read_mail(reply(None, "x", "Hand 3: Baron on Bruno\n"), answering=[sent]).own_text == (
        "Hand 3: Baron on Bruno"
    )
    both = "Hand 3: Baron on Bruno\nHand 7: (none)\n"
    read = read_mail(reply(None, "x", "Hand 7: Prince\n\n" + both), answering=[sent])
    assert read.own_text == "Hand 7: Prince"


def test_a_rule_line_does_not_make_a_run_of_one_repeated_order():
    """Found by the property test: a rule under a single repeated order made a 'run' of two."""
    sent = "Hand 3: Baron on Bruno\n-----\n"
    read = read_mail(reply(None, "x", "Hand 3: Baron on Bruno\n-----\n"), answering=[sent])
    assert read.own_text == "Hand 3: Baron on Bruno"


def test_lines_found_in_the_sent_mail_but_not_in_its_order_are_no_run():
    """A run repeats the sent mail in its order: two of the player's lines that each occur
    somewhere in it, the other way round, are still the player's."""
    sent = "Regards,\nRita\n\nYour orders on file:\nHand 3: Baron on Bruno\n"
    read = read_mail(reply(None, "x", "Hand 3: Baron on Bruno\nRegards,\n"), answering=[sent])
    assert read.own_text.startswith("Hand 3: Baron on Bruno")
    body = "Hi\n\nYour orders on file:\nHand 3: Baron on Bruno\n"
    in_order = read_mail(reply(None, "x", body), answering=[sent])
    assert in_order.own_text == "Hi"
