"""The mail reader's public name, kept for code that imports it: the reader lives in `pbem.reader`.

Scripts outside the project (the peer-reply scorer among them) import `pbem.mailreader.read_mail`.
"""

from .reader import ReadMail, UnreadableMail, html_to_text, own_words, read_mail, unflow

__all__ = ["ReadMail", "UnreadableMail", "html_to_text", "own_words", "read_mail", "unflow"]
