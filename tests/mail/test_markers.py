"""A test that starts a real server is marked ``servers``, so that ``-m "not servers"``
leaves out every test that needs Dovecot or aiosmtpd: by its fixtures (conftest.py marks
those) or, for a test that starts one inline, by ``@pytest.mark.servers``."""

from __future__ import annotations

import ast
from pathlib import Path

SERVERS = {"DovecotServer", "SmtpServer"}
#: conftest.py's SERVER_FIXTURES: a test taking one of them is marked there.
SERVER_FIXTURES = {"dovecot", "fresh_dovecot", "smtp_server"}
TESTS = Path(__file__).resolve().parent.parent


def _starts_a_server(test: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SERVERS
        for node in ast.walk(test)
    )


def _marked(test: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    if SERVER_FIXTURES & {arg.arg for arg in test.args.args}:
        return True
    return any(ast.unparse(d).startswith("pytest.mark.servers") for d in test.decorator_list)


def test_every_test_that_starts_a_server_inline_is_marked_servers():
    unmarked = []
    for path in sorted(TESTS.rglob("test_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                if _starts_a_server(node) and not _marked(node):
                    unmarked.append(f"{path.relative_to(TESTS)}::{node.name}")
    assert unmarked == []
