"""PROXY ON and PROXY OFF by mail, against real servers (issue 24, item 4).

A player replies to their turn mail with ``PROXY ON`` alone on a line, through
SMTP into Dovecot; `pbem fetch` reads it by IMAP, the acknowledgement says what
will happen, and at the resolution the proxy plays that player's missing orders
(the turn mail every player gets says "by the proxy") while the others' are
played by the rules' default. ``PROXY OFF`` stops it; ``proxy: false`` refuses it.
"""

from __future__ import annotations

from test_game_by_mail import Player, game_by_mail, pbem, wait_for


def _game(tmp_path, dovecot, smtp_server, monkeypatch, top: str = ""):
    return game_by_mail(
        tmp_path, dovecot, smtp_server, monkeypatch, "game24", title="Proxy game", seed=24, top=top
    )


def _mails(player: Player, what: str, subject_has: str) -> list:
    found: list = []

    def arrived():
        found.extend(m for m in player.inbox() if subject_has in str(m["Subject"]))
        return found

    return wait_for(arrived, what)


def _send_keyword(folder, player: Player, keyword: str) -> str:
    """``keyword`` in a reply to the player's latest turn mail; the acknowledgement's text."""
    pbem("send", folder)
    turn_mail = _mails(player, f"{player.name}'s turn mail", "your cards and orders")[-1]
    player.reply(turn_mail, [keyword])
    wait_for(lambda: ": recorded (" in pbem("fetch", folder), f"{player.name}'s {keyword}")
    pbem("send", folder)
    ack = _mails(player, f"the acknowledgement of {keyword}", "orders received")[-1]
    return ack.get_content()


def test_proxy_on_by_mail_lets_the_proxy_play_then_proxy_off_stops_it(
    tmp_path, dovecot, smtp_server, monkeypatch
):
    folder, people = _game(tmp_path, dovecot, smtp_server, monkeypatch)
    pbem("start", folder)
    bruno = people["Bruno"]
    ack = _send_keyword(folder, bruno, "PROXY ON")
    assert "As you asked (PROXY ON), from now on the proxy plays" in ack, ack
    assert "I found no order" not in ack
    assert "not orders" not in ack  # the keyword is not counted as a stray line

    out = pbem("resolve", folder, "--force")
    assert "NMR defaults applied for Bruno" not in out, out
    assert "played by the proxy for Bruno: hand" in out, out
    pbem("send", folder)
    report = _mails(people["Arthur"], "the turn 1 report", "report of turn 1")[-1].get_content()
    bruno_lines = [line for line in report.splitlines() if "played for Bruno" in line]
    assert bruno_lines and all("by the proxy" in line for line in bruno_lines), report
    others = [line for line in report.splitlines() if "played for Arthur" in line]
    assert others and all("by the default rules" in line for line in others), report

    ack = _send_keyword(folder, bruno, "PROXY OFF")
    assert "As you asked (PROXY OFF), the proxy no longer plays for you" in ack, ack
    pbem("resolve", folder, "--force")
    pbem("send", folder)
    report = _mails(people["Arthur"], "the turn 2 report", "report of turn 2")[-1].get_content()
    assert "by the proxy" not in report, report


def test_proxy_on_by_mail_where_the_campaign_forbids_it(tmp_path, dovecot, smtp_server, monkeypatch):
    folder, people = _game(tmp_path, dovecot, smtp_server, monkeypatch, top="proxy: false\n")
    pbem("start", folder)
    ack = _send_keyword(folder, people["Bruno"], "PROXY ON")
    assert "This game does not use the proxy" in ack, ack
    pbem("resolve", folder, "--force")
    pbem("send", folder)
    report = _mails(people["Arthur"], "the turn 1 report", "report of turn 1")[-1].get_content()
    assert "by the proxy" not in report
