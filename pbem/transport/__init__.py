"""Mail transport for pbem: send drafts by SMTP, fetch players' replies by IMAP.

Both directions keep a ledger file so that any run can be killed and rerun
without sending or delivering a message twice; a message handed to the SMTP
server without a reply is recorded as uncertain and never resent by itself.
"""

from __future__ import annotations

import importlib
from typing import Any

# Each name from its module when first asked for: a command that needs only the sent
# ledger (`pbem tick` over a folder of idle games) does not load imapclient and the
# SMTP client (some 70 ms).
_HOME = {
    "CredentialError": "credentials",
    "Credentials": "credentials",
    "Secret": "credentials",
    "FetchError": "imap",
    "FetchSummary": "imap",
    "ImapSettings": "imap",
    "fetch_new": "imap",
    "fetch_routed": "imap",
    "FetchLedger": "ledger",
    "LedgerBusy": "ledger",
    "LedgerError": "ledger",
    "SentLedger": "ledger",
    "SendError": "smtp",
    "SendSummary": "smtp",
    "SmtpSettings": "smtp",
    "send_drafts": "smtp",
    "send_drafts_async": "smtp",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)


__all__ = [
    "CredentialError",
    "Credentials",
    "FetchError",
    "FetchLedger",
    "FetchSummary",
    "ImapSettings",
    "LedgerBusy",
    "LedgerError",
    "SendError",
    "Secret",
    "SendSummary",
    "SentLedger",
    "SmtpSettings",
    "fetch_new",
    "fetch_routed",
    "send_drafts",
    "send_drafts_async",
]
