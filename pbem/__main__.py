"""``python -m pbem``: the same command line as the ``pbem`` script."""

from pbem.cli import run

run(prog_name="pbem")
