"""Mail transport for pbem: send drafts by SMTP, fetch players' replies by IMAP.

Both directions keep a ledger file so that any run can be killed and rerun
without sending or delivering a message twice; a message handed to the SMTP
server without a reply is recorded as uncertain and never resent by itself.
"""

from .credentials import CredentialError, Credentials, Secret
from .imap import FetchError, FetchSummary, ImapSettings, fetch_new
from .ledger import FetchLedger, LedgerBusy, LedgerError, SentLedger
from .smtp import SendError, SendSummary, SmtpSettings, send_drafts, send_drafts_async

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
    "send_drafts",
    "send_drafts_async",
]
