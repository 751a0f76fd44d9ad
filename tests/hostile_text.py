"""Hostile strings an attacker can put in a title, a comment, a job name or a commit, and the check
that none of their active characters reaches a terminal or a pasted report."""

from __future__ import annotations

# Each reaches the terminal as a command when printed raw.
CLEAR_SCREEN = "\x1b[2J\x1b[H"
CLIPBOARD_BEL = "\x1b]52;c;aGFja2Vk\x07"  # OSC 52: write "hacked" to the clipboard, BEL-terminated
CLIPBOARD_ST = "\x1b]52;c;aGFja2Vk\x1b\\"  # the same, ST-terminated
HYPERLINK = "\x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\"  # OSC 8
ONE_BYTE_CSI = "\x9b31m"  # C1 control: CSI in one byte
RIGHT_TO_LEFT = "\u202eexe.txt\u202c"  # reads as "txt.exe"
TERMINAL_ATTACKS = {
    "clear screen": CLEAR_SCREEN,
    "OSC 52 clipboard (BEL)": CLIPBOARD_BEL,
    "OSC 52 clipboard (ST)": CLIPBOARD_ST,
    "OSC 8 hyperlink": HYPERLINK,
    "NUL and DEL": "a\x00b\x7fc",
    "C1 CSI": ONE_BYTE_CSI,
    "bidi override": RIGHT_TO_LEFT,
    "isolates and marks": "\u2066x\u2069\u2067y\u2069\u2068z\u2069\u200e\u200f\u061c",
    "carriage return": "innocent\roverwritten",
}
# Each makes something of a pasted Markdown report: a link, an image, a ping, HTML.
MARKDOWN_ATTACKS = {
    "link": "[release notes](https://evil.example/phish)",
    "image": "![pixel](https://evil.example/track.png)",
    "mention": "cc @alice",
    "team mention": "cc @acme/release-team",
    "escaped mention": "\\@bob",
    "emphasis": "**urgent** _now_ ~~never~~",
    "img onerror": "<img src=x onerror=alert(1)>",
    "script": "<script>alert(1)</script>",
    "entity mention": "&#64;carol",
    "backticks": "`unbalanced",
    "math": "$\\color{red}{FAIL}$",
}
# One line that carries every terminal attack (for titles, names, job names).
PAYLOAD = " ".join(TERMINAL_ATTACKS.values()) + " " + " ".join(MARKDOWN_ATTACKS.values())

_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def active_characters(text: str) -> list[str]:
    """Every character of ``text`` a terminal would act on: C0 (but newline and tab), DEL, C1,
    and the bidirectional controls; as their escapes, for a readable assertion message."""
    found = [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F or c in _BIDI]
    return sorted({c.encode("unicode_escape").decode() for c in found})
