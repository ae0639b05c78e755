"""Each player's record: in one game, and over a GM's folder of campaigns.

Per person (known by their address, across games and across a change of name),
counting only the turns they held their seat (:mod:`pbem.seats`, tenures):

- **turns**: postal turns in which they had hands to play;
- **on time**: those turns in which every one of their hands had their own
  order (none played by the NMR default or the proxy); the *on-time ratio* is
  on time / turns;
- **NMR hands**: hands played for them (by the default rules or the proxy);
- **absent**: turns resolved on a day of an absence they announced;
- **hands won**, and **games won**: a finished game counts for the person who
  held the seat at its end (a player replaced earlier is credited with their
  turns and hands, not with the game);
- **rating**: an `openskill <https://openskill.me>`_ Plackett-Luce rating over
  the finished games, in the order they ended, each ranked by the result
  (the winners first, then by tokens); shown (its *ordinal*, mu - 3 sigma) only
  once a person has finished :data:`MIN_RATED_GAMES` games.

The figures come from :func:`pbem.seats.read_facts`: which hands were played
for a player (what the public report says too), the public events, the tokens
and when each turn was resolved; never a card.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, tzinfo
from typing import TYPE_CHECKING, Any

from .seats import TurnFacts, away_in, holder_at, read_facts, tenures
from .tuples import NamedTuple

if TYPE_CHECKING:
    from .config import CampaignConfig
    from .store import CampaignStore

#: A rating is shown once a person has finished this many games.
MIN_RATED_GAMES = 5


@dataclass
class PlayerRecord:
    name: str  # the latest name they played under
    email: str
    turns: int = 0
    on_time: int = 0
    nmr_hands: int = 0
    absent: int = 0
    hands_won: int = 0
    games: int = 0  # games in which they held a seat
    finished: int = 0  # finished games in which they held a seat at the end
    games_won: int = 0
    rating: float | None = None  # None until MIN_RATED_GAMES finished games
    seated: bool = False  # holds a seat now (in one game: not replaced)

    @property
    def on_time_ratio(self) -> float | None:
        return self.on_time / self.turns if self.turns else None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "on_time_ratio": self.on_time_ratio}

    def add(self, other: PlayerRecord) -> None:
        for key in ("turns", "on_time", "nmr_hands", "absent", "hands_won", "games", "finished", "games_won"):
            setattr(self, key, getattr(self, key) + getattr(other, key))
        self.name = other.name
        self.seated = self.seated or other.seated


class GameSummary(NamedTuple):
    campaign: str
    records: list[PlayerRecord]  # one per person, in seating order of their first seat
    result: list[tuple[str, int]] | None  # finished: (person's key, rank from 0) per seat; else None
    ended: date | None  # the day the game ended (None: not over)


def key(email: str) -> str:
    return email.strip().lower()


def game_summary(
    campaign: str, facts: list[TurnFacts], seats: list[list[dict[str, Any]]], absences: list[dict[str, Any]]
) -> GameSummary:
    """One game's records from its turns' facts, its seats' tenures and its absences."""
    people: dict[str, PlayerRecord] = {}
    for held in seats:
        for tenure in held:
            record = people.setdefault(key(tenure["email"]), PlayerRecord(tenure["name"], tenure["email"]))
            record.name = tenure["name"]
    for record in people.values():
        record.games = 1
    for held in seats:
        people[key(held[-1]["email"])].seated = True
    for f in facts:
        for seat in f.hands:
            tenure = holder_at(seats[seat], f.turn)
            record = people[key(tenure["email"])]
            record.turns += 1
            missed = f.missed.get(seat, 0)
            record.nmr_hands += missed
            record.on_time += not missed
            record.absent += away_in(absences, tenure["name"], f.day)
        for seat, won in f.hands_won.items():
            people[key(holder_at(seats[seat], f.turn)["email"])].hands_won += won
    result = None
    ended = None
    if facts and facts[-1].winners:
        last = facts[-1]
        ended = last.day
        tokens = last.tokens
        result = []
        for seat in range(len(seats)):
            who = key(holder_at(seats[seat], last.turn)["email"])
            people[who].finished += 1
            if seat in last.winners:
                people[who].games_won += 1
                rank = 0
            else:
                rank = 1 + sum(tokens[s] > tokens[seat] for s in range(len(seats)) if s not in last.winners)
            result.append((who, rank))
    return GameSummary(campaign, list(people.values()), result, ended)


def campaign_summary(
    store: CampaignStore, config: CampaignConfig, zone: tzinfo | None, campaign: str, public: bool = False
) -> GameSummary:
    """One campaign's :class:`GameSummary`, from its folder; ``public``: from what
    the players were shown only (:func:`pbem.seats.read_facts` without a zone: no turns away)."""
    seats = tenures(store.read_seats(), [(p.name, p.email) for p in config.players])
    facts = read_facts(store, seats, None if public else zone)
    return game_summary(campaign, facts, seats, store.read_absences())


def over_games(games: list[GameSummary]) -> list[PlayerRecord]:
    """Every person's record over ``games``, rated over the finished ones."""
    merged: dict[str, PlayerRecord] = {}
    for game in games:
        for record in game.records:
            mine = merged.setdefault(key(record.email), PlayerRecord(record.name, record.email))
            mine.add(record)
    out = sorted(merged.values(), key=lambda r: (r.name.casefold(), key(r.email)))
    _rate(games, out)
    return out


def rate(results: list[list[tuple[str, int]]]) -> dict[str, float]:
    """openskill's Plackett-Luce ordinal of each person over ``results`` (each game:
    (person, rank from 0) per seat, in the order the games ended)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for game in results:
        teams = [[ratings.get(who) or model.rating(name=who)] for who, _ in game]
        rated = model.rate(teams, ranks=[float(rank) for _, rank in game])
        for (who, _), team in zip(game, rated):
            ratings[who] = team[0]
    return {who: float(r.ordinal()) for who, r in ratings.items()}


def _rate(games: list[GameSummary], records: list[PlayerRecord]) -> None:
    """Each record's rating, shown only from MIN_RATED_GAMES finished games on."""
    finished = sorted((g for g in games if g.result), key=lambda g: (g.ended or date.min, g.campaign))
    if not any(r.finished >= MIN_RATED_GAMES for r in records):
        return
    ratings = rate([g.result for g in finished if g.result is not None])
    for record in records:
        if record.finished >= MIN_RATED_GAMES:
            record.rating = round(ratings.get(key(record.email), 0.0), 1)


def table(records: list[PlayerRecord], rated: bool = False) -> list[tuple[str, ...]]:
    """The "Players" table of ``pbem status``: a header and one row per person
    (``rated``: with the rating column, over a GM's folder)."""
    head = ("PLAYER", "ON TIME", "NMR HANDS", "ABSENT", "HANDS WON", "GAMES WON")
    rows = [head + (("RATING",) if rated else ())]
    for r in records:
        ratio = r.on_time_ratio
        row: tuple[str, ...] = (
            r.name,
            "-" if ratio is None else f"{r.on_time}/{r.turns} ({ratio:.0%})",
            str(r.nmr_hands),
            str(r.absent),
            str(r.hands_won),
            f"{r.games_won} of {r.finished}",
        )
        if rated:
            row += (f"{r.rating:.1f}" if r.rating is not None else f"after {MIN_RATED_GAMES} games",)
        rows.append(row)
    return rows


def lines(records: list[PlayerRecord], rated: bool = False) -> list[str]:
    """The table as text lines, in columns."""
    rows = table(records, rated)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
