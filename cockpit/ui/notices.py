"""Notices: the cockpit's short messages in the corner (what Textual calls notifications), built here.

Why not Textual's toasts: a Textual 8.2 toast starts its expiry timer with the time its notification
had left *when the toast was made*. A toast made a moment after its notification expired (a dialog
opened or closed just then, so the new screen makes its toasts afresh) gets a negative delay, and
Textual's timer then loops without ever yielding: the whole cockpit hangs, the keyboard included
(textual ``widgets/_toast.py`` ``Toast.__init__`` reads ``notification.time_left``; seen with py-spy
in a test run). ``App.notify`` is public; the cockpit answers it here, on public widgets, so no such
timer exists:

- every notice expires through one ``set_timer`` whose delay is never below ``SHORTEST_S``;
- a notice raised again while it is still shown is not stacked a second time: it stays, says how
  many times it was raised, and its time starts again (a failing refresh says so once, not per pane);
- the notices sit above the status bar and the key line, never over them;
- they follow the screen on top (a dialog, then the main screen again), as Textual's did.

``Notices.said`` keeps what was said since the last clear (the last ``KEEP``), for tests and a later look.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal
from weakref import WeakKeyDictionary

from textual.containers import Vertical
from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen
    from textual.timer import Timer

Severity = Literal["information", "warning", "error"]

SHORTEST_S = 0.5
"""No notice is shown for less than this, whatever timeout it was given (above zero)."""
KEEP = 200
"""How many notices ``Notices.said`` remembers."""


@dataclass(eq=False)
class Notice:
    """One message: what, its title, how serious, for how long; ``times``: raised again while shown."""

    message: str
    title: str = ""
    severity: Severity = "information"
    timeout: float = 5.0
    markup: bool = False
    times: int = 1
    shown_at: float = field(default_factory=time.monotonic)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.severity, self.title, self.message)

    def body(self) -> Content:
        text = Content(self.message)
        if self.markup:
            try:
                text = Content.from_markup(self.message)
            except Exception:  # a message with brackets that are not markup: shown as it is
                text = Content(self.message)
        if self.times > 1:
            text = Content.assemble(text, (f"  (said {self.times} times)", "dim"))
        if not self.title:
            return text
        return Content.assemble((self.title, "bold"), "\n", text)


class NoticeRaised(Message):
    """Posted by ``notify`` (from any thread): the app shows ``notice`` on its own thread."""

    def __init__(self, notice: Notice) -> None:
        super().__init__()
        self.notice = notice


class NoticeCard(Static):
    """One notice; a click dismisses it."""

    DEFAULT_CSS = """
    NoticeCard {
        width: 60;
        max-width: 50%;
        height: auto;
        margin-top: 1;
        padding: 1 1;
        background: $panel-lighten-1;
        &:ansi { background: $ansi-background; }
    }
    NoticeCard.-information { border-left: outer $success; }
    NoticeCard.-warning { border-left: outer $warning; }
    NoticeCard.-error { border-left: outer $error; }
    """

    def __init__(self, notice: Notice, notices: Notices) -> None:
        super().__init__(notice.body(), classes=f"-{notice.severity}")
        self.notice = notice
        self._notices = notices

    def on_click(self, event: Click) -> None:
        event.stop()
        self._notices.dismiss(self.notice)


class NoticeRack(Vertical):
    """The corner the notices stand in, on each screen: above the status bar and the key line."""

    DEFAULT_CSS = """
    NoticeRack {
        layer: notices;
        dock: bottom;
        width: 1fr;
        height: auto;
        max-height: 70%;
        align: right bottom;
        margin-bottom: 2;
        background: transparent;
        display: none;
    }
    """

    def __init__(self, notices: Notices) -> None:
        self._cards = {notice: NoticeCard(notice, notices) for notice in notices.live}
        super().__init__(*self._cards.values())
        self.notices = notices
        self.display = bool(self._cards)

    def show(self, notices: list[Notice]) -> None:
        """Show exactly ``notices``, oldest on top; cards already shown are only updated."""
        for notice, card in list(self._cards.items()):
            if notice not in notices:
                del self._cards[notice]
                card.remove()
            else:
                card.update(notice.body())
        new = [notice for notice in notices if notice not in self._cards]
        for notice in new:
            self._cards[notice] = NoticeCard(notice, self.notices)
        if new:
            self.mount_all(self._cards[notice] for notice in new)
        self.display = bool(notices)


class Notices:
    """The app's notices: raised by ``App.notify``, shown on the screen on top, each expiring once."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.live: list[Notice] = []
        self.said: deque[Notice] = deque(maxlen=KEEP)
        self._timers: dict[Notice, Timer] = {}
        self._following = False
        self._racks: WeakKeyDictionary[Screen[Any], NoticeRack] = WeakKeyDictionary()  # one per screen

    def _follow_screens(self) -> None:
        """The notices move to each screen that comes on top (a dialog, then the main screen again)."""
        if not self._following and self.app.is_running:  # a notice raised as the app closes: no screens to follow
            self._following = True
            self.app.screen_change_signal.subscribe(self.app, lambda _screen: self.refresh())

    def messages(self) -> list[str]:
        """The messages said so far (oldest first), for a test or a look back."""
        return [notice.message for notice in self.said]

    def raise_(self, notice: Notice) -> None:
        """Show ``notice`` (on the app's thread), or count it again if the same one is on screen."""
        self.said.append(notice)
        self._follow_screens()
        if notice.timeout <= 0:  # Textual's meaning: expired already, never shown
            return
        shown = next((n for n in self.live if n.key == notice.key), None)
        if shown is not None:
            shown.times += 1
            shown.timeout = max(shown.timeout, notice.timeout)
            notice = shown
        else:
            self.live.append(notice)
        self._expire_after(notice)
        self.refresh()

    def dismiss(self, notice: Notice) -> None:
        """Take ``notice`` away now (its time is up, or it was clicked)."""
        timer = self._timers.pop(notice, None)
        if timer is not None:
            timer.stop()
        if notice in self.live:
            self.live.remove(notice)
            self.refresh()

    def clear(self) -> None:
        """Take every notice away and forget what was said (``App.clear_notifications``)."""
        self.said.clear()
        for notice in list(self.live):
            self.dismiss(notice)

    def refresh(self, *, again: bool = True) -> None:
        """Show the live notices on the screen on top (its rack is made the first time)."""
        try:
            screen = self.app.screen
        except Exception:  # no screen yet, or the app is closing: nothing to show them on
            return
        rack = self._racks.get(screen)
        if rack is not None:
            rack.show(list(self.live))
        elif self.live and screen.is_attached:  # its first notice: the rack comes with its cards
            self._racks[screen] = rack = NoticeRack(self)
            screen.mount(rack)
        elif self.live and again:  # a screen being pushed: once it is in place
            self.app.call_after_refresh(lambda: self.refresh(again=False))

    def _expire_after(self, notice: Notice) -> None:
        old = self._timers.pop(notice, None)
        if old is not None:
            old.stop()
        delay = max(SHORTEST_S, notice.timeout)
        self._timers[notice] = self.app.set_timer(delay, lambda: self.dismiss(notice), name="notice")


class SaysNotices:
    """Mixed into an ``App`` (before it): ``notify`` shows the cockpit's notices, not Textual's toasts."""

    NOTIFICATION_TIMEOUT: float

    @cached_property
    def notices(self) -> Notices:
        return Notices(self)  # type: ignore[arg-type]  # mixed into an App

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: Any = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Say ``message`` in the corner for ``timeout`` seconds (the app's default when None); any thread."""
        wait = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self.post_message(NoticeRaised(Notice(message, title, severity, wait, markup)))  # type: ignore[attr-defined]

    def on_notice_raised(self, message: NoticeRaised) -> None:
        self.notices.raise_(message.notice)

    def clear_notifications(self) -> None:
        self.notices.clear()
