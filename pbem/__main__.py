"""``python -m pbem``: the same command line as the ``pbem`` script."""

from pbem.cli import main

main(prog_name="pbem")
