"""The inspector's terminal UI (Textual).

Imported lazily by the CLI, only when a UI command runs; ``import inspector``
never imports this package.  What the views show is computed in
``inspector.presentation`` (no textual, no rich); the views only render it.
``app`` builds the app; ``screens/`` and ``widgets/`` hold a screen or a widget a
module; ``lab`` is the main view's lab (its keys, state and screens);
``messages`` what the views, the palette and the lab's screens ask of the main
screen; ``keys`` every key binding; ``inspector.tcss`` the layout.
"""
