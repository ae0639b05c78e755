"""A batch of mail is acknowledged in the same words as each message alone.

`pbem fetch` works out and words what a player may still write in each hand once per
batch (``ack_hand.txt.j2``), not once per message: the position does not change within
a batch. These tests hold it to what a batch of one message says.
"""

from __future__ import annotations

import re
from email import message_from_bytes
from email.policy import default

import pytest
from corpus_game import CORPUS, corpus_code, make_game7

from pbem import inbox

# Replies of every player, two of them twice (the second answer of a batch is worded from
# what the first left), with orders, without, CLEAR and STATUS among them.
FILES = sorted(p.name for p in CORPUS.glob("*.eml"))


def _acks(campaign, outcomes) -> list[tuple[str | None, str, str]]:
    out = []
    for o in outcomes:
        if o.ack is None:
            out.append((None, o.status, ""))
            continue
        draft = message_from_bytes(
            (campaign.folder / "mail" / "outbox" / f"{o.ack}.eml").read_bytes(), policy=default
        )
        out.append((o.ack, str(draft["Subject"]), draft.get_content()))
    return out


def _game(parent):
    parent.mkdir()
    return make_game7(parent)


@pytest.fixture
def codes(monkeypatch):
    monkeypatch.setattr(inbox, "order_code", corpus_code)


def _renamed(raw: bytes, i: int) -> bytes:
    """The message under a new Message-ID (the same message twice is read once)."""
    new_id = f"<again-{i}@example.net>".encode()
    if re.search(rb"(?im)^message-id:", raw):
        return re.sub(rb"(?im)^(message-id:)[^\r\n]*", rb"\1 " + new_id, raw, count=1)
    return b"Message-ID: " + new_id + b"\r\n" + raw


def test_a_batch_acknowledges_each_message_as_it_would_alone(codes, tmp_path):
    batch, alone = _game(tmp_path / "batch"), _game(tmp_path / "alone")
    messages = [_renamed((CORPUS / name).read_bytes(), i) for i, name in enumerate(FILES * 2)]
    with inbox.Mailroom(batch) as room:
        together = [room.receive(raw) for raw in messages]
    one_by_one = []
    for raw in messages:
        with inbox.Mailroom(alone) as room:
            one_by_one.append(room.receive(raw))
    said_together, said_alone = _acks(batch, together), _acks(alone, one_by_one)
    assert said_together == said_alone
    # and the words are right: each hand's own plays, from the cards its player holds there
    position = batch.position()
    worded = 0
    for outcome, (_, _, body) in zip(together, said_together, strict=True):
        hand = None
        missing = re.search(r"^Still missing: hands? ([\d, and]+)\.", body, re.M)
        shown = [int(h) for h in re.findall(r"^  In hand (\d+)", body, re.M)]
        assert shown == ([int(h) for h in re.findall(r"\d+", missing.group(1))] if missing else [])
        for line in body.splitlines():
            if line.startswith("  In hand "):
                hand = int(re.match(r"  In hand (\d+)", line).group(1))
                seat = position.players.index(outcome.player)
                held = {c.title for c in position.game.hand(hand).cards[seat]}
                worded += 1
            elif hand is not None and line.startswith("    "):
                card, play = re.match(r'    (\w+): +"Hand (\d+): ', line).groups()
                assert int(play) == hand and card in held, (outcome.player, hand, line)
            else:
                hand = None
    assert worded >= 40


def test_the_plays_of_a_hand_are_worded_by_the_campaigns_template(codes, tmp_path):
    campaign = _game(tmp_path / "game")
    templates = campaign.folder / "templates"
    templates.mkdir()
    (templates / "ack_hand.txt.j2").write_text(
        "  Hand {{ hand }} is yours to play: {{ choices|map(attribute='card')|join(' or ') }}\n",
        encoding="utf-8",
    )
    raw = (CORPUS / FILES[0]).read_bytes()
    with inbox.Mailroom(campaign) as room:
        outcome = room.receive(raw)
    body = _acks(campaign, [outcome])[0][2]
    pos = campaign.position()
    seat = pos.players.index(outcome.player)
    missing = campaign.order_book().missing(outcome.player)
    assert missing
    for h in missing:
        held = [c.title for c in pos.game.hand(h).cards[seat]]
        assert f"  Hand {h} is yours to play: " in body
        line = next(x for x in body.splitlines() if x.startswith(f"  Hand {h} is yours"))
        assert set(line.split(": ", 1)[1].split(" or ")) <= set(held)
    assert "players you may name" not in body  # the default wording is not used
