"""Issue 18.1: a turn played blind after an SMTP outage.

Before: with ``auto_send: [report]`` a tick sent only the reports of the turn
it had just resolved. When that send failed, later ticks left them waiting
"for the GM's review", exit 0, and at the next deadline the following turn was
resolved with every order an NMR default, and mailed. Now what auto_send
allows goes on the next tick that can send, the deadline is held while the
turn's mail has not reached the players, then moved on by the time lost, and
every tick says so (exit 1, for cron to mail the GM).
"""

from __future__ import annotations

from datetime import datetime

import pytest
from servers import SMTP_PASSWORD
from tick_kit import PASSWORD_ENV, awaited_turn, pbem, received_ids, turn_mail, write_campaign


@pytest.fixture
def server(sink_smtp):
    """conftest's sink_smtp (STARTTLS, AUTH, keeps what it accepts), by this file's name."""
    return sink_smtp


@pytest.fixture
def game(tmp_path, server, monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, SMTP_PASSWORD)
    folder = write_campaign(tmp_path / "outage", server, tmp_path / "ca.pem")
    result = pbem("tick", folder, now="2026-11-02T12:01:00+00:00")
    assert result.exit_code == 0, result.output
    assert "Sent on its own (auto_send): 8 mail(s)." in result.output
    return folder


def test_reports_a_failed_tick_could_not_send_go_on_the_next_tick(game, server):
    server.reject(lambda envelope: True, code=554, text="5.3.0 Out of order")  # every message refused
    result = pbem("tick", game, now="2026-11-05T12:01:00+00:00")
    assert "Turn 1 resolved." in result.output
    assert result.exit_code == 1 and "could not send" in result.output
    assert "8 draft(s) that auto_send allows are not sent yet; the next tick sends them." in result.output
    server.clear_faults()
    result = pbem("tick", game, now="2026-11-05T12:06:00+00:00")
    assert result.exit_code == 0, result.output
    assert "Sent on its own (auto_send): 8 mail(s)." in result.output
    ids = received_ids(server)
    assert all(ids[mid] == 1 for mid in turn_mail(game, 1).values()), ids
    assert "wait for the GM's review" not in result.output


def test_a_deadline_never_falls_on_players_who_did_not_get_the_turn_mail(game, server):
    server.stop()  # the SMTP server is down from turn 1's deadline on
    result = pbem("tick", game, now="2026-11-05T12:01:00+00:00")
    assert "Turn 1 resolved." in result.output
    assert result.exit_code == 1 and "Sending stopped" in result.output
    result = pbem("tick", game, now="2026-11-08T12:01:00+00:00")  # turn 2's deadline, mail undelivered
    assert result.exit_code == 1, result.output
    assert "HELD: turn 2's deadline" in result.output and "NOT resolved" in result.output
    assert "Turn 2 resolved." not in result.output
    assert awaited_turn(game) == 2
    status = pbem("status", game, now="2026-11-08T12:02:00+00:00").output
    assert "Turn mail not sent (8)" in status and "holds the deadline" in status

    server.restart()  # back, three days and an hour late
    result = pbem("tick", game, now="2026-11-08T13:01:00+00:00")
    assert result.exit_code == 0, result.output
    assert "Sent on its own (auto_send): 8 mail(s)." in result.output
    assert "Turn 2's mail reached the players 3 days 1 hour late" in result.output
    assert awaited_turn(game) == 2
    ids = received_ids(server)
    assert all(ids[mid] == 1 for mid in turn_mail(game, 1).values()), ids
    assert "Turn mail not sent" not in pbem("status", game, now="2026-11-08T13:02:00+00:00").output

    # The deadline (8 November, 12:00) moved on by the time lost (3 days 1 hour): 11 November, 13:00.
    assert pbem("tick", game, now="2026-11-11T12:59:00+00:00").exit_code == 0
    assert awaited_turn(game) == 2
    result = pbem("tick", game, now="2026-11-11T13:02:00+00:00")
    assert "Turn 2 resolved." in result.output, result.output
    assert "Sent on its own (auto_send): 8 mail(s)." in result.output
    ids = received_ids(server)
    assert len(ids) == 24 and set(ids.values()) == {1}


def test_a_gm_who_reviews_gets_the_deadline_held_too(tmp_path, server, monkeypatch):
    """Without auto_send for reports, the GM sends them: until then, no deadline falls."""
    monkeypatch.setenv(PASSWORD_ENV, SMTP_PASSWORD)
    folder = write_campaign(tmp_path / "review", server, tmp_path / "ca.pem", auto_send="[]")
    result = pbem("tick", folder, now="2026-11-05T12:01:00+00:00")  # the opening mails were never sent
    assert result.exit_code == 1 and "HELD: turn 1's deadline" in result.output
    assert awaited_turn(folder) == 1
    assert pbem("send", folder, now="2026-11-05T15:00:00+00:00").exit_code == 0
    result = pbem("tick", folder, now="2026-11-05T15:01:00+00:00")
    assert "deadline moves from" in result.output and awaited_turn(folder) == 1, result.output
    deadline = datetime.fromisoformat(
        __import__("json").loads(pbem("status", folder, "--json").output)["deadline"]["at"]
    )
    assert deadline == datetime.fromisoformat("2026-11-08T15:00:00+00:00")
