"""The commented ``[evidence]`` example that ``cockpit init`` writes: each sub-table turns one checklist step
automatic, shown with PyTorch's values (the defaults of ``cockpit.config_evidence``, read from there so the
example never drifts from what the cockpit assumes when a key is left out)."""

from __future__ import annotations

from cockpit.cli.init_template import toml_string
from cockpit.config_evidence import (
    PULL_DEFAULTS,
    ColabEvidence,
    DocsEvidence,
    TritonEvidence,
    ValidateBinariesEvidence,
    ValidationCommentsEvidence,
    ValidationIssueEvidence,
)
from cockpit.domain.validation import VALIDATION_ISSUE_TITLE, VALIDATION_PHRASE


def evidence_example() -> str:
    """The ``[evidence]`` tables, every line commented out: uncommenting a table makes its step automatic."""
    s = toml_string
    vb, vc, vi = ValidateBinariesEvidence(), ValidationCommentsEvidence(), ValidationIssueEvidence()
    docs, triton, colab = DocsEvidence(), TritonEvidence(), ColabEvidence()
    matrix, published = PULL_DEFAULTS["release_matrix_pr"], PULL_DEFAULTS["published_versions_pr"]
    lines = [
        "[evidence.validate_binaries]",
        "# The validation workflow: its latest run for this version and channel, and which jobs failed.",
        f"repository = {s(vb.repository)}",
        f"workflow = {s(vb.workflow)}",
        f"channel = {s(vb.channel)}",
        "# The run's title, a pattern ('*' any text); {version} is 2.5.0, {version_short} 2.5.",
        f"title = {s(vb.title)}",
        "[evidence.validation_comments]",
        "# What recognises a validation comment on a closed milestone issue, whoever wrote it.",
        f"phrase = {s(VALIDATION_PHRASE)}",
        f"max_issues = {vc.max_issues}",
        "[evidence.validation_issue]",
        "# The release's validation issue: the title it is found by, and the one the cockpit opens it with.",
        f"title = {s(vi.title)}",
        f"new_title = {s(VALIDATION_ISSUE_TITLE)}",
        "[evidence.docs_build_entry]",
        "# The docs repository's entry for the release, read at that ref.",
        f"repository = {s(docs.repository)}",
        f"ref = {s(docs.ref)}",
        f"path = {s(docs.path)}",
        "[evidence.release_matrix_pr]",
        '# Found by title, or named by url = "https://github.com/OWNER/NAME/pull/123".',
        f"repository = {s(matrix[0])}",
        f"title = {s(matrix[1])}",
        "[evidence.published_versions_pr]",
        f"repository = {s(published[0])}",
        f"title = {s(published[1])}",
        "[evidence.triton_pin_release]",
        "# The pin file on the release branch; a [evidence.triton_pin_release.versions] table maps each",
        "# pinned commit to the triton version it is published as on PyPI.",
        f"pin_path = {s(triton.pin_path)}",
        f"package = {s(triton.package)}",
        "[evidence.colab_issue]",
        "# The issue in Colab's repository naming the version (after the release).",
        f"repository = {s(colab.repository)}",
        f"title = {s(colab.title)}",
    ]
    return "\n".join("# " + line for line in lines)
