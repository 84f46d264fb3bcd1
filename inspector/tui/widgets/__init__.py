"""The inspector's views, one per module; each renders a ``Selection``."""
