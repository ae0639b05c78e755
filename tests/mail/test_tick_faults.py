"""Issue 18.1, "Must show": faults injected into a tick that resolves a turn and
sends its mail lose nothing.

A real `pbem tick` (a subprocess) is killed with SIGKILL before each of its
writes, renames (and after), links, unlinks and fsyncs in the campaign folder,
and, in process, each write fails with ENOSPC, each fsync and rename with EIO,
each link with EPERM (see `_points` for the turn folder's files). Then cron goes
on: a tick five minutes later, a tick after the next turn's deadline, the GM's
word on the uncertain mail (the server is asked: arrived or not), a last tick.
In the end every draft auto_send allows reached the real aiosmtpd exactly once,
turn 1 was resolved once, and no deadline passed over turn mail that had not
reached the players: the tick after turn 2's deadline never resolves it while
some of turn 1's reports are missing at the server.

Before: a tick killed or failing after the resolution left its reports unsent
for good (later ticks sent only the reports of a turn they resolved), and the
next deadline resolved turn 2 by defaults.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys

import pytest
from servers import SMTP_PASSWORD, SMTP_USER, SmtpServer
from test_campaign import _TRAP_SRC
from test_rollback_crash import _UNLINK_TRAP
from tick_kit import PASSWORD_ENV, awaited_turn, pbem, received_ids, turn_mail, write_campaign

from pbem.transport import SentLedger

pytestmark = pytest.mark.servers  # its aiosmtpd is module-scoped: not one of conftest's fixtures

OPENING_TICK = "2026-11-02T12:01:00+00:00"
TICK = "2026-11-05T12:01:00+00:00"  # turn 1's deadline has passed: resolve it, mail turn 2
AGAIN = "2026-11-05T12:06:00+00:00"  # cron, five minutes later
LATE = "2026-11-08T12:30:00+00:00"  # past turn 2's first deadline (8 November, 12:00)
LAST = "2026-11-08T12:35:00+00:00"

_MORE_TRAPS = r"""
import threading


def watch_links_and_syncs(trap, setattr):
    real_link, real_fsync = os.link, os.fsync
    counting = threading.Lock()  # a turn folder's files are synced side by side, by threads
    trap.counts["link"] = 0
    trap.counts["fsync"] = 0

    def fake_link(src, dst, *args, **kwargs):
        inside = trap._inside(dst)
        if inside:
            trap._note("link", dst, "before")
        return real_link(src, dst, *args, **kwargs)

    def fake_fsync(fd):
        try:
            path = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            path = None
        if path is not None and trap._inside(path):
            with counting:
                trap._note("fsync", path, "before")
        return real_fsync(fd)

    setattr(os, "link", fake_link)
    setattr(os, "fsync", fake_fsync)
"""

_namespace: dict = {}
exec(_TRAP_SRC + _UNLINK_TRAP + _MORE_TRAPS, _namespace)
Trap = _namespace["Trap"]
watch_unlinks = _namespace["watch_unlinks"]
watch_links_and_syncs = _namespace["watch_links_and_syncs"]

_KILLER = (
    _TRAP_SRC
    + _UNLINK_TRAP
    + _MORE_TRAPS
    + r"""
import json, sys
trap = Trap(sys.argv[2], json.loads(sys.argv[1]))
trap.install(setattr)
watch_unlinks(trap, setattr)
watch_links_and_syncs(trap, setattr)
from pbem.cli import main
main(sys.argv[3:], prog_name="pbem")
"""
)


@pytest.fixture(scope="module")
def server():
    server = SmtpServer(users={SMTP_USER: SMTP_PASSWORD}, relay=None, starttls=True).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def base(tmp_path_factory, server):
    """A campaign whose opening mails went out; its turn 1 is due."""
    os.environ[PASSWORD_ENV] = SMTP_PASSWORD
    root = tmp_path_factory.mktemp("faults")
    folder = write_campaign(root / "base" / "tick", server, root / "ca.pem")
    result = pbem("tick", folder, now=OPENING_TICK)
    assert result.exit_code == 0 and "8 mail(s)" in result.output, result.output
    return folder


def _copy(base, tmp_path, name):
    folder = tmp_path / name / base.name
    shutil.copytree(base, folder, ignore=shutil.ignore_patterns("*.lock"))
    return folder


def _install(trap, setattr):
    trap.install(setattr)
    watch_unlinks(trap, setattr)
    watch_links_and_syncs(trap, setattr)


@pytest.fixture(scope="module")
def events(base, tmp_path_factory):
    """The steps of a clean tick that resolves turn 1 and sends its 8 mails."""
    folder = _copy(base, tmp_path_factory.mktemp("reference"), "ref")
    trap = Trap(folder)
    mp = pytest.MonkeyPatch()
    try:
        _install(trap, mp.setattr)
        result = pbem("tick", folder, now=TICK)
    finally:
        mp.undo()
    assert result.exit_code == 0 and "Turn 1 resolved." in result.output, result.output
    assert "Sent on its own (auto_send): 8 mail(s)." in result.output
    kinds = {kind for kind, _, _ in trap.events}
    assert {"write", "rename", "link", "fsync"} <= kinds, kinds
    return trap.events


def _recover_and_check(folder, server):
    """What cron and the GM do next, and what must hold in the end."""
    opening = {mid for draft, mid in turn_mail(folder, 0).items()}
    pbem("tick", folder, now=AGAIN)
    if awaited_turn(folder) == 1:  # killed before the turn was resolved: this tick resolved nothing?
        pbem("tick", folder, now=AGAIN)
    assert awaited_turn(folder) == 2, "turn 1 was not resolved by the next tick"
    mine = turn_mail(folder, 1)
    missing = [d for d, mid in mine.items() if received_ids(server)[mid] == 0]
    late = pbem("tick", folder, now=LATE)
    if missing:  # turn 2's deadline passed while some of turn 1's reports never reached the server
        assert awaited_turn(folder) == 2, f"turn 2 resolved over undelivered mail {missing}: {late.output}"
    # The GM's word on the uncertain mail: the server is asked whether it arrived.
    ledger = SentLedger(folder / "mail" / "sent.jsonl")
    for draft_id, entry in ledger.uncertain().items():
        arrived = received_ids(server)[entry["message_id"]] > 0
        word = "--mark-sent" if arrived else "--resend-uncertain"
        result = pbem("send", folder, word, draft_id, now=LATE)
        assert result.exit_code == 0, result.output
    if awaited_turn(folder) == 2:
        pbem("tick", folder, now=LAST)
    ids = received_ids(server)
    for draft_id, mid in mine.items():
        assert ids[mid] == 1, f"{draft_id} reached the server {ids[mid]} times"
    assert all(ids[mid] == 1 for mid in opening)
    assert not [p.name for p in (folder / "mail" / "outbox").glob("t00*.eml")]
    assert len(list((folder / "turns").glob("turn-001"))) == 1
    assert not (folder / "turns" / "rolled-back").exists()


def _points(events):
    """Before each step, and after each rename. The turn folder's files, written
    and synced aside before the one rename that commits the turn, are alike (a
    crash before the rename leaves a folder never used): the first, middle and
    last of each kind stand for them."""
    aside: dict[str, list[int]] = {}
    for kind, n, path in events:
        if path.startswith("turns/.turn-"):
            aside.setdefault(kind, []).append(n)
    kept = {(kind, ns[i]) for kind, ns in aside.items() for i in (0, len(ns) // 2, -1)}
    points = []
    for kind, n, path in events:
        if path.startswith("turns/.turn-") and (kind, n) not in kept:
            continue
        points.append((kind, n, "before"))
        if kind == "rename":
            points.append((kind, n, "after"))
    return points


def test_tick_killed_at_every_step_loses_nothing(base, events, server, tmp_path):
    for n, at in enumerate(_points(events)):
        folder = _copy(base, tmp_path, f"kill-{n}")
        env = dict(os.environ, PBEM_NOW=TICK)
        proc = subprocess.run(
            [sys.executable, "-c", _KILLER, json.dumps(at), str(folder), "tick", str(folder)],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
        assert proc.returncode == -signal.SIGKILL, (at, proc.returncode, proc.stdout, proc.stderr)
        _recover_and_check(folder, server)


@pytest.mark.parametrize("kind", ["write", "fsync", "rename", "link"])
def test_tick_failing_at_every_step_loses_nothing(base, events, server, tmp_path, monkeypatch, kind):
    exc = {
        "write": OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)),
        "fsync": OSError(errno.EIO, os.strerror(errno.EIO)),
        "rename": OSError(errno.EIO, os.strerror(errno.EIO)),
        "link": OSError(errno.EPERM, os.strerror(errno.EPERM)),
    }[kind]
    points = [p for p in _points(events) if p[0] == kind and p[2] == "before"]
    assert points, kind
    for n, at in enumerate(points):
        folder = _copy(base, tmp_path, f"{kind}-{n}")
        trap = Trap(folder, at, exc)
        with monkeypatch.context() as m:
            _install(trap, m.setattr)
            result = pbem("tick", folder, now=TICK)
        assert "Traceback" not in result.output, (at, result.output)
        _recover_and_check(folder, server)
