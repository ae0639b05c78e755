"""The private mail is a player's whole table (issue 11, items 1 and 2).

For each hand where it is the player's turn, the mail shows who is still in,
who is protected, every discard pile in order, what the player knows, the draw
pile and the last play; and the plays open to them, from the cards they hold.
A player who reads only this mail can write their orders: the last test plays
a whole game from the mails' words alone.
"""

from __future__ import annotations

import re

import kit
from builders import B, C, G, H, K, P, S, X, deck

from pbem.campaign import Campaign
from pbem.cards import COUNTS
from pbem.engine import Game, shuffled_deck
from pbem.reports import Renderer, Table, card_reference, private_context

NAMES = ["Arthur", "Bruno", "Charles"]
TABLE = Table("t", "Test", NAMES)
RENDER = Renderer()


def block(mail: str, hand: int) -> str:
    """The block of the mail about the player's turn in ``hand``."""
    start = mail.index(f"\nYour turn in hand {hand}.")
    end = mail.find("\n\n", start + 2)
    return mail[start:end]


def scripted(tmp_path) -> Campaign:
    """Hand 1: Arthur holds Spy and Guard, Bruno the Prince, Charles a Handmaid;
    the pile starts Handmaid, Countess, Guard."""
    hand1 = kit.deck_titles(3, 1, {0: S, 1: P, 2: H}, G, set_aside=B, pile=[H, C, G])
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, decks={1: hand1}))
    campaign = Campaign(folder)
    campaign.start()
    return campaign


def test_the_player_on_turn_sees_discards_protections_and_what_they_know(tmp_path):
    campaign = scripted(tmp_path)
    campaign.record_orders("Arthur", "Hand 1: Spy on Bruno")  # turn 1: Arthur sees the Prince
    campaign.resolve(force=True)
    campaign.record_orders("Bruno", "Hand 1: Handmaid")  # turn 2: Bruno protected
    campaign.resolve(force=True)
    campaign.record_orders("Charles", "Hand 1: Handmaid")  # turn 3: Charles protected
    campaign.resolve(force=True)
    mail = campaign.report(player="Arthur")
    table = block(mail, 1)
    assert "You hold two Guards." in table
    assert "Still in:   Arthur (you), Bruno, Charles" in table
    assert "Protected:  Bruno and Charles (Handmaid" in table
    assert re.search(r"Arthur +Spy\n +Bruno +Handmaid\n +Charles +Handmaid\n", table), table
    assert (
        "You know:   Bruno holds the Prince (your Spy saw it, turn 1; they have played the Handmaid since)."
    ) in table
    assert "Draw pile:  8 cards." in table
    # both others are protected: the Guard can be played, to no effect, and the mail says so
    assert "Players you may name: nobody (Bruno and Charles: protected)" in table
    assert 'Guard:    "Hand 1: Guard on Bruno, guess <card>"  (no effect)' in table
    # what Arthur knows is his alone
    for other in ("Bruno", "Charles"):
        assert "holds the Prince" not in campaign.report(player=other)
    assert "holds the Prince" not in campaign.report()


def test_knowledge_that_may_be_stale_says_so(tmp_path):
    """Bruno was seen holding the Prince, then played the Prince: what Arthur
    saw may no longer hold, and the mail says so rather than "holds"."""
    hand1 = kit.deck_titles(3, 1, {0: S, 1: P, 2: H}, G, set_aside=B, pile=[P, C, G])
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, decks={1: hand1}))
    campaign = Campaign(folder)
    campaign.start()
    campaign.record_orders("Arthur", "Hand 1: Spy on Bruno")
    campaign.resolve(force=True)
    campaign.record_orders("Bruno", "Hand 1: Prince on Charles")
    campaign.resolve(force=True)
    campaign.record_orders("Charles", "Hand 1: Countess")
    campaign.resolve(force=True)
    table = block(campaign.report(player="Arthur"), 1)
    assert (
        "You know:   Bruno held the Prince on turn 1 (your Spy saw it); they have played or lost a card "
        "since, so it may have changed."
    ) in table


def context(game: Game, seat: int, events=()) -> str:
    return RENDER.private(private_context(TABLE, 1, game, list(events), seat, code="AAAA-BBBB"))


def game_with(number: int, held, draw, **kw) -> Game:
    decks = {n: shuffled_deck("mail", n) for n in range(1, 14)}
    decks[number] = deck(3, number, held, draw, **kw)
    return Game.new(3, decks)


def test_last_play_of_a_hand_is_announced():
    game = game_with(1, {0: G, 1: B, 2: P}, draw=S)
    game.hand(1).pile.clear()
    table = block(context(game, 0), 1)
    assert "Draw pile:  empty. This is the last play of this hand" in table
    game = game_with(1, {0: G, 1: B, 2: P}, draw=S)
    assert "last play" not in block(context(game, 0), 1)


def test_choices_come_from_the_cards_held():
    game = game_with(1, {0: H, 1: B, 2: P}, draw=S)
    table = block(context(game, 0), 1)
    assert 'Handmaid: "Hand 1: Handmaid"  (protects you until your next turn here)' in table
    assert "Players you may name: Bruno or Charles" in table
    assert 'Spy:      "Hand 1: Spy on <player>"' in table
    for card in ("Guard", "Baron", "Prince", "King", "Countess", "Princess"):
        assert f"{card}:" not in table


def test_countess_rule_offers_the_countess_only():
    game = game_with(1, {0: C, 1: B, 2: G}, draw=K)
    table = block(context(game, 0), 1)
    assert 'Countess: "Hand 1: Countess"  (you must: you also hold the King)' in table
    assert "King:" not in table


def test_prince_may_name_oneself_and_princess_warns():
    game = game_with(1, {0: P, 1: B, 2: G}, draw=X)
    game.hand(1).protected[1] = True
    table = block(context(game, 0), 1)
    assert "Players you may name: Charles (Bruno: protected)" in table
    assert 'Prince:   "Hand 1: Prince on <player>"  (or "Hand 1: Prince on myself")' in table
    assert 'Princess: "Hand 1: Princess"  (you would be out of the hand)' in table
    assert "Protected:  Bruno (Handmaid" in table


def test_guard_form_names_players_and_guess():
    game = game_with(1, {0: G, 1: B, 2: P}, draw=S)
    game.hand(1).alive[2] = False
    table = block(context(game, 0), 1)
    assert "Players you may name: Bruno\n" in table
    assert 'Guard:    "Hand 1: Guard on <player>, guess <card>"  (<card>: any card but the Guard)' in table
    assert "Out:        Charles" in table


def test_not_the_players_turn_anywhere_says_nothing_to_send():
    game = game_with(1, {0: G, 1: B, 2: P}, draw=S)
    mail = context(game, 1)
    assert "Your turn in hand 1." not in mail


def test_every_private_mail_carries_the_card_reference():
    game = game_with(1, {0: G, 1: B, 2: P}, draw=S)
    mail = context(game, 1)
    for entry in card_reference():
        assert re.search(rf"^  {entry['rank']} {entry['name']} +x{entry['count']}  \w", mail, re.M), entry


def test_every_card_of_the_deck_has_an_effect_line():
    """A card added to the deck (pbem/cards.py) without its line in
    templates/_cards.txt.j2 fails here."""
    listed = RENDER.env.from_string('{% import "_cards.txt.j2" as c %}{{ c.reference(r) }}').render(
        r=card_reference()
    )
    assert len(listed.strip().splitlines()) == len(COUNTS)
    for card in COUNTS:
        effect = RENDER.env.from_string('{% import "_cards.txt.j2" as c %}{{ c.effect(n) }}').render(
            n=card.title
        )
        assert len(effect) > 20, card


def _orders_from_mail(mail: str, players: list[str], me: str) -> str:
    """What a new player writes after reading only their mail: for each hand on
    turn, the first choice shown, its <player> replaced by the first player it
    lists, its <card> by the Prince."""
    lines = []
    for block_ in mail.split("\nYour turn in hand ")[1:]:
        who = re.search(r"Players you may name: (\w+)", block_)
        order = re.search(r'\n    \w+: +"(Hand \d+: [^"]+)"', block_).group(1)
        if who and who.group(1) != "nobody":
            order = order.replace("<player>", who.group(1))
        lines.append(order.replace("<card>", "Prince"))
    return "\n".join(lines)


def test_a_whole_game_played_from_the_private_mails_alone(tmp_path):
    """Every turn, each player writes what their mail suggests: every order is
    accepted, no card is suggested that the player does not hold, and the game
    ends without a single default."""
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3))
    campaign = Campaign(folder)
    campaign.start()
    players = campaign.position().players
    for _ in range(60):
        pos = campaign.position()
        if pos.game.finished:
            break
        for seat, hands in pos.game.awaited().items():
            me = players[seat]
            mail = campaign.report(player=me)
            for h in hands:
                held = pos.game.hand(h).cards[seat]
                shown = re.findall(rf'\n    (\w+): +"Hand {h}: ', mail)
                assert shown and set(shown) <= {c.title for c in held}, (h, held, shown)
            if hands:
                receipt = campaign.record_orders(me, _orders_from_mail(mail, players, me))
                statuses = [c.status for c in receipt.checked]
                assert statuses == ["accepted"] * len(hands), (receipt.lines(), mail)
                assert not receipt.missing
        result = campaign.resolve()
        assert not result.defaults
    assert campaign.position().game.finished


def test_last_turn_in_the_hand_is_told_in_the_private_mail(tmp_path):
    """Bruno decides hand 1 without the public report: Arthur's Spy play on him
    last turn is in his mail (the public part only: not what the Spy saw)."""
    campaign = scripted(tmp_path)
    campaign.record_orders("Arthur", "Hand 1: Spy on Bruno")
    campaign.resolve(force=True)
    table = block(campaign.report(player="Bruno"), 1)
    assert "  Last turn:\n    Arthur played the Spy on Bruno.\n" in table
    assert "Prince" not in table.split("Still in")[0].replace("You hold the Prince", "")


def test_the_opening_mail_says_how_the_game_goes():
    game = game_with(1, {0: G, 1: B, 2: P}, draw=S)
    opening = RENDER.private(private_context(TABLE, 0, game, [], 0, code="AAAA-BBBB"))
    assert "How the game goes: thirteen hands of Love Letter are played at once." in opening
    assert "first to 5 tokens wins the game" in opening
    assert "How the game goes" not in context(game, 0)  # turn 1 on: not repeated
