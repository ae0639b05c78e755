"""Turn reports: a plain context per reader, rendered by a Jinja template.

Who may see what is decided once, by the events' audience (:mod:`pbem.events`)
and by the two context builders here: :func:`public_context` reads only public
events and public facts of the state (discards, pile sizes, who is in, who is
protected, who plays next); :func:`private_context` adds the reader's own cards
and the events private to them. Templates only word what they are given.

All wording lives in ``templates/``; a campaign overrides any template with a
file of the same name in its own ``templates/`` folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import CodeType, FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Jinja is imported when a template is first needed (start-up time)
    import jinja2
    from jinja2 import nodes
    from jinja2.compiler import CodeGenerator, Frame
    from jinja2.nodes import Concat
    from jinja2.runtime import Context
    from jinja2.sandbox import SandboxedEnvironment

from . import events as ev
from .cards import COUNTS, PREMIUM_COUNTS, Card
from .engine import (
    ANY,
    CARD_RULES,
    NO_TARGET,
    OTHER,
    PAIR_ANY,
    PAIR_OTHERS,
    PREMIUM_PLAYERS,
    Game,
    Hand,
    forced_card,
    legal_cards,
    tokens_to_win,
)
from .errors import PbemError
from .knowledge import Knowledge, update
from .store import StoreError
from .tuples import NamedTuple


def default_templates_dir() -> Path:
    """The templates shipped with pbem: the top-level ``templates/`` folder of
    a source checkout, or ``pbem/templates`` of an installed copy (a plain
    folder beside this file: no importlib.resources, which costs start-up time)."""
    here = Path(__file__).resolve().parent
    source_tree = here.parent / "templates"
    if (source_tree / "public.txt.j2").exists():
        return source_tree
    return here / "templates"


def rules_text() -> str:
    """The rules the tool adjudicates (docs/RULES.md), from a source checkout
    or from the copy installed inside the package (pbem/docs)."""
    here = Path(__file__).resolve().parent
    for folder in (here.parent / "docs", here / "docs"):
        if (folder / "RULES.md").is_file():
            return (folder / "RULES.md").read_text(encoding="utf-8")
    raise FileNotFoundError("RULES.md is missing from this installation of pbem (docs/RULES.md)")


def card_reference_text(renderer: Renderer) -> str:
    """The card reference as the mails show it (``pbem rules --cards``)."""
    return renderer.env.from_string('{% import "_cards.txt.j2" as deck %}{{ deck.reference(cards) }}').render(
        cards=card_reference()
    )


def template_digests(env: jinja2.Environment, name: str) -> dict[str, str]:
    """The SHA-256 of template ``name`` and of every template it imports, as
    ``env`` finds them (a campaign's own first): the final report names its
    templates so that `pbem verify` knows whether it can render it again."""
    import hashlib

    from jinja2 import meta

    out: dict[str, str] = {}
    todo = [name]
    while todo:
        current = todo.pop()
        if current in out:
            continue
        assert env.loader is not None, "pbem's environments all have a loader"
        source = env.loader.get_source(env, current)[0]
        out[current] = hashlib.sha256(source.encode("utf-8")).hexdigest()
        todo.extend(t for t in meta.find_referenced_templates(env.parse(source)) if isinstance(t, str))
    return dict(sorted(out.items()))


#: How pbem.orders words the one completion that leaves nothing to chance: the
#: Sycophant's mark decides the target (RULES 10.3).
_BY_THE_MARK = "the Sycophant marked "


def left_to_chance(checked: Any) -> bool:
    """A *completed* order (pbem.orders) that leaves something to chance: a
    completion other than the Sycophant's mark, which decides the player it
    names. The acknowledgement offers to choose oneself only for those."""
    if getattr(checked, "status", None) != "completed":
        return False
    return any(not part.startswith(_BY_THE_MARK) for part in str(checked.reason).split("; "))


class TemplateRefused(StoreError):
    """A template that may not be used: outside its folder, or doing what a template may not."""


def make_environment(campaign_templates: Path | None = None, html: bool = False) -> jinja2.Environment:
    """A Jinja environment: the campaign's own templates first, then the defaults.
    ``html``: for web pages (every value escaped); else for plain-text mail.

    Sandboxed: GMs share template packs, and a template must only word what it
    is given, never reach Python's internals (``cycler.__init__.__globals__``
    gives the ``os`` module to an ordinary environment), nor read a file through
    a symbolic link out of its folder (a ``public.txt.j2`` linked to
    ``/etc/passwd`` would publish it)."""
    import jinja2

    search = [str(default_templates_dir())]
    if campaign_templates is not None and campaign_templates.is_dir():
        search.insert(0, str(campaign_templates))
    env = _sandbox_class()(
        loader=_confined_loader(search),
        bytecode_cache=_bytecode_cache("html" if html else "text"),
        autoescape=html,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        # An environment lives for one command: each template is read once, not
        # checked on disk again at every render (a resolve renders the private mail
        # once per player, a fetch an acknowledgement per message, the site a page per turn).
        auto_reload=False,
    )
    env.filters["cards"] = lambda cards: ", ".join(cards) if cards else "-"
    env.filters["names"] = _join_names
    env.filters["either"] = lambda names: _join_names(names, "or")
    env.filters["add_article"] = lambda card: "the " + card
    env.tests["left_to_chance"] = left_to_chance
    return env


#: The most text one template may write (a report is some kilobytes; the site's
#: longest page, the whole game's history, well under a megabyte).
MAX_OUTPUT = 20_000_000
#: The longest value one operation of a template may make (``"x" * n``,
#: ``|center(n)``, ``|replace``...), and the largest number it may pass for a size.
MAX_VALUE = 10_000_000
#: The longest a template may take to render, in seconds.
MAX_SECONDS = 5.0
_MAX_BITS = 100_000  # the largest number ``**`` may make (30,000 digits)
# A width or precision in a format ("%10000000000s", "{:>10000000000}").
_WIDE_FORMAT = re.compile(r"(?:%|:)[^%{}]*?\d{8,}")


class TemplateLimit(PbemError):
    """A template went past one of the bounds (:data:`MAX_OUTPUT`, :data:`MAX_VALUE`,
    :data:`MAX_SECONDS`); the message says which."""


#: The most a render may make in all (the sum of the values :func:`_check_size` saw):
#: a loop of values each under :data:`MAX_VALUE` must not add up to gigabytes.
MAX_MADE = 20 * MAX_VALUE
_made = [0]  # made so far by the render under way (renders are one at a time, in one thread)


def _check_size(value: Any) -> Any:
    if isinstance(value, (str, bytes, list, tuple)):
        size = len(value)
        if size > MAX_VALUE:
            raise TemplateLimit(f"it makes a value of {size:,} characters or items (at most {MAX_VALUE:,})")
        if size > 1000:  # (small values cannot add up to much in a render's few seconds)
            _made[0] += size
            if _made[0] > MAX_MADE:
                raise TemplateLimit(f"it makes more than {MAX_MADE:,} characters in all")
    return value


def _check_number(value: Any) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_VALUE:
        raise TemplateLimit(f"it asks for a size of {value:,} (at most {MAX_VALUE:,})")


def _check_format(text: Any) -> None:
    if isinstance(text, str) and _WIDE_FORMAT.search(text):
        raise TemplateLimit(f"its format {text[:40]!r} asks for a width of millions of characters")


def _bounded_filter(func: Callable[..., Any]) -> Callable[..., Any]:
    """A filter whose size arguments and result are checked (``|center(10**10)``,
    ``|indent``, ``|replace`` make text from a number). The filter's own marks
    (``pass_context``...) are kept: :func:`functools.wraps` copies them."""
    import functools

    first = 2 if getattr(func, "jinja_pass_arg", None) is not None else 1  # (context,) value, ...
    name = getattr(func, "__name__", "")

    @functools.wraps(func)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        for value in (*args[first:], *kwargs.values()):
            _check_number(value)
        if name == "do_format" and args:
            _check_format(args[0])
        if name == "do_replace" and len(args) >= 4:  # (eval_ctx, text, old, new)
            _check_replace(args[1], args[2], args[3])
        return _check_size(func(*args, **kwargs))

    return bounded


def _check_replace(text: Any, old: Any, new: Any) -> None:
    if isinstance(text, str) and isinstance(old, str) and isinstance(new, str) and len(new) > len(old):
        grows = (text.count(old) if old else len(text) + 1) * (len(new) - len(old))
        _check_size_of(len(text) + grows)


def _check_size_of(size: int) -> None:
    if size > MAX_VALUE:
        raise TemplateLimit(f"it makes a value of {size:,} characters or items (at most {MAX_VALUE:,})")


@cache
def _sandbox_class() -> type[SandboxedEnvironment]:
    """Jinja's sandbox, with a quicker road to a plain dict's keys, and bounds on
    what a template may make (made once).

    Jinja's sandbox keeps a template from Python's internals, not from asking for
    ten gigabytes (``{{ "x" * 10**10 }}``), a number of ten billion digits
    (``10**10**10``) or an endless loop. So here every operation that makes a value
    from a number is checked first (``*``, ``**``, ``%``, a call or a filter given a
    size, ``replace``), every other one after (``+``, ``~``, a call's result): no
    value grows past :data:`MAX_VALUE`; and a render (:class:`BoundedTemplate`)
    stops past :data:`MAX_OUTPUT` characters or :data:`MAX_SECONDS` seconds."""
    from jinja2 import TemplateSyntaxError
    from jinja2.runtime import Macro
    from jinja2.sandbox import SandboxedEnvironment

    dict_attributes = frozenset(dir(dict))

    class Sandbox(SandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**", "%", "+"})
        code_generator_class = _bounded_code_generator()

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.template_class = _bounded_template_class()
            self.filters = {name: _bounded_filter(f) for name, f in self.filters.items()}

        def getattr(self, obj: Any, attribute: str) -> Any:
            # ``c.card`` on a dict: the sandbox first tries the attribute, which a
            # plain dict only has when dict itself does, fails (an exception each
            # time: most of a context is dicts), then returns the key. The same
            # answer, without the exception; every other value is checked as before.
            if type(obj) is dict and attribute not in dict_attributes and attribute in obj:
                return obj[attribute]
            # ``c.status`` on a value tuple: Jinja's sandbox refuses only an underscore there
            # (a tuple is no function, type, frame or mutable collection); a missing one: its road.
            if isinstance(obj, tuple) and not attribute.startswith("_"):
                try:
                    return getattr(obj, attribute)
                except AttributeError:
                    pass
            return super().getattr(obj, attribute)

        @staticmethod
        def checked(value: Any) -> Any:
            return _check_size(value)

        def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
            _check_binop(operator, left, right)
            return _check_size(super().call_binop(context, operator, left, right))

        def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's)
            if type(__obj) is Macro:  # the template's own (safe): most calls, the quick way
                return _check_size(__context.call(__obj, *args, **kwargs))
            _check_method_call(__obj, args, kwargs)
            return _check_size(super().call(__context, __obj, *args, **kwargs))

        # Jinja types compile() as two overloads on ``raw``; one body serves both here.
        def compile(  # type: ignore[override]
            self,
            source: str | nodes.Template,
            name: str | None = None,
            filename: str | None = None,
            raw: bool = False,
            defer_init: bool = False,
        ) -> str | CodeType:
            try:
                # Jinja's overloads take ``raw`` as a literal True or False, its body a bool: passed on as is.
                compiled: str | CodeType = super().compile(source, name, filename, raw, defer_init)  # type: ignore[call-overload]
                return compiled
            except TemplateSyntaxError as e:
                where = e.filename or e.name or filename or name or "a template"
                raise TemplateRefused(
                    f"{where} (line {e.lineno}): not a valid template: {e.message}"
                ) from None

        def wrap_str_format(self, value: Any) -> Any:
            _check_format(getattr(value, "__self__", None))  # "{:>10000000000}".format(x)
            return super().wrap_str_format(value)

    return Sandbox


@cache
def _bounded_code_generator() -> type[CodeGenerator]:
    """Jinja's code generator, with ``a ~ b`` made into ``environment.checked(a ~ b)``
    (made once): a concatenation is checked after, each side being bounded already."""
    from jinja2.compiler import CodeGenerator

    class BoundedCodeGenerator(CodeGenerator):
        def visit_Concat(self, node: Concat, frame: Frame) -> None:  # noqa: N802 (Jinja's name)
            # ``a ~ b``: checked after (each side is bounded already, so the result is too)
            self.write("environment.checked(")
            super().visit_Concat(node, frame)
            self.write(")")

    return BoundedCodeGenerator


def _check_binop(operator: str, left: Any, right: Any) -> None:
    """Before a template's ``left OPERATOR right`` is made: refuse (TemplateLimit) a
    ``*`` repeating a sequence past MAX_VALUE, a ``**`` making a number too large,
    a ``%`` format asking for a width past the bounds. ``+`` is checked after."""
    if operator == "*":
        for seq, n in ((left, right), (right, left)):
            if isinstance(seq, (str, bytes, list, tuple)) and isinstance(n, int):
                _check_size_of(len(seq) * max(n, 0))
    elif operator == "**" and isinstance(left, int) and isinstance(right, int):
        if abs(left) > 1 and right > 0 and right * abs(left).bit_length() > _MAX_BITS:
            raise TemplateLimit(f"it raises {left} to the power {right}: a number too large to make")
    elif operator == "%":
        _check_format(left)
        for value in right if isinstance(right, tuple) else (right,):
            _check_number(value)  # a "*" width


def _check_method_call(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Before a template calls a method of a string or sequence (``"x".center(n)``,
    ``"x".replace(a, b)``...): refuse (TemplateLimit) a number or a replacement
    that would make a value past MAX_VALUE. Other calls are checked after."""
    owner = getattr(obj, "__self__", None)
    if isinstance(owner, (str, bytes, list, tuple)):
        for value in (*args, *kwargs.values()):
            _check_number(value)
        if getattr(obj, "__name__", "") == "replace" and len(args) >= 2:
            _check_replace(owner, args[0], args[1])


@cache
def _bounded_template_class() -> type[jinja2.Template]:
    """A template whose render stops past :data:`MAX_OUTPUT` characters or
    :data:`MAX_SECONDS` seconds, and whose every failure is a sentence
    (:class:`TemplateRefused`) naming the template and its line, never a traceback."""
    import jinja2

    class BoundedTemplate(jinja2.Template):
        def render(self, *args: Any, **kwargs: Any) -> str:
            ctx = self.new_context(dict(*args, **kwargs))
            _made[0] = 0
            try:
                with _time_limit(MAX_SECONDS):
                    # Each piece is bounded (and what the pieces made in all): they are
                    # counted once they are all there, at C speed.
                    pieces = list(self.root_render_func(ctx))
                    if sum(map(len, pieces)) > MAX_OUTPUT:
                        raise TemplateLimit(f"it writes more than {MAX_OUTPUT:,} characters")
            except TemplateRefused:
                raise
            except (Exception, RecursionError, MemoryError) as e:
                raise _refused(self, e) from None
            return "".join(pieces)

    return BoundedTemplate


def _refused(template: jinja2.Template, e: BaseException) -> TemplateRefused:
    """What a template that failed did wrong, as a sentence for the GM."""
    import jinja2
    from jinja2.exceptions import SecurityError

    where = template.filename or template.name or "a template"
    line = _template_line(e, template)
    at = f" (line {line})" if line else ""
    if isinstance(e, SecurityError):
        why = (
            f"refused: the template tried something templates may not do ({e}); templates are "
            f"sandboxed: they only word what they are given"
        )
    elif isinstance(e, TemplateLimit):
        why = f"refused: {e}; templates only word what they are given"
    elif isinstance(e, TimeoutError):
        why = f"refused: it took more than {MAX_SECONDS:g} seconds to render"
    elif isinstance(e, RecursionError):
        why = "refused: it calls itself without end (a macro that calls itself?)"
    elif isinstance(e, MemoryError):
        why = "refused: it needs more memory than there is"
    elif isinstance(e, jinja2.UndefinedError):
        why = f"cannot be rendered: {e.message}; check the names it uses against the default template"
    else:
        why = f"cannot be rendered: {type(e).__name__}: {str(e)[:200]}"
    return TemplateRefused(f"{where}{at}: {why}")


def _template_line(e: BaseException, template: jinja2.Template) -> int | None:
    """The line of ``template`` where ``e`` was raised: the last frame of its
    compiled code, mapped back to the template's source."""
    line = None
    tb = e.__traceback__
    while tb is not None:
        if template.filename and tb.tb_frame.f_code.co_filename == template.filename:
            line = template.get_corresponding_lineno(tb.tb_lineno)
        tb = tb.tb_next
    return line


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the rendering code after ``seconds`` (a SIGALRM timer,
    in the main thread where signals are; elsewhere the render is not timed).
    An earlier timer of the process is kept and set again after."""
    import signal
    import threading
    import time

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError("template took too long")

    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, expired)
    before, interval = signal.setitimer(signal.ITIMER_REAL, 0)
    signal.setitimer(signal.ITIMER_REAL, seconds if not before else min(seconds, before))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if before:  # the earlier timer, less the time spent here (at least a moment)
            signal.setitimer(signal.ITIMER_REAL, max(before - (time.monotonic() - start), 0.001), interval)


def _bytecode_cache(kind: str) -> jinja2.BytecodeCache | None:
    """Compiled templates, kept between runs: compiling them costs more than
    the rest of a `pbem resolve`. Jinja keys each entry by the template's
    source checksum, so an edited or overriding template is compiled anew.
    No cache (and no error) where the cache folder cannot be written.

    One cache per ``kind`` of environment ("text", "html"): Jinja's key is the
    template's name and source only, and the same ``_events.txt.j2`` compiled
    with autoescape for the web pages must never be run by the mail, nor the
    other way round."""
    import os

    import jinja2

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    # Not "templates": code compiled outside the sandbox calls functions unchecked.
    # And not "templates-sandboxed": code compiled before the bounds (BoundedCodeGenerator) has none.
    folder = os.path.join(base, "pbem", f"templates-bounded-{kind}")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(folder)


def _confined_loader(search: list[str]) -> jinja2.BaseLoader:
    """A file loader that refuses a template whose real path (symbolic links
    followed) is not inside the folder it was found in."""
    import os

    import jinja2
    from jinja2.loaders import split_template_path

    class ConfinedLoader(jinja2.FileSystemLoader):
        def get_source(
            self, environment: jinja2.Environment, template: str
        ) -> tuple[str, str, Callable[[], bool]]:
            pieces = split_template_path(template)
            for root in self.searchpath:
                filename = os.path.join(root, *pieces)
                if os.path.lexists(filename):
                    break
            else:
                raise jinja2.TemplateNotFound(template)
            real, base = os.path.realpath(filename), os.path.realpath(root)
            if os.path.commonpath([real, base]) != base or not os.path.isfile(real):
                raise TemplateRefused(
                    f"{filename}: refused: this template is not a file inside {root} "
                    f"(it leads to {real}); templates may only be files of that folder"
                )
            with open(real, encoding=self.encoding) as f:
                contents = f.read()
            mtime = os.path.getmtime(real)

            def uptodate() -> bool:
                try:
                    return os.path.getmtime(real) == mtime
                except OSError:
                    return False

            return contents, os.path.normpath(filename), uptodate

    return ConfinedLoader(search)


def _join_names(names: Sequence[object], last: str = "and") -> str:
    texts = [str(n) for n in names]
    if not texts:
        return "nobody"
    if len(texts) == 1:
        return texts[0]
    return ", ".join(texts[:-1]) + f" {last} " + texts[-1]


class Table(NamedTuple):
    """The facts every report needs about the campaign."""

    campaign: str
    title: str
    players: list[str]


def _name(table: Table, seat: int | None) -> str | None:
    return None if seat is None else table.players[seat]


def event_view(table: Table, event: Any) -> dict[str, Any]:
    """An event as plain data with names and card titles, for templates."""
    view: dict[str, Any] = {"kind": event.kind}
    for field, value in zip(event._fields, event):
        if field in ("seat", "target", "recipient", "loser", "other"):
            view["player" if field == "seat" else field] = _name(table, value)
        elif isinstance(value, Card):
            view[field] = value.title
        elif field == "winners":
            view[field] = [table.players[s] for s in value]
        elif field == "reveals":
            view[field] = [(table.players[s], c.title) for s, c in value]
        elif field == "totals":
            view[field] = [(table.players[s], t) for s, t in value]
        elif field == "won":
            view[field] = [(table.players[s], h) for s, h in value]
        elif field == "marked":
            view[field] = table.players[value]
        elif field in ("named", "chosen"):
            view[field] = [None if s is None else table.players[s] for s in value]
        elif field == "values":
            view[field] = [(table.players[s], _number(v)) for s, v in value]
        elif field == "gained":
            view[field] = [(table.players[s], h, c.title) for s, h, c in value]
        elif field == "cards":
            view[field] = [c.title for c in value]
        else:
            view[field] = value
    if event.kind == "played":  # what the card does, from the card table: the wording follows it
        rule = CARD_RULES[event.card]
        view["chooses_one"] = rule.targets in (OTHER, ANY)
        view["chooses_two"] = rule.targets in (PAIR_ANY, PAIR_OTHERS)
        view["guesses"] = rule.guesses
    return view


def _number(value: float) -> str:
    """A hand value as a player writes it: 9.5, 10."""
    return f"{value:g}"


def _hand_public(
    table: Table, hand: Hand, events: list[ev.Event], order: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What everybody may know of one hand after the turn. ``order``: the order
    resolved in that hand (its record in ``orders.json``), for what the player
    wrote where it could not be used."""
    ended_event = next((e for e in events if e.kind == "ended"), None)
    return {
        "number": hand.number,
        "ended": hand.ended,
        "ended_now": ended_event is not None,
        "events": _public_views(table, hand, events, order),
        "result": event_view(table, ended_event) if ended_event else None,
        "seats": [
            {
                "name": table.players[s],
                "in": hand.alive[s],
                "discards": [c.title for c in hand.discards[s]],
                "protected": hand.protected[s] and hand.alive[s],
            }
            for s in range(len(table.players))
        ],
        "draw_pile": len(hand.pile),
        "face_up": [c.title for c in hand.face_up],  # public from the start (RULES 9)
        "marked": None if hand.ended else _name(table, hand.marked),  # the Sycophant's (RULES 10.3)
        "active": _name(table, hand.active),
        "winners": [table.players[s] for s in hand.winners],
    }


def _public_views(
    table: Table, hand: Hand, events: list[ev.Event], order: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """The public events of one hand in one turn (the end of the hand aside),
    with what their wording needs beyond the event itself. The deal's face-up
    cards are no play: the reports list them from the hand (``face_up``)."""
    views = []
    for e in events:
        if e.kind in ("ended", "face_up") or e.audience is not None:
            continue
        view = event_view(table, e)
        if isinstance(e, ev.Played):  # kind "played"
            view["target_text"] = (order or {}).get("target_text")
            view["proxy"] = (order or {}).get("status") == "proxy"  # no order: the proxy played it
            # A play with nobody to take it: the others are all out, or those
            # still in are protected. No play with no effect knocks anyone out,
            # so the hand after the turn tells which.
            others_in = [s for s in range(len(table.players)) if s != e.seat and hand.alive[s]]
            view["nobody_because"] = "protected" if others_in else "out"
        views.append(view)
    return views


def _by_hand(events: list[ev.Event]) -> dict[int, list[ev.Event]]:
    grouped: dict[int, list[ev.Event]] = {}
    for e in events:
        number = getattr(e, "hand", None)
        if number is not None:
            grouped.setdefault(number, []).append(e)
    return grouped


def public_context(
    table: Table,
    turn: int,
    game: Game,
    events: list[ev.Event],
    notes: Sequence[str] = (),
    deadline: str = "",
    orders: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The context of the public report of ``turn`` (0: the opening report).

    ``game`` is the state after the turn; ``events`` may hold private events:
    they are dropped here, first thing. ``orders``: hand (a string) -> the record
    of the order resolved there, as ``orders.json`` keeps it.
    """
    orders = orders or {}
    public = ev.public(events)
    grouped = _by_hand(public)
    in_play_or_just_ended = [h for h in game.hands if not h.ended or h.number in grouped]
    game_over = next((e for e in public if e.kind == "game_over"), None)
    tokens_won = next((e for e in public if e.kind == "tokens"), None)
    by_cards = next((e for e in public if e.kind == "card_tokens"), None)
    return {
        "campaign": table.campaign,
        "title": table.title,
        "turn": turn,
        "next_turn": game.turn,
        "players": table.players,
        "hands": [
            _hand_public(table, h, grouped.get(h.number, []), orders.get(str(h.number)))
            for h in in_play_or_just_ended
        ],
        "ended_before": [h.number for h in game.hands if h.ended and h.number not in grouped],
        "tokens": list(zip(table.players, game.tokens)),
        "tokens_won": event_view(table, tokens_won)["won"] if tokens_won else [],
        "tokens_by_cards": event_view(table, by_cards)["gained"] if by_cards else [],  # RULES 10.4
        "to_win": tokens_to_win(len(table.players)),
        "finished": game.finished,
        "winners": [table.players[s] for s in game.winners],
        "game_over": game_over is not None,
        "awaited": [(table.players[s], hands) for s, hands in game.awaited().items() if hands],
        "notes": list(notes),
        "deadline": deadline,
        "audit": _audit(game) if game.finished else [],
        "commitments": {},
        "record": "",
    }


def _audit(game: Game) -> list[dict[str, Any]]:
    """After the game: every deck and set-aside card (RULES 8)."""
    return [
        {"number": h.number, "deck": [c.title for c in h.deck], "set_aside": h.deck[0].title}
        for h in game.hands
    ]


def card_reference(counts: Mapping[Card, int] = COUNTS) -> list[dict[str, Any]]:
    """The deck a player looks up: each card's rank, name and count, in rank
    order. The one-line effects are words, so they live in the template
    ``_cards.txt.j2``, keyed by the card's name; a card added to the deck is one
    entry there (a test checks that every card of the deck has one)."""
    premium = any(card not in COUNTS for card in counts)  # a Guard names a number (RULES 10.2)
    return [
        {"rank": card.rank, "name": card.title, "count": n, "premium": premium}
        for card, n in sorted(counts.items(), key=lambda kv: (kv[0].rank, int(kv[0])))
    ]


def deck_reference(players: int) -> list[dict[str, Any]]:
    """The card reference of the deck a table of ``players`` plays with (RULES 10: the
    Premium deck from 5 players on)."""
    return card_reference(PREMIUM_COUNTS if players in PREMIUM_PLAYERS else COUNTS)


def _hand_table(
    table: Table, hand: Hand, seat: int, known: list[dict[str, Any]], last_turn: list[dict[str, Any]]
) -> dict[str, Any]:
    """What the active player sees of a hand to decide their play: everything
    public (who is in, protected, the discard piles, the pile) and what they
    alone know of it; never another player's card."""
    names = table.players
    return {
        "seats": [
            {
                "name": names[s],
                "you": s == seat,
                "in": hand.alive[s],
                "protected": hand.protected[s] and hand.alive[s],
                "discards": [c.title for c in hand.discards[s]],
            }
            for s in range(len(names))
        ],
        "draw_pile": len(hand.pile),
        # The active player drew the pile's last card: the hand ends after this play.
        "last_play": not hand.pile,
        "known": known,
        "last_turn": last_turn,
        "choices": choices(table.players, hand, seat),
        # The Sycophant's mark binds this play (RULES 10.3): said before the player writes.
        "marked": _name(table, hand.marked),
        "marked_you": hand.marked == seat,
    }


def choices(names: list[str], hand: Hand, seat: int) -> list[dict[str, Any]]:
    """The plays open to the active player, each with the players it may name
    (RULES 3, 4, 10.3), read from the card table: another player still in and
    not protected; the Prince and the Sycophant may also name the player, the
    Cardinal two players (the player among them). Worded by the ``choice``
    macro of ``_events.txt.j2``."""
    held = hand.cards[seat]
    others = [s for s in range(len(names)) if s != seat and hand.alive[s]]
    open_ = [names[s] for s in others if not hand.protected[s]]
    shielded = [names[s] for s in others if hand.protected[s]]
    forced = forced_card(held)
    marked = hand.marked
    out = []
    for card in legal_cards(held):
        rule = CARD_RULES[card]
        chooses = rule.targets != NO_TARGET
        binds = chooses and marked is not None
        out.append(
            {
                "card": card.title,
                "targets": open_ if rule.targets != NO_TARGET else None,
                "two": rule.targets in (PAIR_ANY, PAIR_OTHERS),
                "look": rule.targets == PAIR_ANY,  # the Cardinal: which of the two to look at
                "protected": shielded,
                "self_allowed": rule.targets in (ANY, PAIR_ANY),
                "guess": "number" if rule.guesses and hand.premium else "card" if rule.guesses else None,
                # the Sycophant's mark: whom this card must choose; None: unmarked, or no choosing card
                "marked": ("myself" if marked == seat else names[marked])
                if binds and marked is not None
                else None,
                # the mark is on the player, and this card cannot be played on oneself: no effect
                "mark_void": binds and marked == seat and rule.targets not in (ANY, PAIR_ANY),
                "forced_by": next(c.title for c in held if c != card)
                if forced == card and len(set(held)) > 1
                else None,
            }
        )
    return out


def _known_by_hand(table: Table, game: Game, seat: int, known: Knowledge) -> dict[int, list[dict[str, Any]]]:
    """Hand -> what ``seat`` knows of the cards of players still in that hand,
    oldest first, as the private mail tells it (see :mod:`pbem.knowledge`)."""
    out: dict[int, list[dict[str, Any]]] = {}
    for entry in known.get(seat, []):
        hand = game.hand(entry["hand"])
        if hand.ended or not hand.alive[entry["other"]] or not hand.alive[seat]:
            continue
        out.setdefault(entry["hand"], []).append(
            {
                "turn": entry["turn"],
                "how": entry["how"],
                "other": table.players[entry["other"]],
                "card": entry["card"],
                "played_since": entry["played_since"],
                "may_have_changed": entry["may_have_changed"],
            }
        )
    return out


def private_context(
    table: Table,
    turn: int,
    game: Game,
    events: list[ev.Event],
    seat: int,
    code: str = "",
    deadline: str = "",
    known: Knowledge | None = None,
    orders: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The context of ``seat``'s private report after ``turn``: their cards, the
    hands they must play, and only the events whose audience includes them.

    ``known``: what the players know of each other's cards after this turn
    (:func:`pbem.knowledge.update`; None: what this turn's events alone taught,
    as at the start of a game). Only the reader's own entries are read;
    ``orders``: the turn's orders as for :func:`public_context` (what happened in
    each hand last turn is told again, in the public report's words)."""
    mine = [event_view(table, e) for e in ev.private_to(events, seat)]
    if known is None:
        known = update({}, turn, events)
    knowledge = _known_by_hand(table, game, seat, known)
    grouped = _by_hand(ev.public(events))
    orders = orders or {}
    hands = []
    for h in game.hands:
        if h.ended or not h.alive[seat]:
            continue
        your_turn = h.active == seat and not game.finished
        hands.append(
            {
                "number": h.number,
                "cards": [c.title for c in h.cards[seat]],
                "your_turn": your_turn,
                "protected": h.protected[seat],
                "face_up": [c.title for c in h.face_up],  # public (RULES 9); they change a Guard's odds
                "table": _hand_table(
                    table,
                    h,
                    seat,
                    knowledge.get(h.number, []),
                    _public_views(table, h, grouped.get(h.number, []), orders.get(str(h.number))),
                )
                if your_turn
                else None,
            }
        )
    return {
        "campaign": table.campaign,
        "title": table.title,
        "player": table.players[seat],
        "players": table.players,
        "turn": turn,
        "next_turn": game.turn,
        "hands": hands,
        "out_of": [h.number for h in game.hands if not h.ended and not h.alive[seat]],
        "your_turns": [h["number"] for h in hands if h["your_turn"]],
        "learned": mine,
        "code": code,
        "deadline": deadline,
        "finished": game.finished,
        "winners": [table.players[s] for s in game.winners],
        "tokens": list(zip(table.players, game.tokens)),
        "to_win": tokens_to_win(len(table.players)),
        "premium": game.players in PREMIUM_PLAYERS,
        "reference": deck_reference(game.players),
    }


class Renderer:
    """Renders the report templates of one campaign."""

    def __init__(self, campaign_templates: Path | None = None):
        self.env = make_environment(campaign_templates)

    def render(self, template: str, context: dict[str, Any]) -> str:
        from jinja2.exceptions import SecurityError

        try:
            return self.env.get_template(template).render(**context)
        except SecurityError as e:
            raise TemplateRefused(
                f"{template}: refused: the template tried something templates may not "
                f"do ({e}); templates are sandboxed: they only word what they are given"
            ) from None

    def public(self, context: dict[str, Any]) -> str:
        return self.render("public.txt.j2", context)

    def private(self, context: dict[str, Any]) -> str:
        return self.render("private.txt.j2", context)
