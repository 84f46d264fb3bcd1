"""The inspector's terminal UI (Textual).

Imported lazily by the CLI, only when a UI command runs; ``import inspector``
never imports this package.  What the views show is computed in
``inspector.presentation`` (no textual, no rich); the views only render it.
"""
