"""The GM's real mail account: secrets from commands, OAuth2 logins, refused logins, TLS.

Against real servers: a Dovecot whose oauth2 passdb checks each token by asking
an introspection endpoint served on loopback (`servers.TokenIssuer`), and an
aiosmtpd with XOAUTH2 and OAUTHBEARER handlers checking the same kind of tokens.
A token command here is a small script printing the next token of a list, so a
test can hand out an expired token first and a fresh one on the second call.
"""

from __future__ import annotations

import email.message
import json
import sys
import time
import uuid
from pathlib import Path

import pytest
from servers import SMTP_PASSWORD, SMTP_USER, DovecotServer, SmtpServer

from pbem.transport import (
    FetchError,
    FetchLedger,
    ImapSettings,
    SendError,
    SentLedger,
    SmtpSettings,
    fetch_new,
    send_drafts,
)
from pbem.transport.credentials import Credentials, Secret


class Command:
    """A secret command for the tests: prints the next of `lines` (the last one
    again once they run out), counts its calls; optionally fails or hangs."""

    def __init__(self, folder: Path, lines: list[str], status: int = 0, stderr: str = "", sleep: float = 0):
        self.folder = folder / f"cmd-{uuid.uuid4().hex[:6]}"
        self.folder.mkdir()
        (self.folder / "queue.json").write_text(json.dumps(lines))
        script = self.folder / "secret.py"
        script.write_text(
            "import json, sys, time, pathlib\n"
            "here = pathlib.Path(sys.argv[1])\n"
            "calls = here / 'calls'\n"
            "calls.write_text(str(int(calls.read_text() or 0) + 1) if calls.exists() else '1')\n"
            f"time.sleep({sleep})\n"
            "queue = json.loads((here / 'queue.json').read_text())\n"
            "line = queue.pop(0) if len(queue) > 1 else (queue[0] if queue else '')\n"
            "(here / 'queue.json').write_text(json.dumps(queue or [line]))\n"
            f"sys.stderr.write({stderr!r})\n"
            "print(line)\n"
            f"sys.exit({status})\n"
        )
        self.argv = (sys.executable, str(script), str(self.folder))

    @property
    def calls(self) -> int:
        path = self.folder / "calls"
        return int(path.read_text()) if path.exists() else 0


def message(tag: str, to: str) -> bytes:
    return (
        f"From: Arthur <alice@example.test>\r\nTo: {to}\r\nSubject: [{tag}] orders\r\n"
        f"Message-ID: <{uuid.uuid4().hex}@players.example.test>\r\n\r\nHand 1: Guard on Bruno, Priest\r\n"
    ).encode()


def imap_fetch(server: DovecotServer, user: str, credentials: Credentials, tmp_path: Path, **overrides):
    settings = ImapSettings(
        host=server.host,
        port=overrides.pop("port", server.imap_port),
        tls=False,
        user=user,
        credentials=credentials,
        timeout=5.0,
        **overrides,
    )
    delivered: list[bytes] = []

    def belongs(headers: email.message.Message) -> bool:
        return True

    summary = fetch_new(
        settings, FetchLedger(tmp_path / f"imap-{uuid.uuid4().hex[:6]}.json"), belongs, delivered.append
    )
    return summary, delivered


# -- IMAP: OAuth2 against Dovecot's oauth2 passdb ------------------------------------------------


@pytest.mark.parametrize("mechanism", ["xoauth2", "oauthbearer"])
def test_imap_login_with_a_token_from_the_command(oauth_dovecot, tmp_path, mechanism):
    user = oauth_dovecot.new_account()
    token = oauth_dovecot.tokens.issue(user)
    oauth_dovecot.deliver(message("game7", user), user)
    command = Command(tmp_path, [token])
    login = Credentials(user, Secret("mail.imap.oauth2.token_command", command=command.argv), mechanism)
    summary, delivered = imap_fetch(oauth_dovecot, user, login, tmp_path)
    assert summary.delivered == 1 and len(delivered) == 1
    assert command.calls == 1
    assert oauth_dovecot.tokens.introspections[token] == 1  # Dovecot really asked about this token
    assert f"method={mechanism.upper()}" in oauth_dovecot.log()


@pytest.mark.parametrize("mechanism", ["xoauth2", "oauthbearer"])
def test_imap_expired_token_is_refused_once_then_the_command_gives_a_fresh_one(
    oauth_dovecot, tmp_path, mechanism
):
    user = oauth_dovecot.new_account()
    old = oauth_dovecot.tokens.issue(user)
    oauth_dovecot.tokens.expire(old)
    fresh = oauth_dovecot.tokens.issue(user)
    oauth_dovecot.deliver(message("game7", user), user)
    command = Command(tmp_path, [old, fresh])
    login = Credentials(user, Secret("mail.imap.oauth2.token_command", command=command.argv), mechanism)
    summary, _ = imap_fetch(oauth_dovecot, user, login, tmp_path)
    assert summary.delivered == 1
    assert command.calls == 2
    assert oauth_dovecot.tokens.introspections[old] == 1


def test_imap_wrong_token_is_refused_with_a_clear_error(oauth_dovecot, tmp_path):
    user = oauth_dovecot.new_account()
    command = Command(tmp_path, ["at-not-a-real-token"])
    login = Credentials(user, Secret("mail.imap.oauth2.token_command", command=command.argv), "xoauth2")
    started = time.monotonic()
    with pytest.raises(FetchError) as caught:
        imap_fetch(oauth_dovecot, user, login, tmp_path)
    text = str(caught.value)
    assert "refused the login" in text and user in text
    assert "mail.imap.oauth2.token_command" in text and "mail.imap.user" in text
    assert "at-not-a-real-token" not in text
    assert command.calls == 2  # asked again once (it might have expired), then no more
    assert time.monotonic() - started < 5


def test_imap_password_refused_is_not_retried(oauth_dovecot, tmp_path):
    user = oauth_dovecot.new_account()
    command = Command(tmp_path, ["wrong-password"])
    login = Credentials(user, Secret("mail.imap.password_command", command=command.argv))
    with pytest.raises(FetchError) as caught:
        imap_fetch(oauth_dovecot, user, login, tmp_path)
    assert "refused the login" in str(caught.value) and "mail.imap.password_command" in str(caught.value)
    assert "wrong-password" not in str(caught.value)
    assert command.calls == 1


def test_imap_password_from_the_command(oauth_dovecot, tmp_path):
    user = oauth_dovecot.new_account()
    oauth_dovecot.deliver(message("game7", user), user)
    command = Command(tmp_path, [oauth_dovecot.passwords[user], "a second line is not read"])
    login = Credentials(user, Secret("mail.imap.password_command", command=command.argv))
    summary, _ = imap_fetch(oauth_dovecot, user, login, tmp_path)
    assert summary.delivered == 1 and command.calls == 1


def test_imap_server_without_the_mechanism_says_so(dovecot, tmp_path):
    user = dovecot.new_account()
    command = Command(tmp_path, ["at-x"])
    login = Credentials(user, Secret("mail.imap.oauth2.token_command", command=command.argv), "oauthbearer")
    with pytest.raises(FetchError, match=r"does not offer OAUTHBEARER .*mail\.imap\.oauth2\.mechanism"):
        imap_fetch(dovecot, user, login, tmp_path)
    assert command.calls == 0


# -- password_command that fails, hangs or prints nothing ---------------------------------------


def test_password_command_that_fails_names_the_setting_status_and_stderr(oauth_dovecot, tmp_path):
    user = oauth_dovecot.new_account()
    command = Command(tmp_path, [""], status=2, stderr="gpg: decryption failed: No secret key\n")
    login = Credentials(user, Secret("mail.imap.password_command", command=command.argv))
    with pytest.raises(FetchError) as caught:
        imap_fetch(oauth_dovecot, user, login, tmp_path)
    text = str(caught.value)
    assert "mail.imap.password_command" in text and "exit status 2" in text
    assert "gpg: decryption failed: No secret key" in text


def test_password_command_that_hangs_is_stopped(oauth_dovecot, tmp_path):
    user = oauth_dovecot.new_account()
    command = Command(tmp_path, ["late"], sleep=30)
    login = Credentials(user, Secret("mail.imap.password_command", command=command.argv, timeout=0.5))
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"mail\.imap\.password_command: .* no answer within 0\.5 seconds"):
        imap_fetch(oauth_dovecot, user, login, tmp_path)
    assert time.monotonic() - started < 5


def test_password_command_that_prints_nothing(oauth_dovecot, tmp_path):
    user = oauth_dovecot.new_account()
    command = Command(tmp_path, [""])
    login = Credentials(user, Secret("mail.imap.password_command", command=command.argv))
    with pytest.raises(FetchError, match=r"mail\.imap\.password_command: .* printed nothing"):
        imap_fetch(oauth_dovecot, user, login, tmp_path)


def test_password_command_that_does_not_exist(tmp_path):
    secret = Secret("mail.smtp.password_command", command=("/nonexistent/pass", "show", "gm"))
    from pbem.transport.credentials import CredentialError

    with pytest.raises(CredentialError, match=r"mail\.smtp\.password_command: no such program: /nonexistent"):
        secret.fetch()


# -- SMTP: XOAUTH2 and OAUTHBEARER against aiosmtpd ----------------------------------------------


def drafts(tag: str, count: int = 2) -> list[tuple[str, bytes]]:
    return [
        (
            f"{tag}-{n}",
            (
                f"From: GM <{SMTP_USER}>\r\nTo: alice@example.test\r\nSubject: [{tag}] turn {n}\r\n"
                f"Message-ID: <{tag}.{n}@pbem.test>\r\n\r\nYour hand: Guard.\r\n"
            ).encode(),
        )
        for n in range(count)
    ]


def smtp_settings(server: SmtpServer, credentials: Credentials | None, **overrides) -> SmtpSettings:
    values = dict(
        host=server.host,
        port=server.port,
        security="starttls",
        timeout=5.0,
        retries=3,
        backoff=0.01,
        tls_context=server.client_context(),
        credentials=credentials,
    )
    values.update(overrides)
    return SmtpSettings(**values)


@pytest.mark.parametrize("mechanism", ["xoauth2", "oauthbearer"])
def test_smtp_login_with_a_token_from_the_command(oauth_smtp, tmp_path, mechanism):
    token = oauth_smtp.tokens.issue(SMTP_USER)
    command = Command(tmp_path, [token])
    login = Credentials(SMTP_USER, Secret("mail.smtp.oauth2.token_command", command=command.argv), mechanism)
    summary = send_drafts(drafts("oa"), smtp_settings(oauth_smtp, login), SentLedger(tmp_path / "sent.jsonl"))
    assert summary.sent == ["oa-0", "oa-1"] and len(oauth_smtp.received) == 2
    assert command.calls == 1 and oauth_smtp.logins == 1


@pytest.mark.parametrize("mechanism", ["xoauth2", "oauthbearer"])
def test_smtp_expired_token_is_refused_once_then_renewed(oauth_smtp, tmp_path, mechanism):
    old = oauth_smtp.tokens.issue(SMTP_USER)
    oauth_smtp.tokens.expire(old)
    fresh = oauth_smtp.tokens.issue(SMTP_USER)
    command = Command(tmp_path, [old, fresh])
    login = Credentials(SMTP_USER, Secret("mail.smtp.oauth2.token_command", command=command.argv), mechanism)
    summary = send_drafts(drafts("ex"), smtp_settings(oauth_smtp, login), SentLedger(tmp_path / "sent.jsonl"))
    assert summary.sent == ["ex-0", "ex-1"]
    assert command.calls == 2 and oauth_smtp.auth_attempts == 2


def test_smtp_wrong_token_is_a_clear_error_at_once(oauth_smtp, tmp_path):
    command = Command(tmp_path, ["at-wrong"])
    login = Credentials(SMTP_USER, Secret("mail.smtp.oauth2.token_command", command=command.argv), "xoauth2")
    started = time.monotonic()
    with pytest.raises(SendError) as caught:
        send_drafts(drafts("wr"), smtp_settings(oauth_smtp, login), SentLedger(tmp_path / "sent.jsonl"))
    text = str(caught.value)
    assert "refused the login" in text and SMTP_USER in text and "535" in text
    assert "mail.smtp.oauth2.token_command" in text and "at-wrong" not in text
    assert command.calls == 2 and oauth_smtp.auth_attempts == 2  # renewed once, never retried
    assert time.monotonic() - started < 5


def test_smtp_refused_password_is_reported_at_once_and_never_retried(smtp_server, tmp_path):
    login = Credentials(SMTP_USER, Secret("mail.smtp.password_env", value="wrong"))
    started = time.monotonic()
    with pytest.raises(SendError) as caught:
        send_drafts(drafts("pw"), smtp_settings(smtp_server, login), SentLedger(tmp_path / "sent.jsonl"))
    assert "refused the login for 'gm@example.test'" in str(caught.value)
    assert "mail.smtp.password_env" in str(caught.value)
    assert smtp_server.auth_attempts == 1  # one mechanism, one try: no PLAIN then LOGIN, no retry
    assert time.monotonic() - started < 3


def test_smtp_server_that_refuses_without_a_reply_is_reported_as_refused(dovecot, tmp_path):
    """The case of the issue: an aiosmtpd whose authenticator returned AuthResult(success=False)
    (handled=True by default) never answers AUTH. The client used to retry each attempt
    until its timeout (5 x 30 s); now the silent login is not retried."""
    server = SmtpServer(users={SMTP_USER: SMTP_PASSWORD}, relay=dovecot, silent_refusal=True).start()
    try:
        login = Credentials(SMTP_USER, Secret("mail.smtp.password_env", value="wrong"))
        started = time.monotonic()
        with pytest.raises(SendError) as caught:
            send_drafts(
                drafts("si"), smtp_settings(server, login, timeout=1.0), SentLedger(tmp_path / "sent.jsonl")
            )
        elapsed = time.monotonic() - started
    finally:
        server.stop()
    assert "refused the login" in str(caught.value) and "no answer to the login" in str(caught.value)
    assert server.auth_attempts == 1 and elapsed < 3


def test_smtp_password_from_the_command(smtp_server, tmp_path):
    command = Command(tmp_path, [SMTP_PASSWORD])
    login = Credentials(SMTP_USER, Secret("mail.smtp.password_command", command=command.argv))
    summary = send_drafts(
        drafts("pc", 3), smtp_settings(smtp_server, login), SentLedger(tmp_path / "s.jsonl")
    )
    assert len(summary.sent) == 3 and command.calls == 1


def test_smtp_failing_password_command_stops_the_run_naming_the_setting(smtp_server, tmp_path):
    command = Command(tmp_path, [""], status=1, stderr="Error: mail/gm is not in the password store.\n")
    login = Credentials(SMTP_USER, Secret("mail.smtp.password_command", command=command.argv))
    with pytest.raises(SendError) as caught:
        send_drafts(drafts("fc"), smtp_settings(smtp_server, login), SentLedger(tmp_path / "s.jsonl"))
    text = str(caught.value)
    assert "mail.smtp.password_command" in text and "exit status 1" in text
    assert "mail/gm is not in the password store" in text
    assert smtp_server.received == [] and command.calls == 1


# -- TLS --------------------------------------------------------------------------------------


def test_imap_starttls_verifies_the_certificate(tls_dovecot, tmp_path):
    user = tls_dovecot.new_account()
    tls_dovecot.deliver(message("game7", user), user)
    login = Credentials(user, Secret("mail.imap.password_env", value=tls_dovecot.passwords[user]))
    summary, _ = imap_fetch(
        tls_dovecot, user, login, tmp_path, security="starttls", ssl_context=tls_dovecot.client_context()
    )
    assert summary.delivered == 1
    with pytest.raises(
        FetchError, match=r"STARTTLS .* failed: .*CERTIFICATE_VERIFY_FAILED.*mail\.imap\.security"
    ):
        imap_fetch(tls_dovecot, user, login, tmp_path, security="starttls")  # the system's CAs only


def test_imap_tls_checks_the_host_name(tmp_path):
    with DovecotServer(tls=True, tls_names=("imap.elsewhere.test",), spare_accounts=1) as server:
        user = server.new_account()
        login = Credentials(user, Secret("mail.imap.password_env", value=server.passwords[user]))
        with pytest.raises(FetchError, match=r"\(TLS\): .*(match|mismatch)"):
            imap_fetch(
                server,
                user,
                login,
                tmp_path,
                port=server.imaps_port,
                security="tls",
                ssl_context=server.client_context(),
            )


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")  # aiosmtpd sees no STARTTLS
def test_smtp_implicit_tls_verifies_the_certificate(dovecot, tmp_path):
    server = SmtpServer(users={SMTP_USER: SMTP_PASSWORD}, relay=dovecot, implicit_tls=True).start()
    try:
        login = Credentials(SMTP_USER, Secret("mail.smtp.password_env", value=SMTP_PASSWORD))
        summary = send_drafts(
            drafts("it"), smtp_settings(server, login, security="tls"), SentLedger(tmp_path / "s.jsonl")
        )
        assert summary.sent == ["it-0", "it-1"]
        with pytest.raises(SendError, match=r"secure connection .*\(tls\) failed"):
            send_drafts(
                drafts("iu"),
                smtp_settings(server, login, security="tls", tls_context=None),  # the system's CAs
                SentLedger(tmp_path / "u.jsonl"),
            )
    finally:
        server.stop()


def test_smtp_parallel_connections_try_a_wrong_password_once(smtp_server, tmp_path):
    """Three batches, three connections at once: the first login is refused and the
    others never try (a lockout counts every refusal)."""
    login = Credentials(SMTP_USER, Secret("mail.smtp.password_env", value="wrong"))
    settings = smtp_settings(smtp_server, login, batch_per_connection=2, max_connections=3)
    with pytest.raises(SendError, match="refused the login"):
        send_drafts(drafts("par", 6), settings, SentLedger(tmp_path / "s.jsonl"))
    assert smtp_server.auth_attempts == 1


def test_smtp_parallel_connections_each_ask_the_token_command(oauth_smtp, tmp_path):
    token = oauth_smtp.tokens.issue(SMTP_USER)
    command = Command(tmp_path, [token])
    login = Credentials(SMTP_USER, Secret("mail.smtp.oauth2.token_command", command=command.argv), "xoauth2")
    settings = smtp_settings(oauth_smtp, login, batch_per_connection=2, max_connections=3)
    summary = send_drafts(drafts("pt", 6), settings, SentLedger(tmp_path / "s.jsonl"))
    assert len(summary.sent) == 6
    assert command.calls == oauth_smtp.logins == 3  # one token per connection
