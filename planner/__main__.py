"""``python -m planner``: the ``planner`` command (the same as ``python -m planner.cli``)."""

import sys

try:
    from planner.cli import entry
except KeyboardInterrupt:  # Ctrl-C while the package imports: one line, as in main()
    sys.stderr.write("planner: interrupted\n")
    sys.exit(130)

entry()
