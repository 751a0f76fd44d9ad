"""``o`` opens a row's address in the browser, and says so only when a browser took it."""

from __future__ import annotations

import webbrowser

from cockpit.actions.catalog import _open


class _NoBrowser(webbrowser.BaseBrowser):
    def open(self, url: str, new: int = 0, autoraise: bool = True) -> bool:
        return False


class _Browser(webbrowser.BaseBrowser):
    def __init__(self) -> None:
        super().__init__("test")
        self.seen: list[str] = []

    def open(self, url: str, new: int = 0, autoraise: bool = True) -> bool:
        self.seen.append(url)
        return True


def test_with_no_browser_the_address_is_given_instead_of_a_claim_that_it_opened() -> None:
    webbrowser.register("cockpit-test-none", None, _NoBrowser("none"), preferred=True)
    message = _open("https://github.com/acme/torchlet/issues/1")
    assert message == "no browser on this machine; the address: https://github.com/acme/torchlet/issues/1"


def test_a_browser_that_takes_the_address_is_said_to_have_opened_it() -> None:
    browser = _Browser()
    webbrowser.register("cockpit-test-real", None, browser, preferred=True)
    assert _open("https://github.com/acme/torchlet/pull/2") == "opened https://github.com/acme/torchlet/pull/2"
    assert browser.seen == ["https://github.com/acme/torchlet/pull/2"]
