"""Issue 22: `pbem send campaigns/` over a folder of games sharing one SMTP account
(`campaigns/pbem.yaml`), against a real aiosmtpd: the healthy games' drafts go, a
game whose server cannot be reached and a game whose file is broken are each named,
and the exit status is 1."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from servers import SMTP_PASSWORD, SMTP_USER, free_port

from pbem.cli import main

PLAYERS = "".join(
    f"  - {{name: {n}, email: {n.lower()}@example.test}}\n" for n in ("Arthur", "Bruno", "Chloe")
)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def server(sink_smtp):
    """conftest's sink_smtp (STARTTLS, AUTH, keeps what it accepts), by this file's name."""
    return sink_smtp


def test_send_over_the_folder_sends_each_game_and_names_the_failures(tmp_path, server, monkeypatch):
    monkeypatch.setenv("FOLDER_SMTP", SMTP_PASSWORD)
    root = tmp_path / "campaigns"
    root.mkdir()
    ca = tmp_path / "ca.pem"
    server.ca.cert_pem.write_to_path(str(ca))
    (root / "pbem.yaml").write_text(
        f"gm: {{name: Rita, email: {SMTP_USER}}}\n"
        f"mail:\n  smtp: {{host: {server.host}, port: {server.port}, security: starttls, "
        f"user: {SMTP_USER}, password_env: FOLDER_SMTP, ca_file: {ca}, timeout: 2}}\n",
        encoding="utf-8",
    )
    for name, extra in (
        ("alpha", ""),
        ("bravo", f"mail: {{smtp: {{port: {free_port()}}}}}\n"),  # only the port overridden: nobody there
        ("delta", ""),
    ):
        (root / name).mkdir()
        (root / name / "campaign.yaml").write_text(
            f"title: {name}\nseed: 7\nplayers:\n{PLAYERS}{extra}", encoding="utf-8"
        )
        assert run("start", root / name).exit_code == 0
    (root / "charlie").mkdir()
    (root / "charlie" / "campaign.yaml").write_text("players: [oops\n", encoding="utf-8")

    result = run("send", root)
    assert result.exit_code == 1, result.output
    out = result.output
    assert "[alpha] 6 sent, 0 already sent before, 0 failed." in out
    assert "[delta] 6 sent, 0 already sent before, 0 failed." in out
    assert "[bravo] FAILED:" in out and "[charlie] FAILED:" in out and "not valid YAML" in out
    assert "2 game(s) not done: bravo, charlie." in out
    assert len(server.received) == 12
    assert not list((root / "alpha" / "mail" / "outbox").glob("*.eml"))
    assert len(list((root / "bravo" / "mail" / "outbox").glob("*.eml"))) == 6  # kept for the next send

    again = run("send", root)  # nothing goes twice
    assert "[alpha] nothing to send." in again.output and len(server.received) == 12
