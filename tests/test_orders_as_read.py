"""The resolve plays each order as it was read when it came in (and acknowledged), kept
beside its text in the orders on file, and reads the text again only when the roster
changed since or the record holds no reading of this version's; and the order reader's
regular expressions are compiled only by the commands that read order words.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import textwrap

import kit
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pbem.orderbook
import pbem.orders
from pbem.campaign import Campaign
from pbem.cards import Card
from pbem.engine import legal_cards
from pbem.lazyre import LazyPattern
from pbem.orderbook import order_as_read
from pbem.orders import WrittenOrder, parse_orders

SIX = [
    {"name": n, "email": f"p{i}@example.org"}
    for i, n in enumerate("Arthur Bruno Chloé Dora Emil Fanny".split())
]


def started(tmp_path, players=3) -> Campaign:
    folder = tmp_path / "game"
    kit.write_config(folder, kit.config(SIX if players == 6 else players))
    campaign = Campaign(folder)
    campaign.start()
    return campaign


def an_order_line(campaign: Campaign, seat: int, hand: int, rng: random.Random) -> str:
    pos = campaign.position()
    card = rng.choice(legal_cards(pos.game.hand(hand).cards[seat]))
    target = rng.choice([p for i, p in enumerate(pos.players) if i != seat])
    return f"Hand {hand}: {card.title}" + ("" if card == Card.PRINCESS else f" on {target}, guess 5")


# -- WrittenOrder.to_json / from_json ------------------------------------------------------------------

names = st.sampled_from(["Arthur", "Bruno", "Chloé", "Dora"]) | st.none()
cards = st.sampled_from(list(Card)) | st.none()
written_orders = st.builds(
    WrittenOrder,
    hand=st.integers(1, 13),
    card=cards,
    target=names,
    guess=cards | st.integers(0, 9),
    text=st.text(max_size=40),
    target_text=st.text(max_size=10) | st.none(),
    guess_text=st.text(max_size=10) | st.none(),
    second=names,
    look=names,
    standing=st.sampled_from(["discard", "keep"]) | st.none(),
    kept=cards,
    unkept=cards,
    condition=st.sampled_from(["if", "unless", "sonst"]) | st.none(),
    corrects=st.booleans(),
)


@given(written_orders)
def test_a_written_order_comes_back_from_its_json_whole(order):
    data = json.loads(json.dumps(order.to_json()))
    back = WrittenOrder.from_json(data)
    assert back == order
    assert [type(v) for v in back] == [type(v) for v in order]  # a guess of 5 stays a number, a card a card


def test_the_orders_a_reading_gives_come_back_from_their_json():
    players = ["Arthur", "Bruno", "Chloé", "Dora", "Emil", "Fanny"]
    text = textwrap.dedent(
        """\
        Hand 1: Guard on Bruno, guess 7
        Hand 2: Cardinal on Bruno and Chloé, look at Chloé
        Hand 3: if Bishop, discard
        H4 - not the Princess
        Hand 5: Baroness on Dora & Emil
        Hands 6 and 7: Handmaid
        P.S. hand 8: actually the Jester on Fanny
        Hand 9: Guard on Zora, guess Prince
        """
    )
    orders = parse_orders(text, players, "Arthur").orders
    assert len(orders) == 9
    for order in orders:
        assert WrittenOrder.from_json(json.loads(json.dumps(order.to_json()))) == order


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "Hand 3: Guard",
        {},
        {"hand": 3},  # no card
        {"card": "Guard"},  # no hand
        {"hand": True, "card": "Guard"},  # a hand is a number, not true
        {"hand": "3", "card": "Guard"},
        {"hand": 3.0, "card": "Guard"},
        {"hand": 3, "card": "guard"},  # cards as to_json names them
        {"hand": 3, "card": "Wache"},
        {"hand": 3, "card": "Joker"},
        {"hand": 3, "card": 1},
        {"hand": 3, "card": "Guard", "guess": 5.0},
        {"hand": 3, "card": "Guard", "guess": "Nobody"},
        {"hand": 3, "card": "Guard", "target": None},  # to_json leaves defaults out
        {"hand": 3, "card": "Guard", "corrects": 1},
        {"hand": 3, "card": "Guard", "target": ["Bruno"]},
        {"hand": 3, "card": "Guard", "colour": "red"},
        {"hand": 3, "card": "Guard", "kept": "Nobody"},
    ],
)
def test_what_to_json_does_not_write_is_not_read_as_an_order(data):
    assert WrittenOrder.from_json(data) is None


# -- order_as_read ----------------------------------------------------------------------------------------


def record_for(text: str, hand: int, players: list[str], me: str, reading: WrittenOrder | None = None):
    reading = reading or next(w for w in parse_orders(text, players, me).orders if w.hand == hand)
    return {"text": text, "read": {"players": list(players), "order": reading.to_json()}}


PLAYERS = ["Arthur", "Bruno", "Chloé"]


def test_a_record_is_played_as_it_was_read_without_reading_its_text(monkeypatch):
    record = record_for("Hand 3: Guard on Bruno, guess King", 3, PLAYERS, "Arthur")
    monkeypatch.setattr(pbem.orderbook, "parse_orders", None)  # any reading would fail
    assert order_as_read(record, 3, PLAYERS, "Arthur") == WrittenOrder(
        3, Card.GUARD, "Bruno", Card.KING, text="Hand 3: Guard on Bruno, guess King"
    )


def test_the_reading_on_file_wins_over_a_new_reading_of_the_text():
    # As after an upgrade that reads the text otherwise: the player was told the first reading.
    told = WrittenOrder(3, Card.BARON, "Chloé", text="Hand 3: Guard on Bruno, guess King")
    record = record_for(told.text, 3, PLAYERS, "Arthur", reading=told)
    assert order_as_read(record, 3, PLAYERS, "Arthur") == told


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.pop("read"),  # a record of an older version
        lambda r: r["read"].update(players=["Arthur", "Bernard", "Chloé"]),  # a seat renamed since
        lambda r: r["read"].update(players=["Arthur", "Chloé", "Bruno"]),  # other seats
        lambda r: r["read"].update(order={"hand": 3, "card": "guard"}),  # not to_json's
        lambda r: r["read"].update(order=WrittenOrder(4, Card.BARON, "Chloé").to_json()),  # another hand
        lambda r: r["read"].update(order=WrittenOrder(3, None, standing="keep").to_json()),  # no play
        lambda r: r.update(read="Baron on Chloé"),
    ],
)
def test_the_text_is_read_again_when_the_reading_on_file_does_not_fit(change):
    told = WrittenOrder(3, Card.BARON, "Chloé", text="Hand 3: Guard on Bruno, guess King")
    record = record_for(told.text, 3, PLAYERS, "Arthur", reading=told)
    change(record)
    assert order_as_read(record, 3, PLAYERS, "Arthur") == WrittenOrder(
        3, Card.GUARD, "Bruno", Card.KING, text=told.text
    )


def test_a_text_with_no_play_for_the_hand_gives_none():
    assert order_as_read({"text": "Hand 3: if Bishop, keep"}, 3, PLAYERS, "Arthur") is None
    assert order_as_read({"text": "Hand 4: Baron on Chloé"}, 3, PLAYERS, "Arthur") is None


# -- through a campaign -------------------------------------------------------------------------------------


def not_to_be_read(lines: list[str], premium: bool) -> None:
    raise AssertionError(f"an order's text was read again: {lines!r}")


@pytest.mark.parametrize("players", [3, 6])
def test_a_resolve_plays_the_orders_on_file_without_reading_their_texts(tmp_path, monkeypatch, players):
    campaign = started(tmp_path, players)
    rng = random.Random(players)
    pos = campaign.position()
    for seat, hands in pos.game.awaited().items():
        text = "\n".join(an_order_line(campaign, seat, h, rng) for h in hands)
        campaign.record_orders(pos.players[seat], text)
    on_file = campaign.store.read_orders(pos.game.turn)
    assert all(r["read"]["players"] == pos.players for hands in on_file.values() for r in hands.values())
    monkeypatch.setattr(pbem.orders, "_answers_joined", not_to_be_read)  # where parse_orders starts
    campaign.resolve()
    played = json.loads((campaign.store.turn_dir(1) / "orders.json").read_text(encoding="utf-8"))
    assert len(played) == 13 and all(r["status"] in ("accepted", "completed") for r in played.values())


def test_after_a_seat_is_renamed_its_orders_and_the_others_are_read_again(tmp_path, monkeypatch):
    campaign = started(tmp_path)
    pos = campaign.position()
    seat = pos.players.index("Arthur")
    hand = pos.game.awaited()[seat][0]
    held = pos.game.hand(hand).cards[seat]
    card = next((c for c in held if c == Card.GUARD), None)
    line = (
        f"Hand {hand}: Guard on Bruno, guess King" if card else f"Hand {hand}: {legal_cards(held)[0].title}"
    )
    campaign.record_orders("Arthur", line)
    campaign.replace_player("Bruno", "Bernard", "bernard@example.org")
    read_again = []
    parse = pbem.orderbook.parse_orders
    monkeypatch.setattr(
        pbem.orderbook, "parse_orders", lambda text, *a: read_again.append(text) or parse(text, *a)
    )
    Campaign(campaign.folder).resolve(force=True)
    assert read_again == [line]
    played = json.loads((campaign.store.turn_dir(1) / "orders.json").read_text(encoding="utf-8"))
    if card:  # "Bruno" names nobody now: the Guard's target is chosen at random
        assert played[str(hand)]["status"] == "completed"


# -- the reader's patterns compile when used -------------------------------------------------------------


def test_a_lazy_pattern_does_what_the_compiled_one_does():
    pattern = LazyPattern(r"(?P<word>\w+)-(\d)", 0)
    assert pattern.pattern == r"(?P<word>\w+)-(\d)" and pattern._compiled is None
    text = "ab-1 cd-2, ef-3"
    compiled = pattern.compiled()
    assert pattern.match(text).group("word") == compiled.match(text).group("word") == "ab"
    assert pattern.match(text, 5).group(0) == "cd-2"
    assert pattern.fullmatch("ab-1") is not None and pattern.fullmatch(text) is None
    assert pattern.search(text, 1).group(0) == "b-1"
    assert pattern.findall(text) == [("ab", "1"), ("cd", "2"), ("ef", "3")]
    assert [m.group(0) for m in pattern.finditer(text)] == ["ab-1", "cd-2", "ef-3"]
    assert pattern.sub(r"\2", text) == "1 2, 3"
    assert pattern.subn(lambda m: m.group(1).upper(), text, 2) == ("AB CD, ef-3", 2)
    assert pattern.split(text, 1) == ["", "ab", "1", " cd-2, ef-3"]


FIRST_CALLS = [
    ("match", ("xx-AB-3 cd-4", 3, 6)),
    ("fullmatch", ("xx-AB-3 cd-4", 3, 7)),
    ("search", ("ab-1 CD-2 ef-3", 2, 8)),
    ("findall", ("ab-1 CD-2 ef-3", 2, 12)),
    ("finditer", ("ab-1 CD-2 ef-3", 2, 12)),
    ("sub", (r"<\2>", "ab-1 CD-2 ef-3", 2)),
    ("subn", (r"<\2>", "ab-1 CD-2 ef-3", 2)),
    ("split", ("ab-1 CD-2 ef-3", 2)),
]


@pytest.mark.parametrize(("method", "args"), FIRST_CALLS)
def test_a_lazy_pattern_s_first_call_passes_on_every_argument_and_the_flags(method, args):
    source, flags = r"(?P<word>[a-z]+)-(\d)", re.IGNORECASE
    assert same(getattr(LazyPattern(source, flags), method)(*args)) == same(
        getattr(re.compile(source, flags), method)(*args)
    )


@pytest.mark.parametrize("method", ["match", "fullmatch", "search", "findall", "finditer", "sub", "split"])
def test_a_lazy_pattern_compiles_at_its_first_call_and_then_calls_the_compiled_one(method):
    pattern = LazyPattern(r"x+", 0)
    args = ("-", "axxb") if method == "sub" else ("axxb",)
    first = getattr(pattern, method)(*args)
    assert pattern._compiled is not None
    bound = getattr(pattern, method)
    assert bound.__self__ is pattern.compiled()  # later calls: the compiled pattern's own method
    assert same(first) == same(bound(*args))


def same(result):
    """A result as a value to compare: match objects by their spans."""
    if isinstance(result, re.Match):
        return result.span()
    if hasattr(result, "__next__"):  # finditer's
        return [m.span() for m in result]
    return result


def test_an_invalid_lazy_pattern_fails_at_its_first_use_and_stays_uncompiled():
    pattern = LazyPattern(r"(unclosed", 0)
    with pytest.raises(Exception, match="missing"):
        pattern.search("text")
    assert pattern._compiled is None


SPY = """
import sys, pbem.grammar, pbem.orders
from pbem.lazyre import LazyPattern
{run}
compiled = [
    name
    for module in (pbem.grammar, pbem.orders)
    for name, value in vars(module).items()
    if isinstance(value, LazyPattern) and value._compiled is not None
]
print(len([v for m in (pbem.grammar, pbem.orders) for v in vars(m).values() if isinstance(v, LazyPattern)]))
print(" ".join(compiled))
"""


def compiled_after(run: str) -> tuple[int, list[str]]:
    out = subprocess.run(
        [sys.executable, "-c", SPY.format(run=run)], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return int(out[0]), out[1].split()


def test_importing_the_order_reader_compiles_none_of_its_patterns():
    patterns, compiled = compiled_after("")
    assert patterns >= 30 and compiled == []


def test_a_resolve_compiles_none_of_the_reader_s_long_patterns(tmp_path):
    campaign = started(tmp_path, 6)
    rng = random.Random(6)
    pos = campaign.position()
    for seat, hands in pos.game.awaited().items():
        campaign.record_orders(
            pos.players[seat], "\n".join(an_order_line(campaign, seat, h, rng) for h in hands)
        )
    _, compiled = compiled_after(
        f"from pbem.campaign import Campaign; Campaign({str(campaign.folder)!r}).resolve()"
    )
    assert (campaign.store.turn_dir(1)).is_dir()
    # What checking an order uses may compile (its words; HAND_REF for a Princess's line, played
    # only when it names her alone); what only reading a text uses may not.
    assert not {"_MID_LINE_HAND", "_HAND_LIST", "_HAND_RANGE", "_HAND_NAMED_LAST", "_TOKEN"} & set(compiled)
    _, compiled = compiled_after(
        "pbem.orders.parse_orders('Hand 3: Guard on Bruno', ['Arthur', 'Bruno'], 'Arthur')"
    )
    assert "HAND_REF" in compiled  # (the spy sees a compile when there is one)
