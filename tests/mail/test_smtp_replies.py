"""Issue 18.7: SMTP replies outside the RFC, against a real aiosmtpd.

A reply to the message itself that is neither a refusal (4xx, 5xx) nor an
acceptance is *uncertain*: the server may have stored the message (here it
did), so the draft is never sent again without the GM's word. A server that
defers every recipient is given up on after a bounded time, and the drafts
that wait are said, instead of 15 s of backoff per draft for every draft.
"""

from __future__ import annotations

import pytest
from test_smtp import make_drafts, settings_for

from pbem.transport import SendError, SentLedger, send_drafts


@pytest.fixture
def server(sink_smtp):
    """conftest's sink_smtp (STARTTLS, AUTH, keeps what it accepts), by this file's name."""
    return sink_smtp


@pytest.mark.parametrize("reply", ["999 9.9.9 What?", "354 go on", "199 early"])
def test_an_unknown_reply_after_the_message_is_uncertain_not_a_refusal(server, tmp_path, reply):
    """Before: a 999 after DATA was taken as a refusal, noted "not sent", and the
    draft went again on the next run (96 deliveries of 48)."""
    drafts = make_drafts(4)
    server.reply_after_store(reply, count=1)
    ledger_path = tmp_path / "sent.jsonl"
    settings = settings_for(server, max_connections=1)
    with pytest.raises(SendError) as info:
        send_drafts(drafts, settings, SentLedger(ledger_path))
    assert list(info.value.summary.uncertain) == [drafts[0][0]]
    assert "uncertain" in str(info.value) and reply.split()[0] in str(info.value)
    assert list(SentLedger(ledger_path).uncertain()) == [drafts[0][0]]
    for _ in range(3):  # the GM (or cron) runs send again
        summary = send_drafts(drafts, settings, SentLedger(ledger_path))
        assert drafts[0][0] in summary.held
    contents = server.contents()
    assert len(contents) == 4 and len(set(contents)) == 4  # each once: the odd one not again


def test_an_unknown_reply_with_nothing_stored_is_uncertain_too(server, tmp_path):
    drafts = make_drafts(2)
    server.fail_next(1, code=999, text="9.9.9 odd")
    with pytest.raises(SendError):
        send_drafts(drafts, settings_for(server, max_connections=1), SentLedger(tmp_path / "s.jsonl"))
    ledger = SentLedger(tmp_path / "s.jsonl")
    assert list(ledger.uncertain()) == [drafts[0][0]]
    assert not ledger.is_sent(drafts[0][0])


def test_a_server_that_defers_every_recipient_is_given_up_on_in_bounded_time(server, tmp_path):
    """Before: each of the drafts was retried with its full backoff (15 s each
    with the defaults, 14 minutes for 231 drafts). Now the run stops once the
    server has deferred everything for a bounded time, and says what waits."""
    drafts = make_drafts(20)
    server.defer_rcpt("450 4.2.0 Mailbox busy, try later")
    settings = settings_for(server, max_connections=1, retries=4, backoff=0.05)
    ledger_path = tmp_path / "sent.jsonl"
    with pytest.raises(SendError) as info:
        send_drafts(drafts, settings, SentLedger(ledger_path))
    message = str(info.value)
    assert "450 4.2.0 Mailbox busy" in message
    assert "defer" in message and "wait" in message
    # The budget is 2 ** (retries + 1) backoffs: about two drafts' worth of retries, not 20.
    assert server.rcpt_commands <= 2 * (settings.retries + 1) + 1, server.rcpt_commands
    waiting = [d for d, _ in drafts if d not in info.value.summary.failed]
    assert f"{len(waiting)} not sent yet" in message
    assert server.received == []
    ledger = SentLedger(ledger_path)
    assert ledger.uncertain() == {} and ledger.entries() == []

    server.defer_rcpt(None)  # the server is well again: the next run sends all, once each
    summary = send_drafts(drafts, settings, SentLedger(ledger_path))
    assert sorted(summary.sent) == sorted(d for d, _ in drafts)
    assert len(server.received) == 20


def test_a_deferral_streak_is_reset_by_an_accepted_message(server, tmp_path):
    """One busy recipient among good ones is not a server that defers everything."""
    drafts = make_drafts(6)
    stuck = drafts[2][1].split(b"Message-ID: ")[1].split(b"\r\n")[0]
    server.fail_next(100, code=452, text="4.3.1 Full", match=lambda envelope: stuck in envelope.content)
    summary = send_drafts(
        drafts, settings_for(server, max_connections=1, retries=3, backoff=0.05), SentLedger(tmp_path / "s")
    )
    assert sorted(summary.sent) == sorted(d for d, _ in drafts if d != drafts[2][0])
    assert "452 4.3.1 Full" in summary.failed[drafts[2][0]]
