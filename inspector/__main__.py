"""``python -m inspector``: the same as the ``inspector`` command."""

from .cli import main

raise SystemExit(main())
