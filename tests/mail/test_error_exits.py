"""Issue 21.2: a transport failure is a PbemError like any other.

The command used to recognise the mail transport's errors by the name of their
module; now they are :class:`pbem.errors.MailError` and go through the one
handler: the GM reads one sentence, the command exits 1. A real Dovecot is
started (the campaign reads it once), then stopped.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.errors import MailError, PbemError
from pbem.transport.imap import FetchError

NAMES = ["Arthur", "Bruno", "Chloé"]


def pbem(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    # A traceback is never a clear message: an uncaught exception fails the test.
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def _campaign(folder, dovecot, monkeypatch):
    gm = dovecot.new_account()
    monkeypatch.setenv("ERRORS_IMAP", dovecot.passwords[gm])
    players = "".join(f"  - {{name: {n}, email: {dovecot.new_account()}}}\n" for n in NAMES)
    folder.mkdir(parents=True)
    (folder / "campaign.yaml").write_text(
        f"title: Errors\ngm: {{name: Rita, email: {gm}}}\nplayers:\n{players}seed: 21\n"
        f"mail:\n  imap: {{host: {dovecot.host}, port: {dovecot.imap_port}, tls: false, user: {gm},"
        f" password_env: ERRORS_IMAP}}\n",
        encoding="utf-8",
    )
    return folder


@pytest.fixture
def down(tmp_path, fresh_dovecot, monkeypatch):
    """A started campaign whose IMAP server answered once and is now stopped."""
    folder = _campaign(tmp_path / "games" / "down", fresh_dovecot, monkeypatch)
    assert pbem("start", folder).exit_code == 0
    result = pbem("fetch", folder)
    assert result.exit_code == 0, result.output  # the settings are right: the server answers
    fresh_dovecot.stop()
    return folder


def test_fetch_with_the_imap_server_down_exits_1_with_one_sentence(down):
    result = pbem("fetch", down)
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("Error: cannot connect to IMAP server") and "Traceback" not in result.output
    assert "did not expect" not in result.output
    assert issubclass(FetchError, MailError) and issubclass(MailError, PbemError)


def test_a_folder_of_campaigns_names_the_transport_failure_not_an_unexpected_error(down):
    result = pbem("fetch", down.parent)
    assert result.exit_code == 1, result.output
    assert "[down] FAILED: cannot connect to IMAP server" in result.output
    assert "unexpected error" not in result.output
