"""The pane tabs: one line of titles with the shown pane's title lit, and a bar under it.

One widget draws all six tabs. Textual's ``TabbedContent`` builds some fifteen widgets for the
same two lines (tabs, an animated underline, their containers), which was about a third of the
time to the first screen. The panes are switched by number keys, the palette, or a click on a
title; there is no separate tab focus to move with the arrow keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual.content import Content
from textual.widget import Widget


class PaneTabs(Widget):
    """``titles`` as (name, title) pairs; ``show(name)`` lights that one."""

    DEFAULT_CSS = """
    PaneTabs {
        height: 2;
        link-style: none;  /* a title is clickable, but it is a tab, not a link */
        link-color: $foreground 50%;
        link-style-hover: none;
        link-color-hover: $foreground;
        link-background-hover: $foreground 10%;
        & > .pane-tabs--tab { color: $foreground 50%; }
        & > .pane-tabs--active { color: $foreground; text-style: bold; }
        & > .pane-tabs--bar { color: $foreground 10%; }
        & > .pane-tabs--bar-active { color: $block-cursor-background; }
        &:ansi {
            & > .pane-tabs--tab { text-style: dim; }
            & > .pane-tabs--active { text-style: not dim bold; }
            & > .pane-tabs--bar { color: $border-blurred; }
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "pane-tabs--tab",
        "pane-tabs--active",
        "pane-tabs--bar",
        "pane-tabs--bar-active",
    }
    ALLOW_SELECT = False

    def __init__(self, titles: Iterable[tuple[str, str]], *, active: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.titles = tuple(titles)
        self.active = active

    def show(self, name: str) -> None:
        self.active = name
        self.refresh()

    def render(self) -> Content:
        labels, bar = [], []
        for name, title in self.titles:
            lit = name == self.active
            label = f" {title} "
            style = self.get_visual_style("pane-tabs--active" if lit else "pane-tabs--tab")
            content = Content.styled(label, style)
            # The others are clickable (the link colours above); the shown one keeps its own colour.
            labels.append(content if lit else content.stylize(f"@click=app.show_pane('{name}')"))
            bar_style = self.get_visual_style("pane-tabs--bar-active" if lit else "pane-tabs--bar")
            bar.append(Content.styled("━" * len(label), bar_style))
        width = self.size.width or 80
        rest = max(0, width - sum(len(f" {title} ") for _name, title in self.titles))
        bar.append(Content.styled("━" * rest, self.get_visual_style("pane-tabs--bar")))
        return Content("\n").join([Content("").join(labels), Content("").join(bar)])
