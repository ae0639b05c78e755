"""A deadline that moves, told to every player through the real mail path
(issue 24, item 1): `pbem deadline` drafts a notice, `pbem send` sends it by
SMTP into Dovecot, and every player reads it by IMAP."""

from __future__ import annotations

from test_game_by_mail import Player, game_by_mail, pbem, wait_for

SCHEDULE = 'deadline: {timezone: Europe/Paris, every_days: 3, at: "20:00"}\n'


def _game(tmp_path, dovecot, smtp_server, monkeypatch):
    monkeypatch.setenv("PBEM_NOW", "2026-12-01T10:00:00+00:00")  # turn 1 is due Fri 4 Dec, 20:00 Paris
    return game_by_mail(
        tmp_path, dovecot, smtp_server, monkeypatch, "game24d", title="Moving game", seed=24, top=SCHEDULE
    )


def _notices(player: Player) -> list:
    found: list = []

    def arrived():
        found.extend(m for m in player.inbox() if "the deadline has moved" in str(m["Subject"]))
        return found

    return wait_for(arrived, f"{player.name}'s deadline notice")


def test_a_moved_deadline_is_told_to_every_player_by_mail(tmp_path, dovecot, smtp_server, monkeypatch):
    folder, people = _game(tmp_path, dovecot, smtp_server, monkeypatch)
    out = pbem("start", folder)
    pbem("send", folder)
    for player in people.values():  # the opening mail states the first deadline
        opening = wait_for(lambda p=player: p.inbox(), f"{player.name}'s opening mail")
        assert any("Friday 4 December 2026, 20:00 Europe/Paris" in m.get_content() for m in opening)

    out = pbem("deadline", folder, "+2d")
    assert "Sunday 6 December 2026, 20:00 Europe/Paris" in out, out
    out = pbem("send", folder)
    assert "sent" in out and "4 sent" in out, out
    for player in people.values():
        notice = _notices(player)
        assert len(notice) == 1
        body = notice[0].get_content()
        assert "has moved later" in body and "Sunday 6 December 2026, 20:00 Europe/Paris" in body, body
        assert "It was Friday 4 December 2026, 20:00 Europe/Paris" in body, body

    out = pbem("deadline", folder, "2026-12-05 12:00", "--earlier")
    pbem("send", folder)
    for player in people.values():
        body = _notices(player)[0].get_content()
        assert "has moved earlier" in body and "Saturday 5 December 2026, 12:00 Europe/Paris" in body, body
        assert "sooner than before" in body
