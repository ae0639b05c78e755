"""Five to eight players with the Premium deck, through the public commands and
the campaign API (RULES.md 10, INTERFACE.md): campaign files, orders and their
acknowledgements, standing Bishop orders, export keys, reports, `pbem verify`."""

from __future__ import annotations

import random
import re

import kit
import pytest

from pbem.campaign import Campaign
from pbem.cards import PREMIUM_DECK, Card
from pbem.engine import Game, Hand, Order, legal_cards, play_turn, shuffled_deck
from pbem.record import extract, verify
from pbem.reports import Renderer, Table, private_context, public_context

SIX = [
    {"name": n, "email": f"{n.lower()}@example.org"}
    for n in ("Arthur", "Bruno", "Charles", "Didier", "Emma", "Fanny")
]
NAMES = [p["name"] for p in SIX]
PREMIUM_NAMES = [c.title for c in PREMIUM_DECK]


def premium_deck(*top: str) -> list[str]:
    rest = list(PREMIUM_NAMES)
    for name in top:
        rest.remove(name)
    return list(top) + rest


@pytest.fixture
def six(tmp_path, cli):
    """Hand 1: Arthur holds the Guard and the Cardinal; Bruno the Assassin, Charles the King,
    Didier the Princess, Emma the Bishop, Fanny the Count; the set-aside card is a Spy."""
    folder = tmp_path / "six"
    deck = premium_deck("Spy", "Guard", "Assassin", "King", "Princess", "Bishop", "Count", "Cardinal")
    kit.write_config(folder, kit.config(SIX, decks={1: deck}, seed="a-long-secret-seed-for-six"))
    cli.ok("start", folder)
    return folder


def test_a_six_player_campaign_starts_with_the_premium_deck(six, cli):
    data = cli.export(six)
    assert data["players"] == NAMES
    h1 = data["hands"][0]
    assert h1["draw_pile"] == 24 and h1["set_aside"] == "Spy" and h1["marked"] is None
    assert h1["players"]["Arthur"]["cards"] == ["Guard", "Cardinal"]
    assert h1["players"]["Bruno"]["cards"] == ["Assassin"]
    assert "face_up" not in h1
    assert "4 tokens" in cli.report(six, 0)
    private = cli.report(six, 0, "Arthur")
    assert "Premium deck: a Guard or a Bishop names a number" in private
    assert all(
        card in private
        for card in (
            "Assassin",
            "Jester",
            "Cardinal",
            "Baroness",
            "Sycophant",
            "Count ",
            "Constable",
            "Dowager Queen",
            "Bishop",
        )
    )


@pytest.mark.parametrize("count", [5, 7, 8])
def test_five_to_eight_players_start(tmp_path, cli, count):
    players = [{"name": f"Player{chr(65 + i)}", "email": f"p{i}@example.org"} for i in range(count)]
    folder = tmp_path / f"g{count}"
    kit.write_config(folder, kit.config(players))
    cli.ok("start", folder)
    data = cli.export(folder)
    assert all(h["draw_pile"] == 30 - count for h in data["hands"])


def test_a_classic_deck_in_a_six_player_game_is_refused(tmp_path, cli, snap):
    folder = tmp_path / "bad"
    kit.write_config(folder, kit.config(SIX, decks={2: kit.FULL_DECK}))
    before = snap(folder)
    out = cli.fails("start", folder).output
    assert snap(folder) == before
    assert "decks.2" in out and "32 cards of the Premium deck" in out and "has 16" in out


def test_a_premium_card_in_a_classic_deck_is_refused(tmp_path, cli):
    deck = list(kit.FULL_DECK)
    deck[deck.index("Princess")] = "Bishop"
    folder = tmp_path / "bad"
    kit.write_config(folder, kit.config(3, decks={1: deck}))
    out = cli.fails("start", folder).output
    assert "Bishop" in out and "classic" in out


def test_a_guard_order_with_a_number_is_exported_as_an_integer(six, cli):
    out = cli.ok("order", six, "--player", "Arthur", "Hand 1: Guard on Charles, guess Prince").output
    assert "Hand 1: Guard on Charles, guess 5" in out and "ACCEPTED" in out.upper()
    order = cli.export(six)["orders"]["Arthur"]["1"]
    assert order["guess"] == 5 and order["target"] == "Charles"


def test_a_cardinal_order_is_acknowledged_and_exported_with_targets_and_look(six, cli):
    out = cli.ok("order", six, "--player", "Arthur", "Hand 1: Cardinal on Charles and Didier").output
    assert "Charles and Didier will trade hands; you will look at Charles's new card" in out
    order = cli.export(six)["orders"]["Arthur"]["1"]
    assert order["targets"] == ["Charles", "Didier"] and order["look"] == "Charles"
    assert order["target"] == "Charles"
    cli.ok("order", six, "--player", "Arthur", "Hand 1: Cardinal on me and Didier")
    assert cli.export(six)["orders"]["Arthur"]["1"]["look"] == "Didier"


def test_a_guard_on_the_assassin_knocks_out_its_player_in_the_reports(six, cli):
    cli.ok("order", six, "--player", "Arthur", "Hand 1: Guard on Bruno, guess 4")
    cli.ok("resolve", six, "--force")
    public = cli.report(six, 1).split("Hand 2")[0]
    assert "Bruno holds the Assassin: Arthur is out instead" in public
    h1 = cli.export(six)["hands"][0]
    assert not h1["players"]["Arthur"]["in"]
    assert h1["players"]["Bruno"]["discards"] == ["Assassin"]
    private = cli.report(six, 1, "Bruno")
    assert "after the Assassin, you drew the" in private


def test_a_cardinal_trade_is_public_and_the_cards_private(six, cli):
    cli.ok("order", six, "--player", "Arthur", "Hand 1: Cardinal on Charles and Didier, look at Didier")
    cli.ok("resolve", six, "--force")
    public = cli.report(six, 1).split("Hand 2")[0]
    assert "Charles and Didier trade hands." in public
    assert "Princess" not in public and "King" not in public.replace("Kingdom", "")
    assert "your Cardinal showed you Didier's new card: the King." in cli.report(six, 1, "Arthur")
    assert "you received the Princess" in cli.report(six, 1, "Charles")
    assert "you received the King" in cli.report(six, 1, "Didier")
    assert "Didier" not in cli.report(six, 1, "Emma").split("What you learned")[-1].split("Your cards")[0]


def test_a_standing_bishop_order_stands_and_is_not_a_play(six, cli, tmp_path):
    out = cli.ok("order", six, "--player", "Charles", "Hand 1: if Bishop, discard").output
    assert "Hand 1: if Bishop, discard" in out
    assert "Charles" not in cli.export(six)["orders"]  # no play order on file
    cli.ok("order", six, "--player", "Arthur", "Hand 1: Guard on Didier, guess 2\nHand 1: if Bishop, keep")
    assert cli.export(six)["orders"]["Arthur"]["1"]["card"] == "Guard"  # the play order stands
    cli.ok("resolve", six, "--force")
    campaign = Campaign(six)
    h1 = campaign.position().game.hand(1)
    assert h1.bishop_discard[2] and not h1.bishop_discard[0]


def test_resolve_reads_every_premium_order_form(six, cli):
    text = "\n".join(
        [
            "Hand 1: Cardinal on Charles and Didier, look at Didier",
            "Hand 3: Baroness on Charles and Didier",
            "Hand 5: Sycophant on myself",
            "Hand 7: Jester on Charles",
            "Hand 9: Dowager Queen on Charles",
            "Hand 11: Bishop on Charles, guess 7",
            "Hand 13: Count",
        ]
    )
    out = cli.ok("order", six, "--player", "Arthur", text).output
    assert "Hand 1: Cardinal on Charles and Didier, look at Didier" in out


def six_campaign(tmp_path, seed: str, policy_seed: int) -> Campaign:
    folder = tmp_path / "vsix"
    folder.mkdir(parents=True)
    import yaml

    (folder / "campaign.yaml").write_text(yaml.safe_dump({"players": SIX, "seed": seed}), encoding="utf-8")
    campaign = Campaign(folder)
    campaign.start()
    policy = random.Random(policy_seed)
    while not campaign.position().game.finished:
        pos = campaign.position()
        for seat, hands in pos.game.awaited().items():
            me = pos.players[seat]
            lines = []
            for h in hands:
                card = policy.choice(legal_cards(pos.game.hand(h).cards[seat]))
                others = [p for p in pos.players if p != me]
                a, b = policy.sample(others, 2)
                lines.append(f"Hand {h}: {card.title} on {a} and {b}, guess {policy.choice(range(10))}")
                if policy.random() < 0.3:
                    what = policy.choice(["discard", "keep"])
                    lines.append(f"Hand {policy.randint(1, 13)}: if Bishop, {what}")
            if policy.random() < 0.8:
                campaign.record_orders(me, "\n".join(lines))
        campaign.resolve(force=True)
    return campaign


def test_verify_replays_a_premium_game_with_standing_orders(tmp_path):
    campaign = six_campaign(tmp_path, "verify-a-premium-game-long-seed", 3)
    record = extract(campaign.report())
    assert verify(record) == []
    assert any("standing" in t for t in record["turns"])
    assert any(isinstance(o.get("guess"), int) for t in record["turns"] for o in t["orders"].values() if o)


def test_a_standing_discard_order_changes_the_bishops_result_and_verify_checks_it(tmp_path, cli):
    folder = tmp_path / "bish"
    # Hand 2: Bruno is first, with the Bishop and a Handmaid; Charles holds the King.
    deck = premium_deck("Spy", "Bishop", "King", "Guard", "Guard", "Guard", "Guard", "Handmaid", "Prince")
    kit.write_config(folder, kit.config(SIX, decks={2: deck}, seed="standing-orders-long-seed-abc"))
    cli.ok("start", folder)
    cli.ok("order", folder, "--player", "Charles", "Hand 2: if Bishop, discard")
    cli.ok("order", folder, "--player", "Bruno", "Hand 2: Bishop on Charles, guess King")
    cli.ok("resolve", folder, "--force")
    public = cli.report(folder, 1).split("Hand 2")[1].split("Hand 3")[0]
    assert (
        "Hit! Charles holds a card of rank 6: Bruno gains a token of affection. Charles discards the King"
        in public
    )
    assert "+1 (Bishop, hand 2)" in cli.report(folder, 1)
    assert "after the Bishop, you drew the Prince." in cli.report(folder, 1, "Charles")
    assert cli.export(folder)["tokens"]["Bruno"] == 1
    campaign = Campaign(folder)
    while not campaign.position().game.finished:
        campaign.resolve(force=True)
    record = extract(campaign.report())
    assert verify(record) == []
    assert record["turns"][0]["standing"] == {"2": {"2": True}}
    del record["turns"][0]["standing"]
    problems = verify(record)
    assert problems and "turn 1" in problems[0]


def test_verify_catches_a_changed_premium_result(tmp_path):
    campaign = six_campaign(tmp_path, "verify-a-premium-game-long-seed-2", 5)
    record = extract(campaign.report())
    assert verify(record) == []
    record["tokens"][0] += 1
    assert verify(record)


# -- reports: every Premium event has its wording, public and private ----------------------------------------


def _hand(held: dict[int, Card], draw: Card) -> Hand:
    from builders import hand

    full = {seat: Card.GUARD for seat in range(6)}
    full.update(held)
    return hand(6, 1, full, draw=draw)


RENDERER = Renderer()
TABLE = Table("six", "Premium", NAMES)


def _render(events: list, h: Hand) -> tuple[str, dict[int, str]]:
    game = Game.new(6, {n: shuffled_deck("r", n, 6) for n in range(1, 14)})
    game.hands[0] = h
    public = RENDERER.public(public_context(TABLE, 1, game, events))
    private = {s: RENDERER.private(private_context(TABLE, 1, game, events, s)) for s in range(6)}
    return public, private


def _play(h: Hand, order: Order) -> list:
    out: list = []
    play_turn(h, order, random.Random(0), out)
    return out


def test_every_premium_event_has_a_wording():
    C = Card
    cases = [
        (_hand({1: C.ASSASSIN}, C.KING), Order(C.GUARD, 1, 3)),
        (_hand({1: C.KING, 2: C.PRINCESS}, C.CARDINAL), Order(C.CARDINAL, 1, None, 2, 2)),
        (_hand({1: C.KING, 2: C.PRINCESS}, C.BARONESS), Order(C.BARONESS, 1, None, 2)),
        (_hand({1: C.KING}, C.SYCOPHANT), Order(C.SYCOPHANT, 3)),
        (_hand({1: C.PRINCESS}, C.DOWAGER_QUEEN), Order(C.DOWAGER_QUEEN, 1)),
        (_hand({1: C.KING}, C.BISHOP), Order(C.BISHOP, 1, 6)),
        (_hand({1: C.KING}, C.JESTER), Order(C.JESTER, 1)),
    ]
    seen = set()
    for h, order in cases:
        events = _play(h, order)
        seen |= {e.kind for e in events}
        public, private = _render(events, h)
        assert not re.search(r"\(\w+\)\s*$", public, re.M), public  # no event fell to the "(kind)" fallback
        for text in private.values():
            assert not re.search(r"Hand 1: \(\w+\)", text), text
    assert {
        "assassin",
        "card_drew",
        "chose",
        "cardinal_received",
        "cardinal_saw",
        "baroness_saw",
        "marked",
        "queen",
        "queen_saw",
        "bishop",
    } <= seen


def test_the_mark_and_its_correction_are_public():
    C = Card
    h = _hand({1: C.KING, 2: C.PRINCE}, C.SYCOPHANT)
    events = _play(h, Order(C.SYCOPHANT, 2))
    h.cards[1] = [C.GUARD, C.SPY]
    events += _play(h, Order(C.GUARD, 3, 5))
    public, _ = _render(events, h)
    assert "Arthur's Sycophant marks Charles" in public
    assert "The Sycophant's mark: the card goes to Charles instead of Didier." in public


def test_bishop_hit_and_values_wording():
    C = Card
    h = _hand({1: C.KING}, C.BISHOP)
    h.bishop_discard[1] = True
    public, private = _render(_play(h, Order(C.BISHOP, 1, 6)), h)
    assert (
        "Hit! Bruno holds a card of rank 6: Arthur gains a token of affection. "
        "Bruno discards the King and draws"
    ) in public
    assert "after the Bishop, you drew the" in private[1]


def test_premium_orders_by_mail_are_acknowledged(tmp_path, cli):
    from email import message_from_bytes
    from email.policy import default

    from pbem import inbox
    from pbem.campaign import order_code

    folder = tmp_path / "mailsix"
    deck = premium_deck("Spy", "Guard", "Assassin", "King", "Princess", "Bishop", "Count", "Cardinal")
    seed = "a-long-secret-seed-for-mailsix"
    kit.write_config(
        folder, kit.config(SIX, decks={1: deck}, seed=seed, gm={"name": "Rita", "email": "gm@example.org"})
    )
    cli.ok("start", folder)
    campaign = Campaign(folder)
    raw = (
        "From: Arthur <arthur@example.org>\r\nTo: gm@example.org\r\n"
        "Subject: Re: [mailsix] Turn 1: your cards and orders\r\nMessage-ID: <six1@x>\r\n\r\n"
        "Hand 1: Cardinal on Charles and Didier, look at Didier\r\n"
        "Hand 4: if Bishop, discard\r\n\r\n"
        f"Your order code: {order_code(seed, 'Arthur')}\r\n"
    ).encode()
    path = tmp_path / "six1.eml"
    path.write_bytes(raw)
    outcome = inbox.receive_file(campaign, path)
    body = message_from_bytes(
        (folder / "mail" / "outbox" / f"{outcome.ack}.eml").read_bytes(), policy=default
    ).get_content()
    assert "Hand 1: Cardinal on Charles and Didier, look at Didier" in body
    assert "Charles and Didier will trade hands; you will look at Didier's new card" in body
    assert "Hand 4: if Bishop, discard" in body and "you will discard your card" in body
    assert "REJECTED" not in body
    assert Campaign(folder).store.read_standing(1) == {"Arthur": {"4": "discard"}}


def test_a_standing_order_stays_with_the_seat_when_its_player_is_replaced(six, cli):
    cli.ok("order", six, "--player", "Charles", "Hand 1: if Bishop, discard")
    cli.ok("replace", six, "Charles", "--name", "Claude", "--email", "claude@example.org")
    cli.ok("resolve", six, "--force")
    assert Campaign(six).position().game.hand(1).bishop_discard[2]


def test_a_premium_card_name_is_a_fine_player_name_in_a_classic_game_only(tmp_path, cli):
    players = [dict(p) for p in kit.PLAYERS3]
    players[1]["name"] = "Count"
    folder = tmp_path / "classic"
    kit.write_config(folder, kit.config(players))
    cli.ok("start", folder)
    data = cli.export(folder)
    first = data["hands"][0]["active"]
    assert first == "Arthur"
    out = cli.fails("order", folder, "--player", "Arthur", "Hand 1: Guard on Count, guess Prince").output
    assert "Guard on Count" in out  # read as a player's name (then refused: Arthur holds no Guard here)
    six_players = [dict(p) for p in SIX]
    six_players[1]["name"] = "Count"
    folder = tmp_path / "premium"
    kit.write_config(folder, kit.config(six_players))
    out = cli.fails("start", folder).output
    assert "would be read as a card" in out


def test_rollback_and_resolve_again_gives_the_same_turn_with_its_standing_orders(six, cli):
    cli.ok("order", six, "--player", "Emma", "Hand 1: if Bishop, discard")
    cli.ok("order", six, "--player", "Arthur", "Hand 1: Cardinal on Charles and Didier")
    cli.ok("resolve", six, "--force")
    first = cli.export(six)
    state = Campaign(six).position().game.to_dict()
    cli.ok("rollback", six)
    cli.ok("resolve", six, "--force")
    assert cli.export(six) == first
    assert Campaign(six).position().game.to_dict() == state
    assert Campaign(six).position().game.hand(1).bishop_discard[4]


@pytest.mark.parametrize(
    "text, player, why",
    [
        ("Hand 14: if Bishop, discard", "Charles", "there is no hand 14"),
        ("Hand 1: Bishop on Charles, guess 7", "Arthur", "you do not hold the Bishop"),
        ("Hand 1: Cardinal on Charles and Didier", "Bruno", "it is not your turn in hand 1"),
        ("Hand 1: 2 on Charles", "Arthur", "no card named"),
    ],
)
def test_premium_orders_that_must_be_refused(six, cli, text, player, why):
    out = cli.fails("order", six, "--player", player, text).output
    assert "rejected" in out and why in out
    assert player not in cli.export(six)["orders"]
    assert Campaign(six).store.read_standing(1) == {}


@pytest.mark.parametrize(
    "text, why",
    [
        ("Hand 1: Guard on myself, guess 4", "on yourself"),
        ("Hand 1: Guard on Zoe, guess 4", "names no player"),
        ("Hand 1: Guard on Charles", "no number named"),
        ("Hand 1: Guard on Charles, guess Guard", "may not name 1"),
        ("Hand 1: Cardinal on Charles", "second player"),
    ],
)
def test_premium_orders_that_are_completed_say_why(six, cli, text, why):
    out = cli.ok("order", six, "--player", "Arthur", text).output
    assert "completed" in out and why in out


@pytest.mark.parametrize(
    "held, lines",
    [
        (
            [Card.SYCOPHANT, Card.GUARD],
            [
                '"Hand 1: Sycophant on <player>"  (or "Hand 1: Sycophant on myself")',
                '"Hand 1: Guard on <player>, guess <number>"  '
                "(<number>: 0 or 2 to 9; a card's name names its rank)",
            ],
        ),
        (
            [Card.CARDINAL, Card.BARONESS],
            [
                '"Hand 1: Cardinal on <player> and <player>, look at <player>"  (you may be one of the two)',
                '"Hand 1: Baroness on <player> and <player>"  (or on one player)',
            ],
        ),
        (
            [Card.BISHOP, Card.JESTER],
            ['"Hand 1: Bishop on <player>, guess <number>"', '"Hand 1: Jester on <player>"'],
        ),
        ([Card.COUNT, Card.CONSTABLE], ['"Hand 1: Count"', '"Hand 1: Constable"']),
    ],
)
def test_the_suggested_plays_follow_each_premium_cards_rule(held, lines):
    """The private mail's suggestions come from the card table: no Premium card is
    offered without the players (or number) its order needs."""
    from pbem.reports import choices

    game = Game.new(6, {n: shuffled_deck("s", n, 6) for n in range(1, 14)})
    hand = game.hand(1)
    hand.cards[0] = list(held)
    names = [p["name"] for p in SIX]
    macro = Renderer().env.from_string('{% import "_events.txt.j2" as say %}{{ say.choice(1, c) }}')
    said = [macro.render(c=c) for c in choices(names, hand, 0)]
    for line in lines:
        assert any(s.startswith(line) for s in said), (line, said)


def test_the_private_mail_remembers_premium_looks_and_trades_until_the_card_moves():
    """What a player learned by a Baroness, a Dowager Queen or a Cardinal (and the card
    they gave in a Cardinal's trade) is shown in later mails, marked as perhaps changed
    once that card may have moved: a Cardinal's trade, a Bishop's discard, the Assassin."""
    from pbem import events as ev
    from pbem.knowledge import update
    from pbem.reports import _known_by_hand

    game = Game.new(6, {n: shuffled_deck("k", n, 6) for n in range(1, 14)})
    table = Table("p", "Premium", [p["name"] for p in SIX])
    earlier = [
        (1, ev.BaronessSaw(1, 0, 1, Card.KING)),  # Arthur saw Bruno's King
        (1, ev.QueenSaw(2, 0, 2, Card.COUNT)),  # Arthur saw Charles's Count
        (1, ev.CardinalSaw(3, 0, 3, Card.SPY)),  # Arthur looked at Didier's new card
        (1, ev.CardinalReceived(4, 4, 0, Card.GUARD)),  # Emma received Arthur's Guard
        (1, ev.BaronessSaw(5, 3, 1, Card.PRINCE)),  # Didier's look: not Arthur's to know
    ]
    now = [
        (2, ev.Chose(1, 5, Card.CARDINAL, (1, 2), (1, 2))),  # Bruno's card moved
        (2, ev.BishopResult(2, 5, 2, 5, True, True, Card.COUNT)),  # Charles discarded it
        (2, ev.BishopResult(3, 5, 3, 2, True, False, None)),  # Didier kept his Spy
    ]
    record = update(update({}, 1, [e for _, e in earlier]), 2, [e for _, e in now])
    known = _known_by_hand(table, game, 0, record)
    assert known[1][0]["how"] == "baroness_saw" and known[1][0]["may_have_changed"]
    assert known[2][0]["how"] == "queen_saw" and known[2][0]["may_have_changed"]
    assert known[3][0]["how"] == "cardinal_saw" and not known[3][0]["may_have_changed"]
    assert known[4][0] | {"played_since": []} == {
        "turn": 1,
        "how": "cardinal_gave",
        "other": "Emma",
        "card": "Guard",
        "played_since": [],
        "may_have_changed": False,
    }
    assert 5 not in known  # another player's secret never reaches Arthur
    macro = Renderer().env.from_string('{% import "_events.txt.j2" as say %}{{ say.known(k) }}')
    assert macro.render(k=known[3][0]) == "Didier holds the Spy (your Cardinal showed it, turn 1)."
    assert "may have changed" in macro.render(k=known[1][0])
