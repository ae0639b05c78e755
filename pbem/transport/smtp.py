"""Sending finished drafts through the GM's SMTP submission server.

Design, in the order things can go wrong:

* Every draft has an id; `SentLedger` records it the moment the server accepts
  the message, so a run that is killed or fails half-way can simply be rerun: it
  skips what was accepted and sends only the rest.
* Connections are expensive and servers limit them, so one connection carries a
  batch of `batch_per_connection` messages and at most `max_connections` run at once.
* Temporary trouble (4xx replies, a dropped connection, a timeout) before the
  message is handed over is retried with exponential backoff on a fresh
  connection when needed.  Permanent refusals (5xx) fail only that draft, with
  the server's words, and the others go on.
* Once the message itself goes out (DATA), only the server's reply says whether
  it was stored: a server can store it and drop the line, or reply too late.  So
  the ledger notes the draft "in flight" (fsync'd) before DATA, and a draft with
  no reply after it is *uncertain*: never resent by a retry or a rerun, only on
  the GM's word (`resend`).  The run stops at the first uncertain draft, and the
  DATA phase is taken by one connection at a time, so a crash or a dead server
  leaves at most one draft uncertain.
* A server that defers everything (4xx to every RCPT, say) is given up on once
  every attempt has failed for longer than about one draft's whole backoff
  (``backoff * 2 ** retries``): the run stops with `SendError`, naming what waits,
  rather than spend the full backoff on each draft in turn.  A reply to the
  message that is neither a refusal (4xx, 5xx) nor an acceptance (2xx) is
  outside the RFC: the draft is *uncertain*, as with no reply.
* Trouble no retry will fix for this run (server unreachable after the retries,
  login refused, TLS failure) stops everything with `SendError`, after the workers
  have finished and recorded the message each had in flight.
* A refused login is never retried (each refusal counts against the account at
  most providers): a 5xx to AUTH, and a server that gives no answer to AUTH at all
  (some refuse that way), stop the run at once, naming the account and the
  setting to check.  The one exception is an OAuth2 token from a command: a token
  that expired since it was printed is refused, so the command is asked once more.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import getaddresses

from aiosmtplib import (
    SMTP,
    SMTPAuthenticationError,
    SMTPException,
    SMTPNotSupported,
    SMTPRecipientRefused,
    SMTPRecipientsRefused,
    SMTPResponseException,
)

from ..errors import MailError
from .credentials import CredentialError, Credentials, Secret, b64, oauthbearer_response
from .ledger import LedgerBusy, SentLedger

__all__ = ["SmtpSettings", "SendError", "SendSummary", "send_drafts", "send_drafts_async"]

Progress = Callable[[str, str], None]
SECURITY_MODES = ("starttls", "tls", "none")
#: The longest wait for the server's answer to AUTH: servers answer a login in a
#: second or two (a refusal after a deliberate delay of a few seconds at most).
LOGIN_TIMEOUT = 15.0


@dataclass(frozen=True)
class SmtpSettings:
    """How to reach the submission server.

    `security`: "starttls" (port 587, upgrade required), "tls" (port 465, TLS from
    the first byte) or "none" (plain text; only for a relay on the same machine).
    `timeout` applies to each SMTP operation; `backoff` is the first retry delay in
    seconds, doubled at each of the `retries` further attempts.
    The login is `credentials` (a secret asked for at each connection, see
    `pbem.transport.credentials`), or else `user` with the literal `password`.
    """

    host: str
    port: int
    security: str
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    timeout: float = 30.0
    max_connections: int = 4
    batch_per_connection: int = 100
    retries: int = 4
    backoff: float = 1.0
    tls_context: ssl.SSLContext | None = None
    credentials: Credentials | None = None

    def login(self) -> Credentials | None:
        """The login to make after connecting, or None for a server without AUTH."""
        if self.credentials is not None:
            return self.credentials
        if self.user:
            return Credentials(self.user, Secret("", value=self.password or ""))
        return None


class SendError(MailError):
    """Sending stopped: the server cannot be used now.  `summary` tells what was done."""

    def __init__(self, message: str, summary: SendSummary | None = None):
        super().__init__(message)
        self.summary = summary


@dataclass
class SendSummary:
    """Outcome of one `send_drafts` call.

    `per_recipient[draft_id][address]` is "accepted" or the server's refusal
    ("550 5.1.1 ..."), so a partly refused draft is visible although it counts as sent.
    """

    sent: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    per_recipient: dict[str, dict[str, str]] = field(default_factory=dict)
    uncertain: dict[str, str] = field(default_factory=dict)  # made uncertain by this run: why
    held: list[str] = field(default_factory=list)  # uncertain before this run: not sent again


@dataclass(frozen=True)
class _Draft:
    draft_id: str
    raw: bytes
    sender: str
    recipients: list[str]
    message_id: str


def _prepare(draft_id: str, raw: bytes) -> _Draft:
    """Derive the envelope from the headers; ValueError names what is missing."""
    headers = BytesHeaderParser(policy=compat32).parsebytes(raw)
    senders = [addr for _, addr in getaddresses(headers.get_all("From", [])) if addr]
    if len(senders) != 1:
        raise ValueError(f"draft must have exactly one From address, found {len(senders)}")
    if headers.get_all("Bcc"):
        raise ValueError("draft has a Bcc header, which would be sent to every recipient")
    recipients: list[str] = []
    for _, addr in getaddresses(headers.get_all("To", []) + headers.get_all("Cc", [])):
        if addr and addr not in recipients:
            recipients.append(addr)
    if not recipients:
        raise ValueError("draft has no To or Cc address")
    message_id = (headers.get("Message-ID") or "").strip()
    if not message_id:
        raise ValueError("draft has no Message-ID")
    return _Draft(draft_id, raw, senders[0], recipients, message_id)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SMTPResponseException):
        return f"{exc.code} {exc.message}"
    text = str(exc) or type(exc).__name__
    return text


def _is_tls_failure(exc: BaseException | None) -> bool:
    """True if a certificate or TLS handshake problem is anywhere in the chain."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, ssl.SSLError):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


class _Retry(MailError):
    """A temporary failure; `connection` when the server, not this message, is the trouble."""

    def __init__(self, reason: str, connection: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.connection = connection


class _LoginFailed(MailError):
    """The login did not succeed; `refused` when the server said no (or nothing)."""

    def __init__(self, reason: str, login: Credentials, refused: bool, own: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.login = login
        self.refused = refused
        self.own = own  # the reason already names the setting (a failing password command)


async def _auth_oauthbearer(client: SMTP, user: str, token: str, wait: float) -> None:
    """AUTH OAUTHBEARER (RFC 7628), which aiosmtplib does not have: the initial
    response carries the token; a refusal comes as a 334 challenge holding the
    error in JSON, which the client answers with a lone ^A to get the final 5xx."""
    hostname = client.hostname or ""
    port = client.port or 0
    response = await client.execute_command(
        b"AUTH", b"OAUTHBEARER", b64(oauthbearer_response(user, token, hostname, port)), timeout=wait
    )
    if response.code == 334:
        response = await client.execute_command(b"AQ==", timeout=wait)
    if response.code != 235:
        raise SMTPAuthenticationError(response.code, response.message)


class _Connection:
    """One SMTP session, opened lazily and reopened after it is lost."""

    def __init__(self, settings: SmtpSettings):
        self.settings = settings
        self.client: SMTP | None = None

    async def open(self) -> SMTP:
        if self.client is not None and self.client.is_connected:
            return self.client
        self.discard()
        s = self.settings
        client = SMTP(
            hostname=s.host,
            port=s.port,
            use_tls=s.security == "tls",
            start_tls=s.security == "starttls",
            tls_context=s.tls_context,
            timeout=s.timeout,
        )
        try:
            await client.connect()
            login = s.login()
            if login is not None:
                await self._login(client, login)
        except BaseException:
            client.close()
            raise
        self.client = client
        return client

    async def _login(self, client: SMTP, login: Credentials) -> None:
        """AUTH with one mechanism; an OAuth2 token from a command is asked again once if refused.

        Failures come out as `_LoginFailed`, so that they are never taken for
        connection trouble and retried."""
        wait = min(self.settings.timeout, LOGIN_TIMEOUT)
        if client.is_ehlo_or_helo_needed:  # after STARTTLS the server is asked again
            await client.ehlo()
        offered = [m.lower() for m in client.server_auth_methods]
        if not client.supports_extension("auth"):
            raise _LoginFailed("the server offers no login (AUTH) on this connection", login, refused=False)
        if login.oauth2 and login.mechanism not in offered:
            raise _LoginFailed(
                f"the server does not offer {login.mechanism.upper()} (it offers "
                f"{' '.join(m.upper() for m in offered) or 'nothing'})",
                login,
                refused=False,
            )
        for attempt in (1, 2):
            try:
                secret = await asyncio.to_thread(login.secret.fetch)
            except CredentialError as exc:
                raise _LoginFailed(str(exc), login, refused=False, own=True) from None
            try:
                await self._authenticate(client, login, secret, offered, wait)
                return
            except SMTPAuthenticationError as exc:
                if exc.code < 500:
                    raise  # e.g. 454: the server's auth backend is down for now: retried
                if attempt == 1 and login.oauth2 and login.secret.asked_each_time:
                    continue  # the token may have expired since it was printed: ask again, once
                again = (
                    "; a second token, asked for in case the first had expired, too" if attempt == 2 else ""
                )
                raise _LoginFailed(_describe(exc) + again, login, refused=True) from None
            except TimeoutError:
                raise _LoginFailed(
                    f"no answer to the login within {wait:g} seconds (some servers refuse a login that way)",
                    login,
                    refused=True,
                ) from None

    @staticmethod
    async def _authenticate(client: SMTP, login: Credentials, secret: str, offered: list, wait: float):
        if login.mechanism == "xoauth2":
            await client.auth_xoauth2(login.user, secret, timeout=wait)
        elif login.mechanism == "oauthbearer":
            await _auth_oauthbearer(client, login.user, secret, wait)
        else:
            # One mechanism, not each in turn: every refused try counts against the account.
            for name in ("plain", "login", "cram-md5"):
                if name in offered:
                    await getattr(client, "auth_" + name.replace("-", ""))(login.user, secret, timeout=wait)
                    return
            raise _LoginFailed(
                f"the server offers no password login (it offers {' '.join(offered).upper()})",
                login,
                refused=False,
            )

    def discard(self) -> None:
        """Forget a connection that failed; its state can no longer be trusted."""
        if self.client is not None:
            self.client.close()
            self.client = None

    async def close(self) -> None:
        """Polite QUIT; a server that already hung up does not matter now."""
        client, self.client = self.client, None
        if client is None or not client.is_connected:
            return
        try:
            await client.quit()
        except (TimeoutError, SMTPException, OSError):
            client.close()


class _Run:
    """State shared by the workers of one `send_drafts` call."""

    def __init__(
        self, settings: SmtpSettings, ledger: SentLedger, summary: SendSummary, progress: Progress | None
    ):
        self.settings = settings
        self.ledger = ledger
        self.summary = summary
        self.progress = progress or (lambda draft_id, event: None)
        self.queue: deque[list[_Draft]] = deque()
        self.fatal: SendError | None = None
        # One message handed over at a time, across connections: at most one uncertain.
        self.data_lock = asyncio.Lock()
        # Since when every attempt failed for now (None: the last one went through). Once
        # that lasts longer than about one draft's whole backoff, the run stops: a server
        # that defers everything is not retried draft after draft (15 s each by default).
        self.deferred_since: float | None = None
        self.waited = 0.0
        self.give_up_after = settings.backoff * 2**settings.retries
        # Until one login has succeeded, connections log in one at a time: a wrong
        # password is then refused once, not once per parallel connection.
        self.login_gate = asyncio.Lock()
        self.login_proven = False

    @property
    def where(self) -> str:
        return f"{self.settings.host}:{self.settings.port}"

    async def worker(self) -> None:
        """Take batches off the queue, one connection per batch, until done or fatal."""
        while self.queue and self.fatal is None:
            batch = self.queue.popleft()
            conn = _Connection(self.settings)
            try:
                for draft in batch:
                    if self.fatal is not None:
                        break
                    await self.send_one(conn, draft)
            except SendError as exc:
                if self.fatal is None:
                    self.fatal = exc
            finally:
                await conn.close()

    async def send_one(self, conn: _Connection, draft: _Draft) -> None:
        """Send one draft, retrying temporary failures with backoff.

        Ends when the draft is accepted (and recorded) or failed for good; raises
        SendError when the server itself cannot be used.
        """
        s = self.settings
        attempt = 0
        while True:
            try:
                client = await self._open(conn)
                await self._transmit(conn, client, draft)
                return
            except _Retry as retry:
                trouble = retry
            attempt += 1
            delay = s.backoff * 2 ** (attempt - 1)
            if attempt <= s.retries and self._give_up(trouble, delay):
                return  # the draft waits for the next run, unsent
            if attempt > s.retries:
                if trouble.connection:
                    raise SendError(
                        f"SMTP server {self.where} cannot be used ({trouble.reason}); "
                        f"gave up after {attempt} attempts"
                    )
                self._fail(draft, f"{trouble.reason} (gave up after {attempt} attempts)")
                return
            self.progress(draft.draft_id, "retry")
            await asyncio.sleep(delay)

    def _give_up(self, trouble: _Retry, delay: float) -> bool:
        """Whether the server has deferred everything for too long: every attempt
        since ``deferred_since`` failed for now, and the backoff waited since then
        (``waited``, across connections) would pass ``give_up_after``. Then the run stops (nothing more
        is tried) instead of spending the whole backoff on each draft in turn."""
        now = asyncio.get_running_loop().time()
        if self.deferred_since is None:
            self.deferred_since, self.waited = now, 0.0
        if self.waited + delay <= self.give_up_after:
            self.waited += delay
            return False
        if self.fatal is None:
            self.fatal = SendError(
                f"SMTP server {self.where} deferred every message for "
                f"{now - self.deferred_since:.0f} s (last: {trouble.reason}); gave up for now rather "
                f"than wait longer: the drafts not sent wait in the outbox"
            )
        return True

    async def _open(self, conn: _Connection) -> SMTP:
        """The batch's connection, (re)opened if needed; the first login alone (see login_gate)."""
        if self.login_proven:
            return await self._connect(conn)
        async with self.login_gate:
            if self.fatal is not None:
                raise self.fatal  # another connection's login failed for good meanwhile
            client = await self._connect(conn)
            self.login_proven = True
            return client

    async def _connect(self, conn: _Connection) -> SMTP:
        """Open the connection; sorts failures into retry or fatal."""
        s = self.settings
        try:
            return await conn.open()
        except _LoginFailed as exc:
            raise SendError(self._login_advice(exc)) from None
        except SMTPAuthenticationError as exc:
            # Only a temporary refusal (4xx) gets here: the server's auth backend is down for now.
            raise _Retry(f"login failed for now: {_describe(exc)}", connection=True) from exc
        except Exception as exc:  # noqa: BLE001 - sorted below, the rest re-raised
            if _is_tls_failure(exc) or isinstance(exc, SMTPNotSupported):
                raise SendError(
                    f"secure connection to SMTP server {self.where} ({s.security}) "
                    f"failed: {_describe(exc)}. Check the security setting (starttls "
                    "is usual on port 587, tls on 465) and the server's certificate"
                ) from exc
            if isinstance(exc, SMTPResponseException) and exc.code >= 500:
                raise SendError(f"SMTP server {self.where} refused the session: {_describe(exc)}") from exc
            if isinstance(exc, (SMTPException, OSError, asyncio.TimeoutError)):
                raise _Retry(f"cannot connect: {_describe(exc)}", connection=True) from exc
            raise

    def _login_advice(self, exc: _LoginFailed) -> str:
        """What went wrong with the login and what to check; never the secret itself."""
        login = exc.login
        if exc.own:
            return f"cannot log in to SMTP server {self.where} as {login.user!r}: {exc.reason}"
        if exc.refused:
            return (
                f"SMTP server {self.where} refused the login for {login.user!r} ({exc.reason}). "
                f"Check mail.smtp.user and {login.describe()}."
            )
        return (
            f"cannot log in to SMTP server {self.where} as {login.user!r}: {exc.reason}. "
            f"Check mail.smtp.security" + (" and mail.smtp.oauth2.mechanism" if login.oauth2 else "")
        )

    async def _transmit(self, conn: _Connection, client: SMTP, draft: _Draft) -> None:
        """One SMTP transaction: record on success, fail the draft on 5xx, else _Retry;
        no reply to the message itself makes it uncertain (see the module doc)."""
        try:
            errors = await self._envelope(client, draft)
        except SMTPRecipientsRefused as exc:
            refusals = {r.recipient: f"{r.code} {r.message}" for r in exc.recipients}
            if all(400 <= r.code < 500 for r in exc.recipients):
                raise _Retry("recipients temporarily refused: " + "; ".join(refusals.values())) from exc
            self._fail(draft, "every recipient was refused: " + "; ".join(refusals.values()), refusals)
            return
        except SMTPResponseException as exc:
            with contextlib.suppress(SMTPException, OSError, asyncio.TimeoutError):
                await client.rset()  # a clean envelope for the next attempt
            self._refused(conn, draft, exc)
            return
        except (TimeoutError, SMTPException, OSError) as exc:
            conn.discard()  # before the message went out: certainly not delivered
            raise _Retry(f"connection lost: {_describe(exc)}", connection=True) from exc
        async with self.data_lock:
            if self.fatal is not None:
                conn.discard()  # the run stops; the server drops the unfinished envelope
                return
            accepted = [r for r in draft.recipients if r not in errors]
            await asyncio.to_thread(self.ledger.in_flight, draft.draft_id, draft.message_id, accepted)
            try:
                await client.data(draft.raw)
            except SMTPResponseException as exc:
                if 200 <= exc.code < 300:  # a positive completion other than 250: stored
                    await self._accepted(draft, errors)
                    return
                if not 400 <= exc.code < 600:
                    # Outside the RFC (999, a 354 again, a malformed line...): not a
                    # refusal, so the server may have stored the message.
                    conn.discard()
                    self._uncertain(draft, exc, f"a reply outside the RFC ({_describe(exc)})")
                    return
                # A refusal: the server did not take the message.
                await asyncio.to_thread(self.ledger.not_sent, draft.draft_id, _describe(exc))
                self._refused(conn, draft, exc)
                return
            except (TimeoutError, SMTPException, OSError) as exc:
                conn.discard()
                self._uncertain(draft, exc)
                return
            await self._accepted(draft, errors)

    async def _envelope(self, client: SMTP, draft: _Draft) -> dict:
        """MAIL FROM and RCPT TO; the refused recipients (all refused: SMTPRecipientsRefused)."""
        await client.mail(draft.sender)
        refused = {}
        for recipient in draft.recipients:
            try:
                await client.rcpt(recipient)
            except SMTPRecipientRefused as exc:
                refused[recipient] = exc
        if len(refused) == len(draft.recipients):
            with contextlib.suppress(SMTPException, OSError, asyncio.TimeoutError):
                await client.rset()
            raise SMTPRecipientsRefused(list(refused.values()))
        return refused

    def _refused(self, conn: _Connection, draft: _Draft, exc: SMTPResponseException) -> None:
        """The server refused the message: 5xx fails the draft, 4xx is retried."""
        if not 400 <= exc.code < 500:
            self._fail(draft, _describe(exc))  # permanent: retrying cannot help
            return
        if exc.code == 421:  # the server is closing this session
            conn.discard()
        raise _Retry(_describe(exc)) from exc

    def _uncertain(self, draft: _Draft, exc: BaseException, answer: str | None = None) -> None:
        """No reply to the message, or ``answer``, one that is neither a refusal nor an acceptance."""
        reply = answer or "no reply"
        reason = f"{reply} after the message was handed over" + ("" if answer else f" ({_describe(exc)})")
        self.summary.uncertain[draft.draft_id] = reason
        self.progress(draft.draft_id, "uncertain")
        if self.fatal is None:
            self.fatal = SendError(
                f"SMTP server {self.where} gave {reply} after receiving {draft.draft_id}: it may or "
                f"may not have been delivered, so it is marked uncertain and will not be sent again "
                f"by itself"
            )

    async def _accepted(self, draft: _Draft, errors: dict) -> None:
        self.deferred_since = None  # the server takes messages again
        accepted = [r for r in draft.recipients if r not in errors]
        # Record first: if anything after this fails, the rerun must not resend. No
        # fsync of its own: the in-flight line is durable, so a lost "sent" line
        # reads as uncertain, never as unsent (see SentLedger.record).
        self.ledger.record(draft.draft_id, draft.message_id, accepted, sync=False)
        self.summary.sent.append(draft.draft_id)
        self.summary.per_recipient[draft.draft_id] = {
            r: (f"{errors[r].code} {errors[r].message}" if r in errors else "accepted")
            for r in draft.recipients
        }
        self.progress(draft.draft_id, "sent")

    def _fail(self, draft: _Draft, reason: str, refusals: dict[str, str] | None = None) -> None:
        self.summary.failed[draft.draft_id] = reason
        if refusals:
            self.summary.per_recipient[draft.draft_id] = dict(refusals)
        self.progress(draft.draft_id, "failed")


async def send_drafts_async(
    drafts: Sequence[tuple[str, bytes]],
    settings: SmtpSettings,
    ledger: SentLedger,
    progress: Progress | None = None,
    resend: Collection[str] = (),
) -> SendSummary:
    """Async form of `send_drafts`, for callers that already run an event loop."""
    if settings.security not in SECURITY_MODES:
        raise ValueError(f"security must be one of {SECURITY_MODES}, not {settings.security!r}")
    if settings.max_connections < 1 or settings.batch_per_connection < 1:
        raise ValueError("max_connections and batch_per_connection must be at least 1")
    summary = SendSummary()
    run = _Run(settings, ledger, summary, progress)
    try:
        with ledger.lock():
            pending: list[_Draft] = []
            seen: set[str] = set()
            for draft_id, raw in drafts:
                if draft_id in seen or ledger.is_sent(draft_id):
                    summary.skipped.append(draft_id)
                    run.progress(draft_id, "skipped")
                    continue
                if ledger.is_uncertain(draft_id) and draft_id not in resend:
                    summary.held.append(draft_id)
                    run.progress(draft_id, "held")
                    continue
                seen.add(draft_id)
                try:
                    pending.append(_prepare(draft_id, raw))
                except ValueError as exc:
                    run._fail(_Draft(draft_id, raw, "", [], ""), str(exc))
            size = settings.batch_per_connection
            run.queue.extend(pending[i : i + size] for i in range(0, len(pending), size))
            workers = min(settings.max_connections, len(run.queue))
            try:
                await asyncio.gather(*(run.worker() for _ in range(workers)))
            finally:
                await asyncio.to_thread(ledger.sync)
    except LedgerBusy as exc:
        raise SendError(str(exc), summary) from exc
    if run.fatal is not None:
        done = len(summary.sent) + sum(
            d.draft_id in summary.failed or d.draft_id in summary.uncertain for d in pending
        )
        raise SendError(
            f"{str(run.fatal).rstrip('.')}. {len(summary.sent)} message(s) were sent and recorded; "
            f"{len(pending) - done} not sent yet: run again to send the rest.",
            summary,
        ) from run.fatal.__cause__
    return summary


def send_drafts(
    drafts: Sequence[tuple[str, bytes]],
    settings: SmtpSettings,
    ledger: SentLedger,
    progress: Progress | None = None,
    resend: Collection[str] = (),
) -> SendSummary:
    """Send each (draft_id, RFC 5322 bytes) not already in `ledger`; see module doc.

    The envelope comes from the From/To/Cc headers.  `progress(draft_id, event)` is
    called with event "skipped", "held", "sent", "failed", "uncertain" or "retry".
    Uncertain drafts are held back unless their id is in `resend` (the GM's word).
    Raises `SendError` when the server cannot be used at all, or when a draft was
    made uncertain (`summary.uncertain`); drafts accepted before that are recorded.
    """
    return asyncio.run(send_drafts_async(drafts, settings, ledger, progress, resend))
