"""The ``pbem`` command: a thin layer over :mod:`pbem.campaign`.

Each command is a few calls into the library. Modules are imported inside the
commands that need them, so that a command pays only for what it uses.

Exit status: 0 on success; 1 when the command could not do what was asked
(the message says why and what to do); 2 for a mistyped command line; 3 when
``resolve`` finds orders missing; 130 for Ctrl-C. Each error carries its status
as data (``exit_code``, click's way: :mod:`pbem.errors` draws the tree);
:func:`_explain_errors` is the one place that turns them into a message and
that status.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import click

from .errors import PbemError

if TYPE_CHECKING:  # the library is imported inside the commands (start-up time)
    from click._termui_impl import ProgressBar

    from .campaign import Campaign, TurnResult
    from .gmfolder import Done
    from .orderbook import Receipt
    from .postoffice import SendReport

P = ParamSpec("P")
R = TypeVar("R")


__all__ = ["PbemError", "Unfinished", "main", "run"]


class Unfinished(PbemError):
    """The command ran, and its output says what it could not do (orders
    rejected, drafts not sent, a record not verified): exit 1, nothing more."""

    def __init__(self) -> None:
        super().__init__("")


EXIT_INTERRUPTED = 130  # the shell's status for Ctrl-C
EXIT_PACED = 4  # `send`: all went well, but the rate's day is full: the rest waits for the next window


#: The campaigns this process opened: what they committed (``Campaign.done``)
#: tells an error after the commit from one before it.
_opened: list[Campaign] = []

#: After the commit of these commands, an error (the report not printed, Ctrl-C)
#: exits 0, as a command that did what it was asked: a retry would do it twice.
#: What to do instead, for the message.
_AFTER_COMMIT = {
    "resolve": "`pbem report {folder}` prints the report. Do not resolve again: that would "
    "resolve the next turn",
    "rollback": "Do not roll back again: that would undo one more turn",
    "tick": "The next tick goes on from there",
}


def _campaign(folder: str) -> Campaign:
    from .campaign import Campaign

    campaign = Campaign(folder)
    _opened.append(campaign)
    return campaign


def _committed() -> list[str]:
    return [what for campaign in _opened for what in campaign.done]


def _after_commit(command: str, kwargs: dict[str, Any], problem: str) -> None:
    """Say what was done before ``problem`` (and what is left), where the GM can
    still read it, and exit with the status of a command that did its work."""
    import os

    done = "; ".join(_committed())
    advice = _AFTER_COMMIT.get(command, "Running the command again would do it once more").format(
        folder=kwargs.get("folder", "FOLDER")
    )
    text = f"Done: {done[0].upper()}{done[1:]}. Then {problem}. {advice}."
    try:
        click.echo(text, err=True)
    except (OSError, ValueError):
        pass  # standard error is lost too: the exit status still tells
    try:  # a full or closed standard output must not fail again when Python flushes it at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's runner)
        pass
    raise click.exceptions.Exit(0 if command in ("resolve", "rollback") else 1)


def _explain_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn the library's errors into a message for the GM (no traceback) and the
    exit status each carries (``exit_code``: 3 for orders missing, else 1): a
    :class:`PbemError`, or the operating system's ``OSError`` (a full disk, a file
    not readable). Anything else is a bug: said so in a sentence, traceback kept."""
    import functools

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        _opened.clear()  # one command per process; in tests, many in turn

        def after_commit(problem: str) -> None:
            if _committed():
                _after_commit(func.__name__, kwargs, problem)

        try:
            return func(*args, **kwargs)
        except BrokenPipeError:
            # `pbem preview DIR | head`: the reader has what it wanted. Python would
            # complain again when flushing stdout at exit: point it at /dev/null.
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(0) from None
        except PbemError as e:
            if e.format_message():  # else the output said it already (Unfinished)
                after_commit(f"this failed: {e.format_message()}")
                e.show()
            raise click.exceptions.Exit(e.exit_code) from None
        except OSError as e:
            after_commit(f"this failed: {e}")
            click.echo(f"Error: {e}", err=True)  # as click shows its own errors
            raise click.exceptions.Exit(PbemError.exit_code) from None
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise  # click's own: a usage error, an exit the command asked for
        except Exception as e:
            _explain_bug(e)
            raise  # the traceback follows, for whoever fixes it
        except KeyboardInterrupt:
            after_commit("it was interrupted (Ctrl-C)")
            click.echo("Interrupted; the campaign is as it was before this command.", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None

    return wrapper


def _explain_bug(e: Exception) -> None:
    """The last resort: an error no part of pbem meant to raise."""
    done = "; ".join(_committed())
    state = (
        f"Before it, this was done: {done}; do not run the command again before checking"
        if done
        else "the campaign is as it was before this command"
    )
    text = (
        f"Error: pbem stopped on an error it did not expect ({type(e).__name__}: {e}). "
        f"This is a bug in pbem, not in your campaign or your command; {state}. "
        f"The traceback below says where it happened: send it, with the command you ran, to "
        f"pbem's maintainers."
    )
    try:
        click.echo(text, err=True)
    except (OSError, ValueError):
        pass  # standard error is lost: the traceback tries too


folder_arg = click.argument("folder", type=click.Path(file_okay=False, path_type=str))


def _many(folder: str) -> bool:
    """FOLDER is a GM's folder of campaigns (no campaign.yaml of its own, games below)."""
    from .gmfolder import is_gm_folder

    return is_gm_folder(folder)


def _over_games(
    folder: str, action: Callable[[Campaign], object], show: Callable[[Done], bool | None]
) -> None:
    """``action`` on every game of the folder (:func:`pbem.gmfolder.each`); ``show(done)``
    prints a game's lines; a game that failed is named with the reason, and the
    command's status is then 1 (after every other game was handled)."""
    from .gmfolder import each

    failed = []
    for done in each(folder, action):
        if done.error is not None:
            failed.append(done.name)
            click.echo(f"[{done.name}] FAILED: {done.error}")
        elif show(done) is False:
            failed.append(done.name)
    if failed:
        click.echo(f"{len(failed)} game(s) not done: {', '.join(failed)}.", err=True)
        raise Unfinished()


def _typed_name(_ctx: click.Context | None, _param: click.Parameter | None, value: str | None) -> str | None:
    """A name as the GM typed it, whatever the locale: under a pure ASCII one (LANG=C, no
    UTF-8 mode) Python hands "Chloé" over as "Chlo\\udcc3\\udca9" (surrogate escapes of
    the UTF-8 bytes): the bytes are decoded again as UTF-8 (Latin-1 if they are not), and the
    name is NFC-normalised (a decomposed "e\u0301" from a Mac terminal is "é")."""
    import unicodedata

    if value is None:
        return None
    if any("\udc80" <= c <= "\udcff" for c in value):
        import os

        raw = os.fsencode(value)
        try:
            value = raw.decode("utf-8")
        except UnicodeDecodeError:
            value = raw.decode("latin-1")
    return unicodedata.normalize("NFC", value)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pbem")
def main() -> None:
    """pbem: run a postal game of Love Letter by email.

    A GM's turn: fetch (collect orders), status (who is missing), resolve
    (resolve the turn, draft every report), read the drafts, send.
    """


_PERSON = re.compile(r"^\s*(?P<name>[^<>]+?)\s*<(?P<email>[^<>\s]+)>\s*$")


def _person(text: str) -> dict[str, Any]:
    text = _typed_name(None, None, text) or ""
    match = _PERSON.match(text)
    if not match:
        raise click.BadParameter(f'{text!r}: write it as "Name <email@example.org>"')
    return {"name": match["name"], "email": match["email"]}


@main.command()
@folder_arg
@click.option(
    "--player",
    "players",
    multiple=True,
    required=True,
    metavar='"NAME <EMAIL>"',
    help="A player (2 to 8 times); seats are shuffled with the seed.",
)
@click.option("--seed", help="Makes the seating, the decks and every random default reproducible.")
@click.option(
    "--decks",
    "decks_file",
    type=click.Path(exists=True, dir_okay=False),
    help="YAML file mapping hand numbers to 16 card names (32 with 5-8 players), top first.",
)
@click.option("--title", default="", help="The game's title, used in reports.")
@click.option("--gm", metavar='"NAME <EMAIL>"', help="The game master, the sender of every mail.")
@click.option("--timezone", help="The deadlines' time zone, e.g. Europe/Paris (campaign.yaml: deadline:).")
@click.option("--every-days", type=int, help="A turn lasts this many days ...")
@click.option("--at", "at_time", metavar="HH:MM", help='... and ends at this local time (default "20:00").')
@click.option("--remind-hours", type=float, help="Reminders fall due this long before the deadline (24).")
@click.option("--deadline", "first_deadline", metavar='"YYYY-MM-DD HH:MM"', help="Turn 1's deadline.")
@_explain_errors
def new(
    folder: str,
    players: tuple[str, ...],
    seed: str | None,
    decks_file: str | None,
    title: str,
    gm: str | None,
    timezone: str | None,
    every_days: int | None,
    at_time: str | None,
    remind_hours: float | None,
    first_deadline: str | None,
) -> None:
    """Write FOLDER/campaign.yaml and start the game. With the deadline
    settings, the opening mails state turn 1's deadline."""
    from .campaign import Campaign
    from .deadlines import schedule_section

    schedule = schedule_section(timezone, every_days, at_time, remind_hours, first_deadline)

    people = [_person(p) for p in players]
    decks = None
    if decks_file:
        import yaml

        from .config import safe_load

        try:
            decks = safe_load(Path(decks_file).read_text(encoding="utf-8"))
        except yaml.YAMLError as e:
            raise PbemError(f"{decks_file}: not valid YAML: {e}") from None
    campaign = Campaign.create(
        folder,
        people,
        seed=seed,
        decks=decks,
        title=title,
        gm=_person(gm) if gm else None,
        deadline=schedule,
    )
    result = campaign.start()
    click.echo(f"Wrote {campaign.store.campaign_file}; seats: {', '.join(campaign.config.names)}.")
    _echo_started(campaign, result)
    first = campaign.deadline()
    if first is not None:
        click.echo(f"Turn 1's deadline: {campaign.deadline_text(first)}.")


@main.command()
@click.argument("source", type=click.Path(file_okay=False, path_type=str))
@click.argument("dest", type=click.Path(file_okay=False, path_type=str))
@_explain_errors
def copy(source: str, dest: str) -> None:
    """Copy the campaign SOURCE (e.g. campaigns/example) to DEST, a new folder,
    to try commands on the copy: the original stays unchanged."""
    from .campaign import copy_campaign

    copied = copy_campaign(source, dest)
    click.echo(f"Copied {source} to {copied}; try `pbem status {copied}` or `pbem resolve {copied}`.")


@main.command()
@folder_arg
@_explain_errors
def start(folder: str) -> None:
    """Start the game of a hand-written FOLDER/campaign.yaml."""
    campaign = _campaign(folder)
    _echo_started(campaign, campaign.start())


def _echo_started(campaign: Campaign, result: TurnResult) -> None:
    click.echo(f"Dealt 13 hands. Opening reports drafted in {campaign.store.reports_dir(0)}.")
    click.echo(f"Turn 1 is awaited. Read the opening report with `pbem report {campaign.folder}`.")
    if result.warning:
        click.echo(f"Warning: {result.warning}", err=True)


@main.command()
@folder_arg
@click.option("--player", callback=_typed_name, help="The player who sent the orders.")
@click.option(
    "--mail",
    "mail_file",
    type=click.Path(exists=True, dir_okay=False),
    help="One email message (RFC 5322 file); the sender is read from From:.",
)
@click.argument("text", required=False, callback=_typed_name)
@_explain_errors
def order(folder: str, player: str | None, mail_file: str | None, text: str | None) -> None:
    """Record orders received by other means (TEXT, or - for standard input)."""
    campaign = _campaign(folder)
    if mail_file:
        if player or text:
            raise click.UsageError("--mail takes no --player and no TEXT: the message says both")
        from .inbox import receive_file

        outcome = receive_file(campaign, Path(mail_file))
        click.echo(outcome.summary())
        if not outcome.recorded:
            raise Unfinished()
        return
    if not player:
        raise click.UsageError("name the player (--player NAME) or give a message (--mail FILE)")
    if text is None or text == "-":
        text = _typed_name(None, None, sys.stdin.read()) or ""
    receipt = campaign.record_orders(player, text, source="gm")
    click.echo(_receipt_text(receipt))
    if receipt.proxy == "refused":
        raise PbemError("nothing was recorded: this campaign does not use the proxy (proxy: false).")
    absence = receipt.absence
    if absence is not None and absence["status"] not in ("accepted", "back"):
        raise PbemError("the absence was not recorded (the reason is above).")
    if not any(c.status != "rejected" for c in receipt.checked) and receipt.proxy is None and not absence:
        raise PbemError(
            "nothing was recorded: "
            + (
                "every order was rejected (the reasons are above)"
                if receipt.checked
                else "no order could be read"
            )
            + "; correct the text and run the command again."
        )


def _receipt_text(receipt: Receipt) -> str:
    lines = [f"Orders of {receipt.player} for turn {receipt.turn}:"]
    if not receipt.checked and receipt.proxy is None and receipt.absence is None:
        lines.append("  no order could be read in that text.")
    return "\n".join(lines + receipt.lines())


@main.command()
@folder_arg
@_explain_errors
def fetch(folder: str) -> None:
    """Read new order mail: the campaign's Maildir (mail/inbox), or IMAP when
    campaign.yaml has a mail: section. Every message is kept and acknowledged."""
    from .inbox import fetch_new

    if _many(folder):
        from .gmfolder import fetch_folder

        fetched = fetch_folder(folder)  # one fetch for the games of a shared mailbox, routed
        for line in fetched.lines():
            click.echo(line)
        if fetched.failed:
            click.echo(f"{len(fetched.failed)} game(s) not done: {', '.join(fetched.failed)}.", err=True)
            raise Unfinished()
        return
    outcomes = fetch_new(_campaign(folder))
    if not outcomes:
        click.echo("No new messages.")
    for outcome in outcomes:
        click.echo(outcome.summary())
    recorded = sum(o.recorded for o in outcomes)
    with_orders = sum(
        o.recorded and o.receipt is not None and any(c.status != "rejected" for c in o.receipt.checked)
        for o in outcomes
    )
    if outcomes:
        click.echo(
            f"{len(outcomes)} message{'s' if len(outcomes) != 1 else ''} read: {with_orders} with "
            f"orders recorded, {recorded - with_orders} answered without orders recorded (STATUS, RULES, "
            f"rejected orders...), {len(outcomes) - recorded} refused or already read."
        )


@main.command()
@folder_arg
@click.option("--force", is_flag=True, help="Play missing orders by the NMR defaults.")
@_explain_errors
def resolve(folder: str, force: bool) -> None:
    """Resolve the awaited turn and draft its reports."""
    campaign = _campaign(folder)
    result = campaign.resolve(force=force)
    click.echo(result.public_report.rstrip())
    click.echo()
    for name, hands in result.defaults.items():
        click.echo(
            f"NMR defaults applied for {name}: hand{'s' if len(hands) > 1 else ''} "
            f"{', '.join(map(str, hands))}"
        )
    for name, hands in result.proxied.items():
        which = f"hand{'s' if len(hands) > 1 else ''} {', '.join(map(str, hands))}"
        click.echo(f"played by the proxy for {name}: {which}")
    click.echo(f"Turn {result.turn} resolved; reports drafted in {campaign.store.reports_dir(result.turn)}.")
    from .received import drop_stale_acks, dropped_acks_note  # here only: start-up time

    if note := dropped_acks_note(drop_stale_acks(campaign)):
        click.echo(note)
    _tell_disorder_drafted(campaign, folder)
    if result.warning:
        click.echo(f"Warning: {result.warning}", err=True)


def _tell_disorder_drafted(campaign: Campaign, folder: str) -> None:
    """After a resolution by hand, as after the tick's: a notice to the GM drafted for
    each seat that has just missed ``civil_disorder: after_turns`` turns in a row."""
    from .seats import draft_gm_notices

    for draft_id in draft_gm_notices(campaign.store, campaign.config, campaign.zone, campaign.name, folder):
        click.echo(
            f"Civil disorder: a notice to you drafted ({draft_id}); `pbem status {folder}` "
            f"names the seat and the first standby."
        )


@main.command()
@folder_arg
@click.argument("draft", required=False)
@_explain_errors
def preview(folder: str, draft: str | None) -> None:
    """List the drafts waiting in the outbox, or show one (DRAFT: its id)."""
    from .outbox import Outbox, summarize
    from .postoffice import selected_drafts

    if _many(folder):
        if draft:
            raise click.UsageError(f"name the game to show a draft: `pbem preview {folder}/GAME {draft}`")
        from . import gmfolder

        def show(done: Done) -> None:
            for d in done.value:
                mark = "UNCERTAIN " if d["uncertain"] else ""
                click.echo(f"[{done.name}] {mark}{d['draft']:<40} to {d['to']:<32} {d['subject']}")
            click.echo(f"[{done.name}] {len(done.value)} draft(s).")

        return _over_games(folder, gmfolder.drafts, show)
    _campaign(folder).publish_drafts()
    outbox = Outbox(Path(folder))
    if draft:
        from email import message_from_bytes
        from email.policy import default

        msg = message_from_bytes(selected_drafts(outbox, [draft])[0].read_bytes(), policy=default)
        for header in ("From", "To", "Subject", "Date", "Message-ID", "In-Reply-To"):
            if msg[header]:
                click.echo(f"{header}: {msg[header]}")
        click.echo()
        click.echo(msg.get_content().rstrip())
        return
    drafts = outbox.drafts()
    from .postoffice import uncertain_drafts

    uncertain = [u["draft"] for u in uncertain_drafts(Path(folder))]
    if not drafts:
        click.echo("The outbox is empty.")
        return
    for path in drafts:
        info = summarize(path)
        mark = "UNCERTAIN " if path.stem in uncertain else ""
        click.echo(f"{mark}{path.stem:<40} to {info['to']:<32} {info['subject']}")
    click.echo(
        f"{len(drafts)} draft{'s' if len(drafts) != 1 else ''}; `pbem preview {folder} ID` shows one, "
        f"`pbem send {folder}` sends them."
    )
    if uncertain:
        click.echo(
            f"{len(uncertain)} uncertain: not sent again by itself." + _uncertain_advice(folder, uncertain)
        )


@main.command()
@folder_arg
@click.argument("drafts", nargs=-1)
@click.option("--dry-run", is_flag=True, help="Show what would be sent; send nothing.")
@click.option(
    "--resend-uncertain",
    is_flag=True,
    help="Send again the uncertain drafts named (all of them if none is named): "
    "only once you know they did not arrive.",
)
@click.option(
    "--mark-sent",
    "mark",
    is_flag=True,
    help="Record the uncertain drafts named as sent (you saw them arrive); send nothing.",
)
@click.option(
    "--held",
    "with_held",
    is_flag=True,
    help="Send the held acknowledgements too (see `pbem status`); without it they go only when named.",
)
@_explain_errors
def send(
    folder: str, drafts: tuple[str, ...], dry_run: bool, resend_uncertain: bool, mark: bool, with_held: bool
) -> None:
    """Send the drafts (all, or the DRAFTS named) by SMTP, each at most once.

    Acknowledgements held over the hourly limit (perhaps spoofed mail) are left
    out unless named or --held is given. A draft handed to the server without a
    reply may or may not have arrived: it is *uncertain*, never sent again by
    itself; check, then --resend-uncertain or --mark-sent."""
    if _many(folder):
        if drafts or dry_run or resend_uncertain or mark or with_held:
            raise click.UsageError(
                f"over a folder of games, `pbem send {folder}` takes no drafts and no options: "
                f"name the game (`pbem send {folder}/GAME ...`)"
            )
        return _send_many(folder)
    campaign = _campaign(folder)
    campaign.publish_drafts()
    if resend_uncertain and mark:
        raise click.UsageError("--resend-uncertain or --mark-sent, not both")
    held: list[str] = []
    if not drafts and not mark and not resend_uncertain and not with_held:
        unheld = _leave_out_held(campaign, folder)
        if unheld is None:
            return
        drafts, held = unheld
    if mark:
        return _mark_sent(campaign, drafts)
    if dry_run:
        return _dry_run(campaign, drafts)
    report = _send_with_progress(campaign, folder, drafts, resend_uncertain, held)
    _print_send_report(folder, report)
    if report.waiting:
        click.echo(_waiting_text(folder, report))
    if report.failed or report.held:
        raise Unfinished()
    if report.waiting:
        raise click.exceptions.Exit(EXIT_PACED)


def _waiting_text(folder: str, report: SendReport) -> str:
    """The drafts a full day's rate (``mail.smtp.rate.per_day``) left in the outbox."""
    n = len(report.waiting)
    return (
        f"{n} draft{'s' if n != 1 else ''} wait for the next window, not sent: {report.wait_reason}. "
        f"`pbem send {folder}` (or the next tick) sends them then."
    )


def _leave_out_held(campaign: Campaign, folder: str) -> tuple[tuple[str, ...], list[str]] | None:
    """For `pbem send` with nothing named: every draft but the held acknowledgements.

    Returns the drafts to send and the held ones (the drafts are () when none
    is held: send them all), after telling the GM how many are held; None when
    the held ones are all there is (then nothing is to be sent)."""
    from .inbox import unheld_drafts
    from .outbox import Outbox

    unheld, held = unheld_drafts(campaign, Outbox(campaign.folder))
    if not held:
        return (), held
    click.echo(
        f"{len(held)} held acknowledgement{'s' if len(held) != 1 else ''} not sent (see "
        f"`pbem status`): name them, or `pbem send {folder} --held`, to send them."
    )
    if not unheld:
        click.echo("Nothing else to send.")
        return None
    return tuple(unheld), held


def _mark_sent(campaign: Campaign, drafts: tuple[str, ...]) -> None:
    """`pbem send --mark-sent`: record the uncertain DRAFTS as sent; send nothing."""
    from .postoffice import mark_sent

    if not drafts:
        raise click.UsageError("--mark-sent needs the ids of the drafts that arrived")
    for draft_id in mark_sent(campaign, list(drafts)):
        click.echo(f"{draft_id}: recorded as sent (it will never be sent again).")


def _dry_run(campaign: Campaign, drafts: tuple[str, ...]) -> None:
    """`pbem send --dry-run`: print each draft that would go (recipient, subject); send nothing."""
    from .outbox import Outbox, summarize
    from .postoffice import selected_drafts

    paths = selected_drafts(Outbox(campaign.folder), list(drafts))
    for path in paths:
        info = summarize(path)
        click.echo(f"would send {path.stem} to {info['to']}: {info['subject']}")
    click.echo(f"{len(paths)} draft{'s' if len(paths) != 1 else ''} would be sent.")


def _send_with_progress(
    campaign: Campaign, folder: str, drafts: tuple[str, ...], resend_uncertain: bool, held: list[str]
) -> SendReport:
    """Send DRAFTS (all when empty) with a progress bar on stderr; return postoffice's report.

    With RESEND_UNCERTAIN the drafts named are sent again though uncertain.
    HELD non-empty means DRAFTS were picked here, not typed: one withdrawn
    meanwhile (by a rollback) is then no error. A transport failure becomes a
    PbemError saying that what was sent is recorded, with the uncertain ones'
    advice."""
    from .outbox import Outbox
    from .postoffice import selected_drafts
    from .postoffice import send as send_all
    from .transport.smtp import SendError

    resend = list(drafts) if resend_uncertain else None
    total = len(drafts) if resend is not None else len(selected_drafts(Outbox(campaign.folder), list(drafts)))
    bars: list[
        ProgressBar[int]
    ] = []  # opened at the first draft: an error before it (no smtp: section) prints alone

    def progress(draft_id: str, state: str) -> None:
        if not bars:
            bars.append(click.progressbar(length=total, label="Sending", file=sys.stderr))
            bars[0].__enter__()
        if state in ("sent", "skipped", "failed", "held", "uncertain"):
            bars[0].update(1)

    try:
        # Names picked here (all but the held), not typed: a rollback may withdraw some meanwhile.
        return send_all(
            campaign,
            list(drafts),
            progress,
            resend_uncertain=resend,
            missing_ok=bool(held),
            on_wait=lambda s: click.echo(f"\n{_minute_wait(s)}", err=True),
        )
    except SendError as e:
        uncertain = sorted(e.summary.uncertain) if e.summary else []
        raise PbemError(
            f"{e} Whatever was sent is recorded; run `pbem send {folder}` again "
            f"to send the rest." + _uncertain_advice(folder, uncertain)
        ) from None
    finally:
        if bars:
            bars[0].__exit__(None, None, None)


def _minute_wait(seconds: float) -> str:
    return f"Waiting {seconds:.0f} s: mail.smtp.rate's minute is full."


def _print_send_report(folder: str, report: SendReport) -> None:
    """What `pbem send` did: per recipient, the totals, each failure, the uncertain ones held back."""
    recipients: dict[str, list[str]] = {}
    for per in report.per_recipient.values():
        for address, result in per.items():
            recipients.setdefault(address, []).append(result)
    for address, results in sorted(recipients.items()):
        ok = sum(r == "accepted" for r in results)
        click.echo(
            f"  {address:<32} {ok} sent" + (f", {len(results) - ok} refused" if ok < len(results) else "")
        )
    click.echo(
        f"{len(report.sent)} sent, {len(report.skipped)} already sent before, {len(report.failed)} failed."
    )
    for draft_id, reason in report.failed.items():
        click.echo(f"  FAILED {draft_id}: {reason}")
    if report.held:
        plural = "s" if len(report.held) != 1 else ""
        click.echo(
            f"{len(report.held)} uncertain draft{plural} not sent again: {', '.join(report.held)}."
            + _uncertain_advice(folder, report.held)
        )


def _turn_mail_not_sent(campaign: Campaign, info: dict[str, Any]) -> list[str]:
    """The latest turn's drafts not sent yet, when the campaign sends by SMTP
    and a deadline waits on them (the tick holds it): for `pbem status`."""
    from .postoffice import smtp_settings, undelivered_turn_mail

    if info["finished"] or not info.get("deadline") or smtp_settings(campaign.config) is None:
        return []
    return undelivered_turn_mail(campaign)


def _send_many(folder: str) -> None:
    from . import gmfolder

    def show(done: Done) -> bool:
        report, held = done.value
        if held:
            click.echo(f"[{done.name}] {len(held)} held acknowledgement(s) not sent (see `pbem status`).")
        if report is None:
            click.echo(f"[{done.name}] nothing to send.")
            return True
        click.echo(
            f"[{done.name}] {len(report.sent)} sent, {len(report.skipped)} already sent before, "
            f"{len(report.failed)} failed."
        )
        for draft_id, reason in report.failed.items():
            click.echo(f"[{done.name}]   FAILED {draft_id}: {reason}")
        if report.held:
            click.echo(f"[{done.name}] uncertain, not sent again: {', '.join(report.held)}.")
        if report.waiting:
            paced.append(done.name)
            click.echo(f"[{done.name}] {_waiting_text(folder + '/' + done.name, report)}")
        return not (report.failed or report.held)

    def send(campaign: Campaign) -> gmfolder.Sent:
        def said(seconds: float) -> None:
            click.echo(f"[{campaign.name}] {_minute_wait(seconds)}", err=True)

        return gmfolder.send(campaign, on_wait=said)

    paced: list[str] = []
    _over_games(folder, send, show)
    if paced:
        raise click.exceptions.Exit(EXIT_PACED)


def _uncertain_advice(folder: str, ids: list[str]) -> str:
    """What the GM does about drafts that may or may not have arrived."""
    if not ids:
        return ""
    listed = " ".join(ids)
    return (
        f"\nUncertain (handed to the server, no reply; maybe delivered, maybe not): {listed}. "
        f"Ask the recipient or look in the sent mail, then either `pbem send {folder} --mark-sent "
        f"{listed}` (it arrived) or `pbem send {folder} --resend-uncertain {listed}` (it did not)."
    )


@main.command()
@folder_arg
@_explain_errors
def export(folder: str) -> None:
    """Print the whole state as JSON."""
    click.echo(json.dumps(_campaign(folder).export(), indent=2, ensure_ascii=False))


@main.command()
@folder_arg
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@click.option("--seen", is_flag=True, help="Mark the refused messages listed as read: later, only a count.")
@click.option(
    "--players",
    "with_players",
    is_flag=True,
    help="Over a folder of games: each player's record across them, with the rating (reads every turn).",
)
@_explain_errors
def status(folder: str, as_json: bool, seen: bool, with_players: bool) -> None:
    """Turn, hands in play, who still owes orders, tokens, each player's record."""
    from .inbox import mark_refused_seen, refused_messages
    from .postoffice import uncertain_drafts
    from .received import held_acks

    if _many(folder):
        return _status_many(folder, as_json, seen, with_players)
    campaign = _campaign(folder)
    info = campaign.status()
    info["refused"] = refused_messages(campaign)
    info["held_acks"] = held_acks(campaign)
    info["uncertain"] = uncertain_drafts(Path(folder))
    info["turn_mail_not_sent"] = _turn_mail_not_sent(campaign, info)
    records = _player_records(campaign)
    info["player_records"] = [r.to_dict() for r in records]
    if as_json:
        if seen:
            mark_refused_seen(campaign)
        click.echo(json.dumps(info, indent=2, ensure_ascii=False))
        return
    _print_position(info)
    for line in [] if info["finished"] else _disorder_lines(folder, info):  # and the standby to offer
        click.echo(line)
    _players_table(records)
    _print_mail_not_delivered(folder, info)
    _print_refused(campaign, folder, info["refused"], seen)
    _print_held_acks(campaign, folder, info["held_acks"])


def _print_position(info: dict[str, Any]) -> None:
    """`pbem status`'s first lines, from `Campaign.status()`'s INFO: the turn awaited (or the
    winners), the orders missing, the proxy and the players away, the deadline, the tokens."""
    if info["finished"]:
        click.echo(f"{info['campaign']}: the game is over; won by {', '.join(info['winners'])}.")
    else:
        click.echo(
            f"{info['campaign']}: turn {info['turn']} awaited; "
            f"{len(info['hands_in_play'])} hands in play ({', '.join(map(str, info['hands_in_play']))})."
        )
        if info["missing"]:
            click.echo("Orders missing:")
            for name, hands in info["missing"].items():
                click.echo(f"  {name:<12} hand{'s' if len(hands) > 1 else ' '} {', '.join(map(str, hands))}")
        else:
            click.echo("Every order is in: `pbem resolve` can run.")
        if info.get("proxy"):
            click.echo("The proxy plays the missing orders of: " + ", ".join(info["proxy"]) + ".")
        if info.get("away"):
            click.echo("Away: " + ", ".join(f"{a['player']} ({a['span']})" for a in info["away"]) + ".")
    if info.get("deadline"):
        d = info["deadline"]
        click.echo(f"Deadline: {d['text']} ({d['left']}).")
    click.echo("Tokens: " + ", ".join(f"{n} {t}" for n, t in info["tokens"].items()))


def _print_mail_not_delivered(folder: str, info: dict[str, Any]) -> None:
    """`pbem status` on the mail out that has not surely arrived: the latest turn's drafts
    not sent (the tick holds the deadline for them) and the uncertain drafts, with advice."""
    if info["turn_mail_not_sent"]:
        ids = info["turn_mail_not_sent"]
        click.echo(
            f"Turn mail not sent ({len(ids)}): the players have not all had the latest turn's mail "
            f"({', '.join(ids[:6])}{', ...' if len(ids) > 6 else ''}); `pbem tick` holds the deadline "
            f"until it has gone (`pbem send {folder}`), then moves it on by the time lost."
        )
    if info["uncertain"]:
        ids = [u["draft"] for u in info["uncertain"]]
        click.echo(
            f"Uncertain mail ({len(ids)}): handed to the SMTP server, no reply; maybe delivered, "
            f"maybe not: {', '.join(ids)}." + _uncertain_advice(folder, ids)
        )


def _print_refused(campaign: Campaign, folder: str, refused: list[dict[str, Any]], seen: bool) -> None:
    """`pbem status` on the REFUSED messages: those not seen yet one a line, the seen ones
    as a count; with SEEN, marks them all as seen (and says how many)."""
    from .inbox import mark_refused_seen, refused_seen

    known = refused_seen(campaign)
    new = [entry for entry in refused if entry["file"] not in known]
    if new:
        click.echo(f"Messages refused ({len(new)} new), kept in the campaign:")
        for entry in new:
            click.echo(
                f"  {entry['file']}  {entry['status']}: {entry.get('sender') or '?'}"
                f"{' -- ' + entry['detail'] if entry.get('detail') else ''}"
            )
    if len(refused) > len(new):
        click.echo(
            f"Messages refused earlier, already seen: {len(refused) - len(new)} "
            f"(kept in {campaign.store.received})."
        )
    if seen:
        click.echo(f"Marked {mark_refused_seen(campaign)} refused message(s) as seen.")
    elif new:
        click.echo(f"`pbem status {folder} --seen` marks them as seen: then only their count shows.")


def _print_held_acks(campaign: Campaign, folder: str, held: list[dict[str, Any]]) -> None:
    """`pbem status` on the HELD acknowledgements: per player, how many, and why (the hourly limit)."""
    if not held:
        return
    from .inbox import acks_per_hour

    per_player: dict[str, int] = {}
    for entry in held:
        per_player[entry["player"]] = per_player.get(entry["player"], 0) + 1
    limit = acks_per_hour(campaign.config)
    for name, count in per_player.items():
        click.echo(
            f"{count} acknowledgement{'s' if count > 1 else ''} to {name} held: more than "
            f"{limit} messages an hour came from that address (spoofed?). The messages "
            f"are kept and read as usual; `pbem preview {folder}` shows the acknowledgements, "
            f"`pbem send {folder} --held` sends them."
        )


def _disorder_lines(folder: str, info: dict[str, Any]) -> list[str]:
    """The seats in civil disorder, and the standby to offer (:mod:`pbem.seats`)."""
    out = []
    standby = info.get("standby")
    for d in info.get("civil_disorder") or []:
        offer = (
            f"first standby: {standby['name']} <{standby['email']}> "
            f"(`pbem replace {folder} {d['player']} --standby`)"
            if standby
            else "no standby: list in campaign.yaml"
        )
        out.append(
            f"Civil disorder: {d['player']} missed {d['turns']} turns in a row (since turn {d['since']}; "
            f"the GM is told after {info['civil_disorder_after']}); {offer}."
        )
    return out


def _player_records(campaign: Campaign) -> list[Any]:
    """Each player's record in one game (:mod:`pbem.players`)."""
    from .players import campaign_summary

    return campaign_summary(campaign.store, campaign.config, campaign.zone, campaign.name).records


def _players_table(records: list[Any], rated: bool = False) -> None:
    """The "Players" table: on-time ratio, NMR hands, turns absent, hands and games won."""
    from .players import lines

    click.echo("Players:" if not rated else "Players, over every game (by address):")
    for line in lines(records, rated):
        click.echo("  " + line)


def _status_and_record(campaign: Campaign) -> dict[str, Any]:
    """One game's line of ``pbem status FOLDER`` and its players' records (``_summary``),
    in one pass over the folder."""
    from . import gmfolder
    from .players import campaign_summary

    info = gmfolder.game_status(campaign)
    info["_summary"] = campaign_summary(campaign.store, campaign.config, campaign.zone, campaign.name)
    return info


def _status_many(folder: str, as_json: bool, seen: bool = False, with_players: bool = False) -> None:
    """One line per game: turn, deadline, who owes which hands, mail to look at, drafts;
    then the mail of the folder's shared mailbox that no game took (``seen``: marked seen).
    ``with_players``: each person's record over the games (it reads every turn on file,
    so the plain table over a thousand games stays within its time)."""
    from . import gmfolder
    from .players import over_games

    rows = list(gmfolder.each(folder, _status_and_record if with_players else gmfolder.game_status))
    everyone = over_games([d.value.pop("_summary") for d in rows if not d.error]) if with_players else []
    listed = gmfolder.unroutable(folder)
    known = gmfolder.unroutable_seen(folder)
    if as_json:
        out = [
            {"campaign": d.name, "error": d.error} if d.error else {**d.value, "campaign": d.name}
            for d in rows
        ]
        nowhere = [{**entry, "seen": entry["key"] in known} for entry in listed]
        result: dict[str, Any] = {"games": out, "unroutable": nowhere}
        if with_players:
            result["players"] = [r.to_dict() for r in everyone]
        click.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        table = [("GAME", "TURN", "DEADLINE", "ORDERS OWED", "MAIL", "DRAFTS")]
        for d in rows:
            if d.error:
                continue  # a line of its own, below: its reason would stretch the columns
            info = d.value
            if info["finished"]:
                owed = "over: won by " + ", ".join(info["winners"])
            else:
                owed = (
                    "; ".join(
                        f"{name} {','.join(map(str, hands))}" for name, hands in info["missing"].items()
                    )
                    or "all in"
                )
            deadline = info.get("deadline")
            mail = [
                f"{n} {what}"
                for n, what in (
                    (len(info["uncertain"]), "uncertain"),
                    (info["refused_new"], "refused"),
                    (len(info["held_acks"]), "held"),
                )
                if n
            ]
            table.append(
                (
                    d.name,
                    str(info["turn"]),
                    f"{deadline['text']} ({deadline['left']})" if deadline else "-",
                    owed,
                    ", ".join(mail) or "-",
                    str(info["drafts"]),
                )
            )
        widths = [max(len(row[i]) for row in table) for i in range(5)]
        for row in table:
            click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[5])
        for d in rows:
            if d.error:
                click.echo(f"{d.name.ljust(widths[0])}  BROKEN: {d.error}")
        if everyone:
            _players_table(everyone, rated=True)
        elif not with_players:
            click.echo(f"Each player's record over these games: `pbem status {folder} --players`.")
        _unroutable_lines(folder, listed, known, seen)
    if seen:
        marked = gmfolder.mark_unroutable_seen(folder)
        if not as_json:
            click.echo(f"Marked {marked} message(s) no game took as seen.")
    failed = [d.name for d in rows if d.error]
    if failed:
        click.echo(f"{len(failed)} game(s) could not be read: {', '.join(failed)}.", err=True)
        raise Unfinished()


def _unroutable_lines(folder: str, listed: list[dict[str, Any]], known: set[str], seen: bool) -> None:
    """The mail of the folder's shared mailbox that no game took (``pbem status FOLDER``)."""
    from .gmfolder import unroutable_line

    new = [entry for entry in listed if entry["key"] not in known]
    if new:
        click.echo(f"Mail no game took ({len(new)} new):")
        for entry in new:
            click.echo(f"  {unroutable_line(entry)}")
        if not seen:
            click.echo(f"`pbem status {folder} --seen` marks them as seen: then only their count shows.")
    if len(listed) > len(new):
        click.echo(f"Mail no game took, already seen: {len(listed) - len(new)}.")


@main.command()
@folder_arg
@click.option("--turn", type=int, help="The turn (default: the latest; 0 is the opening).")
@click.option(
    "--player", callback=_typed_name, help="Print this player's private report instead of the public one."
)
@_explain_errors
def report(folder: str, turn: int | None, player: str | None) -> None:
    """Print a public or private report."""
    click.echo(_campaign(folder).report(turn, player).rstrip())


@main.command()
@folder_arg
@click.option("--again", is_flag=True, help="Remind players already reminded this turn, too.")
@_explain_errors
def remind(folder: str, again: bool) -> None:
    """Draft a reminder to every player who still owes orders."""
    from .tick import remind as draft_reminders

    drafted = draft_reminders(_campaign(folder), again=again)
    if drafted:
        click.echo(f"Reminders drafted: {', '.join(drafted)}. Send them with `pbem send {folder}`.")
    else:
        click.echo("Nobody to remind (every order is in, or everyone was reminded; --again to repeat).")


@main.command()
@folder_arg
@click.option(
    "--trust-clock",
    is_flag=True,
    help="The clock is right although it looks wrong (before the latest turn began, or more "
    "than 30 days past the deadline): go ahead with it, this once.",
)
@_explain_errors
def tick(folder: str, trust_clock: bool) -> None:
    """One unattended pass, for cron: fetch and acknowledge, remind, resolve
    when due, send what campaign.yaml allows (mail.auto_send), tell the GM.
    Exit 1 when the GM must act: a deadline held over undelivered turn mail,
    a clock that looks wrong, uncertain mail, mail that could not be sent."""
    from .tick import tick as run_tick

    if _many(folder):
        from functools import partial

        from . import gmfolder

        def show(done: Done) -> bool:
            for line in done.value.lines():
                click.echo(f"[{done.name}] {line}")
            r = done.value
            return not (r.uncertain or r.held or r.send_failed or r.failed)

        from .quiet import QuietBook

        with gmfolder.ticking(folder) as alone:
            if not alone:
                click.echo("Another tick is running over this folder; nothing done.")
                return None
            quiet = QuietBook(folder)  # the games an earlier tick found quiet: not read again (pbem.quiet)
            try:
                fetched = gmfolder.fetch_folder(folder, acknowledge=False, quiet=quiet)  # the ticks send
                for line in fetched.folder_lines():
                    click.echo(line)
                return _over_games(
                    folder, partial(gmfolder.tick, trust_clock=trust_clock, fetched=fetched), show
                )
            finally:
                quiet.save()
    report = run_tick(_campaign(folder), trust_clock=trust_clock)
    for line in report.lines():
        click.echo(line)
    # cron mails a failing job's output: the GM must act
    if report.uncertain or report.held or report.send_failed or report.failed:
        raise Unfinished()


@main.command()
@folder_arg
@click.option(
    "--poll",
    type=click.FloatRange(1, 3600),
    default=60,
    show_default=True,
    help="Seconds between two looks at a server without IMAP IDLE.",
)
@_explain_errors
def watch(folder: str, poll: float) -> None:
    """Stay connected and answer mail as it arrives (IMAP IDLE), for one campaign
    or a folder of them: fetch and acknowledge each mail, and run the tick's
    timers (reminders, deadlines, auto_send) every minute. SIGTERM or Ctrl-C
    stops it between batches (exit 0)."""
    from .watch import Watch, stop_on_signals

    watcher = Watch(folder, log=click.echo, doorbell={"poll": poll})
    with stop_on_signals(watcher):
        watcher.run()


@main.command()
@folder_arg
@click.argument("when")
@click.option("--from-now", is_flag=True, help="Count +2d / +36h from now, not from the current deadline.")
@click.option("--earlier", is_flag=True, help="Allow a deadline earlier than the current one.")
@_explain_errors
def deadline(folder: str, when: str, from_now: bool, earlier: bool) -> None:
    """Move the awaited turn's deadline: WHEN is "2026-12-01 20:00" (campaign
    time zone), an ISO time with offset, or relative: +2d, +36h (added to the
    current deadline; --from-now adds it to now). A deadline earlier than the
    current one needs --earlier. Drafts a notice to every player."""
    campaign = _campaign(folder)
    before = campaign.deadline() if campaign.started() else None
    moment = campaign.set_deadline(when, from_now=from_now, earlier=earlier)
    was = f" (it was {campaign.deadline_text(before)})" if before is not None else ""
    click.echo(
        f"The deadline of turn {campaign.position().game.turn} is now {campaign.deadline_text(moment)}{was}."
    )
    count = len(campaign.notices_drafted)
    click.echo(
        f"{count} notice{'s' if count != 1 else ''} drafted for the players; "
        f"read them with `pbem preview {folder}`, then `pbem send {folder}`."
    )


@main.command()
@folder_arg
@click.argument("player", callback=_typed_name)
@click.argument("first_day", metavar="FROM", required=False)
@click.argument("last_day", metavar="TO", required=False)
@click.option("--back", is_flag=True, help="PLAYER is back: their absence ends today.")
@_explain_errors
def absent(folder: str, player: str, first_day: str | None, last_day: str | None, back: bool) -> None:
    """PLAYER is away from FROM to TO (days, as 2026-12-10; both counted), as
    the campaign's absence: policy allows (as ABSENT by mail); --back ends it."""
    from .absence import PROXY, span_text

    campaign = _campaign(folder)
    if back:
        if first_day or last_day:
            raise click.UsageError("--back takes no dates")
        ended = campaign.back(player)
        if ended is None:
            click.echo(f"{player} had no absence running or to come; nothing changed.")
            return
        click.echo(f"{ended['player']} is back: the absence is over ({span_text(ended)}).")
    else:
        if not first_day or not last_day:
            raise click.UsageError(
                "give the first and the last day away: FROM TO (e.g. 2026-12-10 2026-12-20)"
            )
        outcome = campaign.absent(player, first_day, last_day)
        assert outcome.record is not None
        name = outcome.record["player"]
        then = (
            "the proxy plays their missing orders"
            if campaign.absence_policy.then == PROXY
            else "a deadline in it moves to the day after"
        )
        click.echo(f"{name} is away from {span_text(outcome.record)}: {then}.")
    if campaign.notices_drafted:
        count = len(campaign.notices_drafted)
        click.echo(
            f"The deadline of turn {campaign.position().game.turn} is now "
            f"{campaign.deadline_text(campaign.deadline())}; "
            f"{count} notice{'s' if count != 1 else ''} drafted for the players (`pbem send {folder}`)."
        )


@main.command()
@folder_arg
@click.argument("player", callback=_typed_name)
@click.option("--name", callback=_typed_name, help="The new player's name.")
@click.option("--email", help="The new player's address.")
@click.option(
    "--standby", is_flag=True, help="Give the seat to the first player of campaign.yaml's standby: list."
)
@_explain_errors
def replace(folder: str, player: str, name: str | None, email: str | None, standby: bool) -> None:
    """Give PLAYER's seat to someone else (or a new address): same seat, cards,
    tokens and orders on file."""
    if standby and (name or email):
        raise click.UsageError("--standby takes the standby list's first player: give no --name or --email")
    if not name and not email and not standby:
        raise click.UsageError("give --name and/or --email, or --standby")
    campaign = _campaign(folder)
    now = campaign.replace_player(player, name, email, standby=standby)
    left = " and its standby list" if standby else ""
    click.echo(
        f"{player}'s seat is now {now}'s; campaign.yaml{left} updated (the old one is campaign.yaml.bak)."
    )
    if campaign.welcome_drafted:
        click.echo(
            f"A notice to {now} is drafted ({campaign.welcome_drafted}); `pbem send {folder}` sends it."
        )


@main.command()
@folder_arg
@click.argument("text")
@_explain_errors
def note(folder: str, text: str) -> None:
    """Add a GM's note to the next public report."""
    _campaign(folder).add_note(text)
    click.echo("Noted; it will appear in the next public report.")


@main.command()
@click.argument("final_report", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--opening",
    type=click.Path(exists=True, dir_okay=False),
    help="The opening report (or its mail), to check the commitments it published.",
)
@_explain_errors
def verify(final_report: str, opening: str | None) -> None:
    """Check a finished game from its final report: the decks and the seed
    against the opening commitments, and every result by replaying the game.
    Exit 0 when everything checks out, 1 otherwise."""
    from .audit import RecordError, check_report
    from .record import extract, opening_commitments, report_text

    text = report_text(Path(final_report).read_bytes())
    try:
        record = extract(text)
    except ValueError as e:
        raise PbemError(f"{final_report}: {e}") from None
    published = None
    if opening:
        published = opening_commitments(report_text(Path(opening).read_bytes()))
        if not published:
            raise PbemError(f"{opening}: no commitments found; give the opening report of the game")
    try:
        verdict = check_report(text, record, published)
    except RecordError as e:
        raise PbemError(f"{final_report}: {e}") from None
    except Exception as e:  # noqa: BLE001 - hostile input: whatever it breaks, a clear error
        raise PbemError(
            f"{final_report}: the record could not be checked ({type(e).__name__}: {e}); "
            f"it is damaged or was tampered with"
        ) from None
    problems = verdict.problems
    if problems:
        click.echo(
            f"NOT VERIFIED: {len(problems)} problem{'s' if len(problems) != 1 else ''} in "
            f'"{record.get("campaign")}":'
        )
        for problem in problems:
            click.echo(f"  - {problem}")
    else:
        winners = record["winners"]
        click.echo(
            f'VERIFIED: "{record.get("campaign")}": replaying {verdict.turns} turns from the decks and the '
            f"seed gives every result in the record; winner{'s' if len(winners) > 1 else ''}: "
            f"{', '.join(winners)}."
        )
    click.echo("Proven:" if verdict.proven else "Proven: nothing.")
    for claim in verdict.proven:
        click.echo(f"  - {claim.words}.")
    click.echo("Not proven:" if verdict.unproven else "Not proven: nothing.")
    for claim in verdict.unproven:
        click.echo(f"  - {claim.words}.")
    if problems:
        raise Unfinished()


@main.command()
@click.option(
    "--cards", is_flag=True, help="Only the card reference (rank, copies, effect), as in the mails."
)
@_explain_errors
def rules(cards: bool) -> None:
    """Print the rules pbem adjudicates (docs/RULES.md), or the card reference."""
    from .reports import Renderer, card_reference_text, rules_text

    reference = card_reference_text(Renderer())
    if cards:
        click.echo(reference.rstrip())
        return
    click.echo(rules_text().rstrip())
    click.echo("\n## The cards, as the mails list them (rank, name, copies, effect)\n")
    click.echo(reference.rstrip())


@main.command()
@folder_arg
@click.option(
    "--out",
    metavar="FOLDER",
    help="Where to write the pages (default: site: out: in "
    "campaign.yaml, else FOLDER/site). The folder is replaced whole.",
)
@_explain_errors
def site(folder: str, out: str | None) -> None:
    """Write the game's web pages: a static archive of everything public."""
    from .site import build_site
    from .store import CampaignStore

    with CampaignStore(folder).locked():  # not while a resolve writes the turn, or its own site
        built = build_site(folder, out)
    click.echo(
        f"{len(built.pages)} files written to {built.out}; open {built.out / 'index.html'} "
        f"in a browser, or copy the folder to a web server."
    )


@main.command()
@folder_arg
@_explain_errors
def rollback(folder: str) -> None:
    """Undo the latest resolution (its orders stay on file)."""
    campaign = _campaign(folder)
    turn = campaign.rollback()
    click.echo(f"Turn {turn} rolled back; its orders are still on file. Correct them and resolve again.")
    if campaign.site_warning:
        click.echo(f"Warning: {campaign.site_warning}", err=True)


def _utf8_everywhere() -> None:
    """Under a pure ASCII locale (LANG=C with Python's UTF-8 mode turned off) Python would
    read "Chloé" on the command line as surrogate escapes and could not name the file
    ``private-Chloé.txt`` at all: the command starts again at once in UTF-8 mode (``-X
    utf8``), its arguments byte for byte.  Campaign files are UTF-8 whatever the locale."""
    import codecs
    import os

    if sys.flags.utf8_mode or os.name != "posix" or os.environ.get("PBEM_UTF8_REEXEC"):
        return
    if codecs.lookup(sys.getfilesystemencoding()).name != "ascii":
        return
    os.environ["PBEM_UTF8_REEXEC"] = "1"  # once: should -X utf8 not take, run as we are
    try:
        os.execv(sys.executable, [sys.executable, "-X", "utf8", *sys.orig_argv[1:]])
    except OSError:
        return  # no interpreter to start again: go on, `_typed_name` still mends the names


def run(prog_name: str | None = None) -> None:
    """The ``pbem`` command (and ``python -m pbem``): :func:`main`, then a quick exit.

    The process ends right after the command, and Python's last garbage
    collection would walk every object click, Jinja and the game made, only to
    free them as the process goes (some 10 ms, a third of a resolve's own work).
    ``gc.freeze()`` spares that walk; the command's files are all closed by then
    (each is written in a ``with`` block), and standard output is still flushed."""
    import gc

    _utf8_everywhere()
    try:
        main(prog_name=prog_name)
    finally:
        gc.freeze()


if __name__ == "__main__":  # pragma: no cover
    run()
