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
again; the SHA-256 of each delivered message's bytes keeps anything from being
delivered twice (never its Message-ID: that is the sender's word, and another
message may carry it).
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
from imapclient.imap4 import IMAP4WithTimeout
from imapclient.tls import IMAP4_TLS

from ..errors import MailError
from .credentials import CredentialError, Credentials, Secret, oauthbearer_response, xoauth2_response
from .folders import FolderError, Mailbox
from .ledger import FetchLedger, LedgerBusy

__all__ = ["ImapSettings", "FetchError", "FetchSummary", "FetchLedger", "fetch_new", "fetch_routed"]

# UIDs per FETCH command: few round trips, bounded memory for whole messages.
CHUNK = 200
_T = TypeVar("_T")
_IMAP_ERRORS = (imaplib.IMAP4.error, OSError)  # OSError covers socket timeouts and TLS
# A reply the client library could not parse (a server that does not speak IMAP, or
# lies): a hostile server's reply is data like any other and must end in a FetchError.
_REPLY_ERRORS = (*_IMAP_ERRORS, ValueError, TypeError, KeyError, IndexError, AttributeError, EOFError)
#: The largest literal (one message, one header block) a server may announce: more is
#: refused before a byte is read (``{99999999999}`` would ask for 100 GB of memory).
MAX_LITERAL = 64 * 2**20
#: The most a server may send in reply to the requests for one chunk of messages.
MAX_REPLIES = 1024 * 2**20
#: UIDs and UIDVALIDITY are 32-bit unsigned numbers (RFC 3501, 2.3.1.1).
_MAX_UID = 2**32 - 1


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


class FetchError(MailError):
    """The mailbox could not be read: server down, login refused, folder missing..."""


@dataclass
class FetchSummary:
    delivered: int = 0
    skipped_duplicates: int = 0
    ignored: int = 0  # examined, not for this campaign, left in place
    uidvalidity_reset: bool = False


def _content_key(raw: bytes) -> str:
    return "sha256:" + hashlib.sha256(raw).hexdigest()


class _Fetch:
    """One fetch run over one selected folder."""

    def __init__(
        self,
        client: IMAPClient,
        settings: ImapSettings,
        ledger: FetchLedger,
        route: Callable[[email.message.Message], Any],
        deliver: Callable[[bytes, Any], None],
        flush: Callable[[], None] | None = None,
    ):
        self.client = client
        self.settings = settings
        self.ledger = ledger
        self.route = route
        self.deliver = deliver
        self.flush = flush
        self.summary = FetchSummary()
        self.uidvalidity = 0
        self.mailbox = Mailbox(client, f"{settings.host}:{settings.port}")
        self.processed: str | None = None  # the server's name for the processed folder, once ready
        self.gap = False  # a UID of this run was not handled: the mark stays below it

    def imap(self, what: str, call: Callable[..., _T], *args: Any) -> _T:
        """Run an IMAP command; server trouble, and a reply that cannot be parsed,
        become a FetchError saying what we did."""
        try:
            return call(*args)
        except _IMAP_ERRORS as exc:
            raise self.error(f"failed while {what}: {_text(exc)}") from exc
        except _REPLY_ERRORS as exc:
            raise self.error(
                f"sent a reply that is not valid IMAP while {what} ({_shown(_text(exc))[1:-1]}); "
                f"nothing more was fetched (is it an IMAP server?)"
            ) from exc

    def error(self, problem: str) -> FetchError:
        s = self.settings
        return FetchError(f"IMAP server {s.host}:{s.port} {problem}")

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
        if not isinstance(info, dict):
            raise self.error(f"gave no usable reply to opening folder {folder!r}")
        validity = _number(info.get(b"UIDVALIDITY"), 1)
        if validity is None:
            # Without it a UID means nothing from one fetch to the next: nothing is safe to read.
            raise self.error(
                f"gave no valid UIDVALIDITY for folder {folder!r} "
                f"({_shown(info.get(b'UIDVALIDITY'))}), so its messages cannot be told apart from one "
                f"fetch to the next; nothing was fetched (is it an IMAP server?)"
            )
        self.uidvalidity = validity
        known_validity, mark = self.ledger.mark(folder)
        if known_validity != self.uidvalidity:
            self.summary.uidvalidity_reset = known_validity is not None
            mark = 0
            self.ledger.set_mark(folder, self.uidvalidity, 0)
            self.ledger.save()
        uidnext = _number(info.get(b"UIDNEXT"), 1)  # a bad one is as good as none: search
        if uidnext is not None and uidnext - 1 <= mark:
            return self.summary  # nothing arrived since the last run: no search at all
        found = self.imap("searching for new mail", self.client.search, ["UID", f"{mark + 1}:*"])
        # "UID n:*" always matches the highest UID, even below n: keep only new ones (and
        # only UIDs: a lying server's other words are dropped).
        uids = sorted({uid for uid in (_number(u, 1) for u in found) if uid is not None and uid > mark})
        for start in range(0, len(uids), CHUNK):
            self.chunk(uids[start : start + CHUNK])
        return self.summary

    def chunk(self, uids: Sequence[int]) -> None:
        """Examine, deliver and file away one chunk of UIDs, in UID order."""
        _renew_budget(self.client)
        heads = self.imap("reading headers", self.client.fetch, uids, ["BODY.PEEK[HEADER]"])
        plan: list[tuple[int, str, Any]] = []  # (uid, action, where the router sends it)
        parser = BytesHeaderParser(policy=compat32)
        for uid in uids:
            head = _item(heads, uid, b"BODY[HEADER]")
            if head is None:
                plan.append((uid, "gone", None))  # expunged by someone else meanwhile
                continue
            where = self.route(parser.parsebytes(head))
            if where is None:
                plan.append((uid, "ignore", None))
                continue
            # Downloaded even when its Message-ID was seen: a duplicate is the same bytes,
            # and a stranger who used a player's Message-ID first must not make the
            # player's message pass for a copy of theirs.
            plan.append((uid, "deliver", where))
        wanted = [uid for uid, action, _ in plan if action == "deliver"]
        bodies = {}
        if wanted:
            bodies = self.imap("downloading messages", self.client.fetch, wanted, ["BODY.PEEK[]"])

        done: list[int] = []  # campaign messages handled: to flag and move
        delivered: list[tuple[int, str]] = []  # (uid, key) handed to deliver, to record once durable
        keys: set[str] = set()
        examined = 0  # how many UIDs of this chunk, from its start, are handled for good
        try:
            for uid, action, where in plan:
                if action == "deliver":
                    raw = _item(bodies, uid, b"BODY[]")
                    if raw is None:
                        action = "gone"
                    else:
                        key = _content_key(raw)
                        if self.ledger.is_delivered(key) or key in keys:
                            action = "duplicate"
                        else:
                            self.deliver(raw, where)  # if it raises, this UID stays unmarked
                            if self.flush is None:  # durable already: noted at once
                                self.ledger.record_delivery(self.settings.folder, self.uidvalidity, uid, key)
                            else:  # noted once the chunk is flushed (settle)
                                delivered.append((uid, key))
                            keys.add(key)
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
            # Keep what was done before the failure (once it is durable); the failure itself wins.
            with contextlib.suppress(Exception):
                self.settle(delivered)
                with contextlib.suppress(FetchError):
                    self.file_away(done)
                    self.advance(plan[:examined])
            raise
        self.settle(delivered)
        self.file_away(done)
        self.advance(plan[:examined])

    def settle(self, delivered: list[tuple[int, str]]) -> None:
        """Make what ``deliver`` stored durable (the caller's ``flush``), then note it in
        the ledger, before any of it is moved away on the server."""
        if self.flush is not None:
            self.flush()
        if delivered:
            self.ledger.record_deliveries(self.settings.folder, self.uidvalidity, delivered)

    def advance(self, handled: Sequence[tuple[int, str, Any]]) -> None:
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
        # Silently: the server's answer of each message's flags would be read for nothing.
        self.imap("flagging messages as seen", client.add_flags, uids, [SEEN], True)
        if client.has_capability("MOVE"):
            self.imap(f"moving messages to {target!r}", client.move, uids, target)
            return
        self.imap(f"copying messages to {target!r}", client.copy, uids, target)
        self.imap("flagging moved messages deleted", client.add_flags, uids, [DELETED], True)
        if client.has_capability("UIDPLUS"):
            self.imap("expunging moved messages", client.uid_expunge, uids)
        else:
            self.imap("expunging moved messages", client.expunge)


def _number(value: Any, low: int) -> int | None:
    """A UID-like number of a server's reply (``low`` to 2**32 - 1), or None."""
    if isinstance(value, bytes):
        value = value.strip()
        if not value.isdigit() or len(value) > 10:
            return None
    elif isinstance(value, bool) or not isinstance(value, int):
        return None
    number = int(value)
    return number if low <= number <= _MAX_UID else None


def _item(reply: Any, uid: int, key: bytes) -> bytes | None:
    """One message's data item of a FETCH reply (None when the reply lacks it or lies)."""
    item = reply.get(uid) if isinstance(reply, dict) else None
    value = item.get(key) if isinstance(item, dict) else None
    return value if isinstance(value, bytes) else None


def _shown(value: Any) -> str:
    """A value of a server's reply, short and printable, for a message to the GM."""
    if value is None:
        return "none"
    text = value.decode("ascii", "replace") if isinstance(value, bytes) else str(value)
    text = "".join(c if c.isprintable() else "?" for c in text[:40])
    return repr(text)


class _BoundedRead:
    """imaplib reads a literal (``{n}`` then n bytes) with one ``read(n)``: a server
    announcing ``{99999999999}`` makes it ask for 100 GB at once. Here a literal over
    :data:`MAX_LITERAL` is refused before it is read, and one under it is read in
    pieces, so memory follows the bytes that really came.

    And a server that floods (lines without end, literals one after the other) is
    cut off once it has sent :data:`MAX_REPLIES` since the fetch's last request for a
    chunk of messages (:func:`_renew_budget`): imaplib keeps every line it is sent
    until the command ends."""

    file: Any
    budget = MAX_REPLIES

    def _spend(self, size: int) -> None:
        self.budget -= size
        if self.budget < 0:
            raise imaplib.IMAP4.abort(
                f"the server sent more than {MAX_REPLIES // 2**20} MB in reply to one request: cut off"
            )

    def read(self, size: int) -> bytes:
        if size > MAX_LITERAL:
            raise imaplib.IMAP4.abort(
                f"the server announced {size:,} bytes of data in one piece, more than "
                f"{MAX_LITERAL // 2**20} MB: refused"
            )
        self._spend(size)
        pieces = []
        left = size
        while left > 0:
            piece = self.file.read(min(left, 2**20))
            if not piece:
                raise imaplib.IMAP4.abort("the server closed the connection in the middle of a reply")
            pieces.append(piece)
            left -= len(piece)
        return b"".join(pieces)

    def readline(self) -> bytes:
        line: bytes = super().readline()  # type: ignore[misc]  # imaplib's (at most 1 MB)
        self._spend(len(line))
        return line


def _renew_budget(client: IMAPClient) -> None:
    """A new request for messages: the server may send :data:`MAX_REPLIES` again."""
    connection = getattr(client, "_imap", None)
    if isinstance(connection, _BoundedRead):
        connection.budget = MAX_REPLIES


class _PlainIMAP4(_BoundedRead, IMAP4WithTimeout):  # type: ignore[misc]  # imapclient: no types
    pass


class _TlsIMAP4(_BoundedRead, IMAP4_TLS):  # type: ignore[misc]  # imapclient: no types
    pass


class _Client(IMAPClient):  # type: ignore[misc]  # imapclient publishes no types: its classes are Any
    """IMAPClient whose connection reads literals within bounds (:class:`_BoundedRead`)."""

    def _create_IMAP4(self) -> imaplib.IMAP4:  # noqa: N802 (IMAPClient's name)
        timeout = getattr(self._timeout, "connect", None)
        if self.ssl:
            return _TlsIMAP4(self.host, self.port, self.ssl_context, timeout)
        return _PlainIMAP4(self.host, self.port, timeout)


def _text(exc: BaseException) -> str:
    """imaplib errors carry bytes reprs like b'[AUTHENTICATIONFAILED] ...': unwrap them."""
    text = str(exc) or type(exc).__name__
    if text.startswith(("b'", 'b"')) and text.endswith(text[1]):
        text = text[2:-1]
    return text


def _connect(settings: ImapSettings) -> IMAPClient:
    where = f"{settings.host}:{settings.port}"
    mode = settings.mode
    context = settings.ssl_context or (ssl.create_default_context() if mode != "none" else None)
    try:
        client = _Client(
            settings.host,
            port=settings.port,
            ssl=mode == "tls",
            ssl_context=context,
            timeout=settings.timeout,
        )
    except _REPLY_ERRORS as exc:
        security = {"tls": "TLS", "starttls": "plain, then STARTTLS", "none": "plain"}[mode]
        raise FetchError(
            f"cannot connect to IMAP server {where} ({security}): {_text(exc)}"
            + (_TLS_ADVICE if isinstance(exc, ssl.SSLError) else "")
        ) from exc
    try:
        if mode == "starttls":
            assert context is not None  # made above for every mode but none
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
    except _REPLY_ERRORS as exc:
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
        except _REPLY_ERRORS as exc:
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
    return fetch_routed(
        settings, ledger, lambda headers: belongs(headers) or None, lambda raw, _where: deliver(raw)
    )


def fetch_routed(
    settings: ImapSettings,
    ledger: FetchLedger,
    route: Callable[[email.message.Message], _T | None],
    deliver: Callable[[bytes, _T], None],
    flush: Callable[[], None] | None = None,
) -> FetchSummary:
    """One fetch that serves several destinations (the games of a GM's folder).

    `route(headers)` says where a message goes, or None to leave it in place,
    untouched (not downloaded, not flagged, not moved: mail of the GM's own, the
    tool's own notices). `deliver(raw, where)` stores it; `flush()`, called once per
    chunk of messages before anything is noted in the ledger or moved on the
    server, makes what was delivered durable (with no `flush`, `deliver` must).
    The guarantees of :func:`fetch_new` hold: a message is moved only once it is
    kept, the same bytes are delivered once, a crash leaves the rest for next time.
    """
    if settings.processed_folder == settings.folder:
        raise ValueError("processed_folder must differ from folder")
    try:
        with ledger.lock():
            client = _connect(settings)
            try:
                return _Fetch(client, settings, ledger, route, deliver, flush).run()
            finally:
                with contextlib.suppress(*_REPLY_ERRORS):
                    client.logout()
    except LedgerBusy as exc:
        raise FetchError(str(exc)) from exc
