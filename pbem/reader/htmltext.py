"""HTML to text: quotes of the big clients become "> " lines, signatures follow "-- "."""

from __future__ import annotations

import html
import itertools
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

import html_text
import lxml.etree

from .notes import HIDDEN_TEXT_NOTE, _Notes

_MAX_HTML_QUOTE_DEPTH = 30  # deeper blockquotes are read as they are, without more "> "

_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_ASCII_LOWER = str.maketrans(_UPPER, _LOWER)
_XML_SPACE = re.compile("[ \t\r\n]+")
# Elements whose text is quoted: any blockquote (Thunderbird's and Apple's type=cite, Gmail's
# blockquote.gmail_quote), attribution blocks, Yahoo's quote, web.de's div name="quote".
# Gmail's div.gmail_quote only when it holds no blockquote: Gmail keeps the player's inline
# answers inside that div, between the blockquotes, so the div as a whole must not be quoted
# then (a forward has no blockquote).  Signatures: Gmail's, Thunderbird's, any id="signature".
#
# These tests were XPath expressions; in Python they cost a fifth (lxml's XPath has a high
# price per call, and the string functions ran on every element with an attribute).  Class
# names are matched as XPath's contains(concat(' ', normalize-space(translate(@class, A-Z,
# a-z)), ' '), ' name ') does: ASCII case folded, XML whitespace (not Unicode's) collapsed.
_QUOTE_CLASSES = (
    " gmail_attr ",
    " moz-cite-prefix ",
    " yahoo_quoted ",
    " outlookmessageheader ",
)
_SIGNATURE_CLASSES = (" gmail_signature ", " moz-signature ")
# Any of the class names in the ASCII-lowercased attribute: the cheap test before the exact
# one (whitespace is only collapsed by the exact one, and no name holds any).
_CLASS_HINT = re.compile(
    "gmail_attr|moz-cite-prefix|yahoo_quoted|outlookmessageheader|gmail_quote|gmail_signature|moz-signature"
)
_OUTLOOK_IDS = ("appendonsend", "divrplyfwdmsg")


def _special_kind(element: lxml.etree._Element) -> str | None:
    """The kind of a special element: "quote", "signature" (see above), or None."""
    if element.tag == "blockquote":
        return "quote"
    if element.get("name") == "quote":
        return "quote"
    value = element.get("class")
    if value is not None:
        lowered = value.translate(_ASCII_LOWER)
        if _CLASS_HINT.search(lowered):
            classes = " " + _XML_SPACE.sub(" ", lowered).strip(" ") + " "
            if any(name in classes for name in _QUOTE_CLASSES):
                return "quote"
            if " gmail_quote " in classes and (next(element.iterdescendants("blockquote"), None) is None):
                return "quote"
            if any(name in classes for name in _SIGNATURE_CLASSES):
                return "signature"
    ident = element.get("id")
    if ident is not None and ident.translate(_ASCII_LOWER) == "signature":
        return "signature"
    return None


def _outermost_specials(
    element: lxml.etree._Element,
) -> list[tuple[lxml.etree._Element, str]]:
    """The special descendants of a root or detached element that lie in no other special
    descendant, in document order, with their kind (the element itself may be special: its
    own are counted).
    """
    found: list[tuple[lxml.etree._Element, str]] = []
    walk = element.iterdescendants()
    for node in walk:  # all elements: `_HTML_PARSER` drops comments and processing instructions
        kind = _special_kind(node)
        if kind is not None:
            found.append((node, kind))
            inside = sum(1 for _ in node.iterdescendants())
            if inside:  # skip them: they are converted with their special ancestor
                next(itertools.islice(walk, inside - 1, inside), None)
    return found


def _outlook_start(root: lxml.etree._Element) -> lxml.etree._Element | None:
    """The first element (document order) whose id is appendonsend or divRplyFwdMsg.

    Searched under `root` alone, which is the whole document here: `fromstring` returns the
    first top-level element, and `_gather_body` has moved those after it into it.
    """
    for element in root.iter():
        ident = element.get("id")
        if ident is not None and ident.translate(_ASCII_LOWER) in _OUTLOOK_IDS:
            return element
    return None


def _gather_body(root: lxml.etree._Element) -> None:
    """Move what libxml2 left after the body to the end of the body, where a browser shows it,
    as the body's own content (for the page's styles too): the markup after a closing </body>
    (the body's tail, its last text now, and its later siblings) and after a closing </html>
    (later top-level elements, each an <html> and its <body>: their tags go, not what they hold;
    a page closed after its head gets its body for them, as in a browser).

    `root` is the first top-level element (`fromstring` returns it) and, as everywhere here,
    every node is an element: `_HTML_PARSER` drops comments and processing instructions.
    """
    body = root.find(".//body")
    later = list(root.itersiblings())
    if body is None:
        if not later:
            return
        body = lxml.etree.SubElement(root, "body")  # a page closed after its head: this follows
    if body.tail and body.tail.strip():  # the body's last text, in no element
        if len(body):
            body[-1].tail = (body[-1].tail or "") + body.tail
        else:
            body.text = (body.text or "") + body.tail
    body.tail = None
    later = [*body.itersiblings(), *later]
    for top in later:
        body.append(top)
    if later:  # the first page holds no <html> or <body> but its own two
        lxml.etree.strip_tags(body, "html", "body")


_INVISIBLE = (
    "script", "style", "head", "title", "link", "meta", "object", "embed", "applet",
    "iframe", "frame", "frameset", "noscript", "template",
)  # fmt: skip
_HTML_PARSER = lxml.etree.HTMLParser(
    recover=True,
    encoding="utf-8",
    remove_comments=True,
    remove_pis=True,
    no_network=True,
)


_NONCE_BYTES = 6
# Any placeholder word of `_element_plan`, whatever its nonce and depth (12 hex digits: a
# nonce of _NONCE_BYTES).  One compiled pattern: compiling one per nonce cost ~0.2 ms a message.
_PLACEHOLDER = re.compile("pbemq([0-9a-f]{12})d([0-9]+)n([0-9]+)q")


def html_to_text(markup: str, notes: _Notes | None = None) -> str:
    """HTML to text with html_text, keeping line breaks and marking quotes with "> ".

    Blockquotes, Gmail's quote block, Thunderbird's and Apple's cite blockquotes, and Outlook's
    original message (from #appendonsend / #divRplyFwdMsg to the end) come out as "> " lines,
    so that the plain-text quote rules of `own_words` apply to HTML mail too.  Parsing and
    cleaning use plain lxml.etree (not lxml.html and its Cleaner): the same text, several
    times faster on the multi-megabyte HTML some clients send.
    """
    return _html_reader(markup, notes if notes is not None else _Notes())()


_MALFORMED_HTML = "the HTML part is malformed; stripped its tags crudely"

# The characters XML forbids, which lxml will not set as an element's text or tail (the
# reader moves text: after </body>, around a quote, in preformatted lines), are taken out of
# the markup before it is parsed, written as characters or as numeric references, as the
# reading of each line would take them out later (`text._clean_line`): those html_text reads
# as spaces (vertical tab, form feed, the four separators: regex \s) become spaces; the
# others go, and the noncharacters U+FFFE and U+FFFF (shown by no client). libxml2 reads a
# reference to NUL as U+FFFD, as a browser does: it stays. On the UTF-8 bytes: a control
# character is one byte there, never part of another character's (those are 0x80 and up).
_XML_SPACES = bytes(range(0x0B, 0x0D)) + bytes(range(0x1C, 0x20))
_NOT_XML = bytes(range(0x00, 0x09)) + bytes(range(0x0E, 0x1C))
_XML_BYTES = bytes(0x20 if byte in _XML_SPACES else byte for byte in range(256))
_XML_SPACE_NUMBERS = frozenset(_XML_SPACES)
_NONCHARACTERS = ("\ufffe".encode(), "\uffff".encode())
# A numeric reference to one of them (libxml2 reads every digit, with or without the ";").
_XML_REFERENCE = re.compile(
    b"&#(?:0*([1-8]|1[124-9]|2[0-9]|3[01]|6553[45])(?![0-9])"
    b"|[xX]0*([1-8bcefBCEF]|1[0-9a-fA-F]|[fF]{3}[efEF])(?![0-9a-fA-F]));?"
)


def _xml_characters(data: bytes) -> bytes:
    """UTF-8 markup without the characters XML forbids (above), spaces for those read as spaces."""
    data = data.translate(_XML_BYTES, _NOT_XML)
    for noncharacter in _NONCHARACTERS:
        data = data.replace(noncharacter, b"")
    return _XML_REFERENCE.sub(_xml_reference, data) if b"&#" in data else data


def _xml_reference(found: re.Match[bytes]) -> bytes:
    decimal, hexadecimal = found.group(1, 2)
    number = int(decimal) if decimal else int(hexadecimal, 16)
    return b" " if number in _XML_SPACE_NUMBERS else b""


def _html_reader(markup: str, notes: _Notes) -> Callable[[], str]:
    """`html_to_text` on call: an HTML version that is never read (the plain text of
    multipart/alternative is) costs nothing, parsing included, and adds no note.

    Should it fail when called, the note stands where it would have stood had the part been
    read at once (before the notes of the parts read after it).
    """
    data = _xml_characters(markup.strip().encode("utf-8", "replace")).strip()
    if not data:
        return str
    position = len(notes.items)

    def to_text() -> str:
        try:
            root = lxml.etree.fromstring(data, _HTML_PARSER)
            if root is None:
                return ""
            _gather_body(root)
            _hide_invisible(root, notes)  # before the <style> elements go
            lxml.etree.strip_elements(root, *_INVISIBLE, with_tail=False)
            _drop_struck(root)
            lxml.etree.strip_tags(root, "wbr")  # a place a word may break: no space in it
            _keep_preformatted_lines(root)
            _quote_outlook_original(root)
            return _element_plan(root, 0, secrets.token_hex(_NONCE_BYTES)).text()
        except Exception:  # noqa: BLE001 - lxml on hostile markup; a crude reading beats none
            notes.add_at(position, _MALFORMED_HTML)
            return _crude_html_text(markup)

    return to_text


#: Text struck through (<s>, <strike>, <del>, a style of "line-through"): its writer took it back
#: ("Hand 3: <s>Baron on Bruno</s> Prince on myself" plays the Prince).
_STRUCK = lxml.etree.XPath(
    "//s | //strike | //del | //*[contains(translate(@style, 'LINETHROUGH', 'linethrough'), 'line-through')]"
)


def _drop_struck(root: lxml.etree._Element) -> None:
    """Take the text struck through out of ``root``, the text after each element kept."""
    for element in reversed(_STRUCK(root)):  # the innermost first: a parent's removal takes them all
        parent = element.getparent()
        if parent is not None:  # (the page itself struck through: nothing to take it out of)
            tail = element.tail or ""
            previous = element.getprevious()
            if previous is not None:
                previous.tail = (previous.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
            parent.remove(element)


_STYLES = lxml.etree.XPath("//style")
# What a client shows with its line ends (html_text joins them): <pre> (Thunderbird quotes a
# plain-text mail in one) and white-space: pre, pre-wrap or pre-line.
_PREFORMATTED = lxml.etree.XPath(
    "//pre | //*[contains(translate(@style, 'WHITESPACE -', 'whitespace'), 'whitespace:pre')]"
)


def _keep_preformatted_lines(root: lxml.etree._Element) -> None:
    """Put a <br> at each line end inside preformatted elements, so that their lines stay lines.

    Every node is an element (`_HTML_PARSER` drops comments and processing instructions), and
    each one below `element` has a parent (only <br> elements are added).
    """
    for element in _PREFORMATTED(root):
        for node in list(element.iter()):
            if node.text and "\n" in node.text:
                first, *rest = node.text.split("\n")
                node.text = first
                for index, line in enumerate(rest):
                    node.insert(index, _line_break(line))
            if node is not element and node.tail and "\n" in node.tail:
                first, *rest = node.tail.split("\n")
                node.tail = first
                parent = node.getparent()
                at = parent.index(node) + 1
                for index, line in enumerate(rest):
                    parent.insert(at + index, _line_break(line))


def _line_break(tail: str) -> lxml.etree._Element:
    br = lxml.etree.Element("br")
    br.tail = tail
    return br


def _hide_invisible(root: lxml.etree._Element, notes: _Notes) -> None:
    """Drop what a mail client would not show (`pbem.reader.visible`), before the <style>
    elements go; say so when text was hidden outside the quotes and signatures."""
    css = "".join(
        f"@media {style.get('media')} {{{style.text or ''}}}" if style.get("media") else style.text or ""
        for style in _STYLES(root)
    )
    from .visible import drop_invisible  # here: tinycss2 and cssselect2 load for HTML mail only

    try:
        found = drop_invisible(root, css, quiet=_in_special)
    except Exception:  # noqa: BLE001 - RecursionError, TooIntricate: hostile styles
        # Read none of what the styles might hide, rather than all of it (the crude reading).
        for element in _STYLED(root):
            if element.getparent() is not None:
                element.getparent().remove(element)
        notes.add(
            f"{HIDDEN_TEXT_NOTE} (styles too intricate to read); the text of its styled elements was not read"
        )
        return
    if found.tricks:
        notes.add(f"{HIDDEN_TEXT_NOTE} ({', '.join(found.tricks)}); that text was not read")


_STYLED = lxml.etree.XPath("//*[@style or @class or @id or @hidden or @color or @bgcolor or @text]")


def _in_special(element: lxml.etree._Element) -> bool:
    return any(_special_kind(node) is not None for node in (element, *element.iterancestors()))


def _crude_html_text(markup: str) -> str:
    """Fallback: drop tags, turn <br>/<p>/<div> into line breaks, unescape entities."""
    text = re.sub(r"(?i)<(script|style)\b[^>]*>[^<]*</\1\s*>", " ", markup)  # linear: no .*?
    text = re.sub(r"(?i)<\s*(br|/p|/div|p|div)\b[^>]*>", "\n", text)
    text = re.sub(r"<[^>]*>", " ", text)
    return html.unescape(text)


def _quote_outlook_original(root: lxml.etree._Element) -> None:
    """Move Outlook's original message (its marker and everything after) into a blockquote.

    Outlook web does not quote the original: it writes a #divRplyFwdMsg header block (after an
    empty #appendonsend div) and the original unquoted below it.
    """
    start = _outlook_start(root)
    if start is None:
        return
    bodies = root.findall(".//body")
    container = bodies[0] if bodies else root
    if start is root or start is container:
        return
    moving: list[lxml.etree._Element] = [start]
    node = start
    while True:
        moving.extend(node.itersiblings())
        parent = node.getparent()  # never None: `_gather_body` put every element under root
        if parent is container or parent is root:
            break
        if parent.tail and parent.tail.strip():
            holder = lxml.etree.Element("span")
            holder.text = parent.tail
            moving.append(holder)
        parent.tail = None
        node = parent
    quote = lxml.etree.Element("blockquote")
    for element in moving:
        quote.append(element)
    container.append(quote)


@dataclass
class _ElementPlan:
    """An element whose special descendants were swapped for placeholders (`_element_plan`)."""

    element: lxml.etree._Element
    depth: int
    nonce: str
    # placeholder number -> (plan, kind)
    replacements: dict[str, tuple[_ElementPlan, str]]

    def text(self) -> str:
        """The element's text, each placeholder replaced by its element's marked-up text."""
        text = html_text.etree_to_text(self.element)
        if self.replacements:
            filled = {index: _mark(plan.text(), kind) for index, (plan, kind) in self.replacements.items()}
            wanted = (self.nonce, str(self.depth))

            def put_back(found: re.Match[str]) -> str:
                if found.group(1, 2) != wanted:
                    return found.group(0)
                return "\n" + filled[found.group(3)] + "\n"  # each word of the nonce is ours

            text = _PLACEHOLDER.sub(put_back, text)
        return text


def _element_plan(element: lxml.etree._Element, depth: int, nonce: str) -> _ElementPlan:
    """Prepare an element's text, with quote descendants as "> " lines, signatures after "-- ".

    Each outermost special element is swapped for a placeholder word, prepared on its own
    (recursively, so nested quotes get "> > "); `_ElementPlan.text` converts each element
    and puts the marked-up text in place of its word.  The element being prepared may itself
    be special (a detached blockquote): its specials are then those inside it (see
    `_outermost_specials`).  Only the tree work is done here: converting a tree to text does
    not change it, so converting later gives what converting at once gave.
    """
    replacements: dict[str, tuple[_ElementPlan, str]] = {}
    if depth < _MAX_HTML_QUOTE_DEPTH:
        for index, (node, kind) in enumerate(_outermost_specials(element)):
            parent = node.getparent()  # a descendant's, never None
            holder = lxml.etree.Element("div")
            holder.text = f"pbemq{nonce}d{depth}n{index}q"
            holder.tail, node.tail = node.tail, None
            parent.replace(node, holder)
            replacements[str(index)] = (_element_plan(node, depth + 1, nonce), kind)
    return _ElementPlan(element, depth, nonce, replacements)


def _mark(inner: str, kind: str) -> str:
    """Prefix quoted lines with "> "; put the "-- " separator above a signature."""
    if kind == "signature":
        return inner if inner.lstrip().startswith("--") else "-- \n" + inner
    return "\n".join("> " + line if line.strip() else ">" for line in inner.split("\n"))
