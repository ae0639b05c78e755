"""A campaign's life: start, the export JSON, resolve (missing orders, NMR
defaults, determinism), crash safety, rollback, and whole games to the end.

Driven through the CLI (in-process) unless a test is about the library or a
real process; INTERFACE.md and RULES.md are the reference.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import signal
import subprocess
import sys
import time

import kit
import pytest
from builders import B, C, G, H, K, P, S, X

from pbem.campaign import Campaign, GameError, MissingOrders

TOP_KEYS = {"campaign", "players", "turn", "finished", "winners", "tokens", "hands", "orders"}
HAND_KEYS = {"hand", "ended", "active", "draw_pile", "set_aside", "winners", "players"}
SEAT_KEYS = {"in", "cards", "discards", "protected"}
ORDER_KEYS = {"card", "target", "guess", "status"}


def _all_decks(n_hands=13, salt=0):
    """A fixed, different deck for every hand (canonical names)."""
    decks = {}
    for h in range(1, n_hands + 1):
        deck = list(kit.FULL_DECK)
        random.Random(f"test-deck/{salt}/{h}").shuffle(deck)
        decks[h] = deck
    return decks


def _legal_orders(data: dict, player: str, hands=None) -> str:
    """An accepted order for every hand (or ``hands``) where ``player`` is active."""
    lines = []
    for hand in data["hands"]:
        if hand["ended"] or hand["active"] != player or (hands is not None and hand["hand"] not in hands):
            continue
        held = hand["players"][player]["cards"]
        if "Countess" in held and ("King" in held or "Prince" in held):
            card = "Countess"
        else:
            card = held[0]
        line = f"Hand {hand['hand']}: {card}"
        if card in ("Guard", "Spy", "Baron", "King", "Prince"):
            target = next(n for n, p in hand["players"].items() if p["in"] and n != player)
            line += f" on {target}"
        if card == "Guard":
            line += ", guess Princess"
        lines.append(line)
    return "\n".join(lines)


def _check_hand_invariants(hand: dict, names: list[str], finished: bool) -> None:
    seats = hand["players"]
    total = hand["draw_pile"] + (hand["set_aside"] is not None)
    total += sum(len(p["cards"]) + len(p["discards"]) for p in seats.values())
    assert total == 16, f"hand {hand['hand']}: {total} cards accounted for"
    for name, p in seats.items():
        if not p["in"]:
            assert p["cards"] == [], (hand["hand"], name)
    if hand["ended"]:
        assert hand["active"] is None
        assert hand["winners"] and all(seats[w]["in"] for w in hand["winners"])
    else:
        assert hand["winners"] == []
        if not finished:
            active = hand["active"]
            assert seats[active]["in"]
            for name, p in seats.items():
                if p["in"]:
                    assert len(p["cards"]) == (2 if name == active else 1), (hand["hand"], name, p)


# == start and the export JSON (INTERFACE.md) =========================================================


@pytest.mark.parametrize("n", [3, 4])
def test_export_after_start_has_the_documented_shape(cli, tmp_path, n):
    decks = _all_decks()
    players = kit.PLAYERS3 if n == 3 else kit.PLAYERS4
    names = [p["name"] for p in players]
    folder = tmp_path / "game7"
    kit.write_config(folder, kit.config(n, decks=decks))
    cli.ok("start", folder)
    data = cli.export(folder)

    assert set(data) == TOP_KEYS
    assert data["campaign"] == "game7"
    assert data["players"] == names
    assert type(data["turn"]) is int and data["turn"] == 1
    assert data["finished"] is False
    assert data["winners"] == []
    assert list(data["tokens"]) == names and all(type(t) is int and t == 0 for t in data["tokens"].values())
    assert data["orders"] == {}
    assert [h["hand"] for h in data["hands"]] == list(range(1, 14))
    for hand in data["hands"]:
        h = hand["hand"]
        deck = decks[h]
        assert set(hand) == HAND_KEYS
        assert hand["ended"] is False
        assert hand["active"] == names[(h - 1) % n], f"first player of hand {h}"
        assert type(hand["draw_pile"]) is int and hand["draw_pile"] == (11 if n == 3 else 10)
        assert hand["set_aside"] == deck[0]
        assert hand["winners"] == []
        assert list(hand["players"]) == names
        expected = kit.dealt(deck, h, names)
        for name, seat in hand["players"].items():
            assert set(seat) == SEAT_KEYS
            assert seat["in"] is True and seat["protected"] is False and seat["discards"] == []
            assert len(seat["cards"]) == (2 if name == hand["active"] else 1)
            assert seat["cards"] == expected[name], f"hand {h}, {name}"
            assert all(c in kit.CARDS for c in seat["cards"])
        _check_hand_invariants(hand, names, False)


def test_export_without_fixed_decks_deals_legal_hands(cli, started4):
    data = cli.export(started4)
    for hand in data["hands"]:
        seen = [hand["set_aside"]] + [c for p in hand["players"].values() for c in p["cards"]]
        for card in set(seen):
            assert card in kit.CARDS and seen.count(card) <= kit.COUNTS[card]
        _check_hand_invariants(hand, data["players"], False)
    # 13 hands shuffled on their own: not all the same deal
    assert len({json.dumps(h["players"]) for h in data["hands"]}) > 1


def test_start_keeps_the_seating_as_written(cli, tmp_path):
    by_name = {p["name"]: p for p in kit.PLAYERS4}
    order = ["Diane", "Bruno", "Arthur", "Charles"]
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config([by_name[n] for n in order]))
    cli.ok("start", folder)
    data = cli.export(folder)
    assert data["players"] == order
    assert [h["active"] for h in data["hands"][:4]] == order


def test_second_start_is_refused(cli, snap, started3):
    before = snap(started3)
    result = cli.fails("start", started3)
    assert "start" in result.output.lower()
    assert snap(started3) == before


def test_same_seed_same_start(cli, tmp_path):
    outputs = []
    for side in ("a", "b"):
        folder = tmp_path / side / "game"
        kit.write_config(folder, kit.config(4))
        cli.ok("start", folder)
        outputs.append(
            (cli.export_text(folder), cli.all_reports(folder, 0, [p["name"] for p in kit.PLAYERS4]))
        )
    assert outputs[0] == outputs[1]


def test_export_orders_shape(cli, started3):
    data = cli.export(started3)
    text = _legal_orders(data, "Bruno")
    cli.ok("order", started3, "--player", "Bruno", text)
    orders = cli.export(started3)["orders"]
    assert list(orders) == ["Bruno"]
    bruno_hands = [str(h["hand"]) for h in data["hands"] if h["active"] == "Bruno"]
    assert sorted(orders["Bruno"], key=int) == bruno_hands
    for o in orders["Bruno"].values():
        assert set(o) == ORDER_KEYS
        assert o["status"] in ("accepted", "completed")


# == resolve =============================================================================================


def test_resolve_with_missing_orders_refused_and_nothing_changes(cli, snap, started3):
    data = cli.export(started3)
    cli.ok("order", started3, "--player", "Arthur", _legal_orders(data, "Arthur"))
    # Bruno sends two of his hands only.
    bruno = [h["hand"] for h in data["hands"] if h["active"] == "Bruno"]
    cli.ok("order", started3, "--player", "Bruno", _legal_orders(data, "Bruno", hands=bruno[:2]))
    before = snap(started3)
    export_before = cli.export_text(started3)
    result = cli.fails("resolve", started3)
    message = result.output
    assert snap(started3) == before, "a refused resolve must leave every file as it was"
    assert cli.export_text(started3) == export_before
    charles = [h["hand"] for h in data["hands"] if h["active"] == "Charles"]
    assert "Charles" in message and "Bruno" in message
    assert "Arthur" not in message, f"Arthur sent every order:\n{message}"
    for who, hands in (("Charles", charles), ("Bruno", bruno[2:])):
        part = message[message.index(who) :]
        for h in hands:
            assert re.search(rf"\b{h}\b", part), f"{who}'s missing hand {h} is not named:\n{message}"
    with pytest.raises(MissingOrders) as info:
        Campaign(started3).resolve()
    assert info.value.missing == {"Bruno": bruno[2:], "Charles": charles}
    assert snap(started3) == before


def test_resolve_exit_status_for_missing_orders(cli, started3):
    # pbem/cli.py documents exit status 3 for "orders missing", so that scripts
    # can tell it from other errors (1) and from usage errors (2).
    result = cli("resolve", started3)
    assert result.exit_code == 3, result.output


def test_resolve_force_applies_and_marks_nmr_defaults(cli, tmp_path):
    decks = {
        # Bruno (hand 2) holds the Princess and a Guard: the default plays the Guard (RULES 5.1)
        2: kit.deck_titles(3, 2, {0: B, 1: X, 2: H}, G, set_aside=G),
        # Charles (hand 3) holds the King and the Countess: the default plays the Countess (5.2)
        3: kit.deck_titles(3, 3, {0: B, 1: H, 2: K}, C, set_aside=G),
        # Bruno (hand 5): Countess and Prince -> Countess
        5: kit.deck_titles(3, 5, {0: B, 1: P, 2: H}, C, set_aside=G),
        # Charles (hand 6): Princess first -> the other card
        6: kit.deck_titles(3, 6, {0: B, 1: G, 2: X}, H, set_aside=G),
    }
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, decks=decks))
    cli.ok("start", folder)
    data = cli.export(folder)
    cli.ok("order", folder, "--player", "Arthur", _legal_orders(data, "Arthur"))
    result = cli.ok("resolve", folder, "--force")
    after = cli.export(folder)
    assert after["turn"] == 2 and after["orders"] == {}
    disc = {h["hand"]: h["players"] for h in after["hands"]}
    assert disc[2]["Bruno"]["discards"][0] == "Guard"
    assert disc[3]["Charles"]["discards"][0] == "Countess"
    assert disc[5]["Bruno"]["discards"][0] == "Countess"
    assert disc[6]["Charles"]["discards"][0] == "Handmaid"
    public = cli.report(folder, turn=1)
    # RULES 5: "The report marks every default" ("no valid order: played for Bruno ...").
    marks = [
        line[line.lower().index("no valid order") :]
        for line in public.splitlines()
        if "no valid order" in line.lower()
    ]
    bruno = [h["hand"] for h in data["hands"] if h["active"] == "Bruno"]
    charles = [h["hand"] for h in data["hands"] if h["active"] == "Charles"]
    assert len([m for m in marks if "Bruno" in m]) == len(bruno), public
    assert len([m for m in marks if "Charles" in m]) == len(charles), public
    assert not [m for m in marks if "Arthur" in m], public
    assert len(marks) == len(bruno) + len(charles)
    # The GM is told too.
    assert "Bruno" in result.stdout and "Charles" in result.stdout


def test_resolve_force_with_every_order_in_marks_nothing(cli, started4):
    data = cli.export(started4)
    for name in data["players"]:
        cli.ok("order", started4, "--player", name, _legal_orders(data, name))
    assert cli.ok("status", started4, "--json")
    cli.ok("resolve", started4)  # no --force needed
    public = cli.report(started4, turn=1)
    assert "no valid order" not in public.lower()


def test_orders_are_resolved_as_recorded(cli, tmp_path):
    """The order on file is the one played: Arthur's Guard on Bruno guessing
    Bruno's card eliminates him (hand 1); his Handmaid protects him (hand 4)."""
    decks = {
        1: kit.deck_titles(3, 1, {0: G, 1: S, 2: B}, S, set_aside=G),
        4: kit.deck_titles(3, 4, {0: H, 1: G, 2: G}, G, set_aside=G),
    }
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, decks=decks))
    cli.ok("start", folder)
    cli.ok("order", folder, "--player", "Arthur", "Hand 1: Guard on Bruno, guess Spy\nHand 4: Handmaid")
    cli.ok("resolve", folder, "--force")
    data = cli.export(folder)
    h1, h4 = data["hands"][0], data["hands"][3]
    assert h1["players"]["Arthur"]["discards"] == ["Guard"]
    assert h1["players"]["Bruno"]["in"] is False and h1["players"]["Bruno"]["discards"] == ["Spy"]
    assert h1["active"] == "Charles"
    assert h4["players"]["Arthur"]["discards"] == ["Handmaid"]
    assert h4["players"]["Arthur"]["protected"] is True


def _turn_files(snap, turn_dir):
    """The hashes of a turn folder's events, orders and reports (files that
    pbem/store.py documents; state.json records the wall-clock time the turn
    opened, and mail drafts carry dates and message ids)."""
    keep = ("events.json", "orders.json", "reports/")
    files = {k: v for k, v in snap(turn_dir).items() if k.startswith(keep) and v != "<dir>"}
    assert any(k.startswith("reports/") for k in files), files
    return files


def _copy(src, dst):
    shutil.copytree(src, dst)
    return dst


def test_resolve_is_deterministic_on_copies(cli, snap, started3, tmp_path):
    a = _copy(started3, tmp_path / "a" / "game")
    b = _copy(started3, tmp_path / "b" / "game")
    names = [p["name"] for p in kit.PLAYERS3]
    for turn in range(1, 5):
        data = cli.export(a)
        if data["finished"]:
            break
        for folder in (a, b):
            cli.ok("order", folder, "--player", "Arthur", _legal_orders(data, "Arthur"))
            cli.ok("resolve", folder, "--force")
        assert cli.export_text(a) == cli.export_text(b)
        assert cli.all_reports(a, turn, names) == cli.all_reports(b, turn, names)
        turn_dir = f"turns/turn-{turn:03d}"
        if (a / turn_dir).is_dir():  # the layout of pbem/store.py: byte for byte too
            assert _turn_files(snap, a / turn_dir) == _turn_files(snap, b / turn_dir)


def test_resolve_is_deterministic_from_the_same_file(cli, tmp_path):
    names = [p["name"] for p in kit.PLAYERS4]
    runs = []
    for side in ("a", "b"):
        folder = tmp_path / side / "game"
        kit.write_config(folder, kit.config(4))
        cli.ok("start", folder)
        for _ in range(3):
            cli.ok("resolve", folder, "--force")
        runs.append((cli.export_text(folder), [cli.all_reports(folder, t, names) for t in range(4)]))
    assert runs[0] == runs[1]


# == the end of the game ===================================================================================


def _play_to_the_end(cli, folder, n):
    target = 5 if n == 3 else 4
    limit = 12 if n == 3 else 11
    resolves = 0
    data = cli.export(folder)
    names = data["players"]
    while not data["finished"]:
        assert resolves < limit, f"the game is still on after {resolves} turns"
        turn = data["turn"]
        cli.ok("resolve", folder, "--force")
        resolves += 1
        data = cli.export(folder)
        assert data["turn"] == turn + 1 or data["finished"]
        tokens = data["tokens"]
        won = [w for h in data["hands"] if h["ended"] for w in h["winners"]]
        assert tokens == {name: won.count(name) for name in names}, "one token per hand won"
        for hand in data["hands"]:
            _check_hand_invariants(hand, names, data["finished"])
        top = max(tokens.values())
        leaders = [name for name in names if tokens[name] == top]
        all_ended = all(h["ended"] for h in data["hands"])
        if not data["finished"]:
            assert top < target or len(leaders) > 1, f"{leaders} reached {top} and the game goes on"
            assert not all_ended
    return data, resolves


@pytest.mark.parametrize("n, seed", [(3, 1), (3, 12), (3, 48), (3, 86), (4, 2), (4, 7), (4, 23)])
def test_whole_game_to_the_end(cli, snap, tmp_path, n, seed):
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(n, seed=seed))
    cli.ok("start", folder)
    data, resolves = _play_to_the_end(cli, folder, n)
    target = 5 if n == 3 else 4
    tokens = data["tokens"]
    top = max(tokens.values())
    assert data["finished"] is True
    assert data["winners"], "a finished game names its winner(s)"
    assert sorted(data["winners"]) == sorted(name for name, t in tokens.items() if t == top)
    # Also for a shared win: it comes only once all 13 hands have ended, and
    # 13 tokens (or more) among N players put the leaders at 5 (3p) / 4 (4p).
    for w in data["winners"]:
        assert tokens[w] >= target
    if len(data["winners"]) > 1:
        assert all(h["ended"] for h in data["hands"]), "a shared win only when every hand has ended"
    assert resolves <= 13
    assert data["orders"] == {}
    # Nothing more can be done to a finished game.
    before = snap(folder)
    export_before = cli.export_text(folder)
    for args in (
        ["resolve", folder],
        ["resolve", folder, "--force"],
        ["order", folder, "--player", data["players"][0], "Hand 1: Guard on Bruno, guess Prince"],
    ):
        result = cli.fails(*args)
        assert re.search(r"(?i)over|finished", result.output), result.output
        assert "Traceback" not in result.output
    assert snap(folder) == before, kit.diff(before, snap(folder))
    assert cli.export_text(folder) == export_before
    status = json.loads(cli.ok("status", folder, "--json").stdout)
    assert status["finished"] is True and status["winners"] == data["winners"]
    text = cli.ok("status", folder).stdout
    assert all(w in text for w in data["winners"])
    final = cli.report(folder)
    assert all(w in final for w in data["winners"])


# == crash safety ===========================================================================================
#
# Failures are injected by a trap that watches what a command writes inside the
# campaign folder: every file opened for writing (lock files aside; through
# open(), Path.write_text or os.open) and every os.rename / os.replace, in order.
# It fires at a chosen event: it raises (in-process, through the CliRunner) or
# sends the process SIGKILL (in a real process). The events of a clean resolve
# are recorded first, so the points chosen follow the store's implementation.

_TRAP_SRC = r"""
import builtins, io, os, signal


class Trap:
    def __init__(self, root, at=None, exc=None):
        self.root = os.path.realpath(root) + os.sep
        self.at = tuple(at) if at else None     # (kind, n, "before" | "after")
        self.exc = exc                          # None: SIGKILL
        self.counts = {"write": 0, "rename": 0}
        self.events = []                        # (kind, n, path relative to root)

    def _inside(self, path):
        try:
            p = os.path.realpath(os.fsdecode(path))
        except TypeError:
            return False
        return p.startswith(self.root) and "lock" not in os.path.basename(p)

    def _note(self, kind, path, when):
        if when == "before":
            self.counts[kind] += 1
            relative = os.path.realpath(os.fsdecode(path))[len(self.root) :]
            self.events.append((kind, self.counts[kind], relative))
        if self.at == (kind, self.counts[kind], when):
            if self.exc is None:
                os.kill(os.getpid(), signal.SIGKILL)
            raise self.exc

    def install(self, setattr):
        real_open, real_os_open = builtins.open, os.open
        real_rename, real_replace = os.rename, os.replace
        trap = self

        def fake_open(file, mode="r", *args, **kwargs):
            if isinstance(file, (str, bytes, os.PathLike)) and any(c in mode for c in "wax+") \
                    and trap._inside(file):
                trap._note("write", file, "before")
            return real_open(file, mode, *args, **kwargs)

        def fake_os_open(path, flags, *args, **kwargs):
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and trap._inside(path):
                trap._note("write", path, "before")
            return real_os_open(path, flags, *args, **kwargs)

        def renamer(real):
            def fake(src, dst, *args, **kwargs):
                inside = trap._inside(src)
                if inside:
                    trap._note("rename", dst, "before")
                result = real(src, dst, *args, **kwargs)
                if inside:
                    trap._note("rename", dst, "after")
                return result
            return fake

        setattr(builtins, "open", fake_open)
        setattr(io, "open", fake_open)
        setattr(os, "open", fake_os_open)
        setattr(os, "rename", renamer(real_rename))
        setattr(os, "replace", renamer(real_replace))
"""

_trap_namespace: dict = {}
exec(_TRAP_SRC, _trap_namespace)
Trap = _trap_namespace["Trap"]

_KILLER = (
    _TRAP_SRC
    + r"""
import json, sys
Trap(sys.argv[2], json.loads(sys.argv[1])).install(setattr)
from pbem.cli import main
main(sys.argv[3:], prog_name="pbem")
"""
)


class _Boom(OSError):
    pass


def _clean_resolve(cli, monkeypatch, folder, tmp_path):
    """Resolve a copy of ``folder`` with nothing going wrong: its export, and
    the events of the write (see Trap)."""
    ref = _copy(folder, tmp_path / "reference" / folder.name)
    trap = Trap(ref)
    with monkeypatch.context() as m:
        trap.install(m.setattr)
        cli.ok("resolve", ref, "--force")
    assert trap.events, "a resolve that writes nothing?"
    return cli.export_text(ref), trap.events


def _points(events):
    """Crash points of a resolve, by name -> (kind, n, when)."""
    first_rename = next((i for i, e in enumerate(events) if e[0] == "rename"), len(events))
    writes = [n for kind, n, _ in events[:first_rename] if kind == "write"]
    assert writes, f"the resolve switches something in before writing anything: {events}"
    points = {
        "first-write": ("write", writes[0], "before"),
        "middle-write": ("write", writes[len(writes) // 2], "before"),
        "last-write": ("write", writes[-1], "before"),
    }
    renames = [(n, path) for kind, n, path in events if kind == "rename"]
    if renames:
        # The commit: the turn switched in (the first rename into turns/).
        commit = next((n for n, path in renames if path.startswith("turns")), renames[0][0])
        points["switch-in"] = ("rename", commit, "before")
        points["after-commit"] = ("rename", commit, "after")
        at = next(i for i, e in enumerate(events) if e[:2] == ("rename", commit))
        later = [n for kind, n, _ in events[at + 1 :] if kind == "write"]
        if later:  # something written after the turn is switched in (e.g. mail drafts)
            points["after-commit-write"] = ("write", later[0], "before")
    return points


def _prepare(cli, folder):
    data = cli.export(folder)
    cli.ok("order", folder, "--player", "Arthur", _legal_orders(data, "Arthur"))


CRASHES = [
    ("first-write", _Boom("disk full")),
    ("middle-write", _Boom("disk full")),
    ("last-write", _Boom("disk full")),
    ("switch-in", _Boom("rename failed")),
    ("middle-write", KeyboardInterrupt()),
]
CRASH_IDS = ["first-write", "middle-write", "last-write", "switch-in-fails", "ctrl-c"]


def _crash_resolve(cli, monkeypatch, folder, at, exc):
    trap = Trap(folder, at, exc)
    with monkeypatch.context() as m:
        trap.install(m.setattr)
        result = cli("resolve", folder, "--force", crash_ok=True)
    assert trap.counts[at[0]] >= at[1], f"the resolve never reached {at}"
    assert result.exit_code != 0
    return result


@pytest.mark.parametrize("point, exc", CRASHES, ids=CRASH_IDS)
def test_resolve_failing_midway_leaves_the_game_as_before(cli, monkeypatch, started3, tmp_path, point, exc):
    _prepare(cli, started3)
    export_before = cli.export_text(started3)
    status_before = cli.ok("status", started3, "--json").stdout
    expected, events = _clean_resolve(cli, monkeypatch, started3, tmp_path)
    points = _points(events)
    if point not in points:
        pytest.fail(f"no {point} in the events of a resolve: {events}")

    result = _crash_resolve(cli, monkeypatch, started3, points[point], exc)
    if isinstance(exc, KeyboardInterrupt):
        assert result.exit_code == 130 and "Traceback" not in result.output

    assert cli.export_text(started3) == export_before
    assert cli.ok("status", started3, "--json").stdout == status_before
    cli.fails("report", started3, "--turn", 1)
    # ... and the next resolve works, with the result an unbroken one gives.
    cli.ok("resolve", started3, "--force")
    assert cli.export_text(started3) == expected


@pytest.mark.parametrize("point, exc", CRASHES, ids=CRASH_IDS)
def test_resolve_failing_midway_leaves_no_trace(cli, snap, monkeypatch, started3, tmp_path, point, exc):
    """Stricter: after a failed resolve the folder is byte-for-byte as before
    (no half-written turn folder left lying around)."""
    _prepare(cli, started3)
    _, events = _clean_resolve(cli, monkeypatch, started3, tmp_path)
    before = snap(started3)
    _crash_resolve(cli, monkeypatch, started3, _points(events)[point], exc)
    after = snap(started3)
    assert after == before, kit.diff(before, after)


@pytest.mark.parametrize("exc", [_Boom("disk full"), KeyboardInterrupt()], ids=["error", "ctrl-c"])
def test_resolve_exit_status_tells_whether_the_turn_was_resolved(cli, monkeypatch, started3, tmp_path, exc):
    """A failure after the turn is switched in (while the mail drafts are
    written): a GM script reads the exit status, so a non-zero exit must mean
    the turn was not resolved (a retry would otherwise resolve the next turn
    with NMR defaults for everybody), and exit 0 that it was."""
    _prepare(cli, started3)
    export_before = cli.export_text(started3)
    expected, events = _clean_resolve(cli, monkeypatch, started3, tmp_path)
    points = _points(events)
    if "after-commit-write" not in points:
        return  # nothing is written after the commit: nothing to check
    result = _crash_resolve_any(cli, monkeypatch, started3, points["after-commit-write"], exc)
    after = cli.export_text(started3)
    if result.exit_code == 0:
        assert after == expected
    else:
        assert after == export_before, (
            f"`pbem resolve` exited {result.exit_code} ({result.output.strip()[-200:]!r}) "
            f"but turn 1 was resolved: the export now awaits turn {json.loads(after)['turn']}"
        )


def _crash_resolve_any(cli, monkeypatch, folder, at, exc):
    trap = Trap(folder, at, exc)
    with monkeypatch.context() as m:
        trap.install(m.setattr)
        result = cli("resolve", folder, "--force", crash_ok=True)
    assert trap.counts[at[0]] >= at[1], f"the resolve never reached {at}"
    return result


def test_start_failing_midway_can_be_started_again(cli, monkeypatch, campaign3, tmp_path):
    trap = Trap(campaign3, ("write", 2, "before"), _Boom("disk full"))
    with monkeypatch.context() as m:
        trap.install(m.setattr)
        result = cli("start", campaign3, crash_ok=True)
    assert result.exit_code != 0
    cli.fails("export", campaign3)
    cli.ok("start", campaign3)
    ref = tmp_path / "ref" / campaign3.name
    kit.write_config(ref, kit.config(3))
    cli.ok("start", ref)
    assert cli.export_text(campaign3) == cli.export_text(ref)


@pytest.mark.parametrize("at", [("write", 1, "before"), ("rename", 1, "before")], ids=["write", "switch-in"])
def test_order_failing_midway_keeps_earlier_orders(cli, monkeypatch, started3, at):
    card = cli.export(started3)["hands"][0]["players"]["Arthur"]["cards"][0]
    cli.ok("order", started3, "--player", "Arthur", f"Hand 1: {card}")
    before = cli.export_text(started3)
    trap = Trap(started3, at, _Boom("disk full"))
    with monkeypatch.context() as m:
        trap.install(m.setattr)
        result = cli(
            "order", started3, "--player", "Bruno", "Hand 2: Guard on Arthur, guess Prince", crash_ok=True
        )
    assert trap.counts[at[0]] >= 1
    assert result.exit_code != 0
    assert cli.export_text(started3) == before


@pytest.mark.parametrize("point", ["first-write", "middle-write", "last-write", "switch-in", "after-commit"])
def test_resolve_killed_by_sigkill(cli, pbem_exe, monkeypatch, started3, tmp_path, point):
    """A real process killed with SIGKILL at a chosen point of the resolve:
    the campaign is the old one (or, once the turn is switched in, the new
    one), and the next resolve (by the real executable) works."""
    _prepare(cli, started3)
    export_before = cli.export_text(started3)
    expected, events = _clean_resolve(cli, monkeypatch, started3, tmp_path)
    at = _points(events)[point]
    proc = subprocess.run(
        [sys.executable, "-c", _KILLER, json.dumps(at), str(started3), "resolve", str(started3), "--force"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == -signal.SIGKILL, (proc.returncode, proc.stdout, proc.stderr)
    after = cli.export_text(started3)
    if point == "after-commit":
        assert after == expected
        return
    assert after == export_before
    p = pbem_exe("resolve", started3, "--force")
    assert p.returncode == 0, p.stderr
    assert cli.export_text(started3) == expected


def test_resolve_killed_at_random_times_is_old_or_new(cli, pbem_exe, monkeypatch, started3, tmp_path):
    """The real executable killed with SIGKILL at several moments of a resolve:
    every time, the campaign is either as before or fully resolved."""
    old = cli.export_text(started3)
    new, _ = _clean_resolve(cli, monkeypatch, started3, tmp_path)
    for delay in (0.05, 0.2, 0.3, 0.35, 0.4, 0.5):
        proc = pbem_exe.popen("resolve", started3, "--force")
        time.sleep(delay)
        proc.kill()
        proc.communicate(timeout=30)
        now = cli.export_text(started3)
        assert now in (old, new), f"after a kill at {delay}s the campaign is neither the old nor the new one"
        if now == new:
            cli.ok("rollback", started3)
            assert cli.export_text(started3) == old
    p = pbem_exe("resolve", started3, "--force")
    assert p.returncode == 0, p.stderr
    assert cli.export_text(started3) == new


# == rollback ================================================================================================


def test_rollback_restores_the_previous_export_and_keeps_orders(cli, snap, started3):
    names = [p["name"] for p in kit.PLAYERS3]
    data = cli.export(started3)
    cli.ok("order", started3, "--player", "Arthur", _legal_orders(data, "Arthur"))
    cli.ok("order", started3, "--player", "Charles", _legal_orders(data, "Charles"))
    before = cli.export_text(started3)
    status_before = json.loads(cli.ok("status", started3, "--json").stdout)
    cli.ok("resolve", started3, "--force")
    resolved = cli.export_text(started3)
    reports = cli.all_reports(started3, 1, names)
    turn_dir = started3 / "turns" / "turn-001"
    first_files = _turn_files(snap, turn_dir) if turn_dir.is_dir() else None
    assert resolved != before

    cli.ok("rollback", started3)
    assert cli.export_text(started3) == before
    status = json.loads(cli.ok("status", started3, "--json").stdout)
    assert status == status_before, "the orders are still on file"
    cli.fails("report", started3, "--turn", 1)

    cli.ok("resolve", started3, "--force")
    assert cli.export_text(started3) == resolved
    assert cli.all_reports(started3, 1, names) == reports
    # Byte for byte, in the turn folder (layout of pbem/store.py), when there is one.
    turn_dir = started3 / "turns" / "turn-001"
    if first_files is not None:
        assert _turn_files(snap, turn_dir) == first_files


def test_rollback_then_corrected_order_is_played(cli, tmp_path):
    decks = {1: kit.deck_titles(3, 1, {0: H, 1: G, 2: G}, C, set_aside=G)}
    folder = tmp_path / "g"
    kit.write_config(folder, kit.config(3, decks=decks))
    cli.ok("start", folder)
    cli.ok("order", folder, "--player", "Arthur", "Hand 1: Handmaid")
    cli.ok("resolve", folder, "--force")
    assert cli.export(folder)["hands"][0]["players"]["Arthur"]["discards"] == ["Handmaid"]
    cli.ok("rollback", folder)
    assert cli.export(folder)["orders"]["Arthur"]["1"]["card"] == "Handmaid"
    cli.ok("order", folder, "--player", "Arthur", "Hand 1: Countess")
    cli.ok("resolve", folder, "--force")
    assert cli.export(folder)["hands"][0]["players"]["Arthur"]["discards"] == ["Countess"]


def test_rollback_several_turns(cli, snap, started4):
    exports = [cli.export_text(started4)]
    for _ in range(3):
        cli.ok("resolve", started4, "--force")
        exports.append(cli.export_text(started4))
    for expected in reversed(exports[:-1]):
        cli.ok("rollback", started4)
        assert cli.export_text(started4) == expected
    before = snap(started4)
    result = cli.fails("rollback", started4)
    assert "Traceback" not in result.output and result.output.strip()
    assert snap(started4) == before


def test_rollback_at_turn_0_is_refused(cli, snap, started3):
    before = snap(started3)
    export_before = cli.export_text(started3)
    result = cli.fails("rollback", started3)
    assert result.output.strip() and "Traceback" not in result.output
    assert snap(started3) == before
    assert cli.export_text(started3) == export_before


def test_rollback_before_start_is_refused(cli, campaign3):
    result = cli.fails("rollback", campaign3)
    assert "start" in result.output.lower()


# == the library API =========================================================================================


def test_library_api_round_trip(started3):
    game = Campaign(started3)
    data = game.export()
    receipt = game.record_orders("Arthur", _legal_orders(data, "Arthur"))
    assert receipt.player == "Arthur" and receipt.turn == 1 and receipt.missing == []
    assert all(c.status == "accepted" for c in receipt.checked)
    with pytest.raises(GameError):
        game.record_orders("Zelda", "Hand 1: Guard")
    result = game.resolve(force=True)
    assert result.turn == 1
    assert set(result.defaults) == {"Bruno", "Charles"}
    assert "Arthur" not in result.defaults
    assert game.export()["turn"] == 2
    assert game.report(1) == result.public_report
    assert game.rollback() == 1
    after = game.export()
    assert {k: v for k, v in after.items() if k != "orders"} == {
        k: v for k, v in data.items() if k != "orders"
    }
    assert set(after["orders"]) == {"Arthur"}
    with pytest.raises(GameError):
        game.rollback()
