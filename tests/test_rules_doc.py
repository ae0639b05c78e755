"""The rules ship with the project (issue 11, item 3): docs/RULES.md and
docs/INTERFACE.md in the repository, `pbem rules` printing them from a checkout
and from an installed copy, and no pointer to files outside the repository."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_rules_and_interface_are_in_the_repository_with_every_section():
    rules = (REPO / "docs" / "RULES.md").read_text(encoding="utf-8")
    for number in range(1, 11):
        assert re.search(rf"^## {number}\. ", rules, re.M), f"section {number} missing"
    for sub in ("10.1", "10.2", "10.3", "10.4"):
        assert f"### {sub} " in rules
    # the decisions the code cites by number are there
    for words in (
        "Two players",
        "face up",
        "7 tokens",
        "Premium",
        "Assassin",
        "Sycophant",
        "Bishop",
        "9.5",
        "no valid order",
    ):
        assert words in rules, words
    interface = (REPO / "docs" / "INTERFACE.md").read_text(encoding="utf-8")
    for words in (
        "pbem export",
        "face_up",
        "marked",
        "Order lines",
        "Hand 3: Guard on Charles, guess Prince",
    ):
        assert words in interface, words


def test_no_pointer_outside_the_repository():
    texts = [REPO / "README.md", *(REPO / "pbem").rglob("*.py"), *(REPO / "docs").glob("*.md")]
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert "shared notes" not in text and "/work/" not in text and "seeds/" not in text, path
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "(docs/RULES.md)" in readme and "(docs/INTERFACE.md)" in readme


def test_pbem_rules_prints_the_rules_and_the_card_reference(cli):
    out = cli.ok("rules").output
    assert out.startswith("# The rules pbem plays by")
    assert "## 10. Five to eight players" in out
    assert re.search(r"^  1 Guard +x5  ", out, re.M)
    cards = cli.ok("rules", "--cards").output
    assert len(cards.strip().splitlines()) == 8 and "# The rules" not in cards


def test_an_installed_pbem_prints_the_rules(tmp_path):
    """Laid out as pyproject.toml installs it (pbem/, pbem/templates, pbem/docs),
    away from the checkout: `pbem rules` still finds the text."""
    setup = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert setup["package-dir"]["pbem.docs"] == "docs" and "pbem.docs" in setup["packages"]
    assert setup["package-data"]["pbem.docs"] == ["*.md"]
    site = tmp_path / "site"
    shutil.copytree(REPO / "pbem", site / "pbem", ignore=shutil.ignore_patterns("__pycache__"))
    for package, folder in setup["package-dir"].items():
        if package != "pbem":
            target = site / package.replace(".", "/")
            target.mkdir(parents=True, exist_ok=True)
            for pattern in setup["package-data"].get(package, []):
                for f in (REPO / folder).glob(pattern):
                    shutil.copy(f, target / f.name)
    done = subprocess.run(
        [sys.executable, "-c", "from pbem.cli import main; main()", "rules"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# The rules pbem plays by") and "x5  name another player" in done.stdout
