"""Issue 20, items 5 and 6: the Premium words a player reads, on the page.

Before: a player whose next play was bound by the Sycophant's mark was offered
"Players you may name: Ralf, Sofia, Tomas, ..." with no word of the mark; the
acknowledgement of her order, changed to the marked player, told her to "send
a new order for this hand to choose yourself" and its subject said "to be
completed at random". The Premium card list said the Guard names "a card (not
the Guard)"; a Baroness's acknowledgement said "look at the card of Ralf and
Sofia"; a Guard that found nobody read "no effect, guessing Prince".
"""

from __future__ import annotations

import re
from email import message_from_bytes
from email.policy import default

import kit
import pytest

from pbem import events as ev
from pbem import inbox
from pbem.campaign import Campaign, order_code
from pbem.cards import PREMIUM_DECK, Card
from pbem.reports import Renderer, Table, event_view

SIX = [
    {"name": n, "email": f"{n.lower()}@example.org"}
    for n in ("Arthur", "Bruno", "Charles", "Didier", "Emma", "Fanny")
]
SEED = "a-long-secret-seed-for-the-mark"


def premium_deck(*top: str) -> list[str]:
    rest = [c.title for c in PREMIUM_DECK]
    for name in top:
        rest.remove(name)
    return list(top) + rest


@pytest.fixture
def marked(tmp_path, cli):
    """Hand 1 after turn 1: Arthur's Sycophant marked Charles; Bruno, next to
    play there, holds the Guard and the Baroness."""
    folder = tmp_path / "mark"
    # set aside, Arthur .. Fanny, Arthur's draw, Bruno's draw
    deck = premium_deck(
        "Spy", "Sycophant", "Guard", "King", "Princess", "Bishop", "Count", "Handmaid", "Baroness"
    )
    kit.write_config(
        folder,
        kit.config(SIX, decks={1: deck}, seed=SEED, gm={"name": "Rita", "email": "gm@example.org"}),
    )
    cli.ok("start", folder)
    cli.ok("order", folder, "--player", "Arthur", "Hand 1: Sycophant on Charles")
    cli.ok("resolve", folder, "--force")
    return folder


def hand_section(mail: str, hand: int) -> str:
    found = re.search(
        rf"(?ms)^Your turn in hand {hand}\..*?(?=^Your turn in hand |^Tokens of affection)", mail
    )
    assert found, mail
    return found.group(0)


def test_the_mark_is_told_in_the_choices_before_the_player_writes(marked, cli):
    mail = cli.report(marked, 1, "Bruno")
    section = hand_section(mail, 1)
    assert "You hold the Guard and the Baroness" in section
    told = section.index("the Sycophant marked Charles in this hand. The mark binds this play")
    assert "must choose Charles, whoever you name" in section
    assert "Players you may name: Charles only (the Sycophant's mark)." in section
    assert section.count("Players you may name:") == 1
    choices = section.index("Your choices")
    assert told < choices, "the mark is said before the choices"
    assert '"Hand 1: Guard on Charles, guess <number>"' in section
    assert '"Hand 1: Baroness on Charles and <player>"' in section


def test_the_marked_player_is_told_what_the_mark_does_to_her_own_play(tmp_path, cli):
    """The mark on the player who plays next: a Guard cannot choose her, so it does nothing."""
    folder = tmp_path / "self"
    deck = premium_deck(
        "Spy", "Sycophant", "Guard", "King", "Princess", "Bishop", "Count", "Handmaid", "Baroness"
    )
    kit.write_config(folder, kit.config(SIX, decks={1: deck}, seed=SEED))
    cli.ok("start", folder)
    cli.ok("order", folder, "--player", "Arthur", "Hand 1: Sycophant on Bruno")
    cli.ok("resolve", folder, "--force")
    section = hand_section(cli.report(folder, 1, "Bruno"), 1)
    assert "the Sycophant marked you in this hand" in section
    assert "Players you may name: yourself only (the Sycophant's mark)." in section
    assert (
        '"Hand 1: Guard, guess <number>"  (no effect: the Sycophant\'s mark is on you, '
        "and the Guard cannot choose you)"
    ) in section


def test_an_order_the_mark_changes_is_not_said_to_be_completed_at_random(marked, tmp_path):
    campaign = Campaign(marked)
    raw = (
        "From: Bruno <bruno@example.org>\r\nTo: gm@example.org\r\n"
        "Subject: Re: [mark] Turn 2: your cards and orders\r\nMessage-ID: <mark2@x>\r\n\r\n"
        "Hand 1: Guard on Didier, guess 5\r\n\r\n"
        f"Your order code: {order_code(SEED, 'Bruno')}\r\n"
    ).encode()
    path = tmp_path / "bruno.eml"
    path.write_bytes(raw)
    outcome = inbox.receive_file(campaign, path)
    ack = message_from_bytes((marked / "mail" / "outbox" / f"{outcome.ack}.eml").read_bytes(), policy=default)
    body, subject = ack.get_content(), str(ack["Subject"])
    assert "the Sycophant marked Charles: the Guard must choose Charles" in body
    assert "send a new order for this hand to choose yourself" not in body
    assert "at random" not in subject and "random" not in body.split("What I read:")[1].split("\n\n")[0]
    assert subject.endswith("orders received"), subject


def test_a_guess_left_to_chance_still_offers_a_new_order(marked, tmp_path):
    """The mark decides the player, not the guess: a Guard without a number is completed at random."""
    campaign = Campaign(marked)
    raw = (
        "From: Bruno <bruno@example.org>\r\nTo: gm@example.org\r\n"
        "Subject: Re: [mark] Turn 2: your cards and orders\r\nMessage-ID: <mark3@x>\r\n\r\n"
        "Hand 1: Guard on Charles\r\n\r\n"
        f"Your order code: {order_code(SEED, 'Bruno')}\r\n"
    ).encode()
    path = tmp_path / "bruno.eml"
    path.write_bytes(raw)
    outcome = inbox.receive_file(campaign, path)
    ack = message_from_bytes((marked / "mail" / "outbox" / f"{outcome.ack}.eml").read_bytes(), policy=default)
    assert "send a new order for this hand to choose yourself" in ack.get_content()
    assert "completed at random" in str(ack["Subject"])


# -- item 6 ----------------------------------------------------------------------------------------------


def test_the_premium_card_list_says_the_guard_names_a_number(marked, cli):
    mail = cli.report(marked, 1, "Didier")
    guard = next(line for line in mail.splitlines() if re.match(r"\s+1 Guard\b", line))
    assert "name another player and a number (0, 2 to 9)" in guard, guard
    assert "not the Guard" not in guard


def test_the_classic_card_list_still_says_the_guard_names_a_card(tmp_path, cli):
    folder = tmp_path / "classic"
    kit.write_config(folder, kit.config(3))
    cli.ok("start", folder)
    mail = cli.report(folder, 0, "Arthur")
    guard = next(line for line in mail.splitlines() if re.match(r"\s+1 Guard\b", line))
    assert "a card (not the Guard)" in guard


def test_a_baroness_on_two_players_looks_at_their_cards(marked, cli):
    out = cli.ok("order", marked, "--player", "Bruno", "Hand 1: Baroness on Charles and Didier").output
    assert "you will look at the cards of Charles and Didier" in out
    assert "the card of Charles and Didier" not in out


def test_a_guard_that_finds_nobody_reads_its_guess_before_no_effect():
    table = Table("t", "Test", ["Arthur", "Bruno", "Charles"])
    played = ev.Played(1, 0, Card.GUARD, 1, None, Card.PRINCE, False, False, False, True)
    view = {**event_view(table, played), "nobody_because": "protected"}
    env = Renderer().env
    line = env.from_string('{% import "_events.txt.j2" as say %}{{ say.public_line(e) }}').render(e=view)
    assert line == (
        "Arthur played the Guard on Bruno, guessing Prince, but nobody could be chosen "
        "(everyone else still in is protected by the Handmaid): no effect."
    )
    assert "no effect, guessing" not in line


def test_rules_by_mail_in_a_premium_game_sends_the_premium_cards(marked, tmp_path):
    """A player of a Premium game who writes RULES gets the deck they play with."""
    campaign = Campaign(marked)
    raw = (
        b"From: Bruno <bruno@example.org>\r\nTo: gm@example.org\r\n"
        b"Subject: Re: [mark] Turn 2: your cards and orders\r\nMessage-ID: <rules2@x>\r\n\r\n"
        b"RULES\r\n"
    )
    path = tmp_path / "rules.eml"
    path.write_bytes(raw)
    outcome = inbox.receive_file(campaign, path)
    ack = message_from_bytes((marked / "mail" / "outbox" / f"{outcome.ack}.eml").read_bytes(), policy=default)
    body = ack.get_content()
    reference = body.split("The cards (RULES)")[1]
    for card in ("Assassin", "Jester", "Cardinal", "Bishop", "Sycophant", "Count", "Constable"):
        assert card in reference, card
    assert "a number (0, 2 to 9)" in reference
