"""Held acknowledgements never go stale (issue 19, item 7).

An acknowledgement held by the hourly limit (``mail: acks_per_hour``) waits for
the GM. Once its turn is resolved it is no longer true ("You may still change
them until the turn is resolved"): the resolution drops it, whether the GM
resolves (`pbem resolve`) or a tick does. And a player is never held without
being told: the last acknowledgement the limit lets go says that the next ones
wait for the GM, until when, and that the deadline may come first.
"""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default as default_policy

import pytest
from click.testing import CliRunner

from pbem import inbox
from pbem.campaign import Campaign
from pbem.cli import main
from pbem.received import drop_stale_acks, held_acks

YAML = """\
title: Held game
gm: {name: Rita, email: gm@example.org}
players:
  - {name: Ida, email: ida@example.org}
  - {name: Kurt, email: kurt@example.de}
  - {name: Lena, email: lena@example.de}
seed: held-acks-1
"""
ADDRESS = {"Ida": "ida@example.org", "Kurt": "kurt@example.de", "Lena": "lena@example.de"}

_count = 0


def mail(player: str, body: str, turn: int = 1) -> bytes:
    global _count
    _count += 1
    return (
        f"From: {player} <{ADDRESS[player]}>\r\nTo: gm@example.org\r\nSubject: Re: [held] Turn {turn}\r\n"
        f"Message-ID: <held{_count}@players.example>\r\nDate: Mon, 30 Nov 2026 10:00:00 +0000\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


def game(tmp_path, limit: int = 1, extra: str = "") -> Campaign:
    folder = tmp_path / "held"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(
        YAML + f"mail: {{acks_per_hour: {limit}}}\n" + extra, encoding="utf-8"
    )
    campaign = Campaign(folder)
    campaign.start()
    return campaign


def receive(campaign: Campaign, *raws: bytes) -> list[inbox.Outcome]:
    with inbox.Mailroom(campaign) as room:
        return [room.receive(raw, source="test") for raw in raws]


def ack_body(campaign: Campaign, draft_id: str) -> str:
    raw = (campaign.folder / "mail" / "outbox" / f"{draft_id}.eml").read_bytes()
    return message_from_bytes(raw, policy=default_policy).get_body(preferencelist=("plain",)).get_content()


def some_order(campaign: Campaign, player: str) -> str:
    """An order ``player`` may give this turn (in the first hand where it is their turn)."""
    position = campaign.position()
    seat = position.players.index(player)
    for hand in position.game.hands:
        if hand.active == seat:
            cards = [c.title for c in hand.cards[seat]]
            card = "Countess" if "Countess" in cards else next(c for c in cards if c != "Princess")
            return f"Hand {hand.number}: {card}"
    raise AssertionError(f"{player} plays in no hand")


def held_drafts(campaign: Campaign) -> list[str]:
    return [entry["ack"] for entry in held_acks(campaign)]


def test_a_held_acknowledgement_is_dropped_when_the_gm_resolves_its_turn(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:00:00+00:00")
    campaign = game(tmp_path)
    order = some_order(campaign, "Kurt")
    first, second = receive(campaign, mail("Kurt", order), mail("Kurt", order))
    assert not first.ack_held and second.ack_held
    assert "Orders on file for turn 1" in ack_body(campaign, second.ack)
    assert held_drafts(campaign) == [second.ack]
    result = CliRunner().invoke(main, ["resolve", "--force", str(campaign.folder)])
    assert result.exit_code == 0, result.output
    outbox = campaign.folder / "mail" / "outbox"
    assert not (outbox / f"{second.ack}.eml").exists(), "a held ack of a resolved turn waits to be sent"
    assert held_drafts(Campaign(campaign.folder)) == []
    assert "held acknowledgement" in result.output  # the GM is told what was dropped
    # The acknowledgement sent on its own is the GM's business no more: it stays as it was.
    assert (outbox / f"{first.ack}.eml").exists()


def test_a_tick_that_resolves_the_turn_drops_its_held_acknowledgements(tmp_path, monkeypatch):
    from pbem.tick import tick

    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:00:00+00:00")
    campaign = game(tmp_path)
    campaign.set_deadline("2026-11-30T12:00:00+00:00")
    order = some_order(campaign, "Lena")
    new = campaign.folder / "mail" / "inbox" / "new"
    new.mkdir(parents=True, exist_ok=True)
    for n in range(3):
        (new / f"{n}.eml").write_bytes(mail("Lena", order))
    report = tick(campaign)
    assert report.resolved is None and len(held_drafts(campaign)) == 2
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T12:00:01+00:00")  # the deadline has passed
    report = tick(Campaign(campaign.folder))
    assert report.resolved == 1
    assert held_drafts(Campaign(campaign.folder)) == []
    lena = [
        p for p in (campaign.folder / "mail" / "outbox").glob("ack-t001-*.eml") if "Lena" in p.read_text()
    ]
    assert len(lena) == 1  # the one the limit let go (no SMTP here to send it), not the two held
    assert "held acknowledgement" in "\n".join(report.lines())


def test_a_held_acknowledgement_of_the_awaited_turn_stays_for_the_gm(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:00:00+00:00")
    campaign = game(tmp_path)
    order = some_order(campaign, "Ida")
    _, second = receive(campaign, mail("Ida", order), mail("Ida", order))
    assert second.ack_held
    assert drop_stale_acks(Campaign(campaign.folder)) == []
    assert held_drafts(campaign) == [second.ack]


@pytest.mark.parametrize("limit", [1, 3])
def test_the_last_acknowledgement_the_limit_lets_go_says_the_next_ones_wait(tmp_path, monkeypatch, limit):
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:00:00+00:00")
    campaign = game(tmp_path, limit)
    order = some_order(campaign, "Kurt")
    outcomes = receive(campaign, *(mail("Kurt", order) for _ in range(limit + 1)))
    bodies = [ack_body(campaign, o.ack) for o in outcomes]
    for body in bodies[: limit - 1]:
        assert "wait for the GM" not in body
    last = " ".join(bodies[limit - 1].split())
    assert not outcomes[limit - 1].ack_held and outcomes[limit].ack_held
    assert "wait for the GM" in last and "11:00" in last, last
    assert "still read and their orders recorded" in last


def test_near_the_deadline_the_last_acknowledgement_says_the_deadline_comes_first(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:00:00+00:00")
    campaign = game(tmp_path)
    campaign.set_deadline("2026-11-30T10:30:00+00:00")
    campaign = Campaign(campaign.folder)
    monkeypatch.setenv("PBEM_NOW", "2026-11-30T10:10:00+00:00")
    (first,) = receive(campaign, mail("Kurt", some_order(campaign, "Kurt")))
    body = " ".join(ack_body(campaign, first.ack).split())
    assert "wait for the GM" in body and "deadline" in body and "10:30" in body, body
