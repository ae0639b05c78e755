"""The example campaigns stay clean in a checkout (issue 11, item 11): the
README's first commands run on a copy that `pbem copy` makes, so trying the
tool leaves every tracked file as it was. Every campaign under campaigns/ is
checked, not only campaigns/example."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p.parent for p in (REPO / "campaigns").glob("*/campaign.yaml"))


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_trying_an_example_leaves_it_unchanged(cli, snap, tmp_path, example):
    before = snap(example)
    copy = tmp_path / example.name
    cli.ok("copy", example, copy)
    cli.ok("status", copy)
    cli.ok("resolve", copy, "--force")
    cli.ok("report", copy)
    cli.ok("rollback", copy)
    assert snap(example) == before
    assert (copy / "campaign.yaml").read_bytes() == (example / "campaign.yaml").read_bytes()


def test_the_readme_commands_keep_git_status_clean(cli, tmp_path):
    """The README's first command, as written there, in a checkout: `git status`
    shows nothing new under campaigns/ afterwards."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pbem copy campaigns/example " in readme
    status = ["git", "-C", str(REPO), "status", "--porcelain", "--", "campaigns"]
    before = subprocess.run(status, capture_output=True, text=True, check=True).stdout
    copy = tmp_path / "example"
    cli.ok("copy", REPO / "campaigns" / "example", copy)
    cli.ok("resolve", copy)  # the example has every order of its turn on file: no --force needed
    after = subprocess.run(status, capture_output=True, text=True, check=True).stdout
    assert after == before


def test_copy_refuses_and_writes_nothing(cli, tmp_path, started3):
    taken = tmp_path / "taken"
    taken.mkdir()
    result = cli.fails("copy", started3, taken)
    assert "exists already" in result.output and list(taken.iterdir()) == []
    result = cli.fails("copy", tmp_path / "nowhere", tmp_path / "dest")
    assert "not a campaign folder" in result.output and not (tmp_path / "dest").exists()
    result = cli.fails("copy", started3, tmp_path / "bad name")
    assert "use only letters" in result.output and not (tmp_path / "bad name").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
