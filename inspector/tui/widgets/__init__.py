"""The inspector's widgets, one per module: the main view's panels (each renders a
``Selection``), the tables and editor parts of the other screens, and the safe
table, text view and input they are built on."""
