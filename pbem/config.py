"""``campaign.yaml``: reading it and saying exactly what is wrong with it.

The file is the GM's (INTERFACE.md, "Campaign folder"). It is read with
PyYAML's safe loader only (:func:`safe_load`), so a Python tag is an error,
not code. Every problem is reported as a :class:`ConfigError` naming the key
and what to do.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .cards import CLASSIC_NAMES, NAMES, Card, card_named
from .engine import CLASSIC_PLAYERS, PREMIUM_PLAYERS, check_deck, full_deck
from .errors import PbemError
from .orders import CORRECTION_WORDS, FILLER, NOT_PLAYED, SELF_WORDS, name_key
from .store import CAMPAIGN_FILE as CAMPAIGN_FILE  # the folder's file names are the store's
from .tuples import NamedTuple

# A name is used in orders, mail headers and file names: letters, digits,
# spaces, and . ' - inside; nothing that could break a header or a path.
_NAME = re.compile(r"^[^\W_](?:[\w .'\u2019-]{0,38}[^\W_.])?$")
# A plain addr-spec: no display name, no comments, no spaces, no line breaks.
_EMAIL = re.compile(
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$"
)


#: The player counts a campaign may have, as a GM reads them (RULES 1, 9, 10).
PLAYER_COUNTS = "the game is for 2 to 4 players with the classic deck, or 5 to 8 with the Premium deck"


class ConfigError(PbemError, ValueError):
    """``campaign.yaml`` cannot be used; the message names the key and the fix."""

    exit_code = 1  # the `pbem` command's exit status for it


_EMPTY: Mapping[Any, Any] = MappingProxyType({})

#: How a check of campaign.yaml words a problem: (key, problem) -> the error to raise.
Fail = Callable[[str, str], ConfigError]

# Small immutable value types (NamedTuples: they cost a sixth of a dataclass
# to define, and every command imports this module).


class Person(NamedTuple):
    name: str
    email: str


class CampaignConfig(NamedTuple):
    players: tuple[Person, ...]
    title: str = ""
    gm: Person | None = None
    seed: str | None = None
    decks: Mapping[int, tuple[Card, ...]] = _EMPTY
    require_code: bool = False
    extra: Mapping[str, Any] = _EMPTY  # sections other modules read (mail, deadline...)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]


def load_config(folder: Path) -> CampaignConfig:
    """Read and validate ``folder/campaign.yaml``, over the GM's shared settings
    (``pbem.yaml`` in the folder above, when there is one: :func:`shared_settings`)."""
    path = Path(folder) / CAMPAIGN_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file; write one (see the README) or use `pbem new`") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    shared = shared_settings(Path(folder))
    if shared is None:
        return parse_config(text, str(path))
    data = _read_yaml(text, str(path))
    if data is not None and not isinstance(data, dict):
        config_from_data(data, str(path))  # says what is wrong with it
    return config_from_data(merge_settings(shared, data or {}), str(path))


#: The GM's settings shared by every campaign of a folder of campaigns: ``FOLDER/pbem.yaml``,
#: beside the campaigns' own folders (``FOLDER/game7/campaign.yaml``).
SHARED_FILE = "pbem.yaml"
#: What belongs to one game only, never to the shared settings.
_GAME_ONLY = ("players", "seed", "decks", "title")
_shared_cache: dict[str, tuple[tuple[int, int], dict[str, Any]]] = {}


def shared_settings(folder: Path) -> dict[str, Any] | None:
    """The shared settings a campaign folder inherits: ``pbem.yaml`` in its parent
    folder, checked (a setting it holds is checked as campaign.yaml's would be, and an
    error names pbem.yaml); None when there is none. Read once per process and file
    version: a command over a thousand campaigns reads it once."""
    import os

    path = os.path.join(os.path.dirname(os.path.abspath(folder)), SHARED_FILE)
    try:
        stat = os.stat(path)
    except OSError:
        return None
    version = (stat.st_mtime_ns, stat.st_size)
    cached = _shared_cache.get(path)
    if cached is not None and cached[0] == version:
        return cached[1]
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot be read ({e.strerror or e})") from None
    data = _read_yaml(text, path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"{path}: the GM's shared settings must be a mapping of keys (gm, mail, deadline, ...), "
            f"not {_kind(data)}"
        )
    for key in _GAME_ONLY:
        if key in data:
            raise ConfigError(
                f"{path}: {key}: belongs to one game; write it in that game's {CAMPAIGN_FILE}, "
                f"not in the shared settings"
            )
    # Every shared setting checked on its own, as a campaign.yaml holding it would be.
    config_from_data({**data, "players": _STAND_INS}, path)
    _shared_cache[path] = (version, data)
    return data


_STAND_INS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]


def merge_settings(shared: Mapping[str, Any], own: Mapping[str, Any]) -> dict[str, Any]:
    """A campaign's settings over the shared ones, key by key: a key of ``own``
    replaces the shared one, except that two mappings are merged the same way
    (``mail: {auto_send: [ack]}`` in campaign.yaml keeps the shared ``mail.smtp``);
    a list or a value is replaced whole."""
    merged = dict(shared)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_settings(merged[key], value)
        else:
            merged[key] = value
    return merged


def safe_load(text: str) -> Any:
    """``yaml.safe_load``, through libyaml's parser when PyYAML has it: the same
    safe constructor (no Python tags), seven times faster on every command."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def parse_config(text: str, where: str = CAMPAIGN_FILE) -> CampaignConfig:
    return config_from_data(_read_yaml(text, where), where)


def _read_yaml(text: str, where: str) -> Any:
    """The data of a settings file, its shape checked (:func:`_check_shape`)."""
    import yaml

    try:
        data = safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ConfigError(f"{where}: not valid YAML{at}: {problem}") from None
    except ValueError as e:  # a value YAML parses but Python refuses to build
        if "digits" in str(e):
            raise ConfigError(f"{where}: a number of more than 4,300 digits; no setting needs one") from None
        raise ConfigError(f"{where}: a value that cannot be read ({e})") from None
    except RecursionError:
        raise ConfigError(f"{where}: nested too deeply to be a campaign file") from None
    _check_shape(data, where)
    return data


#: Bounds on what campaign.yaml may hold: a few hundred values make a campaign; a file
#: that builds millions (YAML aliases of aliases, "billion laughs") or nests hundreds
#: deep is not one, and would make every command that walks it hang.
MAX_VALUES = 100_000
MAX_DEPTH = 20


def _check_shape(data: Any, where: str) -> None:
    count = 0
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise ConfigError(f"{where}: more than {MAX_VALUES:,} values; a campaign file is far smaller")
        if depth > MAX_DEPTH:
            raise ConfigError(f"{where}: nested more than {MAX_DEPTH} deep; a campaign file is not")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for kv in value.items() for v in kv)
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def config_from_data(data: Any, where: str = CAMPAIGN_FILE) -> CampaignConfig:
    def fail(key: str, problem: str) -> ConfigError:
        return ConfigError(f"{where}: {key}: {problem}")

    if not isinstance(data, dict):
        raise ConfigError(
            f"{where}: the file must be a mapping of keys (title, gm, players, ...), not {_kind(data)}"
        )
    unknown_top = [k for k in data if not isinstance(k, str)]
    if unknown_top:
        raise fail(str(unknown_top[0]), "keys must be words")

    players = _players(data.get("players"), fail)
    title = data.get("title", "") or ""
    if not isinstance(title, str) or "\n" in title or "\r" in title:
        raise fail("title", "must be one line of text")
    gm = None
    if data.get("gm") is not None:
        gm = _person(data["gm"], "gm", fail)
    seed = data.get("seed")
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, (int, str)) or str(seed).strip() == "":
            raise fail("seed", "must be a number or a word")
        seed = str(seed)
    decks = _decks(data.get("decks"), len(players), fail)
    require_code = data.get("require_code", False)
    if not isinstance(require_code, bool):
        raise fail("require_code", "must be true or false")
    if "site" in data:
        _site(data["site"], fail)
    if isinstance(data.get("mail"), dict):
        _mail(data["mail"], fail)
    _proxy_settings(data, fail)
    known = {"title", "gm", "players", "seed", "decks", "require_code"}
    extra = {k: v for k, v in data.items() if k not in known}
    return CampaignConfig(tuple(players), title.strip(), gm, seed, decks, require_code, extra)


def _kind(value: Any) -> str:
    return {list: "a list", str: "a single text", type(None): "empty"}.get(type(value), type(value).__name__)


def _players(value: Any, fail: Fail) -> list[Person]:
    if value is None:
        raise fail(
            "players", "missing; list 2 to 8 players, e.g. - {name: Arthur, email: arthur@example.org}"
        )
    if not isinstance(value, list):
        raise fail("players", f"must be a list of 2 to 8 players, not {_kind(value)}")
    if len(value) not in CLASSIC_PLAYERS and len(value) not in PREMIUM_PLAYERS:
        raise fail("players", f"{len(value)} {'is' if len(value) == 1 else 'are'} listed; {PLAYER_COUNTS}")
    card_names = NAMES if len(value) in PREMIUM_PLAYERS else CLASSIC_NAMES
    people = [_person(entry, f"players[{i + 1}]", fail, card_names) for i, entry in enumerate(value)]
    seen_names: dict[str, int] = {}
    seen_mail: dict[str, int] = {}
    for i, p in enumerate(people, 1):
        key = p.name.casefold()
        if key in seen_names:
            raise fail(f"players[{i}].name", f'"{p.name}" is already the name of players[{seen_names[key]}]')
        seen_names[key] = i
        mail = p.email.lower()
        if mail in seen_mail:
            raise fail(
                f"players[{i}].email", f"{p.email} is already the address of players[{seen_mail[mail]}]"
            )
        seen_mail[mail] = i
    return people


def check_names_apart(people: tuple[Person, ...] | list[Person], where: str = CAMPAIGN_FILE) -> None:
    """Refuse two players whose names a reader could take for one another, at
    ``new``, ``start`` and ``replace``: names are matched case-blind and
    accent-blind ("Chloe" names Chloé, see :func:`pbem.orders.name_key`), and a
    name spelt with look-alike letters of another script (a Cyrillic "А" in
    "Аrthur") would pass for another player's in every report."""
    for j, later in enumerate(people):
        for i in range(j):
            why = _look_alike(people[i].name, later.name)
            if why is not None:
                raise ConfigError(
                    f'{where}: players[{j + 1}].name: "{later.name}" looks like "{people[i].name}" '
                    f"(players[{i + 1}]){why}: players must be told apart at a glance in orders and "
                    f"reports; change one of the names (add an initial, for example)"
                )


def _look_alike(a: str, b: str) -> str | None:
    """Why ``a`` and ``b`` read as one name (``""`` or a note), or None."""
    if name_key(a) == name_key(b):
        return " (accents and capitals are not told apart)" if a.casefold() != b.casefold() else ""
    # Imported here, not at the top: its table takes ~50 ms to load, and only
    # new/start/replace need it, not every command that reads campaign.yaml.
    from confusable_homoglyphs.confusables import confusables_data

    def glyphs(c: str) -> set[str]:
        return {c, *(h["c"] for h in confusables_data.get(c, ()))}

    def plain(text: str) -> str:  # accents dropped, case kept (a capital I looks like a small l)
        return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))

    for x, y in ((plain(a), plain(b)), (name_key(a), name_key(b))):
        if len(x) == len(y) and all(p == q or glyphs(p) & glyphs(q) for p, q in zip(x, y)):
            odd = next(((p, q) for p, q in zip(x, y) if p != q), None)
            if odd is None:
                return ""
            theirs, mine = odd
            return f" (its '{mine}' is {_char_name(mine)}, the other's '{theirs}' is {_char_name(theirs)})"
    x, y = _skeleton(name_key(a)), _skeleton(name_key(b))
    if len(x) == len(y) and all(p == q or _read_alike(p, q) for p, q in zip(x, y)):
        return " (spelt with letters or digits that read alike: rn and m, 1 and l, 0 and o, ...)"
    return None


# What one reads for another at a glance, beyond TR39's single characters: runs of letters
# ("rn" for "m"), and digits or signs for letters ("K1m" for "Kim", "N0ah" for "Noah").  Two
# letters of one class are not confused ("Eli" is not "Ell"): a digit or sign must be one side.
_READ_ALIKE_RUNS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_READ_ALIKE_CLASSES = ("1li|!", "0o", "5s$", "8b6", "3e", "4a@", "7t", "9g", "2z")


def _read_alike(p: str, q: str) -> bool:
    if p.isalpha() and q.isalpha():
        return False
    return any(p in group and q in group for group in _READ_ALIKE_CLASSES)


def _skeleton(key: str) -> str:
    """A name's shape: its letters in ASCII where a look-alike ASCII letter exists, the
    look-alike runs made one letter (see `_READ_ALIKE_RUNS`)."""
    from confusable_homoglyphs.confusables import confusables_data

    text = "".join(
        c if c.isascii() else next((h["c"] for h in confusables_data.get(c, ()) if h["c"].isascii()), c)
        for c in key
    ).casefold()
    for run, one in _READ_ALIKE_RUNS:
        text = text.replace(run, one)
    return text


def _char_name(c: str) -> str:
    return unicodedata.name(c, f"U+{ord(c):04X}").lower()


def _person(value: Any, key: str, fail: Fail, card_names: Mapping[str, Card] = CLASSIC_NAMES) -> Person:
    if isinstance(value, str):
        raise fail(key, "write it as {name: ..., email: ...}")
    if not isinstance(value, dict):
        raise fail(key, f"must be a mapping {{name: ..., email: ...}}, not {_kind(value)}")
    name = value.get("name")
    email = value.get("email")
    if not isinstance(name, str) or not name.strip():
        raise fail(f"{key}.name", "missing or empty")
    name = name.strip()
    if not _NAME.match(name):
        raise fail(
            f"{key}.name",
            f'"{name}" may hold only letters, digits, spaces and . \' - '
            f"(at most 40 characters, starting and ending with a letter or digit)",
        )
    folded = name.casefold()
    if (
        folded in card_names
        or folded in SELF_WORDS
        or folded in FILLER
        or folded in NOT_PLAYED
        or folded in CORRECTION_WORDS
        or folded.isdigit()
    ):
        raise fail(f"{key}.name", f'"{name}" would be read as a card or a word of an order; choose another')
    if email is None and key == "gm":
        return Person(name, "")
    if not isinstance(email, str) or not _EMAIL.match(email.strip()):
        raise fail(f"{key}.email", f"{email!r} is not an email address like name@example.org")
    return Person(name, email.strip())


def _decks(value: Any, players: int, fail: Fail) -> dict[int, tuple[Card, ...]]:
    full = full_deck(players)
    size = len(full)
    edition = "Premium" if players in PREMIUM_PLAYERS else "classic"
    kinds = sorted(set(full), key=lambda c: (c.rank, c.value))

    if value is None:
        return {}
    if not isinstance(value, dict):
        raise fail("decks", f"must map hand numbers (1 to 13) to lists of {size} card names")
    decks: dict[int, tuple[Card, ...]] = {}
    for number, cards in value.items():
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 13:
            raise fail(f"decks.{number}", "hands are numbered 1 to 13")
        if not isinstance(cards, list):
            raise fail(f"decks.{number}", f"must be a list of {size} card names, top first")
        deck = []
        for i, name in enumerate(cards, 1):
            card = card_named(name) if isinstance(name, str) else None
            if card is None or card not in kinds:
                raise fail(
                    f"decks.{number}[{i}]",
                    f"{name!r} is not a card of the {edition} deck (cards: "
                    + ", ".join(c.title for c in kinds)
                    + ")",
                )
            deck.append(card)
        if len(deck) != size:
            raise fail(
                f"decks.{number}",
                f"with {players} players a deck is the {size} cards of "
                f"the {edition} deck, top first; this one has {len(deck)}",
            )
        try:
            check_deck(tuple(deck), players)
        except ValueError as e:
            counts = {c.title: deck.count(c) for c in kinds}
            raise fail(
                f"decks.{number}",
                f"{e}; this one has {len(deck)} cards: "
                + ", ".join(f"{n} x{k}" for n, k in counts.items() if k),
            ) from None
        decks[number] = tuple(deck)
    return decks


def _site(value: Any, fail: Fail) -> None:
    """``site: {out: FOLDER}``: the campaign's web pages, rebuilt after each turn."""
    if not isinstance(value, dict):
        raise fail(
            "site", f"must be a mapping like {{out: site}} (the folder for the web pages), not {_kind(value)}"
        )
    for key in value:
        if key != "out":
            raise fail(f"site.{key}", "unknown key; the only one is out: the folder the web pages go to")
    out = value.get("out", DEFAULT_SITE)
    if not isinstance(out, str) or not out.strip() or any(c in out for c in "\0\r\n"):
        raise fail(
            "site.out",
            f"a folder, relative to the campaign folder or absolute (e.g. site or "
            f"/var/www/game7), not {out!r}",
        )


def _number(value: Any, low: float, high: float, whole: bool = False) -> bool:
    """Whether ``value`` is a number from ``low`` to ``high`` (a whole one with ``whole``);
    NaN and infinities are not."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (whole and not isinstance(value, int))
    ):
        return False
    return low <= value <= high  # False for NaN


def _one_line(value: Any, limit: int = 200) -> bool:
    return isinstance(value, str) and bool(value.strip()) and len(value) <= limit and value.isprintable()


def _mail(mail: dict[str, Any], fail: Fail) -> None:
    """The values of the ``mail:`` section that are numbers, folders and switches
    (:mod:`pbem.postoffice` reads the rest: hosts, ports, passwords), checked once
    here so that no command meets one it cannot use (``timeout: soon``,
    ``max_connections: 0``, a folder filed into itself)."""
    for key in ("auto_ack",):
        if key in mail and not isinstance(mail[key], bool):
            raise fail(f"mail.{key}", "must be true or false")
    if "auto_send" in mail and mail["auto_send"] is not None:
        kinds = mail["auto_send"]
        if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
            raise fail(
                "mail.auto_send", f"a list of kinds such as [ack, reminder, report], not {kinds!r:.80}"
            )
    if "acks_per_hour" in mail and not _number(mail["acks_per_hour"], 1, 10_000, whole=True):
        raise fail(
            "mail.acks_per_hour",
            f"a whole number, at least 1 (the acknowledgements one player may get in an hour), "
            f"not {mail['acks_per_hour']!r:.80}",
        )
    for name in ("smtp", "imap"):
        section = mail.get(name)
        if not isinstance(section, dict):
            continue  # pbem.postoffice says what is wrong with it
        where = f"mail.{name}"
        if "timeout" in section and not _number(section["timeout"], 1, 3600):
            raise fail(
                f"{where}.timeout",
                f"a number of seconds from 1 to 3600 (how long to wait for the server), "
                f"not {section['timeout']!r:.80}",
            )
        if "max_connections" in section and not _number(section["max_connections"], 1, 64, whole=True):
            raise fail(
                f"{where}.max_connections",
                f"a whole number from 1 to 64 (connections at once), not {section['max_connections']!r:.80}",
            )
    imap = mail.get("imap")
    if isinstance(imap, dict):
        folders = {}
        for key, default in (("folder", "INBOX"), ("processed_folder", "pbem-processed")):
            value = imap.get(key, default)
            if not _one_line(value):
                raise fail(
                    f"mail.imap.{key}", f"the name of a mail folder (one line of text), not {value!r:.80}"
                )
            folders[key] = value.strip()
        if _folder_key(folders["folder"]) == _folder_key(folders["processed_folder"]):
            raise fail(
                "mail.imap.processed_folder",
                f"must differ from folder ({folders['folder']!r}): the messages read are moved "
                f"from folder to processed_folder",
            )


def _folder_key(name: str) -> str:
    """A folder name as servers compare them (INBOX is the same in any case)."""
    return "INBOX" if name.upper() == "INBOX" else name


#: ``nmr:`` in campaign.yaml: who plays a missing order (RULES 5, or the proxy).
NMR_DEFAULT, NMR_PROXY = "default", "proxy"


def _proxy_settings(data: dict[str, Any], fail: Fail) -> None:
    """``nmr: default | proxy`` and ``proxy: true | false`` (INTERFACE.md, "Next")."""
    nmr = data.get("nmr", NMR_DEFAULT)
    if nmr not in (NMR_DEFAULT, NMR_PROXY):
        raise fail(
            "nmr",
            f"who plays a missing order: default (the rules' NMR default, RULES 5) or proxy "
            f"(the proxy plays as the player would), not {nmr!r}",
        )
    allowed = data.get("proxy", True)
    if not isinstance(allowed, bool):
        raise fail("proxy", f"true or false (whether players may ask for the proxy by mail), not {allowed!r}")
    if nmr == NMR_PROXY and not allowed:
        raise fail("nmr", "nmr: proxy needs the proxy, and proxy: false forbids it; drop one of the two")


def nmr_policy(config: CampaignConfig) -> str:
    """Who plays every missing order: ``default`` (RULES 5) or ``proxy``."""
    policy: str = config.extra.get("nmr", NMR_DEFAULT)  # checked by load_config
    return policy


def proxy_allowed(config: CampaignConfig) -> bool:
    """Whether a player may have the proxy play their missing orders (``PROXY ON``)."""
    return config.extra.get("proxy", True) is not False


#: Where ``pbem site`` writes when neither --out nor ``site: out:`` says.
DEFAULT_SITE = "site"


def site_out(config: CampaignConfig, folder: Path) -> Path | None:
    """The folder of the campaign's web pages if ``campaign.yaml`` asks for them
    (``site:``; a relative ``out`` is taken from the campaign folder), else None."""
    section = config.extra.get("site")
    if section is None:
        return None
    out: str = section.get("out", DEFAULT_SITE)  # checked by load_config
    return Path(folder) / out.strip()


def config_to_data(config: CampaignConfig) -> dict[str, Any]:
    """A config back to the plain data of ``campaign.yaml`` (seating order = list order)."""
    data: dict[str, Any] = {}
    if config.title:
        data["title"] = config.title
    if config.gm:
        data["gm"] = {"name": config.gm.name, "email": config.gm.email}
    data["players"] = [{"name": p.name, "email": p.email} for p in config.players]
    if config.seed is not None:
        data["seed"] = int(config.seed) if config.seed.isdigit() else config.seed
    if config.decks:
        data["decks"] = {h: [c.title for c in deck] for h, deck in sorted(config.decks.items())}
    if config.require_code:
        data["require_code"] = True
    data.update(config.extra)
    return data


def own_settings(folder: Path) -> dict[str, Any]:
    """``folder/campaign.yaml``'s own data, without the shared settings (for a rewrite
    that must not copy the GM's shared settings into the campaign's file)."""
    path = Path(folder) / CAMPAIGN_FILE
    data = _read_yaml(path.read_text(encoding="utf-8"), str(path))
    return dict(data) if isinstance(data, dict) else {}


def dump_data(data: Mapping[str, Any]) -> str:
    import yaml

    return yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def dump_config(config: CampaignConfig) -> str:
    """``campaign.yaml`` text for ``pbem new`` and ``pbem replace``."""
    import yaml

    return yaml.safe_dump(
        config_to_data(config), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100
    )
