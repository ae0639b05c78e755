"""The proxy in a campaign (issue 24, item 4): ``nmr: proxy`` plays every
missing order; ``PROXY ON`` / ``PROXY OFF`` (by `pbem order`, as by mail) let it
play one player's missing orders from then on, unless ``proxy: false``; the
public report marks its plays with the word "proxy"; the NMR default stays the
default, and stays exact."""

from __future__ import annotations

import json

import kit
import pytest

from pbem.campaign import Campaign
from pbem.config import ConfigError, parse_config


def _campaign(tmp_path, **extra) -> Campaign:
    folder = tmp_path / "game3"
    kit.write_config(folder, kit.config(3, **extra))
    game = Campaign(folder)
    game.start()
    return game


def _active(game: Campaign) -> dict[str, list[int]]:
    return game.missing_orders()


def _report_lines(report: str, word: str) -> list[str]:
    return [line for line in report.splitlines() if word in line]


def test_nmr_proxy_plays_every_missing_order_and_the_report_says_proxy(tmp_path):
    game = _campaign(tmp_path, nmr="proxy")
    assert game.record_orders("Bruno", "PROXY OFF").proxy == "everyone"  # nmr: proxy stands
    missing = _active(game)
    result = game.resolve(force=True)
    assert result.defaults == {}
    assert result.proxied == missing
    marked = _report_lines(result.public_report, "played for")
    assert len(marked) == sum(len(h) for h in missing.values())
    assert all("by the proxy" in line for line in marked), marked
    records = json.loads((game.store.turn_dir(1) / "orders.json").read_text())
    assert {r["status"] for r in records.values()} == {"proxy"}
    assert all(r["engine"]["card"] for r in records.values())


def test_the_nmr_default_stays_the_default_and_exact(tmp_path):
    plain = _campaign(tmp_path / "a")
    result = plain.resolve(force=True)
    assert result.proxied == {}
    assert "by the proxy" not in result.public_report
    assert "by the default rules" in result.public_report
    # The same campaign with proxy: true (allowed, nobody asked) resolves byte for byte alike.
    allowed = _campaign(tmp_path / "b", proxy=True)
    assert allowed.resolve(force=True).public_report == result.public_report


def test_proxy_on_then_off_through_the_order_book(tmp_path):
    game = _campaign(tmp_path)
    receipt = game.record_orders("Bruno", "PROXY ON")
    assert receipt.proxy == "on"
    assert receipt.ignored == []  # the keyword is not "a line that was not an order"
    missing = _active(game)
    result = game.resolve(force=True)
    assert result.proxied == {"Bruno": missing["Bruno"]} if "Bruno" in missing else result.proxied == {}
    for name in missing:
        if name != "Bruno":
            assert result.defaults[name] == missing[name]
    # From then on: the next turn too, without asking again.
    missing = _active(game)
    result = game.resolve(force=True)
    if "Bruno" in missing:
        assert result.proxied == {"Bruno": missing["Bruno"]}
        assert any("played for Bruno by the proxy" in line for line in result.public_report.splitlines())
    receipt = game.record_orders("Bruno", "proxy off")
    assert receipt.proxy == "off"
    result = game.resolve(force=True)
    assert result.proxied == {}
    assert "by the proxy" not in result.public_report


def test_proxy_on_plays_bruno_in_the_first_turn_he_is_active(tmp_path):
    game = _campaign(tmp_path)
    game.record_orders("Bruno", "PROXY ON")
    for _ in range(3):
        missing = _active(game)
        result = game.resolve(force=True)
        if "Bruno" in missing:
            assert result.proxied == {"Bruno": missing["Bruno"]}
            assert "Bruno" not in result.defaults
            lines = _report_lines(result.public_report, "played for Bruno")
            assert lines and all("by the proxy" in line for line in lines)
            return
    pytest.fail("Bruno was never active in three turns")


def test_an_order_sent_beats_the_proxy(tmp_path):
    game = _campaign(tmp_path, nmr="proxy")
    missing = _active(game)
    name, hands = next(iter(missing.items()))
    hand = next(h for h in game.export()["hands"] if h["hand"] == hands[0])
    held = hand["players"][name]["cards"]
    card = "Countess" if "Countess" in held else held[0]
    other = next(n for n, p in hand["players"].items() if p["in"] and n != name)
    line = f"Hand {hands[0]}: {card}"
    if card in ("Guard", "Spy", "Baron", "King", "Prince"):
        line += f" on {other}"
    if card == "Guard":
        line += ", guess Princess"
    assert game.record_orders(name, line).checked[0].status == "accepted"
    result = game.resolve(force=True)
    assert hands[0] not in result.proxied.get(name, [])
    records = json.loads((game.store.turn_dir(1) / "orders.json").read_text())
    assert records[str(hands[0])]["status"] == "accepted"


def test_proxy_false_refuses_proxy_on(tmp_path):
    game = _campaign(tmp_path, proxy=False)
    receipt = game.record_orders("Bruno", "PROXY ON")
    assert receipt.proxy == "refused"
    result = game.resolve(force=True)
    assert result.proxied == {}
    assert not (game.folder / "proxy.json").exists()


def test_the_two_settings_are_checked():
    base = "title: t\nseed: 1\nplayers:\n" + "".join(
        f"  - {{name: {n}, email: {n.lower()}@example.org}}\n" for n in ("Arthur", "Bruno", "Charles")
    )
    with pytest.raises(ConfigError, match="nmr: .*default .*proxy"):
        parse_config(base + "nmr: robot\n")
    with pytest.raises(ConfigError, match="proxy: true or false"):
        parse_config(base + "proxy: maybe\n")
    with pytest.raises(ConfigError, match="proxy: false forbids it"):
        parse_config(base + "nmr: proxy\nproxy: false\n")
    assert parse_config(base + "nmr: proxy\n").extra["nmr"] == "proxy"


def test_a_replaced_player_keeps_the_seats_proxy(tmp_path):
    game = _campaign(tmp_path)
    game.record_orders("Bruno", "PROXY ON")
    game.replace_player("Bruno", "Bettina", "bettina@example.org")
    assert game.proxied() == {"Bettina"}


def test_a_reminder_says_who_will_play_the_missing_hands(tmp_path):
    from email import message_from_bytes
    from email.policy import default

    from pbem.tick import remind

    game = _campaign(tmp_path)
    game.record_orders("Bruno", "PROXY ON")
    bodies = {}
    for draft in remind(game):
        raw = (game.folder / "mail" / "outbox" / f"{draft}.eml").read_bytes()
        msg = message_from_bytes(raw, policy=default)
        bodies[msg["To"].addresses[0].display_name] = msg.get_content()
    assert "Bruno" in bodies and len(bodies) == 3  # every player is first in some hand of turn 1
    for name, body in bodies.items():
        if name == "Bruno":
            assert "played for you by the proxy, as you would play" in body, body
        else:
            assert "played for you by the default rules" in body, body


def test_status_names_the_players_the_proxy_plays_for(tmp_path, cli):
    game = _campaign(tmp_path)
    assert game.status()["proxy"] == []
    cli.ok("order", game.folder, "--player", "Bruno", "PROXY ON")
    out = cli.ok("status", game.folder).output
    assert "The proxy plays the missing orders of: Bruno." in out, out
    info = json.loads(cli.ok("status", game.folder, "--json").output)
    assert info["proxy"] == ["Bruno"]


def test_pbem_order_says_what_proxy_off_and_a_refusal_did(tmp_path, cli):
    game = _campaign(tmp_path)
    out = cli.ok("order", game.folder, "--player", "Bruno", "proxy off").output
    assert "PROXY OFF: Bruno's missing orders are played by the NMR defaults again" in out, out
    closed = _campaign(tmp_path / "closed", proxy=False)
    out = cli.fails("order", closed.folder, "--player", "Bruno", "PROXY ON").output
    assert "this campaign does not use the proxy (proxy: false)" in out, out


@pytest.mark.parametrize("players", [2, 3, 4])  # Premium games do not verify yet, proxy or not
def test_a_game_the_proxy_played_to_the_end_verifies(tmp_path, cli, players):
    names = ["Arthur", "Bruno", "Charles", "Diane", "Elena", "Farid"][:players]
    people = [{"name": n, "email": f"{n.lower()}@example.org"} for n in names]
    folder = tmp_path / "whole"
    kit.write_config(folder, kit.config(people, nmr="proxy"))
    game = Campaign(folder)
    game.start()
    while not game.position().game.finished:
        result = game.resolve(force=True)
        assert result.defaults == {}
    final, opening = tmp_path / "final.txt", tmp_path / "opening.txt"
    final.write_text(game.report(), encoding="utf-8")
    opening.write_text(game.report(0), encoding="utf-8")
    assert "by the proxy" in game.report(1)
    assert cli.ok("verify", final, "--opening", opening).output.startswith("VERIFIED: ")
