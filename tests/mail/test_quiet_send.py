"""Issue 22, the idle tick over a folder (pbem.quiet), with a real SMTP server: a game
noted quiet that then holds a draft its ``auto_send`` allows is ticked in full, and the
draft goes; the turn mail waiting for the GM's review is listed as by a full tick, and
once the GM has sent it, no longer."""

from __future__ import annotations

import yaml
from click.testing import CliRunner
from servers import SMTP_PASSWORD, SMTP_USER

from pbem import quiet
from pbem.cli import main

START = "2026-11-02T12:00:00+00:00"
CALM = "2026-11-02T13:00:00+00:00"
PLAYERS = [{"name": n, "email": f"{n.lower()}@example.test"} for n in ("Arthur", "Bruno", "Chloe")]


def pbem(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_draft_auto_send_allows_is_sent_and_a_sent_review_is_no_longer_listed(
    tmp_path, sink_smtp, monkeypatch
):
    monkeypatch.setattr(quiet, "SETTLED", 0.0)
    ca = tmp_path / "ca.pem"
    sink_smtp.ca.cert_pem.write_to_path(str(ca))
    root = tmp_path / "campaigns"
    root.mkdir()
    smtp = {
        "host": sink_smtp.host,
        "port": sink_smtp.port,
        "security": "starttls",
        "user": SMTP_USER,
        "password_env": "QUIET_SMTP",
        "ca_file": str(ca),
        "timeout": 5,
    }
    shared = {
        "gm": {"name": "Rita", "email": SMTP_USER},
        "deadline": {"timezone": "UTC", "every_days": 3, "at": "12:00", "remind_hours": 24},
        "mail": {"smtp": smtp, "auto_send": ["reminder"]},
    }
    (root / "pbem.yaml").write_text(yaml.safe_dump(shared), encoding="utf-8")
    (root / "alpha").mkdir()
    (root / "alpha" / "campaign.yaml").write_text(yaml.safe_dump({"seed": 7, "players": PLAYERS}))
    monkeypatch.setenv("QUIET_SMTP", SMTP_PASSWORD)
    monkeypatch.setenv("PBEM_NOW", START)
    assert pbem("start", root / "alpha").exit_code == 0
    monkeypatch.setenv("PBEM_NOW", CALM)
    pbem("tick", root)
    said = pbem("tick", root).output
    notes = yaml.safe_load((root / ".pbem" / "quiet.json").read_text())["games"]
    assert "fingerprint" in notes["alpha"]  # quiet: its turn mail waits for the GM's review
    assert "[alpha] 6 draft(s) wait for the GM's review" in said
    assert pbem("tick", root).output == said and sink_smtp.received == []

    assert pbem("remind", root / "alpha").exit_code == 0  # reminders: auto_send allows them
    result = pbem("tick", root)
    assert "[alpha] Sent on its own (auto_send): 3 mail(s)." in result.output
    assert len(sink_smtp.received) == 3

    assert pbem("send", root / "alpha").exit_code == 0  # the GM sends the turn mail
    after = pbem("tick", root).output
    assert "wait for the GM's review" not in after
    assert len(sink_smtp.received) == 9
