"""Issue 18.13: an unattended tick does not trust a clock that looks wrong.

Before: a tick with the clock ten years ahead resolved turn 1 with every order
an NMR default; back at the right time, turn 2's deadline stood in 2036 and
the game stalled without a word. Now a clock earlier than the latest turn's
start, or more than 30 days past the deadline, holds the tick (nothing is
resolved, no reminder drafted) with a warning, until the clock is right or the
GM says it is (`pbem tick --trust-clock`).
"""

from __future__ import annotations

from test_unattended import at, make, run, utc

from pbem.deadlines import CLOCK_AHEAD_LIMIT, clock_doubt
from pbem.tick import tick


def test_a_clock_ten_years_ahead_resolves_nothing_and_says_why(tmp_path):
    campaign = make(tmp_path)  # turn 1 opened 2026-10-22, due 2026-10-25 19:00 UTC
    report = tick(at(campaign, "2036-10-22 10:00"))
    assert report.resolved is None and report.reminders == []
    assert "more than 30 days past the deadline" in report.held and "--trust-clock" in report.held
    assert campaign.position().game.turn == 1
    # Back at the right time: the game goes on as if nothing happened.
    assert campaign.deadline() == utc("2026-10-25 19:00")
    assert tick(at(campaign, "2026-10-24 10:00")).held == ""
    report = tick(at(campaign, "2026-10-25 19:30"))
    assert report.resolved == 1
    assert campaign.deadline() == utc("2026-10-28 19:00")


def test_a_clock_earlier_than_the_turns_start_holds_the_tick(tmp_path):
    campaign = make(tmp_path)
    at(campaign, "2026-10-25 19:30").resolve()  # turn 2 opened on 25 October
    report = tick(at(campaign, "2025-10-26 10:00"))  # a year behind
    assert "earlier than the start of the latest turn" in report.held
    assert report.resolved is None and campaign.position().game.turn == 2


def test_the_gm_says_the_clock_is_right(tmp_path):
    campaign = make(tmp_path)
    code, out = run("tick", campaign.folder, now="2027-01-10T10:00:00+00:00")
    assert code == 1 and "HELD:" in out and "Turn 1 resolved." not in out
    code, out = run("tick", campaign.folder, "--trust-clock", now="2027-01-10T10:00:00+00:00")
    assert code == 0 and "Turn 1 resolved." in out, out


def test_an_outage_shorter_than_the_bound_is_caught_up_without_a_word():
    opened, deadline = utc("2026-10-22 10:00"), utc("2026-10-25 19:00")
    assert clock_doubt(utc("2026-11-20 12:00"), opened, deadline) == ""
    assert clock_doubt(deadline + CLOCK_AHEAD_LIMIT, opened, deadline) == ""
    assert clock_doubt(utc("2026-10-22 09:55"), opened, deadline) == ""  # clocks disagree a little
    assert clock_doubt(utc("2026-10-22 09:00"), opened, deadline)
    assert clock_doubt(utc("2026-12-01 00:00"), opened, deadline)
