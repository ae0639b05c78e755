"""The house rules of the code itself, checked from its source (ast and the README).

- No function in ``pbem/`` is over :data:`MAX_LINES` lines (``def`` to its last line,
  decorators left out): a longer one is split along its seams into helpers, each with
  a docstring saying its contract.
- The README's "Design" section names every module in ``pbem/`` (as ``pbem/x.py``, a
  package as ``pbem/x/``): a new module comes with its line saying its one job.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pbem"
MAX_LINES = 80

#: Functions over the limit that another branch of this round splits (issue 21, item 5):
#: the lead empties this set when merging it. An entry no longer over the limit fails too,
#: so that the set cannot outlive its reason.
PENDING = {
    ("pbem/orders.py", "check_order"),
    ("pbem/reader/visible.py", "_compute"),
    ("pbem/reader/quotes.py", "own_words_read"),
}


def _functions() -> dict[tuple[str, str], int]:
    """Every function and method in pbem/, (file, qualified name) to its length in lines."""
    lengths: dict[tuple[str, str], int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()

        def visit(node: ast.AST, prefix: str, relative: str = relative) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    assert child.end_lineno is not None
                    lengths[(relative, prefix + child.name)] = child.end_lineno - child.lineno + 1
                    visit(child, prefix + child.name + ".")
                elif isinstance(child, ast.ClassDef):
                    visit(child, prefix + child.name + ".")
                else:
                    visit(child, prefix)

        visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return lengths


def _short(qualified: str) -> str:
    return qualified.rsplit(".", 1)[-1]


def test_no_function_in_pbem_is_over_80_lines():
    too_long = [
        f"{file}: {name} is {n} lines"
        for (file, name), n in sorted(_functions().items())
        if n > MAX_LINES and (file, _short(name)) not in PENDING
    ]
    assert not too_long, f"functions over {MAX_LINES} lines (split them along their seams): " + "; ".join(
        too_long
    )


def test_pending_long_functions_are_still_long():
    lengths = _functions()
    still = {(file, _short(name)) for (file, name), n in lengths.items() if n > MAX_LINES}
    stale = sorted(PENDING - still)
    assert not stale, f"no longer over {MAX_LINES} lines: remove from PENDING: {stale}"


def test_the_length_check_sees_methods_and_nested_functions():
    lengths = _functions()
    assert ("pbem/inbox.py", "Mailroom._ack") in lengths  # a method, by its class
    assert any(name.count(".") >= 2 for _, name in lengths)  # a function inside a method
    assert ("pbem/cli.py", "send") in lengths


#: A module named in the README: `pbem/`, `pbem/x.py`, `pbem/x/`, `pbem/x/y.py`.
_NAMED = r"`(pbem/(?:[\w/]*\w(?:\.py|/))?)`"


def _design_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"(?ms)^## Design\n(.*?)(?=^## )", readme)
    assert match, 'README.md has no "## Design" section'
    return match.group(1)


def _module_names() -> list[str]:
    """Every module of pbem/ as the Design section names it: ``pbem/x.py``, and each
    subpackage (its ``__init__.py``) as ``pbem/x/``."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if path.name == "__init__.py":
            relative = relative.removesuffix("__init__.py")
        names.append(relative)
    return names


def test_readme_design_names_every_module_in_pbem():
    section = _design_section()
    named = set(re.findall(_NAMED, section))
    missing = [name for name in _module_names() if name not in named]
    assert not missing, "README.md, Design: give each module its line (its one job): " + ", ".join(missing)


def test_readme_design_names_no_module_that_is_not_there():
    section = _design_section()
    named = set(re.findall(_NAMED, section))
    absent = sorted(name for name in named if not (ROOT / name).exists())
    assert not absent, "README.md, Design: these are not in the repository: " + ", ".join(absent)


def test_docs_link_only_to_files_in_the_repository():
    for doc in ("README.md", "CONTRIBUTING.md"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
        local = [t for t in targets if "://" not in t and not t.startswith("mailto:")]
        absent = sorted({t for t in local if not (ROOT / t).exists()})
        assert not absent, f"{doc} links to files not in the repository: {absent}"
        assert "ARCHITECTURE.md" not in text or (ROOT / "ARCHITECTURE.md").exists()


def test_contributing_says_what_the_settings_hold():
    # CONTRIBUTING.md: "no file excluded from ruff or mypy", "no per-module override".
    import tomllib

    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    ruff = settings["ruff"]
    assert not {"exclude", "extend-exclude"} & (set(ruff) | set(ruff.get("lint", {})))
    assert "exclude" not in settings["mypy"] and "overrides" not in settings["mypy"]
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "no file excluded from ruff or mypy" in contributing
    assert "no\nper-module override" in contributing or "no per-module override" in contributing
