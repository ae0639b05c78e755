"""ABSENT and BACK by mail, against real servers (issue 24, item 2).

A player replies to their turn mail with ``ABSENT <date> to <date>`` alone on a
line, through SMTP into Dovecot; `pbem fetch` reads it by IMAP and the
acknowledgement says what will happen, or why the absence is refused
(overlapping, too long, more than allowed); ``BACK`` ends it early. The public
report says who is away, never why."""

from __future__ import annotations

from test_deadline_by_mail import _game as _deadline_game
from test_game_by_mail import pbem, wait_for
from test_proxy_by_mail import _mails

POLICY = "absence: {max_days: 7, per_game: 2, then: extend}\n"


def _game(tmp_path, dovecot, smtp_server, monkeypatch):
    folder, people = _deadline_game(tmp_path, dovecot, smtp_server, monkeypatch)
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as f:
        f.write(POLICY)
    return folder, people


class Writer:
    """A player who answers their turn mail (read once) with one keyword at a time."""

    def __init__(self, folder, player, monkeypatch):
        self.folder, self.player, self.turn_mail = folder, player, None
        self.monkeypatch = monkeypatch
        self.hour = 10

    def send(self, keyword: str, now: str | None = None) -> str:
        # an hour apart: a player's acknowledgements per hour are limited (mail.acks_per_hour)
        self.hour += 1
        self.monkeypatch.setenv("PBEM_NOW", now or f"2026-12-01T{self.hour:02d}:00:00+00:00")
        pbem("send", self.folder)
        if self.turn_mail is None:
            self.turn_mail = _mails(self.player, "the turn mail", "your cards and orders")[-1]
        self.player.reply(self.turn_mail, [keyword])
        wait_for(lambda: ": recorded (" in pbem("fetch", self.folder), f"{keyword}")
        pbem("send", self.folder)
        return _mails(self.player, f"the acknowledgement of {keyword}", "orders received")[-1].get_content()


def test_absent_by_mail_extends_the_deadline_and_back_ends_it_early(
    tmp_path, dovecot, smtp_server, monkeypatch
):
    folder, people = _game(tmp_path, dovecot, smtp_server, monkeypatch)  # turn 1 due Fri 4 Dec, 20:00 Paris
    pbem("start", folder)
    bruno = Writer(folder, people["Bruno"], monkeypatch)
    ack = bruno.send("ABSENT 2026-12-03 to 2026-12-06")
    assert "you are away from 3 to 6 December 2026" in ack, ack
    assert "deadline" in ack and "I found no order" not in ack and "not orders" not in ack, ack
    out = pbem("status", folder)
    assert "Away: Bruno (3 to 6 December 2026)" in out, out
    assert "Monday 7 December 2026, 20:00 Europe/Paris" in out, out  # the day after the absence
    notices = _mails(people["Arthur"], "the deadline notice", "the deadline has moved")
    assert "Monday 7 December 2026, 20:00 Europe/Paris" in notices[-1].get_content()

    ack = bruno.send("ABSENT 2026-12-05 to 2026-12-08")
    assert "overlaps your absence" in ack and "nothing was changed" in ack, ack
    ack = bruno.send("ABSENT 2026-12-10 to 2026-12-20")
    assert "11 days is longer than this game allows (7 days)" in ack, ack
    ack = bruno.send("ABSENT 2026-12-10 to 2026-12-12")
    assert "you are away from 10 to 12 December 2026" in ack, ack
    ack = bruno.send("ABSENT 2026-12-20 to 2026-12-21")
    assert "as many as this game allows (2 absences)" in ack, ack

    ack = bruno.send("BACK", now="2026-12-04T08:00:00+00:00")
    assert "Welcome back" in ack and "3 December 2026" in ack, ack
    out = pbem("status", folder)
    assert "Friday 4 December 2026, 20:00 Europe/Paris" in out, out
    assert "Away: Bruno (10 to 12 December 2026)" in out, out  # the one to come stands

    pbem("resolve", folder, "--force")
    pbem("send", folder)
    report = _mails(people["Arthur"], "the turn 1 report", "report of turn 1")[-1].get_content()
    assert "Away: Bruno (10 to 12 December 2026)." in report, report
