"""Pane 2: the tracker's cherry-pick requests joined with their PRs; detail, open, reply, bot command,
and confirming the reading of a request read from prose."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from cockpit.domain.commits import PickPrediction
from cockpit.domain.gates import GateStatus
from cockpit.domain.picks import PickFlag, PickRow, PickStatus, PRRef
from cockpit.domain.reports import PicksReport
from cockpit.domain.repos import elsewhere
from cockpit.gates import names_on
from cockpit.services.markdown import md_text
from cockpit.services.merge_readiness import tracker_caution
from cockpit.services.pick_command import suggest_class
from cockpit.services.pick_words import pick_lines, pick_word, posting_advice
from cockpit.ui.acting import perform
from cockpit.ui.confirm import TextInputScreen
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.base import Pane
from cockpit.ui.panes.pick_form import BotCommandForm
from cockpit.ui.panes.table_pane import TablePane
from cockpit.ui.pick_reading import confirm_hint, confirm_reading
from cockpit.ui.repo_rows import (
    not_shown,
    nothing_shown,
    repo_cell,
    repository_of,
    row_key,
    sources,
    spans_repositories,
)
from cockpit.ui.table_parts import RowSelected
from cockpit.ui.table_sort import Column, TableRow, by_text, status_rank
from cockpit.ui.widgets import clip, days_text, status_text

_STATUS = {
    PickStatus.ACCEPTED: (GateStatus.GREEN, "accepted"),
    PickStatus.REJECTED: (GateStatus.UNKNOWN, "rejected"),
    PickStatus.UNDER_REVIEW: (GateStatus.AMBER, "under review"),
    PickStatus.NO_RELEASE_PR: (GateStatus.RED, "no release PR"),
    PickStatus.FREE_FORM: (GateStatus.AMBER, "free-form"),
    PickStatus.UNPARSED: (GateStatus.RED, "unparsed"),
}
_SAID_BY_STATUS = {PickFlag.NO_RELEASE_PR, PickFlag.FREE_FORM, PickFlag.UNPARSED}
_WARNING_HINTS = {"do not merge", "reverted", "not merged"}
_MAX_TEXT_LINES = 400


def flag_words(row: PickRow) -> str:
    """The row's flags in words, leaving out what the Status column already says."""
    return ", ".join(f.value.replace("_", " ") for f in row.flags if f not in _SAID_BY_STATUS)


@dataclass(frozen=True)
class RequestRow:
    """A request's row: the pick with its PRs named as the table shows them (``#N`` in the home
    repository, ``owner/name#N`` elsewhere; trunk ``NA`` when the request says so)."""

    pick: PickRow
    release: str
    trunk: str
    repo: str = ""  # the repository's short name, in a release of several
    prediction: PickPrediction | None = None  # what the bot's pick of its trunk PR would do, when missing


def _status_rank(row: RequestRow) -> int:
    return status_rank(_STATUS.get(row.pick.status, (GateStatus.UNKNOWN, ""))[0])


# Status and Flags come first so they stay visible in an 80-column terminal; wide text is cut.
COLUMNS: tuple[Column[RequestRow], ...] = (
    Column("release", "Release PR", by_text(lambda row: row.release), width=16),
    Column("status", "Status", _status_rank),
    Column("flags", "Flags", by_text(lambda row: flag_words(row.pick)), width=40),
    Column("trunk", "Trunk PRs", by_text(lambda row: row.trunk), width=18),
    Column("pick", "Pick", by_text(lambda row: pick_word(row.prediction, compact=True)), width=12),
    Column("hints", "Hints", by_text(lambda row: ", ".join(row.pick.request.hints)), width=16),
    Column("asked", "Asked", lambda row: row.pick.age_days),
    Column("pr_open", "PR open", lambda row: row.pick.release_pr_age_days),
    Column("category", "Category", by_text(lambda row: row.pick.request.category), width=28),
    Column("author", "Author", by_text(lambda row: row.pick.request.author), width=16),
)
_WIDTHS = {column.id: column.width for column in COLUMNS}


class PicksPane(TablePane):
    """One row per request comment of the tracker issue."""

    PANE = "picks"
    GATES = names_on(PANE)  # declared in cockpit.gates
    SUMMARY_CLASSES = "pane-filter"
    COLUMNS = COLUMNS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "detail", "Detail", id="picks.detail", tooltip="Show the request comment and its PRs"),
        Binding("o", "open", "Open", id="picks.open", tooltip="Open the request comment in the browser"),
        Binding(
            "m",
            "reply",
            "Reply",
            id="picks.reply",
            tooltip="Reply on the tracker issue (to the selected request's author)",
        ),
        Binding(
            "c",
            "compose",
            "Bot command",
            id="picks.bot_command",
            tooltip="Compose and post the bot's cherry-pick command for the trunk PR",
        ),
        Binding(  # not on the key line (it is full at 120 columns): in ? help, and named in the detail
            "v",
            "confirm_reading",
            "Confirm reading",
            show=False,
            id="picks.confirm_reading",
            tooltip="Confirm how a request read from prose was read (again: withdraw the confirmation)",
        ),
        Binding(
            "M",
            "merge",
            "Merge",
            id="picks.merge",
            tooltip="Merge the selected request's release PR at the head shown (approved, checks green)",
        ),
    ]

    def fetch(self) -> PicksReport:
        return self.backend.load_picks()

    def show(self, report: PicksReport) -> None:
        stale_days = self.backend.config.stale_days
        shown = sources(self, report, "picks")
        rows: list[TableRow[RequestRow]] = []
        for name, each in shown:
            home = repository_of(self, name)
            predicted = {p.key: p for p in each.predictions}
            rows += [self._row(row, home, stale_days, name, predicted) for row in each.rows]
        self.draw_rows(rows)
        lead = shown[0][1] if shown else report
        unrequested = ", ".join(f"#{p.number} {p.title}" for p in lead.unrequested)
        stale_count = sum(1 for r in rows if PickFlag.STALE in r.item.pick.flags)
        trackers = " · ".join(f"{each.tracker_title} (#{each.tracker_issue})" for _name, each in shown)
        if not shown:
            self.query_one(".pane-filter", Static).update(Text(nothing_shown(self, "picks", "cherry-pick requests")))
            return
        self.query_one(".pane-filter", Static).update(
            Text(
                f"{trackers}: {len(rows)} comment{'' if len(rows) == 1 else 's'}"
                + (f" · {stale_count} waiting over {stale_days:g} days" if stale_count else "")
                + (f" · merged without a request: {unrequested}" if unrequested else "")
                + not_shown(self, "picks")
            )
        )

    def _row(
        self,
        row: PickRow,
        home: str,
        stale_days: float,
        repo: str = "",
        predicted: dict[str, PickPrediction] | None = None,
    ) -> TableRow[RequestRow]:
        request, width = row.request, _WIDTHS
        prediction = trunk_prediction(row, home, predicted or {})
        status, word = _STATUS.get(row.status, (GateStatus.UNKNOWN, str(row.status)))
        release = " ".join(p.label(home) for p in request.release_prs)
        trunk = "NA" if request.trunk_na else " ".join(p.label(home) for p in request.trunk_prs)
        # PRs a free-form request names without saying their role: marked with "?"
        trunk = " ".join([trunk, *(f"{p.label(home)}?" for p in request.mentioned_prs)]).strip()
        flags = flag_words(row)
        stale = PickFlag.STALE in row.flags
        cells: tuple[Text, ...] = (
            clip(release or "—", width["release"]),
            status_text(self, status, word),
            _styled(self, clip(flags, width["flags"]), GateStatus.RED) if flags else Text(""),
            clip(trunk, width["trunk"]),
            self._pick(prediction),
            self._hints(row, width["hints"]),
            self._age(row.age_days, stale, stale_days),
            self._age(row.release_pr_age_days, stale, stale_days),
            clip(request.category, width["category"]),
            clip(request.author, width["author"]),
        )
        if spans_repositories(self):
            cells = (repo_cell(repo), *cells)
        drawn = RequestRow(row, release, trunk, repo, prediction)
        return TableRow(row_key(self, repo, str(request.comment_id)), drawn, cells)

    def _pick(self, prediction: PickPrediction | None) -> Text:
        word = pick_word(prediction, compact=True)
        if not word or prediction is None:
            return Text("")
        if prediction.applies:
            return status_text(self, GateStatus.GREEN, word)
        return status_text(self, GateStatus.AMBER if prediction.after else GateStatus.RED, clip(word, 12).plain)

    def _hints(self, row: PickRow, width: int | None) -> Text:
        words = ", ".join(row.request.hints)
        if any(h in _WARNING_HINTS for h in row.request.hints):
            return _styled(self, clip(words, width), GateStatus.AMBER)
        return clip(words, width)

    def _age(self, days: float | None, stale: bool, stale_days: float) -> Text:
        """Days waiting; a stale pending pick's ages in the warning colour (threshold ``stale_days``)."""
        text = Text(days_text(days))
        if stale and days is not None and days > stale_days:
            return _styled(self, text, GateStatus.AMBER)
        return text

    def selected_row(self, *, quiet: bool = False) -> PickRow | None:
        drawn = self.drawn_item(self.selected_key()) if self.report else None
        row = drawn.pick if isinstance(drawn, RequestRow) else None
        if row is None and not quiet:
            self.notify("No request selected.", severity="warning")
        return row

    def _prediction(self) -> PickPrediction | None:
        drawn = self.drawn_item(self.selected_key()) if self.report else None
        return drawn.prediction if isinstance(drawn, RequestRow) else None

    def _elsewhere(self, row: PickRow | None, title: str) -> bool:
        """A domain library's request, for an action that acts on the core's tracker and PRs only:
        say so and do nothing (its ``#8190`` is not the core's ``#8190``)."""
        why = elsewhere(row, self.backend.config.release.repository, title) if row is not None else None
        if why is not None:
            self.notify(why, title="Not done", severity="warning", markup=False)
        return why is not None

    def selected_link(self) -> str | None:
        row = self.selected_row()
        return row.request.html_url if row is not None else None

    def on_rows_table_row_selected(self, event: RowSelected) -> None:
        event.stop()
        self.action_detail()

    def action_detail(self) -> None:
        row = self.selected_row()
        if row is None:
            return
        request = row.request
        head = (
            f"Status: {row.status.value.replace('_', ' ')}"
            + (f" · asked {days_text(row.age_days)} ago" if row.age_days is not None else "")
            + (
                f" · release PR open {days_text(row.release_pr_age_days)}"
                if row.release_pr_age_days is not None
                else ""
            ),
            "Flags: " + (", ".join(f.value.replace("_", " ") for f in row.flags) or "none"),
            *(f"Read from prose: \u201c{sentence}\u201d" for sentence in request.prose),
            *([self._confirm_hint(row)] if request.prose else []),
            *(f"Note: {n}" for n in row.notes),
            *(f"Hint in the comment: {h}" for h in request.hints),
            *(f"Fixes: {f}" for f in request.fixes),
            f"Comment: {request.html_url}" + (" (edited)" if _edited(request) else ""),
            *pick_lines(self._prediction(), self.backend.config.release.branch),
        )
        title = f"Request by {request.author or 'unknown'}"
        if row.status is PickStatus.UNPARSED:
            # Unread text is shown as it was written: Markdown could hide what made it unreadable.
            text = request.body.splitlines()[:_MAX_TEXT_LINES] or ["(empty comment)"]
            self.app.push_screen(DetailScreen(title, lines=(*head, "", *text)))
            return
        home = row.repository or self.backend.config.release.repository
        self.app.push_screen(DetailScreen(title, lines=head, markdown=detail_markdown(row, home)))

    def _confirm_hint(self, row: PickRow) -> str:
        return confirm_hint(self, row)

    def action_confirm_reading(self) -> None:
        """Confirm the reading of the selected prose request (kept in the state file), or withdraw it."""
        confirm_reading(self, self.selected_row(), self._reload_if_done)

    def action_open(self) -> None:
        row = self.selected_row()
        if row is not None:
            perform(self, self.PANE, "picks.open", row)

    def action_merge(self) -> None:
        row = self.selected_row()
        if row is not None and not self._elsewhere(row, "Merge the release PR"):
            again = tracker_caution(row)  # what the tracker says against it asks a second time
            perform(
                self, self.PANE, "picks.merge", row, on_done=self._reload_if_done, preview_in_worker=True, again=again
            )

    def _reload_if_done(self, ok: bool) -> None:
        if ok:
            self.reload()

    def _refused(self, action_id: str, sample: object) -> bool:
        """In a read-only session, say so (with what the action would do) before asking for input."""
        registry = self.backend.actions
        if not registry.read_only:
            return False  # whether the filled-in action applies is the registry's answer after the input
        try:
            reason = registry.refusal(action_id, sample) or "read-only session"
        except Exception:  # the reason is a courtesy; refusing is what matters
            reason = "read-only session"
        self.notify(reason, title="Not done", severity="warning", markup=False)
        return True

    def action_reply(self) -> None:
        if self._refused("picks.reply", "(your reply)"):
            return
        row = self.selected_row(quiet=True)
        if self._elsewhere(row, "Reply on the tracker"):
            return
        author = row.request.author if row is not None else ""
        tracker = self.report.tracker_issue if self.report else self.backend.config.release.tracker_issue

        def written(text: str | None) -> None:
            if text is not None:
                perform(self, self.PANE, "picks.reply", text)

        prompt = f"Reply on the tracker #{tracker}" + (f" (to {author})" if author else "")
        self.app.push_screen(TextInputScreen(prompt, value=f"@{author} " if author else ""), written)

    def action_compose(self) -> None:
        row = self.selected_row()
        if row is None or self._elsewhere(row, "Post cherry-pick command"):
            return
        request, home = row.request, self.backend.config.release.repository
        trunk = [p for p in request.trunk_prs if not p.repository or p.repository.casefold() == home.casefold()]
        pr, category = (trunk or request.trunk_prs or [PRRef(0)])[0].number, suggest_class(request.category) or ""
        fixes = request.fixes[0] if request.fixes else ""
        if self._refused("picks.bot_command", (pr, category or "docs", fixes or None)):
            return  # before what the row lacks: a viewer hears first that nothing is posted from here
        if not request.trunk_prs or request.trunk_na:
            self.notify("This request names no trunk PR: the bot can only pick a merged trunk PR.", severity="warning")
            return
        if not trunk:
            other = request.trunk_prs[0].label(home)
            self.notify(
                f"The trunk PR is {other}: post the bot command in that repository.", severity="warning", markup=False
            )
            return
        if PickFlag.TRUNK_NOT_MERGED in row.flags:
            self.notify(f"Trunk PR #{pr} is not merged: the bot refuses unmerged PRs.", severity="warning")
            return

        advice = posting_advice(self._prediction())
        if advice:
            self.notify(advice, title="Before posting", severity="warning", markup=False)

        def composed(answer: tuple[str, str] | None) -> None:
            if answer is not None:
                category, fixes = answer
                perform(self, self.PANE, "picks.bot_command", (pr, category, fixes or None))

        form = BotCommandForm(pr, self.backend.config.release.branch, fixes=fixes, category=category)
        self.app.push_screen(form, composed)


def trunk_prediction(row: PickRow, home: str, predicted: dict[str, PickPrediction]) -> PickPrediction | None:
    """The prediction for the request's first trunk PR in ``home`` that the branch still lacks."""
    for ref in row.request.trunk_prs:
        if not ref.repository or ref.repository.casefold() == home.casefold():
            found = predicted.get(f"#{ref.number}")
            if found is not None:
                return found
    return None


def detail_markdown(row: PickRow, home: str) -> str:
    """The request comment, then the body of each PR it names that was loaded, as one Markdown text."""
    parts = [row.request.body.strip() or "_(empty comment)_"]
    release = {(p.repository or home, p.number) for p in row.request.release_prs}
    trunk = {(p.repository or home, p.number) for p in row.request.trunk_prs}
    for pr in row.pulls:
        key = (pr.repository or home, pr.number)
        role = "Release PR" if key in release else "Trunk PR" if key in trunk else "Mentioned PR"
        where = f", onto {pr.base_ref}" if pr.base_ref else ""
        state = pr.state.value.replace("_", " ")
        parts.append(
            f"---\n\n### {role} #{pr.number}: {md_text(pr.title)}\n\n*{state}{md_text(where)}*"
            f"\n\n{pr.body.strip() or '_(no description)_'}"
        )
    return "\n\n".join(parts) + "\n"


def _edited(request) -> bool:
    return bool(request.created_at and request.updated_at and request.updated_at > request.created_at)


def _styled(pane: Pane, text: Text, status: GateStatus) -> Text:
    text.stylize(status_text(pane, status, " ").style)
    return text
