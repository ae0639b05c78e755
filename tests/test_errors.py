"""Issue 21.2: one error tree.

Every exception class pbem defines is a :class:`pbem.errors.PbemError`; the tree
drawn in ``pbem/errors.py``'s docstring is the real one; the engine refuses an
illegal play with :class:`IllegalPlay`; the ``pbem`` command turns each error
into its message and its exit status in one place, and says so when it meets a
bug instead.
"""

from __future__ import annotations

import builtins
import importlib
import importlib.util
import inspect
import pkgutil
import re
from pathlib import Path

import click
import pytest
from builders import hand, play
from kit import config, write_config

import pbem
from pbem import cli, errors
from pbem.cards import Card
from pbem.engine import Game, Order, resolve_turn, shuffled_deck
from pbem.errors import IllegalDeal, IllegalPlay, MailError, PbemError, RulesError
from pbem.store import CampaignStore, file_lock


def _modules():
    """Every module of the package, imported (``__main__`` would run the command)."""
    for info in pkgutil.walk_packages(pbem.__path__, "pbem."):
        if info.name != "pbem.__main__":
            yield importlib.import_module(info.name)


def _exception_classes() -> dict[str, type[BaseException]]:
    """The exception classes defined in pbem, by name, wherever they are defined:
    module level, and nested in a module's classes."""
    found: dict[str, type[BaseException]] = {}

    def visit(owner, module_name: str) -> None:
        for _, value in vars(owner).items():
            if inspect.isclass(value) and value.__module__ == module_name:
                if issubclass(value, BaseException):
                    found[value.__name__] = value
                visit(value, module_name)

    for module in _modules():
        visit(module, module.__name__)
    return found


def test_every_exception_class_defined_in_pbem_is_a_pbem_error():
    classes = _exception_classes()
    assert {"ConfigError", "GameError", "StoreError", "FetchError", "SendError", "Unfinished"} <= set(classes)
    outside = sorted(f"{c.__module__}.{name}" for name, c in classes.items() if not issubclass(c, PbemError))
    assert outside == [], f"exception classes outside the tree: {outside}"


def test_no_exception_class_is_written_on_a_foreign_base_alone():
    """The walk above sees what importing shows; this reads every ``class X(...)``
    line, in a function too: one on a builtin or click exception needs a pbem one."""
    ours = set(_exception_classes())
    foreign = {n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)}
    strays = []
    for info in pkgutil.walk_packages(pbem.__path__, "pbem."):
        path = Path(importlib.util.find_spec(info.name).origin)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = re.match(r"\s*class (\w+)\(([^)]*)\)", line)
            if not match or match[1] == "PbemError":  # the root, on Exception
                continue
            bases = {b.strip() for b in match[2].split(",")}
            last = {b.rsplit(".", 1)[-1] for b in bases}
            if (last & foreign or any("click" in b for b in bases)) and not last & ours:
                strays.append(f"{info.name}:{number}: {line.strip()}")
    assert strays == []


_TREE_LINE = re.compile(r"^    (?P<indent>(?:[│ ]   )*)(?:[├└]── )?(?P<name>\w+)\s+(?P<module>[\w.]+)\s")


def _drawn_tree() -> list[tuple[int, str, str]]:
    """(depth, class name, module) for each line of the tree in errors.py's docstring."""
    doc = errors.__doc__ or ""
    block = doc.split("::\n\n", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in block.splitlines():
        match = _TREE_LINE.match(line)
        assert match, f"not a line of the tree: {line!r}"
        depth = len(match["indent"]) // 4 + (0 if line.strip().startswith("PbemError") else 1)
        rows.append((depth, match["name"], match["module"]))
    return rows


def test_the_tree_drawn_in_the_docstring_is_the_real_tree():
    rows = _drawn_tree()
    parents: list[type] = []
    drawn = set()
    for depth, name, module in rows:
        cls = getattr(importlib.import_module(f"pbem.{module}"), name)
        if depth == 0:
            assert cls is PbemError
        else:
            parent = parents[depth - 1]
            pbem_bases = [b for b in cls.__bases__ if issubclass(b, PbemError)]
            assert pbem_bases == [parent], f"{name} is drawn under {parent.__name__}: {cls.__bases__}"
        del parents[depth:]
        parents.append(cls)
        drawn.add(name)
    assert set(_exception_classes()) == drawn, "each exception class of pbem is drawn once in the tree"


def test_each_error_carries_its_exit_status_and_its_message_clicks_way():
    from pbem.campaign import GameError, MissingOrders
    from pbem.config import ConfigError
    from pbem.transport.smtp import SendError

    assert PbemError.exit_code == ConfigError.exit_code == GameError.exit_code == SendError.exit_code == 1
    missing = MissingOrders(2, {"Bruno": [1, 4]})
    assert missing.exit_code == 3 and "Bruno: hands 1, 4" in missing.format_message()
    assert cli.Unfinished().exit_code == 1 and cli.Unfinished().format_message() == ""
    assert issubclass(SendError, MailError) and issubclass(IllegalPlay, RulesError)


def test_show_prints_the_message_as_click_prints_its_own_errors(capsys):
    PbemError("the campaign is not started; run `pbem start DIR`").show()
    cli.Unfinished().show()
    assert capsys.readouterr().err == "Error: the campaign is not started; run `pbem start DIR`\n"


def test_the_errors_module_imports_nothing_of_pbem():
    source = inspect.getsource(errors)
    assert not re.search(r"^\s*(from \.|from pbem|import pbem)", source, re.MULTILINE)


# -- the engine -----------------------------------------------------------------------------------


def test_the_engine_refuses_an_illegal_play_with_illegal_play():
    h = hand(3, 1, {0: Card.GUARD, 1: Card.GUARD, 2: Card.PRINCE}, draw=Card.SPY)
    with pytest.raises(IllegalPlay, match="hand 1: seat 0 does not hold the King"):
        play(h, Order(Card.KING, 1))
    h = hand(3, 1, {0: Card.COUNTESS, 1: Card.GUARD, 2: Card.SPY}, draw=Card.KING)
    with pytest.raises(IllegalPlay, match="the Countess must be played"):
        play(h, Order(Card.KING, 1))
    game = Game.new(3, {n: shuffled_deck("over", n) for n in range(1, 14)})
    game.finished = True
    with pytest.raises(IllegalPlay, match="the game is over"):
        resolve_turn(game, {}, "over")


def test_an_illegal_play_is_still_a_value_error_for_the_engines_callers():
    h = hand(3, 1, {0: Card.GUARD, 1: Card.GUARD, 2: Card.PRINCE}, draw=Card.SPY)
    with pytest.raises(ValueError):
        play(h, Order(Card.KING, 1))


def test_the_engine_refuses_a_deck_or_a_table_it_cannot_deal_with_illegal_deal():
    with pytest.raises(IllegalDeal, match="16 cards"):
        Game.new(3, {n: shuffled_deck("short", n)[:15] for n in range(1, 14)})
    with pytest.raises(IllegalDeal, match="not 9"):
        Game.new(9, {n: shuffled_deck("nine", n) for n in range(1, 14)})


# -- the command: one place, one status per error ------------------------------------------------


def test_every_command_goes_through_the_one_error_handler():
    unwrapped = [
        name
        for name, command in cli.main.commands.items()
        if getattr(command.callback, "__wrapped__", None) is None
        or command.callback.__code__ is not cli._explain_errors(lambda: None).__code__
    ]
    assert unwrapped == []


def test_a_bad_campaign_file_exits_1_with_its_reason(cli_runner, tmp_path):
    folder = tmp_path / "bad"
    write_config(folder, config(3) | {"players": [{"name": "Arthur", "email": "a@example.org"}]})
    result = cli_runner("start", folder)
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: ") and "players" in result.output
    assert "Traceback" not in result.output


def test_a_locked_campaign_exits_1_and_says_another_command_holds_it(cli_runner, started3, monkeypatch):
    real = CampaignStore.locked
    monkeypatch.setattr(CampaignStore, "locked", lambda self, timeout=10.0: real(self, timeout=0.1))
    with file_lock(started3 / ".pbem.lock", timeout=0):
        result = cli_runner("resolve", started3, "--force")
    assert result.exit_code == 1, result.output
    assert "Error: " in result.output and "another pbem command is working on this campaign" in result.output


def test_an_illegal_order_exits_1_and_says_why_nothing_was_recorded(cli_runner, started3):
    # Hand 1's active player holds two cards; nobody holds every card, so one of these is not held.
    text = "\n".join(f"Hand 1: {card}" for card in ("Princess", "Countess", "King"))
    result = cli_runner("order", started3, "--player", "Arthur", text)
    assert result.exit_code == 1, result.output
    assert "rejected" in result.output and "Error: nothing was recorded" in result.output


def test_orders_missing_exit_3(cli_runner, started3):
    result = cli_runner("resolve", started3)
    assert result.exit_code == 3, result.output
    assert "Error: turn 1 cannot be resolved yet" in result.output


def test_a_bug_is_named_as_one_and_its_traceback_kept(cli_runner, started3, monkeypatch):
    from pbem.campaign import Campaign

    def broken(self):
        raise KeyError("hands")

    monkeypatch.setattr(Campaign, "export", broken)
    result = cli_runner("export", started3, crash_ok=True)
    assert isinstance(result.exception, KeyError)  # the traceback stays, for whoever fixes it
    assert "pbem stopped on an error it did not expect (KeyError: 'hands')" in result.output
    assert "a bug in pbem" in result.output and "the campaign is as it was" in result.output


def test_click_own_exits_and_usage_errors_pass_through_untouched(cli_runner, started3):
    result = cli_runner("order", started3)  # neither --player nor --mail: click's usage error
    assert result.exit_code == 2 and "name the player" in result.output
    assert "did not expect" not in result.output
    assert issubclass(click.exceptions.Exit, RuntimeError)  # why the handler lets click's own through


@pytest.fixture
def cli_runner(cli):
    return cli
