"""The campaign's mail settings (its ``mail:`` section) and sending the drafts.

``campaign.yaml`` may hold::

    mail:
      smtp: {host: smtp.example.org, port: 587, security: starttls,
             user: gm@example.org, password_env: PBEM_SMTP_PASSWORD}
      imap: {host: imap.example.org, port: 993, security: tls, user: gm@example.org,
             password_command: [pass, show, mail/gm], folder: INBOX, processed_folder: pbem/game7}
      auto_ack: false       # send acknowledgements at once, without `pbem send`

Secrets never stand in the file: each section names where its secret comes
from, asked for at each login (:mod:`pbem.transport.credentials`): an
environment variable (``password_env``), a command that prints the password
(``password_command``, a list run without a shell), or a command that prints an
OAuth2 access token (``oauth2: {token_command: [...], mechanism: xoauth2}``).
``security`` is ``tls`` (TLS from the first byte: 465, 993), ``starttls``
(587, 143) or ``none`` (plain text, refused but for a server on this machine);
without it the port decides. Certificates and host names are always checked;
``ca_file`` (both sections) trusts a private certificate authority too.
IMAP's older ``tls: true|false`` still means ``security: tls|none``.
Without a ``mail:`` section the embedded default holds: drafts stay in
``mail/outbox`` and orders are read from the ``mail/inbox`` Maildir.

The transport itself is :mod:`pbem.transport`; this module only adapts the
campaign to it. Fetching is the inbox's job (:func:`pbem.inbox.fetch_imap`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import CampaignConfig, ConfigError
from .store import CampaignStore

if TYPE_CHECKING:  # pbem.transport loads aiosmtplib and imapclient: imported when mail is sent
    import ssl

    from .campaign import Campaign
    from .outbox import Outbox
    from .transport.credentials import Credentials
    from .transport.imap import ImapSettings
    from .transport.ledger import SentLedger
    from .transport.pacing import Pacer, Rate
    from .transport.smtp import SmtpSettings


def _section(config: CampaignConfig, name: str) -> dict[str, Any] | None:
    mail = config.extra.get("mail")
    if mail is None:
        return None
    if not isinstance(mail, dict):
        raise ConfigError(f"{config_file()}: mail: must be a mapping with smtp: and/or imap:")
    value = mail.get(name)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ConfigError(f"{config_file()}: mail.{name}: must be a mapping (host, port, ...)")
    return value


def config_file() -> str:
    return "campaign.yaml"


def _need(section: dict[str, Any], key: str, where: str, kind: type, default: Any = None) -> Any:
    value = section.get(key, default)
    if value is None:
        raise ConfigError(f"{config_file()}: {where}.{key}: missing")
    if kind is int and (isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 65536):
        raise ConfigError(f"{config_file()}: {where}.{key}: must be a port number, not {value!r}")
    if kind is str and (not isinstance(value, str) or not value.strip() or "\n" in value):
        raise ConfigError(f"{config_file()}: {where}.{key}: must be one line of text")
    if kind is bool and not isinstance(value, bool):
        raise ConfigError(f"{config_file()}: {where}.{key}: must be true or false")
    return value


_SECRET_KEYS = ("password_env", "password_command", "oauth2")
_SMTP_KEYS = {
    "host",
    "port",
    "security",
    "user",
    "timeout",
    "max_connections",
    "ca_file",
    "rate",
    *_SECRET_KEYS,
}
_IMAP_KEYS = {"host", "port", "security", "tls", "user", "folder", "processed_folder", "timeout", "ca_file"}
_IMAP_KEYS |= set(_SECRET_KEYS)
LOOPBACK = ("localhost", "127.0.0.1", "::1")


def _command(value: Any, key: str) -> tuple[str, ...]:
    """A command as a list (program and arguments, no shell)."""
    if isinstance(value, str):
        raise ConfigError(
            f"{config_file()}: {key}: must be a list, the program and its arguments "
            f"(run without a shell), e.g. {key.rsplit('.', 1)[-1]}: [pass, show, mail/gm]"
        )
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(a, (str, int)) and str(a) and "\n" not in str(a) for a in value)
    ):
        raise ConfigError(
            f"{config_file()}: {key}: must be a list of words, the program and its arguments, "
            f"e.g. [pass, show, mail/gm]"
        )
    return tuple(str(a) for a in value)


def _credentials(section: dict[str, Any], where: str, user: str | None) -> Credentials | None:
    """The login of one section, or None; the secret itself is asked for only at login time."""
    # Imported here for start-up time: pbem.transport loads aiosmtplib and imapclient.
    from .transport.credentials import Credentials, Secret

    if "password" in section:
        raise ConfigError(
            f"{config_file()}: {where}.password: never write a password in the file; "
            f"put it in an environment variable and name it with password_env, or name a "
            f"command that prints it with password_command"
        )
    given = [k for k in _SECRET_KEYS if section.get(k) is not None]
    if len(given) > 1:
        raise ConfigError(f"{config_file()}: {where}: {' and '.join(given)}: write only one of them")
    if not given:
        if user:
            raise ConfigError(
                f"{config_file()}: {where}: user {user} is given but not how to log in: add "
                f"password_env, password_command or oauth2 (see the README)"
            )
        return None
    key = given[0]
    if not user:
        raise ConfigError(f"{config_file()}: {where}.user: missing (the account {key} logs in to)")
    if key == "password_env":
        variable = section["password_env"]
        if not isinstance(variable, str) or not variable:
            raise ConfigError(f"{config_file()}: {where}.password_env: must name an environment variable")
        if variable not in os.environ:
            raise ConfigError(f"{where}: the environment variable {variable} (password_env) is not set")
        return Credentials(user, Secret(f"{where}.password_env", env=variable))
    if key == "password_command":
        command = _command(section["password_command"], f"{where}.password_command")
        return Credentials(user, Secret(f"{where}.password_command", command=command))
    oauth2 = section["oauth2"]
    if not isinstance(oauth2, dict):
        raise ConfigError(
            f"{config_file()}: {where}.oauth2: must be a mapping, e.g. "
            f"{{token_command: [oama, access, {user}], mechanism: xoauth2}}"
        )
    unknown = sorted(set(oauth2) - {"token_command", "mechanism"})
    if unknown:
        raise ConfigError(
            f"{config_file()}: {where}.oauth2.{unknown[0]}: unknown; oauth2 takes token_command and mechanism"
        )
    if oauth2.get("token_command") is None:
        raise ConfigError(
            f"{config_file()}: {where}.oauth2.token_command: missing (a command that prints an access token)"
        )
    command = _command(oauth2["token_command"], f"{where}.oauth2.token_command")
    mechanism = oauth2.get("mechanism", "xoauth2")
    if mechanism not in ("xoauth2", "oauthbearer"):
        raise ConfigError(
            f"{config_file()}: {where}.oauth2.mechanism: xoauth2 or oauthbearer, not {mechanism!r}"
        )
    return Credentials(user, Secret(f"{where}.oauth2.token_command", command=command), mechanism)


def _unknown_keys(section: dict[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(str(k) for k in set(section) - known - {"password"})
    if unknown:
        raise ConfigError(
            f"{config_file()}: {where}.{unknown[0]}: unknown; {where} takes {', '.join(sorted(known))}"
        )


def _security(section: dict[str, Any], where: str, ports: dict[str, int], fallback: str) -> tuple[str, int]:
    """(security, port): `security` as written, else the usual one for the port (465 and 993:
    tls; 587 and 143: starttls), else `fallback`; the port defaults to the security's
    usual one. ``none`` (plain text) is only for a server on this machine."""
    port = _need(section, "port", where, int) if section.get("port") is not None else None
    security = section.get("security")
    if security is None:
        by_port = {p: mode for mode, p in ports.items() if mode != "none"}
        security = by_port.get(port, fallback) if port is not None else fallback
    if not isinstance(security, str) or security not in ports:
        raise ConfigError(f"{config_file()}: {where}.security: {', '.join(ports)}, not {security!r}")
    host = _need(section, "host", where, str)
    if security == "none" and host.strip().lower().strip("[]") not in LOOPBACK:
        raise ConfigError(
            f"{config_file()}: {where}.security: none sends everything, password included, in plain "
            f"text: it is only for a server on this machine (localhost), not {host}; write "
            f"security: starttls (port {ports['starttls']}) or security: tls (port {ports['tls']})"
        )
    return security, ports[security] if port is None else port


def _tls_context(section: dict[str, Any], where: str) -> ssl.SSLContext:
    """Certificates and host names are always checked; `ca_file` trusts a private authority too."""
    import ssl

    ca_file = section.get("ca_file")
    if ca_file is None:
        return ssl.create_default_context()
    try:
        return ssl.create_default_context(cafile=str(ca_file))
    except (OSError, ssl.SSLError) as e:
        raise ConfigError(f"{config_file()}: {where}.ca_file: cannot be used: {e}") from None


def smtp_settings(config: CampaignConfig) -> SmtpSettings | None:
    """The SMTP settings, or None when the campaign has none."""
    section = _section(config, "smtp")
    if section is None:
        return None
    from .transport.smtp import SmtpSettings

    where = "mail.smtp"
    _unknown_keys(section, _SMTP_KEYS, where)
    security, port = _security(section, where, {"starttls": 587, "tls": 465, "none": 25}, "starttls")
    user = section.get("user")
    if user is not None:
        user = _need(section, "user", where, str)
    return SmtpSettings(
        host=_need(section, "host", where, str),
        port=port,
        security=security,
        user=user,
        timeout=float(section.get("timeout", 30)),
        max_connections=int(section.get("max_connections", 4)),
        tls_context=_tls_context(section, where),
        credentials=_credentials(section, where, user),
    )


def imap_settings(config: CampaignConfig) -> ImapSettings | None:
    """The IMAP settings, or None when the campaign has none."""
    section = _section(config, "imap")
    if section is None:
        return None
    from .transport.imap import ImapSettings

    where = "mail.imap"
    _unknown_keys(section, _IMAP_KEYS, where)
    if "tls" in section:
        tls = _need(section, "tls", where, bool)
        if section.get("security") is not None:
            raise ConfigError(f"{config_file()}: {where}.tls: write security: only (tls, starttls or none)")
        section = {**section, "security": "tls" if tls else "none"}
    security, port = _security(section, where, {"tls": 993, "starttls": 143, "none": 143}, "tls")
    user = _need(section, "user", where, str)
    return ImapSettings(
        host=_need(section, "host", where, str),
        port=port,
        tls=security == "tls",
        security=security,
        user=user,
        folder=_folder(section, "folder", "INBOX", where),
        processed_folder=_folder(section, "processed_folder", "pbem-processed", where),
        timeout=float(section.get("timeout", 30)),
        # none: no context (making one reads every authority of the system, ~10-25 ms a fetch)
        ssl_context=_tls_context(section, where) if security != "none" else None,
        credentials=_credentials(section, where, user),
    )


def _folder(section: dict[str, Any], key: str, default: str, where: str) -> str:
    value = section.get(key, default)
    if not isinstance(value, str) or not value.strip("/ ") or "\n" in value:
        raise ConfigError(f"{config_file()}: {where}.{key}: must name a folder, e.g. pbem/game7")
    return value.strip("/ ")


def smtp_rate(config: CampaignConfig) -> Rate | None:
    """``mail.smtp.rate: {per_minute: 30, per_day: 500}`` (:mod:`pbem.transport.pacing`), or None."""
    section = _section(config, "smtp")
    rate = section.get("rate") if section is not None else None
    if rate is None:
        return None
    where = "mail.smtp.rate"
    if not isinstance(rate, dict):
        raise ConfigError(
            f"{config_file()}: {where}: must be a mapping, e.g. {{per_minute: 30, per_day: 500}}"
        )
    unknown = sorted(str(k) for k in set(rate) - {"per_minute", "per_day"})
    if unknown:
        raise ConfigError(
            f"{config_file()}: {where}.{unknown[0]}: unknown; rate takes per_minute and per_day"
        )
    for key in ("per_minute", "per_day"):
        value = rate.get(key)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 10**6
        ):
            raise ConfigError(f"{config_file()}: {where}.{key}: must be a whole number from 1 to 1000000")
    from .transport.pacing import Rate

    return Rate(per_minute=rate.get("per_minute"), per_day=rate.get("per_day"))


def rate_record_path(folder: Path) -> Path:
    """Where what the SMTP account sent is kept: beside ``pbem.yaml`` for a folder of games
    (they share the account's limits), else in the campaign's ``mail/``."""
    from .config import SHARED_FILE

    parent = Path(folder).resolve().parent
    if (parent / SHARED_FILE).is_file():
        return parent / "smtp-rate.jsonl"
    return CampaignStore(folder).sent_ledger.with_name("smtp-rate.jsonl")


def _pacer(
    campaign: Campaign, settings: SmtpSettings, on_wait: Callable[[float], None] | None = None
) -> Pacer | None:
    """The pacer of the campaign's rate (None without one), on the campaign's clock."""
    rate = smtp_rate(campaign.config)
    if rate is None:
        return None
    import time

    from .transport.pacing import Pacer, RateRecord

    start, started = campaign.now(), time.monotonic()
    account = f"{settings.user or ''} on {settings.host}:{settings.port}"
    record = RateRecord(rate_record_path(campaign.folder), account)
    return Pacer(
        rate, record, clock=lambda: start + timedelta(seconds=time.monotonic() - started), on_wait=on_wait
    )


def auto_ack(config: CampaignConfig) -> bool:
    mail = config.extra.get("mail") or {}
    return bool(isinstance(mail, dict) and mail.get("auto_ack", False))


# -- sending ----------------------------------------------------------------------------------------


@dataclass
class SendReport:
    sent: list[str]
    skipped: list[str]
    failed: dict[str, str]
    per_recipient: dict[str, dict[str, str]]
    uncertain: dict[str, str] = field(default_factory=dict)  # made uncertain now: why
    held: list[str] = field(default_factory=list)  # uncertain before: not sent again
    waiting: list[str] = field(default_factory=list)  # not sent: the rate's day is full
    wait_reason: str = ""
    paced: float = 0.0  # seconds waited for the rate's minute window


def send(
    campaign: Campaign,
    names: list[str] | None = None,
    progress: Callable[[str, str], None] | None = None,
    resend_uncertain: list[str] | None = None,
    missing_ok: bool = False,
    on_wait: Callable[[float], None] | None = None,
) -> SendReport:
    """Send the drafts (all, or those named) by SMTP; each goes at most once:
    the sent ledger is written as the server accepts each draft, and sent
    drafts move to ``mail/sent``. A draft whose fate is unknown (handed over,
    no reply) is *uncertain*: held back until the GM says. ``resend_uncertain``
    is that word: the uncertain drafts named (all of them when the list is
    empty) are sent again, and nothing else. With ``missing_ok`` (a tick), a
    draft named that is no longer in the outbox (withdrawn by a rollback) is
    left out instead of being an error. With ``mail.smtp.rate`` the send paces itself
    (:mod:`pbem.transport.pacing`; ``on_wait(seconds)`` is told of each wait) and
    what the day's limit leaves is in ``waiting``."""
    from .outbox import Outbox
    from .transport.ledger import LedgerBusy, SentLedger
    from .transport.smtp import SendError, send_drafts

    config = campaign.config
    settings = smtp_settings(config)
    if settings is None:
        raise ConfigError(
            f"{campaign.folder}: no mail.smtp section in campaign.yaml: the drafts stay in "
            f"{campaign.store.outbox} (send them with any mail client), or "
            f"add an smtp section (see the README)"
        )
    if config.gm is None or not config.gm.email:
        raise ConfigError(f"{config_file()}: gm: needed to send mail (gm: {{name: ..., email: ...}})")
    outbox = Outbox(campaign.folder)
    ledger = SentLedger(campaign.store.sent_ledger)
    try:
        # The ledger's lock first, then the drafts: a rollback holds it while it
        # undoes a turn, so the drafts read here are never those of a turn a
        # rollback has undone (or is undoing), and none leaves after it returned.
        with ledger.lock():
            campaign.withdraw_drafts()  # a rollback killed half-way leaves its turn's drafts behind
            resend: list[str] = []
            if resend_uncertain is not None:
                resend = _uncertain_ids(ledger, resend_uncertain)
                names = resend
            paths = selected_drafts(outbox, names, missing_ok=missing_ok)
            drafts = [(p.stem, p.read_bytes()) for p in paths]
            try:
                pacer = _pacer(campaign, settings, on_wait)
                summary = send_drafts(drafts, settings, ledger, progress, resend=resend, pacer=pacer)
            finally:
                _file_sent(campaign.folder, outbox, ledger)
                with contextlib.suppress(OSError):  # only a note: the ledger's times stand in
                    note_delivery(campaign, ledger)
    except LedgerBusy as exc:
        raise SendError(str(exc)) from None
    return SendReport(
        summary.sent,
        summary.skipped,
        summary.failed,
        summary.per_recipient,
        summary.uncertain,
        summary.held,
        summary.waiting,
        summary.wait_reason,
        summary.paced,
    )


def _uncertain_ids(ledger: SentLedger, names: list[str]) -> list[str]:
    """The uncertain drafts the GM named (all when none): an id that is not uncertain is an error."""
    uncertain = ledger.uncertain()
    if not names:
        if not uncertain:
            raise ConfigError("no draft is uncertain: nothing to send again")
        return sorted(uncertain)
    ids = [n.removesuffix(".eml") for n in names]
    wrong = [i for i in ids if i not in uncertain]
    if wrong:
        raise ConfigError(
            f"not uncertain: {', '.join(wrong)} (`pbem preview` lists the uncertain drafts; "
            f"`pbem send` sends the others)"
        )
    return ids


def uncertain_drafts(folder: Path) -> list[dict[str, Any]]:
    """The drafts handed to the SMTP server without a reply (maybe delivered,
    maybe not), for `preview` and `status`: id, Message-ID and since when."""
    from .transport.ledger import SentLedger

    path = CampaignStore(folder).sent_ledger
    if not path.exists():
        return []
    return [
        {"draft": draft_id, "message_id": entry.get("message_id", ""), "since": entry.get("at", "")}
        for draft_id, entry in sorted(SentLedger(path).uncertain().items())
    ]


def mark_sent(campaign: Campaign, names: list[str]) -> list[str]:
    """The GM saw these uncertain drafts arrive: record them as sent (never sent
    again) and file them under ``mail/sent``."""
    from .outbox import Outbox
    from .transport.ledger import LedgerBusy, SentLedger

    outbox = Outbox(campaign.folder)
    ledger = SentLedger(campaign.store.sent_ledger)
    try:
        with ledger.lock():
            ids = _uncertain_ids(ledger, names)
            for draft_id in ids:
                entry = ledger.uncertain()[draft_id]
                ledger.record(
                    draft_id, entry.get("message_id", ""), entry.get("recipients", []), confirmed_by="gm"
                )
            _file_sent(campaign.folder, outbox, ledger)
            note_delivery(campaign, ledger)
    except LedgerBusy as exc:
        raise ConfigError(str(exc)) from None
    return ids


def selected_drafts(outbox: Outbox, names: list[str] | None, missing_ok: bool = False) -> list[Path]:
    drafts = outbox.drafts()
    if not names:
        return drafts
    by_id = {p.stem: p for p in drafts}
    unknown = [n for n in names if n.removesuffix(".eml") not in by_id]
    if missing_ok:
        names = [n for n in names if n not in unknown]
    elif unknown:
        raise ConfigError(f"no such draft in the outbox: {', '.join(unknown)} (see `pbem preview`)")
    return [by_id[n.removesuffix(".eml")] for n in names]


def _file_sent(root: Path, outbox: Outbox, ledger: SentLedger) -> None:
    """Move the drafts the ledger says were sent to mail/sent (a rerun would
    skip them anyway: the ledger, not the folder, is what counts)."""
    sent_folder = CampaignStore(root).sent_folder
    for path in outbox.drafts():
        if ledger.is_sent(path.stem):
            sent_folder.mkdir(parents=True, exist_ok=True)
            target = sent_folder / path.name
            if target.exists() and os.path.samefile(path, target):
                # Published again after a crash lost its index line: the same file,
                # and a rename onto another link of it does nothing. Drop this link.
                path.unlink()
                continue
            shutil.move(str(path), str(target))


# -- has the turn's mail reached the players? --------------------------------------------------------


def _delivered_path(campaign: Campaign) -> Path:
    return campaign.store.sent_ledger.with_name("delivered.json")


def turn_mail_ids(campaign: Campaign) -> list[str]:
    """The drafts of the latest turn's mail (its turn folder's mail index)."""
    import json

    latest = campaign.store.latest_turn()
    if latest is None:
        return []
    index = campaign.store.turn_mail_index(campaign.store.turn_dir(latest))
    if not index.exists():
        return []
    ids = []
    for line in index.read_text(encoding="utf-8").splitlines():
        try:
            ids.append(json.loads(line)["draft"])
        except (ValueError, KeyError, TypeError):
            continue
    return ids


def undelivered_turn_mail(campaign: Campaign, ledger: SentLedger | None = None) -> list[str]:
    """The latest turn's drafts the SMTP server has not accepted (uncertain ones
    included: maybe delivered, maybe not). Empty once all of them left."""
    from .transport.ledger import SentLedger

    ledger = ledger or SentLedger(campaign.store.sent_ledger)
    return [d for d in turn_mail_ids(campaign) if not ledger.is_sent(d)]


def note_delivery(campaign: Campaign, ledger: SentLedger) -> None:
    """Once every mail of the latest turn has left, note when (by the campaign's
    clock), once: the tick moves a deadline on by the time its mail was late."""
    import json

    from .store import write_atomic

    latest = campaign.store.latest_turn()
    if latest is None or undelivered_turn_mail(campaign, ledger):
        return
    path = _delivered_path(campaign)
    try:
        done = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except ValueError:
        done = {}  # a damaged note: the ledger's times stand in (see delivered_at)
    if not isinstance(done, dict) or str(latest) in done:
        return
    done[str(latest)] = campaign.now().isoformat(timespec="seconds")
    write_atomic(path, json.dumps(done, indent=1))


def delivered_at(campaign: Campaign) -> datetime | None:
    """When the latest turn's mail had all left (None while some has not): the
    note of :func:`note_delivery`, else (a send killed before it noted) the
    ledger's time of the last one, never later than now."""
    import json
    from datetime import UTC, datetime

    from .transport.ledger import SentLedger

    latest = campaign.store.latest_turn()
    ledger = SentLedger(campaign.store.sent_ledger)
    if latest is None or undelivered_turn_mail(campaign, ledger):
        return None
    path = _delivered_path(campaign)
    try:
        done = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        if isinstance(done, dict) and str(latest) in done:
            return datetime.fromisoformat(done[str(latest)])
    except ValueError:
        pass
    ids = set(turn_mail_ids(campaign))
    times = [e.get("sent_at", "") for e in ledger.entries() if e.get("draft_id") in ids]
    now = campaign.now()
    try:
        last = max(datetime.fromisoformat(t.replace("Z", "+00:00")) for t in times if t)
    except ValueError:  # none, or one this tool did not write
        return now
    return min(last.astimezone(UTC), now)
