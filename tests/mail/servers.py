"""Throwaway mail servers for tests and benchmarks: a real Dovecot and an aiosmtpd.

The transport code talks to real servers through real protocols, so its tests run
against these instead of mocks: a mock would agree with whatever the code assumes
about SMTP and IMAP, a real server does not.

`DovecotServer` runs `dovecot -F` with its own configuration in a short temporary
directory (unix socket paths must stay short), IMAP and LMTP on free loopback ports,
passwd-file users and Maildir storage.  `SmtpServer` is an aiosmtpd controller with
AUTH and STARTTLS (certificate from a `trustme` CA) that relays every accepted
message into Dovecot by LMTP and can be told to misbehave (4xx, 5xx, dropped
connection) so the sender's error handling is exercised against real replies.

Facts these rely on are in shared/notes/test-servers.md.
"""

from __future__ import annotations

import asyncio
import atexit
import base64
import contextlib
import dataclasses
import http.server
import json
import logging
import os
import shutil
import signal
import smtplib
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import uuid
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path

import trustme
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from imapclient import IMAPClient

# aiosmtpd logs a deprecation warning on every AUTH (its own internals): keep output clean.
logging.getLogger("mail.log").setLevel(logging.ERROR)
# With implicit TLS aiosmtpd does not see the TLS it runs over and warns at each connection.
warnings.filterwarnings("ignore", "Requiring AUTH while not requiring TLS", UserWarning)

LOOPBACK = "127.0.0.1"
MAIL_UID = "nobody"
MAIL_GROUP = "nogroup"

# The submission account SmtpServer accepts by default (the GM's).
SMTP_USER = "gm@example.test"
SMTP_PASSWORD = "smtp-secret"

DEFAULT_USERS = {
    "gm@example.test": "gm-secret",
    "alice@example.test": "alice-secret",
    "bob@example.test": "bob-secret",
    "carol@example.test": "carol-secret",
}


def free_port() -> int:
    """A loopback port that is free right now (the OS picks it; tiny race accepted)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


class ServerError(RuntimeError):
    """A test server could not be started; the message carries its log."""


# --------------------------------------------------------------------------- OAuth2


class TokenIssuer:
    """The OAuth2 side of the test servers: hands out access tokens, expires them, and
    answers Dovecot's introspection requests on a loopback HTTP port (RFC 7662 in
    spirit: ``{"active": true, "username": ...}``, or ``{"active": false}``).

    `issue(user)` gives a fresh valid token; `expire(token)` makes the server refuse
    it from then on, as a provider does once an access token's hour is over. Every
    request is counted in `introspections` (token -> count)."""

    def __init__(self):
        self.valid: dict[str, str] = {}  # token -> user
        self.expired: set[str] = set()
        self.introspections: dict[str, int] = {}
        self._lock = threading.Lock()
        issuer = self

        class Introspect(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's naming
                token = self.headers.get("Authorization", "").removeprefix("Bearer ").strip()
                body = json.dumps(issuer.introspect(token)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):  # keep test output clean
                pass

        self.http = http.server.ThreadingHTTPServer((LOOPBACK, 0), Introspect)
        self.url = f"http://{LOOPBACK}:{self.http.server_address[1]}/introspect"
        self._thread: threading.Thread | None = None

    def start(self) -> TokenIssuer:
        if self._thread is None:
            self._thread = threading.Thread(target=self.http.serve_forever, daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self.http.shutdown()
            self.http.server_close()
            self._thread = None

    def issue(self, user: str) -> str:
        token = "at-" + uuid.uuid4().hex
        with self._lock:
            self.valid[token] = user
        return token

    def expire(self, token: str) -> None:
        with self._lock:
            self.valid.pop(token, None)
            self.expired.add(token)

    def introspect(self, token: str) -> dict:
        with self._lock:
            self.introspections[token] = self.introspections.get(token, 0) + 1
            user = self.valid.get(token)
        return {"active": "true", "username": user} if user else {"active": "false"}

    def user_of(self, token: str) -> str | None:
        with self._lock:
            return self.valid.get(token)


def xoauth2_parts(data: bytes) -> tuple[str, str]:
    """(user, token) from an XOAUTH2 initial response (decoded)."""
    fields = dict(part.split("=", 1) for part in data.decode("utf-8", "replace").split("\x01") if "=" in part)
    return fields.get("user", ""), fields.get("auth", "").removeprefix("Bearer ").strip()


def oauthbearer_parts(data: bytes) -> tuple[str, str]:
    """(user, token) from an OAUTHBEARER initial response (RFC 7628, decoded)."""
    text = data.decode("utf-8", "replace")
    header, _, rest = text.partition("\x01")
    user = ""
    for item in header.split(","):
        if item.startswith("a="):
            user = item[2:].replace("=2C", ",").replace("=3D", "=")
    fields = dict(part.split("=", 1) for part in rest.split("\x01") if "=" in part)
    return user, fields.get("auth", "").removeprefix("Bearer ").strip()


# --------------------------------------------------------------------------- Dovecot

_DOVECOT_CONF = """\
# Throwaway Dovecot for pbem tests; everything lives under {dir}.
base_dir = {dir}/run
state_dir = {dir}/state
log_path = {dir}/dovecot.log
info_log_path = {dir}/dovecot.log
listen = {host}
protocols = imap lmtp
{ssl}
disable_plaintext_auth = no
auth_mechanisms = plain login{mechanisms}
auth_failure_delay = 0
default_internal_user = {uid}
default_internal_group = {gid}
default_login_user = {uid}
mail_location = maildir:~/Maildir{layout}
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
mail_fsync = never
maildir_very_dirty_syncs = yes
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {dir}/users
}}
{extra}userdb {{
  driver = static
  args = uid={uid} gid={gid} home={dir}/mail/%u
}}
service anvil {{
  chroot =
  # Tests log in with wrong passwords on purpose: without this socket the per-IP
  # auth penalty (2 to 15 s delays for every later login) is off.
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = {host}
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = {host}
    port = {imaps_port}
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = {host}
    port = {lmtp_port}
  }}
}}
"""


class DovecotServer:
    """A private Dovecot (IMAP + LMTP) on loopback, for one test module or one bench run.

    Use as a context manager, or call `start()` and make sure `stop()` runs (it also
    removes the temporary directory): a leaked master process would keep its ports.
    `restart()` keeps ports and mail, to test clients across a server restart.
    Users: DEFAULT_USERS (or `users`) plus a pool of empty accounts handed out by
    `new_account()`.  `tls=True` adds IMAPS on `imaps_port` (trust `client_context()`)
    and STARTTLS on `imap_port`, with a certificate for `tls_names`.
    `oauth2=True` adds XOAUTH2 and OAUTHBEARER logins, whose tokens Dovecot's oauth2
    passdb checks with `tokens` (a `TokenIssuer` on loopback): `tokens.issue(user)`.
    `layout="fs"` stores folders as nested directories (`LAYOUT=fs`), whose
    hierarchy separator is "/"; the default Maildir++ layout's is ".".
    `special_use=True` gives the server a Trash (\\Trash) and a Junk (\\Junk) folder.
    `namespace_prefix="INBOX."` keeps every folder under INBOX, as Courier does.
    `without_idle=True` leaves IDLE out of the capabilities announced after login,
    as a server without IMAP IDLE.
    """

    def __init__(
        self,
        users: dict[str, str] | None = None,
        spare_accounts: int = 40,
        tls: bool = False,
        start_timeout: float = 10.0,
        oauth2: bool = False,
        layout: str = "maildir++",
        special_use: bool = False,
        namespace_prefix: str = "",
        without_idle: bool = False,
        tls_names: tuple[str, ...] = ("imap.test", "localhost", LOOPBACK),
    ):
        # /usr/sbin is not on every user's PATH, and that is where Debian puts it.
        self.binary = shutil.which("dovecot") or shutil.which("dovecot", path="/usr/sbin:/usr/local/sbin")
        if self.binary is None:
            raise ServerError("dovecot is not installed: apt-get install -y dovecot-imapd dovecot-lmtpd")
        self.host = LOOPBACK
        self.imap_port = free_port()
        self.lmtp_port = free_port()
        # With tls=True, IMAPS (implicit TLS) on imaps_port with a trustme certificate.
        self.ca: trustme.CA | None = trustme.CA() if tls else None
        self.imaps_port = free_port() if tls else 0
        self.passwords: dict[str, str] = dict(users or DEFAULT_USERS)
        self._spare = [f"box{n:03d}@example.test" for n in range(1, spare_accounts + 1)]
        self.passwords.update({user: f"pw-{user.split('@')[0]}" for user in self._spare})
        self.start_timeout = start_timeout
        if layout not in ("maildir++", "fs"):
            raise ValueError(f"layout: maildir++ or fs, not {layout!r}")
        self.layout = layout
        self.special_use = special_use
        self.namespace_prefix = namespace_prefix
        self.without_idle = without_idle
        self.tls_names = tls_names
        self.tokens: TokenIssuer | None = TokenIssuer() if oauth2 else None
        self.dir: Path | None = None
        self.process: subprocess.Popen | None = None
        self._atexit_registered = False

    # -- lifecycle

    def start(self) -> DovecotServer:
        """Write the config (first time only), start `dovecot -F`, wait for the greeting."""
        if self.dir is None:
            self._prepare_dir()
        if self.tokens is not None:
            self.tokens.start()
        if not self._atexit_registered:  # last resort if the caller never reaches stop()
            atexit.register(self.stop)
            self._atexit_registered = True
        # stderr to a file, not a pipe: an unread pipe that fills up would block Dovecot.
        with open(self.dir / "stderr.log", "ab") as stderr:
            self.process = subprocess.Popen(
                [self.binary, "-F", "-c", str(self.config_path)],
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,  # so stop() can kill the whole group if it must
            )
        try:
            self._wait_for_greeting()
        except BaseException:
            self._kill()
            raise
        return self

    def stop(self) -> None:
        """Stop the master (SIGTERM, then SIGKILL the group) and delete all its files."""
        self._kill()
        if self.tokens is not None:
            self.tokens.stop()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def restart(self) -> None:
        """Stop and start again on the same ports with the same mail."""
        self._kill()
        self.start()

    def halt(self) -> None:
        """Stop the process but keep the files (to tamper with the Maildir, then `start()`)."""
        self._kill()

    def signal_all(self, number: int) -> None:
        """Signal the master and its children, keeping the files (then `start()`): the
        master alone may leave the IMAP processes serving their connections. SIGTERM:
        each IMAP process says BYE to its client; SIGKILL: the lines just end."""
        proc, self.process = self.process, None
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, number)
        proc.wait(timeout=10)

    def __enter__(self) -> DovecotServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    # -- users and mail

    def new_account(self) -> str:
        """A mailbox user no one has used yet on this server (from a pre-made pool).

        Tests sharing one server get a fresh, empty account each this way.  The pool
        is written at start because Dovecot rereads passwd-file at most once a second.
        """
        if not self._spare:
            raise ServerError("no spare accounts left; raise DovecotServer(spare_accounts=)")
        return self._spare.pop(0)

    def deliver(self, raw: bytes, rcpt: str | Iterable[str], sender: str = "sender@example.test") -> None:
        """Deliver like an MTA does, by LMTP: the message gets a new UID in INBOX."""
        rcpts = [rcpt] if isinstance(rcpt, str) else list(rcpt)
        with smtplib.LMTP(self.host, self.lmtp_port, timeout=10) as lmtp:
            # One transaction per recipient: LMTP answers DATA once per recipient and
            # smtplib reads only one answer, so several would desynchronise it.
            for one in rcpts:
                lmtp.sendmail(sender, [one], raw)

    def append(self, user: str, folder: str, raw: bytes, flags: Iterable[bytes] = ()) -> None:
        """Store a message with IMAP APPEND (creates the folder if needed)."""
        with self.imap(user) as client:
            if not client.folder_exists(folder):
                client.create_folder(folder)
            client.append(folder, raw, flags=tuple(flags))

    def client_context(self) -> ssl.SSLContext:
        """An SSL context trusting this server's test CA (needs tls=True)."""
        assert self.ca is not None, "server started without TLS"
        context = ssl.create_default_context()
        self.ca.configure_trust(context)
        return context

    def imap(self, user: str) -> IMAPClient:
        """A logged-in IMAPClient for `user` (caller closes it, e.g. with `with`)."""
        client = IMAPClient(self.host, port=self.imap_port, ssl=False, timeout=10)
        client.login(user, self.passwords[user])
        return client

    def maildir(self, user: str) -> Path:
        """The user's Maildir root (INBOX); subfolders are `.Name` inside it."""
        assert self.dir is not None, "server not started"
        return self.dir / "mail" / user / "Maildir"

    def write_maildir(self, user: str, messages: Iterable[bytes]) -> int:
        """Drop messages straight into INBOX's Maildir `new/`, fast, for big mailboxes.

        Dovecot assigns UIDs when it next scans the folder (works running or stopped).
        """
        new = self.maildir(user) / "new"
        for sub in ("new", "cur", "tmp"):
            (self.maildir(user) / sub).mkdir(parents=True, exist_ok=True)
        count = 0
        base = f"{int(time.time())}.M{uuid.uuid4().hex[:12]}P{os.getpid()}"
        for count, raw in enumerate(messages, start=1):
            (new / f"{base}Q{count}.pbem-test").write_bytes(raw)
        shutil.chown(self.dir / "mail", MAIL_UID, MAIL_GROUP)
        for root, dirs, files in os.walk(self.dir / "mail"):
            for name in dirs + files:
                shutil.chown(os.path.join(root, name), MAIL_UID, MAIL_GROUP)
        return count

    def reset_uidvalidity(self, user: str) -> None:
        """Make Dovecot forget INBOX's UIDs, as after a restore or migration.

        Stops the server, removes the uidlist and indexes (keeping the counter that
        makes the next UIDVALIDITY differ), starts it again: messages stay, UIDs restart.
        """
        self.halt()
        for path in self.maildir(user).glob("dovecot*"):
            if not path.name.startswith("dovecot-uidvalidity"):
                path.unlink()
        self.start()

    def log(self) -> str:
        """Dovecot's log so far (for failure messages)."""
        if self.dir is None:
            return ""
        path = self.dir / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    # -- internals

    @property
    def config_path(self) -> Path:
        assert self.dir is not None
        return self.dir / "dovecot.conf"

    def _prepare_dir(self) -> None:
        # Short path on purpose: Dovecot's unix sockets live under base_dir.
        self.dir = Path(tempfile.mkdtemp(prefix="dv", dir="/tmp"))
        os.chmod(self.dir, 0o755)  # the unprivileged Dovecot processes must enter it
        (self.dir / "mail").mkdir()
        shutil.chown(self.dir / "mail", MAIL_UID, MAIL_GROUP)
        self._write_users()
        ssl_setting = "ssl = no"
        if self.ca is not None:
            cert = self.ca.issue_cert(*self.tls_names)
            cert.private_key_pem.write_to_path(str(self.dir / "key.pem"))
            cert.cert_chain_pems[0].write_to_path(str(self.dir / "cert.pem"))
            ssl_setting = f"ssl = yes\nssl_cert = <{self.dir}/cert.pem\nssl_key = <{self.dir}/key.pem"
        mechanisms = extra = ""
        if self.tokens is not None:
            mechanisms = " xoauth2 oauthbearer"
            (self.dir / "oauth2.conf").write_text(
                f"introspection_mode = auth\nintrospection_url = {self.tokens.url}\n"
                "username_attribute = username\nactive_attribute = active\nactive_value = true\n"
                "force_introspection = yes\n"
            )
            os.chmod(self.dir / "oauth2.conf", 0o644)
            extra += (
                "passdb {\n  driver = oauth2\n  mechanisms = xoauth2 oauthbearer\n"
                f"  args = {self.dir}/oauth2.conf\n}}\n"
            )
        if self.without_idle:
            extra += (
                "protocol imap {\n  imap_capability = IMAP4rev1 LITERAL+ SASL-IR LOGIN-REFERRALS ID "
                "ENABLE SORT THREAD=REFERENCES MULTIAPPEND UNSELECT CHILDREN NAMESPACE UIDPLUS "
                "LIST-EXTENDED I18NLEVEL=1 ESEARCH SEARCHRES MOVE\n}\n"
            )
        if self.special_use or self.namespace_prefix:
            extra += "namespace inbox {\n  inbox = yes\n"
            if self.namespace_prefix:
                extra += f"  prefix = {self.namespace_prefix}\n  separator = .\n"
            if self.special_use:
                extra += (
                    "  mailbox Trash {\n    auto = create\n    special_use = \\Trash\n  }\n"
                    "  mailbox Junk {\n    auto = create\n    special_use = \\Junk\n  }\n"
                )
            extra += "}\n"
        self.config_path.write_text(
            _DOVECOT_CONF.format(
                mechanisms=mechanisms,
                extra=extra,
                layout=":LAYOUT=fs" if self.layout == "fs" else "",
                dir=self.dir,
                host=self.host,
                uid=MAIL_UID,
                gid=MAIL_GROUP,
                imap_port=self.imap_port,
                lmtp_port=self.lmtp_port,
                imaps_port=self.imaps_port,
                ssl=ssl_setting,
            )
        )

    def _write_users(self) -> None:
        lines = "".join(f"{user}:{{PLAIN}}{pw}\n" for user, pw in self.passwords.items())
        tmp = self.dir / "users.tmp"
        tmp.write_text(lines)
        os.chmod(tmp, 0o644)
        os.replace(tmp, self.dir / "users")

    def _wait_for_greeting(self) -> None:
        """Ready means an IMAP client gets `* OK`: the TCP port alone opens earlier."""
        deadline = time.monotonic() + self.start_timeout
        last_error: Exception | None = None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = (self.dir / "stderr.log").read_text(errors="replace")
                raise ServerError(f"dovecot exited with {self.process.returncode}: {err}\n{self.log()}")
            try:
                with socket.create_connection((self.host, self.imap_port), timeout=1) as sock:
                    if sock.recv(256).startswith(b"* OK"):
                        return
            except OSError as exc:
                last_error = exc
            time.sleep(0.02)
        raise ServerError(
            f"dovecot gave no IMAP greeting on {self.host}:{self.imap_port} within "
            f"{self.start_timeout}s ({last_error})\n{self.log()}"
        )

    def _kill(self) -> None:
        proc, self.process = self.process, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


# --------------------------------------------------------------------------- SMTP


@dataclasses.dataclass
class Received:
    """One message the SMTP server accepted (and relayed, when relaying)."""

    mail_from: str
    rcpt_tos: list[str]
    content: bytes


@dataclasses.dataclass
class _Fault:
    """Answer DATA with `reply` for the next `count` matching messages (None: forever)."""

    reply: str
    count: int | None
    match: Callable[[Envelope], bool] | None


class SmtpServer:
    """An aiosmtpd submission server on loopback with AUTH, optional STARTTLS and faults.

    Every accepted message is appended to `received` and, when `relay` is a
    `DovecotServer`, delivered into it by LMTP, so a test can check what really
    arrived in the recipients' mailboxes.  `relay=None` accepts and discards (bench).
    Faults: `fail_next` (4xx), `reject` (5xx), `drop_after` (cut after K messages),
    `stall_next` (hang, then cut), `store_then_drop` (keep the message, cut before
    the reply), `slow_reply` (keep it, reply late), `reply_after_store` (keep it, reply
    outside the RFC), `defer_rcpt` (450 to every RCPT), `after_store` (a hook between
    keeping a message and replying); `logins` and `peak_active` show connection use,
    `auth_attempts` counts every AUTH the server judged.
    `tokens` (a `TokenIssuer`) adds XOAUTH2 and OAUTHBEARER logins checked against it.
    `silent_refusal=True` refuses a wrong password without any reply, as an aiosmtpd
    authenticator returning ``AuthResult(success=False)`` does (`handled` defaults
    to True: "the reply was sent already").
    `implicit_tls=True` speaks TLS from the first byte (as on port 465) instead of STARTTLS.
    """

    def __init__(
        self,
        users: dict[str, str] | None = None,
        relay: DovecotServer | None = None,
        starttls: bool = True,
        port: int | None = None,
        tokens: TokenIssuer | None = None,
        silent_refusal: bool = False,
        implicit_tls: bool = False,
    ):
        self.host = LOOPBACK
        self.port = port or free_port()
        self.users = dict(users or {SMTP_USER: SMTP_PASSWORD})
        self.relay = relay
        self.received: list[Received] = []
        self.logins = 0  # one per authenticated connection
        self.auth_attempts = 0
        self.tokens = tokens
        self.silent_refusal = silent_refusal
        self.active = 0  # DATA commands being handled right now
        self.peak_active = 0
        self._faults: list[_Fault] = []
        self._drop_after: int | None = None
        self._stall: float | None = None
        self._store_then_drop = 0
        self._slow_reply: tuple[float, int] = (0.0, 0)
        self._reply_after_store: tuple[str, int] = ("", 0)
        self._defer_rcpt: str | None = None
        self.rcpt_commands = 0  # RCPT commands received (answered or not)
        self.after_store: Callable[[int], None] | None = None
        self._lock = threading.Lock()
        self.ca: trustme.CA | None = None
        tls_context = None
        if starttls or implicit_tls:
            self.ca = trustme.CA()
            cert = self.ca.issue_cert("smtp.test", "localhost", self.host)
            tls_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            cert.configure_cert(tls_context)
        starttls = starttls and not implicit_tls
        self._handler_class = _OAuthHandler if tokens is not None else _Handler
        self._controller_args = dict(
            hostname=self.host,
            port=self.port,
            server_hostname="smtp.test",
            authenticator=self._authenticate,
            auth_required=True,
            auth_require_tls=starttls,
            tls_context=tls_context if starttls else None,
            require_starttls=starttls,
            ssl_context=tls_context if implicit_tls else None,
        )
        self.controller = Controller(self._handler_class(self), **self._controller_args)

    def client_context(self) -> ssl.SSLContext:
        """An SSL context that trusts this server's test CA (for the client side)."""
        assert self.ca is not None, "server started without STARTTLS"
        context = ssl.create_default_context()
        self.ca.configure_trust(context)
        return context

    def start(self) -> SmtpServer:
        self.controller.start()
        return self

    def stop(self) -> None:
        with contextlib.suppress(AssertionError, RuntimeError):
            self.controller.stop()

    def restart(self) -> SmtpServer:
        """Start again after `stop()` (an outage over): same port, same certificate."""
        self.controller = Controller(self._handler_class(self), **self._controller_args)
        return self.start()

    def __enter__(self) -> SmtpServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- fault injection

    def fail_next(
        self,
        count: int = 1,
        code: int = 451,
        text: str = "4.3.0 Try again later",
        match: Callable[[Envelope], bool] | None = None,
    ) -> None:
        """Answer the next `count` DATA commands (optionally only matching ones) with `code`."""
        with self._lock:
            self._faults.append(_Fault(f"{code} {text}", count, match))

    def reject(
        self, match: Callable[[Envelope], bool], code: int = 554, text: str = "5.7.1 Message refused"
    ) -> None:
        """Answer every matching DATA with a permanent `code` (5xx)."""
        with self._lock:
            self._faults.append(_Fault(f"{code} {text}", None, match))

    def drop_after(self, accepted: int | None) -> None:
        """Accept `accepted` more messages, then cut the connection on the next DATA (once)."""
        with self._lock:
            self._drop_after = accepted

    def stall_next(self, seconds: float) -> None:
        """Make the next DATA hang for `seconds`, then cut the connection, accepting nothing."""
        with self._lock:
            self._stall = seconds

    def store_then_drop(self, count: int = 1) -> None:
        """Store the next `count` messages, then cut the connection before replying:
        the message arrived, the sender never hears so."""
        with self._lock:
            self._store_then_drop = count

    def slow_reply(self, seconds: float, count: int = 1) -> None:
        """Store the next `count` messages, then wait `seconds` before replying 250."""
        with self._lock:
            self._slow_reply = (seconds, count)

    def reply_after_store(self, reply: str, count: int = 1) -> None:
        """Store the next `count` messages, then answer them with `reply` (e.g.
        "999 odd"), a reply outside the RFC: the message arrived all the same."""
        with self._lock:
            self._reply_after_store = (reply, count)

    def defer_rcpt(self, reply: str | None = "450 4.2.0 Mailbox busy, try later") -> None:
        """Answer every RCPT with `reply` (None: accept again), as a server that defers everything."""
        with self._lock:
            self._defer_rcpt = reply

    def clear_faults(self) -> None:
        with self._lock:
            self._reply_after_store = ("", 0)
            self._defer_rcpt = None
            self._faults.clear()
            self._drop_after = None
            self._stall = None
            self._store_then_drop = 0
            self._slow_reply = (0.0, 0)
            self.after_store = None

    def contents(self) -> list[bytes]:
        with self._lock:
            return [item.content for item in self.received]

    # -- hooks

    def _authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: LoginPassword
    ) -> AuthResult:
        user = auth_data.login.decode()
        ok = self.users.get(user) == auth_data.password.decode()
        with self._lock:
            self.auth_attempts += 1
            if ok:
                self.logins += 1
        if self.silent_refusal:
            return AuthResult(success=ok)  # handled=True by default: no reply on failure
        return AuthResult(success=ok, handled=False)

    def _check_token(self, user: str, token: str) -> bool:
        assert self.tokens is not None
        ok = bool(user) and self.tokens.user_of(token) == user
        with self._lock:
            self.auth_attempts += 1
            if ok:
                self.logins += 1
        return ok

    def _fault_for(self, envelope: Envelope) -> str | None:
        """Called under the lock: the reply a fault rule imposes on this message, if any."""
        for fault in self._faults:
            if fault.match is None or fault.match(envelope):
                if fault.count is not None:
                    fault.count -= 1
                    if fault.count <= 0:
                        self._faults.remove(fault)
                return fault.reply
        return None


class _Handler:
    """aiosmtpd handler; runs on the controller's loop, so blocking LMTP goes to a thread."""

    def __init__(self, owner: SmtpServer):
        self.owner = owner

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        """Refuse unknown mailboxes at RCPT, as a real MTA does, when relaying."""
        with self.owner._lock:
            self.owner.rcpt_commands += 1
            deferred = self.owner._defer_rcpt
        if deferred is not None:
            return deferred
        relay = self.owner.relay
        if relay is not None:
            local, _, domain = address.rpartition("@")
            if f"{local.split('+', 1)[0]}@{domain}" not in relay.passwords:
                return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        owner = self.owner
        with owner._lock:
            owner.active += 1
            owner.peak_active = max(owner.peak_active, owner.active)
        try:
            with owner._lock:
                if owner._drop_after is not None:
                    if owner._drop_after <= 0:
                        owner._drop_after = None
                        drop = True
                    else:
                        owner._drop_after -= 1
                        drop = False
                else:
                    drop = False
                fault = None if drop else owner._fault_for(envelope)
                stall, owner._stall = owner._stall, None
            if stall is not None:
                await asyncio.sleep(stall)
                drop = True
            if drop:
                # Vanish without a reply, as a crashed or cut-off server would.
                server.transport.abort()
                return "421 4.3.0 Connection dropped"
            if fault is not None:
                return fault
            content = envelope.original_content or envelope.content
            if isinstance(content, str):
                content = content.encode()
            if owner.relay is not None:
                try:
                    await asyncio.to_thread(
                        owner.relay.deliver, content, list(envelope.rcpt_tos), envelope.mail_from
                    )
                except (smtplib.SMTPException, OSError) as exc:
                    return f"451 4.3.0 Relay to Dovecot failed: {exc}"
            with owner._lock:
                owner.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), content))
                stored = len(owner.received)
                drop_now = owner._store_then_drop > 0
                if drop_now:
                    owner._store_then_drop -= 1
                delay, slow = owner._slow_reply
                if slow > 0:
                    owner._slow_reply = (delay, slow - 1)
                odd_reply, odd = owner._reply_after_store
                if odd > 0:
                    owner._reply_after_store = (odd_reply, odd - 1)
                hook = owner.after_store
            if hook is not None:
                hook(stored)  # e.g. kill the sender now: stored, no reply sent yet
            if drop_now:
                server.transport.abort()
                return "421 4.3.0 Connection dropped"
            if slow > 0:
                await asyncio.sleep(delay)
            if odd > 0:
                return odd_reply
            return "250 2.0.0 OK queued"
        finally:
            with owner._lock:
                owner.active -= 1


class _OAuthHandler(_Handler):
    """The handler with two more AUTH mechanisms (aiosmtpd serves any ``auth_<NAME>``)."""

    async def auth_XOAUTH2(self, server: SMTP, args: list[str]) -> AuthResult:  # noqa: N802
        return await self._bearer(server, args, xoauth2_parts)

    async def auth_OAUTHBEARER(self, server: SMTP, args: list[str]) -> AuthResult:  # noqa: N802
        return await self._bearer(server, args, oauthbearer_parts)

    async def _bearer(self, server: SMTP, args: list[str], parse) -> AuthResult:
        if len(args) > 1:
            data = base64.b64decode(args[1])
        else:
            data = await server.challenge_auth("")
            if not isinstance(data, bytes):
                return AuthResult(success=False, handled=False)
        user, token = parse(data)
        if self.owner._check_token(user, token):
            return AuthResult(success=True, auth_data=user)
        # As Google and Microsoft do: the error in JSON as a challenge, then 535.
        error = json.dumps({"status": "401", "schemes": "bearer", "scope": "mail"})
        await server.challenge_auth(error)
        return AuthResult(success=False, handled=False)
