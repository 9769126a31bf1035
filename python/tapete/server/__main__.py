"""``python -m tapete.server``: the same as ``tapete serve``."""

import sys

from . import main

sys.exit(main())
