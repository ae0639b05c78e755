"""Issue 22, items 1 and 2: a GM's folder of campaigns (``campaigns/pbem.yaml`` shared,
each game's campaign.yaml overriding it key by key), and the commands over the folder
(status, fetch, tick, preview, send), one broken game never stopping the others."""

from __future__ import annotations

from pathlib import Path

import kit
import pytest
import yaml

from pbem.campaign import Campaign
from pbem.config import ConfigError, merge_settings

SHARED = {
    "gm": {"name": "Rita", "email": "rita@example.org"},
    "mail": {"auto_send": ["ack"], "acks_per_hour": 7},
    "deadline": {"timezone": "UTC", "every_days": 3, "at": "20:00", "remind_hours": 24},
}


def gm_folder(tmp_path: Path, names=("alpha", "bravo", "charlie"), shared=SHARED) -> Path:
    root = tmp_path / "campaigns"
    root.mkdir()
    if shared is not None:
        (root / "pbem.yaml").write_text(yaml.safe_dump(shared), encoding="utf-8")
    for name in names:
        kit.write_config(root / name, kit.config(3))
    return root


def start_all(root: Path, cli) -> None:
    for game in sorted(root.iterdir()):
        if (game / "campaign.yaml").exists():
            cli.ok("start", game)


def break_one(root: Path, name: str = "bravo") -> None:
    (root / name / "campaign.yaml").write_text("players: [oops\n", encoding="utf-8")


# -- item 1: the shared settings ----------------------------------------------------------------------


def test_a_game_inherits_the_shared_settings_and_overrides_them_key_by_key(tmp_path):
    root = gm_folder(tmp_path, names=("alpha",))
    kit.write_config(
        root / "bravo",
        kit.config(3, gm={"name": "Sam", "email": "sam@example.org"}, mail={"acks_per_hour": 2}),
    )
    alpha, bravo = Campaign(root / "alpha").config, Campaign(root / "bravo").config
    assert alpha.gm is not None and alpha.gm.email == "rita@example.org"
    assert alpha.extra["mail"] == {"auto_send": ["ack"], "acks_per_hour": 7}
    assert alpha.extra["deadline"]["every_days"] == 3
    assert bravo.gm is not None and bravo.gm.email == "sam@example.org"  # its own gm: wins
    # mail: merged key by key: its own acks_per_hour, the shared auto_send kept
    assert bravo.extra["mail"] == {"auto_send": ["ack"], "acks_per_hour": 2}


def test_merge_replaces_lists_and_values_and_merges_mappings():
    shared = {"mail": {"auto_send": ["ack", "report"], "smtp": {"host": "a", "port": 25}}, "x": 1}
    own = {"mail": {"auto_send": [], "smtp": {"port": 587}}, "x": 2}
    merged = merge_settings(shared, own)
    assert merged == {"mail": {"auto_send": [], "smtp": {"host": "a", "port": 587}}, "x": 2}
    assert shared["mail"]["smtp"] == {"host": "a", "port": 25}  # the shared data is not changed


def test_a_single_campaign_without_shared_settings_is_unchanged(tmp_path):
    kit.write_config(tmp_path / "solo", kit.config(3))
    config = Campaign(tmp_path / "solo").config
    assert config.gm is None and "mail" not in config.extra


@pytest.mark.parametrize(
    "shared, words",
    [
        ({"players": kit.PLAYERS3}, "players: belongs to one game"),
        ({"seed": 5}, "seed: belongs to one game"),
        ({"mail": {"acks_per_hour": 0}}, "mail.acks_per_hour"),
        ({"gm": "Rita"}, "gm:"),
        (["not", "a", "mapping"], "must be a mapping"),
    ],
)
def test_a_bad_shared_file_is_named_with_the_key(tmp_path, shared, words):
    root = gm_folder(tmp_path, names=("alpha",), shared=shared)
    with pytest.raises(ConfigError) as caught:
        Campaign(root / "alpha").config  # noqa: B018 - loading it is the test
    assert str(root / "pbem.yaml") in str(caught.value) and words in str(caught.value)


def test_the_shared_file_is_read_again_once_changed(tmp_path):
    root = gm_folder(tmp_path, names=("alpha",))
    assert Campaign(root / "alpha").config.gm.name == "Rita"
    (root / "pbem.yaml").write_text(
        yaml.safe_dump({"gm": {"name": "Olga", "email": "olga@example.org"}}) + "\n", encoding="utf-8"
    )
    assert Campaign(root / "alpha").config.gm.name == "Olga"


def test_replace_does_not_copy_the_shared_settings_into_campaign_yaml(tmp_path, cli):
    root = gm_folder(tmp_path, names=("alpha",))
    cli.ok("start", root / "alpha")
    cli.ok("replace", root / "alpha", "Arthur", "--email", "art@example.org")
    own = yaml.safe_load((root / "alpha" / "campaign.yaml").read_text(encoding="utf-8"))
    assert "gm" not in own and "mail" not in own and "deadline" not in own
    assert own["players"][[p["name"] for p in own["players"]].index("Arthur")]["email"] == "art@example.org"
    assert Campaign(root / "alpha").config.gm.name == "Rita"
