"""Someone on the release team opens `cockpit serve`'s page in a real browser (headless Chromium): they
see the overview's verdict, move between panes with the number keys, and can change nothing. The
release manager's own session keeps the state file's lock all along.

Chromium is the system's (Debian's `chromium` package), driven by Playwright's Python package; no
browser is ever downloaded. textual-serve draws the terminal with xterm.js on a canvas, so the page's
text is read from xterm's own buffer (the page's terminal object, caught as the page creates it).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from cockpit.state.store import StateStore

from .serving import HANG_GUARD, served

pytestmark = pytest.mark.slow

CATCH_THE_TERMINAL = """
Object.defineProperty(Object.prototype, 'terminal', {
  configurable: true,
  set(value) {
    Object.defineProperty(this, 'terminal', {value, writable: true, configurable: true, enumerable: true});
    if (value && value.buffer && typeof value.onData === 'function') { window.cockpitTerminal = value; }
  },
});
"""
"""textual.js keeps its xterm ``Terminal`` in ``this.terminal`` of an object the page does not expose."""

SCREEN_TEXT = """() => {
  const terminal = window.cockpitTerminal;
  if (!terminal) return '';
  const buffer = terminal.buffer.active, rows = [];
  for (let y = 0; y < terminal.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    rows.push(line ? line.translateToString(true) : '');
  }
  return rows.join('\\n');
}"""

VERDICT = re.compile(r"\b(NO-GO|GO): [^┃\n]*\S")
GATES = ("Milestone empty", "Cherry-picks clear", "CI green", "Branch diff clean", "RC artifacts valid", "Checklist")


def chromium_and_playwright():
    """The system's Chromium and Playwright's sync API, or a one-line skip saying how to get them."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser test: Playwright is missing; `pip install -e '.[test]'` installs it")
    chromium = os.environ.get("COCKPIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).is_file():
        pytest.skip(
            f"browser test: no Chromium at {chromium}; install Debian's with `apt-get install -y chromium` "
            "(.ci/run does) or name another in COCKPIT_CHROMIUM"
        )
    return chromium, sync_playwright


def wait_for_screen(page, condition, what: str, seconds: float = HANG_GUARD) -> str:
    """Poll the terminal's text until ``condition(text)`` holds; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    text = ""
    while time.monotonic() < deadline:
        text = page.evaluate(SCREEN_TEXT)
        if condition(text):
            return text
        page.wait_for_timeout(100)
    raise AssertionError(f"the browser never showed {what}; the screen was:\n{text}")


def press_until(page, key: str, condition, what: str) -> str:
    """Press ``key`` until the screen shows ``condition`` (a key typed while the focus is still moving to the
    pane's table is lost; a viewer's refused action can be tried again harmlessly)."""
    deadline = time.monotonic() + HANG_GUARD
    text = ""
    while time.monotonic() < deadline:
        page.keyboard.press(key)
        try:
            return wait_for_screen(page, condition, what, seconds=2.0)
        except AssertionError as failed:
            text = str(failed)
    raise AssertionError(text)


def overview_loaded(text: str) -> bool:
    return bool(VERDICT.search(text)) and "loading" not in text and all(gate in text for gate in GATES)


def steps_done(sandbox, capsys) -> int:
    """How many required steps ``cockpit check`` counts as done now (the headless picture of the same state)."""
    from cockpit.cli.main import main

    capsys.readouterr()
    main(["--config", str(sandbox.config_path), "--read-only", "check"])
    line = next(line for line in capsys.readouterr().out.splitlines() if ": Checklist: " in line)
    found = re.search(r"Checklist: (\d+) of \d+ required steps done", line)
    assert found is not None, line
    return int(found.group(1))


def test_a_browser_sees_the_verdict_switches_panes_and_changes_nothing(sandbox, tmp_path, capsys):
    chromium, sync_playwright = chromium_and_playwright()
    config = sandbox.config
    done_before = steps_done(sandbox, capsys)
    manager = StateStore(config.resolved_state_path)
    manager.set_signoff("perf_no_regression", done=True, who="Release Manager", note="no regression in the nightly run")
    manager.close()  # the manager steps away: a viewer could take the lock now, if it ever tried
    assert steps_done(sandbox, capsys) == done_before + 1
    state_before = config.resolved_state_path.read_bytes()
    sandbox.github.request_log.clear()
    screenshot = tmp_path / "browser-overview.png"

    with served(sandbox.config_path) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.set_default_timeout(HANG_GUARD * 1000)
            page.add_init_script(CATCH_THE_TERMINAL)
            # Nothing leaves the machine: textual-serve's page asks for a web font, which is refused here.
            page.route("**/*", lambda route: route.continue_() if _local(route.request.url) else route.abort())
            page.goto(server.url + "?read_only=0&write=1&take_over=1", wait_until="domcontentloaded")

            overview = wait_for_screen(page, overview_loaded, "the overview with every gate and the verdict")
            page.screenshot(path=str(screenshot))
            verdict = VERDICT.search(overview)
            assert verdict is not None and verdict.group(1) == "NO-GO", overview
            assert "READ-ONLY" in overview.splitlines()[0], "the header wears the viewer's badge"
            assert re.search(r"Milestone empty\s+RED\s+\d+ still open", overview)
            shown = rf"Checklist\s+RED\s+{done_before + 1} of \d+ required steps done"
            assert re.search(shown, overview), "the manager's sign-off, counted as the headless check counts it"

            # While the browser's viewer runs, the release manager can take the lock again: it never held it.
            returning = StateStore(config.resolved_state_path)
            assert not returning.read_only, returning.read_only_reason
            returning.close()

            page.focus(".xterm-helper-textarea")  # where xterm.js takes keys (a click would reach the app)
            page.keyboard.press("5")
            checklist = wait_for_screen(page, lambda t: "Checklist: " in t and "Step" in t, "the checklist pane")
            assert re.search(r"Performance run shows no regression\s+signed by Release Manager", checklist), checklist

            page.keyboard.press("/")  # find that step...
            wait_for_screen(page, lambda t: "regex (!regex hides)" in t, "the filter")
            page.keyboard.type("no regression")
            wait_for_screen(page, lambda t: re.search(r"\b1 of \d+ rows\b", t), "the one step left by the filter")
            page.keyboard.press("Enter")
            refusal = "read-only session: Tick or untick"  # ...and untick it: refused
            press_until(page, "Space", lambda t: refusal in t, "the refusal to untick")

            page.keyboard.press("1")
            wait_for_screen(page, lambda t: "Milestone empty: " in t, "the milestone pane")
            refusal = "read-only session: Remove from"  # remove the selected item from the milestone: refused
            press_until(page, "d", lambda t: refusal in t, "the refusal to remove")
        finally:
            browser.close()
        assert server.stop() == 0, server.said

    methods = {entry["method"] for entry in sandbox.github.log()}
    assert methods and methods <= {"GET", "HEAD"}, f"the viewer sent {methods - {'GET', 'HEAD'}}"
    assert config.resolved_state_path.read_bytes() == state_before
    assert screenshot.stat().st_size > 10_000, "the screenshot of the overview is empty"


def _local(url: str) -> bool:
    return url.startswith(("http://127.0.0.1:", "ws://127.0.0.1:"))
