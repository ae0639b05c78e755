"""The example campaigns stay clean in a checkout (issue 11, item 11): the
README's first commands run on a copy that `pbem copy` makes, so trying the
tool leaves every tracked file as it was. Every campaign under campaigns/ is
checked, not only campaigns/example."""

from __future__ import annotations

import importlib.util
import json
import shutil
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


def test_the_readme_shows_the_example_mail_and_card_reference_as_they_are(cli):
    """The player's page quotes Bruno's private mail of the example and the card
    reference: both must match what the tool writes, line for line."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    page = readme[readme.index("## For players") : readme.index("## Orders, for players")]
    mail_block, cards_block = [b.split("\n", 1)[1] for b in page.split("```text")[1:]]
    mail_block, cards_block = mail_block.split("```")[0], cards_block.split("```")[0]
    mail = (
        REPO / "campaigns" / "example" / "turns" / "turn-002" / "reports" / "private-Bruno.txt"
    ).read_text(encoding="utf-8")
    for line in mail_block.splitlines():
        if line.strip() != "...":
            assert line in mail.splitlines(), line
    assert cards_block.strip() == cli.ok("rules", "--cards").output.strip()


def _make_example():
    """campaigns/make_example.py, loaded as a module (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("make_example", REPO / "campaigns" / "make_example.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "name, recipe, players, variant_holds",
    [
        ("example", "CAMPAIGN_YAML", 4, lambda hand: "face_up" not in hand and "marked" not in hand),
        ("duel", "DUEL_YAML", 2, lambda hand: len(hand["face_up"]) == 3),  # RULES 9
        ("premium", "PREMIUM_YAML", 6, lambda hand: "marked" in hand),  # RULES 10.4
    ],
)
def test_each_example_is_what_its_script_builds_and_resolves(
    cli, tmp_path, name, recipe, players, variant_holds
):
    """The committed example is exactly what campaigns/make_example.py builds (nobody
    edited it by hand), and its awaited turn resolves right after install."""
    make_example = _make_example()
    shipped = make_example.HERE / name
    rebuilt = make_example.build(name, getattr(make_example, recipe), base=tmp_path)
    assert cli.export(rebuilt) == cli.export(shipped)
    names = cli.export(shipped)["players"]
    for turn in (0, 1, 2):  # the private mails too: what a player knows is carried from turn to turn
        assert cli.all_reports(rebuilt, turn, names) == cli.all_reports(shipped, turn, names)
    events = sorted(p.relative_to(shipped) for p in shipped.glob("turns/turn-*/events.json"))
    assert events == sorted(p.relative_to(rebuilt) for p in rebuilt.glob("turns/turn-*/events.json"))
    for path in events:  # the events too: the site is built from them
        assert json.loads((rebuilt / path).read_bytes()) == json.loads((shipped / path).read_bytes()), path
    copy = tmp_path / "copy" / name
    shutil.copytree(shipped, copy)
    cli.ok("resolve", copy)
    data = cli.export(copy)
    assert data["turn"] == 4 and len(data["players"]) == players
    assert all(variant_holds(hand) for hand in data["hands"])
