"""Issue 19, items 1 and 2: knowing its own words never costs the player theirs.

The tool drops the runs of lines that repeat a mail it sent (an unquoted original).  A
player's orders can repeat such lines by chance: a card list once held "Hand 1: Countess"
and "Hand 13: Guard", an acknowledgement echoed the very orders the player sends again.  A
short run of orders for hands the player must play now, with nothing of the tool's above it,
is the player's.  And every mail the tool sends is its own words: a reply to an
acknowledgement (quoted bare, as Outlook does) must not put the echoed orders back on file.
"""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default

import pytest
from corpus_game import make_game7

from pbem import inbox
from pbem.outbox import Outbox
from pbem.reader import read_mail
from pbem.reader.quotes import drop_sent_words, own_words

PLAYER, ADDRESS = "Chloé", "chloe@example.fr"


@pytest.fixture
def game(tmp_path):
    """game7 at turn 3: Chloé plays hands 1 (Countess, Guard), 9 (Guard, Handmaid) and 13
    (Guard, Prince); her opening mail's card list held "Hand 1: Countess", "Hand 9: Guard"
    and "Hand 13: Guard"."""
    campaign = make_game7(tmp_path)
    campaign.publish_drafts()
    return campaign


def sent(campaign, kind: str, turn: int) -> tuple[str, str, str]:
    """(Message-ID, subject, plain text) of one of Chloé's mails from the tool."""
    known = Outbox(campaign.folder).known_ids()
    message_id, entry = next(
        (i, e) for i, e in known.items() if e["kind"] == kind and e["player"] == PLAYER and e["turn"] == turn
    )
    return (message_id, *_text_of(campaign, entry["draft"]))


def _text_of(campaign, draft: str) -> tuple[str, str]:
    for path in (
        campaign.folder / "mail" / "outbox" / f"{draft}.eml",
        *campaign.folder.glob(f"turns/*/mail/{draft}.eml"),
    ):
        if path.exists():
            msg = message_from_bytes(path.read_bytes(), policy=default)
            return str(msg["Subject"]), msg.get_body(preferencelist=("plain",)).get_content().replace(
                "\r\n", "\n"
            )
    raise AssertionError(f"no draft {draft}")


def ack_of(campaign, draft: str) -> tuple[str, str]:
    """(Message-ID, text) of an acknowledgement drafted in the outbox."""
    known = Outbox(campaign.folder).known_ids()
    message_id = next(i for i, e in known.items() if e.get("draft") == draft)
    return message_id, _text_of(campaign, draft)[1]


_n = 0


def reply(
    body: str, in_reply_to: str | None, references: tuple[str, ...] = (), subject: str = "RE: [game7] Turn 3"
) -> bytes:
    global _n
    _n += 1
    head = f"From: Chloé Martin <{ADDRESS}>\nTo: Rita <gm@example.org>\nSubject: {subject}\nMessage-ID: <coll-{_n}@example.fr>\n"
    if in_reply_to:
        head += f"In-Reply-To: {in_reply_to}\n"
    refs = (*references, in_reply_to) if in_reply_to else references
    if refs:
        head += f"References: {' '.join(refs)}\n"
    head += "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
    return (head + body + "\n").encode("utf-8")


def on_file(campaign) -> dict[int, str]:
    return {
        hand: " ".join(str(v) for v in (o["card"], o.get("target"), o.get("guess")) if v)
        for hand, o in campaign.order_book().mine(PLAYER).items()
    }


OUTLOOK = "From: Rita <gm@example.org>\nSent: Tuesday, December 1, 2026 10:00 AM\nTo: Chloé Martin <chloe@example.fr>\nSubject: {subject}\n\n"
QUOTED = "On Tue, 1 Dec 2026 at 10:00, Rita <gm@example.org> wrote:\n"


# -- item 1: the player's orders repeat lines of a mail the tool sent ----------------------------


@pytest.mark.parametrize("below", ["outlook", "quoted", "nothing"])
def test_top_posted_orders_that_repeat_the_opening_card_list_are_read(game, below):
    """The issue's case: two one-card orders that the opening mail's card list held in that
    order, the reply's References naming the opening mail."""
    opening_id, _, opening = sent(game, "private", 1)
    turn_id, subject, text = sent(game, "private", 3)
    assert "  Hand  1: Countess\n" in opening and "  Hand 13: Guard\n" in opening  # the trap is set
    orders = "Hand 1: Countess\nHand 13: Guard"
    if below == "outlook":
        body = f"{orders}\n\n{OUTLOOK.format(subject=subject)}{text}"
    elif below == "quoted":
        body = orders + "\n\n" + QUOTED + "\n".join("> " + line for line in text.splitlines())
    else:
        body = orders
    with inbox.Mailroom(game) as room:
        outcome = room.receive(reply(body, turn_id, (opening_id,)))
    assert outcome.status == inbox.RECORDED, outcome.detail
    assert [(c.hand, c.written.card.title) for c in outcome.receipt.checked] == [
        (1, "Countess"),
        (13, "Guard"),
    ]
    assert set(on_file(game)) == {1, 13}


def test_orders_under_a_greeting_that_repeat_the_card_list_are_read(game):
    opening_id, _, _ = sent(game, "private", 1)
    turn_id, subject, text = sent(game, "private", 3)
    body = f"Hi Rita,\n\nhere they are:\nHand 1: Countess\nHand 9: Guard\n\nChloé\n\n{OUTLOOK.format(subject=subject)}{text}"
    with inbox.Mailroom(game) as room:
        outcome = room.receive(reply(body, turn_id, (opening_id,)))
    assert [(c.hand, c.written.card.title) for c in outcome.receipt.checked] == [
        (1, "Countess"),
        (9, "Guard"),
    ]


# The kinds of lines the tool sends, each holding lines an order may equal.
CARD_LIST = "Your cards\n  Hand  1: Countess\n  Hand  2: Baron\n  Hand  4: Handmaid\n  Hand  9: Guard\n  Hand 13: Handmaid\n"
FORM = "Orders for turn 3 -- fill in one line per hand and reply to this mail:\nHand 1: Countess\nHand 9: Handmaid\n"
EXAMPLES = 'Examples:\nHand 1: Countess\nHand 9: Handmaid\n"Hand 11: Countess".\n'
OLD_ACK = "What I read:\n  Hand 1: Countess\n      RECORDED\n\nOrders on file for turn 3:\n  Hand 1: Countess\n  Hand 9: Handmaid\n"
KINDS = {"card list": CARD_LIST, "form": FORM, "examples": EXAMPLES, "acknowledgement": OLD_ACK}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("greeting", ["", "Hello,\n\n"])
def test_a_short_run_of_orders_for_the_hands_in_play_is_the_players(kind, greeting):
    own = f"{greeting}Hand 1: Countess\nHand 9: Handmaid"
    for playing in ({1, 9, 13}, None):
        assert drop_sent_words(own, [KINDS[kind]], playing) == own
    assert own_words(own, [KINDS[kind]], {1, 9}) == own


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_lines_are_the_tools_when_they_are_no_orders_of_the_hands_in_play(kind):
    """Hand 4 and hand 2 are no hands the player plays now: the run is the quote."""
    text = KINDS[kind]
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith("Hand")][:2]
    if kind == "card list":
        lines = ["Hand 2: Baron", "Hand 4: Handmaid"]
    own = "My orders are below.\n\n" + "\n".join(lines)
    assert drop_sent_words(own, [text], {13}) == "My orders are below."


def test_a_run_under_a_header_block_or_the_tools_words_stays_the_tools():
    """Under the "key: value" lines of a header block, or right under more of the sent mail,
    the run is the original, however few its lines."""
    own = "Hand 13: Guard\n\nFrom: Rita\nTo: Chloé\n\nHand 1: Countess\nHand 9: Handmaid"
    assert drop_sent_words(own, [OLD_ACK], {1, 9, 13}) == "Hand 13: Guard"
    own = "Thanks!\n\nOrders on file for turn 3:\nHand 1: Countess\nHand 9: Handmaid"
    assert drop_sent_words(own, [OLD_ACK], {1, 9, 13}) == "Thanks!"


def test_a_run_that_orders_a_hand_again_is_a_quote():
    """A run that gives again a hand the player ordered above it repeats the sent mail."""
    own = "Hand 9: Guard on Bruno, guess Prince\n\nHand 1: Countess\nHand 9: Handmaid"
    assert drop_sent_words(own, [OLD_ACK], {1, 9, 13}) == "Hand 9: Guard on Bruno, guess Prince"


# -- item 2: a reply to an acknowledgement ---------------------------------------------------------


def test_a_reply_to_an_acknowledgement_does_not_put_its_echo_back_on_file(game):
    turn_id, subject, text = sent(game, "private", 3)
    with inbox.Mailroom(game) as room:
        first = room.receive(reply("Hand 1: Countess\nHand 13: Guard on Bruno, guess Prince", turn_id))
    assert on_file(game)[13] == "Guard Bruno Prince"
    with inbox.Mailroom(game) as room:
        room.receive(reply("Hand 13: Prince on Arthur", turn_id))
    assert on_file(game)[13] == "Prince Arthur"
    ack_id, ack = ack_of(game, first.ack)
    body = "Thanks! Is the deadline Thursday?\n\n" + OUTLOOK.format(subject=subject) + ack
    with inbox.Mailroom(game) as room:
        outcome = room.receive(reply(body, ack_id, (turn_id,), subject="RE: " + subject))
    assert not outcome.receipt.checked, outcome.receipt.checked
    assert on_file(game)[13] == "Prince Arthur"


def test_a_clear_sent_as_a_reply_to_an_acknowledgement_clears(game):
    turn_id, subject, text = sent(game, "private", 3)
    with inbox.Mailroom(game) as room:
        first = room.receive(reply("Hand 1: Countess\nHand 13: Guard on Bruno, guess Prince", turn_id))
    ack_id, ack = ack_of(game, first.ack)
    with inbox.Mailroom(game) as room:
        outcome = room.receive(reply("CLEAR\n\n" + OUTLOOK.format(subject=subject) + ack, ack_id, (turn_id,)))
    assert outcome.keywords == ["CLEAR"]
    assert on_file(game) == {}


def test_a_reply_to_an_acknowledgement_without_a_header_block(game):
    """No header, no quote marks: only knowing the acknowledgement saves the correction."""
    turn_id, subject, text = sent(game, "private", 3)
    with inbox.Mailroom(game) as room:
        first = room.receive(reply("Hand 1: Countess\nHand 13: Guard on Bruno, guess Prince", turn_id))
        room.receive(reply("Hand 13: Prince on Arthur", turn_id))
    ack_id, ack = ack_of(game, first.ack)
    with inbox.Mailroom(game) as room:
        room.receive(reply("Thanks!\n\n" + ack, ack_id, (turn_id,)))
    assert on_file(game)[13] == "Prince Arthur"


def test_the_acknowledgement_echo_does_not_read_as_orders_quoted_bare(game):
    """The echo is marked as the tool's: the bare reader, knowing nothing sent, reads no order
    line in it."""
    turn_id, _, _ = sent(game, "private", 3)
    with inbox.Mailroom(game) as room:
        first = room.receive(reply("Hand 1: Countess\nHand 13: Guard on Bruno, guess Prince", turn_id))
    _, ack = ack_of(game, first.ack)
    assert "Countess" in ack and "Guard on Bruno" in ack
    own = read_mail(
        reply("Thanks!\n\nFrom: Rita <gm@example.org>\nSent: Tuesday\nTo: Chloé\nSubject: x\n\n" + ack, None)
    ).own_text
    assert own == "Thanks!"
    from pbem.grammar import HAND_REF
    from pbem.orders import parse_orders

    assert not [line for line in ack.splitlines() if HAND_REF.match(line) and "Countess" in line]
    # Nor does the order parser, the echo pasted anywhere: "(read) Hand 1: Countess".
    players = [p.name for p in game.config.players]
    assert parse_orders(ack, players, players[0]).orders == []


def test_an_acknowledgement_already_sent_is_still_known(game):
    """Once sent, a draft moves to the sent folder: a reply to it is still read against it."""
    import shutil

    turn_id, subject, _ = sent(game, "private", 3)
    with inbox.Mailroom(game) as room:
        first = room.receive(reply("Hand 1: Countess\nHand 13: Guard on Bruno, guess Prince", turn_id))
    with inbox.Mailroom(game) as room:
        room.receive(reply("Hand 13: Prince on Arthur", turn_id))
    ack_id, ack = ack_of(game, first.ack)
    old_style = ack.replace("(read) ", "").replace("(on file) ", "")  # an acknowledgement of before the tags
    draft = game.folder / "mail" / "outbox" / f"{first.ack}.eml"
    msg = message_from_bytes(draft.read_bytes(), policy=default)
    msg.set_content(old_style)
    draft.write_bytes(msg.as_bytes())
    sent_folder = game.store.sent_folder
    sent_folder.mkdir(parents=True, exist_ok=True)
    shutil.move(str(draft), str(sent_folder / draft.name))
    with inbox.Mailroom(game) as room:
        outcome = room.receive(
            reply("Thanks!\n\n" + OUTLOOK.format(subject=subject) + old_style, ack_id, (turn_id,))
        )
    assert not outcome.receipt.checked, outcome.receipt.checked
    assert on_file(game)[13] == "Prince Arthur"
