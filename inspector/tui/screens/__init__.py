"""The inspector's screens, one per module: the main view, the screens pushed over
it (help, the summary, the mutation report, the lab's menu, forms and editors),
and the triage's.  Their layout is inspector.tcss's."""
