"""Issue 8.2: a rollback killed at any step never lets the undone turn's drafts be sent.

A real ``pbem rollback`` process is killed with SIGKILL before and after each
of its steps (every file written, renamed or deleted in the campaign folder,
by the trap of tests/test_campaign.py, here also watching deletions). Then the
GM goes on: rolls back again if the turn is still there, resolves the turn
again, and sends. What would be sent must be the new turn's drafts and none
of the old ones (the bug: the next `send` mailed both turns).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys

from test_campaign import _TRAP_SRC, Trap, _copy, _prepare

_UNLINK_TRAP = r"""
def watch_unlinks(trap, setattr):
    real_unlink = os.unlink
    trap.counts["unlink"] = 0

    def fake_unlink(path, *args, **kwargs):
        inside = trap._inside(path)
        if inside:
            trap._note("unlink", path, "before")
        result = real_unlink(path, *args, **kwargs)
        if inside:
            trap._note("unlink", path, "after")
        return result

    setattr(os, "unlink", fake_unlink)
"""

_namespace: dict = {}
exec(_TRAP_SRC + _UNLINK_TRAP, _namespace)
watch_unlinks = _namespace["watch_unlinks"]

_KILLER = (
    _TRAP_SRC
    + _UNLINK_TRAP
    + r"""
import json, sys
trap = Trap(sys.argv[2], json.loads(sys.argv[1]))
trap.install(setattr)
watch_unlinks(trap, setattr)
from pbem.cli import main
main(sys.argv[3:], prog_name="pbem")
"""
)


def _resolved(cli, folder):
    _prepare(cli, folder)
    cli.ok("resolve", folder, "--force")
    cli.ok("preview", folder)  # the turn's drafts wait in the outbox


def _rollback_events(cli, monkeypatch, folder, tmp_path):
    ref = _copy(folder, tmp_path / "reference" / folder.name)
    trap = Trap(ref)
    with monkeypatch.context() as m:
        trap.install(m.setattr)
        watch_unlinks(trap, m.setattr)
        cli.ok("rollback", ref)
    return trap.events


def _would_send(cli, folder) -> set[str]:
    out = cli.ok("send", folder, "--dry-run").stdout
    return {line.split()[2] for line in out.splitlines() if line.startswith("would send ")}


def _old_drafts(folder) -> set[str]:
    out = set()
    for index in (folder / "turns" / "rolled-back").glob("*/mail/index.jsonl"):
        out |= {json.loads(line)["draft"] for line in index.read_text().splitlines()}
    return out


def _steps(events):
    points = []
    for kind, n, _ in events:
        # A write is trapped as it opens its file (before) only; renames and unlinks around.
        points += [(kind, n, "before")] + ([(kind, n, "after")] if kind != "write" else [])
    return points


def test_a_clean_rollback_takes_the_turns_drafts_out(cli, started3):
    _resolved(cli, started3)
    assert any(d.startswith("t001") for d in _would_send(cli, started3))
    cli.ok("rollback", started3)
    assert not any(d.startswith("t001") for d in _would_send(cli, started3))


def test_rollback_killed_at_every_step_never_sends_the_old_turn(cli, monkeypatch, started3, tmp_path):
    _resolved(cli, started3)
    before = cli.export_text(started3)
    events = _rollback_events(cli, monkeypatch, started3, tmp_path)
    assert [e for e in events if e[0] == "unlink"], f"the rollback deletes no draft? {events}"
    for n, at in enumerate(_steps(events)):
        folder = _copy(started3, tmp_path / f"kill-{n}" / started3.name)
        proc = subprocess.run(
            [sys.executable, "-c", _KILLER, json.dumps(at), str(folder), "rollback", str(folder)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == -signal.SIGKILL, (at, proc.returncode, proc.stdout, proc.stderr)
        if cli.export_text(folder) == before:  # killed before the turn was undone: the GM tries again
            cli.ok("rollback", folder)
        assert cli.export(folder)["turn"] == 1, at
        cli.ok("resolve", folder, "--force")
        sending = _would_send(cli, folder)
        old = _old_drafts(folder)
        assert old, at
        leaked = sorted(sending & old)
        assert not leaked, f"killed at {at}: the undone turn's drafts would be sent: {leaked}"
        new_turn = {d for d in sending if d.startswith("t001")}
        assert len(new_turn) == 6, (at, sorted(new_turn))  # 3 players x (public, private)
