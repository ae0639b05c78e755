"""Issue 18 item 12: a campaign's template that fails, or asks for too much, is a
sentence naming it, never a traceback, and never takes the machine with it.

Before: UndefinedError, IndexError, OverflowError and RecursionError came out as
tracebacks, and ``{{ "x" * 10**10 }}`` grew `pbem resolve` to 22 GB. Each template
here runs in `pbem start` (the opening report), in a child process under a memory
limit, and is timed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import kit
import pytest

ROOT = Path(__file__).resolve().parents[1]
MEMORY = 1536 * 2**20
SECONDS = 20  # the render's own bound is 5 s; the rest is the interpreter, pbem and the machine's load

_CHILD = r"""
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[2]), int(sys.argv[2])))
sys.path.insert(0, sys.argv[1])
from click.testing import CliRunner
from pbem.cli import main
start = time.monotonic()
result = CliRunner().invoke(main, sys.argv[3:])
crash = None
if result.exception is not None and not isinstance(result.exception, SystemExit):
    crash = repr(result.exception)[:300]
print(json.dumps({"exit": result.exit_code, "crash": crash, "seconds": time.monotonic() - start,
                  "output": result.output[-800:]}))
"""


def pbem_limited(*args, home: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(ROOT), str(MEMORY), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=SECONDS + 60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache")},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.splitlines()[-1])


HOSTILE = {
    "undefined": "{{ no_such_value }}",
    "index": "{{ [].pop() }}",
    "overflow": "{{ 2.0 ** 100000 }}",
    "recursion": "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
    "ten gigabytes": '{{ "x" * 10**10 }}',
    "a list of ten billion": "{{ ([0] * 10**10)|length }}",
    "a number of ten billion digits": "{{ 10 ** (10 ** 10) }}",
    "center": '{{ "x"|center(10**10) }}',
    "indent": '{{ "x"|indent(10**10) }}',
    "a method": '{{ "x".ljust(10**10) }}',
    "replace": '{{ ("x" * 100000)|replace("x", "y" * 100000) }}',
    "percent": '{{ "%10000000000s" % "x" }}',
    "format": '{{ "{:>10000000000}".format("x") }}',
    "doubling": '{% set ns = namespace(s="x") %}{% for i in range(64) %}'
    "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}",
    "doubling by +": '{% set ns = namespace(s="x") %}{% for i in range(64) %}{% set ns.s = ns.s + ns.s %}'
    "{% endfor %}{{ ns.s|length }}",
    "endless loop": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "endless output": '{% for i in range(100000) %}{{ "x" * 1000000 }}{% endfor %}',
    "zero division": "{{ 1 / 0 }}",
    "syntax": "{% if %}",
    "a huge int printed": "{{ 10 ** 5000 }}",
    "include missing": '{% include "nothere.j2" %}',
}


@pytest.fixture
def campaign(tmp_path) -> Path:
    folder = tmp_path / "tmpl"
    kit.write_config(folder, kit.config(3))
    (folder / "templates").mkdir()
    return folder


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_template_is_a_sentence_within_bounds(campaign, tmp_path, case):
    (campaign / "templates" / "public.txt.j2").write_text(f"Report\n{HOSTILE[case]}\n", encoding="utf-8")
    result = pbem_limited("start", campaign, home=tmp_path)
    assert result["crash"] is None, f"{case}: crashed with {result['crash']}"
    assert result["seconds"] < SECONDS, f"{case}: took {result['seconds']:.1f} s"
    assert result["exit"] == 1, (case, result)
    out = result["output"]
    assert out.startswith("Error: ") and "public.txt.j2" in out and "Traceback" not in out, out
    assert len(out.splitlines()) <= 3, out  # a sentence, not a dump
    assert not list((campaign / "turns").glob("turn-*")) if (campaign / "turns").exists() else True


def test_the_sentence_names_the_line_and_the_value(campaign, tmp_path):
    (campaign / "templates" / "public.txt.j2").write_text("Report\n\n{{ turn }}\n{{ no_such_value }}\n")
    out = pbem_limited("start", campaign, home=tmp_path)["output"]
    assert "public.txt.j2 (line 4)" in out and "'no_such_value' is undefined" in out, out


def test_ordinary_templates_still_render_and_the_site_too(campaign, tmp_path):
    (campaign / "templates" / "public.txt.j2").write_text(
        "Report of {{ campaign }}: {{ '%5s' % 'x' }} "
        "{{ 'a' * 3 }} {{ 2 ** 10 }} {{ 'ab'|replace('a', 'xyz') }} {{ 'x'|center(9) }}\n",
        encoding="utf-8",
    )
    result = pbem_limited("start", campaign, home=tmp_path)
    assert result["exit"] == 0, result
    report = pbem_limited("report", campaign, home=tmp_path)["output"]
    assert "Report of tmpl:     x aaa 1024 xyzb     x" in report, report
    site = pbem_limited("site", campaign, home=tmp_path)
    assert site["exit"] == 0, site


def test_a_hostile_site_template_is_a_sentence(campaign, tmp_path):
    assert pbem_limited("start", campaign, home=tmp_path)["exit"] == 0
    (campaign / "templates" / "site").mkdir()
    (campaign / "templates" / "site" / "index.html.j2").write_text('{{ "x" * 10**10 }}', encoding="utf-8")
    result = pbem_limited("site", campaign, home=tmp_path)
    assert result["crash"] is None and result["exit"] == 1, result
    assert "index.html.j2" in result["output"] and "Traceback" not in result["output"], result
