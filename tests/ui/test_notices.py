"""The cockpit's own notices (cockpit.ui.notices), in place of Textual's toasts.

Textual 8.2's toast made a moment after its notification expired starts a timer with a negative
delay, which loops without yielding and hangs the app; these tests hold the replacement to what a
release manager sees: a message in the corner above the status bar and the key line, said once
however often it is raised, following dialogs, gone after its time, from any thread.
"""

from __future__ import annotations

import threading

import pytest
from textual.app import App, ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from cockpit.ui.notices import SHORTEST_S, NoticeCard, NoticeRack, SaysNotices
from tests.pilot import wait_until

pytestmark = pytest.mark.anyio

SIZE = (100, 30)


class Corner(SaysNotices, App[None]):
    CSS = "Screen { layers: default notices; } #body { height: 1fr; } #status { height: 1; }"  # as app.tcss

    def compose(self) -> ComposeResult:
        yield Static("body", id="body")
        yield Static("status bar", id="status")
        yield Footer()


class Dialog(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Static("a dialog")


def cards(app: App[None]) -> list[str]:
    return [str(card.notice.message) for card in app.screen.query(NoticeCard)]


async def test_a_notice_stands_above_the_status_bar_and_the_key_line_and_goes_after_its_time():
    app = Corner()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.notify("Fetched 3 tags", title="Git", timeout=1.0, markup=False)
        await wait_until(pilot, lambda: cards(app) == ["Fetched 3 tags"])
        card = app.screen.query_one(NoticeCard)
        status = app.query_one("#status")
        assert card.region.bottom <= status.region.y, (card.region, status.region)
        assert not list(app.query("Toast")), "Textual's own toasts are never made"
        await wait_until(pilot, lambda: cards(app) == [])
        assert app.notices.messages() == ["Fetched 3 tags"]


async def test_the_same_notice_raised_again_is_one_card_that_says_how_often():
    app = Corner()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for _ in range(3):
            app.notify("GitHub did not answer", severity="error", timeout=30, markup=False)
        await wait_until(pilot, lambda: len(cards(app)) == 1 and app.notices.live[0].times == 3)
        text = str(app.screen.query_one(NoticeCard).render())
        assert "GitHub did not answer" in text and "said 3 times" in text
        app.notify("Another thing", timeout=30)
        await wait_until(pilot, lambda: len(cards(app)) == 2)


async def test_a_notice_with_almost_no_time_left_still_shows_and_expires_without_a_hang():
    """What hung Textual: a timer of no (or negative) time. Here every notice has at least SHORTEST_S."""
    app = Corner()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.notify("brief", timeout=1e-9)
        await wait_until(pilot, lambda: cards(app) == ["brief"])
        await wait_until(pilot, lambda: cards(app) == [], seconds=SHORTEST_S + 20)
        app.notify("never shown", timeout=0)  # Textual's meaning of zero: expired already
        await pilot.pause(0.1)
        assert cards(app) == [] and app.notices.messages()[-1] == "never shown"


async def test_dialogs_opened_and_closed_while_notices_expire_never_stop_the_app():
    """The moment that hung Textual's toasts: a new screen making its notices as one expires."""
    app = Corner()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for round_ in range(12):
            app.notify(f"notice {round_}", timeout=SHORTEST_S * (round_ % 3) / 2)
            await app.push_screen(Dialog())
            await pilot.pause(0.05)
            app.pop_screen()
            await pilot.pause(0.05)
        await wait_until(pilot, lambda: cards(app) == [])
        await pilot.press("a")  # the app still answers keys


async def test_notices_follow_a_dialog_and_come_back_when_it_closes():
    app = Corner()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.notify("Signed off", timeout=30)
        await wait_until(pilot, lambda: cards(app) == ["Signed off"])
        await app.push_screen(Dialog())
        await wait_until(pilot, lambda: cards(app) == ["Signed off"])
        app.notify("In the dialog", timeout=30)
        await wait_until(pilot, lambda: cards(app) == ["Signed off", "In the dialog"])
        app.pop_screen()
        await wait_until(pilot, lambda: cards(app) == ["Signed off", "In the dialog"])
        app.clear_notifications()
        await wait_until(pilot, lambda: cards(app) == [])
        assert app.notices.messages() == []


async def test_a_worker_thread_may_say_something():
    app = Corner()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        thread = threading.Thread(target=lambda: app.notify("from a thread", timeout=30))
        thread.start()
        thread.join(20)
        await wait_until(pilot, lambda: cards(app) == ["from a thread"])


async def test_a_message_with_brackets_that_are_not_markup_is_shown_as_written():
    app = Corner()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.notify("[/oops] a path [like this", timeout=30)  # markup=True, as Textual's default
        await wait_until(pilot, lambda: len(cards(app)) == 1)
        assert "[/oops] a path [like this" in str(app.screen.query_one(NoticeCard).render())
        assert len(app.screen.query(NoticeRack)) == 1
