"""send_drafts against a real aiosmtpd (STARTTLS + AUTH) relaying into a real Dovecot."""

from __future__ import annotations

import json
import uuid

import pytest
from servers import SMTP_PASSWORD, SMTP_USER, free_port

from pbem.transport import SendError, SentLedger, SmtpSettings, send_drafts
from pbem.transport.ledger import LedgerBusy

PLAYERS = ["alice@example.test", "bob@example.test", "carol@example.test"]


def make_drafts(count: int, tag: str | None = None, cc: bool = False) -> list[tuple[str, bytes]]:
    """`count` drafts to the players in turn, each with a unique Message-ID."""
    tag = tag or uuid.uuid4().hex[:8]
    drafts = []
    for n in range(count):
        to = PLAYERS[n % len(PLAYERS)]
        cc_line = f"Cc: {PLAYERS[(n + 1) % len(PLAYERS)]}\r\n" if cc else ""
        raw = (
            f"From: Game Master <{SMTP_USER}>\r\nTo: {to}\r\n{cc_line}"
            f"Subject: [{tag}] turn {n}\r\nMessage-ID: <{tag}.{n}@pbem.test>\r\n"
            f"\r\nYour hand: Guard.\r\n.\r\nA line with only a dot above.\r\n"
        ).encode()
        drafts.append((f"{tag}-{n}", raw))
    return drafts


def message_id(raw: bytes) -> str:
    for line in raw.split(b"\r\n"):
        if line.lower().startswith(b"message-id:"):
            return line.split(b":", 1)[1].strip().decode()
    raise AssertionError("no Message-ID")


def recipients(raw: bytes) -> list[str]:
    found = []
    for line in raw.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.lower() in (b"to", b"cc"):
            found.append(value.strip().decode())
    return found


def copies_in_dovecot(dovecot, user: str, mid: str) -> int:
    with dovecot.imap(user) as client:
        client.select_folder("INBOX", readonly=True)
        return len(client.search(["HEADER", "Message-ID", mid]))


def assert_each_arrived_once(dovecot, drafts) -> None:
    for _, raw in drafts:
        for rcpt in recipients(raw):
            assert copies_in_dovecot(dovecot, rcpt, message_id(raw)) == 1, (rcpt, message_id(raw))


def settings_for(server, **overrides) -> SmtpSettings:
    values = dict(
        host=server.host,
        port=server.port,
        security="starttls",
        user=SMTP_USER,
        password=SMTP_PASSWORD,
        timeout=5.0,
        retries=3,
        backoff=0.01,
        tls_context=server.client_context(),
    )
    values.update(overrides)
    return SmtpSettings(**values)


@pytest.fixture
def ledger(tmp_path) -> SentLedger:
    return SentLedger(tmp_path / "sent.jsonl")


def test_batch_arrives_in_dovecot_and_is_recorded(dovecot, smtp_server, ledger):
    drafts = make_drafts(7, cc=True)
    events = []
    summary = send_drafts(
        drafts,
        settings_for(smtp_server),
        ledger,
        progress=lambda draft_id, event: events.append((draft_id, event)),
    )
    assert summary.sent == [draft_id for draft_id, _ in drafts]
    assert summary.failed == {} and summary.skipped == []
    assert events == [(draft_id, "sent") for draft_id, _ in drafts]
    assert len(smtp_server.received) == 7
    assert_each_arrived_once(dovecot, drafts)
    entries = SentLedger(ledger.path).entries()  # reread from disk
    assert [e["draft_id"] for e in entries] == summary.sent
    assert entries[0]["message_id"] == message_id(drafts[0][1])
    assert entries[0]["recipients"] == recipients(drafts[0][1])
    assert summary.per_recipient[drafts[0][0]] == {r: "accepted" for r in recipients(drafts[0][1])}
    # Dot-stuffing happened on the wire and was undone by the server.
    assert (
        smtp_server.received[0]
        .content.replace(b"\r\n", b"\n")
        .endswith(b"Guard.\n.\nA line with only a dot above.\n")
    )


def test_rerun_sends_nothing(smtp_server, ledger):
    drafts = make_drafts(4)
    send_drafts(drafts, settings_for(smtp_server), ledger)
    again = send_drafts(drafts, settings_for(smtp_server), SentLedger(ledger.path))
    assert again.sent == [] and again.failed == {}
    assert again.skipped == [draft_id for draft_id, _ in drafts]
    assert len(smtp_server.received) == 4


def test_server_down_raises_and_records_nothing(ledger):
    port = free_port()  # nothing listens there
    settings = SmtpSettings(
        host="127.0.0.1",
        port=port,
        security="starttls",
        user=SMTP_USER,
        password=SMTP_PASSWORD,
        timeout=2,
        retries=2,
        backoff=0.01,
    )
    with pytest.raises(SendError) as info:
        send_drafts(make_drafts(3), settings, ledger)
    assert f"127.0.0.1:{port}" in str(info.value)
    assert "cannot connect" in str(info.value)
    assert info.value.summary.sent == []
    assert SentLedger(ledger.path).entries() == []


def test_wrong_password_raises(smtp_server, ledger):
    with pytest.raises(SendError) as info:
        send_drafts(make_drafts(3), settings_for(smtp_server, password="wrong"), ledger)
    message = str(info.value)
    assert "refused the login" in message and f"{smtp_server.host}:{smtp_server.port}" in message
    assert smtp_server.received == []
    assert ledger.entries() == []


def test_untrusted_certificate_raises(smtp_server, ledger):
    with pytest.raises(SendError, match="secure connection"):
        send_drafts(make_drafts(1), settings_for(smtp_server, tls_context=None), ledger)
    assert smtp_server.received == []


def test_temporary_failure_is_retried_and_sent_once(dovecot, smtp_server, ledger):
    drafts = make_drafts(1)
    smtp_server.fail_next(2, code=451)
    events = []
    summary = send_drafts(
        drafts, settings_for(smtp_server), ledger, progress=lambda draft_id, event: events.append(event)
    )
    assert summary.sent == [drafts[0][0]]
    assert events == ["retry", "retry", "sent"]
    assert len(smtp_server.received) == 1
    assert_each_arrived_once(dovecot, drafts)


def test_temporary_failure_that_persists_fails_only_that_draft(smtp_server, ledger):
    drafts = make_drafts(3)
    stuck = message_id(drafts[1][1]).encode()
    smtp_server.fail_next(
        100, code=452, text="4.3.1 Insufficient storage", match=lambda envelope: stuck in envelope.content
    )
    summary = send_drafts(drafts, settings_for(smtp_server, retries=2), ledger)
    assert summary.sent == [drafts[0][0], drafts[2][0]]
    assert "452 4.3.1 Insufficient storage" in summary.failed[drafts[1][0]]


def test_permanent_failure_fails_one_draft_and_the_rest_go_on(dovecot, smtp_server, ledger):
    drafts = make_drafts(5)
    bad_id, bad_raw = drafts[2]
    smtp_server.reject(
        lambda envelope: message_id(bad_raw).encode() in envelope.content,
        code=554,
        text="5.7.1 Content refused by policy",
    )
    summary = send_drafts(drafts, settings_for(smtp_server), ledger)
    assert summary.failed == {bad_id: "554 5.7.1 Content refused by policy"}
    assert summary.sent == [d for d, _ in drafts if d != bad_id]
    assert not ledger.is_sent(bad_id)
    assert len(smtp_server.received) == 4  # not retried
    assert_each_arrived_once(dovecot, [d for d in drafts if d[0] != bad_id])


def test_refused_recipient_is_reported_others_receive(dovecot, smtp_server, ledger):
    tag = uuid.uuid4().hex[:8]
    raw = (
        f"From: {SMTP_USER}\r\nTo: alice@example.test, ghost@example.test\r\n"
        f"Subject: partly\r\nMessage-ID: <{tag}@pbem.test>\r\n\r\nhi\r\n"
    ).encode()
    summary = send_drafts([("partly", raw)], settings_for(smtp_server), ledger)
    assert summary.sent == ["partly"]
    per = summary.per_recipient["partly"]
    assert per["alice@example.test"] == "accepted"
    assert per["ghost@example.test"].startswith("550")
    assert ledger.entries()[0]["recipients"] == ["alice@example.test"]
    assert copies_in_dovecot(dovecot, "alice@example.test", f"<{tag}@pbem.test>") == 1


def test_malformed_drafts_fail_without_stopping_the_batch(smtp_server, ledger):
    good = make_drafts(1)
    no_id = ("no-id", f"From: {SMTP_USER}\r\nTo: alice@example.test\r\nSubject: x\r\n\r\nx\r\n".encode())
    bcc = (
        "bcc",
        (
            f"From: {SMTP_USER}\r\nTo: alice@example.test\r\nBcc: bob@example.test\r\n"
            "Message-ID: <bcc@pbem.test>\r\n\r\nx\r\n"
        ).encode(),
    )
    summary = send_drafts([no_id, bcc] + good, settings_for(smtp_server), ledger)
    assert summary.sent == [good[0][0]]
    assert "Message-ID" in summary.failed["no-id"] and "Bcc" in summary.failed["bcc"]


def test_connection_cut_before_the_reply_makes_the_draft_uncertain(dovecot, smtp_server, ledger):
    """The line drops after the message was handed over: the sender cannot know
    whether it arrived (here it did not), so it is not sent again by itself; the
    run stops there and a rerun sends the rest, holding the uncertain one back."""
    drafts = make_drafts(8)
    smtp_server.drop_after(3)
    settings = settings_for(smtp_server, max_connections=1)
    with pytest.raises(SendError) as info:
        send_drafts(drafts, settings, ledger)
    assert "uncertain" in str(info.value) and drafts[3][0] in str(info.value)
    assert list(info.value.summary.uncertain) == [drafts[3][0]]
    assert [e["draft_id"] for e in SentLedger(ledger.path).entries()] == [d for d, _ in drafts[:3]]
    assert list(SentLedger(ledger.path).uncertain()) == [drafts[3][0]]

    smtp_server.clear_faults()
    summary = send_drafts(drafts, settings, SentLedger(ledger.path))
    assert summary.skipped == [d for d, _ in drafts[:3]]
    assert summary.held == [drafts[3][0]]
    assert summary.sent == [d for d, _ in drafts[4:]]
    # The GM checked: it never arrived. On their word, it goes.
    again = send_drafts(drafts, settings, SentLedger(ledger.path), resend=[drafts[3][0]])
    assert again.sent == [drafts[3][0]]
    assert SentLedger(ledger.path).uncertain() == {}
    assert sorted(smtp_server.contents()) == sorted(raw for _, raw in drafts)
    assert_each_arrived_once(dovecot, drafts)


def test_server_that_stores_then_drops_the_line_never_gets_a_copy(dovecot, smtp_server, ledger):
    """The attack of issue 8.3: the server keeps every message, then cuts the
    line before its reply. Before, each was sent again (231 messages, 115 extra
    copies, "0 failed"). Now the first becomes uncertain and nothing is resent."""
    drafts = make_drafts(6)
    smtp_server.store_then_drop(100)
    settings = settings_for(smtp_server)
    for _ in range(3):  # the GM (or cron) runs send again and again
        with pytest.raises(SendError):
            send_drafts(drafts, settings, SentLedger(ledger.path))
    contents = smtp_server.contents()
    assert len(contents) == len(set(contents)), "a message was sent twice"
    uncertain = SentLedger(ledger.path).uncertain()
    assert len(uncertain) == len(contents)  # each one stored is uncertain, none is lost from view
    for _, raw in drafts:
        for rcpt in recipients(raw):
            assert copies_in_dovecot(dovecot, rcpt, message_id(raw)) <= 1


def test_reply_slower_than_the_timeout_makes_the_draft_uncertain(dovecot, smtp_server, ledger):
    """Before: the draft was retried on timeout and delivered 5 times."""
    drafts = make_drafts(3)
    smtp_server.slow_reply(1.0, count=1)
    settings = settings_for(smtp_server, timeout=0.3, max_connections=1)
    with pytest.raises(SendError) as info:
        send_drafts(drafts, settings, ledger)
    assert list(info.value.summary.uncertain) == [drafts[0][0]]
    summary = send_drafts(drafts, settings, SentLedger(ledger.path))
    assert summary.held == [drafts[0][0]] and summary.sent == [d for d, _ in drafts[1:]]
    assert len(smtp_server.received) == 3
    assert_each_arrived_once(dovecot, drafts)  # the slow one too, once


def test_stalled_server_that_keeps_nothing_leaves_the_draft_uncertain(smtp_server, ledger):
    drafts = make_drafts(2)
    smtp_server.stall_next(1.0)
    with pytest.raises(SendError):
        send_drafts(drafts, settings_for(smtp_server, timeout=0.3, max_connections=1), ledger)
    assert list(SentLedger(ledger.path).uncertain()) == [drafts[0][0]]
    assert smtp_server.received == []


def test_refusal_of_the_message_is_certain_and_retried(dovecot, smtp_server, ledger):
    """A 4xx reply to DATA is an answer: the draft is not uncertain, it is retried."""
    drafts = make_drafts(1)
    smtp_server.fail_next(1, code=451)
    summary = send_drafts(drafts, settings_for(smtp_server), ledger)
    assert summary.sent == [drafts[0][0]] and summary.uncertain == {}
    assert SentLedger(ledger.path).uncertain() == {}
    assert_each_arrived_once(dovecot, drafts)


def test_large_batch_uses_parallel_reused_connections(dovecot, smtp_server, ledger):
    drafts = make_drafts(11)
    settings = settings_for(smtp_server, max_connections=2, batch_per_connection=3)
    summary = send_drafts(drafts, settings, ledger)
    assert sorted(summary.sent) == sorted(d for d, _ in drafts)
    assert smtp_server.logins == 4  # ceil(11 / 3) batches, one connection each
    assert smtp_server.peak_active == 1  # one message handed over at a time: at most one uncertain
    assert_each_arrived_once(dovecot, drafts)


def test_busy_ledger_is_refused(smtp_server, ledger):
    with ledger.lock():
        with pytest.raises(SendError, match="in use"):
            send_drafts(make_drafts(1), settings_for(smtp_server), SentLedger(ledger.path))
    assert smtp_server.received == []


def test_ledger_survives_a_torn_last_line(tmp_path):
    path = tmp_path / "sent.jsonl"
    first = SentLedger(path)
    first.record("d1", "<1@x>", ["alice@example.test"])
    with open(path, "ab") as handle:  # a run killed in the middle of a write
        handle.write(b'{"draft_id": "d2", "message_id": "<2@')
    reread = SentLedger(path)
    assert [e["draft_id"] for e in reread.entries()] == ["d1"]
    assert not reread.is_sent("d2")
    reread.record("d3", "<3@x>", ["bob@example.test"])
    lines = path.read_bytes().splitlines()
    assert json.loads(lines[-1])["draft_id"] == "d3"
    assert [e["draft_id"] for e in SentLedger(path).entries()] == ["d1", "d3"]


def test_second_lock_holder_is_refused(tmp_path):
    ledger = SentLedger(tmp_path / "sent.jsonl")
    with ledger.lock():
        with pytest.raises(LedgerBusy):
            with SentLedger(ledger.path).lock():
                pass
    with SentLedger(ledger.path).lock():  # released again
        pass
