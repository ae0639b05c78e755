"""What a player reads back: acknowledgements and reminders (issue 11, items 2, 4, 5, 7, 8, 9).

Messages go in through the real inbox (``pbem order --mail``'s path); the
drafts are read back from the outbox as the player would receive them.
"""

from __future__ import annotations

import re
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from pbem import inbox
from pbem.campaign import Campaign
from pbem.tick import remind

YAML = """\
title: Words game
gm: {name: Rita, email: gm@example.org}
players:
  - {name: Arthur, email: arthur@example.org}
  - {name: Bruno, email: bruno@example.org}
  - {name: Charles, email: charles@example.org}
seed: 5
decks:
  1: %s
"""


def deck(*top: str) -> list[str]:
    rest = (
        ["Guard"] * 5
        + ["Spy"] * 2
        + ["Baron"] * 2
        + ["Handmaid"] * 2
        + ["Prince"] * 2
        + ["King", "Countess", "Princess"]
    )
    for card in top:
        rest.remove(card)
    return list(top) + rest


def make(tmp_path: Path) -> Campaign:
    """Hand 1: Arthur (first) holds Handmaid and Spy, Bruno a Guard, Charles a Baron."""
    folder = tmp_path / "words"
    folder.mkdir()
    top = deck("Guard", "Handmaid", "Guard", "Baron", "Spy")
    (folder / "campaign.yaml").write_text(YAML % top, encoding="utf-8")
    campaign = Campaign(folder)
    campaign.start()
    return campaign


def send(
    campaign: Campaign,
    sender: str,
    body: str,
    subject: str = "Re: [words] Turn 1: your cards and orders",
    name: str = "m",
    attached: tuple[bytes, str, str] | None = None,  # (bytes, "maintype/subtype", filename)
) -> tuple[inbox.Outcome, EmailMessage]:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "gm@example.org"
    msg["Subject"] = subject
    msg["Message-ID"] = f"<{name}-{abs(hash(body))}@example.org>"
    msg.set_content(body)
    if attached is not None:
        data, ctype, filename = attached
        maintype, subtype = ctype.split("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    path = campaign.folder.parent / f"{name}.eml"
    path.write_bytes(bytes(msg))
    outcome = inbox.receive_file(campaign, path)
    draft = campaign.folder / "mail" / "outbox" / f"{outcome.ack}.eml"
    return outcome, message_from_bytes(draft.read_bytes(), policy=default)


def test_completed_orders_are_marked_in_the_subject(tmp_path):
    campaign = make(tmp_path)
    _, ack = send(campaign, "arthur@example.org", "Hand 1: Spy")  # no target: completed
    assert ack["Subject"].startswith("[INCOMPLETE] [words] Turn 1: orders received, some to be completed")
    _, ack = send(campaign, "arthur@example.org", "Hand 1: Spy on Bruno", name="m2")
    assert ack["Subject"] == "[words] Turn 1: orders received"
    _, ack = send(campaign, "arthur@example.org", "Hand 1: King on Bruno", name="m3")
    assert ack["Subject"].startswith("[ERROR] ")


def test_a_misspelt_name_gets_a_suggestion_in_the_ack(tmp_path):
    campaign = make(tmp_path)
    _, ack = send(campaign, "arthur@example.org", "Hand 1: Spy on Brunoo")
    body = ack.get_content()
    assert '"Brunoo" names no player (did you mean Bruno?)' in body


def test_an_order_for_an_old_turn_says_which_mail_to_answer(tmp_path):
    campaign = make(tmp_path)
    campaign.resolve(force=True)
    outcome, ack = send(campaign, "bruno@example.org", "Hand 1: Guard on Arthur, guess Prince")
    body = ack.get_content()
    assert "about your message for turn 2" not in body
    assert "your message answers the mail of turn 1" in body
    assert "reply to that one with your orders for turn 2" in body
    assert "[words] Turn 2: your cards and orders" in body
    assert outcome.receipt.checked[0].status == "rejected"
    assert "reply to the Turn 2 mail" in outcome.receipt.checked[0].reason


def test_rules_line_sends_the_card_reference(tmp_path):
    campaign = make(tmp_path)
    _, ack = send(campaign, "bruno@example.org", "RULES")
    body = ack.get_content()
    assert "The cards (RULES)" in body
    assert re.search(r"^  8 Princess +x1  if you play or discard her", body, re.M)
    assert "I found no order" not in body
    _, ack = send(campaign, "bruno@example.org", "Hand 1: Guard", name="m2")
    assert "The cards (RULES)" not in ack.get_content()


def test_a_rejected_order_does_not_read_as_no_orders_received(tmp_path):
    """Arthur's only order is rejected; the report says "no valid order"."""
    campaign = make(tmp_path)
    send(campaign, "arthur@example.org", "Hand 1: King on Bruno")
    result = campaign.resolve(force=True)
    hand1 = result.public_report.split("\nHand 1")[1].split("\nHand 2")[0]
    assert "[no valid order: played for Arthur by the default rules]" in hand1
    assert "no orders received" not in result.public_report


def test_a_misspelt_target_is_said_to_be_one_in_the_report(tmp_path):
    campaign = make(tmp_path)
    campaign.record_orders("Arthur", "Hand 1: Spy on Brunoo")
    result = campaign.resolve(force=True)
    hand1 = result.public_report.split("\nHand 1")[1].split("\nHand 2")[0]
    assert "a random player, because the name written is not a player's" in hand1
    assert "Brunoo" not in result.public_report  # a player's words are never quoted to everyone
    assert "none given" not in result.public_report


def test_a_reminder_suggests_only_cards_held_and_agrees_with_the_count(tmp_path):
    campaign = make(tmp_path)
    pos = campaign.position()
    awaited = pos.game.awaited()
    drafted = remind(campaign)
    for draft in drafted:
        msg = message_from_bytes(
            (campaign.folder / "mail" / "outbox" / f"{draft}.eml").read_bytes(), policy=default
        )
        body = msg.get_content()
        name = msg["To"].addresses[0].display_name
        seat = pos.players.index(name)
        hands = awaited[seat]
        for h in hands:
            held = {c.title for c in pos.game.hand(h).cards[seat]}
            shown = set(re.findall(rf'^    (\w+): +"Hand {h}: ', body, re.M))
            assert shown and shown <= held, (h, held, shown, body)
        if len(hands) == 1:
            assert "that hand will be played" in body and "those hands" not in body
            assert f"missing for hand {hands[0]}." in body
        else:
            assert "those hands will be played" in body
    arthur = next(d for d in drafted if f"-seat{pos.players.index('Arthur') + 1}-" in d)
    body = message_from_bytes(
        (campaign.folder / "mail" / "outbox" / f"{arthur}.eml").read_bytes(), policy=default
    ).get_content()
    assert 'Handmaid: "Hand 1: Handmaid"' in body and 'Spy:      "Hand 1: Spy on <player>"' in body
    assert "  In hand 1, players you may name: Bruno or Charles" in body
    assert "Guard on ..., guess Prince" not in body


def test_an_ack_suggests_plays_from_the_cards_held_for_the_hands_missing(tmp_path):
    campaign = make(tmp_path)
    _, ack = send(campaign, "arthur@example.org", "I will think about it")
    body = ack.get_content()
    assert "Guard on Bruno, guess Prince" not in body  # the old fixed example, a card Arthur may not hold
    assert 'Handmaid: "Hand 1: Handmaid"' in body and 'Spy:      "Hand 1: Spy on <player>"' in body
    pos = campaign.position()
    for h in pos.game.awaited()[0]:
        held = {c.title for c in pos.game.hand(h).cards[0]}
        shown = set(re.findall(rf'^    (\w+): +"Hand {h}: ', body, re.M))
        assert shown and shown <= held, (h, held, shown)


def test_an_order_that_hangs_on_a_condition_is_refused_in_the_ack_with_what_to_do(tmp_path):
    campaign = make(tmp_path)
    outcome, ack = send(
        campaign, "arthur@example.org", "Hand 1: if Bruno is protected, Spy on Charles, else Spy on Bruno"
    )
    body = " ".join(ack.get_content().split())
    assert ack["Subject"].startswith("[ERROR] ")
    assert 'hangs on a condition ("if")' in body and "Write the one play you want for hand 1" in body
    assert outcome.receipt is not None and not outcome.receipt.on_file  # nothing played on a guess


# -- an order written in the subject (a phone's fresh mail with an empty body) ---------------------


def test_an_order_written_only_in_the_subject_is_read(tmp_path):
    campaign = make(tmp_path)
    outcome, ack = send(campaign, "arthur@example.org", "Sent from my iPhone", subject="H1 Spy on Bruno")
    assert outcome.receipt is not None
    assert [c.written.canonical() for c in outcome.receipt.checked] == ["Hand 1: Spy on Bruno"]
    assert ack["Subject"] == "[words] Turn 1: orders received"
    _, ack = send(campaign, "arthur@example.org", "-- \nArthur", subject="Fwd: Hand 1: Handmaid", name="m2")
    assert "Hand 1: Handmaid" in ack.get_content() and "no order could be read" not in ack.get_content()


def test_the_body_s_orders_stand_over_the_subject_s(tmp_path):
    campaign = make(tmp_path)
    outcome, _ = send(campaign, "arthur@example.org", "Hand 1: Handmaid", subject="H1 Spy on Bruno")
    assert outcome.receipt is not None
    assert [c.written.canonical() for c in outcome.receipt.checked] == ["Hand 1: Handmaid"]


def test_a_subject_that_names_a_hand_without_a_card_is_no_order(tmp_path):
    campaign = make(tmp_path)
    outcome, ack = send(
        campaign, "arthur@example.org", "Can I play the Spy on myself there?", subject="Hand 1 question"
    )
    assert outcome.receipt is not None and not outcome.receipt.checked
    assert "no card named" not in ack.get_content()


def test_a_copy_of_the_form_with_blank_lines_above_the_quoted_mail_invents_no_order(tmp_path):
    """Seen in play: "Hand 13:" left blank above "On Tue, 1 Dec 2026 ..., Rita wrote:" took
    the attribution as its answer, and "1 Dec" was read as a Guard (rank 1)."""
    campaign = make(tmp_path)
    sent = campaign.folder / "mail" / "outbox" / "t000-private-seat1.eml"
    turn_mail = message_from_bytes(sent.read_bytes(), policy=default).get_content()
    quoted = "\n".join(f"> {line}" if line.strip() else ">" for line in turn_mail.splitlines())
    body = (
        "Orders for turn 1:\nHand 1: Spy on Bruno\nHand 4:\nHand 7: Handmaid\nHand 10:\nHand 13:\n\n"
        f"On Tue, 1 Dec 2026 at 10:00, Rita <gm@example.org> wrote:\n{quoted}\n"
    )
    outcome, _ = send(campaign, "arthur@example.org", body)
    assert outcome.receipt is not None
    assert sorted(c.written.canonical() for c in outcome.receipt.checked) == [
        "Hand 1: Spy on Bruno",
        "Hand 7: Handmaid",
    ]


# -- orders in an attached file --------------------------------------------------------------------
# "Orders attached." with the orders in orders.txt was answered "I found no order in your message"
# and nothing more: the player could not tell that attached files are not read (found writing mail
# as players do). The acknowledgement says so, never naming the file (its name is the sender's
# words, and the sender may not be the player); the GM's line says it too.


def test_orders_in_an_attached_file_are_not_read_and_the_ack_says_why(tmp_path):
    campaign = make(tmp_path)
    attached = (b"Hand 1: Spy on Bruno\n", "text/plain", "orders-Hand1.txt")
    outcome, ack = send(campaign, "arthur@example.org", "Orders attached.", attached=attached)
    body = " ".join(ack.get_content().split())
    assert "I found no order in your message" in body
    assert "A file attached to your message is not read: write your orders in the message itself" in body
    assert "orders-Hand1" not in body  # the sender's words stay out of the GM's mail
    assert "a file attached to it was not read" in outcome.detail
    assert outcome.receipt is not None and not outcome.receipt.on_file


def test_a_picture_beside_a_message_without_orders_is_not_mentioned(tmp_path):
    campaign = make(tmp_path)
    outcome, ack = send(
        campaign, "arthur@example.org", "Thanks!", attached=(b"\x89PNG\r\n", "image/png", "a.png")
    )
    assert "attached" not in ack.get_content() and "attached" not in outcome.detail


def test_an_attachment_beside_orders_read_is_not_mentioned(tmp_path):
    campaign = make(tmp_path)
    attached = (b"%PDF-1.4\n", "application/pdf", "r.pdf")
    outcome, ack = send(campaign, "arthur@example.org", "Hand 1: Spy on Bruno", attached=attached)
    assert "attached" not in ack.get_content() and outcome.receipt.on_file
