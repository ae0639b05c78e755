"""Which parts of an HTML mail a reader sees: a CSS cascade over the tree, hidden text dropped.

A player's orders are what their mail client showed them.  Text that the markup hides from the
eye (display:none, a 1 px font, white on white, off-screen, clipped, scaled to nothing, ...)
is nobody's orders: a forger's, or a template's.  The styles are read the way a mail client
reads them, with a real CSS parser (tinycss2: comments, escapes such as ``\\6e one``,
``!important``) and real selector matching (cssselect2: ``div span``, ``[data-h]``,
``:not()``...), cascaded by importance, origin, specificity and order; inherited properties
(colour, font size, visibility, text-indent) flow down the tree.

`drop_invisible` removes what is hidden and says which tricks it met.  Deliberately on the
side of reading: a property it cannot evaluate (``calc()`` with several terms, a colour it
does not know, a background image under the text) leaves the text read.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import cssselect2
import lxml.etree
import tinycss2
import tinycss2.ast
from tinycss2 import color4

from ..errors import PbemError

# The properties that can hide text; every other declaration is skipped at parse time.
_RELEVANT = frozenset(
    {
        "display", "visibility", "opacity", "font-size", "font", "color", "-webkit-text-fill-color",
        "background", "background-color", "background-image", "position", "left", "top", "right",
        "bottom", "margin-left", "margin-top", "margin", "text-indent", "clip", "clip-path",
        "transform", "zoom", "height", "max-height", "width", "max-width", "overflow",
        "overflow-x", "overflow-y", "mso-hide", "content-visibility", "filter",
    }
)  # fmt: skip
_INHERITED = ("color", "-webkit-text-fill-color", "visibility", "text-indent")
_DEFAULTING = ("unset", "revert", "revert-layer")  # an inherited property's: inherit
_FONT_KEYWORDS = {
    "xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0, "large": 18.0,
    "x-large": 24.0, "xx-large": 32.0, "xxx-large": 48.0,
}  # fmt: skip
_UNITS = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6}
_VIEWPORT = (1024.0, 768.0)  # the width and height a desktop client gives a mail
_MIN_FONT_PX = 4.0  # smaller is not legible (a 1 px or 0.01 px font); 6 px text still reads
_MIN_OPACITY = 0.1
_MIN_SCALE = 0.3
_MIN_CONTRAST = 1.2  # WCAG contrast ratio: #f8f8f8 on white is 1.06, #ddd on white 1.36
_OFF_SCREEN = 300.0  # px pushed out of the mail's box: left:-9999px, text-indent:-300px
_FAR_RIGHT = 2000.0
_MAX_CSS = 200_000  # a stylesheet longer than this is read up to here
_MAX_RULES = 5_000

#: A declaration's rank in the cascade: importance, origin (-1 a presentational hint, 0 the
#: stylesheet, 1 the style attribute), specificity, the rule's order, the declaration's place in it.
_Key = tuple[int, int, tuple[int, int, int], int, int]
Declarations = dict[str, tuple[_Key, list[tinycss2.ast.Node]]]
#: A property's declared tokens, None when not declared (or ``inherit``).
_Tokens = list[tinycss2.ast.Node] | None
#: A property's declared tokens, by its name (:func:`_compute`'s ``value``).
_Value = Callable[[str], _Tokens]


@dataclass
class _State:
    """What an element hands down to its children (inherited or cumulative)."""

    font_px: float = 16.0
    color: tuple[float, float, float, float] | None = (0.0, 0.0, 0.0, 1.0)  # None: unknown
    fill: tuple[float, float, float, float] | None = None  # the text's paint; None: its colour
    backdrop: tuple[float, float, float] | None = (1.0, 1.0, 1.0)  # None: unknown (an image)
    visible: bool = True
    indent_px: float = 0.0
    opacity: float = 1.0
    mute: str | None = None  # why the text of an element in this state is not seen


@dataclass
class Hidden:
    """What `drop_invisible` found: the tricks used on text, by name."""

    tricks: list[str] = field(default_factory=list)

    def add(self, trick: str) -> None:
        if trick not in self.tricks:
            self.tricks.append(trick)


_NOTHING_DECLARED = (False, None, None, None, ())


def drop_invisible(
    root: lxml.etree._Element, css: str, quiet: Callable[[lxml.etree._Element], bool] = lambda _: False
) -> Hidden:
    """Remove from the tree the elements and the text a mail client would not show.

    ``css``: the text of the message's <style> elements.  Returns the tricks met on hidden
    text, leaving out the elements ``quiet`` names (a hidden quote hides no orders).
    """
    found = Hidden()
    matcher, count = _stylesheet(css[:_MAX_CSS])
    matches: dict[lxml.etree._Element, list[Any]] = {}  # cssselect2's matches (untyped)
    if count:
        for wrapper in cssselect2.ElementWrapper.from_html_root(root).iter_subtree():
            found_rules = matcher.match(wrapper)
            if found_rules:
                matches[wrapper.etree_element] = found_rules
    inline_cache: dict[str, Declarations] = {}
    computed: dict[tuple[tuple[object, ...], int], tuple[_State, str | None]] = {}
    default = _State()
    # Document order, parents before children: the states of the ancestors are known.
    states: dict[lxml.etree._Element, _State] = {}
    doomed: list[tuple[lxml.etree._Element, str]] = []
    muted: list[tuple[lxml.etree._Element, str]] = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        inherited = states.get(element.getparent(), default)  # the root's parent, None: default
        matched = matches.get(element)
        signature = (
            element.get("hidden") is not None,
            _colour_attribute(element),
            element.get("bgcolor"),
            element.get("style"),
            tuple((found_rule[0], found_rule[3][0]) for found_rule in matched) if matched else (),
        )
        if signature == _NOTHING_DECLARED:
            state = inherited
        else:
            # Mail repeats itself (the same style on every cell): each pair of declarations and
            # inherited state is computed once.  The states are never changed once made.
            known = computed.get((signature, id(inherited)))
            if known is None:
                declared = _declared(element, matched, inline_cache)
                known = _compute(declared, inherited) if declared else (inherited, None)
                computed[(signature, id(inherited))] = known
            state, whole = known
            if whole:
                doomed.append((element, whole))
                continue  # its descendants go with it
        states[element] = state
        if state.mute:
            muted.append((element, state.mute))
    gone: set[lxml.etree._Element] = set()
    for element, trick in doomed:
        if any(a in gone for a in element.iterancestors()):
            continue
        if _has_text(element) and not quiet(element):
            found.add(trick)
        gone.add(element)
        _remove_keeping_tail(element)
    emptied = []
    for element, trick in muted:
        if any(a in gone for a in element.iterancestors()):
            continue
        if _mute_own_text(element):
            emptied.append(element)
            if not quiet(element):
                found.add(trick)
    for element in reversed(emptied):  # nothing left to show: no empty box (a blank line) either
        if not _has_text(element):
            _remove_keeping_tail(element)
    return found


# -- the stylesheet ------------------------------------------------------------------------------


def _stylesheet(css: str) -> tuple[cssselect2.Matcher, int]:
    """The rules of the message's stylesheet that set a relevant property, in a matcher."""
    matcher = cssselect2.Matcher()
    count = 0
    if not css.strip():
        return matcher, 0
    rules = tinycss2.parse_stylesheet(css)  # comments and whitespace: neither rule
    for order, rule in enumerate(_style_rules(rules)):
        if order >= _MAX_RULES:
            break
        declarations = _relevant(tinycss2.parse_blocks_contents(rule.content))
        if not declarations:
            continue
        try:
            selectors = cssselect2.compile_selector_list(rule.prelude)
        except Exception:  # noqa: BLE001 - SelectorError, or the parser's own crash on "p:nth-child(n+)"
            continue  # a selector this library does not know: a client may not either
        for selector in selectors:
            if selector.pseudo_element is None:
                matcher.add_selector(selector, (order, declarations))
                count += 1
    return matcher, count


def _style_rules(rules: Iterable[tinycss2.ast.Node], depth: int = 0) -> Iterator[tinycss2.ast.QualifiedRule]:
    """The qualified rules, those inside @media (for a desktop screen) and @supports included."""
    for rule in rules:
        if rule.type == "qualified-rule":
            yield rule
        elif rule.type == "at-rule" and rule.content is not None:
            if depth > _MAX_NESTING:
                raise TooIntricate("@media rules nested too deep")
            keyword = rule.lower_at_keyword
            if keyword == "supports" or (keyword == "media" and _media_applies(rule.prelude)):
                inner = tinycss2.parse_rule_list(rule.content)
                yield from _style_rules(inner, depth + 1)


def _media_applies(prelude: list[tinycss2.ast.Node]) -> bool:
    """Whether a media query list holds for a desktop screen (unknown features: it does)."""
    text = tinycss2.serialize(prelude).lower()
    for query in text.split(","):
        words = query.replace("(", " ( ").replace(")", " ) ").replace(":", " : ").split()
        negated = "not" in words
        holds = not any(w in ("print", "speech", "tv", "handheld") for w in words)  # screen, all: hold
        for feature in ("min-width", "max-width", "min-height", "max-height"):
            if feature in words:
                at = words.index(feature)
                value = _length_text("".join(words[at + 2 : at + 3]))  # the word after the colon
                if value is not None:
                    limit = _VIEWPORT[0] if "width" in feature else _VIEWPORT[1]
                    holds = holds and (limit >= value if feature.startswith("min") else limit <= value)
        if holds != negated:
            return True
    return False


def _length_text(word: str) -> float | None:
    """A media feature's length (``480px``, ``30em``, ``30rem``) in pixels, None if unread.
    "rem" is tried before "em", which it ends with."""
    for unit, factor in (("px", 1.0), ("rem", 16.0), ("em", 16.0)):
        if word.endswith(unit):
            try:
                return float(word[: -len(unit)]) * factor
            except ValueError:
                return None
    return None


def _relevant(nodes: Iterable[tinycss2.ast.Node]) -> list[tuple[str, bool, list[tinycss2.ast.Node]]]:
    out = []
    for node in nodes:
        if node.type == "declaration" and node.lower_name in _RELEVANT:
            value = [t for t in node.value if t.type not in ("whitespace", "comment")]
            out.append((node.lower_name, bool(node.important), value))
    return out


# -- one element's declared values --------------------------------------------------------------


def _declared(
    element: lxml.etree._Element, matched: list[Any] | None, inline_cache: dict[str, Declarations]
) -> Declarations:
    """The winning declaration of each relevant property: hints, stylesheet, style attribute."""
    declared: Declarations = {}

    def put(name: str, key: _Key, value: list[tinycss2.ast.Node]) -> None:
        if name not in declared or key > declared[name][0]:
            declared[name] = (key, value)

    # Presentational hints, below every rule: hidden, <font color>, bgcolor.
    if element.get("hidden") is not None:
        put("display", (0, -1, (0, 0, 0), 0, 0), [tinycss2.ast.IdentToken(0, 0, "none")])
    color = _colour_attribute(element)
    hint = _legacy_colour(color) if color else None
    if hint:
        put("color", (0, -1, (0, 0, 0), 0, 0), hint)
    bgcolor = element.get("bgcolor")
    hint = _legacy_colour(bgcolor) if bgcolor else None
    if hint:
        put("background-color", (0, -1, (0, 0, 0), 0, 0), hint)
    if matched:
        for specificity, _order, pseudo, (order, declarations) in matched:
            if pseudo is None:
                for place, (name, important, value) in enumerate(declarations):
                    put(name, (int(important), 0, specificity, order, place), value)
    style = element.get("style")
    if style:
        inline = inline_cache.get(style)
        if inline is None:
            inline = {}
            parsed = tinycss2.parse_blocks_contents(style)  # _relevant keeps the declarations
            for place, (name, important, value) in enumerate(_relevant(parsed)):
                key = (int(important), 1, (0, 0, 0), 0, place)
                if name not in inline or key > inline[name][0]:  # "!important" beats a later one
                    inline[name] = (key, value)
            if len(inline_cache) < 10_000:
                inline_cache[style] = inline
        for name, (key, value) in inline.items():
            put(name, key, value)
    return declared


def _colour_attribute(element: lxml.etree._Element) -> str | None:
    """The text colour an attribute gives: <font color>, <body text>."""
    name = {"font": "color", "body": "text"}.get(element.tag)
    return element.get(name) if name else None


def _legacy_colour(value: str) -> list[tinycss2.ast.Node] | None:
    """An attribute's colour (<font color>, <body text>, bgcolor) as a browser reads it: HTML's
    rules for parsing a legacy colour value, where "336699" is #336699, "fff" #0f0f0f and
    "ffff" #ffff00; None for none ("transparent": the attribute is ignored)."""
    text = value.strip(" \t\n\f\r")
    if not text or text.lower() == "transparent":
        return None
    if text.isascii() and text.isalpha():
        named = tinycss2.ast.IdentToken(0, 0, text)
        if isinstance(color4.parse_color(named), color4.Color):
            return [named]
    if len(text) == 4 and text[0] == "#" and all(c in string.hexdigits for c in text[1:]):
        return [tinycss2.ast.HashToken(0, 0, text[1:], True)]
    text = "".join("00" if ord(c) > 0xFFFF else c for c in text)[:128].removeprefix("#")
    digits = "".join(c if c in string.hexdigits else "0" for c in text)
    while not digits or len(digits) % 3:
        digits += "0"
    length = len(digits) // 3
    parts = [digits[i * length : (i + 1) * length][-8:] for i in range(3)]
    while len(parts[0]) > 2 and all(part[0] == "0" for part in parts):
        parts = [part[1:] for part in parts]
    rgb = "".join(f"{int(part[:2], 16):02x}" for part in parts)
    return [tinycss2.ast.HashToken(0, 0, rgb, True)]


# -- the computed style ------------------------------------------------------------------------


def _compute(declared: Declarations, up: _State) -> tuple[_State, str | None]:
    """The element's state (for its text and its children's), and why it is hidden whole."""

    def value(name: str) -> list[tinycss2.ast.Node] | None:
        found = declared.get(name)
        if found is None:
            return None
        tokens = found[1]
        if len(tokens) == 1 and tokens[0].type == "ident":
            word = tokens[0].lower_value
            if word == "inherit" or (word in _DEFAULTING and name in _INHERITED):
                return None  # inherited properties inherit anyway; the others' initial value shows
        return tokens

    def ident(name: str) -> str:
        tokens = value(name)
        return tokens[0].lower_value if tokens and tokens[0].type == "ident" else ""

    def later(shorthand: str, longhand: str) -> bool:
        """Whether the shorthand is declared, and wins over the longhand it also sets."""
        short, long = declared.get(shorthand), declared.get(longhand)
        return short is not None and (long is None or short[0] > long[0])

    state = _State(up.font_px, up.color, up.fill, up.backdrop, up.visible, up.indent_px, up.opacity, up.mute)
    # Font size first: em lengths of the other properties are of this element's font.
    font = _font_shorthand_size(value("font") or []) if later("font", "font-size") else value("font-size")
    if font is not None:
        size = _font_size(font, up.font_px)
        if size is not None:
            state.font_px = size
    hidden = _hidden_whole(value, ident, state, up)
    if hidden is not None:
        return state, hidden
    _inherited(value, ident, later, state, up)
    state.mute = _own_text_hidden(state)
    return state, None


def _hidden_whole(value: _Value, ident: Callable[[str], str], state: _State, up: _State) -> str | None:
    """Why the element whose declarations ``value`` and ``ident`` read (its ``state``
    with its font size set; ``up`` its parent's) is hidden whole with its children, or
    None.  Sets ``state.opacity`` on the way (the element's own times its parent's)."""
    zoom = _number(value("zoom"))
    if zoom is not None and zoom < _MIN_SCALE:
        return "zoom"
    display = ident("display")
    if display == "none":
        return "display:none"
    if ident("mso-hide") == "all":
        return "mso-hide"
    if ident("content-visibility") == "hidden":
        return "content-visibility"
    opacity = _number(value("opacity"))
    if opacity is not None:
        state.opacity = up.opacity * max(0.0, min(1.0, opacity))
        if state.opacity < _MIN_OPACITY:
            return "opacity"
    filters = value("filter") or []
    if any(token.type not in ("function", "url") for token in filters):
        filters = []  # none, or not CSS (functions and urls only): a client drops the declaration
    for function in filters:
        if function.type == "function" and function.lower_name == "opacity":
            amount = _number([a for a in function.arguments if a.type not in ("whitespace", "comment")])
            if amount is not None:
                state.opacity *= max(0.0, min(1.0, amount))
                if state.opacity < _MIN_OPACITY:
                    return "filter:opacity"
    if _off_screen(value, state.font_px):
        return "off-screen position"
    if _clipped(value("clip"), value("clip-path"), state.font_px):
        return "clip"
    if _scaled_away(value("transform"), state.font_px):
        return "transform"
    if _collapsed(value, ident, state.font_px):
        return "zero-size box"
    return None


def _inherited(
    value: _Value, ident: Callable[[str], str], later: Callable[[str, str], bool], state: _State, up: _State
) -> None:
    """Set in ``state`` the inherited properties the element declares (``value`` and
    ``ident`` read them, ``later`` tells a shorthand that wins; ``up`` is its parent's state),
    which a child that sets them again undoes: visibility, text indent, text and fill colour, the
    backdrop behind the text."""
    visibility = ident("visibility")
    if visibility in ("hidden", "collapse"):
        state.visible = False
    elif visibility == "visible":
        state.visible = True
    indent = value("text-indent")
    if indent is not None:
        length = _length(indent, state.font_px, _VIEWPORT[0])  # a percentage: of the mail's width
        if length is not None:
            state.indent_px = length
    tokens = value("color")
    if tokens:
        colour = _colour(tokens, up.color)
        if not isinstance(colour, bool):
            state.color = colour
    tokens = value("-webkit-text-fill-color")
    if tokens:
        fill = _colour(tokens, None, None)  # currentColor and initial: the colour, inherited as such
        if not isinstance(fill, bool):
            state.fill = fill
    shorthand = value("background")
    background = (
        _background_colour(shorthand)
        if later("background", "background-color")
        else value("background-color")
    )
    if _has_url(shorthand) if later("background", "background-image") else value("background-image"):
        state.backdrop = None  # an image: the text may show on it, it is read
    elif background:
        colour = _colour(background, state.color, None)  # initial: none, the backdrop shows
        if isinstance(colour, tuple) and colour[3] >= 0.5:
            state.backdrop = _blend(colour, state.backdrop or (1.0, 1.0, 1.0))


def _own_text_hidden(state: _State) -> str | None:
    if not state.visible:
        return "visibility:hidden"
    if state.font_px < _MIN_FONT_PX:
        return "a tiny font"
    if state.indent_px <= -_OFF_SCREEN:
        return "text-indent"
    paint = state.color if state.fill is None else state.fill
    if paint is not None:
        if paint[3] < _MIN_OPACITY:
            return "transparent text"
        if state.backdrop is not None:
            text = _blend(paint, state.backdrop)
            if _contrast(text, state.backdrop) < _MIN_CONTRAST:
                return "text the colour of its background"
    return None


def _font_shorthand_size(tokens: list[tinycss2.ast.Node]) -> list[tinycss2.ast.Node] | None:
    """The size in a font shorthand ("bold 1px/2px Arial"): its first length or keyword."""
    for token in tokens:
        if token.type in ("dimension", "percentage") or (token.type == "number" and token.value == 0):
            return [token]
        if token.type == "ident" and token.lower_value in _FONT_KEYWORDS:
            return [token]
    return None


def _font_size(tokens: list[tinycss2.ast.Node], parent_px: float) -> float | None:
    if len(tokens) == 1 and tokens[0].type == "ident":
        word = tokens[0].lower_value
        if word in _FONT_KEYWORDS:
            return _FONT_KEYWORDS[word]
        return {"smaller": parent_px / 1.2, "larger": parent_px * 1.2}.get(word)
    return _length(tokens, parent_px, parent_px)


class TooIntricate(PbemError, ValueError):
    """Styles nested deeper than any mail client's: the caller reads none of the styled text."""


_MAX_NESTING = 30


def _length(
    tokens: list[tinycss2.ast.Node] | None, font_px: float, percent_of: float | None, depth: int = 0
) -> float | None:
    """A length in px; None when it cannot be told (auto, several calc() terms, a percentage
    of a box whose size is not known: ``percent_of`` None...)."""
    if depth > _MAX_NESTING:
        raise TooIntricate("calc() nested too deep")
    if not tokens or len(tokens) != 1:
        return None
    token = tokens[0]
    if token.type == "number":
        return float(token.value) if token.value == 0 else None
    if token.type == "percentage":
        return None if percent_of is None else float(token.value) * percent_of / 100
    if token.type == "dimension":
        unit = token.lower_unit
        number = float(token.value)
        if unit in _UNITS:
            return number * _UNITS[unit]
        if unit == "em":
            return number * font_px
        if unit in ("rem", "lh", "rlh"):
            return number * 16.0
        if unit in ("ex", "ch"):
            return number * font_px / 2
        if unit in ("vw", "vmax"):
            return number * _VIEWPORT[0] / 100
        if unit in ("vh", "vmin"):
            return number * _VIEWPORT[1] / 100
        return None
    if token.type == "function":
        arguments: list[list[tinycss2.ast.Node]] = [[]]  # separated by commas
        for arg in token.arguments:
            if arg.type == "literal" and arg.value == ",":
                arguments.append([])
            elif arg.type not in ("whitespace", "comment"):
                arguments[-1].append(arg)
        lengths = [_length(argument, font_px, percent_of, depth + 1) for argument in arguments]
        if not lengths or any(x is None for x in lengths):
            return None
        known = [x for x in lengths if x is not None]
        name = token.lower_name
        if name == "calc" and len(known) == 1:
            return known[0]
        if name == "min":
            return min(known)
        if name == "max":
            return max(known)
        if name == "clamp" and len(known) == 3:
            return max(known[0], min(known[1], known[2]))
    return None


def _number(tokens: list[tinycss2.ast.Node] | None) -> float | None:
    if not tokens or len(tokens) != 1:
        return None
    token = tokens[0]
    if token.type == "number":
        return float(token.value)
    if token.type == "percentage":
        return float(token.value) / 100
    return None


def _off_screen(value: _Value, font_px: float) -> bool:
    """Positioned out of the mail's box, or pushed out by a huge negative margin."""
    tokens = value("position")
    if (
        tokens
        and tokens[0].type == "ident"
        and tokens[0].lower_value in ("absolute", "fixed", "relative", "sticky")
    ):
        for side in ("left", "top", "right", "bottom"):
            length = _length(value(side), font_px, _VIEWPORT[0])
            if length is None:
                continue
            if length <= -_OFF_SCREEN or (side in ("left", "right") and length >= _FAR_RIGHT):
                return True
    for side in ("margin-left", "margin-top"):
        length = _length(value(side), font_px, _VIEWPORT[0])
        if length is not None and length <= -_FAR_RIGHT:
            return True
    margin = value("margin")
    if margin and len(margin) <= 4:  # more values are not CSS: a client drops the declaration
        # Its top, and its left: the 1st of 1, the 2nd of 2 or 3 (left and right), the 4th of 4.
        for token in (margin[0], margin[(0, 1, 1, 3)[len(margin) - 1]]):
            length = _length([token], font_px, _VIEWPORT[0])
            if length is not None and length <= -_FAR_RIGHT:
                return True
    return False


def _clipped(clip: _Tokens, clip_path: _Tokens, font_px: float) -> bool:
    """clip: rect() with no room, or a clip-path that leaves nothing."""
    if clip and clip[0].type == "function" and clip[0].lower_name == "rect":
        sides = [_length([a], font_px, None) for a in clip[0].arguments if a.type in ("dimension", "number")]
        if len(sides) == 4 and None not in sides:
            top, right, bottom, left = (x or 0.0 for x in sides)
            if bottom - top <= 2 or right - left <= 2:
                return True
    if clip_path and clip_path[0].type == "function":
        shape = clip_path[0]
        if shape.lower_name == "inset":
            if any(a.type == "percentage" and a.value >= 50 for a in shape.arguments):
                return True
        if shape.lower_name in ("circle", "ellipse"):
            radii = []  # the radii, before "at" and the centre
            for a in shape.arguments:
                if a.type == "ident" and a.lower_value == "at":
                    break
                if a.type in ("dimension", "number", "percentage"):
                    radii.append(_length([a], font_px, 100.0))
            # A circle has one radius, an ellipse two (none: to the sides); more are not CSS.
            if len(radii) == (1 if shape.lower_name == "circle" else 2):
                if all(r is not None and r <= 1 for r in radii):
                    return True
        if shape.lower_name == "polygon":
            points = tinycss2.serialize(shape.arguments).split(",")
            if len({" ".join(p.split()) for p in points}) <= 2:
                return True
    return False


def _scaled_away(transform: _Tokens, font_px: float) -> bool:
    """A transform that shrinks the text to nothing or moves it out of sight."""
    if not transform or any(token.type != "function" for token in transform):
        return False  # none, or not CSS (functions only): a client drops the declaration
    for function in transform:
        name = function.lower_name
        args = [a for a in function.arguments if a.type in ("number", "dimension", "percentage")]
        numbers = [float(a.value) / (100 if a.type == "percentage" else 1) for a in args]
        if name in ("scale", "scalex", "scaley", "scale3d") and numbers:
            if any(abs(n) < _MIN_SCALE for n in numbers[:2]):
                return True
        if (name, len(numbers)) in (("matrix", 6), ("matrix3d", 16)):  # else not CSS: dropped
            a, b, c, d = numbers[:4] if name == "matrix" else (numbers[0], numbers[1], numbers[4], numbers[5])
            if abs(a * d - b * c) < _MIN_SCALE**2:
                return True
        if name.startswith("translate"):
            for arg in args:
                length = _length([arg], font_px, None)  # a percentage: of its own box
                if length is not None and (length <= -_OFF_SCREEN or length >= _FAR_RIGHT):
                    return True
        if name in ("rotatex", "rotatey") and args and args[0].type == "dimension":
            degrees = float(args[0].value) * {"deg": 1, "rad": 180 / math.pi, "turn": 360}.get(
                args[0].lower_unit, 0
            )
            if abs(math.cos(math.radians(degrees))) < 0.1:
                return True
    return False


def _collapsed(value: _Value, ident: Callable[[str], str], font_px: float) -> bool:
    """A box of no height or width whose overflow is hidden."""
    overflow = {ident("overflow"), ident("overflow-x"), ident("overflow-y")}
    if not overflow & {"hidden", "clip"}:
        return False
    for name in ("height", "max-height", "width", "max-width"):
        length = _length(value(name), font_px, None)  # a percentage: of the container's size
        if length is not None and length <= 2:
            return True
    return False


_Colour = tuple[float, float, float, float]


_BLACK = (0.0, 0.0, 0.0, 1.0)


def _colour(
    tokens: list[tinycss2.ast.Node], current: _Colour | None, initial: _Colour | None = _BLACK
) -> _Colour | None | bool:
    """An RGBA colour (CSS Color 4: "rgb(255 255 255)", hsl(), hwb(), lab()...); ``current``
    for currentColor, ``initial`` for initial; False when not a colour we know (unset, revert...)."""
    if len(tokens) != 1:
        return False
    token = tokens[0]
    if token.type == "ident" and token.lower_value == "initial":
        return initial  # unset and revert: a colour's inherit (never asked), a background's none
    if token.type == "ident" and token.lower_value in ("windowtext", "canvastext"):
        return _BLACK
    if (
        token.type == "ident"
        and len(token.value) in (3, 6)
        and all(c in string.hexdigits for c in token.value)
    ):
        token = tinycss2.ast.HashToken(0, 0, token.value, True)  # <font color="ffffff">: no hash
    try:
        parsed = color4.parse_color(token)
        if parsed is not None and parsed != "currentcolor":
            red, green, blue = parsed.to("srgb").coordinates
            return (red, green, blue, parsed.alpha)
    except Exception:  # noqa: BLE001 - a hostile value, or a space this library cannot convert
        return False
    if parsed == "currentcolor":
        return current
    return False


def _background_colour(tokens: list[tinycss2.ast.Node] | None) -> list[tinycss2.ast.Node] | None:
    for token in tokens or []:
        if _colour([token], None) is not False:  # currentColor (None here) too
            return [token]
    return None


def _has_url(tokens: list[tinycss2.ast.Node] | None) -> bool:
    return any(
        t.type == "url"
        or (t.type == "function" and t.lower_name in ("url", "linear-gradient", "radial-gradient"))
        for t in tokens or []
    )


def _blend(colour: _Colour, under: tuple[float, float, float]) -> tuple[float, float, float]:
    alpha = colour[3]
    blended = tuple(c * alpha + u * (1 - alpha) for c, u in zip(colour[:3], under, strict=True))
    return cast("tuple[float, float, float]", blended)  # three channels in, three out


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(max(0.0, min(1.0, c))) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


# -- changing the tree ---------------------------------------------------------------------------


def _has_text(element: lxml.etree._Element) -> bool:
    return any(text.strip() for text in element.itertext())


def _remove_keeping_tail(element: lxml.etree._Element) -> None:
    parent = element.getparent()
    if parent is None:
        element.clear()
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


def _mute_own_text(element: lxml.etree._Element) -> bool:
    """Drop the text the element itself holds (its text, its children's tails); its children
    are judged on their own (a child may set a visible colour again).  Whether text went."""
    dropped = bool(element.text and element.text.strip())
    element.text = None
    for child in element:
        if child.tail and child.tail.strip():
            dropped = True
        child.tail = None
    return dropped
