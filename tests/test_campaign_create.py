"""Issue 9.6: `pbem new` is a thin call of Campaign.create (seats shuffled with
the seed, a seed drawn when none is given, campaign.yaml written atomically),
and the CLI's exit statuses are data on the errors, mapped in one place."""

from __future__ import annotations

import inspect

import pytest
import yaml

from pbem import cli as pbem_cli
from pbem.campaign import Campaign, GameError, MissingOrders
from pbem.config import ConfigError
from pbem.engine import seat_order
from pbem.store import StoreError

PEOPLE = [
    {"name": "Arthur", "email": "arthur@example.org"},
    {"name": "Bruno", "email": "bruno@example.org"},
    {"name": "Charles", "email": "charles@example.org"},
]


def test_create_seats_the_players_by_the_seed_and_writes_campaign_yaml_whole(tmp_path):
    game = Campaign.create(tmp_path / "game7", PEOPLE, seed="abc123", title="Test", gm=PEOPLE[0])
    data = yaml.safe_load(game.store.campaign_file.read_text(encoding="utf-8"))
    assert [p["name"] for p in data["players"]] == seat_order("abc123", ["Arthur", "Bruno", "Charles"])
    assert data["seed"] == "abc123" and data["title"] == "Test" and data["gm"]["name"] == "Arthur"
    assert sorted(p.name for p in game.folder.iterdir()) == ["campaign.yaml"]  # no temporary file left
    assert not game.started()  # created, not started: start() deals
    game.start()
    assert game.started()


def test_create_draws_a_128_bit_seed_when_none_is_given(tmp_path):
    one = Campaign.create(tmp_path / "one", PEOPLE)
    two = Campaign.create(tmp_path / "two", PEOPLE)
    assert len(str(one.config.seed)) == 32 and one.config.seed != two.config.seed


def test_create_refuses_an_existing_or_started_campaign_and_writes_nothing_on_bad_input(tmp_path):
    folder = tmp_path / "game7"
    Campaign.create(folder, PEOPLE, seed="1")
    before = folder.joinpath("campaign.yaml").read_bytes()
    with pytest.raises(GameError, match="exists already; use `pbem start"):
        Campaign.create(folder, PEOPLE, seed="2")
    Campaign(folder).start()
    with pytest.raises(GameError, match="has already started"):
        Campaign.create(folder, PEOPLE, seed="2")
    assert folder.joinpath("campaign.yaml").read_bytes() == before
    with pytest.raises(GameError, match="two players have the same name"):
        Campaign.create(tmp_path / "twice", PEOPLE + PEOPLE[:1])
    with pytest.raises(ConfigError):
        Campaign.create(tmp_path / "bad", [{"name": "Arthur", "email": "not an address"}] + PEOPLE[1:])
    with pytest.raises(GameError, match="tag in mail subjects"):
        Campaign.create(tmp_path / "a b", PEOPLE)
    assert not (tmp_path / "twice").exists() and not (tmp_path / "bad").exists()
    assert not (tmp_path / "a b").exists()


def test_each_error_carries_its_exit_status():
    assert GameError.exit_code == 1 and ConfigError.exit_code == 1 and StoreError.exit_code == 1
    assert MissingOrders.exit_code == 3
    assert pbem_cli.Unfinished().exit_code == 1


def test_no_command_exits_by_itself():
    """The one place that maps errors to statuses is cli._explain_errors."""
    source = inspect.getsource(pbem_cli)
    assert "sys.exit" not in source and "_guard" not in source


def test_resolve_with_orders_missing_exits_3_and_an_unrecorded_mail_exits_1(cli, started3, tmp_path):
    result = cli("resolve", started3)
    assert result.exit_code == 3 and "orders are missing" in result.output
    result = cli("order", started3, "--player", "Bruno", "Hand 1: Fireball")
    assert result.exit_code == 1 and "Error: nothing was recorded" in result.output
