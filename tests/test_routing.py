"""Issue 22, item 3: which game of a GM's folder a message goes to (pbem/routing.py),
from its headers alone: the order of the rules, and hostile headers."""

from __future__ import annotations

from email.parser import BytesHeaderParser
from email.policy import compat32

import pytest

from pbem.routing import (
    AMBIGUOUS,
    GAME,
    MAX_IDS,
    OWN,
    UNKNOWN,
    WRONG_GAME,
    FolderIndex,
    GameIndex,
    route,
    thread_ids,
)

ANN, BEN, CAT, GM = "ann@example.org", "ben@example.org", "cat@example.org", "gm@example.org"

INDEX = FolderIndex.of(
    [
        GameIndex("alpha", frozenset({ANN, BEN}), sent_ids=frozenset({"<t001-a@gm>", "<ack-a@gm>"})),
        GameIndex("bravo", frozenset({ANN, CAT}), sent_ids=frozenset({"<t001-b@gm>"})),
        GameIndex(
            "charlie",
            frozenset({BEN}),
            active=False,
            sent_ids=frozenset({"<t009-c@gm>"}),
            answer_ids=frozenset({"<route-1@gm>"}),
        ),
        GameIndex("delta", frozenset({BEN, CAT}), sent_ids=frozenset({"<t001-d@gm>"})),
    ]
)


def headers(**fields: str):
    """Parsed headers as the fetch hands them over (compat32, like the IMAP side)."""
    lines = [f"{name.replace('_', '-')}: {value}" for name, value in fields.items()]
    return BytesHeaderParser(policy=compat32).parsebytes(("\r\n".join(lines) + "\r\n\r\n").encode())


def test_the_tag_wins_over_the_thread_and_the_sender():
    h = headers(From=ANN, Subject="Re: [bravo] Turn 2: your cards", In_Reply_To="<t001-a@gm>")
    assert (route(h, INDEX).kind, route(h, INDEX).game) == (GAME, "bravo")


def test_a_bare_bracketed_game_name_is_a_tag_too():
    r = route(headers(From=ANN, Subject="orders [Alpha]"), INDEX)
    assert (r.kind, r.game) == (GAME, "alpha")


def test_without_a_tag_the_thread_decides():
    r = route(headers(From=ANN, Subject="Re: cards", In_Reply_To="<t001-b@gm>"), INDEX)
    assert (r.kind, r.game) == (GAME, "bravo")


def test_references_are_read_from_the_newest():
    r = route(headers(From=ANN, Subject="Re: x", References="<t001-a@gm> <other@x> <t001-b@gm>"), INDEX)
    assert r.game == "bravo"


def test_without_tag_nor_thread_the_only_active_game_of_the_sender():
    # Ben plays in alpha, charlie (over) and delta: two active games -> no decision
    assert route(headers(From=BEN, Subject="duel orders"), INDEX).kind == AMBIGUOUS
    # Cat plays in bravo and delta; a player of one game only goes there
    only = FolderIndex.of([*INDEX.games.values(), GameIndex("echo", frozenset({"eve@example.org"}))])
    r = route(headers(From="Eve <EVE@example.org>", Subject="duel orders"), only)
    assert (r.kind, r.game) == (GAME, "echo")


def test_a_game_over_does_not_count_while_another_is_active():
    index = FolderIndex.of(
        [
            GameIndex("old", frozenset({ANN}), active=False),
            GameIndex("new", frozenset({ANN})),
        ]
    )
    assert route(headers(From=ANN, Subject="hello"), index).game == "new"
    over = FolderIndex.of([GameIndex("old", frozenset({ANN}), active=False)])
    assert route(headers(From=ANN, Subject="hello"), over).game == "old"  # told there the game is over


def test_a_player_of_several_games_is_answered_with_their_games():
    r = route(headers(From=ANN, Subject="duel orders"), INDEX)
    assert r.kind == AMBIGUOUS and r.games == ("alpha", "bravo") and r.sender == ANN


def test_a_stranger_without_a_clue_is_unknown():
    r = route(headers(From="mom@example.net", Subject="Sunday lunch"), INDEX)
    assert r.kind == UNKNOWN and r.game is None


def test_the_tools_own_mail_is_recognised_by_its_message_id_and_auto_submitted():
    own = headers(
        From=GM,
        To=GM,
        Subject="[alpha] Turn 5 waits for your review",
        Message_ID="<t001-a@gm>",
        Auto_Submitted="auto-generated",
    )
    assert (route(own, INDEX).kind, route(own, INDEX).game) == (OWN, "alpha")
    # an answer to unroutable mail is the tool's own too
    answer = headers(From=GM, Message_ID="<route-1@gm>", Auto_Submitted="auto-generated")
    assert route(answer, INDEX).kind == OWN


def test_a_reply_quoting_our_mail_is_not_our_mail():
    """The reply names our Message-ID in In-Reply-To, has its own, and no Auto-Submitted."""
    reply = headers(
        From=ANN, Subject="Re: [alpha] Turn 5", Message_ID="<reply-1@ann>", In_Reply_To="<t001-a@gm>"
    )
    assert route(reply, INDEX).kind == GAME
    # a Message-ID of ours without the header the tool sets (a client reusing it): not ours
    no_header = headers(From=ANN, Subject="[alpha] Turn 5", Message_ID="<t001-a@gm>")
    assert route(no_header, INDEX).kind == GAME
    # Auto-Submitted: no is a person's mail
    person = headers(From=ANN, Subject="[alpha] Turn 5", Message_ID="<t001-a@gm>", Auto_Submitted="no")
    assert route(person, INDEX).kind == GAME


def test_a_tag_of_a_game_the_sender_does_not_play_in_is_not_followed():
    """Decided: Cat plays in bravo and delta; a subject naming alpha gets her an answer
    naming her games, and no order of hers goes to a game by a slip of the keyboard."""
    r = route(headers(From=CAT, Subject="[alpha] Turn 3: orders"), INDEX)
    assert r.kind == WRONG_GAME and r.games == ("bravo", "delta")


def test_a_tag_from_a_stranger_goes_to_that_game_which_lists_the_stranger():
    r = route(headers(From="mallory@evil.example", Subject="[alpha] Turn 3: orders"), INDEX)
    assert (r.kind, r.game) == (GAME, "alpha")


def test_a_forged_in_reply_to_of_another_game_from_a_player_of_a_third_is_passed_over():
    # Cat (bravo, delta) claims to answer alpha's mail: the clue is ignored, she has two games
    r = route(headers(From=CAT, Subject="orders", In_Reply_To="<t001-a@gm>"), INDEX)
    assert r.kind == AMBIGUOUS
    # ... and a later id that is one of her games' is still followed
    r = route(headers(From=CAT, Subject="orders", References="<t001-d@gm> <t001-a@gm>"), INDEX)
    assert r.game == "delta"


def test_a_forged_in_reply_to_from_a_non_player_goes_to_that_game_as_a_stranger():
    r = route(headers(From="mallory@evil.example", Subject="hi", In_Reply_To="<t001-b@gm>"), INDEX)
    assert (r.kind, r.game, r.sender) == (GAME, "bravo", "mallory@evil.example")


def test_our_routing_answers_are_no_thread_clue():
    r = route(headers(From=ANN, Subject="Re: Which game?", In_Reply_To="<route-1@gm>"), INDEX)
    assert r.kind == AMBIGUOUS


def test_a_huge_references_header_is_read_only_for_its_newest_ids():
    junk = " ".join(f"<junk{i}@x>" for i in range(20_000))
    h = headers(From=ANN, Subject="Re: x", References=junk + " <t001-b@gm>")
    assert route(h, INDEX).game == "bravo"
    assert len(thread_ids(h)) == MAX_IDS  # the work is bounded, whatever the header's length
    buried = headers(From=ANN, Subject="Re: x", References="<t001-b@gm> " + junk)
    assert route(buried, INDEX).kind == AMBIGUOUS  # older than the newest MAX_IDS ids: not looked at


@pytest.mark.parametrize(
    "fields",
    [
        {"Subject": "duel orders"},  # no From at all
        {"From": "", "Subject": "duel orders"},
        {"From": f"{ANN}, mallory@evil.example", "Subject": "duel orders"},  # two senders: nobody
        {"From": "undisclosed-recipients:;", "Subject": "duel orders"},
    ],
)
def test_a_message_with_no_single_sender_is_nobodys(fields):
    r = route(headers(**fields), INDEX)
    assert r.kind == UNKNOWN and r.sender == ""


def test_two_from_headers_are_nobodys():
    raw = f"From: {ANN}\r\nFrom: {BEN}\r\nSubject: orders\r\n\r\n".encode()
    r = route(BytesHeaderParser(policy=compat32).parsebytes(raw), INDEX)
    assert r.kind == UNKNOWN and r.sender == ""


def test_no_sender_with_a_tag_goes_to_the_game_which_lists_it():
    r = route(headers(Subject="[delta] Turn 1"), INDEX)
    assert (r.kind, r.game, r.sender) == (GAME, "delta", "")


def test_an_encoded_subject_is_decoded_for_its_tag():
    r = route(headers(From=ANN, Subject="=?utf-8?q?Re=3A_=5Bbravo=5D_Turn_2=3A_c=C3=A9?="), INDEX)
    assert r.game == "bravo"
