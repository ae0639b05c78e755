"""Fetching players' mail for one campaign from the GM's IMAP mailbox.

The GM's mailbox is shared with the rest of their life and may hold years of mail,
so a fetch only looks at UIDs above the folder's high-water mark in `FetchLedger`
(its cost follows the new mail, not the mailbox), reads headers first and lets the
caller's `belongs` decide, and downloads whole messages only for the campaign's.

Each campaign message is handed to `deliver` (which stores it durably), then
recorded in the ledger, then flagged \\Seen and moved to the processed folder, so
the GM's INBOX shows what is left for them.  Mail that is not the campaign's is
left untouched, only remembered as examined.

The mark moves only over what is done for good: campaign mail delivered *and*
filed away, other mail examined.  A fetch killed or cut off half-way leaves the
rest at or above the mark, so the next fetch finishes the job: what was
delivered but not filed is recognised by its key and filed; a UID missing from a
server's (possibly truncated) reply stops the mark until a later fetch sees it
again or finds it expunged.

UIDs are only meaningful with their UIDVALIDITY: when the server resets it (mailbox
rebuilt, restored, migrated), the mark is dropped and every message is examined
again; the delivered Message-IDs (or SHA-256 of the bytes for mail without one)
keep anything from being delivered twice.
"""

from __future__ import annotations

import contextlib
import email.message
import hashlib
import imaplib
import ssl
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email.parser import BytesHeaderParser
from email.policy import compat32
from typing import Any, TypeVar

from imapclient import DELETED, SEEN, IMAPClient
from imapclient.exceptions import LoginError

from .credentials import CredentialError, Credentials, Secret, oauthbearer_response, xoauth2_response
from .folders import FolderError, Mailbox
from .ledger import FetchLedger, LedgerBusy

__all__ = ["ImapSettings", "FetchError", "FetchSummary", "FetchLedger", "fetch_new"]

# UIDs per FETCH command: few round trips, bounded memory for whole messages.
CHUNK = 200
_T = TypeVar("_T")
_IMAP_ERRORS = (imaplib.IMAP4.error, OSError)  # OSError covers socket timeouts and TLS


@dataclass(frozen=True)
class ImapSettings:
    """Where the GM's mail is.

    `security`: "tls" (TLS from the first byte, port 993), "starttls" (port 143,
    upgraded before the login) or "none" (plain text, only sensible on the same
    machine); without it, `tls` says tls or none. Certificates and host names are
    checked (`ssl_context`, default: the system's authorities). The login is
    `credentials` (asked for at each connection, see `pbem.transport.credentials`),
    or else `user` with the literal `password`. Folder names are paths with `/`
    between levels, whatever the server's own separator.
    """

    host: str
    port: int
    tls: bool
    user: str
    password: str = field(default="", repr=False)
    folder: str = "INBOX"
    processed_folder: str = "pbem-processed"
    timeout: float = 30.0
    ssl_context: ssl.SSLContext | None = None
    security: str | None = None
    credentials: Credentials | None = None

    @property
    def mode(self) -> str:
        return self.security or ("tls" if self.tls else "none")

    def login(self) -> Credentials:
        if self.credentials is not None:
            return self.credentials
        return Credentials(self.user, Secret("", value=self.password))


class FetchError(Exception):
    """The mailbox could not be read: server down, login refused, folder missing..."""


@dataclass
class FetchSummary:
    delivered: int = 0
    skipped_duplicates: int = 0
    ignored: int = 0  # examined, not for this campaign, left in place
    uidvalidity_reset: bool = False


def _message_key(headers: email.message.Message) -> str | None:
    """The Message-ID, whitespace-normalised, or None when the message has none."""
    value = headers.get("Message-ID")
    if value is None:
        return None
    key = " ".join(str(value).split())
    return key or None


def _content_key(raw: bytes) -> str:
    return "sha256:" + hashlib.sha256(raw).hexdigest()


class _Fetch:
    """One fetch run over one selected folder."""

    def __init__(
        self,
        client: IMAPClient,
        settings: ImapSettings,
        ledger: FetchLedger,
        belongs: Callable[[email.message.Message], bool],
        deliver: Callable[[bytes], None],
    ):
        self.client = client
        self.settings = settings
        self.ledger = ledger
        self.belongs = belongs
        self.deliver = deliver
        self.summary = FetchSummary()
        self.uidvalidity = 0
        self.mailbox = Mailbox(client, f"{settings.host}:{settings.port}")
        self.processed: str | None = None  # the server's name for the processed folder, once ready
        self.gap = False  # a UID of this run was not handled: the mark stays below it

    def imap(self, what: str, call: Callable[..., _T], *args: Any) -> _T:
        """Run an IMAP command; server trouble becomes a FetchError saying what we did."""
        try:
            return call(*args)
        except _IMAP_ERRORS as exc:
            s = self.settings
            raise FetchError(f"IMAP server {s.host}:{s.port} failed while {what}: {_text(exc)}") from exc

    def folder_name(self, call: Callable[[str, str], str], path: str, setting: str) -> str:
        """The server's spelling of a folder path of the settings (see `pbem.transport.folders`)."""
        try:
            return call(path, setting)
        except FolderError as exc:
            raise FetchError(str(exc)) from exc

    def run(self) -> FetchSummary:
        folder = self.settings.folder  # the ledger knows it by the settings' name
        on_server = self.folder_name(self.mailbox.server_name, folder, "mail.imap.folder")
        info = self.imap(f"opening folder {folder!r}", self.client.select_folder, on_server)
        self.uidvalidity = int(info[b"UIDVALIDITY"])
        known_validity, mark = self.ledger.mark(folder)
        if known_validity != self.uidvalidity:
            self.summary.uidvalidity_reset = known_validity is not None
            mark = 0
            self.ledger.set_mark(folder, self.uidvalidity, 0)
            self.ledger.save()
        uidnext = info.get(b"UIDNEXT")
        if uidnext is not None and int(uidnext) - 1 <= mark:
            return self.summary  # nothing arrived since the last run: no search at all
        found = self.imap("searching for new mail", self.client.search, ["UID", f"{mark + 1}:*"])
        # "UID n:*" always matches the highest UID, even below n: keep only new ones.
        uids = sorted(uid for uid in found if uid > mark)
        for start in range(0, len(uids), CHUNK):
            self.chunk(uids[start : start + CHUNK])
        return self.summary

    def chunk(self, uids: Sequence[int]) -> None:
        """Examine, deliver and file away one chunk of UIDs, in UID order."""
        heads = self.imap("reading headers", self.client.fetch, uids, ["BODY.PEEK[HEADER]"])
        plan: list[tuple[int, str, str | None]] = []  # (uid, action, Message-ID)
        for uid in uids:
            item = heads.get(uid)
            if item is None:
                plan.append((uid, "gone", None))  # expunged by someone else meanwhile
                continue
            headers = BytesHeaderParser(policy=compat32).parsebytes(item[b"BODY[HEADER]"])
            if not self.belongs(headers):
                plan.append((uid, "ignore", None))
                continue
            key = _message_key(headers)
            if key is not None and self.ledger.is_delivered(key):
                plan.append((uid, "duplicate", key))
            else:
                plan.append((uid, "deliver", key))
        wanted = [uid for uid, action, _ in plan if action == "deliver"]
        bodies = {}
        if wanted:
            bodies = self.imap("downloading messages", self.client.fetch, wanted, ["BODY.PEEK[]"])

        done: list[int] = []  # campaign messages handled: to flag and move
        examined = 0  # how many UIDs of this chunk, from its start, are handled for good
        try:
            for uid, action, key in plan:
                if action == "deliver":
                    raw = bodies.get(uid, {}).get(b"BODY[]")
                    if raw is None:
                        action = "gone"
                    else:
                        key = key or _content_key(raw)
                        if self.ledger.is_delivered(key):
                            action = "duplicate"
                        else:
                            self.deliver(raw)  # if it raises, this UID stays unmarked
                            self.ledger.record_delivery(self.settings.folder, self.uidvalidity, uid, key)
                            self.summary.delivered += 1
                            done.append(uid)
                            action = "delivered"
                if action == "duplicate":
                    self.summary.skipped_duplicates += 1
                    done.append(uid)
                elif action == "ignore":
                    self.summary.ignored += 1
                elif action == "gone":
                    # Expunged meanwhile, or a reply cut short by a dying server: it cannot
                    # be told apart, so the mark stops here and the next fetch looks again
                    # (an expunged UID is simply not found then).
                    self.gap = True
                if not self.gap:
                    examined += 1
        except BaseException:
            # Keep what was done before the failure; the failure itself wins.
            with contextlib.suppress(FetchError):
                self.file_away(done)
                self.advance(plan[:examined])
            raise
        self.file_away(done)
        self.advance(plan[:examined])

    def advance(self, handled: Sequence[tuple[int, str, str | None]]) -> None:
        """Move the mark over UIDs handled for good: delivered or duplicate mail only
        once it is filed away (else the next fetch meets it again, recognises it as a
        duplicate and files it), mail not ours once examined."""
        if handled:
            self.ledger.set_mark(self.settings.folder, self.uidvalidity, handled[-1][0])
        self.ledger.save()

    def file_away(self, uids: list[int]) -> None:
        """Flag handled campaign mail \\Seen and move it to the processed folder."""
        if not uids:
            return
        client = self.client
        if self.processed is None:
            self.processed = self.folder_name(
                self.mailbox.ensure, self.settings.processed_folder, "mail.imap.processed_folder"
            )
        target = self.processed
        self.imap("flagging messages as seen", client.add_flags, uids, [SEEN])
        if client.has_capability("MOVE"):
            self.imap(f"moving messages to {target!r}", client.move, uids, target)
            return
        self.imap(f"copying messages to {target!r}", client.copy, uids, target)
        self.imap("flagging moved messages deleted", client.add_flags, uids, [DELETED])
        if client.has_capability("UIDPLUS"):
            self.imap("expunging moved messages", client.uid_expunge, uids)
        else:
            self.imap("expunging moved messages", client.expunge)


def _text(exc: BaseException) -> str:
    """imaplib errors carry bytes reprs like b'[AUTHENTICATIONFAILED] ...': unwrap them."""
    text = str(exc) or type(exc).__name__
    if text.startswith(("b'", 'b"')) and text.endswith(text[1]):
        text = text[2:-1]
    return text


def _connect(settings: ImapSettings) -> IMAPClient:
    where = f"{settings.host}:{settings.port}"
    mode = settings.mode
    context = settings.ssl_context or ssl.create_default_context()
    try:
        client = IMAPClient(
            settings.host,
            port=settings.port,
            ssl=mode == "tls",
            ssl_context=context,
            timeout=settings.timeout,
        )
    except _IMAP_ERRORS as exc:
        security = {"tls": "TLS", "starttls": "plain, then STARTTLS", "none": "plain"}[mode]
        raise FetchError(
            f"cannot connect to IMAP server {where} ({security}): {_text(exc)}"
            + (_TLS_ADVICE if isinstance(exc, ssl.SSLError) else "")
        ) from exc
    try:
        if mode == "starttls":
            _starttls(client, context, where)
        _login(client, settings, where)
    except BaseException:
        with contextlib.suppress(*_IMAP_ERRORS):
            client.shutdown()
        raise
    return client


_TLS_ADVICE = (
    ". Check mail.imap.security (tls is usual on port 993, starttls on 143) and the server's "
    "certificate (ca_file trusts a private authority)"
)


def _starttls(client: IMAPClient, context: ssl.SSLContext, where: str) -> None:
    if not client.has_capability("STARTTLS"):
        raise FetchError(
            f"IMAP server {where} does not offer STARTTLS: write mail.imap.security: tls if it "
            f"speaks TLS from the first byte (usually port 993)"
        )
    try:
        client.starttls(context)
    except _IMAP_ERRORS as exc:
        raise FetchError(f"STARTTLS with IMAP server {where} failed: {_text(exc)}{_TLS_ADVICE}") from exc


class _Responder:
    """The SASL client side for imapclient's sasl_login: the initial response first;
    to the error challenge a refusing server sends, the empty answer (XOAUTH2) or a
    lone ^A (OAUTHBEARER, RFC 7628) that lets it finish with NO."""

    def __init__(self, first: str, after_error: str):
        self.first: str | None = first
        self.after_error = after_error

    def __call__(self, challenge: bytes) -> str:
        first, self.first = self.first, None
        return first if first is not None else self.after_error


def _login(client: IMAPClient, settings: ImapSettings, where: str) -> None:
    """Log in once; an OAuth2 token from a command that is refused is asked again, once.
    A refusal is never retried otherwise: each one counts against the account."""
    login = settings.login()
    if login.oauth2:
        mechanism = login.mechanism.upper()
        if not client.has_capability(f"AUTH={mechanism}"):
            offered = [c.decode()[5:] for c in client.capabilities() if c.upper().startswith(b"AUTH=")]
            raise FetchError(
                f"IMAP server {where} does not offer {mechanism} (it offers "
                f"{' '.join(offered) or 'no SASL mechanism'}): check mail.imap.oauth2.mechanism"
            )
    for attempt in (1, 2):
        try:
            secret = login.secret.fetch()
        except CredentialError as exc:
            raise FetchError(f"cannot log in to IMAP server {where} as {login.user!r}: {exc}") from None
        try:
            if login.mechanism == "xoauth2":
                client.sasl_login("XOAUTH2", _Responder(xoauth2_response(login.user, secret), ""))
            elif login.mechanism == "oauthbearer":
                first = oauthbearer_response(login.user, secret, settings.host, settings.port)
                client.sasl_login("OAUTHBEARER", _Responder(first, "\x01"))
            else:
                client.login(login.user, secret)
            return
        except LoginError as exc:
            if attempt == 1 and login.oauth2 and login.secret.asked_each_time:
                continue  # the token may have expired since it was printed
            said = _scrub(_text(exc), secret).rstrip(". ")
            again = " (a second token, asked for in case the first had expired, too)" if attempt == 2 else ""
            raise FetchError(
                f"IMAP server {where} refused the login for {login.user!r}{again}: {said}. "
                f"Check mail.imap.user and {login.describe()}"
            ) from None
        except _IMAP_ERRORS as exc:
            raise FetchError(
                f"IMAP server {where} failed during login: {_scrub(_text(exc), secret)}"
            ) from None


def _scrub(text: str, secret: str) -> str:
    """A server's words without the secret, should a server ever echo it."""
    return text.replace(secret, "[secret]") if secret else text


def fetch_new(
    settings: ImapSettings,
    ledger: FetchLedger,
    belongs: Callable[[email.message.Message], bool],
    deliver: Callable[[bytes], None],
) -> FetchSummary:
    """Deliver the campaign's new messages from `settings.folder`; see module doc.

    `belongs(headers)` sees only the parsed headers.  `deliver(raw)` must store the
    message durably before returning; if it raises, the fetch stops, that message
    stays unread in place and is offered again next time, and the exception
    propagates.  Server trouble raises `FetchError`.  Delivery is at-least-once
    only for a crash between `deliver` returning and the ledger write.
    """
    if settings.processed_folder == settings.folder:
        raise ValueError("processed_folder must differ from folder")
    try:
        with ledger.lock():
            client = _connect(settings)
            try:
                return _Fetch(client, settings, ledger, belongs, deliver).run()
            finally:
                with contextlib.suppress(*_IMAP_ERRORS):
                    client.logout()
    except LedgerBusy as exc:
        raise FetchError(str(exc)) from exc
