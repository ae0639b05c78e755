"""Issue 8.10: a campaign's templates are rendered in Jinja's sandbox and may
only be files inside the campaign's templates/ folder.

GMs share template packs. Before, a template ran a shell command through
``cycler.__init__.__globals__.os``, and a template that was a symbolic link to
/etc/passwd put that file in the public report.
"""

from __future__ import annotations

import os

import pytest

ESCAPES = [
    '{{ cycler.__init__.__globals__.os.popen("touch MARKER").read() }}',
    '{{ joiner.__init__.__globals__.os.system("touch MARKER") }}',
    '{{ namespace.__init__.__globals__.os.popen("touch MARKER").read() }}',
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    '{{ self._TemplateReference__context.cycler.__init__.__globals__.os.popen("touch MARKER").read() }}',
]


def _everything(folder) -> str:
    files = [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
    return "\n".join(p.read_text(errors="replace") for p in files)


@pytest.mark.parametrize("escape", ESCAPES)
def test_a_template_cannot_reach_python(cli, campaign3, tmp_path, monkeypatch, escape):
    marker = tmp_path / "MARKER"
    monkeypatch.chdir(tmp_path)
    (campaign3 / "templates").mkdir()
    (campaign3 / "templates" / "public.txt.j2").write_text(f"Report\n{escape}\n", encoding="utf-8")
    result = cli("start", campaign3)
    assert result.exit_code == 1, result.output
    assert "public.txt.j2" in result.output and "sandbox" in result.output
    assert "Traceback" not in result.output
    assert not marker.exists(), "the template ran a shell command"
    assert not (campaign3 / "turns").exists() or not list((campaign3 / "turns").glob("turn-*"))


def test_a_template_linked_out_of_its_folder_is_refused(cli, campaign3, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:TOP-SECRET\n")
    (campaign3 / "templates").mkdir()
    os.symlink(secret, campaign3 / "templates" / "public.txt.j2")
    result = cli("start", campaign3)
    assert result.exit_code == 1
    assert str(campaign3 / "templates" / "public.txt.j2") in result.output and "refused" in result.output
    assert "TOP-SECRET" not in result.output and "TOP-SECRET" not in _everything(campaign3)


def test_etc_passwd_through_a_link_never_reaches_a_report(cli, campaign3):
    (campaign3 / "templates").mkdir()
    os.symlink("/etc/passwd", campaign3 / "templates" / "private.txt.j2")
    result = cli("start", campaign3)
    assert result.exit_code == 1 and "private.txt.j2" in result.output
    assert "root:" not in _everything(campaign3)


def test_a_link_to_a_folder_outside_is_refused(cli, campaign3, tmp_path):
    outside = tmp_path / "pack"
    outside.mkdir()
    (outside / "public.txt.j2").write_text("outside {{ turn }}\n")
    os.symlink(outside, campaign3 / "templates")  # the whole folder elsewhere: its own files are inside it
    cli.ok("start", campaign3)
    assert "outside 0" in cli.report(campaign3, 0)


def test_a_link_inside_the_folder_and_plain_overrides_still_work(cli, campaign3):
    folder = campaign3 / "templates"
    folder.mkdir()
    (folder / "mine.txt.j2").write_text("My report of turn {{ turn }} for {{ players|join(', ') }}\n")
    os.symlink("mine.txt.j2", folder / "public.txt.j2")
    cli.ok("start", campaign3)
    assert cli.report(campaign3, 0).startswith("My report of turn 0 for Arthur")


# The sandbox reads a dict's keys as attributes by a quicker road (pbem.reports._sandbox_class):
# each template below must read exactly as in Jinja's own sandbox, refusals included.
DICT_READS = [
    "{{ d.card }}",  # a key
    "{{ d.items is callable }} {{ d['items'] }}",  # a key named like a dict method: the method wins
    "{{ d.get('card') }} {{ d.keys()|list|length }}",
    "{{ d.missing is defined }}",  # no such key
    "{{ d._private }}",  # a key that looks private: a dict's key, not an attribute
    "{{ d.__class__ is defined }}",  # an attribute the sandbox refuses, key or no key
    "{{ d.__init__ is defined }}",
    "{{ n.card }} {{ n.items is callable }}",  # a dict subclass: the sandbox's own road
    # value tuples (a receipt, an order) by the quicker road too: fields, methods, refusals
    "{{ t.card }} {{ t.count('x') }} {{ t.index('Guard') }} {{ t[0] }}",
    "{{ t.canonical() }} {{ t.missing is defined }} {{ t.__class__ is defined }}",
    "{{ t._asdict is defined }} {{ t._replace is defined }} {{ t._fields is defined }}",
    "{{ t.__init__ is defined }} {{ p.count(1) }} {{ p.real is defined }} {{ p.__len__ is defined }}",
]


@pytest.mark.parametrize("source", DICT_READS)
def test_dict_keys_read_as_in_jinjas_own_sandbox(source):
    from typing import NamedTuple

    import jinja2
    from jinja2.sandbox import SandboxedEnvironment

    from pbem.reports import make_environment

    class Named(dict):
        pass

    class Order(NamedTuple):
        card: str
        target: str

        def canonical(self) -> str:
            return f"{self.card} on {self.target}"

    values = {
        "d": {"card": "Guard", "items": "shadowed", "_private": "kept", "__class__": "forged"},
        "n": Named(card="Prince", items="shadowed"),
        "t": Order("Guard", "Bruno"),
        "p": (1, 2),
    }
    ours = make_environment()
    theirs = SandboxedEnvironment(undefined=jinja2.StrictUndefined)

    def read(env):
        try:
            return env.from_string(source).render(**values)
        except jinja2.exceptions.UndefinedError as e:
            return f"undefined: {e}"

    assert type(ours) is not SandboxedEnvironment  # the quicker road is taken
    assert read(ours) == read(theirs)


def test_a_dict_key_does_not_open_the_sandbox():
    from pbem.reports import make_environment

    env = make_environment()
    page = "{{ d.__class__.__mro__[1].__subclasses__() }}"
    with pytest.raises(Exception) as refused:
        env.from_string(page).render(d={"__class__": "x", "__mro__": "y"})
    assert "unsafe" in str(refused.value) or "undefined" in str(refused.value)
