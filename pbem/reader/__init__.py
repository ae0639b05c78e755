"""Read one player's reply mail: who sent it, for which campaign and turn, and their own words.

The order parser needs the player's *new* words only: the turn mail they quote is full of lines
that look like orders ("Hand 3:", 'Examples: "Hand 3: Guard on Bruno, guess Prince"'), so reading
the whole body would make up orders nobody gave.  This module knows nothing of the game beyond
the shape of that turn mail (the blank form lines "Hand N:"), and it touches no files and no
network: bytes in, a `ReadMail` out, or `UnreadableMail` with a reason the player can act on.

Robustness is part of the contract: mail from the wild is broken in every way (no boundary,
truncated base64, undeclared 8-bit text, absurd charsets), and one bad message must never stop
the GM's run.  So every step degrades to "read what can be read, note what was odd" (`defects`),
and only a message with no readable text at all raises `UnreadableMail`.

The package follows the reading in order, one module per step: `api` (the public API and the
steps), `policy` (the fast header policy), `headers`, `mime` (which parts are the body),
`text` (charsets, normalised lines, format=flowed), `htmltext` (HTML to text) and `quotes`
(the player's own words).
"""

from .api import ReadMail, UnreadableMail, read_mail
from .htmltext import html_to_text
from .quotes import own_words
from .text import unflow

__all__ = ["ReadMail", "UnreadableMail", "html_to_text", "own_words", "read_mail", "unflow"]
