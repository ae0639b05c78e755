"""Issue 22, items 1 and 2: a GM's folder of campaigns (``campaigns/pbem.yaml`` shared,
each game's campaign.yaml overriding it key by key), and the commands over the folder
(status, fetch, tick, preview, send), one broken game never stopping the others."""

from __future__ import annotations

import json
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


# -- item 2: the commands over the folder --------------------------------------------------------------


def test_status_over_the_folder_is_one_table_and_names_the_broken_game(tmp_path, cli):
    root = gm_folder(tmp_path)
    start_all(root, cli)
    alpha_game = Campaign(root / "alpha")
    pos = alpha_game.position()
    seat = pos.players.index("Arthur")
    hands = pos.game.awaited()[seat]
    orders = [f"Hand {h}: {pos.game.hand(h).cards[seat][0].title} on Bruno, guess Priest" for h in hands]
    alpha_game.record_orders("Arthur", "\n".join(orders))
    break_one(root)
    result = cli.fails("status", root)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["GAME", "TURN", "DEADLINE", "ORDERS", "OWED", "MAIL", "DRAFTS"]
    alpha = next(line for line in lines if line.startswith("alpha "))
    charlie = next(line for line in lines if line.startswith("charlie "))
    bravo = next(line for line in lines if line.startswith("bravo "))
    assert "BROKEN" in bravo and "not valid YAML" in bravo and "campaign.yaml" in bravo
    for line in (alpha, charlie):
        assert " 1 " in line and "left)" in line  # turn 1, the shared deadline and its time left
        assert "Bruno" in line and "Charles" in line
        assert line.rstrip().endswith(" 6")  # the opening reports wait for review
    assert "Arthur" not in alpha and "Arthur 1,4" in charlie  # Arthur's orders are on file in alpha only
    assert "1 game(s) could not be read: bravo." in result.stderr


def test_status_json_over_the_folder(tmp_path, cli):
    root = gm_folder(tmp_path)
    start_all(root, cli)
    break_one(root, "charlie")
    result = cli.fails("status", root, "--json")
    games = json.loads(result.stdout)["games"]
    assert [g["campaign"] for g in games] == ["alpha", "bravo", "charlie"]
    assert "not valid YAML" in games[2]["error"]
    assert games[0]["turn"] == 1 and set(games[0]["missing"]) == {"Arthur", "Bruno", "Charles"}
    assert games[0]["deadline"]["left"] and games[0]["drafts"] == 6
    assert games[0]["uncertain"] == [] and games[0]["refused"] == []


def test_a_folder_without_campaign_yaml_nor_games_keeps_the_single_campaign_error(tmp_path, cli):
    (tmp_path / "empty").mkdir()
    result = cli.fails("status", tmp_path / "empty")
    assert "the game has not been started" in result.output and "Traceback" not in result.output


def mail(sender: str, tag: str, body: str) -> bytes:
    return (
        f"From: {sender}\r\nTo: rita@example.org\r\nSubject: [{tag}] orders\r\n"
        f"Message-ID: <{tag}-{sender.split('@')[0]}@example.org>\r\n"
        f"Date: Tue, 01 Dec 2026 10:00:00 +0000\r\n\r\n{body}\r\n"
    ).encode()


def deliver(game: Path, raw: bytes, name: str) -> None:
    new = game / "mail" / "inbox" / "new"
    new.mkdir(parents=True, exist_ok=True)
    (new / name).write_bytes(raw)


def test_fetch_over_the_folder_reads_each_games_maildir_and_goes_past_a_broken_one(tmp_path, cli):
    root = gm_folder(tmp_path)
    start_all(root, cli)
    deliver(root / "alpha", mail("arthur@example.org", "alpha", "STATUS"), "1.a")
    deliver(root / "charlie", mail("bruno@example.org", "charlie", "STATUS"), "1.c")
    break_one(root)
    result = cli.fails("fetch", root)
    out = result.stdout
    assert "[alpha] 1 new message(s)." in out and "[charlie] 1 new message(s)." in out
    assert "[bravo] FAILED:" in out and "not valid YAML" in out
    assert "1 game(s) not done: bravo." in result.stderr
    for game in ("alpha", "charlie"):
        assert list((root / game / "mail" / "inbox" / "new").iterdir()) == []  # read, filed as seen
    assert cli.ok("fetch", root / "alpha").stdout.startswith("No new messages.")


def test_tick_over_the_folder_runs_every_game_and_reports_the_broken_one(tmp_path, cli, monkeypatch):
    root = gm_folder(tmp_path)
    start_all(root, cli)
    deliver(root / "alpha", mail("arthur@example.org", "alpha", "STATUS"), "1.a")
    break_one(root)
    monkeypatch.setenv("PBEM_NOW", "2030-01-01T00:00:00+00:00")  # long after turn 1's deadline
    # A clock years past the deadline holds every game until the GM says it is right ...
    held = cli.fails("tick", root).stdout
    assert "Turn 1 resolved." not in held and "--trust-clock" in held
    assert "[alpha] 1 new message(s)" in held  # mail is still read while the clock is doubted
    assert Campaign(root / "alpha").position().game.turn == 1
    # ... and the GM's word goes to every game of the folder.
    result = cli.fails("tick", root, "--trust-clock")
    out = result.stdout
    assert "[alpha] Turn 1 resolved." in out and "[charlie] Turn 1 resolved." in out
    assert "[bravo] FAILED:" in out
    assert Campaign(root / "alpha").position().game.turn == 2
    assert Campaign(root / "charlie").position().game.turn == 2


def test_tick_over_a_healthy_folder_exits_0(tmp_path, cli):
    root = gm_folder(tmp_path, names=("alpha", "bravo"))
    start_all(root, cli)
    result = cli.ok("tick", root)
    assert "[alpha] 0 new message(s)" in result.stdout and "[bravo] 0 new message(s)" in result.stdout


def test_preview_over_the_folder_lists_every_games_drafts(tmp_path, cli):
    root = gm_folder(tmp_path, names=("alpha", "bravo"))
    start_all(root, cli)
    out = cli.ok("preview", root).stdout
    assert "[alpha] 6 draft(s)." in out and "[bravo] 6 draft(s)." in out
    assert cli.fails("preview", root, "t000-public").exit_code == 2  # a draft is named in its game


def test_send_over_the_folder_reports_each_failure_and_goes_on(tmp_path, cli):
    """No SMTP server: every game's send fails with its reason, none stops the loop."""
    root = gm_folder(tmp_path, names=("alpha", "bravo"))
    start_all(root, cli)
    result = cli.fails("send", root)
    assert result.exit_code == 1
    assert "[alpha] FAILED:" in result.stdout and "[bravo] FAILED:" in result.stdout
    assert "no mail.smtp section" in result.stdout


def test_status_over_the_folder_writes_nothing(tmp_path, cli, snap):
    root = gm_folder(tmp_path, names=("alpha", "bravo"))
    start_all(root, cli)
    before = snap(root)
    cli.ok("status", root)
    cli.ok("status", root, "--json")
    assert snap(root) == before


def test_a_second_tick_over_the_folder_while_one_runs_does_nothing_and_says_so(tmp_path, cli):
    """cron starts a tick while the last one still runs (a slow server): the second
    touches no game and exits 0 with one line, as a single game's tick does; the
    fetch ledger of a shared account is never fought over, so no game is reported
    FAILED and cron mails the GM nothing."""
    import subprocess
    import sys

    from pbem.gmfolder import ticking

    root = gm_folder(tmp_path, names=("alpha", "bravo"))
    start_all(root, cli)
    deliver(root / "alpha", mail("arthur@example.org", "alpha", "STATUS"), "1.a")
    with ticking(root) as first:
        assert first
        second = subprocess.run(
            [sys.executable, "-m", "pbem", "tick", str(root)], capture_output=True, text=True, check=False
        )
        assert second.returncode == 0, second.stderr
        assert second.stdout == "Another tick is running over this folder; nothing done.\n"
        assert list((root / "alpha" / "mail" / "inbox" / "new").iterdir())  # not read
        with ticking(root) as again:
            assert not again
    out = cli.ok("tick", root).stdout  # the first one done: the next tick runs
    assert "[alpha] 1 new message(s)" in out
