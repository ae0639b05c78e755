"""The GM's console: papercuts found in a real game (issue 11, item 10), each
with the test that reproduces it."""

from __future__ import annotations

import json
import os
import subprocess
from email.message import EmailMessage
from pathlib import Path

import kit

from pbem.campaign import Campaign


def _maildir_drop(folder: Path, sender: str, body: str, name: str) -> None:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "gm@example.org"
    msg["Subject"] = f"Re: [{folder.name}] Turn 1: your cards and orders"
    msg["Message-ID"] = f"<{name}@example.org>"
    msg.set_content(body)
    new = folder / "mail" / "inbox" / "new"
    new.mkdir(parents=True, exist_ok=True)
    (new / f"{name}.eml").write_bytes(bytes(msg))


def test_order_exits_non_zero_when_every_order_was_rejected(cli, started3):
    data = cli.export(started3)
    hand = next(h for h in data["hands"] if h["active"] == "Arthur")
    held = set(hand["players"]["Arthur"]["cards"])
    missing = next(c for c in ("Princess", "Countess", "King", "Prince", "Baron") if c not in held)
    result = cli("order", started3, "--player", "Arthur", f"Hand {hand['hand']}: {missing}")
    assert result.exit_code == 1
    assert "rejected" in result.output and "nothing was recorded" in result.output
    result = cli("order", started3, "--player", "Arthur", "hello, no orders here")
    assert result.exit_code == 1 and "no order could be read" in result.output
    # one accepted among rejected ones: recorded, exit 0 (INTERFACE.md)
    ok = f"Hand {hand['hand']}: {sorted(held)[0]} on Bruno, guess Prince"
    cli.ok("order", started3, "--player", "Arthur", f"{ok}\nHand 99: Guard")


def test_status_json_names_the_last_turn_of_a_finished_game(cli, started3):
    campaign = Campaign(started3)
    while not campaign.position().game.finished:
        campaign.resolve(force=True)
    last = campaign.position().turn_on_file
    info = json.loads(cli.ok("status", started3, "--json").stdout)
    assert info["finished"] and info["turn"] == last


def test_send_without_smtp_prints_only_the_error(cli, started3):
    result = cli("send", started3)
    assert result.exit_code == 1
    assert "Sending" not in result.output
    assert "no mail.smtp section" in result.output


def test_new_on_a_started_campaign_does_not_suggest_start(cli, started3):
    result = cli.fails(
        "new",
        started3,
        "--player",
        "A <a@example.org>",
        "--player",
        "B <b@example.org>",
        "--player",
        "C <c@example.org>",
    )
    assert "already started" in result.output and "pbem start" not in result.output
    cli.fails("start", started3)  # what `new` used to suggest: refused


def test_new_campaign_not_started_still_points_to_start(cli, tmp_path):
    folder = tmp_path / "fresh"
    kit.write_config(folder, kit.config(3))
    result = cli.fails(
        "new",
        folder,
        "--player",
        "A <a@example.org>",
        "--player",
        "B <b@example.org>",
        "--player",
        "C <c@example.org>",
    )
    assert f"pbem start {folder}" in result.output


def test_a_folder_name_too_long_is_told_its_length(cli, tmp_path):
    folder = tmp_path / ("g" * 41)
    result = cli.fails(
        "new",
        folder,
        "--player",
        "A <a@example.org>",
        "--player",
        "B <b@example.org>",
        "--player",
        "C <c@example.org>",
    )
    assert "41 characters long, at most 40" in result.output
    assert "use only letters" not in result.output
    assert not folder.exists()
    result = cli.fails("new", tmp_path / "bad name", "--player", "A <a@example.org>")
    assert "use only letters" in result.output


def test_refused_messages_are_listed_until_seen_then_counted(cli, started3):
    _maildir_drop(started3, "stranger@example.net", "Hand 1: Guard on Bruno", "m1")
    cli.ok("fetch", started3)
    first = cli.ok("status", started3).output
    assert "Messages refused (1 new)" in first and "stranger@example.net" in first
    assert "--seen" in first
    assert "stranger@example.net" in cli.ok("status", started3).output  # still listed: not acknowledged
    cli.ok("status", started3, "--seen")
    after = cli.ok("status", started3).output
    assert "stranger@example.net" not in after
    assert "Messages refused earlier, already seen: 1" in after
    _maildir_drop(started3, "other@example.net", "Hand 1: Guard on Bruno", "m2")
    cli.ok("fetch", started3)
    again = cli.ok("status", started3).output
    assert "Messages refused (1 new)" in again and "other@example.net" in again
    assert "stranger@example.net" not in again
    assert len(json.loads(cli.ok("status", started3, "--json").stdout)["refused"]) == 2  # the JSON keeps all


def test_fetch_does_not_count_a_status_mail_as_orders(cli, started3):
    _maildir_drop(started3, "arthur@example.org", "STATUS", "m1")
    out = cli.ok("fetch", started3).output
    assert "0 with orders recorded" in out
    assert "1 answered without orders recorded" in out


def test_preview_into_a_closed_pipe_ends_quietly(pbem_exe, started3):
    read, write = os.pipe()
    os.close(read)  # like `| head` that has already exited
    try:
        done = subprocess.run(
            pbem_exe.command + ["preview", str(started3)],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write)
    assert done.returncode == 0, done.stderr
    assert "Broken pipe" not in done.stderr and "Error" not in done.stderr and "Traceback" not in done.stderr


def test_pbem_order_suggests_the_name_meant(cli, started3):
    data = cli.export(started3)
    hand, card = next(
        (h, c)
        for h in data["hands"]
        if h["active"] == "Arthur"
        for c in h["players"]["Arthur"]["cards"]
        if c in ("Guard", "Spy", "Baron") and "Countess" not in h["players"]["Arthur"]["cards"]
    )
    out = cli.ok("order", started3, "--player", "Arthur", f"Hand {hand['hand']}: {card} on Brunoo").output
    assert '"Brunoo" names no player (did you mean Bruno?)' in out
