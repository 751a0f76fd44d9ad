"""The pictures as text: Unicode sparklines and the report's "Trends" section in Markdown.

The UI and the report draw the same series (``cockpit.services.trends``); this is the text form,
for a pasted report and for a terminal without the chart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from cockpit.domain.reports import ReleaseDays, ReleasePicture
from cockpit.services.burn_marks import burn_down_marks, legend, mark_line
from cockpit.services.markdown import md_code, md_text
from cockpit.services.rc_sizes import RCSizes, growing_towards_limit, megabytes, rc_size_series, short_tag
from cockpit.services.trends import BurnDown, CIStrip, DailySeries, PickFlow, burn_down, ci_strip, pick_flow
from cockpit.services.variant_sizes import pypi_matcher, size_key

BARS = "▁▂▃▄▅▆▇█"
OUTCOME_MARK = {"pass": "✓", "fail": "✗", "pending": "·"}
REPORT_WIDTH = 60
"""The widest sparkline the report draws: longer series are folded, each cell the most of its days."""


def folded(values: Sequence[int], width: int) -> tuple[int, ...]:
    """``values`` in at most ``width`` cells, each the largest of the days it covers (a peak stays seen)."""
    if width <= 0 or len(values) <= width:
        return tuple(values)
    cells = []
    for cell in range(width):
        lo, hi = cell * len(values) // width, (cell + 1) * len(values) // width
        cells.append(max(values[lo : max(hi, lo + 1)]))
    return tuple(cells)


def sparkline(values: Sequence[int], width: int = REPORT_WIDTH, *, top: int | None = None) -> str:
    """One bar a value (folded to ``width``), scaled from 0 to ``top`` (the largest value by default);
    a zero is the lowest bar, so the line keeps its length."""
    cells = folded(values, width)
    peak = max(top if top is not None else max(cells, default=0), 1)
    return "".join(BARS[min(len(BARS) - 1, round(v * (len(BARS) - 1) / peak))] if v > 0 else BARS[0] for v in cells)


def outcome_line(strip: CIStrip) -> str:
    """✓ passed, ✗ failed, · pending, oldest first."""
    return "".join(OUTCOME_MARK[o] for o in strip.outcomes)


def _span(series: DailySeries) -> str:
    days = len(series.values)
    return f"{series.start.isoformat()} to {series.end.isoformat()} ({days} day{'s' if days != 1 else ''})"


def burn_down_lines(picture: BurnDown, days: ReleaseDays | None = None) -> list[str]:
    series = picture.open_items
    if not series.values:
        return ["- Milestone burn-down: no items yet"]
    now, peak = series.values[-1], max(series.values)
    target = f"; due {picture.target.isoformat()}" if picture.target else ""
    line = f"- Milestone burn-down, open items {_span(series)}: `{sparkline(series.values)}` now {now}, peak {peak}"
    marks = burn_down_marks(days) if days is not None else ()
    if not marks:
        return [line + target]
    return [
        line + target,
        f"  - open   `{sparkline(series.values)}`",
        f"  - marked `{mark_line(series, marks, REPORT_WIDTH)}` {md_text(legend(series, marks))}",
    ]


def pick_flow_lines(flow: PickFlow) -> list[str]:
    if not flow.arrived.values:
        return ["- Cherry-pick flow: no requests yet"]
    top = max(max(flow.arrived.values), max(flow.resolved.values))
    return [
        f"- Cherry-pick flow, {_span(flow.arrived)}:",
        f"  - arrived  `{sparkline(flow.arrived.values, top=top)}` {sum(flow.arrived.values)} in all",
        f"  - resolved `{sparkline(flow.resolved.values, top=top)}` {sum(flow.resolved.values)} in all",
        f"  - pending  `{sparkline(flow.pending.values)}` {flow.pending.values[-1]} now",
    ]


def ci_history_lines(strips: Sequence[CIStrip]) -> list[str]:
    if not strips:
        return []
    rows = [
        "",
        "| Repository | Last runs of the required workflows (oldest first) | First red after the last green |",
        "|---|---|---|",
    ]
    for strip in strips:
        red = strip.first_red
        broke = (
            (
                f"{md_text(red.name)} at {md_code(red.head_sha[:12])}"
                + (f" on {red.created_at.date().isoformat()}" if red.created_at else "")
            )
            if red
            else "none"
        )
        rows.append(
            f"| {md_code(strip.repository)} @ {md_code(strip.branch)} | `{outcome_line(strip) or 'no runs'}` "
            f"| {broke} |"
        )
    return rows


def rc_size_lines(series: RCSizes, goes_to_pypi: Callable[[str], bool] | None = None) -> list[str]:
    """A small table: each family's largest wheel, its size in MB at each RC, and PyPI's limit where it
    faces it (``goes_to_pypi(filename)``; None: every wheel does); a download-site wheel shows "-"."""
    if not series.wheels:
        return []
    limit = megabytes(series.limit_bytes)
    rcs = " | ".join(md_text(short_tag(t)) for t in series.tags)
    rows = [
        "",
        "RC sizes (MB, the largest wheel of each package and variant; earlier RCs as the cockpit recorded them):",
        "",
        f"| Wheel | {rcs} | Limit |",
        "|---|" + "---:|" * len(series.tags) + "---:|",
    ]
    bound = [w for w in series.wheels if goes_to_pypi is None or goes_to_pypi(w.filename)]
    for wheel in series.wheels:
        faces = wheel in bound
        cells = " | ".join(_size_cell(series, s) if faces else megabytes(s) for s in wheel.sizes)
        rows.append(f"| {md_code(wheel.filename)} | {cells} | {limit if faces else '-'} |")
    growing = growing_towards_limit(series, bound)
    if growing:
        names = ", ".join(md_code(w.filename) for w in growing)
        rows += ["", f"Growing towards the limit (90% or more of it now): {names}"]
    return rows


def faces_pypi_limit(bound: Sequence[tuple[str, Sequence[str]]]) -> Callable[[str], bool] | None:
    """Whether a wheel (by filename) faces PyPI's limit under ``[storage.pypi_bound]``; None without one."""
    if not bound:
        return None
    goes_to_pypi = pypi_matcher(bound)

    def faces(filename: str) -> bool:
        key = size_key(filename)
        return key is None or goes_to_pypi(key[1], key[3])

    return faces


def _size_cell(series: RCSizes, size: int | None) -> str:
    over = size is not None and size > series.limit_bytes
    return f"**{megabytes(size)}** ✗" if over else megabytes(size)


def trends_markdown(picture: ReleasePicture, today: date) -> list[str]:
    """The rows of the "Trends" section of ``cockpit report``: each picture as a sparkline line or a small table."""
    lines: list[str] = []
    if picture.milestone is not None:
        days = picture.branch_diff.days if picture.branch_diff is not None else None
        lines += burn_down_lines(burn_down(picture.milestone.milestone, picture.milestone.items, today), days)
    if picture.picks is not None:
        lines += pick_flow_lines(pick_flow(picture.picks.rows, today))
    if picture.ci is not None:
        lines += ci_history_lines([ci_strip(h) for h in picture.ci.history])
    if picture.storage is not None:
        storage = picture.storage
        lines += rc_size_lines(
            rc_size_series(storage.rc_sizes, storage.report.size_limit_mb), faces_pypi_limit(storage.pypi_bound)
        )
    return lines
