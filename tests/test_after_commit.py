"""Issue 18.5: an error after the commit never reads as "nothing happened".

Before: `resolve` printed the report after committing the turn; with standard
output on a full disk it said "Error: No space left on device" and exited 1
though the turn was resolved, and the natural retry, `resolve --force`,
resolved the next turn with every order a default. Ctrl-C during that print
said "the campaign is as it was before this command". `rollback` with EIO on
the fsync after its rename exited 1 though it had rolled back, and the retry
rolled back one more turn. Now every message after a commit says what was
done and what is left, and the exit status is 0: the command did its work.
"""

from __future__ import annotations

import errno
import os
import subprocess

import pbem.cli
import pbem.store


def _resolve_to_a_full_disk(pbem_exe, folder):
    with open("/dev/full", "w") as full:
        return subprocess.run(
            pbem_exe.command + ["resolve", str(folder), "--force"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )


def test_resolve_with_standard_output_on_a_full_disk_says_the_turn_is_resolved(cli, pbem_exe, started3):
    proc = _resolve_to_a_full_disk(pbem_exe, started3)
    assert proc.returncode == 0, proc.stderr
    assert "Turn 1 is resolved" in proc.stderr and "No space left on device" in proc.stderr
    assert "Do not resolve again" in proc.stderr and "pbem report" in proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    assert cli.export(started3)["turn"] == 2


def test_ctrl_c_while_the_report_prints_says_the_turn_is_resolved(cli, started3, monkeypatch):
    real_echo = pbem.cli.click.echo

    def interrupted(message=None, *args, **kwargs):
        if kwargs.get("err"):
            return real_echo(message, *args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(pbem.cli.click, "echo", interrupted)
    result = cli("resolve", started3, "--force", crash_ok=True)
    monkeypatch.undo()
    assert result.exit_code == 0
    assert "as it was before" not in result.output
    assert "Turn 1 is resolved" in result.output and "interrupted (Ctrl-C)" in result.output
    assert cli.export(started3)["turn"] == 2


def test_rollback_with_eio_on_the_sync_after_its_rename_says_it_rolled_back(cli, started3, monkeypatch):
    cli.ok("resolve", started3, "--force")
    cli.ok("resolve", started3, "--force")
    real_fsync_dir = pbem.store.fsync_dir

    def eio_after_the_rename(path):
        if "rolled-back" in str(path):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real_fsync_dir(path)

    monkeypatch.setattr(pbem.store, "fsync_dir", eio_after_the_rename)
    result = cli("rollback", started3, crash_ok=True)
    monkeypatch.undo()
    assert result.exit_code == 0, result.output
    assert "Turn 2 rolled back" in result.output
    assert "making that durable failed" in result.output and "Input/output error" in result.output
    assert cli.export(started3)["turn"] == 2  # one turn undone, not two


def test_rollback_that_fails_at_its_rename_says_so_and_nothing_was_done(cli, started3, monkeypatch):
    cli.ok("resolve", started3, "--force")
    monkeypatch.setattr(pbem.store.os, "rename", _fail)
    result = cli("rollback", started3, crash_ok=True)
    monkeypatch.undo()
    assert result.exit_code == 1 and "Error:" in result.output and "Done" not in result.output
    assert cli.export(started3)["turn"] == 2


def _fail(*args, **kwargs):
    raise OSError(errno.EIO, os.strerror(errno.EIO))


def test_resolve_with_eio_on_the_sync_after_its_rename_says_the_turn_is_resolved(cli, started3, monkeypatch):
    real_fsync_dir = pbem.store.fsync_dir

    def eio_after_the_rename(path):
        if os.path.basename(path) == "turns":
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real_fsync_dir(path)

    monkeypatch.setattr(pbem.store, "fsync_dir", eio_after_the_rename)
    result = cli("resolve", started3, "--force", crash_ok=True)
    monkeypatch.undo()
    assert result.exit_code == 0, result.output
    assert "Turn 1 resolved" in result.output and "making its folder durable failed" in result.output
    assert cli.export(started3)["turn"] == 2
