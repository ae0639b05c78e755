"""The game on the web: a static archive of everything public in a campaign.

``pbem site DIR`` (and ``resolve`` / ``tick`` when ``campaign.yaml`` has
``site: {out: FOLDER}``) writes plain HTML pages a GM can copy to any web
server or open from disk: the standings and the board, every turn's report,
every hand's story, and at the end the decks and the record to verify.

Built from the public events and public reports only (:mod:`.archive` is the
one place that reads the campaign folder), never from the state file, so the
site cannot show what a player may not see. :mod:`.board` rebuilds the board
from those events; :mod:`.build` renders the pages and writes them.
"""

from .board import LeakError
from .build import BuiltSite, SiteError, build_site

__all__ = ["BuiltSite", "LeakError", "SiteError", "build_site"]
