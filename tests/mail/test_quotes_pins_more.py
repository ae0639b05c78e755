"""Pins for what mutation testing (README "Mutation testing") showed the reader's tests
missed in pbem/reader/quotes.py (the functions other than own_words_read, and the quoted form's).

Each test fails against the mutant it was written for (checked by hand in mutants/).
"""

from __future__ import annotations

import pytest
from reader_kit import ATTRIBUTION, TURN_MAIL, message, quote

from pbem.reader import own_words, read_mail

SENT = [TURN_MAIL]


def filled(three: str | None = "Baron on Bruno", seven: str | None = "Prince on myself") -> str:
    """The turn mail with answers typed after its form lines."""
    text = TURN_MAIL
    if three is not None:
        text = text.replace("\nHand 3:\n", f"\nHand 3: {three}\n")
    if seven is not None:
        text = text.replace("\nHand 7:\n", f"\nHand 7: {seven}\n")
    return text


# -- a blank form line quoted at any depth (_quoted_form_hand) ------------------------------------


@pytest.mark.parametrize("depth", [1, 2, 36, 40])
def test_a_blank_form_line_quoted_deep_in_a_long_thread_awaits_the_answer_under_it(depth):
    """A thread of forty replies quotes the form forty deep: the line the player types under
    its blank "Hand 3:" answers hand 3, as under a form quoted once (the line grows past 80
    characters, and is still a blank form line)."""
    marks = "> " * depth
    body = f"{marks}Hand 3:\nBaron on Bruno\n{marks}Hand 7:\nPrince on myself\n"
    assert own_words(body) == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"


# -- answers typed on the quoted form (_answers_on_quoted_form) -----------------------------------

INTRO = "Orders for turn 3 -- fill in one line per hand and reply to this mail:"


def test_answers_on_the_quoted_form_are_read_under_a_reply_that_opens_with_the_forms_intro():
    """The player copied the form's intro line as the first line of the reply: the form
    quoted below still holds their answers."""
    body = f"{INTRO} see below.\n\n{ATTRIBUTION}\n{quote(filled())}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines()[-2:] == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"], own


def test_answers_on_the_quoted_form_are_read_under_a_long_german_reply():
    """Casefolding makes each "ß" two letters: under a long German letter the form is
    found at a place some hundred characters further down than it is."""
    letter = "Grüße aus der Straße, ich weiß nicht, ob das heißt, dass Bruno groß spielt.\n" * 20
    body = f"{letter}\n{ATTRIBUTION}\n{quote(filled())}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines()[-2:] == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"], own


def test_a_long_answer_typed_on_a_quoted_form_line_is_read():
    """HTML puts a paragraph on one line: an answer of over 500 characters typed on the
    quoted form line is the player's, as a short one is."""
    reason = "I know he holds the Princess, " * 20
    long_three = f"Baron on Bruno. {reason}so the Baron wins."
    body = f"{ATTRIBUTION}\n{quote(filled(three=long_three))}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines() == [f"Hand 3: {long_three}", "Hand 7: Prince on myself"], own


@pytest.mark.parametrize("blank", ["", ">"])
def test_a_blank_line_between_the_quoted_form_lines_keeps_the_form(blank):
    """Enter pressed after an answer typed in the quote leaves a blank line, quoted or not
    (Thunderbird splits the quote there): the next form line is still the form's."""
    quoted = quote(filled()).replace("> Hand 3: Baron on Bruno\n", f"> Hand 3: Baron on Bruno\n{blank}\n")
    body = f"{ATTRIBUTION}\n{quoted}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines() == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"], own


def test_an_answer_typed_under_a_quoted_form_line_and_one_typed_on_the_next_are_both_read():
    """The player pressed Enter after "> Hand 3:" and answered on a line of their own, then
    typed the next answer on the quoted "> Hand 7:" line: their line is inside the form."""
    quoted = quote(filled(three=None)).replace("> Hand 3:\n", "> Hand 3:\nBaron on Bruno\n")
    body = f"{ATTRIBUTION}\n{quoted}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines() == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"], own


# -- a reply's last line right above an attribution without a date (_ends_a_reply) ---------------

QUOTED_TURN = quote(
    "Orders for turn 3 -- fill in one line per hand and reply to this mail:\nHand 3:\nHand 7:"
)


@pytest.mark.parametrize(
    "last",
    [
        "See you on the 10th!",  # an exclamation
        "Is the deadline still the 10th?",  # a question
        "I am away until the 10th. ",  # a sentence, a space typed after it
    ],
)
def test_a_reply_ending_in_a_sentence_right_above_rita_wrote_is_the_players(last):
    """A sentence ends the reply, whatever its mark and a space after it: the attribution
    ("Rita wrote:") starts on the next line, and the sentence is never joined to it."""
    body = f"Hand 3: Baron on Bruno\n{last}\nRita wrote:\n{QUOTED_TURN}\n"
    assert own_words(body) == f"Hand 3: Baron on Bruno\n{last.rstrip()}"


# -- orders above the quote and answers on its form (drop_sent_words) -----------------------------


def test_orders_written_above_the_quote_stand_over_both_quoted_form_lines():
    """Two orders above the quote, one without a colon: both hands are ordered, and the
    older answers on the quoted form are not read beside them."""
    above = "Hand 3 Guard on Dario, guess Prince\nHand 7: King on Bruno"
    body = f"{above}\n\n{ATTRIBUTION}\n{quote(filled())}\n"
    assert read_mail(message(body), answering=SENT).own_text == above


# -- a legal disclaimer under the reply (_is_disclaimer) ------------------------------------------


def test_a_disclaimer_whose_legal_words_wrap_over_two_lines_goes():
    """ "intended recipient" broken over two lines by the client is still a disclaimer's."""
    body = (
        "Hand 3: Baron on Bruno\n\nDisclaimer: This e-mail is meant for the intended\n"
        "recipient only and may not be passed on.\n"
    )
    assert own_words(body) == "Hand 3: Baron on Bruno"


# -- which sent lines stand above a form (_form_intros; checked by hand-made mutants) -------------


def test_a_reminder_with_the_same_forms_intro_leaves_the_turn_mails_form_whole():
    """The reminder asks again for hand 7 only, under the same intro: the player answered the
    turn mail's quoted form, both of whose hands are answerable."""
    reminder = "Reminder: hand 7 still awaits your order.\n\n" + INTRO + "\nHand 7:\n"
    body = f"{ATTRIBUTION}\n{quote(filled())}\n"
    own = read_mail(message(body), answering=[TURN_MAIL, reminder]).own_text
    assert own.splitlines() == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"], own


def test_an_order_typed_into_the_quoted_card_list_is_not_read():
    """Only the form's blank lines are answerable: a line typed under "Your cards" in the
    quote, above the card list, is no answer (the card list is no form)."""
    quoted = quote(TURN_MAIL).replace("> Your cards\n", "> Your cards\n> Hand 3: Baron on Bruno\n")
    body = f"Thanks!\n\n{ATTRIBUTION}\n{quoted}\n"
    assert read_mail(message(body), answering=SENT).own_text == "Thanks!"


def test_a_disclaimer_heading_with_nothing_under_it_is_the_players():
    """ "Important notice" as the reply's last line heads no disclaimer: it is the player's."""
    body = "Hand 3: Baron on Bruno\n\nImportant notice\n"
    assert own_words(body) == "Hand 3: Baron on Bruno\n\nImportant notice"


def test_a_long_disclaimer_whose_legal_words_come_late_goes():
    """A bank's disclaimer runs to some thousands of characters before it names the
    intended recipient: the whole paragraph is the disclaimer's."""
    legal = "This message and any attachment may not be copied, forwarded or relied upon.\n" * 30
    body = (
        f"Hand 3: Baron on Bruno\n\nDisclaimer: read this.\n{legal}It is for the intended recipient only.\n"
    )
    assert own_words(body) == "Hand 3: Baron on Bruno"


# -- a device footer that names the app first (_is_footer) ----------------------------------------


@pytest.mark.parametrize(
    ("app", "footer"),
    [("Outlook Mobile Business Edition 26", True), ("Outlook Mobile Business Edition 261", False)],
)
def test_a_footer_that_names_the_app_first_is_at_most_sixty_characters(app, footer):
    """ "<app> für Android herunterladen" is a footer up to 60 characters; a longer line is a
    sentence of the player's."""
    line = f"{app} für Android herunterladen"
    assert len(line) == (60 if footer else 61)
    body = f"Hand 3: Baron on Bruno\n\n{line}\n"
    assert own_words(body) == ("Hand 3: Baron on Bruno" if footer else body.strip())


def test_a_sentence_that_ends_like_a_footer_is_the_players():
    """Turkish "gönderildi" ("was sent") ends a footer, but a sentence with a comma before it
    is the player's: "OK, my orders were sent yesterday"."""
    body = "Hand 3: Baron on Bruno\n\nTamam, emirlerim dün gönderildi\n"
    assert own_words(body) == body.strip()


# -- header lines of a quoted original (_header_key) -----------------------------------------------


def test_a_paragraph_on_one_line_is_no_header_line():
    """HTML puts a paragraph on one line: one that opens with "Subject:" beside the player's
    own "From:" and "To:" lines is no header block, and the orders under it stand."""
    subject = ("Subject: my plan for this turn, " + "and why I think Bruno holds the Princess, " * 14).strip()
    body = f"From: Chloé\nTo: everyone\n{subject}\nHand 3: Baron on Bruno\n"
    assert own_words(body) == body.strip()


@pytest.mark.parametrize(
    "memo",
    [
        "From: Hugo, hands 3 and 7\n*To:* Bruno, about our deal\nTo: everyone else, no deals this turn",
        "De : Hugo\nÀ : Bruno, pour notre accord\nÀ: les autres, pas d'accord ce tour",
    ],
)
def test_one_key_written_in_two_styles_is_one_key_of_the_players_memo(memo):
    """A player heads their orders like a memo, "To:" once in bold (Markdown's "*To:*") and
    once plain, or "À :" with the French space and once without: that is a sender and one
    other key, no address, the player's own lines (a header block needs three keys)."""
    body = f"{memo}\nHand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert own_words(body) == body


def test_a_forwarded_header_block_in_mixed_styles_is_one_block():
    """Gmail's plain text of Outlook's bold header keys, with a plain "Date:" line a phone
    added: one header block, the original under it is not the player's."""
    body = (
        "Hand 3: Baron on Bruno\n\n"
        "*From:* Rita\n*To:* Hugo\nDate: Tuesday 1 December 2026\n*Subject:* Turn 3\n\n"
        "Hand 7:\nYour cards: Guard\n"
    )
    assert own_words(body) == "Hand 3: Baron on Bruno"


# -- answers typed on the form of a sent mail (_answers_on_form) ----------------------------------


def test_answers_on_a_quoted_form_at_the_top_of_a_german_reply_are_read():
    """The player cut the quote down to the form, so the reply opens with the quoted intro,
    typed the answers on its quoted lines and signed "Grüße" (casefolding makes "ß" two
    letters, so the text's length changes): both answers are read."""
    body = (
        "> Orders for turn 3 -- fill in one line per hand and reply to this mail:\n"
        "> Hand 3: Baron on Bruno\n> Hand 7: Prince on myself\n\nGrüße, Chloé\n"
    )
    own = read_mail(message(body), answering=SENT).own_text
    assert own.splitlines()[-2:] == ["Hand 3: Baron on Bruno", "Hand 7: Prince on myself"], own


@pytest.mark.parametrize("mark", ["", "> "])
def test_a_quoted_list_footer_under_the_players_answers_is_not_read_as_an_answer(mark):
    """The turn mail reached the player through a mailing list, which put its footer under
    the form: the answers typed under the quoted form lines (below the quote, or in it, as
    Thunderbird leaves them) are read, and the quoted footer (no line of the sent mail) is
    nobody's answer."""
    footer = (
        "> You received this message because you are subscribed to the Google Groups "
        '"Love Letter club" group.\n'
    )
    body = (
        f"{ATTRIBUTION}\n> Orders for turn 3 -- fill in one line per hand and reply to this mail:\n"
        f"> Hand 3:\n{mark}Baron on Bruno\n> Hand 7:\n{mark}Prince on myself\n>\n{footer}"
    )
    own = read_mail(message(body), answering=SENT).own_text
    assert own == "Hand 3: Baron on Bruno\nHand 7: Prince on myself", own


# -- a separator above a quote (own_words_read) ------------------------------------------------


@pytest.mark.parametrize("separator", ["-----Original Message-----", "Begin forwarded message:"])
def test_answers_under_a_quoted_form_trimmed_to_its_lines_below_a_separator_are_read(separator):
    """The player kept the separator and cut the quoted original down to its form lines,
    then answered under each: the words under a separator over a quote stand, and each
    answer belongs to the form line right above it."""
    body = f"{separator}\n> Hand 3:\nBaron on Bruno\n> Hand 7:\nPrince on myself\n"
    assert own_words(body) == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"


# -- what is a quote (_is_quoted) ------------------------------------------------------------------


def test_a_quote_indented_by_many_spaces_is_a_quote():
    """Some clients indent the quote mark; an original indented as a block by twelve spaces
    (a web archive's preformatted text pasted whole) is still quoted: its order lines are
    not the player's, and the answer under its blank form line is."""
    indent = " " * 12
    body = f"{indent}> Hand 3: Guard on Bruno\n{indent}> Hand 7:\nPrince on myself\n"
    assert own_words(body) == "Hand 7: Prince on myself"


# -- the reply and the attribution on one line (_split_reply_line) ---------------------------------


def test_a_capitalised_opener_in_the_reply_right_before_the_attribution_stays_the_players():
    """A French player names the card with its article, "Le Prince", and the client puts
    "Le mar. 1 déc. 2026 ..., Rita a écrit :" on the same line: the reply's "Le" comes
    before the attribution's own "Le", which is where the attribution starts."""
    body = "Hand 7: Le Prince Le mar. 1 déc. 2026 à 10:00, Rita <gm@example.org> a écrit :\n> Hand 7:\n"
    assert own_words(body) == "Hand 7: Le Prince"


# -- the player's lines as written (_finish) -------------------------------------------------------


def test_the_players_indented_orders_keep_their_indent_the_first_too():
    """A player who indents the orders as a list sees the same list read back: the first
    line keeps its indent like the ones under it (only blank lines around the words go)."""
    body = "\n  Hand 3: Baron on Bruno\n  Hand 7: Prince on myself\n\n> Hand 3:\n"
    assert own_words(body) == "  Hand 3: Baron on Bruno\n  Hand 7: Prince on myself"


# -- a sign-off (_drop_sign_off) -----------------------------------------------------------------


def test_a_sign_off_under_a_single_order_goes_when_the_name_is_set_apart():
    """One order, "Best regards," and the name set apart by a blank line (a name block, as
    a signature is): the sign-off goes even under a reply of one line; right under the
    valediction, a bare name stays (reply parsers disagree on it)."""
    assert own_words("Hand 3: Baron on Bruno\n\nBest regards,\n\nChloé Martin\n") == "Hand 3: Baron on Bruno"
    kept = "Hand 3: Baron on Bruno\nBest regards,\nChloé Martin"
    assert own_words(kept) == kept


def test_a_sign_off_of_four_lines_under_the_valediction_goes():
    """Name, title, club and phone under "Regards,": the whole sign-off goes, and the
    orders above it stand."""
    sign_off = "Regards,\nChloé Martin\nClub secretary\nLove Letter club of Lyon\n+33 6 12 34 56 78"
    body = f"Hand 3: Baron on Bruno\nHand 7: Prince on myself\n\n{sign_off}\n"
    assert own_words(body) == "Hand 3: Baron on Bruno\nHand 7: Prince on myself"


@pytest.mark.parametrize(
    "club",
    [
        "Love Letter club of Lyon, postal games each month since 1998",
        "Love Letter club of Lyon, postal games every month since 1998",
    ],
)
def test_a_sign_off_line_is_at_most_sixty_characters(club):
    """A sign-off's lines are short: a club line of 60 characters under the name goes with
    it; one of 61 is a sentence of the player's, and the sign-off stays."""
    length = len(club)
    assert length in (60, 61)
    body = f"Hand 3: Baron on Bruno\n\nRegards,\nChloé Martin\n{club}\n"
    assert own_words(body) == ("Hand 3: Baron on Bruno" if length == 60 else body.strip())


def test_an_indented_pair_of_dashes_between_orders_is_no_signature_separator():
    """The signature separator is "-- " at the start of its line; a player's indented "--"
    between two orders is a divider of theirs, and the order under it stands."""
    body = "Hand 3: Baron on Bruno\n   --\nHand 7: Prince on myself"
    assert own_words(body) == body


# -- a form below a deeper quote (_answers_on_form 49, eighth run) --------------------------------


def test_an_answer_on_the_players_own_copy_of_the_form_below_the_quoted_turn_mail_is_read():
    """A bottom-poster (Thunderbird) quoted the whole turn mail, copied its form's line out
    of the quote and filled hand 3 below it, leaving hand 7 for later. Replying to her own
    mail the next morning, she types hand 7's order on that copy's blank line in the quote:
    the turn mail's form is quoted twice above it, her copy once. The twice-quoted lines end
    no run below them: hand 7's answer is read (the mutant stopped at the first of them)."""
    first = (
        "On 01/12/2026 10:00, Rita (pbem) wrote:\n"
        f"{quote(TURN_MAIL.rstrip())}\n\n"
        "Orders for turn 3 -- fill in one line per hand and reply to this mail:\n"
        "Hand 3: Baron on Bruno\nHand 7:\n\nI'll send hand 7 tonight.\nChloé\n"
    )
    typed = first.replace("Hand 7:\n\nI'll", "Hand 7: Prince on myself\n\nI'll")
    body = f"On 02/12/2026 08:15, Chloé Martin wrote:\n{quote(typed)}\n\nThere, hand 7 too.\n"
    own = read_mail(message(body), answering=SENT).own_text.splitlines()
    assert own[0] == "There, hand 7 too."
    assert "Hand 7: Prince on myself" in own
    assert not any("tonight" in line for line in own)


def test_orders_over_a_sign_off_with_an_eszett_and_the_quoted_turn_mail_are_read():
    """A German player's orders on top, "Viele Grüße" and a name with "ß" under them, the
    turn mail quoted below (Thunderbird): casefolding makes the text longer, so the form is
    looked for from the top, where her orders are the first lines (a mutant that started
    with a form of no hands, "" for None, found "Hand 3" in it and the mail "looked damaged")."""
    orders = "Hand 3: Baron on Bruno\nHand 7: Prince on myself"
    body = f"{orders}\n\nViele Grüße\nJürgen Weiß\n\n{ATTRIBUTION}\n{quote(TURN_MAIL)}\n"
    own = read_mail(message(body), answering=SENT).own_text
    assert own.startswith(orders + "\n"), own


# -- a quote opener under a blank form line of an earlier mail (_ends_the_form, eighth run) --------

_COPY = (
    "Orders for turn 3 -- fill in one line per hand and reply to this mail:\n"
    "Hand 3: Baron on Bruno\nHand 7:\n\n"
)
_STILL = "Still thinking about hand 7. Is the deadline 20:00 Paris time?\n\n"
_OUTLOOK_TURN_HEADER = (
    "From: Rita (pbem) <gm@example.org>\nSent: Tuesday, December 1, 2026 10:00 AM\n"
    "To: Chloé Martin <chloe@example.org>\nSubject: [game7] Turn 3: your cards and orders\n\n"
)
_OUTLOOK_REPLY_HEADER = (
    "From: Chloé Martin <chloe@example.org>\nSent: Tuesday, December 1, 2026 12:30 PM\n"
    "To: Rita (pbem) <gm@example.org>\nSubject: RE: [game7] Turn 3: your cards and orders\n\n"
)


@pytest.mark.parametrize(
    "body",
    [
        # Gmail: her earlier reply (the form copied on top, hand 7 left blank) quoted once:
        # the attribution under its blank "Hand 7:" is the quote's, not hand 7's Guard.
        f"{_STILL}On Tue, 1 Dec 2026 at 12:30, Chloé Martin <chloe@example.org> wrote:\n"
        + quote(f"{_COPY}{ATTRIBUTION}\n{quote(TURN_MAIL)}\n"),
        # Outlook: both originals unmarked, each under its "-----Original Message-----".
        f"{_STILL}-----Original Message-----\n{_OUTLOOK_REPLY_HEADER}"
        f"{_COPY}-----Original Message-----\n{_OUTLOOK_TURN_HEADER}{TURN_MAIL}",
        # Outlook on the web: a rule, then the header block right under the blank line.
        f"{_STILL}{'_' * 32}\n{_OUTLOOK_REPLY_HEADER}{_COPY}{_OUTLOOK_TURN_HEADER}{TURN_MAIL}",
    ],
    ids=["attribution", "separator", "header-block"],
)
def test_under_a_blank_form_line_of_an_earlier_reply_the_next_quotes_opener_is_no_answer(body):
    """A reply to her own earlier mail, whose copy of the form left hand 7 blank: the line
    under that blank line opens the quote of the turn mail (an attribution, Outlook's
    separator, its header block), and is no order for hand 7."""
    own = read_mail(message(body), answering=SENT).own_text.splitlines()
    assert own[0] == _STILL.strip()
    assert not any(line.startswith("Hand 7") for line in own), own


# -- which lines of a sent mail stand above its form (_form_intros, eighth run, by hand) -----------


def test_a_pasted_copy_of_the_blank_form_lines_makes_no_order_of_the_note_under_them():
    """On her phone she pasted the turn mail's two form lines to fill them, then wrote a
    question under them instead: "Hand 3:" is a form line, not the line above a form, so
    the question is no answer to "Hand 7:" (a mutant made it "Hand 7: Sorry, ...")."""
    note = "Sorry, I can't decide before tonight: is the Countess forced in hand 3?"
    body = f"Hand 3:\nHand 7:\n{note}\n\n{ATTRIBUTION}\n{quote(TURN_MAIL)}\n"
    assert read_mail(message(body), answering=SENT).own_text == note


def test_a_form_taken_out_of_the_quote_right_under_a_quoted_line_is_read():
    """A bottom-poster (Thunderbird) keeps the top of the turn mail quoted and takes its
    form out of the quote, answering under each blank line: the form's intro, unmarked
    under a quoted line of the turn mail, starts the form all the same (a mutant that
    made every sent line an intro took it for the player's line under a quoted form)."""
    top, form = TURN_MAIL.split("\nOrders for turn 3")
    answered = ("Orders for turn 3" + form).replace("Hand 3:\n", "Hand 3:\nBaron on Bruno\n")
    answered = answered.replace("Hand 7:\n", "Hand 7:\nPrince on myself\n")
    body = f"On 01/12/2026 10:00, Rita (pbem) wrote:\n{quote(top.rstrip())}\n\n{answered}"
    own = read_mail(message(body), answering=SENT).own_text
    assert "Hand 3: Baron on Bruno" in own.splitlines(), own
    assert "Hand 7:\nPrince on myself" in own, own
