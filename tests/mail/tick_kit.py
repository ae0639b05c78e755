"""A campaign for the unattended-tick tests: four players, a deadline every
three days at 12:00 UTC, ``auto_send: [report]``, a real aiosmtpd, and the
clock set by ``PBEM_NOW`` for each command."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from click.testing import CliRunner
from servers import SMTP_USER

from pbem.cli import main

PLAYERS = [
    ("Arthur", "arthur@example.test"),
    ("Bruno", "bruno@example.test"),
    ("Chloé", "chloe@example.test"),
    ("Dominik", "dominik@example.test"),
]
START = "2026-11-02T12:00:00+00:00"  # turn 1 is due on 5 November, 12:00 UTC
PASSWORD_ENV = "TICK_SMTP"


def pbem(*args, now: str | None = None):
    env = {"PBEM_NOW": now} if now else {}
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def write_campaign(folder: Path, server, ca: Path, auto_send: str = "[report]") -> Path:
    folder.mkdir(parents=True)
    server.ca.cert_pem.write_to_path(str(ca))
    players = "".join(f"  - {{name: {n}, email: {a}}}\n" for n, a in PLAYERS)
    (folder / "campaign.yaml").write_text(
        f"title: Ticking\ngm: {{name: Rita, email: {SMTP_USER}}}\nplayers:\n{players}seed: 3\n"
        f"deadline: {{timezone: UTC, every_days: 3, at: '12:00', remind_hours: 0}}\n"
        f"mail:\n  smtp: {{host: {server.host}, port: {server.port}, security: starttls, "
        f"user: {SMTP_USER}, password_env: {PASSWORD_ENV}, ca_file: {ca}, timeout: 3}}\n"
        f"  auto_send: {auto_send}\n",
        encoding="utf-8",
    )
    result = pbem("start", folder, now=START)
    assert result.exit_code == 0, result.output
    return folder


def received_ids(server) -> Counter:
    out: Counter = Counter()
    for raw in server.contents():
        for line in raw.split(b"\r\n"):
            if line.lower().startswith(b"message-id:"):
                out[line.split(b":", 1)[1].strip().decode()] += 1
    return out


def turn_mail(folder: Path, turn: int) -> dict[str, str]:
    """Draft id -> Message-ID of a turn folder's mail (the turn on file now)."""
    index = folder / "turns" / f"turn-{turn:03d}" / "mail" / "index.jsonl"
    return {e["draft"]: e["message_id"] for e in map(json.loads, index.read_text().splitlines())}


def awaited_turn(folder: Path) -> int:
    result = pbem("export", folder)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["turn"]
