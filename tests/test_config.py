"""campaign.yaml validation, seen from `pbem start` (INTERFACE.md, "Campaign folder").

Every invalid file must give a non-zero exit, a message naming the key at
fault, no traceback, and leave the campaign folder exactly as it was.
"""

from __future__ import annotations

import copy
import re

import kit
import pytest
import yaml


def _refused(cli, snap, folder, *words):
    """`pbem start folder` must fail cleanly, say ``words``, and write nothing."""
    before = snap(folder)
    result = cli.fails("start", folder)
    after = snap(folder)
    assert after == before, (
        f"pbem start wrote into the folder of an invalid campaign: {set(after) ^ set(before)}"
    )
    message = result.output
    for word in words:
        assert word.lower() in message.lower(), f"the message should name {word!r}:\n{message}"
    assert "Traceback" not in message
    return message


# -- the baseline: the files the error cases are made from do start -------------------


@pytest.mark.parametrize("n", [3, 4])
def test_valid_campaign_starts(cli, tmp_path, n):
    folder = tmp_path / f"ok{n}"
    kit.write_config(folder, kit.config(n))
    cli.ok("start", folder)
    data = cli.export(folder)
    assert data["players"] == [p["name"] for p in (kit.PLAYERS3 if n == 3 else kit.PLAYERS4)]


@pytest.mark.parametrize("name", ["Anne-Marie", "O'Brien", "Jean Luc", "Zoë", "J.R"])
def test_ordinary_names_are_accepted(cli, tmp_path, name):
    players = copy.deepcopy(kit.PLAYERS3)
    players[1]["name"] = name
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    cli.ok("start", folder)
    assert cli.export(folder)["players"][1] == name


# -- players -----------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 9, 12])
def test_player_count_other_than_2_to_8_is_refused(cli, snap, tmp_path, count):
    players = [{"name": f"Player{chr(65 + i)}", "email": f"p{i}@example.org"} for i in range(count)]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    _refused(cli, snap, folder, "players")


def test_missing_players_key_is_refused(cli, snap, tmp_path):
    data = kit.config(3)
    del data["players"]
    folder = tmp_path / "g"
    kit.write_config(folder, data)
    _refused(cli, snap, folder, "players")


@pytest.mark.parametrize("second", ["Arthur", "arthur", "ARTHUR", " Arthur "])
def test_duplicate_names_are_refused(cli, snap, tmp_path, second):
    players = copy.deepcopy(kit.PLAYERS3)
    players[1]["name"] = second
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    _refused(cli, snap, folder, "players", "name")


BAD_NAMES = {
    "empty": "",
    "blank": "   ",
    "header-injection": "Bob\nBcc: x",
    "carriage-return": "Bob\rBcc: x",
    "slash": "a/b",
    "backslash": "a\\b",
    "angle-brackets": "<Eve>",
    "comma": "Bob, Jr",
    "dotdot": "..",
    "dot": ".",
    "60-chars": "A" * 60,
    "card-name": "Prince",
    "card-name-lower": "princess",
    "card-alias": "Priest",
    "self-word": "Myself",
    "number": "42",
    "colon": "Bob: x",
    "null-byte": "Bob\x00",
}


@pytest.mark.parametrize("name", list(BAD_NAMES.values()), ids=list(BAD_NAMES))
def test_bad_player_name_is_refused(cli, snap, tmp_path, name):
    players = copy.deepcopy(kit.PLAYERS3)
    players[2]["name"] = name
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    _refused(cli, snap, folder, "players", "name")


def test_missing_name_is_refused(cli, snap, tmp_path):
    players = copy.deepcopy(kit.PLAYERS3)
    del players[0]["name"]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    _refused(cli, snap, folder, "players", "name")


BAD_EMAILS = {
    "no-at": "bob",
    "no-domain": "bob@",
    "double-at": "bob@@x.org",
    "header-injection": "bob@x.org\nBcc: y",
    "display-name": "Bob <bob@x.org>",
    "space": "bob smith@x.org",
    "no-local-part": "@x.org",
    "empty": "",
    "not-text": 12,
}


@pytest.mark.parametrize("email", list(BAD_EMAILS.values()), ids=list(BAD_EMAILS))
def test_malformed_email_is_refused(cli, snap, tmp_path, email):
    players = copy.deepcopy(kit.PLAYERS3)
    players[1]["email"] = email
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    _refused(cli, snap, folder, "players", "email")


def test_missing_email_is_refused(cli, snap, tmp_path):
    players = copy.deepcopy(kit.PLAYERS3)
    del players[1]["email"]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    _refused(cli, snap, folder, "players", "email")


def test_duplicate_email_is_refused(cli, snap, tmp_path):
    players = copy.deepcopy(kit.PLAYERS4)
    players[3]["email"] = players[0]["email"]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    _refused(cli, snap, folder, "players", "email")


def test_player_written_as_plain_text_is_refused(cli, snap, tmp_path):
    data = kit.config(3)
    data["players"][0] = "Arthur <arthur@example.org>"
    folder = tmp_path / "g"
    kit.write_config(folder, data)
    _refused(cli, snap, folder, "players")


# -- decks -------------------------------------------------------------------------------


def _deck_case(name):
    full = list(kit.FULL_DECK)
    if name == "15 cards":
        return {1: full[:-1]}, "decks"
    if name == "17 cards":
        return {1: full + ["Guard"]}, "decks"
    if name == "6 Guards":
        deck = list(full)
        deck[deck.index("Princess")] = "Guard"
        return {1: deck}, "decks"
    if name == "no Princess, 2 Countesses":
        deck = list(full)
        deck[deck.index("Princess")] = "Countess"
        return {1: deck}, "decks"
    if name == "unknown card":
        deck = list(full)
        deck[0] = "Jester"
        return {1: deck}, "Jester"
    if name == "hand 14":
        return {14: full}, "14"
    if name == "hand 0":
        return {0: full}, "decks"
    if name == "hand -1":
        return {-1: full}, "decks"
    if name == "hand as a word":
        return {"first": full}, "decks"
    if name == "not a list":
        return {1: "Guard, Guard"}, "decks"
    if name == "not a mapping":
        return [full], "decks"
    if name == "empty deck":
        return {1: []}, "decks"
    raise AssertionError(name)


DECK_CASES = [
    "15 cards",
    "17 cards",
    "6 Guards",
    "no Princess, 2 Countesses",
    "unknown card",
    "hand 14",
    "hand 0",
    "hand -1",
    "hand as a word",
    "not a list",
    "not a mapping",
    "empty deck",
]


@pytest.mark.parametrize("case", DECK_CASES)
def test_bad_deck_is_refused(cli, snap, tmp_path, case):
    decks, word = _deck_case(case)
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, decks=decks))
    _refused(cli, snap, folder, "decks", word)


def test_bad_deck_for_a_later_hand_is_refused(cli, snap, tmp_path):
    """A good deck for hand 1 and a bad one for hand 9: the message names hand 9."""
    deck = list(kit.FULL_DECK)
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, decks={1: deck, 9: deck[:-1]}))
    message = _refused(cli, snap, folder, "decks")
    assert re.search(r"\b9\b", message), message


def test_deck_aliases_are_accepted_and_exported_canonically(cli, tmp_path):
    # Every alias and odd case; deal order puts aliases in set-aside and hands.
    deck = [
        "Priest",
        "diplomat",
        "SHUGENJA",
        "Hatamoto",
        "manipulator",
        "Sensei",
        "courtier",
        "Diplomat",
        "shugenja",
        "hatamoto",
        "princess",
        "guard",
        "Guard",
        "GUARD",
        "gUaRd",
        "Guard",
    ]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, decks={1: deck}))
    cli.ok("start", folder)
    hand = cli.export(folder)["hands"][0]
    assert hand["set_aside"] == "Spy"
    assert hand["players"]["Arthur"]["cards"] == ["Baron", "King"]
    assert hand["players"]["Bruno"]["cards"] == ["Handmaid"]
    assert hand["players"]["Charles"]["cards"] == ["Prince"]
    # Play the game out: every card that shows up anywhere is a canonical name.
    for _ in range(15):
        data = cli.export(folder)
        for h in data["hands"]:
            assert h["set_aside"] in kit.CARDS + [None]
            for seat in h["players"].values():
                for card in seat["cards"] + seat["discards"]:
                    assert card in kit.CARDS, card
        if data["finished"]:
            break
        cli.ok("resolve", folder, "--force")
    assert data["finished"]
    # The canonical names are also what the audit in the final public report shows.
    final = cli.report(folder)
    assert "Priest" not in final and "Diplomat" not in final and "Hatamoto" not in final


# -- the file itself -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, kind",
    [
        ("- Arthur\n- Bruno\n- Charles\n", "list"),
        ("just a line of text\n", "text"),
        ("", "empty"),
        ("# nothing but a comment\n", "empty"),
        ("42\n", "number"),
    ],
    ids=["list", "string", "empty-file", "comment-only", "number"],
)
def test_yaml_that_is_not_a_mapping_is_refused(cli, snap, tmp_path, text, kind):
    folder = tmp_path / "g"
    kit.write_config(folder, text)
    message = _refused(cli, snap, folder)
    assert "mapping" in message.lower() or "players" in message.lower(), message


@pytest.mark.parametrize(
    "text, line",
    [
        ("title: ok\nseed: 1\nplayers: : bad\n", 3),
        ("title: ok\nplayers:\n  - {name: Arthur, email: a@example.org\n  - {name: Bruno}\n", 4),
        ("title: ok\nseed: 1\n\tplayers: []\n", 3),
    ],
)
def test_invalid_yaml_names_the_line(cli, snap, tmp_path, text, line):
    folder = tmp_path / "g"
    kit.write_config(folder, text)
    message = _refused(cli, snap, folder, "yaml")
    assert re.search(rf"line {line}\b", message), f"the message should show line {line}:\n{message}"


@pytest.mark.parametrize("where", ["document", "title", "player-name"])
def test_python_tag_is_refused_and_nothing_runs(cli, snap, tmp_path, where):
    marker = tmp_path / "PWNED"
    tag = f'!!python/object/apply:os.system ["touch {marker}"]'
    good = yaml.safe_dump(kit.config(3), sort_keys=False)
    if where == "document":
        text = tag + "\n"
    elif where == "title":
        text = good.replace("title: Test game", f"title: {tag}")
    else:
        text = good.replace("name: Arthur", f"name: {tag}")
    assert tag in text
    folder = tmp_path / "g"
    kit.write_config(folder, text)
    _refused(cli, snap, folder)
    assert not marker.exists(), "a Python tag in campaign.yaml ran a command"


@pytest.mark.parametrize("tag", ["!!python/name:os.system", "!!python/object:pbem.config.Person {}"])
def test_other_python_tags_are_refused(cli, snap, tmp_path, tag):
    folder = tmp_path / "g"
    text = yaml.safe_dump(kit.config(3), sort_keys=False).replace("title: Test game", f"title: {tag}")
    kit.write_config(folder, text)
    _refused(cli, snap, folder)


def test_missing_campaign_yaml_is_refused(cli, snap, tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    _refused(cli, snap, folder, "campaign.yaml")
    assert snap(folder) == {}


def test_missing_campaign_folder_is_refused_and_not_created(cli, tmp_path):
    folder = tmp_path / "nowhere"
    result = cli.fails("start", folder)
    assert "campaign.yaml" in result.output
    assert not folder.exists()


def test_title_on_several_lines_is_refused(cli, snap, tmp_path):
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, title="Game\nBcc: x@example.org"))
    _refused(cli, snap, folder, "title")


@pytest.mark.parametrize("seed", [True, [1, 2], {"a": 1}, ""])
def test_bad_seed_is_refused(cli, snap, tmp_path, seed):
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, seed=seed))
    _refused(cli, snap, folder, "seed")


def test_bad_gm_is_refused(cli, snap, tmp_path):
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, gm={"name": "Rita", "email": "rita@@example.org"}))
    _refused(cli, snap, folder, "gm", "email")


def test_gm_and_title_of_the_interface_example_are_accepted(cli, tmp_path):
    folder = tmp_path / "game7"
    kit.write_config(
        folder,
        kit.config(3, title="Love Letter, postal game 7", gm={"name": "Rita", "email": "gm@example.org"}),
    )
    cli.ok("start", folder)
    assert cli.export(folder)["campaign"] == "game7"


def test_not_utf8_is_refused(cli, snap, tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "campaign.yaml").write_bytes(b"title: \xff\xfe\nplayers: []\n")
    _refused(cli, snap, folder, "campaign.yaml")


def test_the_message_of_a_refusal_names_the_offending_player(cli, snap, tmp_path):
    """A GM with four players must be able to find the one at fault."""
    players = copy.deepcopy(kit.PLAYERS4)
    players[2]["email"] = "charles@"
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    message = _refused(cli, snap, folder, "email")
    assert "charles@" in message, message


# -- look-alike names (issue 8.11) ------------------------------------------------------------------

LOOK_ALIKES = {
    "cyrillic-A": ("Arthur", "\u0410rthur"),  # Cyrillic capital A
    "greek-omicron": ("Bruno", "Brun\u03bf"),  # Greek small omicron
    "accent": ("Chloé", "Chloe"),
    "accent-and-case": ("Chloé", "CHLOE"),
    "capital-i-small-l": ("Ivan", "lvan"),
    "fullwidth": ("Dora", "Ｄora"),
    # issue 18, item 11: runs of letters and digits that read as letters
    "rn-for-m": ("Amie", "Arnie"),
    "one-for-i": ("Kim", "K1m"),
    "zero-for-o": ("Noah", "N0ah"),
    "rn-for-m-at-the-end": ("Tom", "Torn"),
    "five-for-s": ("Sam", "5am"),
    "vv-for-w": ("Wendy", "Vvendy"),
    "cyrillic-and-rn": ("Mila", "Rnil\u0430"),
}


@pytest.mark.parametrize("pair", list(LOOK_ALIKES.values()), ids=list(LOOK_ALIKES))
def test_look_alike_names_are_refused_at_start(cli, snap, tmp_path, pair):
    first, second = pair
    players = copy.deepcopy(kit.PLAYERS3)
    players[0]["name"], players[1]["name"], players[2]["name"] = first, "Maxime", second
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    _refused(cli, snap, folder, "players", first, second, "look")


@pytest.mark.parametrize("pair", list(LOOK_ALIKES.values()), ids=list(LOOK_ALIKES))
def test_look_alike_names_are_refused_by_new(cli, tmp_path, pair):
    folder = tmp_path / "g"
    result = cli.fails(
        "new",
        folder,
        "--player",
        f"{pair[0]} <a@example.org>",
        "--player",
        f"{pair[1]} <b@example.org>",
        "--player",
        "Zoe <z@example.org>",
    )
    assert pair[0] in result.output and pair[1] in result.output and "Traceback" not in result.output
    assert not (folder / "campaign.yaml").exists()


@pytest.mark.parametrize("names", [("Eli", "Ell", "Dan"), ("Anna", "Ama", "Don"), ("Marc", "Mark", "Lena")])
def test_names_apart_but_for_letters_are_accepted(cli, tmp_path, names):
    """Two letters are never taken for one another ("Eli" is not "Ell"): only runs ("rn") and
    digits or signs are."""
    players = [{"name": n, "email": f"p{i}@example.org"} for i, n in enumerate(names)]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    cli.ok("start", folder)


def test_names_in_other_scripts_that_look_like_no_one_are_accepted(cli, tmp_path):
    names = ["Борис", "Ζωή", "Arthur", "Ольга"]
    players = [{"name": n, "email": f"p{i}@example.org"} for i, n in enumerate(names)]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    cli.ok("start", folder)


def test_the_gm_names_a_player_accent_blind(cli, tmp_path):
    players = [{"name": n, "email": f"p{i}@example.org"} for i, n in enumerate(["Arthur", "Chloé", "Bruno"])]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(players))
    cli.ok("start", folder)
    assert "Chloé" in cli.ok("report", folder, "--player", "CHLOE").output
    out = cli.ok("order", folder, "--player", "chloe", "Hand 2: Handmaid").output
    assert "Chloé" in out


def test_replace_refuses_a_name_that_looks_like_another_players(cli, snap, tmp_path):
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3))
    cli.ok("start", folder)
    before = snap(folder)
    result = cli.fails("replace", folder, "Bruno", "--name", "\u0410rthur")
    assert "Arthur" in result.output and "\u0410rthur" in result.output and "Traceback" not in result.output
    assert snap(folder) == before
