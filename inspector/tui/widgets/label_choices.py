"""The label form's list of labels (``LabelChoices``): Textual's OptionList, moved by the list keys
every list screen has (``keys.bindings("label", on="table")``: j k g G PgDn PgUp, the arrows, Home,
End), its highlight stopping at the first and the last label rather than wrapping round."""

from __future__ import annotations

from textual.widgets import OptionList

from .. import keys

__all__ = ["LabelChoices"]


class LabelChoices(OptionList, inherit_bindings=False):
    """The labels, a row each; the form submits the highlighted one (Enter, its own key)."""

    BINDINGS = keys.bindings("label", on="table")

    def action_cursor_down(self) -> None:
        if self.highlighted is None or self.highlighted < self.option_count - 1:  # not round to the first
            super().action_cursor_down()

    def action_cursor_up(self) -> None:
        if self.highlighted is None or self.highlighted > 0:  # not round to the last
            super().action_cursor_up()
