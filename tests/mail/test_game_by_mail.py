"""A whole game by mail, against real servers (issue 4, item 7).

Four simulated players, each a small script that reads its mail by IMAP,
picks legal orders from its private turn mail and replies by SMTP in a real
client's reply layout (Gmail's top-post with the turn mail quoted below,
Thunderbird's inline answer under the quoted form). The GM side runs only the
commands a GM runs: `pbem send`, `pbem fetch`, `pbem resolve`. The game is
played until the winner is announced by mail to every player.
"""

from __future__ import annotations

import re
import smtplib
import time
from email import message_from_bytes
from email.policy import default as default_policy
from email.utils import formatdate, make_msgid

import pytest
from click.testing import CliRunner
from servers import SMTP_PASSWORD, SMTP_USER

from pbem.cli import main

NAMES = ["Arthur", "Bruno", "Chloé", "Dominik"]
RANK = {"Guard": 1, "Spy": 2, "Baron": 3, "Handmaid": 4, "Prince": 5, "King": 6, "Countess": 7, "Princess": 8}


def pbem(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


class Player:
    """A player who reads mail by IMAP and answers by SMTP."""

    def __init__(self, name: str, address: str, layout: str, dovecot, smtp_server):
        self.name = name
        self.address = address
        self.layout = layout
        self.dovecot = dovecot
        self.smtp = smtp_server

    def inbox(self) -> list:
        """New messages, read once (\\Seen afterwards)."""
        with self.dovecot.imap(self.address) as client:
            client.select_folder("INBOX")
            uids = client.search(["UNSEEN"])
            if not uids:
                return []
            fetched = client.fetch(uids, ["RFC822"])
            client.add_flags(uids, [b"\\Seen"])
        return [message_from_bytes(fetched[u][b"RFC822"], policy=default_policy) for u in sorted(uids)]

    def orders_for(self, body: str, others: list[str]) -> list[str]:
        """Legal orders for every hand marked '<- your turn' in the turn mail."""
        lines = []
        for number, cards in re.findall(r"Hand\s+(\d+): ([A-Za-z, ]+?)\s+<- your turn", body):
            held = [c.strip() for c in cards.split(",")]
            if "Countess" in held and ({"King", "Prince"} & set(held)):
                card = "Countess"
            else:
                playable = [c for c in held if c != "Princess"] or held
                card = min(playable, key=lambda c: RANK[c])
            target = others[int(number) % len(others)]
            if card == "Guard":
                lines.append(
                    f"Hand {number}: Guard on {target}, guess {'Baron' if int(number) % 2 else 'Prince'}"
                )
            elif card in ("Spy", "Baron", "King", "Prince"):
                lines.append(f"Hand {number}: {card} on {target}")
            else:
                lines.append(f"Hand {number}: {card}")
        return lines

    def reply(self, original, orders: list[str]) -> None:
        body = original.get_content()
        quoted = "\n".join("> " + line if line else ">" for line in body.splitlines())
        date = formatdate(localtime=True)
        if self.layout == "gmail":  # top-posted, the whole turn mail quoted below
            text = (
                "Hi Rita,\n\n" + "\n".join(orders) + f"\n\nCheers,\n{self.name}\n\n"
                f"On {date}, Rita <{original['From'].addresses[0].addr_spec}> wrote:\n{quoted}\n"
            )
        else:  # Thunderbird: inline, each order under its quoted blank form line
            answers = {re.match(r"Hand (\d+):", o).group(1): o.split(":", 1)[1].strip() for o in orders}
            out = [f"On {date}, Rita wrote:"]
            for line in body.splitlines():
                out.append("> " + line if line else ">")
                form = re.fullmatch(r"Hand (\d+):", line.strip())
                if form and form.group(1) in answers:
                    out.append(answers[form.group(1)])
                    out.append("")
            text = "\n".join(out) + f"\n\n-- \n{self.name}\n"
        from email.message import EmailMessage

        msg = EmailMessage()
        msg["From"] = f"{self.name} <{self.address}>"
        msg["To"] = str(original["From"])
        msg["Subject"] = "Re: " + str(original["Subject"])
        msg["Date"] = date
        msg["Message-ID"] = make_msgid(domain="players.example.test")
        msg["In-Reply-To"] = str(original["Message-ID"])
        msg["References"] = str(original["Message-ID"])
        msg.set_content(text)
        with smtplib.SMTP(self.smtp.host, self.smtp.port, timeout=10) as client:
            client.starttls(context=self.smtp.client_context())
            client.login(SMTP_USER, SMTP_PASSWORD)
            client.send_message(msg)


@pytest.fixture
def mail_game(tmp_path, dovecot, smtp_server, monkeypatch):
    folder, people = game_by_mail(
        tmp_path,
        dovecot,
        smtp_server,
        monkeypatch,
        "game9",
        title="Postal game 9",
        seed=9,
        top="require_code: true\n",
        layouts=("gmail", "thunderbird", "gmail", "thunderbird"),
    )
    return folder, list(people.values())


def game_by_mail(
    tmp_path,
    dovecot,
    smtp_server,
    monkeypatch,
    name: str,
    *,
    title: str,
    seed: int,
    top: str = "",
    layouts: tuple[str, ...] = (),
) -> tuple:
    """A campaign ``name``, written but not started, whose GM and players have real
    Dovecot accounts and send by the test's aiosmtpd: (folder, people by name).
    ``layouts``: each player's mail client in turn (Gmail for all by default)."""
    gm = dovecot.new_account()
    addresses = [dovecot.new_account() for _ in NAMES]
    folder = tmp_path / name
    folder.mkdir()
    ca = tmp_path / "ca.pem"
    smtp_server.ca.cert_pem.write_to_path(str(ca))
    monkeypatch.setenv("GAME9_SMTP", SMTP_PASSWORD)
    monkeypatch.setenv("GAME9_IMAP", dovecot.passwords[gm])
    _campaign_yaml(
        folder,
        gm,
        addresses,
        smtp_server.host,
        smtp_server.port,
        ca,
        dovecot,
        title=title,
        seed=seed,
        top=top,
        smtp="",
        imap=f", folder: INBOX, processed_folder: pbem-{name}",
    )
    clients = layouts or ("gmail",) * len(NAMES)
    people = {n: Player(n, a, c, dovecot, smtp_server) for n, a, c in zip(NAMES, addresses, clients)}
    return folder, people


def wait_for(check, what: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_whole_game_by_mail(mail_game):
    folder, people = mail_game
    pbem("start", folder)
    final_mails: dict[str, object] = {}
    for turn in range(1, 20):
        pbem("send", folder)
        private = {}
        for p in people:
            mails = wait_for(p.inbox, f"{p.name}'s turn {turn} mail")
            for m in mails:
                subject = str(m["Subject"])
                if "Game over" in subject:
                    final_mails.setdefault(p.name, m)
                elif "your cards and orders" in subject:
                    private[p.name] = m
        if len(final_mails) == len(people):
            break
        assert set(private) == set(NAMES), f"turn {turn}: private mails reached only {sorted(private)}"
        for p in people:
            mail = private[p.name]
            orders = p.orders_for(mail.get_content(), [n for n in NAMES if n != p.name])
            if orders:
                p.reply(mail, orders)
        expected = sum(bool(p.orders_for(private[p.name].get_content(), NAMES)) for p in people)

        def fetched(expected=expected):  # called at once, in this turn
            out = pbem("fetch", folder)
            fetched.total += out.count(": recorded (")
            return fetched.total >= expected

        fetched.total = 0
        wait_for(fetched, f"turn {turn} replies to arrive")
        status = pbem("status", folder)
        assert "Every order is in" in status, status
        pbem("resolve", folder)  # no --force: every order came by mail
    else:
        pytest.fail("the game did not end")
    # The winner is announced by mail to every player.
    export = CliRunner().invoke(main, ["export", str(folder)]).output
    import json

    data = json.loads(export)
    assert data["finished"] and data["winners"]
    for mail in final_mails.values():
        body = mail.get_content()
        assert "GAME OVER" in body or "game is over" in body.lower()
        for winner in data["winners"]:
            assert winner in body
    # Every acknowledgement went out too, and nothing was sent twice.
    from pbem.transport import SentLedger

    ledger = SentLedger(folder / "mail" / "sent.jsonl")
    ids = [entry["draft_id"] for entry in ledger.entries()]
    assert len(ids) == len(set(ids)) and ids
    assert ledger.uncertain() == {}


def _campaign_yaml(
    folder,
    gm,
    addresses,
    smtp_host,
    smtp_port,
    ca,
    dovecot,
    *,
    title="Faults",
    seed=5,
    top="",
    smtp=", timeout: 5",
    imap="",
):
    """campaign.yaml for the test servers (passwords in GAME9_SMTP and GAME9_IMAP)."""
    players = "".join(f"  - {{name: {n}, email: {a}}}\n" for n, a in zip(NAMES, addresses))
    (folder / "campaign.yaml").write_text(
        f"title: {title}\ngm: {{name: Rita, email: {gm}}}\nplayers:\n{players}seed: {seed}\n{top}"
        f"mail:\n"
        f"  smtp: {{host: {smtp_host}, port: {smtp_port}, security: starttls,"
        f" user: {SMTP_USER}, password_env: GAME9_SMTP, ca_file: {ca}{smtp}}}\n"
        f"  imap: {{host: {dovecot.host}, port: {dovecot.imap_port}, tls: false, user: {gm},"
        f" password_env: GAME9_IMAP{imap}}}\n",
        encoding="utf-8",
    )


def test_send_with_the_server_down_then_up_sends_everything_once(tmp_path, dovecot, monkeypatch):
    from servers import SmtpServer, free_port

    gm = dovecot.new_account()
    addresses = [dovecot.new_account() for _ in NAMES]
    folder = tmp_path / "faults"
    folder.mkdir()
    port = free_port()
    server = SmtpServer(users={SMTP_USER: SMTP_PASSWORD}, relay=dovecot, starttls=True, port=port)
    ca = tmp_path / "ca.pem"
    server.ca.cert_pem.write_to_path(str(ca))
    monkeypatch.setenv("GAME9_SMTP", SMTP_PASSWORD)
    monkeypatch.setenv("GAME9_IMAP", dovecot.passwords[gm])
    _campaign_yaml(folder, gm, addresses, server.host, port, ca, dovecot)
    pbem("start", folder)
    result = CliRunner().invoke(main, ["send", str(folder)])
    assert result.exit_code == 1 and "Error: " in result.output and str(port) in result.output, result.output
    assert not (folder / "mail" / "sent.jsonl").exists() or not (folder / "mail" / "sent.jsonl").read_text()
    server.start()
    try:
        server.fail_next(2, code=451)  # a temporary failure first, then success
        out = pbem("send", folder)
        assert "8 sent" in out
        assert "0 sent, 8 already sent before" in pbem("send", folder) or "outbox is empty" in pbem(
            "preview", folder
        )
        with dovecot.imap(addresses[0]) as client:
            client.select_folder("INBOX")
            assert len(client.search(["ALL"])) == 2  # public and private, once each
    finally:
        server.stop()


def test_fetch_survives_an_imap_restart_and_a_wrong_password(tmp_path, fresh_dovecot, monkeypatch):
    dovecot = fresh_dovecot
    gm = dovecot.new_account()
    addresses = [dovecot.new_account() for _ in NAMES]
    folder = tmp_path / "game9"
    folder.mkdir()
    monkeypatch.setenv("GAME9_SMTP", "unused")
    monkeypatch.setenv("GAME9_IMAP", "wrong")
    _campaign_yaml(folder, gm, addresses, "127.0.0.1", 1, tmp_path / "none.pem", dovecot)
    (tmp_path / "none.pem").write_text("")
    pbem("start", folder)
    result = CliRunner().invoke(main, ["fetch", str(folder)])
    assert result.exit_code == 1 and result.output.startswith("Error: "), result.output
    assert str(dovecot.imap_port) in result.output or "login" in result.output.lower()
    monkeypatch.setenv("GAME9_IMAP", dovecot.passwords[gm])

    def reply(n):
        return (
            f"From: Arthur <{addresses[0]}>\r\nTo: {gm}\r\nSubject: Re: [game9] Turn 1: your cards\r\n"
            f"Message-ID: <r{n}@players.example.test>\r\n\r\nHand 1: Countess\r\n"
        ).encode()

    dovecot.append(gm, "INBOX", reply(1))
    assert ": " in pbem("fetch", folder)
    dovecot.restart()
    dovecot.append(gm, "INBOX", reply(2))
    out = pbem("fetch", folder)
    assert "1 message read" in out
    assert "No new messages." in pbem("fetch", folder)
    received = (folder / "mail" / "received.jsonl").read_text().splitlines()
    assert len(received) == 2
