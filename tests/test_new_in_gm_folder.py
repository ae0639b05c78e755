"""Issue 24 item 1, last part: `pbem new` inside a GM's folder of campaigns takes the
folder's defaults (``campaigns/pbem.yaml``): the GM and the deadline settings are
inherited, not copied, so the opening mails state the first deadline, and a setting
given to `pbem new` itself wins over the folder's."""

from __future__ import annotations

from pathlib import Path

import yaml

from pbem.campaign import Campaign

PLAYERS = ("Ann <ann@example.org>", "Bob <bob@example.org>", "Cy <cy@example.org>")
SHARED = {
    "gm": {"name": "Rita", "email": "rita@example.org"},
    "deadline": {"timezone": "Europe/Berlin", "every_days": 2, "at": "20:00"},
}


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "campaigns"
    root.mkdir()
    (root / "pbem.yaml").write_text(yaml.safe_dump(SHARED), encoding="utf-8")
    return root


def _new(cli, folder: Path, *extra: str) -> str:
    args = ["new", str(folder), "--seed", "7"]
    for player in PLAYERS:
        args += ["--player", player]
    return cli.ok(*args, *extra).output


def test_pbem_new_in_a_gm_folder_states_the_folders_deadline_in_the_opening_mails(tmp_path, cli):
    game = _folder(tmp_path) / "game1"
    out = _new(cli, game)
    assert "Turn 1's deadline:" in out and "Europe/Berlin" in out
    reports = game / "turns" / "turn-000" / "reports"
    public = (reports / "public.txt").read_text(encoding="utf-8")
    assert "due by" in public and "Europe/Berlin" in public
    for name in ("Ann", "Bob", "Cy"):
        private = (reports / f"private-{name}.txt").read_text(encoding="utf-8")
        assert "Orders are due by" in private and "20:00 Europe/Berlin" in private
    # Inherited, not copied: a later change to pbem.yaml reaches the game.
    written = yaml.safe_load((game / "campaign.yaml").read_text(encoding="utf-8"))
    assert "deadline" not in written and "gm" not in written
    config = Campaign(game).config
    assert config.gm is not None and config.gm.email == "rita@example.org"


def test_a_setting_given_to_pbem_new_wins_over_the_folders(tmp_path, cli):
    game = _folder(tmp_path) / "game2"
    out = _new(cli, game, "--timezone", "UTC", "--every-days", "3", "--gm", "Sam <sam@example.org>")
    assert "UTC" in out and "Europe/Berlin" not in out
    config = Campaign(game).config
    assert config.gm is not None and config.gm.email == "sam@example.org"
    assert config.extra["deadline"]["every_days"] == 3


def test_pbem_new_outside_a_gm_folder_has_no_deadline_unless_given(tmp_path, cli):
    game = tmp_path / "alone"
    out = _new(cli, game)
    assert "deadline" not in out.lower()
    public = (game / "turns" / "turn-000" / "reports" / "public.txt").read_text(encoding="utf-8")
    assert "due by" not in public
