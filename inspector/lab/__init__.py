"""The counterexample lab: pure pieces the TUI builds on (repair, saving)."""
