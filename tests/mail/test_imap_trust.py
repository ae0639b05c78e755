"""Issue 18 items 4 and 6 over IMAP, against a real Dovecot.

4. The fetch ledger took a message for a duplicate by its Message-ID, from the
   headers alone: a stranger who used a player's Message-ID first made the
   player's message be filed away unread.
6. A reply to an acknowledgement whose subject lost its tag is the campaign's by
   its In-Reply-To, looked up in the index of the tool's Message-IDs; a killed
   fetch could leave the acknowledgement out of that index for good, and the
   reply was never fetched.
"""

from __future__ import annotations

import json

import pytest

from pbem import inbox
from pbem.campaign import Campaign

YAML = """\
title: Trust by IMAP
gm: {{name: Rita, email: gm@example.org}}
players:
  - {{name: Arthur, email: arthur@example.org}}
  - {{name: Bruno, email: bruno@example.org}}
  - {{name: Chloe, email: chloe@example.fr}}
seed: 23
mail:
  imap: {{host: {host}, port: {port}, tls: false, user: {user}, password_env: TRUST_IMAP, timeout: 5}}
"""


@pytest.fixture
def game(tmp_path, dovecot, monkeypatch):
    user = dovecot.new_account()
    monkeypatch.setenv("TRUST_IMAP", dovecot.passwords[user])
    folder = tmp_path / "trust"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(
        YAML.format(host=dovecot.host, port=dovecot.imap_port, user=user), encoding="utf-8"
    )
    campaign = Campaign(folder)
    campaign.start()
    return campaign, dovecot, user


def mail(sender: str, subject: str, body: str, message_id: str, extra: str = "") -> bytes:
    return (
        f"From: {sender}\r\nTo: gm@example.org\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n"
        f"Date: Tue, 01 Dec 2026 09:00:00 +0000\r\n{extra}Content-Type: text/plain; charset=utf-8\r\n"
        f"\r\n{body}\r\n"
    ).encode()


def test_a_strangers_message_with_a_players_message_id_does_not_hide_the_players(game):
    campaign, dovecot, user = game
    dovecot.deliver(mail("mallory@attacker.example", "[trust] Turn 1", "Hi", "<next@example.org>"), user)
    first = inbox.fetch_new(Campaign(campaign.folder))
    assert [o.status for o in first] == [inbox.UNKNOWN_SENDER]
    dovecot.deliver(mail("arthur@example.org", "[trust] Turn 1", "STATUS", "<next@example.org>"), user)
    second = inbox.fetch_new(Campaign(campaign.folder))
    assert [o.status for o in second] == [inbox.RECORDED]
    assert second[0].player == "Arthur" and second[0].ack


def test_a_reply_to_an_acknowledgement_left_out_of_the_index_is_still_fetched(game):
    campaign, dovecot, user = game
    dovecot.deliver(mail("bruno@example.org", "[trust] Turn 1", "STATUS", "<b1@example.org>"), user)
    (outcome,) = inbox.fetch_new(Campaign(campaign.folder))
    ack_file = campaign.store.outbox / f"{outcome.ack}.eml"
    ack_id = inbox._message_id(ack_file.read_bytes())
    # What a fetch killed between its drafts and their index lines leaves: the draft, no line.
    index = campaign.store.messages
    lines = [line for line in index.read_text("utf-8").splitlines() if ack_id not in line]
    index.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    reply = mail(
        "bruno@example.org",
        "Re: orders received",  # the tag lost on the way
        "STATUS",
        "<b2@example.org>",
        extra=f"In-Reply-To: {ack_id}\r\nReferences: {ack_id}\r\n",
    )
    dovecot.deliver(reply, user)
    outcomes = inbox.fetch_new(Campaign(campaign.folder))
    assert [(o.status, o.player) for o in outcomes] == [(inbox.RECORDED, "Bruno")]
    known = {
        json.loads(line)["message_id"]: json.loads(line) for line in index.read_text("utf-8").splitlines()
    }
    assert known[ack_id]["kind"] == "ack" and known[ack_id]["player"] == "Bruno"
