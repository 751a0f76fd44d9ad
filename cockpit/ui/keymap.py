"""The user's ``[keymap]``: binding ids remapped to other keys, or unbound with an empty string.

Textual's ``App.set_keymap`` remaps by binding id but keeps a binding whose new key is ``""`` on
its old key (an empty string is falsy to it), so unbinding is done here: the binding is removed
from the node that declares it.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.binding import Binding
from textual.dom import DOMNode

UNBOUND_LABEL = "unbound"


def split_keymap(keymap: Mapping[str, str]) -> tuple[dict[str, str], frozenset[str]]:
    """(remapped ids -> keys, unbound ids) from the config's ``[keymap]`` table."""
    remap = {bid: keys for bid, keys in keymap.items() if keys.strip()}
    return remap, frozenset(bid for bid, keys in keymap.items() if not keys.strip())


def drop_unbound(node: DOMNode, unbound: frozenset[str]) -> None:
    """Remove the bindings with an unbound id from ``node`` (its own copy of its class's bindings)."""
    if not unbound:
        return
    keys = node._bindings.key_to_bindings
    for key in list(keys):
        kept = [b for b in keys[key] if b.id not in unbound]
        if kept:
            keys[key] = kept
        else:
            del keys[key]


def _keys(binding: Binding) -> set[str]:
    return {key.strip() for key in binding.key.split(",")}


def merged_bindings(cls: type) -> list[Binding]:
    """The ``Binding``s a node of ``cls`` answers to: its own first, then its base classes' whose
    keys it did not take over (as Textual merges them). Tuples in BINDINGS have no id: skipped."""
    out: list[Binding] = []
    taken: set[str] = set()
    for base in cls.__mro__:
        declared = [b for b in base.__dict__.get("BINDINGS", ()) if isinstance(b, Binding)]
        kept = [b for b in declared if not _keys(b) & taken]
        out.extend(kept)
        taken |= {key for b in declared for key in _keys(b)}
    return out


def key_label(binding: Binding, keymap: Mapping[str, str]) -> str:
    """The key a person presses for ``binding`` under ``keymap`` ("unbound" when unbound)."""
    if binding.id and binding.id in keymap:
        keys = keymap[binding.id].strip()
        return keys if keys else UNBOUND_LABEL
    return binding.key_display or binding.key
