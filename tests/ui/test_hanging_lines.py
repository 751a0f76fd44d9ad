"""The RC artifacts section's lines (cockpit.ui.panes.overview.HangingLines): a problem's detail that
wraps at 80 columns goes on under its own text, not at the left edge under the problem's kind."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text

from cockpit.ui.panes.overview import HangingLines

KIND = "    missing       "
BLANK = " " * len(KIND)
DETAIL = "no torchlet wheel for cp313t on win_amd64 in the cpu index, nor in the fallback index"
ROWS = [
    ("", Text("RC artifacts in http://127.0.0.1:8080", style="bold")),
    ("  ", Text("cpu: 60 expected wheels, 1 missing", style="bold")),
    (KIND, Text("torchlet-2.5.0+cpu-cp313-cp313t-win_amd64.whl")),
    (BLANK, Text(DETAIL)),
]


def rendered(width: int) -> list[list]:
    console = Console(width=width, color_system=None)
    return console.render_lines(HangingLines(ROWS), console.options, pad=False)


def plain(line: list) -> str:
    return "".join(segment.text for segment in line)


@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_a_wrapped_detail_goes_on_under_its_own_text(width):
    lines = [plain(line) for line in rendered(width)]
    start = next(n for n, line in enumerate(lines) if line.startswith(BLANK + "no torchlet"))
    detail = lines[start:]
    assert " ".join(line.strip() for line in detail) == DETAIL
    if width < len(BLANK) + len(DETAIL):
        assert len(detail) > 1  # it did wrap, and every part of it is under the first
    assert all(line.startswith(BLANK) and line[len(BLANK)] != " " for line in detail)
    assert all(len(line.rstrip()) <= width for line in lines)
    assert lines[-1].strip()  # no blank line after the last row


def test_a_wheel_name_longer_than_its_room_is_folded_under_itself():
    lines = [plain(line) for line in rendered(40)]
    name = [line for line in lines if line.startswith(KIND) or (line.startswith(BLANK) and "whl" in line)]
    assert "".join(line[len(KIND) :].strip() for line in name[:3]).startswith("torchlet-2.5.0+cpu")


def test_the_kind_is_bold_and_the_section_reads_as_plain_text():
    first_problem = next(line for line in rendered(80) if plain(line).startswith(KIND))
    assert first_problem[0].text == KIND and first_problem[0].style is not None and first_problem[0].style.bold
    assert str(HangingLines(ROWS)).splitlines()[3] == BLANK + DETAIL
