"""``python -m tapete``: the ``tapete`` command, for an environment whose scripts are not on
the PATH."""

import sys

from tapete.cli import main

if __name__ == "__main__":
    sys.exit(main())
