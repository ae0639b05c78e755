"""A doorbell on one IMAP mailbox: IMAP IDLE (RFC 2177), or polling where the server lacks it.

The doorbell reads nothing and moves nothing: it keeps one connection open on
the folder (``EXAMINE``, read-only), waits in IDLE, and rings (calls ``ring()``)
when the server reports new mail (``EXISTS``), once after every (re)connection
(mail may have come while it was away), and on every poll of a server without
IDLE. Whoever hears it fetches by the ordinary path (:mod:`pbem.transport.imap`,
its ledger and its lock), so a ring too many costs one cheap look (``UIDNEXT``)
and a ring missed is made up by the next one: nothing is lost or read twice here.

Connections die in three ways, each met: the server says ``BYE`` (shutdown,
idle too long), the socket ends (EOF: the server was killed), or nothing comes
at all (a silent network). IDLE is ended and issued again at least every
``renew`` seconds (10 minutes: Gmail drops idle connections soon after), and
ending it waits for the server's answer within the settings' timeout, so a dead
line is found within ``renew + timeout``. After a drop the doorbell reconnects
with a backoff doubling from ``backoff`` up to ``max_backoff`` seconds; a login
the server refuses is not tried again (each refusal counts against the account).
"""

from __future__ import annotations

import contextlib
import imaplib
import threading
import time
from collections.abc import Callable
from typing import Any

from imapclient import IMAPClient

from ..errors import MailError
from .folders import FolderError, Mailbox
from .imap import _REPLY_ERRORS, FetchError, ImapSettings, _connect, _text

__all__ = ["Doorbell"]

#: Re-issue IDLE at least this often (seconds).
RENEW = 600.0
#: A server without IDLE is asked this often (seconds).
POLL = 60.0


class _Dropped(MailError):
    """The connection is gone or cannot be trusted any more."""


class Doorbell(threading.Thread):
    """Rings ``ring(name)`` when mail may have arrived in ``settings.folder``; see the module doc.

    ``log(line)`` is told what the doorbell does (connected, idling or polling,
    lost, reconnecting). ``stop`` ends it (within ``check`` seconds)."""

    def __init__(
        self,
        name: str,
        settings: ImapSettings,
        ring: Callable[[str], None],
        log: Callable[[str], None],
        stop: threading.Event,
        *,
        renew: float = RENEW,
        poll: float = POLL,
        backoff: float = 1.0,
        max_backoff: float = 60.0,
        check: float = 1.0,
    ):
        super().__init__(name=f"doorbell {name}", daemon=True)
        self.mailbox_name = name
        self.settings = settings
        self.ring = ring
        self.log = log
        self.stop = stop
        self.renew = renew
        self.poll = poll
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.check = check
        self.connections = 0  # successful (re)connections, for tests and the log
        self._since = time.monotonic()  # when the current connection was made

    def run(self) -> None:
        delay = self.backoff
        while not self.stop.is_set():
            try:
                client = _connect(self.settings)
            except FetchError as exc:
                if "refused the login" in str(exc):  # each refusal counts against the account
                    self.log(
                        f"{self.mailbox_name}: {exc}. Not tried again (providers lock an account "
                        f"after a few refusals): fix the setting, then restart watch"
                    )
                    return
                self.log(f"{self.mailbox_name}: cannot connect ({exc}); trying again in {delay:g} s")
                self.stop.wait(delay)
                delay = min(delay * 2, self.max_backoff)
                continue
            try:
                self._serve(client)
                return  # stopped
            except _Dropped as exc:
                self.log(f"{self.mailbox_name}: connection lost ({exc}); reconnecting in {delay:g} s")
            except Exception as exc:  # noqa: BLE001 - a doorbell that died would leave its mailbox unwatched
                self.log(
                    f"{self.mailbox_name}: unexpected error ({type(exc).__name__}: {exc}); "
                    f"reconnecting in {delay:g} s"
                )
            finally:
                _close(client)
            if time.monotonic() - self._since > self.max_backoff:
                delay = self.backoff  # it had lasted: a new drop starts the backoff afresh
            self.stop.wait(delay)
            delay = min(delay * 2, self.max_backoff)

    # -- one connection

    def _serve(self, client: IMAPClient) -> None:
        self._since = time.monotonic()
        where = f"{self.settings.host}:{self.settings.port}"
        try:
            name = Mailbox(client, where).server_name(self.settings.folder, "mail.imap.folder")
            client.select_folder(name, readonly=True)
            _news_between(client)  # the folder's count, not news: the ring below covers it
            idle = client.has_capability("IDLE")
        except (FolderError, *_REPLY_ERRORS) as exc:
            raise _Dropped(_said(exc)) from None
        self.connections += 1
        again = " again" if self.connections > 1 else ""
        if idle:
            self.log(f"{self.mailbox_name}: connected{again}, waiting for mail (IMAP IDLE)")
        else:
            self.log(
                f"{self.mailbox_name}: connected{again}; the server has no IMAP IDLE: "
                f"polling every {self.poll:g} s"
            )
        self.ring(self.mailbox_name)  # what came while no one listened
        while not self.stop.is_set():
            if idle:
                self._idle_once(client)
            else:
                self._poll_once(client)

    def _poll_once(self, client: IMAPClient) -> None:
        if self.stop.wait(self.poll):
            return
        try:
            client.noop()
        except _REPLY_ERRORS as exc:
            raise _Dropped(_said(exc)) from None
        self.ring(self.mailbox_name)

    def _idle_once(self, client: IMAPClient) -> None:
        """One IDLE, ended after ``renew`` seconds, at a stop, or when the line may be dead."""
        try:
            client.idle()
            if _news_between(client):
                self.ring(self.mailbox_name)
            started = time.monotonic()
            while not self.stop.is_set() and time.monotonic() - started < self.renew:
                waited = time.monotonic()
                responses = client.idle_check(timeout=self.check)
                self._heard(responses)
                if not responses and time.monotonic() - waited < self.check / 2:
                    break  # woken with nothing to read: the server may have gone (EOF)
            _, responses = client.idle_done()  # the server's answer, within the timeout
            self._heard(responses)
            if not self.stop.is_set():
                _, responses = client.noop()  # a closed line fails here, not silently in idle_check
                self._heard(responses)
        except _REPLY_ERRORS as exc:
            raise _Dropped(_said(exc)) from None

    def _heard(self, responses: list[Any]) -> None:
        news = False
        for response in responses:
            if not isinstance(response, tuple) or len(response) < 2:
                continue
            if response[0] == b"BYE":
                words = [w.decode("utf-8", "replace") for w in response[1:] if isinstance(w, bytes)]
                said = " ".join(words)
                raise _Dropped(f"the server said BYE: {said}".rstrip(": "))
            if response[1] in (b"EXISTS", b"RECENT"):
                news = True
        if news:
            self.ring(self.mailbox_name)


def _news_between(client: IMAPClient) -> bool:
    """Whether the server reported new mail between two commands (before IDLE's
    go-ahead, or with the folder's selection): imaplib keeps such reports aside
    (``untagged_responses``) instead of returning them; they are taken here."""
    kept = getattr(getattr(client, "_imap", None), "untagged_responses", None)
    if not isinstance(kept, dict):
        return False
    news = [kept.pop(key, None) for key in ("EXISTS", "RECENT")]
    if kept.pop("BYE", None):
        raise _Dropped("the server said BYE")
    return any(news)


def _said(exc: BaseException) -> str:
    text = _text(exc)
    return text if text != "socket error: EOF" else "the server closed the connection"


def _close(client: IMAPClient) -> None:
    with contextlib.suppress(*_REPLY_ERRORS, imaplib.IMAP4.error):
        client.shutdown()
