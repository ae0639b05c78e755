"""No secret (password, OAuth2 token) in any output, log, draft or file of the campaign,
after a run against servers that refuse them (the GM's commands, through the CLI)."""

from __future__ import annotations

import base64
import logging
import sys
import uuid

from click.testing import CliRunner
from servers import SMTP_PASSWORD, SMTP_USER, SmtpServer

from pbem.cli import main

NAMES = ["Arthur", "Bruno", "Chloe"]


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    print(">>>", args[0], r.exit_code, r.output[-700:])
    return r


def printer(folder, name: str, secret: str) -> str:
    """A command that prints the secret, as a flow-style YAML list."""
    script = folder / f"{name}.py"
    script.write_text(f"print({secret!r})\n")
    return f"[{sys.executable}, {script}]"


def forms(secret: str, user: str) -> list[bytes]:
    """The secret as it may travel: plain, and inside base64 SASL responses."""
    raw = secret.encode()
    out = [raw, base64.b64encode(raw)]
    for text in (f"user={user}\x01auth=Bearer {secret}\x01\x01", f"\x00{user}\x00{secret}"):
        out.append(base64.b64encode(text.encode()))
    return out


def test_no_secret_anywhere_after_a_run_with_refusing_servers(tmp_path, oauth_dovecot, dovecot, caplog):
    caplog.set_level(logging.DEBUG)
    gm = oauth_dovecot.new_account()
    password = "pw-" + uuid.uuid4().hex  # wrong for the SMTP server
    token = "at-" + uuid.uuid4().hex  # unknown to the IMAP server's token issuer
    smtp = SmtpServer(users={SMTP_USER: SMTP_PASSWORD}, relay=dovecot, starttls=True).start()
    try:
        folder = tmp_path / "leak"
        folder.mkdir()
        ca = tmp_path / "ca.pem"
        smtp.ca.cert_pem.write_to_path(str(ca))
        players = "".join(f"  - {{name: {n}, email: {n.lower()}@example.test}}\n" for n in NAMES)
        (folder / "campaign.yaml").write_text(
            f"gm: {{name: Rita, email: {gm}}}\nplayers:\n{players}seed: 3\n"
            f"mail:\n"
            f"  smtp: {{host: {smtp.host}, port: {smtp.port}, security: starttls, user: {SMTP_USER},"
            f" password_command: {printer(tmp_path, 'pw', password)}, ca_file: {ca}, timeout: 3}}\n"
            f"  imap: {{host: {oauth_dovecot.host}, port: {oauth_dovecot.imap_port}, tls: false, user: {gm},"
            f" oauth2: {{token_command: {printer(tmp_path, 'tok', token)}, mechanism: xoauth2}}}}\n"
            f"  auto_send: [ack, reminder, report]\n",
            encoding="utf-8",
        )
        outputs = [run("start", folder)]
        assert outputs[0].exit_code == 0, outputs[0].output
        for command in (["send"], ["fetch"], ["tick"], ["status"], ["preview"]):
            outputs.append(run(*command, folder))
    finally:
        smtp.stop()
    send, fetch = outputs[1], outputs[2]
    assert send.exit_code != 0 and "refused the login" in send.output, send.output
    assert "mail.smtp.password_command" in send.output
    assert fetch.exit_code != 0 and "refused the login" in fetch.output, fetch.output
    assert "mail.imap.oauth2.token_command" in fetch.output
    # The secrets did reach the servers, so their absence below means something.
    assert smtp.auth_attempts >= 1 and oauth_dovecot.tokens.introspections.get(token, 0) >= 1
    texts = [r.output.encode() + (r.stderr_bytes or b"") for r in outputs]
    texts += [str(r.exception).encode() for r in outputs if r.exception]
    texts += [caplog.text.encode()]
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert any(p.suffix == ".eml" for p in files)  # the drafts are among them
    texts += [p.read_bytes() for p in files]
    for secret, user in ((password, SMTP_USER), (token, gm)):
        for form in forms(secret, user):
            for text in texts:
                assert form not in text
