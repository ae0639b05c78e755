"""Issue 18.2: a rollback and a send (or a tick) running at the same time.

Before: `pbem send` read every draft at its start and took no lock a rollback
respects, so the undone turn's mails kept going out after `pbem rollback` had
returned 0 (10 runs of 10; 9 of 10 with a tick). Now no mail of a rolled-back
turn reaches the server after the rollback returned: the rollback waits for
the running send, and a send waits for the rollback, then finds the drafts
withdrawn. Real processes, a real aiosmtpd answering slowly, ten runs each.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from servers import SMTP_PASSWORD, SMTP_USER
from test_send_uncertain import PLAYERS, message_ids, run

RUNS = 10
NOW = "2026-11-10T12:00:00+00:00"  # two days after turn 1's deadline (opened on 7 November)


@pytest.fixture
def server(sink_smtp):
    """conftest's sink_smtp (STARTTLS, AUTH, keeps what it accepts), by this file's name."""
    return sink_smtp


def _campaign(tmp_path, server, monkeypatch, auto_send: str) -> object:
    monkeypatch.setenv("RACE_SMTP", SMTP_PASSWORD)
    folder = tmp_path / "race"
    folder.mkdir()
    ca = tmp_path / "ca.pem"
    server.ca.cert_pem.write_to_path(str(ca))
    players = "".join(f"  - {{name: {n}, email: {a}}}\n" for n, a in PLAYERS)
    (folder / "campaign.yaml").write_text(
        f"title: Race\ngm: {{name: Rita, email: {SMTP_USER}}}\nplayers:\n{players}seed: 5\n"
        f"deadline: {{timezone: UTC, every_days: 1, at: '12:00'}}\n"
        f"mail:\n  smtp: {{host: {server.host}, port: {server.port}, security: starttls, user: {SMTP_USER},"
        f" password_env: RACE_SMTP, ca_file: {ca}, timeout: 5}}\n  auto_send: {auto_send}\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("PBEM_NOW", "2026-11-07T12:00:00+00:00")
    assert run("start", folder).exit_code == 0
    assert run("send", folder).exit_code == 0  # the opening mails, delivered at once
    monkeypatch.setenv("PBEM_NOW", NOW)
    return folder


class Arrivals:
    """When each message reached the server (a monotonic clock), by Message-ID."""

    def __init__(self, server):
        self.server = server
        self.times: dict[str, float] = {}
        self.lock = threading.Lock()
        server.after_store = self.stored

    def stored(self, count: int) -> None:
        raw = self.server.contents()[count - 1]
        mid = message_ids_of(raw)
        with self.lock:
            self.times[mid] = time.monotonic()

    def after(self, moment: float) -> set[str]:
        with self.lock:
            return {mid for mid, at in self.times.items() if at > moment}

    def wait_for_more_than(self, count: int, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while len(self.server.received) <= count:
            assert time.monotonic() < end, "nothing was sent"
            time.sleep(0.01)


def message_ids_of(raw: bytes) -> str:
    for line in raw.split(b"\r\n"):
        if line.lower().startswith(b"message-id:"):
            return line.split(b":", 1)[1].strip().decode()
    return ""


def rolled_back_ids(folder) -> set[str]:
    out = set()
    for index in (folder / "turns" / "rolled-back").glob("*/mail/index.jsonl"):
        out |= {json.loads(line)["message_id"] for line in index.read_text().splitlines()}
    return out


def _race(folder, server, pbem_exe, command: list[str]) -> None:
    """Run ``command`` (a send or a tick mailing turn 1's 8 drafts, slowly), roll
    back while it sends, and check that nothing undone left after the rollback."""
    arrivals = Arrivals(server)
    server.slow_reply(0.12, count=1000)
    before = len(server.received)
    sender = pbem_exe.popen(*command)
    try:
        arrivals.wait_for_more_than(before)
        rollback = pbem_exe("rollback", folder)
        returned = time.monotonic()
        assert rollback.returncode == 0, rollback.stderr
        sender.communicate(timeout=60)
    finally:
        if sender.poll() is None:
            sender.kill()
        server.clear_faults()
    late = arrivals.after(returned) & rolled_back_ids(folder)
    assert not late, f"{len(late)} mail(s) of the rolled-back turn went out after the rollback returned"
    outbox = {p.stem for p in (folder / "mail" / "outbox").glob("*.eml")}
    assert not {d for d in outbox if d.startswith("t001")}, outbox  # withdrawn, none waits to go


def test_send_against_rollback_never_mails_the_undone_turn_after_it_returned(
    tmp_path, server, monkeypatch, pbem_exe
):
    folder = _campaign(tmp_path, server, monkeypatch, auto_send="[]")
    for _ in range(RUNS):
        assert run("resolve", folder, "--force").exit_code == 0
        _race(folder, server, pbem_exe, ["send", str(folder)])
    # The last rollback undid turn 1: resolved and sent once more, each player has
    # every mail of the last resolution once.
    assert run("resolve", folder, "--force").exit_code == 0
    assert run("send", folder).exit_code == 0
    ids = message_ids(server)
    assert len(ids) == len(set(ids))


def test_tick_against_rollback_never_mails_the_undone_turn_after_it_returned(
    tmp_path, server, monkeypatch, pbem_exe
):
    folder = _campaign(tmp_path, server, monkeypatch, auto_send="[report]")
    for _ in range(RUNS):
        _race(folder, server, pbem_exe, ["tick", str(folder)])
    ids = message_ids(server)
    assert len(ids) == len(set(ids))
