"""Free-form cherry-pick requests: the PRs a sentence mentions and, where its words say so, their role.

"We want to cherrypick <url>" names a trunk PR (the one to pick); "the cherry-pick PR is #7951"
and "release PR: #7951" name a release PR; "main PRs #7928 and #7950" both trunk. A PR no word
places is kept as mentioned. A sentence that names a PR and asks for it in a release ("#N could
also be included in 1.2", "<url> needs to be in 2.5 as well") is a prose request; one that says
a PR is not going in is not. Also here: what a comment is when it is not a request (a bot's
message, a question to someone, a thank-you reply).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from cockpit.domain.picks import PRRef
from cockpit.services.pick_labels import RELEASE, TRUNK
from cockpit.services.pick_text import pull_refs_at

# The last of these before a reference decides its role.
_ROLE = re.compile(
    r"(?P<release>\b(?:release(?:\s+branch)?|cherry\s?picks?|backports?|picks?)\s+(?:prs?|pull\s+requests?)\b"
    r"|\b(?:release|cherry\s?picks?|backports?)\s*:"
    r"|\b(?:cherry\s?picked|backported)\s+(?:in|as|at|into|via|by|with)\b)"
    r"|(?P<trunk>\b(?:main|trunk|master|upstream|landed)\b)"
    r"|(?P<verb>\b(?:cherry\s?pick|pick|backport)(?:s|ing)?\b)",
    re.IGNORECASE,
)
# Between two references only these words: the second one has the role of the first ("#1 and #2").
_JOINER = re.compile(r"(?:[\W_]|\b(?:and|or|also|plus|x)\b)*", re.IGNORECASE)
# A reference right after these is an issue, not a PR.
_ISSUE_WORDS = re.compile(r"\b(?:issues?|fix(?:es|ed)?|closes|resolves|bug)\W*$", re.IGNORECASE)
_BOT_MESSAGE = re.compile(
    r"(?:#{1,6}\s*)?(?:merge\s+(?:started|failed|completed|successful)|cherry\s?picking\s+#?\d|successfully\s+rebased"
    r"|rebase\s+failed|reverting\s+pr|revert\s+(?:started|failed)|@\w[\w-]*bot\b)",
    re.IGNORECASE,
)
# Without a role word, a PR mentioned in a sentence is a request only if the comment asks for a pick.
_ASKS = re.compile(
    r"\b(?:cherry\s?pick\w*|pick(?:s|ed|ing)?|backport\w*|port|include|please|need\w*|take)\b", re.IGNORECASE
)
# "in 1.2", "into v2.5.0", "in the release", "in the next RC": a sentence naming the release it asks for
# ("into the release branch" names a branch, not the release).
_IN_RELEASE = re.compile(
    r"\b(?:in|into)\s+(?:the\s+|this\s+|next\s+|the\s+next\s+)?(?:v?(?P<number>\d{1,3}\.\d{1,3})(?:\.\d{1,3})?(?![\d.]*\w)"
    r"|release\b(?!\s+(?:branch|pr|notes|team|managers?)\b)|rc\d{0,2}\b)",
    re.IGNORECASE,
)
_DECLINED = re.compile(r"\b(?:not|never|no\s+longer|rejected|declined|too\s+late)\b|n't\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,3}[.)])\s")
_ADDRESSED = re.compile(r"(?:hi|hey|hello)?\W*@[\w-]+", re.IGNORECASE)
_REPLY = re.compile(
    r"(?:thanks|thank\s+you|thx|ty|lgtm|done|merged|approved|ack|\+1|sounds\s+good|ok(?:ay)?|closing|reverted|great)\b",
    re.IGNORECASE,
)


def prose_refs(line: str, repository: str) -> list[tuple[str | None, PRRef]]:
    """The PRs one line of prose mentions, each with its role (``TRUNK``, ``RELEASE``) or None."""
    return [(role, ref) for _start, role, ref in prose_refs_at(line, repository)]


def prose_refs_at(line: str, repository: str) -> list[tuple[int, str | None, PRRef]]:
    """``prose_refs`` with where each reference starts in ``line``."""
    out: list[tuple[int, str | None, PRRef]] = []
    previous_end, previous_role = 0, None
    for start, end, ref in pull_refs_at(line, repository, min_digits=2):
        before = line[previous_end:start]
        if out and _JOINER.fullmatch(before):
            role = previous_role
        elif _ISSUE_WORDS.search(before[-40:]) and not ref.repository and line[start] == "#":
            previous_end = end
            continue  # "fixes #123": an issue
        else:
            role = _role(before)
        out.append((start, role, ref))
        previous_end, previous_role = end, role
    return out


def _role(before: str) -> str | None:
    text = before[-200:].replace("-", " ")
    last = None
    for m in _ROLE.finditer(text):
        last = m
    if last is None:
        return None
    return RELEASE if last.group("release") else TRUNK


def sentences(line: str) -> list[tuple[int, str]]:
    """The sentences of ``line`` (ending in ``.``, ``!`` or ``?``), each with where it starts."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(line):
        out.append((start, line[start : m.start()]))
        start = m.end()
    out.append((start, line[start:]))
    return out


def sentence_at(spans: list[tuple[int, str]], pos: int) -> str:
    """Of ``sentences(line)``, the one that holds position ``pos``."""
    at = bisect_right([start for start, _ in spans], pos) - 1
    return spans[max(at, 0)][1].strip()


def asks_in_release(sentence: str, release: str = "") -> bool:
    """Whether a sentence asks for what it names in a release: "make sure #N gets into 1.2.0",
    "could #N be accepted in v1.2.0 as well?"; not "#N is not going into 1.2". With ``release``
    (this release's version, "1.2.0"), a release named by its number must be this one (1.2)."""
    if _DECLINED.search(sentence):
        return False
    this = ".".join(release.lstrip("v").split(".")[:2])
    return any(not this or not m.group("number") or m.group("number") == this for m in _IN_RELEASE.finditer(sentence))


def is_list_item(line: str) -> bool:
    """A bullet, task or numbered list line: a PR listed there is asked for even without a word."""
    return bool(_LIST_ITEM.match(line))


def asks_for_picks(text: str) -> bool:
    """Whether a comment speaks of picking ("please include #7810"): then the PRs it names are asked for."""
    return bool(_ASKS.search(text.replace("-", " ")))


def not_a_request(first_line: str, text: str, *, roles_told: bool, asks_release: bool = False) -> bool:
    """Whether a comment with PR links is still no request: a bot's message, a question put to
    someone ("@dev can you ...?") unless it names a PR and the release it is asked for in
    (``asks_release``), or a thank-you reply that says nothing of roles.
    """
    if _BOT_MESSAGE.match(first_line):
        return True
    if _ADDRESSED.match(first_line) and "?" in text and not asks_release:
        return True
    return not roles_told and bool(_REPLY.match(first_line))
