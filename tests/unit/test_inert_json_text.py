"""``inert_json_text`` (the decoding of every JSON answer) gives exactly what ``inert_json(json.loads(..))``
gives, on any JSON a server may send: its fast road is only a shortcut."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cockpit.domain.text import inert_json, inert_json_text

# Text rich in what inert changes: controls, C1, direction marks and overrides, separators, surrogates, line ends,
# backslashes and the letters of escapes, beside ordinary text.
TRICKY = st.text(
    alphabet=st.sampled_from(
        list("ab \t\n\r\\unrfb019") + ["\x1b", "\x00", "\x7f", "\x9b", "\u200e", "\u2028", "\u202e", "\u2066", "é", "☃"]
    ),
    max_size=12,
)
KEYS = st.one_of(st.sampled_from(["body", "title", "message", "name", "text"]), TRICKY)
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), TRICKY),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(VALUES, st.booleans(), st.booleans())
def test_the_shortcut_decodes_as_the_whole_walk_does(value, ascii_only, pretty):
    text = json.dumps(value, ensure_ascii=ascii_only, indent=2 if pretty else None)
    assert inert_json_text(text) == inert_json(json.loads(text))


def test_a_lone_surrogate_escape_and_an_escaped_backslash_are_read_as_the_walk_reads_them():
    for text in (
        '{"title": "\\ud800x"}',
        '{"title": "C:\\\\repo\\\\new"}',
        '["\\u001b[2J", "a\\nb"]',
        '{"body": "a\\r\\nb"}',
    ):
        assert inert_json_text(text) == inert_json(json.loads(text)), text
