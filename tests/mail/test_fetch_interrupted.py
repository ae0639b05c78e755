"""Issue 8.4: a fetch cut short never leaves a message behind.

Before, the fetch ledger's mark followed each delivery, ahead of the filing away,
so a `kill -9` of `pbem fetch` or a server dying mid-fetch left delivered
messages in the GM's INBOX, below the mark, never filed; a UID missing from a
cut-off reply was taken for expunged and skipped for good. And two `pbem fetch`
at once on a Maildir: the second listed new/ before taking the lock and failed.
"""

from __future__ import annotations

import email
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import kit
import pytest
import test_imap
from test_imap import PROCESSED, Mailbox

from pbem.transport import FetchError

ROOT = Path(__file__).resolve().parents[2]
box = test_imap.box  # the fixture, shared with test_imap: a Dovecot mailbox

# A fetch in a process of its own that kills itself (SIGKILL) once it has
# delivered and recorded `kill_after` messages: after they are kept, before they are filed.
_KILLED_FETCH = r"""
import json, os, signal, sys
sys.path.insert(0, sys.argv[1])
from pbem.transport import FetchLedger, ImapSettings, fetch_new
settings = ImapSettings(**json.loads(sys.argv[2]))
kept, kill_after, address = sys.argv[4], int(sys.argv[5]), sys.argv[6]
count = 0

def deliver(raw):
    with open(kept, "ab") as f:
        f.write(json.dumps(raw.decode()).encode() + b"\n")
        f.flush()
        os.fsync(f.fileno())

real_record = FetchLedger.record_delivery

def record_then_die(self, *args):
    global count
    real_record(self, *args)
    count += 1
    if count == kill_after:
        os.kill(os.getpid(), signal.SIGKILL)

FetchLedger.record_delivery = record_then_die

fetch_new(settings, FetchLedger(sys.argv[3]), lambda h: address in str(h.get("To", "")), deliver)
"""


def kept_ids(path: Path) -> list[str]:
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    return [email.message_from_string(json.loads(line))["Message-ID"] for line in lines]


@pytest.mark.parametrize("kill_after", [1, 3, 5])
def test_fetch_killed_after_keeping_messages_is_finished_by_the_next(box, tmp_path, kill_after):
    ids = box.arrive(5)
    others = box.arrive(1, campaign=False)
    kept = tmp_path / "kept.jsonl"
    s = box.settings()
    settings = {"host": s.host, "port": s.port, "tls": False, "user": s.user, "password": s.password}
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            _KILLED_FETCH,
            str(ROOT),
            json.dumps(settings),
            str(box.ledger_path),
            str(kept),
            str(kill_after),
            box.campaign_address,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert kept_ids(kept) == ids[:kill_after]

    summary = box.fetch()
    assert kept_ids(kept) + box.delivered_ids() == ids  # every message kept, once
    assert summary.skipped_duplicates == kill_after
    assert box.folder("INBOX") == [(others[0], False)]  # nothing of ours left behind
    assert box.folder(PROCESSED) == [(mid, True) for mid in ids]
    assert box.fetch().delivered == 0


def test_server_dying_mid_fetch_leaves_nothing_behind(fresh_dovecot, tmp_path):
    box = Mailbox(fresh_dovecot, tmp_path)
    ids = box.arrive(5)

    def deliver(raw: bytes) -> None:
        box.delivered.append(raw)
        if len(box.delivered) == 3:  # the server dies, every process of it: nothing can be filed away
            os.killpg(fresh_dovecot.process.pid, signal.SIGKILL)
            fresh_dovecot.halt()

    with pytest.raises(FetchError):
        box.fetch(deliver=deliver)
    fresh_dovecot.start()
    box.fetch()
    assert box.delivered_ids() == ids
    assert box.folder("INBOX") == []
    assert box.folder(PROCESSED) == [(mid, True) for mid in ids]


def test_a_uid_missing_from_a_cut_off_reply_is_read_next_time(box, monkeypatch):
    """A dying server's FETCH reply lacks the last message: it is not taken for
    expunged; the next fetch reads it."""
    from imapclient import IMAPClient

    ids = box.arrive(4)
    real = IMAPClient.fetch

    def cut_off(self, messages, data, *args, **kwargs):
        result = real(self, messages, data, *args, **kwargs)
        if any(b"BODY.PEEK[]" == (d if isinstance(d, bytes) else d.encode()) for d in data):
            result.pop(max(result))
        return result

    with monkeypatch.context() as m:
        m.setattr(IMAPClient, "fetch", cut_off)
        box.fetch()
    assert box.delivered_ids() == ids[:3]
    box.fetch()
    assert box.delivered_ids() == ids
    assert box.folder("INBOX") == []


# -- two fetches at once on a Maildir ---------------------------------------------------------------


def _maildir_game(tmp_path, cli, count: int) -> Path:
    from pbem.outbox import make_message

    folder = tmp_path / "md"
    kit.write_config(folder, kit.config(3))
    cli.ok("start", folder)
    new = folder / "mail" / "inbox" / "new"
    new.mkdir(parents=True)
    for n in range(count):
        raw = make_message(
            sender_name="Arthur",
            sender="arthur@example.org",
            to_name="GM",
            to="gm@example.org",
            subject="[md] Turn 1: orders",
            body="STATUS\n",
            message_id=f"<s{n}@example.org>",
        )
        (new / f"m{n}.eml").write_bytes(raw)
    return folder


def test_second_fetch_waiting_for_the_lock_does_not_fail(tmp_path, cli, monkeypatch):
    """The second `pbem fetch` waits for the first one's lock; meanwhile the first
    files every message under cur/. Before: "No such file or directory"."""
    from pbem.campaign import Campaign

    folder = _maildir_game(tmp_path, cli, 3)
    new, cur = folder / "mail" / "inbox" / "new", folder / "mail" / "inbox" / "cur"
    real_locked = Campaign.locked

    def locked_after_another_fetch(self):
        cur.mkdir(exist_ok=True)
        for path in list(new.iterdir()):  # what the first fetch did while this one waited
            path.rename(cur / (path.name + ":2,S"))
        return real_locked(self)

    monkeypatch.setattr(Campaign, "locked", locked_after_another_fetch)
    result = cli("fetch", folder)
    assert result.exit_code == 0, result.output
    assert "No such file" not in result.output


def test_two_fetch_processes_at_once_read_every_message_once(tmp_path, cli, pbem_exe):
    folder = _maildir_game(tmp_path, cli, 40)
    procs = [pbem_exe.popen("fetch", folder) for _ in range(2)]
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, (out, err)
    received = (folder / "mail" / "received.jsonl").read_text().splitlines()
    assert len(received) == 40
    assert sorted(p.name.split(":")[0] for p in (folder / "mail" / "inbox" / "cur").iterdir()) == sorted(
        f"m{n}.eml" for n in range(40)
    )
