"""The HTML reports (``--format html``): self-contained pages rendered from the same reports and
view-models the text and JSON outputs use; no textual, no rich, no script."""
