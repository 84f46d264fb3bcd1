"""The view-models: what the TUI's screens show, computed below the views (no textual, no rich).

``Selection`` is what the inspector points at; ``Session`` and ``Browse`` the
cases it shows; the lab's view-models (the mutation menu, the editors, repair,
save, predict, the exercise, the mutation report) and the triage's (a run, its
overview, a group's records) hand the screens titles, tones and targets.  What
a verdict means is ``inspector.reports``'; the engines are ``inspector.lab`` and
``inspector.triage``.
"""
