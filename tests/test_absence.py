"""Issue 24, item 2: absence. A player announces ``ABSENT <date> to <date>``
(and ``BACK``); the campaign's ``absence:`` policy (maximum days, how many per
game, and what happens: ``extend`` the deadline, or ``proxy``) decides."""

from __future__ import annotations

from datetime import date

import pytest
from test_unattended import SCHEDULE, make, run, utc

from pbem.absence import ACCEPTED, REFUSED, away_on, back, parse_policy, request
from pbem.config import ConfigError
from pbem.grammar import absence_request, is_absence_line

POLICY = parse_policy({"max_days": 10, "per_game": 2, "then": "extend"})
TODAY = date(2026, 12, 1)


def test_the_keywords_are_read_alone_on_a_line():
    assert absence_request("Hand 1: Guard on Bruno, guess Priest\nABSENT 2026-12-10 to 2026-12-20\n") == (
        "absent",
        date(2026, 12, 10),
        date(2026, 12, 20),
    )
    assert absence_request("absent 2026-12-10 20:00 to 2026-12-12") == (
        "absent",
        date(2026, 12, 10),
        date(2026, 12, 12),
    )
    assert absence_request("BACK") == ("back", None, None)
    assert absence_request("I'll be back on Monday") is None
    assert absence_request("ABSENT next week") == ("bad", None, None)
    assert is_absence_line("  Back. ") and is_absence_line("ABSENT 2026-12-10 to 2026-12-20")


def test_an_absence_within_the_policy_is_accepted():
    outcome = request([], "Bruno", date(2026, 12, 10), date(2026, 12, 19), POLICY, TODAY)
    assert outcome.status == ACCEPTED and outcome.record["from"] == "2026-12-10"
    assert away_on([outcome.record], date(2026, 12, 19)) == ["Bruno"]
    assert away_on([outcome.record], date(2026, 12, 20)) == []


def test_too_long_overlapping_and_more_than_allowed_are_refused_with_a_reason():
    too_long = request([], "Bruno", date(2026, 12, 10), date(2026, 12, 20), POLICY, TODAY)
    assert too_long.status == REFUSED and "11 days" in too_long.reason and "10" in too_long.reason
    first = request([], "Bruno", date(2026, 12, 10), date(2026, 12, 12), POLICY, TODAY).record
    overlap = request([first], "Bruno", date(2026, 12, 12), date(2026, 12, 14), POLICY, TODAY)
    assert overlap.status == REFUSED and "overlaps" in overlap.reason
    assert (
        request([first], "Arthur", date(2026, 12, 12), date(2026, 12, 14), POLICY, TODAY).status == ACCEPTED
    )
    second = request([first], "Bruno", date(2026, 12, 20), date(2026, 12, 21), POLICY, TODAY).record
    third = request([first, second], "Bruno", date(2026, 12, 24), date(2026, 12, 25), POLICY, TODAY)
    assert third.status == REFUSED and "2 absences" in third.reason
    backwards = request([], "Bruno", date(2026, 12, 12), date(2026, 12, 10), POLICY, TODAY)
    assert backwards.status == REFUSED and "ends before it starts" in backwards.reason
    past = request([], "Bruno", date(2026, 11, 20), date(2026, 11, 22), POLICY, TODAY)
    assert past.status == REFUSED and "past" in past.reason


def test_back_early_ends_the_absence_today():
    record = request([], "Bruno", date(2026, 12, 1), date(2026, 12, 9), POLICY, TODAY).record
    absences, ended = back([record], "Bruno", date(2026, 12, 4))
    assert ended is not None and ended["to"] == "2026-12-03"
    assert away_on(absences, date(2026, 12, 4)) == []
    assert back(absences, "Bruno", date(2026, 12, 4))[1] is None  # nothing to end


def test_bad_policies_are_refused_with_a_sentence():
    assert parse_policy(None).then == "extend"
    for bad, words in (
        ({"max_days": 0}, "max_days"),
        ({"per_game": "many"}, "per_game"),
        ({"then": "sleep"}, "extend or proxy"),
        ("yes", "mapping"),
    ):
        with pytest.raises(ConfigError, match=words):
            parse_policy(bad)


ABSENCE = SCHEDULE + "absence: {max_days: 10, per_game: 2, then: extend}\n"


def test_an_absence_over_the_deadline_extends_it_and_status_and_report_say_who_is_away(tmp_path):
    campaign = make(tmp_path, extra=ABSENCE)  # turn 1 due Sunday 25 October, 20:00 Paris
    code, out = run(
        "absent", campaign.folder, "Bruno", "2026-10-24", "2026-10-27", now="2026-10-23T10:00:00+00:00"
    )
    assert code == 0 and "Bruno is away from 24 to 27 October 2026" in out, out
    assert "deadline" in out
    assert campaign.deadline() == utc("2026-10-28 19:00")  # the day after, at 20:00 Paris
    code, out = run("status", campaign.folder, now="2026-10-24T10:00:00+00:00")
    assert "Away: Bruno (24 to 27 October 2026)" in out, out
    code, out = run(
        "absent", campaign.folder, "Bruno", "2026-10-26", "2026-10-30", now="2026-10-23T10:00:00+00:00"
    )
    assert code == 1 and "overlaps" in out and "Traceback" not in out, out
    code, out = run("absent", campaign.folder, "Bruno", "--back", now="2026-10-25T10:00:00+00:00")
    assert code == 0 and "Bruno is back" in out, out
    assert campaign.deadline() == utc("2026-10-25 19:00")


def test_with_the_proxy_policy_the_proxy_plays_for_the_absent_player(tmp_path):
    extra = SCHEDULE + "absence: {then: proxy}\n"
    campaign = make(tmp_path, extra=extra)
    code, out = run(
        "absent", campaign.folder, "Bruno", "2026-10-22", "2026-10-27", now="2026-10-22T10:00:00+00:00"
    )
    assert code == 0 and "the proxy plays" in out, out
    campaign.clock.moment = utc("2026-10-25 19:00")
    assert "Bruno" in campaign.proxied()
    result = campaign.resolve()
    assert "Bruno" in result.proxied and "Arthur" not in result.proxied
    assert "Away: Bruno" in result.public_report


def test_pbem_order_takes_absent_for_the_gm_and_says_when_it_is_refused(tmp_path):
    campaign = make(tmp_path, extra=ABSENCE)
    code, out = run(
        "order",
        campaign.folder,
        "--player",
        "Bruno",
        "ABSENT 2026-10-24 to 2026-10-27",
        now="2026-10-23T10:00:00+00:00",
    )
    assert code == 0 and "ABSENT: Bruno is away 24 to 27 October 2026" in out, out
    assert "no order could be read" not in out
    assert campaign.deadline() == utc("2026-10-28 19:00")
    assert len(list((campaign.folder / "mail" / "outbox").glob("deadline-*.eml"))) == 3
    code, out = run(
        "order",
        campaign.folder,
        "--player",
        "Bruno",
        "ABSENT 2026-10-27 to 2026-11-20",
        now="2026-10-23T10:00:00+00:00",
    )
    assert code == 1 and "longer than this game allows" in out and "Traceback" not in out, out
