"""What a verdict and a suite mean, computed once, below every front end.

``CaseReport`` says what one case means (its frozen label matched or not, the
article's rungs, call-outs, category, blame, conflicts), ``SuiteReport`` what a
set of cases means, ``labels`` the one rule for a frozen label, ``tones`` the
semantic palette, ``audit`` the audit's report.  ``inspector audit``,
``inspector check``, ``inspector mutate``, the triage and the TUI all read these.
"""
