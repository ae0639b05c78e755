"""``python -m pbem`` is the same command line as the ``pbem`` script."""

from __future__ import annotations

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
