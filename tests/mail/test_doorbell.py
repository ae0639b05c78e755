"""The doorbell of `pbem watch` (pbem.transport.idle) in this process, against a real
Dovecot: it rings once connected, at each delivery (IMAP IDLE's EXISTS, even one that
comes while IDLE is being renewed), not without news, and again after the server went
away and came back; a stop ends it. A ring too many is allowed (it costs the fetch one
cheap look); a ring missed is not."""

from __future__ import annotations

import signal
import threading
import time

from pbem.transport.idle import Doorbell
from pbem.transport.imap import ImapSettings


def wait_for(check, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def mail(n: int) -> bytes:
    return (
        f"From: a@example.test\r\nSubject: n{n}\r\nMessage-ID: <bell{n}@example.test>\r\n\r\nhi\r\n".encode()
    )


def settings_of(dovecot, user: str) -> ImapSettings:
    return ImapSettings(
        host=dovecot.host,
        port=dovecot.imap_port,
        tls=False,
        user=user,
        password=dovecot.passwords[user],
        timeout=5,
    )


def started_bell(settings: ImapSettings) -> tuple[Doorbell, list[str], list[str], threading.Event]:
    """A doorbell started on ``settings`` (quick to renew and retry): it, its rings,
    its log lines and its stop."""
    rings: list[str] = []
    lines: list[str] = []
    stop = threading.Event()
    bell = Doorbell("box", settings, rings.append, lines.append, stop, renew=1.0, backoff=0.2, check=0.2)
    bell.start()
    return bell, rings, lines, stop


def test_the_doorbell_rings_for_new_mail_and_after_a_restart(fresh_dovecot):
    dovecot = fresh_dovecot
    user = dovecot.new_account()
    settings = settings_of(dovecot, user)
    bell, rings, lines, stop = started_bell(settings)
    try:
        wait_for(lambda: len(rings) == 1, "the ring after connecting")
        assert "box: connected, waiting for mail (IMAP IDLE)" in lines
        time.sleep(1.5)  # IDLE renewed at least once: no ring without news
        assert len(rings) == 1, lines
        for n in (1, 2, 3):  # IDLE is renewed every second: some come while it is
            before = len(rings)
            dovecot.deliver(mail(n), user)
            wait_for(lambda before=before: len(rings) > before, f"the ring for delivery {n}")
            time.sleep(0.4 * n)

        dovecot.signal_all(signal.SIGTERM)  # each IMAP process says BYE
        wait_for(lambda: any("connection lost" in line for line in lines), "the drop")
        dovecot.start()
        wait_for(lambda: "box: connected again, waiting for mail (IMAP IDLE)" in lines, "the reconnection")
        assert bell.connections == 2
        before = len(rings)
        dovecot.deliver(mail(4), user)
        wait_for(lambda: len(rings) > before, "the ring for the delivery after the restart")
    finally:
        stop.set()
        bell.join(timeout=10)
    assert not bell.is_alive()


def test_the_doorbell_retries_a_server_that_is_down_with_backoff(fresh_dovecot):
    dovecot = fresh_dovecot
    user = dovecot.new_account()
    settings = settings_of(dovecot, user)
    dovecot.halt()
    rings: list[str] = []
    lines: list[str] = []
    stop = threading.Event()
    bell = Doorbell(
        "box", settings, rings.append, lines.append, stop, backoff=0.1, max_backoff=0.4, check=0.2
    )
    bell.start()
    try:
        wait_for(lambda: sum("cannot connect" in line for line in lines) >= 3, "three tries")
        waits = [line.rsplit("trying again in ", 1)[1] for line in lines if "cannot connect" in line]
        assert waits[:3] == ["0.1 s", "0.2 s", "0.4 s"], lines
        assert rings == []
        dovecot.start()
        wait_for(lambda: rings == ["box"], "the ring once the server is up")
    finally:
        stop.set()
        bell.join(timeout=10)


def test_an_unexpected_error_is_a_drop_not_the_doorbells_end(fresh_dovecot, monkeypatch):
    """A doorbell thread that died of an error nobody foresaw would leave its mailbox
    unwatched for as long as `watch` runs, and say nothing: it reconnects instead."""
    dovecot = fresh_dovecot
    user = dovecot.new_account()
    settings = settings_of(dovecot, user)
    real_serve = Doorbell._serve
    calls: list[int] = []

    def serve_failing_once(self, client):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug nobody foresaw")
        return real_serve(self, client)

    monkeypatch.setattr(Doorbell, "_serve", serve_failing_once)
    bell, rings, lines, stop = started_bell(settings)
    try:
        wait_for(lambda: len(rings) == 1, "the ring after connecting again")
        assert lines[0] == "box: unexpected error (RuntimeError: a bug nobody foresaw); reconnecting in 0.2 s"
        before = len(rings)
        dovecot.deliver(mail(9), user)
        wait_for(lambda: len(rings) > before, "the ring for a delivery after the error")
        assert bell.is_alive()
    finally:
        stop.set()
        bell.join(timeout=10)
    assert not bell.is_alive()
