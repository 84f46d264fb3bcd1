"""The inspector's terminal UI (Textual).

Imported lazily by the CLI, only when a UI command runs; ``import inspector``
never imports this package.  The modules ``session``, ``selection`` and
``pretty`` import neither textual nor rich: they hold what the views show, the
views only render it.
"""
