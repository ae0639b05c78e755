"""fetch_new against a real Dovecot: delivery, filing, restarts, UIDVALIDITY resets."""

from __future__ import annotations

import email
import json
import uuid

import pytest
from imapclient import SEEN
from servers import free_port

from pbem.transport import FetchError, FetchLedger, ImapSettings, fetch_new
from pbem.transport.ledger import LedgerError

PROCESSED = "pbem-processed"


class Mailbox:
    """One GM account on a Dovecot, with helpers to fill it and look inside."""

    def __init__(self, dovecot, tmp_path, campaign: str = "game7"):
        self.dovecot = dovecot
        self.user = dovecot.new_account()
        local, domain = self.user.split("@")
        self.campaign_address = f"{local}+{campaign}@{domain}"
        self.ledger_path = tmp_path / f"fetch-{local}.json"
        self.delivered: list[bytes] = []
        self.belongs_calls = 0

    # -- filling

    def message(
        self, campaign: bool = True, with_id: bool = True, subject: str = "move"
    ) -> tuple[str | None, bytes]:
        mid = f"<{uuid.uuid4().hex}@player.test>" if with_id else None
        to = self.campaign_address if campaign else self.user
        head = f"From: alice@example.test\r\nTo: {to}\r\nSubject: {subject}\r\n"
        if mid:
            head += f"Message-ID: {mid}\r\n"
        return mid, (head + "\r\nI play the Baron on Bob.\r\n").encode()

    def arrive(self, count: int = 1, **kwargs) -> list[str | None]:
        """Deliver `count` new messages by LMTP; returns their Message-IDs."""
        ids = []
        for _ in range(count):
            mid, raw = self.message(**kwargs)
            self.dovecot.deliver(raw, self.campaign_address if kwargs.get("campaign", True) else self.user)
            ids.append(mid)
        return ids

    # -- fetching

    def settings(self, **overrides) -> ImapSettings:
        values = dict(
            host=self.dovecot.host,
            port=self.dovecot.imap_port,
            tls=False,
            user=self.user,
            password=self.dovecot.passwords[self.user],
            timeout=5.0,
        )
        values.update(overrides)
        return ImapSettings(**values)

    def belongs(self, headers: email.message.Message) -> bool:
        self.belongs_calls += 1
        return any(
            self.campaign_address in str(headers.get(name, "")) for name in ("To", "Cc", "Delivered-To")
        )

    def fetch(self, deliver=None, **overrides):
        return fetch_new(
            self.settings(**overrides),
            FetchLedger(self.ledger_path),
            self.belongs,
            deliver or self.delivered.append,
        )

    # -- looking

    def folder(self, name: str = "INBOX") -> list[tuple[str | None, bool]]:
        """(Message-ID, seen) of every message in the folder, in UID order."""
        with self.dovecot.imap(self.user) as client:
            if not client.folder_exists(name):
                return []
            client.select_folder(name, readonly=True)
            data = client.fetch(client.search(), ["BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]", "FLAGS"])
        result = []
        for uid in sorted(data):
            header = email.message_from_bytes(data[uid][b"BODY[HEADER.FIELDS (MESSAGE-ID)]"])
            result.append((header.get("Message-ID"), SEEN in data[uid][b"FLAGS"]))
        return result

    def delivered_ids(self) -> list[str | None]:
        return [email.message_from_bytes(raw).get("Message-ID") for raw in self.delivered]


@pytest.fixture
def box(dovecot, tmp_path) -> Mailbox:
    return Mailbox(dovecot, tmp_path)


@pytest.fixture
def fetched(monkeypatch) -> dict[str, int]:
    """How many messages fetch_new asked the server for, by kind (headers / whole)."""
    from imapclient import IMAPClient

    counts = {"headers": 0, "whole": 0}
    real = IMAPClient.fetch

    def counting(self, messages, data, *args, **kwargs):
        items = [d.decode() if isinstance(d, bytes) else d for d in data]
        if "BODY.PEEK[HEADER]" in items:
            counts["headers"] += len(messages)
        if "BODY.PEEK[]" in items:
            counts["whole"] += len(messages)
        return real(self, messages, data, *args, **kwargs)

    monkeypatch.setattr(IMAPClient, "fetch", counting)
    return counts


def test_delivers_only_campaign_mail_and_files_it(box):
    ours = box.arrive(3)
    others = box.arrive(2, campaign=False)
    summary = box.fetch()
    assert (summary.delivered, summary.ignored, summary.skipped_duplicates) == (3, 2, 0)
    assert not summary.uidvalidity_reset
    assert box.delivered_ids() == ours
    assert b"I play the Baron" in box.delivered[0] and b"Delivered-To:" in box.delivered[0]
    assert box.folder("INBOX") == [(mid, False) for mid in others]  # untouched, unread
    assert box.folder(PROCESSED) == [(mid, True) for mid in ours]


def test_second_fetch_delivers_and_examines_nothing(box):
    box.arrive(2)
    box.arrive(1, campaign=False)
    box.fetch()
    calls = box.belongs_calls
    summary = box.fetch()
    assert (summary.delivered, summary.ignored, summary.skipped_duplicates) == (0, 0, 0)
    assert box.belongs_calls == calls
    assert len(box.delivered) == 2


def test_only_new_messages_are_examined(box, fetched):
    """Cost follows the new mail: old mail is neither fetched nor shown to belongs."""
    box.dovecot.write_maildir(box.user, [box.message(campaign=False)[1] for _ in range(300)])
    assert box.fetch().ignored == 300
    assert fetched == {"headers": 300, "whole": 0}  # not ours: headers were enough
    before = box.belongs_calls
    new = box.arrive(2)
    summary = box.fetch()
    assert summary.delivered == 2 and summary.ignored == 0
    assert box.belongs_calls - before == 2
    assert fetched == {"headers": 302, "whole": 2}
    assert box.delivered_ids() == new


def test_search_result_below_the_mark_is_ignored(box):
    """`UID n:*` matches the highest UID even below n: it must not be re-examined."""
    box.arrive(1, campaign=False)
    box.fetch()
    box.arrive(1, campaign=False)
    with box.dovecot.imap(box.user) as client:  # the GM deletes the new one at once
        client.select_folder("INBOX")
        newest = max(client.search())
        client.delete_messages([newest])
        client.expunge()
    before = box.belongs_calls
    summary = box.fetch()
    assert (summary.delivered, summary.ignored) == (0, 0)
    assert box.belongs_calls == before


def test_fetch_across_a_dovecot_restart(fresh_dovecot, tmp_path):
    box = Mailbox(fresh_dovecot, tmp_path)
    first = box.arrive(2)
    assert box.fetch().delivered == 2
    fresh_dovecot.restart()
    second = box.arrive(1)
    summary = box.fetch()
    assert summary.delivered == 1 and not summary.uidvalidity_reset
    assert box.delivered_ids() == first + second


def test_uidvalidity_change_redelivers_nothing(fresh_dovecot, tmp_path, fetched):
    box = Mailbox(fresh_dovecot, tmp_path)
    with_id = box.arrive(1)
    box.arrive(1, with_id=False)  # judged by the SHA-256 of its bytes
    box.arrive(1, campaign=False)
    assert box.fetch().delivered == 2
    # The mailbox is "restored": the processed copies come back into INBOX...
    with fresh_dovecot.imap(box.user) as client:
        client.select_folder(PROCESSED)
        client.copy(client.search(), "INBOX")
    # ...and the server renumbers everything under a new UIDVALIDITY.
    old_validity = json.loads(box.ledger_path.read_text())["folders"]["INBOX"]["uidvalidity"]
    fresh_dovecot.reset_uidvalidity(box.user)
    newest = box.arrive(1)  # its new UID is below the old high-water mark
    fetched["whole"] = 0
    summary = box.fetch()
    assert summary.uidvalidity_reset
    assert json.loads(box.ledger_path.read_text())["folders"]["INBOX"]["uidvalidity"] != old_validity
    assert summary.delivered == 1 and box.delivered_ids()[-1] == newest[0]
    assert summary.skipped_duplicates == 2
    assert summary.ignored == 1  # the non-campaign message was examined again
    assert box.delivered_ids() == [with_id[0], None, newest[0]]
    assert len(box.folder("INBOX")) == 1  # duplicates were filed away too
    # Each campaign message is downloaded and known by its bytes, never by its
    # Message-ID (another message may carry it: issue 18.4).
    assert fetched["whole"] == 3


def test_failing_deliver_leaves_the_message_for_next_time(box):
    ids = box.arrive(3)

    class DiskFull(Exception):
        pass

    def deliver(raw: bytes) -> None:
        if ids[1].encode() in raw:
            raise DiskFull("no space left")
        box.delivered.append(raw)

    with pytest.raises(DiskFull):
        box.fetch(deliver=deliver)
    assert box.delivered_ids() == [ids[0]]
    assert box.folder(PROCESSED) == [(ids[0], True)]
    assert box.folder("INBOX") == [(ids[1], False), (ids[2], False)]

    summary = box.fetch()
    assert summary.delivered == 2 and summary.skipped_duplicates == 0
    assert box.delivered_ids() == ids
    assert box.folder("INBOX") == []


def test_moves_without_the_move_capability(box, monkeypatch):
    """Servers without MOVE get copy + \\Deleted + UID EXPUNGE instead."""
    from imapclient import IMAPClient

    real = IMAPClient.has_capability
    monkeypatch.setattr(
        IMAPClient, "has_capability", lambda self, cap: False if cap.upper() == "MOVE" else real(self, cap)
    )
    others = box.arrive(1, campaign=False)
    ours = box.arrive(2)
    assert box.fetch().delivered == 2
    assert box.folder("INBOX") == [(others[0], False)]
    assert box.folder(PROCESSED) == [(mid, True) for mid in ours]


def test_fetch_over_implicit_tls(tmp_path):
    from servers import DovecotServer

    with DovecotServer(spare_accounts=1, tls=True) as server:
        box = Mailbox(server, tmp_path)
        ours = box.arrive(1)
        secure = dict(port=server.imaps_port, tls=True)
        with pytest.raises(FetchError, match="CERTIFICATE_VERIFY_FAILED"):
            box.fetch(**secure)  # the test CA is not trusted by default
        assert box.fetch(ssl_context=server.client_context(), **secure).delivered == 1
        assert box.delivered_ids() == ours


def test_server_down_raises_fetch_error(box):
    port = free_port()
    with pytest.raises(FetchError, match=f"127.0.0.1:{port}"):
        box.fetch(port=port)


def test_wrong_password_raises_fetch_error(box):
    with pytest.raises(FetchError, match="refused the login"):
        box.fetch(password="wrong")


def test_missing_folder_raises_fetch_error(box):
    with pytest.raises(FetchError, match="opening folder 'Nope'"):
        box.fetch(folder="Nope")


def test_damaged_ledger_is_refused_not_reset(tmp_path):
    path = tmp_path / "fetch.json"
    path.write_text('{"folders": {"INBOX": ')
    with pytest.raises(LedgerError, match="damaged"):
        FetchLedger(path)


def test_ledger_save_is_atomic_and_round_trips(tmp_path):
    ledger = FetchLedger(tmp_path / "fetch.json")
    ledger.set_mark("INBOX", 42, 7)
    ledger.record_delivery("INBOX", 42, 9, "<a@b>")
    ledger.save()
    again = FetchLedger(tmp_path / "fetch.json")
    # A delivery does not move the mark: only the fetcher does, once the message is filed away.
    assert again.mark("INBOX") == (42, 7) and again.is_delivered("<a@b>")
    assert again.mark("Other") == (None, 0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fetch.json"]  # journal folded in


def test_deliveries_survive_a_crash_before_save(tmp_path):
    """Each delivery is durable at once (journal), even if the run dies before save()."""
    ledger = FetchLedger(tmp_path / "fetch.json")
    ledger.set_mark("INBOX", 42, 3)
    ledger.save()
    ledger.record_delivery("INBOX", 42, 5, "<five@x>")
    ledger.record_delivery("INBOX", 42, 6, "<six@x>")
    with open(ledger.journal_path, "ab") as handle:  # killed in the middle of a write
        handle.write(b'{"folder": "INBOX", "uidvalidity": 42, "uid": 7, "key": "<sev')
    again = FetchLedger(tmp_path / "fetch.json")
    assert again.mark("INBOX") == (42, 3)  # not filed away yet: the next fetch meets them again
    assert again.is_delivered("<five@x>") and again.is_delivered("<six@x>")
    again.record_delivery("INBOX", 42, 8, "<eight@x>")  # appends cleanly after the torn line
    assert FetchLedger(tmp_path / "fetch.json").is_delivered("<eight@x>")
