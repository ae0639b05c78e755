"""Issue 18, items 3, 4, 6 and 11 (Maildir symlinks): what the mail a campaign
receives (and the names it comes under) must never do to the campaign's records.

3. A Maildir file name is the sender's data: one that is not UTF-8 jammed every
   fetch (the index could not be written after the orders were saved), and the
   batch, replayed on each fetch, undid a newer ``pbem order``.
4. A duplicate is the same bytes, not the same Message-ID: a stranger who uses a
   player's (future) Message-ID first must not make the player's message vanish.
6. The index of the tool's Message-IDs repairs itself after a killed fetch, so a
   reply to an acknowledgement is still traced to it.
11. A Maildir entry that is a symlink (or anything but a plain file) is refused,
   never followed, never kept.

No servers here: a Maildir, the CLI in-process, and pbem killed in a subprocess.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import inbox
from pbem.campaign import Campaign
from pbem.cards import Card
from pbem.cli import main
from pbem.received import received_entries

ROOT = Path(__file__).resolve().parents[2]

YAML = """\
title: Trust game
gm: {name: Rita, email: gm@example.org}
players:
  - {name: Arthur, email: arthur@example.org}
  - {name: Bruno, email: bruno@example.org}
  - {name: Chloe, email: chloe@example.fr}
  - {name: Dominik, email: dominik@example.de}
seed: 7d1c7e0d9a3f44e2b8c61d07a5e9f3c2
"""
TARGETED = (Card.GUARD, Card.SPY, Card.BARON, Card.KING)


@pytest.fixture
def game(tmp_path) -> Campaign:
    folder = tmp_path / "trust"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(YAML, encoding="utf-8")
    campaign = Campaign(folder)
    campaign.start()
    return campaign


def run(*args) -> str:
    """``pbem ARGS`` in-process; a traceback fails the test."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"pbem {args} crashed: {result.exception!r}\n{result.output}") from (
            result.exception
        )
    return result.output


def mail(sender: str, body: str, message_id: str, subject: str = "[trust] Turn 1", extra: str = "") -> bytes:
    return (
        f"From: {sender}\r\nTo: gm@example.org\r\nSubject: {subject}\r\n"
        f"Message-ID: {message_id}\r\nDate: Tue, 01 Dec 2026 09:00:00 +0000\r\n{extra}"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


def targeted_hand(campaign: Campaign, player: str = "Arthur") -> tuple[int, Card]:
    """A hand in which ``player`` is to play a card that names another player."""
    position = campaign.position()
    seat = position.players.index(player)
    for hand in position.game.hands:
        if hand.active == seat:
            cards = hand.cards[seat]
            if Card.COUNTESS in cards and (Card.KING in cards or Card.PRINCE in cards):
                continue
            for card in cards:
                if card in TARGETED:
                    return hand.number, card
    raise AssertionError("no hand with a targeted card: change the seed")


def order_text(hand: int, card: Card, target: str) -> str:
    return f"Hand {hand}: {card.title} on {target}" + (", guess Priest" if card == Card.GUARD else "")


def on_file(campaign: Campaign, player: str, hand: int) -> dict | None:
    orders = json.loads(campaign.store.orders_path(campaign.position().game.turn).read_text("utf-8"))
    return orders.get(player, {}).get(str(hand))


def new_dir(campaign: Campaign) -> Path:
    new = campaign.store.inbox / "new"
    for sub in ("new", "cur", "tmp"):
        (campaign.store.inbox / sub).mkdir(parents=True, exist_ok=True)
    return new


def drop(campaign: Campaign, name: bytes | str, raw: bytes) -> Path:
    folder = os.fsencode(new_dir(campaign))
    path = os.path.join(folder, os.fsencode(name))
    with open(path, "wb") as f:
        f.write(raw)
    return Path(os.fsdecode(path))


# -- 3: a file name that is not UTF-8 ---------------------------------------------------------------


def test_a_maildir_name_that_is_not_utf8_is_read_indexed_and_filed(game):
    hand, card = targeted_hand(game)
    drop(
        game,
        b"1764579600.M1P1.host\xff\xfe:2,",
        mail("arthur@example.org", order_text(hand, card, "Bruno"), "<a1@x>"),
    )
    out = run("fetch", game.folder)
    assert "1 message read" in out, out
    entries = received_entries(game)
    assert [e["status"] for e in entries] == ["recorded"]
    assert entries[0]["file"].startswith("mail/received/") and entries[0]["file"].isascii()
    assert list((game.store.inbox / "new").iterdir()) == []  # filed: not read again
    assert on_file(game, "Arthur", hand)["target"] == "Bruno"
    # a newer order stands: the next fetch has nothing to replay
    run("order", game.folder, "--player", "Arthur", order_text(hand, card, "Chloe"))
    assert "No new messages." in run("fetch", game.folder)
    assert on_file(game, "Arthur", hand)["target"] == "Chloe"


def test_a_replayed_batch_never_reverts_a_newer_order(game):
    """The batch's orders saved, its index lost (a crash before the last write): the
    messages are read again, and must not undo what the GM recorded meanwhile."""
    hand, card = targeted_hand(game)
    raw = mail("arthur@example.org", order_text(hand, card, "Bruno"), "<a2@x>")
    drop(game, "1764579600.M2P1.host", raw)
    run("fetch", game.folder)
    assert on_file(game, "Arthur", hand)["target"] == "Bruno"
    game.store.received_index.write_text("", encoding="utf-8")  # the index never written
    cur = game.store.inbox / "cur"
    for path in cur.iterdir():  # nor the message filed
        os.replace(path, game.store.inbox / "new" / path.name.split(":")[0])
    run("order", game.folder, "--player", "Arthur", order_text(hand, card, "Chloe"))
    run("fetch", game.folder)
    assert on_file(game, "Arthur", hand)["target"] == "Chloe"
    assert [e["status"] for e in received_entries(game)] == ["recorded"]
    # and a message that was not applied before is applied: the guard is per message
    drop(
        game, "1764579600.M3P1.host", mail("arthur@example.org", order_text(hand, card, "Dominik"), "<a3@x>")
    )
    run("fetch", game.folder)
    assert on_file(game, "Arthur", hand)["target"] == "Dominik"


def test_a_batch_killed_between_its_orders_and_their_log_is_logged_when_read_again(game, monkeypatch):
    """The orders file written, the process killed before the log line (and the index): the
    message is read again; its orders are not applied twice, and the log gets its line then,
    marked as written after the restart, so that the audit trail names every message."""
    from pbem.store import CampaignStore

    hand, card = targeted_hand(game)
    drop(game, "1764579600.M4P1.host", mail("arthur@example.org", order_text(hand, card, "Bruno"), "<a4@x>"))

    def killed(self, turn, entries):
        raise KeyboardInterrupt  # the kill: nothing after the orders file is written

    with monkeypatch.context() as m:
        m.setattr(CampaignStore, "log_submissions", killed)
        with pytest.raises(KeyboardInterrupt):
            inbox.fetch_maildir(game)
    turn = game.position().game.turn
    log = game.store.orders_path(turn).with_suffix(".log")
    assert on_file(game, "Arthur", hand)["target"] == "Bruno"  # recorded
    assert not log.exists() or log.read_text(encoding="utf-8") == ""  # but not logged
    run("order", game.folder, "--player", "Arthur", order_text(hand, card, "Chloe"))  # newer, by the GM
    run("fetch", game.folder)
    assert on_file(game, "Arthur", hand)["target"] == "Chloe"  # not applied again
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    from_mail = [e for e in entries if e["source"].startswith("mail/received/")]
    assert len(from_mail) == 1 and from_mail[0]["again"] is True, entries
    assert from_mail[0]["results"][0]["order"].endswith("on Bruno")
    run("fetch", game.folder)  # and never logged twice
    assert len(log.read_text(encoding="utf-8").splitlines()) == len(entries)


# -- 4: the same Message-ID, another message ------------------------------------------------------------


def test_a_reused_message_id_does_not_drop_a_different_message(game):
    hand, card = targeted_hand(game)
    stranger = mail("mallory@attacker.example", "Hand 1: Princess", "<future@example.org>")
    player = mail("arthur@example.org", order_text(hand, card, "Bruno"), "<future@example.org>")
    with inbox.Mailroom(game) as room:
        first = room.receive(stranger, source="test")
    with inbox.Mailroom(game) as room:
        second = room.receive(player, source="test")
        again = room.receive(player, source="test")
    assert first.status == inbox.UNKNOWN_SENDER
    assert second.status == inbox.RECORDED, second.summary()
    assert on_file(game, "Arthur", hand)["target"] == "Bruno"
    assert again.status == inbox.DUPLICATE  # the same bytes: read once
    assert [e["status"] for e in received_entries(game)] == ["unknown sender", "recorded"]


# -- 11: symlinks and other things that are not plain files ---------------------------------------------


def test_a_maildir_symlink_is_refused_never_followed_nor_kept(game, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_bytes(mail("arthur@example.org", "Hand 1: Princess", "<secret@x>"))
    new = new_dir(game)
    (new / "1764579600.M4P1.host").symlink_to(secret)
    (new / "1764579600.M5P1.host").mkdir()
    os.mkfifo(new / "1764579600.M6P1.host")  # a reader that opened it would wait for ever
    out = run("fetch", game.folder)
    assert out.count("not a plain file") == 3, out
    received = game.store.received
    assert not received.exists() or not any(p.is_symlink() for p in received.iterdir())
    assert received_entries(game) == []
    assert list(new.iterdir()) == []  # moved aside, so as not to be refused on every fetch
    assert "No new messages." in run("fetch", game.folder)
    assert secret.read_bytes().startswith(b"From: arthur")  # untouched


# -- 6: the index of Message-IDs repairs itself after a kill ----------------------------------------------

# A fetch of the campaign's Maildir in a process of its own, killed with SIGKILL at the
# `kill_at`-th write, rename, link or fsync it makes (counted from the start of the fetch).
_KILLED = r"""
import os, signal, sys
sys.path.insert(0, sys.argv[1])
from pbem.campaign import Campaign
from pbem import inbox
kill_at = int(sys.argv[3])
count = 0

def counted(real):
    def call(*args, **kwargs):
        global count
        count += 1
        if count == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    return call

for name in ("fsync", "replace", "rename", "link", "write"):
    setattr(os, name, counted(getattr(os, name)))
inbox.fetch_new(Campaign(sys.argv[2]))
"""


def _killed_fetch(folder: Path, kill_at: int) -> int:
    proc = subprocess.run(
        [sys.executable, "-c", _KILLED, str(ROOT), str(folder), str(kill_at)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode in (0, -signal.SIGKILL), proc.stderr
    return proc.returncode


def test_ack_message_ids_are_indexed_again_after_a_killed_fetch(game):
    """Random kills of a fetch of five messages, each followed by a full fetch: every
    acknowledgement drafted ends up in the index of Message-IDs, so a reply to it is
    traced to the campaign (the IMAP fetch takes a reply for ours by that index)."""
    hand, card = targeted_hand(game)
    players = ["Arthur", "Bruno", "Chloe", "Dominik"]
    rng = random.Random(18)
    killed = 0
    for round_ in range(12):
        for i in range(5):
            sender = players[i % 4].lower()
            domain = {"chloe": "example.fr", "dominik": "example.de"}.get(sender, "example.org")
            body = order_text(hand, card, "Bruno") if sender == "arthur" else "STATUS"
            drop(
                game,
                f"17645796{round_:02d}.M{i}P9.host",
                mail(f"{sender}@{domain}", body, f"<r{round_}m{i}@x>"),
            )
        killed += _killed_fetch(game.folder, rng.randint(1, 40)) != 0
        run("fetch", game.folder)
        known = inbox.Outbox(game.folder).known_ids()
        indexed = {entry["draft"] for entry in known.values()}
        acks = {e["ack"] for e in received_entries(game) if e.get("ack")}
        drafted = {p.stem for p in game.store.outbox.glob("ack-*.eml")}
        assert acks <= drafted
        assert drafted - indexed == set(), f"round {round_}: acks not indexed: {drafted - indexed}"
        for entry in known.values():
            if entry["kind"] == "ack":
                assert entry["player"] in players and entry["turn"] == 1
    assert killed >= 6  # the kills did fall inside the fetch


# -- a character no file can hold ------------------------------------------------------------------


def test_a_lone_surrogate_in_utf7_mail_is_dropped_and_the_fetch_goes_on(game):
    """UTF-7 can encode half of a surrogate pair ("+2AA-" is U+D800), which no text file
    can hold: a player's message with one in its body and another in its subject made the
    batch fail as it wrote the orders log, a traceback on every fetch after (the message
    was read again each time, and failed again). Such a character is no letter a mail
    program shows: it is dropped, and the orders around it are read."""
    hand, card = targeted_hand(game)
    order = order_text(hand, card, "Bruno").replace(" on Bruno", " on +2AA-Bruno")
    raw = (
        "From: arthur@example.org\r\nTo: gm@example.org\r\n"
        "Subject: =?utf-7?q?=5Btrust=5D_Turn_1_+2AA-?=\r\nMessage-ID: <utf7-surrogate@example.org>\r\n"
        "Content-Type: text/plain; charset=utf-7\r\n\r\n"
        f"{order}\r\nThanks +2AA- a lot\r\n"
    ).encode("ascii")
    drop(game, b"1700000000.utf7.host", raw)
    outcome, again = inbox.fetch_maildir(game), inbox.fetch_maildir(game)
    assert [o.status for o in outcome] == ["recorded"] and again == []
    recorded = on_file(game, "Arthur", hand)
    assert recorded is not None and recorded["card"] == card.title and recorded["target"] == "Bruno"
    assert "\ud800" not in run("status", game.folder)
