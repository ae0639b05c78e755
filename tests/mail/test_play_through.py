"""Whole games by mail, played the way real players write (issue 19, "Must show").

Games of 2, 3, 4 and 6 players run through a real Dovecot and a real aiosmtpd.
The GM side runs only a GM's commands (`pbem send`, `pbem fetch`, `pbem
resolve`); every player is a script that reads its turn mail by IMAP, decides
what it means to play in each hand where it is its turn, and writes that by
SMTP in a style of its own, changing style from turn to turn: top-posted under
a Gmail attribution, inline under the quoted order form, above an Outlook
header block with the turn mail quoted bare (no ``>``), in German, French,
Spanish, Italian, Dutch or Portuguese, with corrections sent later, a CLEAR and
the orders again, a misspelt card then the fix in a reply to the
acknowledgement, an order after a sentence, a hand named before the order, an
unknown word beside a name, a Bishop standing order beside a play, a "thank
you" in reply to the acknowledgement.

After each turn every player's orders on file are compared with what the
player meant: card, target and guess (and the standing order). The test prints
how many order lines were sent and how many hands were misread, and asserts
that none was.

Two cases: ``own`` plays the styles the order parser answers for; ``reader``
plays the reply shapes the mail reader must take apart first (issue 19 items
1, 2 and 8 to 11: bare-quoted replies to acknowledgements, attributions glued
to the reply or wrapped over two lines, text below a quoted forward, Android's
squeezed reply header, ``|`` quotes, Gmail's whole References chain). Both
assert 0 misread.
"""

from __future__ import annotations

import json
import re
import smtplib
import time
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import formatdate, make_msgid

import pytest
from click.testing import CliRunner
from servers import SMTP_PASSWORD, SMTP_USER

from pbem.campaign import Campaign
from pbem.cli import main

CLASSIC_GUESSES = ["Prince", "Baron", "Handmaid", "King", "Countess", "Spy", "Princess"]
PREMIUM_GUESSES = [4, 2, 5, 3, 7, 6, 9, 8, 0]

#: The names of the classic cards in the editions of other languages (pbem/cards.py has them all).
ABROAD = {
    "de": {
        "Guard": "Wächterin",
        "Spy": "Priester",
        "Handmaid": "Zofe",
        "Prince": "Prinz",
        "King": "König",
        "Countess": "Gräfin",
        "Princess": "Prinzessin",
    },
    "fr": {"Guard": "Garde", "Spy": "Prêtre", "Handmaid": "Servante", "King": "Roi", "Countess": "Comtesse"},
    "es": {"Guard": "Guardia", "Spy": "Sacerdote", "Baron": "Barón", "Prince": "Príncipe", "King": "Rey"},
    "it": {"Guard": "Guardia", "Spy": "Prete", "Baron": "Barone", "Handmaid": "Ancella", "King": "Re"},
    "nl": {"Guard": "Wachter", "Prince": "Prins", "King": "Koning", "Countess": "Gravin"},
    "pt": {"Guard": "Guarda", "Spy": "Padre", "Baron": "Barão", "King": "Rei", "Countess": "Condessa"},
}
#: How each language says "on", "and", "guess", and writes its attribution line.
WORDS = {
    "de": ("auf", "und", "tippe", "Am 30.11.2026 um 10:00 schrieb Rita <{gm}>:"),
    "fr": ("sur", "et", "devine", "Le lun. 30 nov. 2026 à 10:00, Rita <{gm}> a écrit :"),
    "es": ("sobre", "y", "adivino", "El lun, 30 nov 2026 a las 10:00, Rita (<{gm}>) escribió:"),
    "it": ("su", "e", "indovino", "Il giorno lun 30 nov 2026 alle ore 10:00 Rita <{gm}> ha scritto:"),
    "nl": ("op", "en", "raad", "Op ma 30 nov. 2026 om 10:00 schreef Rita <{gm}>:"),
    "pt": ("em", "e", "palpite", "Em seg., 30 de nov. de 2026 às 10:00, Rita <{gm}> escreveu:"),
}


def pbem(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def wait_for(check, what: str, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


# -- what a player means -------------------------------------------------------------------------


@dataclass(frozen=True)
class Meant:
    """One order as the player means it."""

    hand: int
    card: str
    target: str | None = None
    second: str | None = None
    look: str | None = None
    guess: str | int | None = None

    def words(self, lang: str = "en", shape: str = "canonical") -> str:
        """The order as the player writes it."""
        if lang != "en":
            on, and_, guess, _ = WORDS[lang]
            names = ABROAD[lang]
            text = f"Hand {self.hand}: {names.get(self.card, self.card)}"
            if self.target:
                text += f" {on} {self.target}" + (f" {and_} {self.second}" if self.second else "")
            if self.look:
                text += f", look at {self.look}"
            if self.guess is not None:
                said = names.get(self.guess, self.guess) if isinstance(self.guess, str) else self.guess
                text += f", {guess} {said}"
            return text
        if shape == "terse" and not self.second and not self.look:
            parts = [
                f"h{self.hand}",
                self.card.lower(),
                (self.target or "").lower(),
                "" if self.guess is None else str(self.guess).lower(),  # 0 too (the Assassin)
            ]
            return " ".join(p for p in parts if p)
        if shape == "verbose" and not self.second and not self.look and self.target:
            text = f"Hand {self.hand} - play the {self.card} on {self.target}"
            return text + (f" and guess {self.guess}" if self.guess is not None else "")
        text = f"Hand {self.hand}: {self.card}"
        if self.target:
            text += f" on {self.target}" + (f" and {self.second}" if self.second else "")
        if self.look:
            text += f", look at {self.look}"
        if self.guess is not None:
            text += f", guess {self.guess}"
        return text

    def rest(self) -> str:
        """The order without its hand: what an inline answer under "> Hand N:" says."""
        return self.words().split(":", 1)[1].strip()


@dataclass
class Turn:
    """What one player has to play in one turn: for each hand, its possible orders."""

    number: int
    mail: object  # the private turn mail (an EmailMessage)
    options: dict[int, list[Meant]] = field(default_factory=dict)


def read_turn_mail(mail, me: str, turn: int, premium: bool) -> Turn:
    """Every hand where it is my turn, and the orders I could give there, from the
    sections of the private mail ("Players you may name", "Your choices")."""
    body = mail.get_content()
    out = Turn(turn, mail)
    sections = re.split(r"(?m)^Your turn in hand (\d+)\. ", body)
    for number, text in zip(sections[1::2], sections[2::2]):
        hand = int(number)
        text = re.split(r"(?m)^(?:Tokens of affection|Your order code|Orders for turn)", text)[0]
        named = re.search(r"Players you may name: (.+)", text)
        players: list[str] = []
        if named:
            # "Bruno only (the Sycophant's mark)." names Bruno
            listed = re.sub(r"\s+only$", "", re.sub(r"\s*\([^)]*\)", "", named.group(1)).strip().rstrip("."))
            players = [p for p in re.split(r", | or ", listed) if p and p != "nobody"]
        options = []
        for card, form in re.findall(r'(?m)^ {4}([A-Z][A-Za-z ]*?):\s+"(Hand \d+: [^"]+)"', text):
            options += _fill(hand, card, form, players, me, premium, len(options))
        if card_options := [o for o in options if o.card != "Princess"]:
            options = card_options
        out.options[hand] = options
    return out


def _fill(hand: int, card: str, form: str, players: list[str], me: str, premium: bool, k: int) -> list[Meant]:
    """Orders of the shape ``form`` ("Hand 3: Guard on <player>, guess <card>")."""
    guesses = PREMIUM_GUESSES if premium else CLASSIC_GUESSES
    marked = re.search(r" on ([^\s,<]+) and <player>", form)  # "Cardinal on Bruno and <player>": the mark
    if marked:  # the Cardinal takes the marked player and its own (RULES 10.3), the Baroness one player
        name = marked.group(1)
        return [Meant(hand, card, name, me, name) if card == "Cardinal" else Meant(hand, card, name)]
    needs_player = "<player>" in form
    if needs_player and not players:
        if card == "Prince":
            return [Meant(hand, card, me)]
        return []  # nobody to name: another card will do
    out = []
    for i in range(2 if needs_player else 1):
        target = players[(hand + i + k) % len(players)] if needs_player else None
        second = look = None
        if "<player> and <player>" in form:
            others = [p for p in players if p != target]
            second = others[(hand + i) % len(others)] if others else (me if card == "Cardinal" else None)
            if card == "Cardinal":
                look = second if second != me else target
        guess = None
        if "guess" in form:
            guess = guesses[(hand + i + k) % len(guesses)]
            if guess == "Guard":
                guess = "Prince"
        out.append(Meant(hand, card, target, second, look, guess))
    return out


def matches(meant: Meant, record: dict | None, premium: bool) -> bool:
    """Whether the order on file is the one meant."""
    if record is None:
        return False
    if record.get("card") != meant.card or record.get("target") != meant.target:
        return False
    if premium and meant.second is not None and record.get("targets") != [meant.target, meant.second]:
        return False
    guess = record.get("guess")
    return guess == meant.guess


# -- the players ------------------------------------------------------------------------------------


class Player:
    """A player who reads mail by IMAP and answers by SMTP."""

    def __init__(self, name: str, address: str, gm: str, dovecot, smtp_server):
        self.name = name
        self.address = address
        self.gm = gm
        self.dovecot = dovecot
        self.smtp = smtp_server
        self.mails: list = []  # every mail received, oldest first
        self.sent_ids: list[str] = []

    def fetch(self) -> list:
        with self.dovecot.imap(self.address) as client:
            client.select_folder("INBOX")
            uids = client.search(["UNSEEN"])
            if not uids:
                return []
            fetched = client.fetch(uids, ["RFC822"])
            client.add_flags(uids, [b"\\Seen"])
        new = [message_from_bytes(fetched[u][b"RFC822"], policy=default_policy) for u in sorted(uids)]
        self.mails += new
        return new

    def turn_mail(self, turn: int):
        def found():
            self.fetch()
            return next(
                (
                    m
                    for m in reversed(self.mails)
                    if f"Turn {turn}: your cards and orders" in str(m["Subject"])
                ),
                None,
            )

        return wait_for(found, f"{self.name}'s turn {turn} mail")

    def ack_of(self, message_id: str):
        def found():
            self.fetch()
            return next((m for m in self.mails if str(m.get("In-Reply-To", "")) == message_id), None)

        return wait_for(found, f"the acknowledgement of {self.name}'s {message_id}")

    def send(
        self, original, text: str, references: list[str] | None = None, subject: str | None = None
    ) -> str:
        msg = EmailMessage()
        msg["From"] = f"{self.name} <{self.address}>"
        msg["To"] = str(original["From"])
        if subject is None:
            subject = str(original["Subject"])
            subject = subject if subject.lower().startswith(("re:", "aw:")) else "Re: " + subject
        msg["Subject"] = subject
        msg["Date"] = formatdate(localtime=True)
        msg["Message-ID"] = make_msgid(domain="players.example.test")
        msg["In-Reply-To"] = str(original["Message-ID"])
        msg["References"] = " ".join(references or [str(original["Message-ID"])])
        msg.set_content(text)
        with smtplib.SMTP(self.smtp.host, self.smtp.port, timeout=10) as client:
            client.starttls(context=self.smtp.client_context())
            client.login(SMTP_USER, SMTP_PASSWORD)
            client.send_message(msg)
        self.sent_ids.append(str(msg["Message-ID"]))
        return str(msg["Message-ID"])


def order_lines(text: str, original) -> int:
    """The order lines a player wrote in ``text``: its own lines (not quoted, not lines of
    the mail it answers) that name a hand, or answer the form inline under "> Hand N:"."""
    theirs = {line.strip() for line in original.get_content().splitlines()} if original is not None else set()
    count, under_form = 0, False
    for line in text.splitlines():
        if line.startswith((">", "|")):
            under_form = bool(re.fullmatch(r">\s*Hand \d+:\s*", line))
            typed = re.fullmatch(r">\s*(Hand \d+:\s*\S.*)", line)  # typed on the quoted form line
            count += bool(typed and typed.group(1).strip() not in theirs)
            continue
        own = line.strip() and line.strip() not in theirs
        if own and (under_form or re.search(r"(?i)\b(?:hand |h)\d+\b(?! still)", line)):
            count += 1
        under_form = False
    return count


def quoted(original, mark: str = "> ") -> str:
    return "\n".join(mark + line if line else mark.rstrip() for line in original.get_content().splitlines())


def outlook_block(original, player: Player) -> str:
    return (
        "________________________________\n"
        f"From: Rita <{player.gm}>\nSent: Monday, November 30, 2026 10:00 AM\n"
        f"To: {player.name} <{player.address}>\nSubject: {original['Subject']}\n\n" + original.get_content()
    )


def gmail_attribution(player: Player) -> str:
    return f"On Mon, 30 Nov 2026 at 10:00, Rita <{player.gm}> wrote:"


# -- the styles -------------------------------------------------------------------------------------
#
# A style is a list of messages; each message is a function of the turn mail, the
# previous message's acknowledgement (None for the first) and the player, giving the
# text and what it answers. ``Plan`` says what the player means in the end.


@dataclass
class Plan:
    final: dict[int, Meant]  # hand -> the order meant in the end
    other: dict[int, Meant]  # hand -> another order the player may give first (a change of mind)
    standing: dict[int, str] = field(default_factory=dict)  # hand -> "discard"/"keep" meant


def lines(orders, lang="en", shape="canonical") -> str:
    return "\n".join(o.words(lang, shape) for o in orders)


def top_posted(orders_text: str, original, player: Player) -> str:
    signed = f"Hi Rita,\n\n{orders_text}\n\nCheers,\n{player.name}\n\n"
    return signed + f"{gmail_attribution(player)}\n{quoted(original)}\n"


def style_top(plan, player, turn, shape="canonical"):
    def first(ack):
        return turn.mail, top_posted(lines(plan.final.values(), shape=shape), turn.mail, player)

    return [first]


def style_inline(plan, player, turn):
    def first(ack):
        body = turn.mail.get_content()
        out = [f"On {formatdate()}, Rita wrote:"]
        for line in body.splitlines():
            out.append("> " + line if line else ">")
            form = re.fullmatch(r"Hand (\d+):", line.strip())
            if form and int(form.group(1)) in plan.final:
                out += [plan.final[int(form.group(1))].rest(), ""]
        return turn.mail, "\n".join(out) + f"\n\n-- \n{player.name}\n"

    return [first]


def style_outlook(plan, player, turn):
    def first(ack):
        return turn.mail, lines(plan.final.values()) + "\n\n" + outlook_block(turn.mail, player)

    return [first]


def style_language(lang):
    def style(plan, player, turn):
        def first(ack):
            attribution = WORDS[lang][3].format(gm=player.gm)
            footer = {"de": "Von meinem iPhone gesendet\n\n", "fr": "Envoyé de mon iPhone\n\n"}.get(lang, "")
            text = lines(plan.final.values(), lang) + f"\n\n{footer}{attribution}\n\n{quoted(turn.mail)}\n"
            return turn.mail, text

        return [first]

    return style


def style_correction(plan, player, turn):
    """The orders, then a later message changing one of them."""
    hand = next(iter(plan.other), None)

    def first(ack):
        orders = [plan.other.get(h, o) if h == hand else o for h, o in plan.final.items()]
        return turn.mail, top_posted(lines(orders), turn.mail, player)

    def second(ack):
        text = f"Sorry, change of plan:\n\n{plan.final[hand].words()}\n\n{player.name}\n"
        return turn.mail, text + f"\n{gmail_attribution(player)}\n{quoted(turn.mail)}\n"

    return [first, second] if hand is not None else [first]


def style_clear(plan, player, turn):
    """Other orders first; then CLEAR and the orders meant, in a reply to the acknowledgement."""

    def first(ack):
        orders = [plan.other.get(h, o) for h, o in plan.final.items()]
        return turn.mail, top_posted(lines(orders, shape="terse"), turn.mail, player)

    def second(ack):
        text = "CLEAR\n\n" + lines(plan.final.values()) + f"\n\n{gmail_attribution(player)}\n{quoted(ack)}\n"
        return ack, text

    return [first, second]


def style_mistake(plan, player, turn):
    """A misspelt card (refused), then the fix after a sentence, in a reply to the acknowledgement."""
    hand, order = next(iter(plan.final.items()))
    typo = order.words().replace(
        order.card, order.card[0] + order.card[2] + order.card[1] + order.card[3:], 1
    )

    def first(ack):
        rest = [o for h, o in plan.final.items() if h != hand]
        return turn.mail, top_posted("\n".join([typo] + [o.words() for o in rest]), turn.mail, player)

    def second(ack):
        fix = order.words("en", "terse") if not order.second else order.words()
        fix = re.sub(r"^(?:h|Hand )(\d+):?", r"H\1", fix)
        text = f"Oops typo. {fix}\n\nThanks\n\n{gmail_attribution(player)}\n{quoted(ack)}\n"
        return ack, text

    return [first, second]


def style_prose(plan, player, turn):
    """A hand named in a sentence before its order, and an order after a sentence."""
    items = list(plan.final.items())

    def first(ack):
        out = []
        for i, (hand, order) in enumerate(items):
            if i % 2 == 0:
                out += [f"Hand {hand} still random?? I meant", order.words()]
            else:
                out.append(f"And this one! {order.words()}")
        return turn.mail, top_posted("\n".join(out), turn.mail, player)

    return [first]


def style_unknown_word(plan, player, turn):
    """Connectors the reader need not know beside the names: "Guard auf Hugo, Tipp Prince"."""

    def first(ack):
        out = []
        for order in plan.final.values():
            text = order.words()
            text = text.replace(" on ", " auf ", 1).replace(", guess ", ", Tipp ")
            out.append(text)
        return turn.mail, top_posted("\n".join(out), turn.mail, player)

    return [first]


def style_bishop(plan, player, turn):
    """A Bishop standing order beside the play for the same hand (Premium)."""

    def first(ack):
        out = []
        for hand, order in plan.final.items():
            if hand in plan.standing:
                out.append(f"Hand {hand}: if Bishop, {plan.standing[hand]}")
            out.append(order.words())
        return turn.mail, top_posted("\n".join(out), turn.mail, player)

    return [first]


def style_thanks(plan, player, turn):
    """The orders, then "thank you" in a reply to the acknowledgement, quoted with ">"."""

    def first(ack):
        return turn.mail, top_posted(lines(plan.final.values(), shape="verbose"), turn.mail, player)

    def second(ack):
        return ack, f"Thanks! Is the deadline Thursday?\n\n{gmail_attribution(player)}\n{quoted(ack)}\n"

    return [first, second]


# Reader-dependent shapes (issue 19 items 1, 2, 8-11).


def style_outlook_ack_reply(plan, player, turn):
    """Item 2: a correction, then a reply to the first acknowledgement quoted bare (Outlook)."""
    hand = next(iter(plan.other), None)

    def first(ack):
        orders = [plan.other.get(h, o) if h == hand else o for h, o in plan.final.items()]
        return turn.mail, lines(orders) + "\n\n" + outlook_block(turn.mail, player)

    def second(ack):
        return turn.mail, f"Correction:\n{plan.final[hand].words()}\n\n" + outlook_block(turn.mail, player)

    def third(ack):
        first_ack = player.ack_of(player.sent_ids[-2])
        return first_ack, "Thanks! Is the deadline Thursday?\n\n" + outlook_block(first_ack, player)

    return [first, second, third] if hand is not None else [first]


def style_outlook_clear(plan, player, turn):
    """Item 2: CLEAR in a bare-quoted reply to the acknowledgement, then the orders meant for
    all hands but one, left to the default rules: nothing may be on file for that one."""
    first_orders = [plan.other.get(h, o) for h, o in plan.final.items()]
    plan.final.pop(next(iter(plan.final)))

    def first(ack):
        return turn.mail, lines(first_orders) + "\n\n" + outlook_block(turn.mail, player)

    def second(ack):
        return ack, "CLEAR\n\n" + outlook_block(ack, player)

    def third(ack):
        return turn.mail, lines(plan.final.values()) + "\n\n" + outlook_block(turn.mail, player)

    return [first, second, third] if plan.final else [first, second]


def style_glued_attribution(plan, player, turn):
    """Item 8: the attribution right under the orders, no blank line."""

    def first(ack):
        return turn.mail, lines(plan.final.values()) + f"\n{gmail_attribution(player)}\n{quoted(turn.mail)}\n"

    return [first]


def style_wrapped_attribution(plan, player, turn):
    """Item 8: a German attribution wrapped over two lines, right under the orders."""

    def first(ack):
        text = lines(plan.final.values(), "de") + (
            f"\nAm Mo., 30. Nov. 2026 um 10:00 Uhr schrieb Rita <\n{player.gm}>:\n\n{quoted(turn.mail)}\n"
        )
        return turn.mail, text

    return [first]


def style_forward_below(plan, player, turn):
    """Item 9: the turn mail forwarded (quoted), the orders below it."""

    def first(ack):
        head = (
            f"Begin forwarded message:\n\n> From: Rita <{player.gm}>\n> Subject: {turn.mail['Subject']}\n>\n"
        )
        return turn.mail, head + quoted(turn.mail) + "\n\n" + lines(plan.final.values()) + "\n"

    return [first]


def style_android(plan, player, turn):
    """Item 10: Android's squeezed reply header, the turn mail bare below it."""

    def first(ack):
        header = (
            f"-----Reply message----- From: Rita <{player.gm}> To: {player.address} "
            f"Subject: {turn.mail['Subject']} Date: Mon, Nov 30, 2026 10:00\n\n"
        )
        return turn.mail, lines(plan.final.values()) + "\n\n" + header + turn.mail.get_content()

    return [first]


def style_pipe_quote(plan, player, turn):
    """Item 11: a quote marked with "| " instead of ">"."""

    def first(ack):
        text = lines(plan.final.values()) + "\n\nRita wrote:\n" + quoted(turn.mail, "| ") + "\n"
        return turn.mail, text

    return [first]


def style_thread(plan, player, turn):
    """Item 1: one-card orders ("Hand 10: Handmaid") top-posted, References naming earlier
    mails of the thread, the opening turn mail among the last ones, as Gmail writes them."""
    for hand, options in turn.options.items():
        plain = [o for o in options if o.target is None and o.guess is None]
        if plain:
            plan.final[hand] = plain[0]

    def first(ack):
        text = "\n".join(o.words() for o in plan.final.values()) + f"\n\n{gmail_attribution(player)}\n"
        ids = [str(m["Message-ID"]) for m in player.mails[-4:] if m is not turn.mail]
        ids += [str(m["Message-ID"]) for m in player.mails if "Turn 1: your cards" in str(m["Subject"])]
        ids.append(str(turn.mail["Message-ID"]))  # the opening mail among the last three
        return turn.mail, text + quoted(turn.mail) + "\n", list(dict.fromkeys(reversed(ids)))[::-1]

    return [first]


def style_typed_in_quote(plan, player, turn):
    """Answers typed on the quoted form lines themselves ("> Hand 3: Baron on Bruno"), as
    Gmail's web client and Thunderbird's plain-text editor quote what is typed in the quote."""

    def first(ack):
        out = []
        for line in turn.mail.get_content().splitlines():
            form = re.fullmatch(r"Hand (\d+):", line.strip())
            if form and int(form.group(1)) in plan.final:
                line = plan.final[int(form.group(1))].words()
            out.append("> " + line if line else ">")
        return turn.mail, f"See the form below.\n\n{gmail_attribution(player)}\n" + "\n".join(out) + "\n"

    return [first]


def style_numbered(plan, player, turn):
    """The orders as a numbered list ("1. Hand 3: ..."): the list's number is no hand."""

    def first(ack):
        numbered = "\n".join(f"{i}. {o.words()}" for i, o in enumerate(plan.final.values(), 1))
        return turn.mail, top_posted(numbered, turn.mail, player)

    return [first]


def style_answer_under_hand(plan, player, turn):
    """Each hand on a line of its own, its order on the line under it (a phone's layout)."""

    def first(ack):
        text = "\n".join(f"Hand {h}:\n{o.rest()}" for h, o in plan.final.items())
        return turn.mail, top_posted(text, turn.mail, player)

    return [first]


def style_corrected_in_order(plan, player, turn):
    """A target corrected inside the order: "Guard on Arthur, I mean Bruno, guess Prince"."""
    named = {o.target for options in turn.options.values() for o in options if o.target}

    def corrected(order: Meant) -> str:
        wrong = sorted(named - {order.target, player.name})
        if not order.target or order.second or not wrong or order.target == player.name:
            return order.words()
        text = f"Hand {order.hand}: {order.card} on {wrong[0]}, I mean {order.target}"
        return text + (f", guess {order.guess}" if order.guess is not None else "")

    def first(ack):
        return turn.mail, top_posted("\n".join(corrected(o) for o in plan.final.values()), turn.mail, player)

    return [first]


def style_kept_card(plan, player, turn):
    """The card kept named before the card played: "Hand 3: keep the Princess, play the Guard..."."""
    held = dict(re.findall(r"(?m)^\s*Hand\s+(\d+): ([A-Za-z ]+, [A-Za-z ]+?)\s+<-", turn.mail.get_content()))

    def kept(order: Meant) -> str:
        cards = [c.strip() for c in held.get(str(order.hand), "").split(",")]
        others = [c for c in cards if c and c != order.card]
        if len(cards) != 2 or not others:
            return order.words()
        return f"Hand {order.hand}: keep the {others[0]}, play the {order.words().split(':', 1)[1].strip()}"

    def first(ack):
        return turn.mail, top_posted("\n".join(kept(o) for o in plan.final.values()), turn.mail, player)

    return [first]


def style_hard_wrapped(plan, player, turn):
    """Each order hard-wrapped after "on", as a client that wraps plain text at a fixed width."""

    def first(ack):
        text = "\n".join(o.words().replace(" on ", " on\n", 1) for o in plan.final.values())
        return turn.mail, top_posted(text, turn.mail, player)

    return [first]


SPELLED = "zero one two three four five six seven eight nine ten eleven twelve thirteen".split()


def style_dictated(plan, player, turn):
    """The orders dictated to a phone: hands spelled out, one sentence each, on one line
    ("Hand three, Baron on Bruno. Hand seven, Prince on myself.")."""

    def first(ack):
        text = " ".join(f"Hand {SPELLED[h]}, {o.rest()}." for h, o in plan.final.items())
        return turn.mail, top_posted(text, turn.mail, player)

    return [first]


def style_signs_and_slashes(plan, player, turn):
    """Hands after a number sign, orders apart by slashes on one line, and markdown:
    "Hand No. 3: Baron on Bruno / *Hand Nr. 7*: Prince on myself"."""
    signs = ["Hand No. {}: {}", "*Hand Nr. {}*: {}", "Hand #{} - {}", "_Hand number {}_: {}"]

    def first(ack):
        text = " / ".join(signs[i % 4].format(h, o.rest()) for i, (h, o) in enumerate(plan.final.items()))
        return turn.mail, top_posted(text, turn.mail, player)

    return [first]


def style_outlook_inline_under(plan, player, turn):
    """Outlook's inline answers: the original unmarked, each answer typed on the line under
    its form line, as Outlook marks a comment ("[Chloé] Baron on Bruno")."""

    def first(ack):
        block = outlook_block(turn.mail, player)
        for hand, order in plan.final.items():
            answer = f"[{player.name}] {order.rest()}"
            block = re.sub(
                rf"(?m)^(Hand {hand}:)\s*?$",
                lambda m, answer=answer: f"{m.group(1)}\n{answer}",
                block,
                count=1,
            )
        return turn.mail, "My answers are inline.\n\n" + block

    return [first]


def style_conditional(plan, player, turn):
    """An order on a condition ("if Bruno is protected, A, otherwise B"): the tool weighs no
    condition, so it is refused (the acknowledgement says why) and nothing is on file for its
    hand; it must never be played on one of its branches. The other orders are plain."""
    hand, order = next(iter(plan.final.items()))
    branch = plan.other.get(hand, order)
    named = {player.name, order.target, order.second, order.look, branch.target, branch.second, branch.look}
    someone = next(n for n in NAMES[:4] if n not in named)  # at every table of three players or more
    del plan.final[hand]  # what the player means for it: nothing played at a guess

    def first(ack):
        rest = [o.words() for o in plan.final.values()]
        condition = f"Hand {hand}: if {someone} is protected, {branch.rest()}, otherwise {order.rest()}"
        return turn.mail, top_posted("\n".join([condition, *rest]), turn.mail, player)

    return [first]


def style_princess_lament(plan, player, turn):
    """A line about a hand's Princess above the orders ("Hand 3 has the Princess, sadly."): talk,
    never her play, which would put the player out of the hand."""
    hand = next(
        (h for h, options in turn.options.items() if any(o.card == "Princess" for o in options)),
        next(iter(plan.final)),
    )

    def first(ack):
        text = f"Thanks. Hand {hand} has the Princess, sadly.\n\n" + lines(plan.final.values())
        return turn.mail, top_posted(text, turn.mail, player)

    return [first]


def style_subject_order(plan, player, turn):
    """A reply from a phone with one order as its subject and nothing but the phone's footer in
    the body; then the other orders in a reply to the acknowledgement."""
    hand, order = next(iter(plan.final.items()))

    def first(ack):
        return turn.mail, "Sent from my phone\n", None, order.words("en", "terse")

    def second(ack):
        rest = [o for h, o in plan.final.items() if h != hand]
        text = lines(rest) if rest else "Thanks!"
        return ack, f"{text}\n\n{gmail_attribution(player)}\n{quoted(ack)}\n"

    return [first, second]


def style_sentence_correction(plan, player, turn):
    """Other orders first; then, in a reply to the acknowledgement, a correction written as a
    sentence: "Sorry, hand 3 should be Guard on Bruno, guess Prince. The rest stays."."""
    hand = next((h for h in plan.other if plan.final[h].card != "Princess"), None)

    def first(ack):
        orders = [plan.other.get(h, o) if h == hand else o for h, o in plan.final.items()]
        return turn.mail, top_posted(lines(orders), turn.mail, player)

    def second(ack):
        text = f"Sorry, hand {hand} should be {plan.final[hand].rest()}. The rest stays.\n\n{player.name}\n"
        return ack, text + f"\n{gmail_attribution(player)}\n{quoted(ack)}\n"

    return [first, second] if hand is not None else [first]


def style_hand_between(plan, player, turn):
    """The hand named between the card and its target: "Play the Guard in hand 3 on Bruno,
    guess Prince"."""

    def between(order: Meant) -> str:
        if not order.target or order.second or order.look:
            return order.words()
        text = f"Play the {order.card} in hand {order.hand} on {order.target}"
        return text + (f", guess {order.guess}" if order.guess is not None else "")

    def first(ack):
        return turn.mail, top_posted("\n".join(between(o) for o in plan.final.values()), turn.mail, player)

    return [first]


def style_pasted_quotes(plan, player, turn):
    """Each order in the quotation marks the turn mail shows its plays in: '"Hand 3: Handmaid"'."""
    marks = [('"', '"'), ("\u201c", "\u201d"), ("'", "'")]

    def first(ack):
        text = "\n".join(
            f"{marks[i % 3][0]}{o.words()}{marks[i % 3][1]}" for i, o in enumerate(plan.final.values())
        )
        return turn.mail, top_posted(text, turn.mail, player)

    return [first]


def style_afterthought(plan, player, turn):
    """A condition after the order that names only the writer: "Hand 3: Prince on Bruno. If
    that's not allowed, let me know!" (the order stands as written)."""

    def first(ack):
        out = [o.words() for o in plan.final.values()]
        out[0] += ". If that's not allowed, let me know!"
        return turn.mail, top_posted("\n".join(out), turn.mail, player)

    return [first]


OWN_STYLES = {
    "top": style_top,
    "top-terse": lambda plan, player, turn: style_top(plan, player, turn, "terse"),
    "inline": style_inline,
    "outlook": style_outlook,
    **{f"lang-{lang}": style_language(lang) for lang in WORDS},
    "correction": style_correction,
    "clear": style_clear,
    "mistake": style_mistake,
    "prose": style_prose,
    "unknown-word": style_unknown_word,
    "thanks": style_thanks,
}
READER_STYLES = {
    "outlook-ack-reply (item 2)": style_outlook_ack_reply,
    "outlook-clear (item 2)": style_outlook_clear,
    "glued-attribution (item 8)": style_glued_attribution,
    "wrapped-attribution (item 8)": style_wrapped_attribution,
    "forward-below (item 9)": style_forward_below,
    "android-header (item 10)": style_android,
    "pipe-quote (item 11)": style_pipe_quote,
    "thread-references (item 1)": style_thread,
    "typed-in-quote": style_typed_in_quote,
    "numbered-list": style_numbered,
    "answer-under-hand": style_answer_under_hand,
    "corrected-in-order": style_corrected_in_order,
    "kept-card": style_kept_card,
    "hard-wrapped": style_hard_wrapped,
    "dictated": style_dictated,
    "signs-and-slashes": style_signs_and_slashes,
    "outlook-inline-under": style_outlook_inline_under,
    "conditional": style_conditional,
    "princess-lament": style_princess_lament,
    "subject-order": style_subject_order,
    "sentence-correction": style_sentence_correction,
    "hand-between": style_hand_between,
    "pasted-quotes": style_pasted_quotes,
    "afterthought": style_afterthought,
}


# -- the game ---------------------------------------------------------------------------------------

NAMES = ["Arthur", "Bruno", "Chloé", "Dominik", "Elena", "Farid"]


def campaign_yaml(folder, gm, addresses, names, smtp_server, dovecot, ca, seed):
    players = "".join(f"  - {{name: {n}, email: {a}}}\n" for n, a in zip(names, addresses))
    (folder / "campaign.yaml").write_text(
        f"title: Play-through {folder.name}\ngm: {{name: Rita, email: {gm}}}\nplayers:\n{players}"
        f"seed: play-through-{seed}-{folder.name}\n"
        f"mail:\n  acks_per_hour: 100\n"
        f"  smtp: {{host: {smtp_server.host}, port: {smtp_server.port}, security: starttls,"
        f" user: {SMTP_USER}, password_env: PLAY_SMTP, ca_file: {ca}}}\n"
        f"  imap: {{host: {dovecot.host}, port: {dovecot.imap_port}, tls: false, user: {gm},"
        f" password_env: PLAY_IMAP, folder: INBOX, processed_folder: pbem-done}}\n",
        encoding="utf-8",
    )


@dataclass
class Tally:
    lines_sent: int = 0
    hands: int = 0
    misread: list[str] = field(default_factory=list)
    turns: int = 0
    finished: list[str] = field(default_factory=list)
    styles: dict[str, int] = field(default_factory=dict)  # style -> player-turns played in it
    rotation: int = 0
    player_turns: int = 0


def play_game(
    tmp_path, dovecot, smtp_server, monkeypatch, players: int, turns: int, styles: dict, tally: Tally
):
    """Play ``turns`` turns (or to the end) of a game of ``players`` players; count into ``tally``."""
    names = NAMES[:players]
    premium = players >= 5
    gm = dovecot.new_account()
    addresses = [dovecot.new_account() for _ in names]
    folder = tmp_path / f"p{players}"
    folder.mkdir()
    ca = tmp_path / f"ca{players}.pem"
    smtp_server.ca.cert_pem.write_to_path(str(ca))
    monkeypatch.setenv("PLAY_SMTP", SMTP_PASSWORD)
    monkeypatch.setenv("PLAY_IMAP", dovecot.passwords[gm])
    campaign_yaml(folder, gm, addresses, names, smtp_server, dovecot, ca, players)
    people = [Player(n, a, gm, dovecot, smtp_server) for n, a in zip(names, addresses)]
    style_names = list(styles)
    pbem("start", folder)
    for turn in range(1, turns + 1):
        pbem("send", folder)
        mails = {p.name: p.turn_mail(turn) for p in people}
        tally.turns += 1
        plans: dict[str, tuple[Plan, list]] = {}
        for seat, p in enumerate(people):
            t = read_turn_mail(mails[p.name], p.name, turn, premium)
            if not t.options:
                continue
            final = {h: opts[(turn + seat) % len(opts)] for h, opts in t.options.items() if opts}
            other = {h: opts[(turn + seat + 1) % len(opts)] for h, opts in t.options.items() if len(opts) > 1}
            other = {h: o for h, o in other.items() if o != final[h]}
            if premium and tally.player_turns % 4 == 0:
                name = "bishop"  # a standing order beside a play: Premium games only
            else:
                name = style_names[tally.rotation % len(style_names)]
                tally.rotation += 1
            tally.player_turns += 1
            tally.styles[name] = tally.styles.get(name, 0) + 1
            plan = Plan(final, other)
            if name == "bishop":
                plan.standing = {next(iter(final)): "discard"}
                messages = style_bishop(plan, p, t)
            else:
                messages = styles[name](plan, p, t)
            plans[p.name] = (plan, messages, name)
        # Send message 1 of every player, then (after the acknowledgements) message 2, ...
        acks: dict[str, object] = {}
        for step in range(3):
            sent = 0
            for p in people:
                if p.name not in plans or step >= len(plans[p.name][1]):
                    continue
                original, text, *references = plans[p.name][1][step](acks.get(p.name))
                tally.lines_sent += order_lines(text, original) + (len(references) > 1)  # an order as subject
                message_id = p.send(original, text, *references)
                plans[p.name] = (*plans[p.name][:2], plans[p.name][2], message_id)
                sent += 1
            if not sent:
                break

            def fetched(expected=sent):
                fetched.total += pbem("fetch", folder).count(": recorded (")
                return fetched.total >= expected

            fetched.total = 0
            wait_for(fetched, f"turn {turn}, message {step + 1} of each player to arrive")
            pbem("send", folder)
            for p in people:
                if p.name in plans and len(plans[p.name]) > 3:
                    acks[p.name] = p.ack_of(plans[p.name][3])
        on_file = json.loads((folder / "orders" / f"turn-{turn:03d}.json").read_text(encoding="utf-8"))
        standing_path = folder / "orders" / f"turn-{turn:03d}-standing.json"
        standing = json.loads(standing_path.read_text(encoding="utf-8")) if standing_path.exists() else {}
        for name, (plan, _, style, *_) in plans.items():
            mine = on_file.get(name, {})
            where = f"{players}p turn {turn} {name} [{style}]"
            for hand, meant in plan.final.items():
                tally.hands += 1
                record = mine.get(str(hand))
                if not matches(meant, record, premium):
                    got = record and {k: record.get(k) for k in ("card", "target", "guess", "status", "text")}
                    tally.misread.append(f"{where} hand {hand}: meant {meant.words()!r}, on file {got}")
            for hand in set(mine) - {str(h) for h in plan.final}:
                tally.misread.append(
                    f"{where} hand {hand}: no order meant, on file {mine[hand].get('text')!r}"
                )
            for hand, what in plan.standing.items():
                if standing.get(name, {}).get(str(hand)) != what:
                    tally.misread.append(f"{where} hand {hand}: standing order {what!r} meant, not on file")
        pbem("resolve", "--force", folder)  # forced: a misread order must not stop the game
        if Campaign(folder).position().game.finished:
            tally.finished.append(f"{players} players, turn {turn}")
            return


def _report(case: str, tally: Tally) -> None:
    print(
        f"\nplay-through [{case}]: {tally.turns} turns, {tally.lines_sent} order lines sent, "
        f"{tally.hands} hands meant, {len(tally.misread)} misread; games ended: {tally.finished or 'none'}"
    )
    print("  styles played (player-turns): " + ", ".join(f"{k} {v}" for k, v in tally.styles.items()))
    for line in tally.misread:
        print("  MISREAD " + line)


@pytest.mark.parametrize(
    "case, games",
    [
        ("own", [(2, 40), (3, 6), (4, 6), (6, 8)]),
        ("reader", [(4, 5), (6, 6)]),
    ],
)
def test_play_through(tmp_path, dovecot, smtp_server, monkeypatch, case, games):
    styles = OWN_STYLES if case == "own" else READER_STYLES
    tally = Tally()
    for players, turns in games:
        play_game(tmp_path, dovecot, smtp_server, monkeypatch, players, turns, styles, tally)
    _report(case, tally)
    if case == "own":
        assert tally.finished, "no game was played to its end"
    assert tally.lines_sent and tally.hands
    assert set(styles) <= set(tally.styles), f"styles never played: {set(styles) - set(tally.styles)}"
    assert tally.misread == [], f"{len(tally.misread)} of {tally.hands} hands misread:\n" + "\n".join(
        tally.misread
    )
