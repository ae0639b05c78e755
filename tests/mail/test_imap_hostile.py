"""Issue 18 item 12: a hostile IMAP server gets a sentence, never a traceback.

Before: a SELECT without UIDVALIDITY raised KeyError, ``UIDVALIDITY abc``
ValueError, and a literal announced as ``{99999999999}`` bytes MemoryError (imaplib
asked for 100 GB at once). A small lying server on loopback (hostile_imap.py)
tells each lie; `pbem fetch` runs in a child process under a memory limit and is
timed. Then an honest server: nothing the lies interrupted is lost.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_imap import FAULTS, PLACES, HostileImap
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.campaign import Campaign
from pbem.received import received_entries

ROOT = Path(__file__).resolve().parents[2]
MEMORY = 1024 * 2**20  # the fetch may map 1 GB (pbem itself takes about 100 MB)
SECONDS = 10

YAML = """\
title: Hostile game
gm: {name: Rita, email: gm@example.org}
players:
  - {name: Arthur, email: arthur@example.org}
  - {name: Bruno, email: bruno@example.org}
  - {name: Chloe, email: chloe@example.fr}
seed: 41
mail:
  imap: {host: 127.0.0.1, port: PORT, tls: false, user: gm, password_env: PBEM_HOSTILE_PW, timeout: 1}
"""

MESSAGES = [
    (
        f"From: {who}\r\nTo: gm@example.org\r\nSubject: [hostile] Turn 1\r\n"
        f"Message-ID: <h{i}@example.org>\r\nDate: Tue, 01 Dec 2026 09:00:00 +0000\r\n\r\nSTATUS\r\n"
    ).encode()
    for i, who in enumerate(["arthur@example.org", "bruno@example.org"])
]

# `pbem fetch` in a child process, its memory limited, reporting its result as JSON.
_CHILD = r"""
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[2]), int(sys.argv[2])))
sys.path.insert(0, sys.argv[1])
from click.testing import CliRunner
from pbem.cli import main
start = time.monotonic()
result = CliRunner().invoke(main, ["fetch", sys.argv[3]])
crash = None
if result.exception is not None and not isinstance(result.exception, SystemExit):
    crash = repr(result.exception)[:300]
print(json.dumps({"exit": result.exit_code, "crash": crash, "seconds": time.monotonic() - start,
                  "output": result.output[-500:]}))
"""


def _game(folder: Path, port: int) -> Path:
    if not folder.exists():
        folder.mkdir(parents=True)
        (folder / "campaign.yaml").write_text(YAML.replace("PORT", "143"), encoding="utf-8")
        Campaign(folder).start()
    (folder / "campaign.yaml").write_text(YAML.replace("PORT", str(port)), encoding="utf-8")
    return folder


def fetch_in_child(folder: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(ROOT), str(MEMORY), str(folder)],
        capture_output=True,
        text=True,
        timeout=SECONDS + 30,
        env={"PATH": "/usr/bin:/bin", "PBEM_HOSTILE_PW": "secret", "HOME": str(folder)},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.splitlines()[-1])


def assert_sentence(result: dict, faults) -> None:
    assert result["crash"] is None, f"{faults}: crashed with {result['crash']}"
    assert result["seconds"] < SECONDS, f"{faults}: took {result['seconds']:.1f} s"
    assert "Traceback" not in result["output"]
    if result["exit"] != 0:
        assert result["exit"] == 1 and "IMAP server 127.0.0.1:" in result["output"], result
        assert result["output"].startswith("Error: "), result


def recorded(folder: Path) -> list[str]:
    return sorted(e["message_id"] for e in received_entries(Campaign(folder)) if e["status"] == "recorded")


def test_an_honest_server_is_read(tmp_path, monkeypatch):
    """The lying server tells the truth when asked to: its lies are the only difference."""
    with HostileImap(MESSAGES) as server:
        result = fetch_in_child(_game(tmp_path / "hostile", server.port))
    assert result["exit"] == 0 and result["crash"] is None, result
    assert recorded(tmp_path / "hostile") == ["<h0@example.org>", "<h1@example.org>"]


@pytest.mark.parametrize(
    "place, fault",
    [
        ("SELECT", "no uidvalidity"),
        ("SELECT", "uidvalidity abc"),
        ("SELECT", "uidvalidity huge"),
        ("FETCH-HEADER", "huge literal"),
        ("FETCH-BODY", "huge literal"),
        ("greeting", "literal in greeting"),
    ],
)
def test_each_lie_the_issue_names_is_a_sentence(tmp_path, place, fault):
    folder = tmp_path / "hostile"
    with HostileImap(MESSAGES, {place: fault}) as server:
        result = fetch_in_child(_game(folder, server.port))
    assert_sentence(result, {place: fault})
    assert result["exit"] == 1, result
    if "uidvalidity" in fault:
        assert "UIDVALIDITY" in result["output"] or "not valid IMAP" in result["output"], result
    if "literal" in fault:
        assert "99,999,999,999 bytes" in result["output"], result["output"]
    assert recorded(folder) == []


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    faults=st.dictionaries(st.sampled_from(PLACES), st.sampled_from(sorted(FAULTS)), min_size=1, max_size=3)
)
def test_hostile_replies_get_a_sentence_and_lose_nothing(tmp_path_factory, faults):
    folder = tmp_path_factory.mktemp("hostile") / "hostile"
    with HostileImap(MESSAGES, faults) as server:
        result = fetch_in_child(_game(folder, server.port))
    assert_sentence(result, faults)
    with HostileImap(MESSAGES) as honest:  # the server mends its ways: nothing was lost
        after = fetch_in_child(_game(folder, honest.port))
    assert after["exit"] == 0 and after["crash"] is None, (faults, after)
    assert recorded(folder) == ["<h0@example.org>", "<h1@example.org>"], faults
