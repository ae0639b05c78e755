"""Shared fixtures for the campaign, config and CLI tests.

Fixtures only: the plain data helpers (players, decks, campaign.yaml writers)
are the module :mod:`kit`, imported as ``import kit`` (tests/ is on pytest's
``pythonpath``); never import from this module (the mail tests have a
conftest.py of their own, and both are imported as ``conftest``).

* ``cli``        -- runs ``pbem`` in-process through click's CliRunner.
* ``pbem_exe``   -- runs the installed ``pbem`` executable in a subprocess.
* ``snap``       -- a hash of every file and folder of a campaign, hidden ones too.
* ``campaign3`` / ``campaign4`` -- a folder holding a valid, not yet started
  campaign.yaml for 3 / 4 players (fixed seed, no fixed decks).
* ``started3`` / ``started4``   -- the same, started through the CLI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import Phase, settings
from kit import config, snapshot, write_config

from pbem import orders
from pbem.cli import main as pbem_main
from pbem.reader import policy, quotes

# -- mutation testing ---------------------------------------------------------------

# Under mutmut (README "Mutation testing"), which sets MUTANT_UNDER_TEST in every run it
# makes, a property test tries 10 fixed examples instead of 100 random ones and does
# not shrink a failure: a surviving mutant then costs a tenth of the fuzzing, and a
# killed one does not wait for the shrinker. The normal suite keeps Hypothesis' defaults.
settings.register_profile(
    "mutmut",
    max_examples=10,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
if "MUTANT_UNDER_TEST" in os.environ:
    settings.load_profile("mutmut")


@pytest.fixture(autouse=True)
def _fresh_policy_caches():
    """Under mutmut, each test starts with the reader's and the order parser's caches empty.

    mutmut forks every mutant's run from a process that ran the tests on the original
    code, so a header reading, a turn mail's index or a table's names remembered there
    would be handed to the mutant unread (its survivors were no survivors). The normal
    suite keeps the caches, as the reader does.
    """
    if os.environ.get("MUTANT_UNDER_TEST"):
        policy._DEFAULT_STR_CACHE.clear()
        policy._SIMPLE_MIME_CACHE.clear()
        policy._DEFAULT_HEADER_CLASSES.clear()
        quotes._form_intros.cache_clear()
        quotes._sent_index.cache_clear()
        orders._folded_names.cache_clear()
    yield


# -- running pbem -------------------------------------------------------------------


class Cli:
    """``pbem`` run in-process. Every call fails the test on an uncaught
    exception (a traceback is never a "clear message"), unless ``crash_ok``."""

    def __init__(self):
        self.runner = CliRunner()

    def __call__(self, *args, input: str | None = None, crash_ok: bool = False):
        result = self.runner.invoke(pbem_main, [str(a) for a in args], input=input)
        if not crash_ok and result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(
                f"pbem {' '.join(map(str, args))} crashed with {result.exception!r}\n{result.output}"
            ) from result.exception
        return result

    def ok(self, *args, input: str | None = None):
        result = self(*args, input=input)
        assert result.exit_code == 0, (
            f"pbem {' '.join(map(str, args))} exited {result.exit_code}:\n{result.output}"
        )
        return result

    def fails(self, *args, input: str | None = None):
        result = self(*args, input=input)
        assert result.exit_code != 0, f"pbem {' '.join(map(str, args))} should have failed:\n{result.output}"
        return result

    def export(self, folder) -> dict:
        return json.loads(self.ok("export", folder).stdout)

    def export_text(self, folder) -> str:
        return self.ok("export", folder).stdout

    def report(self, folder, turn: int | None = None, player: str | None = None) -> str:
        args = ["report", folder]
        if turn is not None:
            args += ["--turn", turn]
        if player is not None:
            args += ["--player", player]
        return self.ok(*args).stdout

    def all_reports(self, folder, turn: int, players: list[str]) -> dict[str, str]:
        out = {"public": self.report(folder, turn)}
        for name in players:
            out[name] = self.report(folder, turn, name)
        return out


def _pbem_command() -> list[str]:
    here = Path(sys.executable).parent / "pbem"
    if here.exists():
        return [str(here)]
    found = shutil.which("pbem")
    if found:
        return [found]
    return [sys.executable, "-m", "pbem"]  # pragma: no cover


class PbemExe:
    """The installed ``pbem`` executable, run as a real process."""

    command = _pbem_command()

    def __call__(self, *args, input: str | None = None, timeout: float = 60, **kwargs):
        return subprocess.run(
            self.command + [str(a) for a in args],
            input=input,
            text=True,
            capture_output=True,
            timeout=timeout,
            **kwargs,
        )

    def popen(self, *args, **kwargs):
        return subprocess.Popen(
            self.command + [str(a) for a in args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            **kwargs,
        )


# -- fixtures ----------------------------------------------------------------------


@pytest.fixture(scope="session")
def cli():
    return Cli()


@pytest.fixture(scope="session")
def pbem_exe():
    return PbemExe()


@pytest.fixture(scope="session")
def snap():
    """``snap(folder)``: see :func:`snapshot`."""
    return snapshot


@pytest.fixture
def campaign3(tmp_path) -> Path:
    folder = tmp_path / "game3"
    write_config(folder, config(3))
    return folder


@pytest.fixture
def campaign4(tmp_path) -> Path:
    folder = tmp_path / "game4"
    write_config(folder, config(4))
    return folder


@pytest.fixture
def started3(campaign3, cli) -> Path:
    cli.ok("start", campaign3)
    return campaign3


@pytest.fixture
def started4(campaign4, cli) -> Path:
    cli.ok("start", campaign4)
    return campaign4


@pytest.fixture
def threads_die_at_start(monkeypatch):
    """Every thread the tool starts ("pbem-...") ends before it runs a line, as one
    started under coverage's tracer in CI once did ("Cannot install a trace function
    while another trace function is being installed"). Other threads run."""
    import threading

    real_run = threading.Thread.run
    died: list[str] = []

    def run(self):
        if self.name.startswith("pbem-"):
            died.append(self.name)
            return
        real_run(self)

    monkeypatch.setattr(threading.Thread, "run", run)
    return died
