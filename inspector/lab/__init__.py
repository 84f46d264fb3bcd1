"""The counterexample lab: change one thing in an answer, see which check flips.

Pure (no textual, no rich): the terminal UI and the headless ``mutate`` command
both build on it.  ``mutations`` declares every mutation once; ``mutate`` applies
them all to a suite's accepted cases and reports what the contract caught;
``repair`` computes the smallest edits that make a rejected answer ACCEPT;
``save`` keeps an edited case as a counterexample, with its provenance.
"""
