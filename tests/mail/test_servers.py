"""The test servers themselves work: if these fail, the transport tests mean nothing."""

from __future__ import annotations

import asyncio
import uuid

import aiosmtplib
import pytest
from imapclient import SEEN
from servers import SMTP_PASSWORD, SMTP_USER


def _message(to: str, subject: str = "hello") -> tuple[str, bytes]:
    message_id = f"<{uuid.uuid4().hex}@test.example>"
    raw = (
        f"From: gm@example.test\r\nTo: {to}\r\nSubject: {subject}\r\n"
        f"Message-ID: {message_id}\r\n\r\nBody of {subject}.\r\n"
    ).encode()
    return message_id, raw


def _count(dovecot, user: str, message_id: str, folder: str = "INBOX") -> int:
    with dovecot.imap(user) as client:
        client.select_folder(folder, readonly=True)
        return len(client.search(["HEADER", "Message-ID", message_id]))


def test_imap_login_append_search_fetch(dovecot):
    user = dovecot.new_account()
    message_id, raw = _message(user, "appended")
    dovecot.append(user, "INBOX", raw)
    with dovecot.imap(user) as client:
        info = client.select_folder("INBOX")
        assert info[b"EXISTS"] == 1
        uids = client.search(["HEADER", "Message-ID", message_id])
        assert len(uids) == 1
        fetched = client.fetch(uids, ["BODY.PEEK[]", "FLAGS"])[uids[0]]
        assert fetched[b"BODY[]"] == raw
        assert SEEN not in fetched[b"FLAGS"]


def test_wrong_imap_password_is_refused(dovecot):
    from imapclient import IMAPClient
    from imapclient.exceptions import LoginError

    client = IMAPClient(dovecot.host, port=dovecot.imap_port, ssl=False, timeout=5)
    with pytest.raises(LoginError):
        client.login("gm@example.test", "not-the-password")
    client.shutdown()


def test_lmtp_delivery_honours_recipient_delimiter(dovecot):
    user = dovecot.new_account()
    local, domain = user.split("@")
    message_id, raw = _message(f"{local}+game7@{domain}")
    dovecot.deliver(raw, f"{local}+game7@{domain}")
    assert _count(dovecot, user, message_id) == 1


def test_smtp_starttls_auth_relays_into_dovecot(dovecot, smtp_server):
    message_id, raw = _message("alice@example.test, bob@example.test")

    async def send():
        client = aiosmtplib.SMTP(
            hostname=smtp_server.host,
            port=smtp_server.port,
            start_tls=True,
            tls_context=smtp_server.client_context(),
            timeout=5,
        )
        await client.connect()
        await client.login(SMTP_USER, SMTP_PASSWORD)
        errors, _ = await client.sendmail(SMTP_USER, ["alice@example.test", "bob@example.test"], raw)
        await client.quit()
        return errors

    assert asyncio.run(send()) == {}
    assert smtp_server.contents() == [raw]
    assert _count(dovecot, "alice@example.test", message_id) == 1
    assert _count(dovecot, "bob@example.test", message_id) == 1


def test_smtp_requires_tls_and_valid_login(smtp_server):
    async def attempt(start_tls: bool, password: str):
        client = aiosmtplib.SMTP(
            hostname=smtp_server.host,
            port=smtp_server.port,
            start_tls=start_tls,
            tls_context=smtp_server.client_context(),
            timeout=5,
        )
        await client.connect()
        try:
            await client.login(SMTP_USER, password)
        finally:
            client.close()

    with pytest.raises(aiosmtplib.SMTPException):  # no AUTH offered before STARTTLS
        asyncio.run(attempt(False, SMTP_PASSWORD))
    with pytest.raises(aiosmtplib.SMTPAuthenticationError):
        asyncio.run(attempt(True, "wrong"))


def test_smtp_fault_hooks(smtp_server):
    _, raw = _message("alice@example.test")

    async def send_three():
        outcomes = []
        client = aiosmtplib.SMTP(
            hostname=smtp_server.host,
            port=smtp_server.port,
            start_tls=True,
            tls_context=smtp_server.client_context(),
            timeout=5,
        )
        for _ in range(3):
            if not client.is_connected:
                await client.connect()
                await client.login(SMTP_USER, SMTP_PASSWORD)
            try:
                await client.sendmail(SMTP_USER, ["alice@example.test"], raw)
                outcomes.append("ok")
            except aiosmtplib.SMTPResponseException as exc:
                outcomes.append(exc.code)
            except aiosmtplib.SMTPServerDisconnected:
                outcomes.append("dropped")
        client.close()
        return outcomes

    smtp_server.fail_next(1, code=451)
    smtp_server.reject(lambda envelope: True, code=554)
    assert asyncio.run(send_three()) == [451, 554, 554]
    smtp_server.clear_faults()
    smtp_server.drop_after(1)
    assert asyncio.run(send_three()) == ["ok", "dropped", "ok"]
    assert len(smtp_server.received) == 2


def test_restart_keeps_ports_and_mail(fresh_dovecot):
    user = fresh_dovecot.new_account()
    message_id, raw = _message(user)
    fresh_dovecot.deliver(raw, user)
    ports = (fresh_dovecot.imap_port, fresh_dovecot.lmtp_port)
    fresh_dovecot.restart()
    assert (fresh_dovecot.imap_port, fresh_dovecot.lmtp_port) == ports
    assert _count(fresh_dovecot, user, message_id) == 1


def test_stop_removes_process_and_files():
    from servers import DovecotServer

    server = DovecotServer().start()
    directory, process = server.dir, server.process
    server.stop()
    assert process.poll() is not None
    assert not directory.exists()


def test_each_layout_has_its_separator(layout_dovecot):
    """The facts the folder tests rely on: Maildir++ separates with '.', LAYOUT=fs with '/'."""
    user = layout_dovecot.new_account()
    with layout_dovecot.imap(user) as client:
        (_, separator, _), *_ = client.list_folders("", "")
        flags = {name: f for f, _, name in client.list_folders()}
    assert separator == (b"." if layout_dovecot.layout == "maildir++" else b"/")
    assert b"\\Trash" in flags["Trash"]


def test_dovecot_checks_oauth2_tokens_with_the_issuer(oauth_dovecot):
    from imapclient import IMAPClient
    from imapclient.exceptions import LoginError

    user = oauth_dovecot.new_account()
    token = oauth_dovecot.tokens.issue(user)
    for mech, good in (("XOAUTH2", True), ("OAUTHBEARER", True), ("XOAUTH2", False)):
        client = IMAPClient(oauth_dovecot.host, port=oauth_dovecot.imap_port, ssl=False, timeout=5)
        try:
            if not good:
                oauth_dovecot.tokens.expire(token)
                with pytest.raises(LoginError):
                    client.oauth2_login(user, token)
            elif mech == "XOAUTH2":
                client.oauth2_login(user, token)
            else:
                client.oauthbearer_login(user, token)
        finally:
            client.shutdown()
    assert oauth_dovecot.tokens.introspections[token] == 3
