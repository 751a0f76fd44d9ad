"""The CI pane's timed reload has a name of its own: Textual's ``auto_refresh`` (a property every
widget has, which schedules repaints) stays Textual's."""

import inspect

from textual.widget import Widget

from cockpit.ui.panes.ci import CIPane


def test_the_ci_pane_reloads_on_its_timer_without_hiding_textuals_auto_refresh():
    assert isinstance(inspect.getattr_static(CIPane, "auto_refresh"), property)
    assert inspect.getattr_static(CIPane, "auto_refresh") is inspect.getattr_static(Widget, "auto_refresh")
    assert callable(CIPane.reload_on_timer)
