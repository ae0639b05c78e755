"""Civil disorder and the standby, through the real mail path (issue 24, item 3).

Bruno sends nothing for two postal turns; the others reply to their turn mails
by SMTP into Dovecot, `pbem fetch` reads them by IMAP, and `pbem tick` resolves
each turn at its deadline. After the second, the tick mails the GM a notice
naming the first standby, the public report says that Bruno's seat is in civil
disorder (and nothing more), and `pbem replace --standby` gives the seat to
Dora, who is told by mail and asks for her cards with STATUS."""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default as default_policy

import yaml
from test_deadline_by_mail import SCHEDULE
from test_game_by_mail import NAMES, Player, game_by_mail, pbem, wait_for
from test_proxy_by_mail import _mails


def _gm_mail(dovecot, gm: str, subject_has: str) -> list:
    """The GM's messages whose subject holds ``subject_has``, read without a flag
    set (`pbem fetch` reads the same mailbox)."""

    def found():
        with dovecot.imap(gm) as client:
            client.select_folder("INBOX", readonly=True)
            uids = client.search(["ALL"])
            data = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
        messages = [message_from_bytes(data[u][b"BODY[]"], policy=default_policy) for u in sorted(data)]
        return [m for m in messages if subject_has in str(m["Subject"])]

    return wait_for(found, f"the GM's mail {subject_has!r}")


def _play_turn(folder, people: dict[str, Player], turn: int, now: str, monkeypatch) -> None:
    """Everyone but Bruno answers the turn mail with legal orders."""
    monkeypatch.setenv("PBEM_NOW", now)
    repliers = [p for name, p in people.items() if name != "Bruno"]
    for p in repliers:
        mail = _mails(p, f"{p.name}'s turn {turn} mail", f"Turn {turn}: your cards and orders")[-1]
        orders = p.orders_for(mail.get_content(), [n for n in NAMES if n != p.name])
        assert orders, mail.get_content()
        p.reply(mail, orders)

    def fetched():
        fetched.total += pbem("fetch", folder).count(": recorded (")
        return fetched.total >= len(repliers)

    fetched.total = 0
    wait_for(fetched, f"turn {turn}'s replies")


def test_missed_turns_tell_the_gm_by_mail_and_the_standby_takes_the_seat(
    tmp_path, dovecot, smtp_server, monkeypatch
):
    dora = dovecot.new_account()
    monkeypatch.setenv("PBEM_NOW", "2026-12-01T10:00:00+00:00")  # turn 1 due Fri 4 Dec, 20:00 Paris
    top = (
        SCHEDULE
        + "civil_disorder: {after_turns: 2, mark: true}\n"
        + f"standby:\n  - {{name: Dora, email: {dora}}}\n"
    )
    folder, people = game_by_mail(
        tmp_path, dovecot, smtp_server, monkeypatch, "game24s", title="Seats game", seed=24, top=top
    )
    gm = yaml.safe_load((folder / "campaign.yaml").read_text(encoding="utf-8"))["gm"]["email"]
    pbem("start", folder)
    pbem("send", folder)
    _play_turn(folder, people, 1, "2026-12-01T10:00:00+00:00", monkeypatch)
    monkeypatch.setenv("PBEM_NOW", "2026-12-04T19:30:00+00:00")  # past the deadline
    out = pbem("tick", folder)
    assert "Turn 1 resolved." in out and "Civil disorder" not in out, out
    pbem("send", folder)  # the turn mails leave at once (a late one would move the deadline)

    _play_turn(folder, people, 2, "2026-12-05T10:00:00+00:00", monkeypatch)
    monkeypatch.setenv("PBEM_NOW", "2026-12-07T19:30:00+00:00")  # turn 2 was due Mon 7 Dec, 20:00 Paris
    out = pbem("tick", folder)
    assert "Turn 2 resolved." in out, out
    assert "Civil disorder: Bruno missed 2 turns in a row (since turn 1); first standby: Dora" in out, out
    assert "The GM was told by mail: gm-disorder-t002-seat2." in out, out

    notice = _gm_mail(dovecot, gm, "Bruno missed 2 turns in a row")
    assert len(notice) == 1
    body = notice[0].get_content()
    assert "Bruno (seat 2) has missed 2 postal turns in a row, since turn 1" in body, body
    assert f"The first player on your standby list is Dora <{dora}>" in body, body
    assert f"pbem replace {folder} Bruno --standby" in body, body
    review = _gm_mail(dovecot, gm, "Turn 2 waits for your review")[0].get_content()
    assert "Civil disorder: Bruno missed 2 turns in a row" in review, review

    out = pbem("status", folder)
    assert "Civil disorder: Bruno missed 2 turns in a row" in out and f"Dora <{dora}>" in out, out
    pbem("send", folder)
    report = _mails(people["Arthur"], "the turn 2 report", "report of turn 2")[-1].get_content()
    assert "Bruno's seat is in civil disorder (missed turns)." in report, report
    assert "Arthur's seat is in" not in report and "standby" not in report.lower()

    out = pbem("replace", folder, "Bruno", "--standby")
    assert "Bruno's seat is now Dora's; campaign.yaml and its standby list updated" in out, out
    assert yaml.safe_load((folder / "campaign.yaml").read_text(encoding="utf-8"))["standby"] == []
    pbem("send", folder)
    newcomer = Player("Dora", dora, "gmail", dovecot, smtp_server)
    welcome = _mails(newcomer, "Dora's notice", "you take seat 2")[-1]
    text = welcome.get_content()
    assert "you now play seat 2, in place of Bruno, from turn 3 on" in text, text
    assert "Your order code:" in text
    newcomer.reply(welcome, ["STATUS"])
    wait_for(lambda: ": recorded (" in pbem("fetch", folder) or None, "Dora's STATUS")
    pbem("send", folder)
    answer = _mails(newcomer, "the answer to Dora's STATUS", "Turn 3")[-1].get_content()
    assert "Dora" in answer and "Hand" in answer, answer
    out = pbem("status", folder)
    assert "Civil disorder" not in out, out
