"""Issue 24, item 1: deadlines that move in the open.

``pbem deadline DIR +2d`` extends the current deadline (``--from-now`` counts
from now); a deadline earlier than the current one needs ``--earlier``; every
change drafts a notice to every player; ``pbem new`` takes the deadline
settings, so the opening mails state the first deadline."""

from __future__ import annotations

from email import message_from_bytes, policy

from test_unattended import Clock, make, run, utc

from pbem.campaign import Campaign
from pbem.config import ConfigError


def notices(campaign: Campaign) -> list:
    folder = campaign.folder / "mail" / "outbox"
    return [
        message_from_bytes(p.read_bytes(), policy=policy.default)
        for p in sorted(folder.glob("deadline-*.eml"))
    ]


def test_plus_two_days_extends_the_current_deadline_not_now(tmp_path):
    campaign = make(tmp_path)  # turn 1 due Sunday 25 October 2026, 20:00 Paris (19:00 UTC)
    code, out = run("deadline", campaign.folder, "+2d", now="2026-10-23T10:00:00+00:00")
    assert code == 0, out
    assert campaign.deadline() == utc("2026-10-27 19:00")
    assert "Tuesday 27 October 2026, 20:00 Europe/Paris" in out
    assert "was Sunday 25 October 2026, 20:00 Europe/Paris" in out


def test_from_now_counts_from_now_and_an_earlier_deadline_needs_earlier(tmp_path):
    campaign = make(tmp_path)
    code, out = run("deadline", campaign.folder, "+1d", "--from-now", now="2026-10-23T10:00:00+00:00")
    assert code == 1 and "earlier than the current deadline" in out and "--earlier" in out, out
    assert "Traceback" not in out
    assert campaign.deadline() == utc("2026-10-25 19:00")  # unchanged
    assert notices(campaign) == []  # nothing drafted for a refused change
    code, out = run(
        "deadline", campaign.folder, "+1d", "--from-now", "--earlier", now="2026-10-23T10:00:00+00:00"
    )
    assert code == 0, out
    assert campaign.deadline() == utc("2026-10-24 10:00")
    code, out = run("deadline", campaign.folder, "2026-10-24 09:00", now="2026-10-23T10:00:00+00:00")
    assert code == 1 and "earlier than the current deadline" in out, out
    code, out = run("deadline", campaign.folder, "+3d", "--from-now", now="2026-10-23T10:00:00+00:00")
    assert code == 0 and campaign.deadline() == utc("2026-10-26 10:00"), out


def test_every_change_drafts_a_notice_to_every_player(tmp_path):
    campaign = make(tmp_path)
    code, out = run("deadline", campaign.folder, "+2d", now="2026-10-23T10:00:00+00:00")
    assert code == 0 and "3 notices drafted" in out, out
    mails = notices(campaign)
    assert sorted(str(m["To"]) for m in mails) == [
        "Arthur <arthur@example.org>",
        "Bruno <bruno@example.org>",
        "Chloé <chloe@example.fr>",
    ]
    for mail in mails:
        assert "[clock] Turn 1: the deadline has moved" in str(mail["Subject"])
        body = mail.get_content()
        assert "Tuesday 27 October 2026, 20:00 Europe/Paris" in body
        assert "Sunday 25 October 2026, 20:00 Europe/Paris" in body
        assert "later" in body
    code, out = run("deadline", campaign.folder, "+1d", now="2026-10-23T10:00:00+00:00")
    assert code == 0 and len(notices(campaign)) == 6  # a second change: a second notice each


def test_moving_the_deadline_of_a_game_without_a_schedule(tmp_path):
    campaign = make(tmp_path, extra="")
    code, out = run("deadline", campaign.folder, "+2d", now="2026-10-23T10:00:00+00:00")
    assert code == 0 and campaign.deadline() == utc("2026-10-25 10:00"), out  # no deadline yet: from now
    assert "3 notices drafted" in out


def test_move_deadline_library(tmp_path):
    campaign = make(tmp_path)
    campaign.clock.moment = utc("2026-10-23 10:00")
    moved = campaign.set_deadline("+6h")
    assert moved == utc("2026-10-26 01:00")
    try:
        campaign.set_deadline("+1h", from_now=True)
    except ConfigError as e:
        assert "earlier than the current deadline" in str(e)
    else:
        raise AssertionError("an earlier deadline was accepted without earlier=True")


def test_new_takes_the_deadline_settings_and_the_opening_mails_state_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-10-22T10:00:00+00:00")
    folder = tmp_path / "fresh"
    code, out = run(
        "new",
        folder,
        "--player",
        "Arthur <arthur@example.org>",
        "--player",
        "Bruno <bruno@example.org>",
        "--gm",
        "Rita <gm@example.org>",
        "--seed",
        "7",
        "--timezone",
        "Europe/Paris",
        "--every-days",
        "3",
        "--at",
        "19:30",
        "--remind-hours",
        "12",
        now="2026-10-22T10:00:00+00:00",
    )
    assert code == 0, out
    assert "Sunday 25 October 2026, 19:30 Europe/Paris" in out
    campaign = Campaign(folder, clock=Clock(utc("2026-10-22 10:00")))
    assert campaign.schedule.every_days == 3 and campaign.schedule.remind_hours == 12
    opening = folder / "turns" / "turn-000" / "reports"
    texts = [p.read_text(encoding="utf-8") for p in opening.rglob("*.txt")]
    assert texts and all("Sunday 25 October 2026, 19:30 Europe/Paris" in t for t in texts)


def test_new_with_a_first_deadline_and_bad_settings(tmp_path):
    code, out = run(
        "new",
        tmp_path / "first",
        "--player",
        "Arthur <arthur@example.org>",
        "--player",
        "Bruno <bruno@example.org>",
        "--deadline",
        "2026-10-30 21:00",
        "--timezone",
        "Europe/Paris",
        "--every-days",
        "4",
        now="2026-10-22T10:00:00+00:00",
    )
    assert code == 0 and "Friday 30 October 2026, 21:00 Europe/Paris" in out, out
    code, out = run(
        "new",
        tmp_path / "bad",
        "--player",
        "Arthur <arthur@example.org>",
        "--player",
        "Bruno <bruno@example.org>",
        "--timezone",
        "Mars/Olympus",
        "--every-days",
        "4",
    )
    assert code == 1 and "unknown time zone" in out and "Traceback" not in out, out
    assert not (tmp_path / "bad" / "campaign.yaml").exists()
    code, out = run(
        "new",
        tmp_path / "bad2",
        "--player",
        "Arthur <arthur@example.org>",
        "--player",
        "Bruno <bruno@example.org>",
        "--every-days",
        "4",
    )
    assert code == 1 and "--timezone" in out, out
