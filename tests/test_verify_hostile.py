"""Issue 8.13-8.15: `pbem verify` on hostile records, on edited readable text,
and its differences in the words a player reads.

Before: deep nesting or `hands` as a list crashed it with a traceback; a final
report whose readable text said another winner, or showed another deck, was
"VERIFIED"; without --opening it compared the commitments with themselves and
said the decks matched; and a difference read as a Python dict.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.campaign import Campaign
from pbem.cli import main
from pbem.record import BEGIN, END, extract, record_block

YAML = """\
title: Audit game
players:
  - {name: Arthur, email: arthur@example.org}
  - {name: Bruno, email: bruno@example.org}
  - {name: Chloé, email: chloe@example.fr}
seed: 11
"""


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("audit") / "vgame"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(YAML, encoding="utf-8")
    campaign = Campaign(folder)
    campaign.start()
    while not campaign.position().game.finished:
        campaign.resolve(force=True)
    return campaign.report(), campaign.report(0)


def verify(tmp_path: Path, final: str, opening: str | None = None):
    path = tmp_path / "final.txt"
    path.write_text(final, encoding="utf-8")
    args = ["verify", str(path)]
    if opening is not None:
        (tmp_path / "opening.txt").write_text(opening, encoding="utf-8")
        args += ["--opening", str(tmp_path / "opening.txt")]
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"verify crashed: {result.exception!r}\n{result.output}"
    )
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def with_record(final: str, record) -> str:
    start, end = final.index(BEGIN), final.index(END) + len(END)
    return final[:start] + record_block(record) + final[end:]


def with_block(final: str, text: str) -> str:
    start, end = final.index(BEGIN), final.index(END) + len(END)
    lines = [text[i : i + 76] for i in range(0, len(text), 76)]
    return final[:start] + "\n".join([BEGIN, *lines, END]) + final[end:]


# -- 8.14: the readable text --------------------------------------------------------------------------------


def test_a_true_report_is_verified_and_says_what_was_checked(finished, tmp_path):
    final, opening = finished
    code, out = verify(tmp_path, final, opening)
    assert code == 0 and out.startswith("VERIFIED")
    assert "match the commitments published in the opening report" in out
    proven = out.split("\nProven:", 1)[1].split("\nNot proven:", 1)[0]
    assert (
        "the readable text" in proven and "the report the shipped templates render from the record" in proven
    )
    assert "Not proven: nothing." in out


def test_without_the_opening_report_the_decks_are_said_not_proven(finished, tmp_path):
    final, _ = finished
    code, out = verify(tmp_path, final)
    assert code == 0
    unproven = out.split("\nNot proven:", 1)[1]
    assert "the decks and the seed: without the opening report" in unproven and "--opening" in out
    assert "decks match their commitments" not in out


def test_a_hand_winner_edited_in_the_text_is_caught(finished, tmp_path):
    final, opening = finished
    block = re.search(
        r"(?ms)^Hand (\d+) -- ended this turn\n.*?(?:Winner: (\S+)\.|^  (\S+) is the last player)", final
    )
    winner = block.group(2) or block.group(3)
    other = next(n for n in ("Arthur", "Bruno", "Chloé") if n != winner)
    said, edit = (
        (f"Winner: {winner}.", f"Winner: {other}.")
        if block.group(2)
        else (f"  {winner} is the last player", f"  {other} is the last player")
    )
    edited = final[: block.start()] + block.group(0).replace(said, edit) + final[block.end() :]
    code, out = verify(tmp_path, edited, opening)
    assert code == 1 and out.startswith("NOT VERIFIED")
    assert f"says '{other}' where the record gives '{winner}'" in out


def test_the_game_winner_edited_in_the_text_is_caught(finished, tmp_path):
    final, opening = finished
    edited = final.replace("GAME OVER. Arthur wins the game.", "GAME OVER. Bruno wins the game.")
    assert edited != final
    code, out = verify(tmp_path, edited, opening)
    assert code == 1 and "says 'Bruno' where the record gives 'Arthur' (the line reads 'GAME OVER." in out


def test_a_card_changed_in_the_audit_deck_list_is_caught(finished, tmp_path):
    final, opening = finished
    line = re.search(r"(?m)^  Hand  5: (\w+), (\w+)", final)
    first = line.group(1)
    replacement = "Princess" if first != "Princess" else "Guard"
    edited = final[: line.start(1)] + replacement + final[line.end(1) :]
    code, out = verify(tmp_path, edited, opening)
    assert (
        code == 1
        and f"says '{replacement}' where the record gives '{first}' (the line reads 'Hand  5:" in out
    )


def test_tokens_edited_in_the_text_are_caught(finished, tmp_path):
    final, opening = finished
    edited = re.sub(
        r"(?m)^(  Bruno\s+)(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + 3), final, count=1
    )
    code, out = verify(tmp_path, edited, opening)
    assert code == 1 and "where the record gives" in out and "(the line reads 'Bruno " in out


def test_an_older_records_readable_text_is_still_partly_checked(finished, tmp_path):
    """A record from before issue 20 names no templates: the old checks of some parts, said as such."""
    final, opening = finished
    record = extract(final)
    del record["report"]
    older = with_record(final, record)
    code, out = verify(tmp_path, older, opening)
    assert code == 0, out
    assert "in the readable text, the winner of the game" in out.split("Not proven:")[0]
    assert "does not say how its report was rendered" in out.split("Not proven:")[1]
    edited = older.replace("GAME OVER. Arthur wins the game.", "GAME OVER. Bruno wins the game.")
    code, out = verify(tmp_path, edited, opening)
    assert code == 1 and "the report's text says Bruno won the game; the record gives Arthur" in out


# -- 8.15: differences as a player reads them ------------------------------------------------------------


def test_a_changed_knock_out_reads_as_a_player_reads(finished, tmp_path):
    final, _ = finished
    record = extract(final)
    for turn in record["turns"]:
        event = next((e for e in turn["events"] if e["kind"] == "eliminated" and e.get("card")), None)
        if event:
            break
    was = event["card"]
    event["card"] = "Baron" if was != "Baron" else "Spy"
    code, out = verify(tmp_path, with_record(final, record))
    name = record["players"][event["seat"]]
    assert code == 1
    assert (
        f"turn {turn['turn']}, hand {event['hand']}: the record says {name} was knocked out holding "
        f"the {event['card']}; the rules give the {was}"
    ) in out, out
    assert "{" not in out and "'kind'" not in out


def test_changed_tokens_and_winner_read_as_a_player_reads(finished, tmp_path):
    final, _ = finished
    record = extract(final)
    record["winners"] = ["Bruno"]
    code, out = verify(tmp_path, with_record(final, record))
    assert code == 1 and "the record says Bruno won the game; the rules give Arthur" in out
    assert "[" not in out.split("\n", 1)[1]


# -- 8.13: hostile records ------------------------------------------------------------------------------


def _set(path, value):
    def change(record):
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


HOSTILE = {
    "hands-as-list": _set(["hands"], ["Guard"] * 13),
    "hands-as-int": _set(["hands"], 13),
    "a-hand-as-int": _set(["hands", "4"], 7),
    "unknown-card-in-deck": _set(["hands", "4", "deck", 3], "Joker"),
    "deck-of-numbers": _set(["hands", "4", "deck"], [1, 2, 3]),
    "commitments-as-list": _set(["commitments"], ["x"] * 14),
    "commitments-as-int": _set(["commitments"], 42),
    "players-as-text": _set(["players"], "Arthur"),
    "turns-as-object": _set(["turns"], {"1": {}}),
    "order-unknown-card": _set(["turns", 0, "orders", "1"], {"card": "Joker", "target": 0, "guess": None}),
    "order-target-out-of-range": _set(
        ["turns", 0, "orders", "1"], {"card": "Guard", "target": 9, "guess": "Spy"}
    ),
    "order-as-list": _set(["turns", 0, "orders", "1"], ["Guard"]),
    "events-as-text": _set(["turns", 0, "events"], "hello"),
    "tokens-as-object": _set(["tokens"], {"Arthur": 5}),
    "seed-as-list": _set(["seed"], [1]),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_record_gets_a_clear_error(finished, tmp_path, name):
    final, _ = finished
    record = extract(final)
    HOSTILE[name](record)
    code, out = verify(tmp_path, with_record(final, record))
    assert code == 1 and out.strip()
    assert out.startswith("Error: ") or out.startswith("NOT VERIFIED"), out


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 50_000 + "1" + "}" * 50_000,
        json.dumps({"players": [[[[[[[[[[["deep"]]]]]]]]]]]}),
    ],
    ids=["list", "object", "inner"],
)
def test_deep_nesting_gets_a_clear_error(finished, tmp_path, text):
    final, _ = finished
    code, out = verify(tmp_path, with_block(final, text))
    assert code == 1 and out.startswith("Error: ")


LEAVES = st.none() | st.booleans() | st.integers(-5, 20) | st.sampled_from(["Guard", "Spy", "Joker", ""])
KEYS = st.sampled_from(["card", "target", "guess", "kind", "hand", "seat", "deck", "1"])
JSON = st.recursive(
    LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3), max_leaves=6
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            yield from _paths(item, prefix + (i,))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_mutation_of_a_record_gets_an_answer_not_a_traceback(finished, tmp_path, data):
    final, _ = finished
    base = extract(final)
    record = copy.deepcopy(base)
    paths = [p for p in _paths(base) if p]
    top = [p for p in paths if len(p) == 1]  # the record's main parts: where a tamperer starts
    shallow = [p for p in paths if len(p) == 2]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(top) | st.sampled_from(shallow) | st.sampled_from(paths))
        target = record
        try:
            for key in path[:-1]:
                target = target[key]
            if data.draw(st.booleans()):
                target[path[-1]] = data.draw(JSON)
            elif isinstance(target, dict):
                del target[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
    code, out = verify(tmp_path, with_record(final, record))
    assert code in (0, 1) and out.strip()


@pytest.mark.parametrize(
    "block, said",
    [
        ("  Bruno is the last player in the hand and wins it (showing the Countess).\n", "Bruno"),
        ("  Anne Marie is the last player in the hand and wins it (showing the King).\n", "Anne Marie"),
        (
            "  The draw pile is empty, so the hand ends and the highest card wins. Still in: Arthur with the "
            "Guard, Chloé with the King. Winner: Chloé.\n",
            "Chloé",
        ),
        ("  The draw pile is empty, ... Winners: Arthur and Chloé.\n", "Arthur and Chloé"),
        ("  Arthur played the Guard on Bruno, guessing Prince.\n", None),
    ],
)
def test_both_ways_the_report_words_a_hand_winner_are_read(block, said):
    from pbem.audit import _hand_winners_said

    assert _hand_winners_said(block) == said
