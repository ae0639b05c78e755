"""The `pbem` commands as GMs script them (INTERFACE.md, "Commands"): `new`,
`order`, `report`, `status`, and a few end-to-end runs of the real executable."""

from __future__ import annotations

import json
import re

import kit
import pytest
import yaml
from builders import B, C, G, H, K, P, S, X

CARD_RE = re.compile(r"\b(Guard|Spy|Baron|Handmaid|Prince|King|Countess|Princess)\b")
PEOPLE = [
    "Arthur <arthur@example.org>",
    "Bruno <bruno@example.org>",
    "Charles <charles@example.org>",
    "Diane <diane@example.org>",
]


def _new_args(folder, n=4, seed=None, decks=None):
    args = ["new", folder]
    for person in PEOPLE[:n]:
        args += ["--player", person]
    if seed is not None:
        args += ["--seed", seed]
    if decks is not None:
        args += ["--decks", decks]
    return args


_line = kit.ack_line  # the acknowledgement's line for a hand and status
_o = kit.exported_order  # an order as `pbem export` shows it


# == pbem new ====================================================================================


def test_new_writes_campaign_yaml_and_starts(cli, tmp_path):
    folder = tmp_path / "game"
    cli.ok(*_new_args(folder, 4, seed=7))
    data = yaml.safe_load((folder / "campaign.yaml").read_text(encoding="utf-8"))
    by_name = {p.split(" <")[0]: p.split(" <")[1].rstrip(">") for p in PEOPLE}
    assert sorted(p["name"] for p in data["players"]) == sorted(by_name)
    for p in data["players"]:
        assert p["email"] == by_name[p["name"]]
    assert str(data["seed"]) == "7"
    exported = cli.export(folder)
    assert exported["players"] == [p["name"] for p in data["players"]], (
        "the game must be seated in the order campaign.yaml lists"
    )
    assert exported["turn"] == 1


def test_new_same_seed_gives_same_seating_and_same_export(cli, tmp_path):
    a, b = tmp_path / "a" / "game", tmp_path / "b" / "game"
    cli.ok(*_new_args(a, 4, seed=20261129))
    cli.ok(*_new_args(b, 4, seed=20261129))
    assert (a / "campaign.yaml").read_text() == (b / "campaign.yaml").read_text()
    assert cli.export_text(a) == cli.export_text(b)
    assert cli.report(a) == cli.report(b)


def test_new_seating_is_shuffled_by_the_seed(cli, tmp_path):
    """RULES 1: `pbem new` seats the players at random (with the seed)."""
    seatings = set()
    for seed in range(1, 9):
        folder = tmp_path / f"g{seed}"
        cli.ok(*_new_args(folder, 4, seed=seed))
        data = yaml.safe_load((folder / "campaign.yaml").read_text(encoding="utf-8"))
        seatings.add(tuple(p["name"] for p in data["players"]))
    given = tuple(p.split(" <")[0] for p in PEOPLE)
    assert len(seatings) > 2, f"8 seeds gave only these seatings: {seatings}"
    assert seatings != {given}


def test_new_with_decks_file_fixes_the_decks(cli, tmp_path):
    deck1 = kit.deck_titles(4, 1, {0: G, 1: B, 2: K, 3: C}, S, set_aside=X, pile=[P])
    canonical5 = kit.deck_titles(4, 5, {0: S, 1: B, 2: G, 3: C}, P, set_aside=H)
    deck5 = ["Handmaid", "Priest", "Diplomat", "Guard", "Sensei", "Hatamoto"] + canonical5[6:]
    decks_file = tmp_path / "decks.yaml"
    decks_file.write_text(yaml.safe_dump({1: deck1, 5: deck5}), encoding="utf-8")
    folder = tmp_path / "game"
    cli.ok(*_new_args(folder, 4, seed=3, decks=decks_file))
    data = cli.export(folder)
    names = data["players"]
    for number, deck in ((1, deck1), (5, canonical5)):
        hand = data["hands"][number - 1]
        assert hand["set_aside"] == deck[0]
        expected = kit.dealt(deck, number, names)
        assert {n: p["cards"] for n, p in hand["players"].items()} == expected
    written = yaml.safe_load((folder / "campaign.yaml").read_text(encoding="utf-8"))
    assert written["decks"][1] == deck1
    assert written["decks"][5] == canonical5, "campaign.yaml should hold canonical card names"


def test_new_refuses_an_existing_campaign_yaml(cli, snap, campaign3):
    before = snap(campaign3)
    result = cli.fails(*_new_args(campaign3, 4, seed=1))
    assert "campaign.yaml" in result.output
    assert snap(campaign3) == before


def test_new_refuses_a_started_campaign(cli, snap, started3):
    before = snap(started3)
    cli.fails(*_new_args(started3, 3, seed=1))
    assert snap(started3) == before


@pytest.mark.parametrize(
    "people",
    [
        PEOPLE[:1],
        PEOPLE + [f"Extra{chr(65 + i)} <extra{i}@example.org>" for i in range(5)],
        [PEOPLE[0], PEOPLE[1], "Bob <bob@@x.org>"],
        [PEOPLE[0], PEOPLE[1], "Bob bob@x.org"],
        [PEOPLE[0], PEOPLE[1], "Prince <prince@example.org>"],
        [PEOPLE[0], PEOPLE[1], "arthur <other@example.org>"],
        [PEOPLE[0], PEOPLE[1], "Other <arthur@example.org>"],
    ],
    ids=["1-player", "9-players", "bad-email", "no-brackets", "card-name", "same-name", "same-email"],
)
def test_new_with_bad_players_writes_nothing(cli, tmp_path, people):
    folder = tmp_path / "game"
    args = ["new", folder, "--seed", 1]
    for p in people:
        args += ["--player", p]
    result = cli.fails(*args)
    assert "Traceback" not in result.output
    assert not (folder / "campaign.yaml").exists()
    assert not folder.exists() or not any(folder.iterdir())


def test_new_with_bad_decks_file_writes_nothing(cli, tmp_path):
    decks_file = tmp_path / "decks.yaml"
    decks_file.write_text(yaml.safe_dump({1: kit.FULL_DECK[:-1]}), encoding="utf-8")
    folder = tmp_path / "game"
    result = cli.fails(*_new_args(folder, 3, seed=1, decks=decks_file))
    assert "decks" in result.output
    assert not (folder / "campaign.yaml").exists()


# == pbem order ==================================================================================
#
# One campaign for every order form: seats Arthur, Charles, Bruno, so that the
# very lines of INTERFACE.md ("Hand 3: Guard on Charles, guess Prince",
# "Hand 5: Prince on myself", "Hand 7: Countess") are orders of the player
# active in that hand (hand 3: Bruno, hand 5: Charles, hand 7: Arthur).


@pytest.fixture
def order_game(tmp_path, cli):
    folder = tmp_path / "game"
    kit.write_config(folder, kit.order_config())
    cli.ok("start", folder)
    return folder


def test_rejected_order_leaves_the_hand_missing(cli, order_game):
    assert cli("order", order_game, "--player", "Bruno", "Hand 12: Prince on Arthur").exit_code == 1
    assert "12" not in cli.export(order_game)["orders"].get("Bruno", {})
    status = json.loads(cli.ok("status", order_game, "--json").stdout)
    assert 12 in status["missing"]["Bruno"]


def test_order_multi_line_mixed_results_exit_0(cli, order_game):
    text = (
        "Dear GM, my orders:\n"
        "Hand 3: Guard on Charles, guess Prince\n"
        "\n"
        "Hand 6: Spy on Arthur\n"
        "Hand 9: Countess\n"  # rejected: not held
        "Hand 12: Prince on Arthur\n"  # rejected: Countess rule
        "Hand 1: Guard on Arthur\n"  # rejected: not Bruno's turn there
        "Cheers, Bruno\n"
    )
    result = cli.ok("order", order_game, "--player", "Bruno", text)
    assert _line(result.output, 3, "accepted") and _line(result.output, 6, "accepted")
    for hand in (9, 12, 1):
        assert _line(result.output, hand, "rejected"), (hand, result.output)
    orders = cli.export(order_game)["orders"]
    assert orders == {"Bruno": {"3": _o("Guard", "Charles", "Prince"), "6": _o("Spy", "Arthur")}}
    for per_player in orders.values():
        for o in per_player.values():
            assert o["status"] in ("accepted", "completed")


def test_order_all_rejected_exits_1(cli, order_game):
    """Nothing recorded is a failure a script must see (issue 11; it used to exit 0)."""
    result = cli("order", order_game, "--player", "Arthur", "Hand 3: Guard on Bruno, guess Spy")
    assert result.exit_code == 1
    assert _line(result.output, 3, "rejected")
    assert cli.export(order_game)["orders"] == {}


def test_order_text_from_stdin(cli, order_game):
    text = "Hand 3: Guard on Charles, guess Prince\nHand 6: Baron on Charles\n"
    result = cli.ok("order", order_game, "--player", "Bruno", "-", input=text)
    assert _line(result.output, 3, "accepted") and _line(result.output, 6, "accepted")
    orders = cli.export(order_game)["orders"]["Bruno"]
    assert orders == {"3": _o("Guard", "Charles", "Prince"), "6": _o("Baron", "Charles")}


def test_later_order_replaces_earlier(cli, order_game):
    cli.ok("order", order_game, "--player", "Bruno", "Hand 3: Guard on Charles, guess Prince")
    cli.ok("order", order_game, "--player", "Bruno", "Hand 3: Prince on Arthur")
    assert cli.export(order_game)["orders"]["Bruno"]["3"] == _o("Prince", "Arthur")
    # within one text, the first line for a hand stands: a different later one is refused
    out = cli.ok(
        "order",
        order_game,
        "--player",
        "Bruno",
        "Hand 6: Spy on Arthur\nHand 6: Baron on Charles\nHand 3: Guard on Arthur, guess King",
    )
    orders = cli.export(order_game)["orders"]["Bruno"]
    assert orders["6"] == _o("Spy", "Arthur")
    assert orders["3"] == _o("Guard", "Arthur", "King")
    assert "already gives hand 6 another order" in out.output


def test_order_completed_then_corrected(cli, order_game):
    cli.ok("order", order_game, "--player", "Bruno", "Hand 3: Guard")
    assert cli.export(order_game)["orders"]["Bruno"]["3"]["status"] == "completed"
    cli.ok("order", order_game, "--player", "Bruno", "Hand 3: Guard on Charles, guess King")
    assert cli.export(order_game)["orders"]["Bruno"]["3"] == _o("Guard", "Charles", "King")


def test_order_unknown_player_refused(cli, snap, order_game):
    before = snap(order_game)
    result = cli.fails("order", order_game, "--player", "Zelda", "Hand 3: Guard on Charles, guess Prince")
    assert "Zelda" in result.output
    assert snap(order_game) == before


def test_order_before_start_refused(cli, snap, campaign3):
    result = cli.fails("order", campaign3, "--player", "Arthur", "Hand 1: Guard on Bruno, guess Prince")
    assert "start" in result.output.lower()
    assert not (campaign3 / "turns").exists()
    assert cli.fails("export", campaign3)


@pytest.mark.parametrize(
    "command",
    [
        ["order", "--player", "Arthur", "Hand 1: Guard on Bruno, guess Prince"],
        ["resolve"],
        ["resolve", "--force"],
        ["rollback"],
        ["export"],
        ["status"],
        ["report"],
    ],
)
def test_commands_on_a_missing_folder_fail_and_create_nothing(cli, tmp_path, command):
    folder = tmp_path / "no-such-campaign"
    result = cli.fails(command[0], folder, *command[1:])
    assert "Traceback" not in result.output
    assert not folder.exists(), f"`pbem {command[0]}` on a mistyped folder created {folder}"


def test_order_ignored_lines_are_reported(cli, order_game):
    result = cli("order", order_game, "--player", "Bruno", "I will think about it.")
    assert result.exit_code == 1
    assert "I will think about it." in result.output
    assert cli.export(order_game)["orders"] == {}


# == pbem report =================================================================================


def _hand_lines(report: str) -> dict[int, list[str]]:
    """Lines that start with "Hand N" (the hand's own line in a report)."""
    out: dict[int, list[str]] = {}
    for line in report.splitlines():
        m = re.match(r"\s*Hand\s+(\d+)\b", line)
        if m:
            out.setdefault(int(m.group(1)), []).append(line)
    return out


def test_opening_public_report_reveals_no_card(cli, started4):
    public = cli.report(started4)
    for name in cli.export(started4)["players"]:
        assert name in public
    assert not CARD_RE.search(public), (
        f"nothing is public at the start, yet the opening report names a card:\n{public}"
    )
    assert cli.report(started4, turn=0) == public


def test_private_report_shows_own_cards(cli, started4):
    data = cli.export(started4)
    for name in data["players"]:
        private = cli.report(started4, player=name)
        lines = _hand_lines(private)
        for hand in data["hands"]:
            cards = hand["players"][name]["cards"]
            mine = [
                line
                for line in lines.get(hand["hand"], [])
                if all(re.search(rf"\b{c}\b", line) for c in cards)
            ]
            assert mine, f"{name}'s report shows no line for hand {hand['hand']} with {cards}:\n{private}"


def test_private_report_shows_no_other_players_cards(cli, tmp_path):
    """Arthur's opening report, in every hand: his cards only; the cards of the
    others are types Arthur does not hold there."""
    decks = {
        1: kit.deck_titles(3, 1, {0: G, 1: X, 2: C}, S, set_aside=G),
        2: kit.deck_titles(3, 2, {0: B, 1: K, 2: H}, P, set_aside=G),
        3: kit.deck_titles(3, 3, {0: H, 1: X, 2: K}, C, set_aside=G),
    }
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, decks=decks))
    cli.ok("start", folder)
    data = cli.export(folder)
    for reader in data["players"]:
        lines = _hand_lines(cli.report(folder, player=reader))
        for number in (1, 2, 3):
            hand = data["hands"][number - 1]
            own = set(hand["players"][reader]["cards"])
            others = {c for n, p in hand["players"].items() if n != reader for c in p["cards"]} - own
            for line in lines.get(number, []):
                shown = set(CARD_RE.findall(line))
                assert not shown & others, (
                    f"{reader}'s report shows {shown & others} of another player: {line!r}"
                )


def _swap_campaign(tmp_path, name, swap: bool):
    """Hand 1 with 3 players; ``swap`` exchanges Bruno's and Charles's dealt
    cards and two cards deep in the pile, and changes the set-aside card:
    nothing Arthur may know changes."""
    b, c = (X, C) if not swap else (C, X)
    set_aside, pile = (B, [K, P]) if not swap else (P, [K, B])
    deck = kit.deck_titles(3, 1, {0: H, 1: b, 2: c}, G, set_aside=set_aside, pile=pile)
    folder = tmp_path / name / "game"
    kit.write_config(folder, kit.config(3, decks={1: deck}))
    return folder


_DIGEST = re.compile(r"\b[0-9a-f]{64}\b")


def _seen(cli, folder, turn=None, player=None) -> str:
    """A report with its SHA-256 digests masked: the opening report publishes
    salted commitments of the decks (pbem/record.py), which differ with the
    decks by design and reveal nothing without the secret salts."""
    return _DIGEST.sub("<sha256>", cli.report(folder, turn, player))


def test_reports_do_not_depend_on_cards_the_reader_may_not_see(cli, tmp_path):
    """Non-interference: two games that differ only in cards Arthur may not
    see give Arthur the same private reports and everybody the same public
    reports, at the start and after a turn; Bruno's own report does change."""
    a = _swap_campaign(tmp_path, "a", swap=False)
    b = _swap_campaign(tmp_path, "b", swap=True)
    for folder in (a, b):
        cli.ok("start", folder)
        # Arthur protects himself in hand 1; Bruno then draws the top of the pile (King).
        cli.ok("order", folder, "--player", "Arthur", "Hand 1: Handmaid")
    assert _seen(cli, a) == _seen(cli, b)
    assert _seen(cli, a, player="Arthur") == _seen(cli, b, player="Arthur")
    assert _seen(cli, a, player="Bruno") != _seen(cli, b, player="Bruno")
    for folder in (a, b):
        cli.ok("resolve", folder, "--force")
    assert _seen(cli, a, 1) == _seen(cli, b, 1)
    assert _seen(cli, a, 1, "Arthur") == _seen(cli, b, 1, "Arthur")
    assert _seen(cli, a, 1, "Bruno") != _seen(cli, b, 1, "Bruno")
    hand_a = cli.export(a)["hands"][0]
    assert hand_a["active"] == "Bruno" and sorted(hand_a["players"]["Bruno"]["cards"]) == ["King", "Princess"]


def test_report_unknown_turn_is_a_clear_error(cli, started3):
    for turn in (1, 7, -1):
        result = cli.fails("report", started3, "--turn", turn)
        assert str(turn) in result.output and "Traceback" not in result.output


def test_report_unknown_player_is_a_clear_error(cli, started3):
    result = cli.fails("report", started3, "--player", "Zelda")
    assert "Zelda" in result.output


def test_report_of_each_turn_stays_readable(cli, started3):
    opening = cli.report(started3, turn=0)
    cli.ok("resolve", started3, "--force")
    assert cli.report(started3, turn=0) == opening
    latest = cli.report(started3)
    assert latest == cli.report(started3, turn=1) != opening


def test_campaign_template_overrides_public_report(cli, tmp_path):
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3))
    (folder / "templates").mkdir()
    (folder / "templates" / "public.txt.j2").write_text(
        "HOUSE STYLE {{ campaign }} turn {{ turn }}: {{ players|join(' / ') }}\n", encoding="utf-8"
    )
    cli.ok("start", folder)
    assert cli.report(folder).strip() == "HOUSE STYLE g turn 0: Arthur / Bruno / Charles"
    private = cli.report(folder, player="Arthur")
    assert "HOUSE STYLE" not in private and "Arthur" in private
    cli.ok("resolve", folder, "--force")
    assert cli.report(folder).strip() == "HOUSE STYLE g turn 1: Arthur / Bruno / Charles"
    # the shipped templates are untouched for other campaigns
    other = tmp_path / "h"
    kit.write_config(other, kit.config(3))
    cli.ok("start", other)
    assert "HOUSE STYLE" not in cli.report(other)


# == pbem status =================================================================================


def test_status_text(cli, started3):
    data = cli.export(started3)
    out = cli.ok("status", started3).stdout
    assert re.search(r"(?i)\bturn 1\b", out), out
    for name in data["players"]:
        hands = [h["hand"] for h in data["hands"] if h["active"] == name]
        listed = ", ".join(map(str, hands))
        assert any(name in line and listed in line for line in out.splitlines()), (name, listed, out)
    assert re.search(r"(?i)tokens", out)
    for name in data["players"]:
        assert re.search(rf"{name}\W+0\b", out), out
    # After Arthur's orders are in, he no longer owes anything.
    arthur = [h["hand"] for h in data["hands"] if h["active"] == "Arthur"]
    orders = "\n".join(f"Hand {h}: {data['hands'][h - 1]['players']['Arthur']['cards'][0]}" for h in arthur)
    cli.ok("order", started3, "--player", "Arthur", orders)
    out = cli.ok("status", started3).stdout
    listed = ", ".join(map(str, arthur))
    assert not any("Arthur" in line and listed in line for line in out.splitlines()), out


def test_status_json_matches_export(cli, started4):
    for _ in range(3):
        info = json.loads(cli.ok("status", started4, "--json").stdout)
        data = cli.export(started4)
        assert info["turn"] == data["turn"]
        assert info["finished"] == data["finished"]
        assert info["tokens"] == data["tokens"]
        assert info["hands_in_play"] == [h["hand"] for h in data["hands"] if not h["ended"]]
        expected: dict[str, list[int]] = {}
        for h in data["hands"]:
            if not h["ended"]:
                expected.setdefault(h["active"], []).append(h["hand"])
        assert info["missing"] == expected
        cli.ok("resolve", started4, "--force")


def test_status_after_orders(cli, order_game):
    cli.ok("order", order_game, "--player", "Bruno", "Hand 3: Guard on Charles, guess Prince")
    info = json.loads(cli.ok("status", order_game, "--json").stdout)
    assert 3 not in info["missing"]["Bruno"] and 6 in info["missing"]["Bruno"]


# == the real executable ===========================================================================


def test_end_to_end_with_the_real_executable(pbem_exe, tmp_path):
    folder = tmp_path / "game7"
    p = pbem_exe("new", folder, *[a for person in PEOPLE[:3] for a in ("--player", person)], "--seed", 11)
    assert p.returncode == 0, p.stderr
    p = pbem_exe("export", folder)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["campaign"] == "game7" and data["turn"] == 1
    # orders from standard input
    first = data["hands"][0]
    active = first["active"]
    card = first["players"][active]["cards"][0]
    p = pbem_exe("order", folder, "--player", active, "-", input=f"Hand 1: {card}\n")
    assert p.returncode == 0, p.stderr
    assert re.search(r"(?i)hand 1\b.*\b(accepted|completed)\b", p.stdout), p.stdout
    # unknown player: non-zero
    p = pbem_exe("order", folder, "--player", "Zelda", "Hand 1: Guard")
    assert p.returncode != 0 and "Zelda" in p.stderr
    # resolve without every order: non-zero, names the missing players
    p = pbem_exe("resolve", folder)
    assert p.returncode != 0
    for name in data["players"]:
        if name != active:
            assert name in p.stderr + p.stdout
    p = pbem_exe("resolve", folder, "--force")
    assert p.returncode == 0, p.stderr
    p = pbem_exe("status", folder, "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["turn"] == 2
    p = pbem_exe("report", folder, "--turn", 1)
    assert p.returncode == 0 and p.stdout.strip()
    p = pbem_exe("rollback", folder)
    assert p.returncode == 0, p.stderr
    p = pbem_exe("export", folder)
    assert json.loads(p.stdout)["turn"] == 1
    p = pbem_exe("start", folder)
    assert p.returncode != 0 and "Traceback" not in p.stderr


def test_real_executable_start_refuses_invalid_file(pbem_exe, snap, tmp_path):
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(kit.PLAYERS3[:1]))
    before = snap(folder)
    p = pbem_exe("start", folder)
    assert p.returncode != 0
    assert "players" in p.stderr and "Traceback" not in p.stderr
    assert snap(folder) == before


def test_real_executable_same_seed_same_game(pbem_exe, tmp_path):
    outputs = []
    for side in ("a", "b"):
        folder = tmp_path / side / "game"
        args = [a for person in PEOPLE for a in ("--player", person)]
        assert pbem_exe("new", folder, *args, "--seed", 99).returncode == 0
        assert pbem_exe("resolve", folder, "--force").returncode == 0
        outputs.append(pbem_exe("export", folder).stdout)
    assert outputs[0] == outputs[1]


# -- issue 18, item 11: a name on the command line, whatever the locale ---------------------------

ASCII_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


@pytest.fixture
def chloe_game(cli, tmp_path):
    players = [dict(p) for p in kit.PLAYERS3]
    players[2]["name"] = "Chloé"
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    cli.ok("start", folder)
    return folder


def test_a_name_with_an_accent_matches_under_a_pure_ascii_locale(pbem_exe, chloe_game):
    import os

    env = {**os.environ, **ASCII_LOCALE}
    report = pbem_exe("report", chloe_game, "--player", "Chloé", env=env, encoding="utf-8")
    assert report.returncode == 0, report.stderr
    assert report.stdout.startswith("Chloé, here is your position") and "Traceback" not in report.stderr
    order = pbem_exe("order", chloe_game, "--player", "Chloé", "Hand 3: Countess", env=env, encoding="utf-8")
    assert "Orders of Chloé for turn 1" in order.stdout, order.stdout + order.stderr
    assert "not a player" not in order.stdout + order.stderr


@pytest.mark.parametrize(
    "typed",
    [
        "Chloe\u0301",  # decomposed, as a Mac terminal may send it
        "Chlo\udce9",  # a Latin-1 terminal's byte, as Python hands it over
        "Chlo\udcc3\udca9",  # UTF-8 bytes under an ASCII locale
    ],
)
def test_a_name_is_read_as_typed_whatever_its_bytes(cli, chloe_game, typed):
    result = cli.ok("report", chloe_game, "--player", typed)
    assert result.output.startswith("Chloé, here is your position")
