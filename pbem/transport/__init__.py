"""Mail transport for pbem: send drafts by SMTP, fetch players' replies by IMAP.

Both directions keep a ledger file so that any run can be killed and rerun
without sending or delivering a message twice.
"""

from .imap import FetchError, FetchSummary, ImapSettings, fetch_new
from .ledger import FetchLedger, LedgerBusy, LedgerError, SentLedger
from .smtp import SendError, SendSummary, SmtpSettings, send_drafts, send_drafts_async

__all__ = [
    "FetchError",
    "FetchLedger",
    "FetchSummary",
    "ImapSettings",
    "LedgerBusy",
    "LedgerError",
    "SendError",
    "SendSummary",
    "SentLedger",
    "SmtpSettings",
    "fetch_new",
    "send_drafts",
    "send_drafts_async",
]
