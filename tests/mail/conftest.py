"""Fixtures giving the mail tests real servers: Dovecot (IMAP + LMTP) and aiosmtpd.

Nothing here skips: a machine without dovecot makes these tests error out loudly,
because a mail transport that was never run against a server is untested.
"""

from __future__ import annotations

import pytest
from servers import SMTP_PASSWORD, SMTP_USER, DovecotServer, SmtpServer, TokenIssuer

#: The fixtures that start a real server; a test using any of them is marked ``servers``.
SERVER_FIXTURES = {
    "dovecot",
    "fresh_dovecot",
    "smtp_server",
    "oauth_dovecot",
    "oauth_smtp",
    "tls_dovecot",
    "layout_dovecot",
    "sink_smtp",
}


def pytest_collection_modifyitems(items):
    """Mark every test that starts Dovecot or aiosmtpd, so that a laptop without
    them can deselect those tests with ``-m "not servers"`` (CI runs them all)."""
    for item in items:
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.servers)


@pytest.fixture(scope="module")
def dovecot():
    """One Dovecot per test module (stopping one takes about a second).

    Tests that need an empty mailbox take `dovecot.new_account()`; tests that stop,
    restart or tamper with the server use `fresh_dovecot` instead.
    """
    yield from _running_dovecot()


@pytest.fixture
def fresh_dovecot():
    """A Dovecot of the test's own, for restarts and Maildir surgery."""
    yield from _running_dovecot()


def _running_dovecot():
    server = DovecotServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def smtp_server(dovecot):
    """STARTTLS + AUTH submission server relaying into `dovecot`, faults cleared."""
    server = SmtpServer(users={SMTP_USER: SMTP_PASSWORD}, relay=dovecot, starttls=True)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def sink_smtp():
    """STARTTLS + AUTH submission server that keeps what it accepts (`received`) and relays
    nothing: recipients need no mailbox."""
    server = SmtpServer(users={SMTP_USER: SMTP_PASSWORD}, relay=None, starttls=True)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def oauth_dovecot():
    """A Dovecot that also takes XOAUTH2 and OAUTHBEARER, its tokens checked by
    introspection (`oauth_dovecot.tokens`), with Trash and Junk special-use folders."""
    server = DovecotServer(oauth2=True, special_use=True)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def tls_dovecot():
    """A Dovecot with IMAPS (implicit TLS) and STARTTLS, certificate from its own test CA."""
    server = DovecotServer(tls=True)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def oauth_smtp(dovecot):
    """STARTTLS submission server taking XOAUTH2 and OAUTHBEARER tokens from `oauth_smtp.tokens`."""
    tokens = TokenIssuer()
    server = SmtpServer(users={SMTP_USER: SMTP_PASSWORD}, relay=dovecot, starttls=True, tokens=tokens)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module", params=["maildir++", "fs"])
def layout_dovecot(request):
    """A Dovecot per folder layout: Maildir++ (separator ".") and LAYOUT=fs (separator "/")."""
    server = DovecotServer(layout=request.param, special_use=True)
    server.start()
    try:
        yield server
    finally:
        server.stop()
