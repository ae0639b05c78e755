"""Issue 8.3 at the GM's level: `pbem send` killed while the server holds a
message, a server that keeps messages and hangs up, and what the GM then sees
and says (`preview`, `status`, `tick`, `send --mark-sent`, `send --resend-uncertain`).

The server is a real aiosmtpd on loopback (tests/mail/servers.py); the sender is
the real `pbem` executable when it must be killed.
"""

from __future__ import annotations

import json
import os
import signal

import pytest
from click.testing import CliRunner
from servers import SMTP_PASSWORD, SMTP_USER

from pbem.cli import main
from pbem.transport import SentLedger

PLAYERS = [
    ("Arthur", "arthur@example.test"),
    ("Bruno", "bruno@example.test"),
    ("Chloé", "chloe@example.test"),
    ("Dominik", "dominik@example.test"),
]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def message_ids(server) -> list[str]:
    out = []
    for raw in server.contents():
        for line in raw.split(b"\r\n"):
            if line.lower().startswith(b"message-id:"):
                out.append(line.split(b":", 1)[1].strip().decode())
    return out


@pytest.fixture
def server(sink_smtp):
    """conftest's sink_smtp (STARTTLS, AUTH, keeps what it accepts), by this file's name."""
    return sink_smtp


@pytest.fixture
def game(tmp_path, server, monkeypatch):
    """A started 4-player campaign whose 8 opening mails wait in the outbox."""
    monkeypatch.setenv("UNCERTAIN_SMTP", SMTP_PASSWORD)
    folder = tmp_path / "unc"
    folder.mkdir()
    ca = tmp_path / "ca.pem"
    server.ca.cert_pem.write_to_path(str(ca))
    players = "".join(f"  - {{name: {n}, email: {a}}}\n" for n, a in PLAYERS)
    (folder / "campaign.yaml").write_text(
        f"title: Uncertain\ngm: {{name: Rita, email: {SMTP_USER}}}\nplayers:\n{players}seed: 7\n"
        f"mail:\n  smtp: {{host: {server.host}, port: {server.port}, security: starttls, user: {SMTP_USER},"
        f" password_env: UNCERTAIN_SMTP, ca_file: {ca}, timeout: 2}}\n  auto_send: [ack]\n",
        encoding="utf-8",
    )
    assert run("start", folder).exit_code == 0
    return folder


def uncertain(folder) -> list[str]:
    return sorted(SentLedger(folder / "mail" / "sent.jsonl").uncertain())


def test_send_killed_while_the_server_holds_a_message_never_sends_a_copy(game, server, pbem_exe):
    """kill -9 of `pbem send` after the server stored a message and before it
    replied, three times: every message arrives at most once, each kill leaves
    exactly one draft uncertain, and the GM's word settles them."""
    for kill in range(3):
        proc = pbem_exe.popen("send", game)
        target = len(server.received) + 1

        def kill_sender(stored, pid=proc.pid, target=target):
            if stored == target:
                os.kill(pid, signal.SIGKILL)

        server.after_store = kill_sender
        proc.communicate(timeout=60)
        server.after_store = None
        assert proc.returncode == -signal.SIGKILL, proc.returncode
        assert len(uncertain(game)) == kill + 1
    ids = message_ids(server)
    assert len(ids) == 3 and len(set(ids)) == 3

    result = run("send", game)  # the rest go; the three uncertain ones do not
    assert result.exit_code == 1, result.output
    assert "3 uncertain drafts not sent again" in result.output
    assert "--mark-sent" in result.output and "--resend-uncertain" in result.output
    ids = message_ids(server)
    assert len(ids) == 8 and len(set(ids)) == 8  # all eight arrived, once each

    listing = run("preview", game).output
    assert sum(line.startswith("UNCERTAIN ") for line in listing.splitlines()) == 3
    status = run("status", game, "--json")
    assert [u["draft"] for u in json.loads(status.output)["uncertain"]] == uncertain(game)
    assert "Uncertain mail (3)" in run("status", game).output

    marked = run("send", game, "--mark-sent", *uncertain(game))
    assert marked.exit_code == 0, marked.output
    assert uncertain(game) == []
    again = run("send", game)
    assert again.exit_code == 0 and "0 sent" in again.output, again.output
    assert len(message_ids(server)) == 8
    assert "The outbox is empty." in run("preview", game).output


def test_server_that_stores_then_hangs_up_gets_no_copy_and_the_gm_is_told(game, server):
    server.store_then_drop(100)
    result = run("send", game)
    assert result.exit_code == 1
    assert "uncertain" in result.output and "--resend-uncertain" in result.output
    for _ in range(3):
        assert run("send", game).exit_code == 1
    ids = message_ids(server)
    assert len(ids) == len(set(ids)) == len(uncertain(game)) == 4  # one per run, none twice

    server.clear_faults()
    # The GM asked: the first did not arrive after all (say). Only it goes again.
    first = uncertain(game)[0]
    result = run("send", game, "--resend-uncertain", first)
    assert result.exit_code == 0, result.output
    assert message_ids(server).count(message_ids(server)[0]) == 2  # the GM's word: a second copy
    assert first not in uncertain(game) and len(uncertain(game)) == 3


def test_resend_uncertain_refuses_a_draft_that_is_not_uncertain(game, server):
    result = run("send", game, "--resend-uncertain", "t000-public-seat1")
    assert result.exit_code == 1 and "not uncertain" in result.output
    assert run("send", game, "--mark-sent", "t000-public-seat1").exit_code == 1
    assert server.received == []


def test_tick_never_resends_an_uncertain_draft_and_tells_the_gm(game, server):
    server.slow_reply(3.0)  # longer than the 2 s timeout: the first draft becomes uncertain
    assert run("send", game).exit_code == 1
    held = uncertain(game)
    assert len(held) == 1
    server.clear_faults()
    before = len(server.received)
    result = run("tick", game)
    assert result.exit_code == 1, result.output
    assert "uncertain" in result.output and held[0] in result.output
    assert "NOT sent again" in result.output
    assert len(server.received) == before
    assert uncertain(game) == held


def _lose_the_publish(folder) -> None:
    """What a power cut may do to a publish, which is not synced: the drafts'
    links and their index lines gone, and the index's last line torn."""
    for path in (folder / "mail" / "outbox").glob("*.eml"):
        path.unlink()
    for path in (folder / "mail" / "sent").glob("*.eml"):
        path.unlink()
    index = folder / "mail" / "messages.jsonl"
    kept = [line for line in index.read_text(encoding="utf-8").splitlines() if '"t000-' not in line]
    index.write_text("".join(f"{line}\n" for line in kept) + '{"message_id": "<t000-pub', encoding="utf-8")


def test_drafts_whose_publish_a_crash_lost_are_published_again_and_sent_once(game, server):
    """The outbox is not synced by a resolve (its turn folder is): every command
    that shows or sends drafts publishes again, and the sent ledger keeps a
    draft from leaving twice, whatever the outbox lost."""
    _lose_the_publish(game)
    result = run("tick", game)  # auto_send: [ack] only: the turn's mails wait for review
    assert result.exit_code == 0, result.output
    assert "8 draft(s) wait for the GM's review" in result.output
    assert len(list((game / "mail" / "outbox").glob("t000-*.eml"))) == 8
    assert run("send", game).exit_code == 0
    assert len(server.received) == 8
    _lose_the_publish(game)  # again, after the send: the ledger says they left
    result = run("send", game)
    assert result.exit_code == 0, result.output
    assert len(server.received) == 8
    assert not list((game / "mail" / "outbox").glob("*.eml"))
    lines = (game / "mail" / "messages.jsonl").read_text(encoding="utf-8").splitlines()
    assert '{"message_id": "<t000-pub' in lines  # the torn line ended, on a line of its own
    drafts = [json.loads(line)["draft"] for line in lines if line.endswith("}")]
    assert sorted(d for d in drafts if d.startswith("t000-")) == sorted(
        f"t000-{kind}-seat{n}" for kind in ("public", "private") for n in range(1, 5)
    )
