"""``python -m pbem`` is the same command line as the ``pbem`` script."""

from __future__ import annotations

import json
import subprocess
import sys


def test_python_m_pbem_prints_the_commands():
    done = subprocess.run(
        [sys.executable, "-m", "pbem", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: pbem ")
    for command in ("resolve", "fetch", "send", "verify"):
        assert command in done.stdout


def test_python_m_pbem_keeps_the_exit_status_of_a_mistyped_command():
    done = subprocess.run(
        [sys.executable, "-m", "pbem", "no-such-command"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "No such command" in done.stderr


def test_the_quick_exit_loses_no_output_and_keeps_every_exit_status(tmp_path, pbem_exe, started3):
    """`pbem` ends with gc.freeze() (pbem.cli.run): a large output through a
    pipe arrives whole, and the exit statuses are the commands' own."""
    export = pbem_exe("export", started3)
    assert export.returncode == 0, export.stderr
    assert json.loads(export.stdout)["turn"] == 1  # the whole document, to its last brace
    missing = pbem_exe("resolve", started3)
    assert missing.returncode == 3 and "orders are missing" in missing.stderr, missing.stderr
    nothing = pbem_exe("status", tmp_path / "none")
    assert nothing.returncode != 0 and "Traceback" not in nothing.stderr
