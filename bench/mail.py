"""Mail transport speed against local servers: SMTP sends/s, IMAP fetches/s, scaling.

Starts its own servers (tests/mail/servers.py): an aiosmtpd with STARTTLS + AUTH
that accepts and discards, and a throwaway Dovecot.  Three figures:

1. drafts sent per second by `send_drafts` (default settings: 4 connections,
   100 messages per connection), with the sent ledger fsync'd per message;
2. campaign messages fetched per second by `fetch_new`, each parsed with
   email.message_from_bytes by the deliver callback, ledger saved per message,
   messages flagged and moved to the processed folder;
3. the time to fetch 10 new messages from a 10,000-message mailbox against a
   10-message one (medians of alternating rounds) and their ratio: the fetch must
   cost what the new mail costs, not what the mailbox holds.

Mailboxes are filled by writing Maildir files directly and opened once before the
clock starts, as LMTP delivery would have indexed them.

    python bench/mail.py [--sends 500] [--fetches 1000] [--big 10000] [--rounds 9] [--check]

Targets: >= 200 sends/s, >= 300 fetches/s, ratio <= 2.  --check exits 1 if one is missed.
"""

from __future__ import annotations

import argparse
import email
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "mail"))

from servers import DovecotServer, SmtpServer  # noqa: E402

from pbem.transport import (  # noqa: E402
    FetchLedger,
    ImapSettings,
    SentLedger,
    SmtpSettings,
    fetch_new,
    send_drafts,
)

SEND_TARGET, FETCH_TARGET, RATIO_TARGET = 200.0, 300.0, 2.0
CAMPAIGN = "bench7"


def message(to: str, n: int) -> bytes:
    return (
        f"From: alice@example.test\r\nTo: {to}\r\nSubject: [{CAMPAIGN}] turn {n}\r\n"
        f"Message-ID: <{uuid.uuid4().hex}@bench.test>\r\nDate: Sun, 29 Nov 2026 12:00:00 +0000\r\n"
        f"\r\nI play the Priest on Bob.\r\n{'Some more words of table talk. ' * 20}\r\n"
    ).encode()


def campaign_address(user: str) -> str:
    local, domain = user.split("@")
    return f"{local}+{CAMPAIGN}@{domain}"


def belongs(headers) -> bool:
    return f"+{CAMPAIGN}@" in str(headers.get("To", ""))


def bench_send(count: int, workdir: Path) -> float:
    server = SmtpServer(users={"gm@example.test": "pw"}, relay=None, starttls=True).start()
    try:
        drafts = []
        for n in range(count):
            raw = (
                f"From: gm@example.test\r\nTo: player{n % 5}@example.test\r\n"
                f"Subject: [{CAMPAIGN}] your turn {n}\r\nMessage-ID: <{n}.{uuid.uuid4().hex}@gm.test>\r\n"
                f"\r\n{'Your hand: Guard, Baron. ' * 30}\r\n"
            ).encode()
            drafts.append((f"draft-{n}", raw))
        settings = SmtpSettings(
            host=server.host,
            port=server.port,
            security="starttls",
            user="gm@example.test",
            password="pw",
            tls_context=server.client_context(),
            backoff=0.05,
        )
        ledger = SentLedger(workdir / "sent.jsonl")
        start = time.perf_counter()
        summary = send_drafts(drafts, settings, ledger)
        elapsed = time.perf_counter() - start
        assert len(summary.sent) == count and len(server.received) == count, summary.failed
    finally:
        server.stop()
    rate = count / elapsed
    print(
        f"send:  {count} drafts in {elapsed:.2f} s = {rate:,.0f} sends/s "
        f"({verdict(rate >= SEND_TARGET)} >= {SEND_TARGET:.0f})"
    )
    return rate


def open_once(dovecot: DovecotServer, user: str) -> None:
    """Let Dovecot index freshly written Maildir files, as delivery would have done."""
    with dovecot.imap(user) as client:
        client.select_folder("INBOX", readonly=True)


def settings_for(dovecot: DovecotServer, user: str) -> ImapSettings:
    return ImapSettings(
        host=dovecot.host, port=dovecot.imap_port, tls=False, user=user, password=dovecot.passwords[user]
    )


def bench_fetch(dovecot: DovecotServer, count: int, workdir: Path) -> float:
    user = dovecot.new_account()
    dovecot.write_maildir(user, (message(campaign_address(user), n) for n in range(count)))
    open_once(dovecot, user)
    os.sync()
    parsed = []

    def deliver(raw: bytes) -> None:
        parsed.append(email.message_from_bytes(raw)["Subject"])

    start = time.perf_counter()
    summary = fetch_new(settings_for(dovecot, user), FetchLedger(workdir / "fetch.json"), belongs, deliver)
    elapsed = time.perf_counter() - start
    assert summary.delivered == count == len(parsed), summary
    rate = count / elapsed
    print(
        f"fetch: {count} messages in {elapsed:.2f} s = {rate:,.0f} fetches/s "
        f"({verdict(rate >= FETCH_TARGET)} >= {FETCH_TARGET:.0f})"
    )
    return rate


def prepare_mailbox(dovecot: DovecotServer, size: int, workdir: Path) -> tuple[str, Path]:
    """An account holding `size` messages that are not the campaign's, already examined once."""
    user = dovecot.new_account()
    ledger_path = workdir / f"scale-{size}.json"
    dovecot.write_maildir(user, (message(user, n) for n in range(size)))
    open_once(dovecot, user)
    start = time.perf_counter()
    first = fetch_new(settings_for(dovecot, user), FetchLedger(ledger_path), belongs, lambda raw: None)
    print(
        f"       first look at {size:,} old messages: {time.perf_counter() - start:.2f} s "
        f"({first.ignored:,} examined once, never again)"
    )
    return user, ledger_path


def time_ten_new(dovecot: DovecotServer, user: str, ledger_path: Path) -> float:
    """Deliver 10 campaign messages by LMTP, then time the fetch that takes them."""
    for n in range(10):
        dovecot.deliver(message(campaign_address(user), n), campaign_address(user))
    start = time.perf_counter()
    summary = fetch_new(settings_for(dovecot, user), FetchLedger(ledger_path), belongs, lambda raw: None)
    elapsed = time.perf_counter() - start
    assert summary.delivered == 10 and summary.ignored == 0, summary
    return elapsed


def bench_scale(dovecot: DovecotServer, big_size: int, rounds: int, workdir: Path) -> float:
    small = prepare_mailbox(dovecot, 10, workdir)
    big = prepare_mailbox(dovecot, big_size, workdir)
    os.sync()  # the setup's dirty pages must not slow the measured fsyncs
    small_times, big_times = [], []
    for _ in range(rounds):  # alternate, so both see the same background load
        small_times.append(time_ten_new(dovecot, *small))
        big_times.append(time_ten_new(dovecot, *big))
    t_small, t_big = statistics.median(small_times), statistics.median(big_times)
    ratio = t_big / t_small
    print(
        f"scale: 10 new among {big_size:,}: {t_big * 1000:.1f} ms; among 10: "
        f"{t_small * 1000:.1f} ms (medians of {rounds} rounds); ratio {ratio:.2f} "
        f"({verdict(ratio <= RATIO_TARGET)} <= {RATIO_TARGET:.0f})"
    )
    return ratio


def verdict(ok: bool) -> str:
    return "meets" if ok else "MISSES"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=500)
    parser.add_argument("--fetches", type=int, default=1000)
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        workdir = Path(tmp)
        send_rate = bench_send(args.sends, workdir)
        with DovecotServer(spare_accounts=4) as dovecot:
            fetch_rate = bench_fetch(dovecot, args.fetches, workdir)
            ratio = bench_scale(dovecot, args.big, args.rounds, workdir)
    ok = send_rate >= SEND_TARGET and fetch_rate >= FETCH_TARGET and ratio <= RATIO_TARGET
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
