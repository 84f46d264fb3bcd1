"""What every front end shows, computed once, below the views (no textual, no rich).

``CaseReport`` and ``SuiteReport`` say what one case and a set of cases mean
(label match, the article's rungs, call-outs, category, blame, agreement);
``Selection`` what the inspector points at; ``Session`` and ``Browse`` the cases
it shows.  ``inspector audit``, ``inspector check`` and the TUI only render them.
"""
