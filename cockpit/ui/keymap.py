"""The user's ``[keymap]``: binding ids remapped to other keys, or unbound with an empty string.

Both go through Textual's ``App.set_keymap``, which remaps by binding id. It keeps a binding whose
new key is ``""`` on its old key (an empty string is falsy to it), so an unbound id is given a key
of its own that no terminal sends (``unbound_key``): its old key is free, the binding can no longer
be pressed, and the key line (``cockpit.ui.footer``) leaves it out. The palette still runs it.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.binding import Binding

UNBOUND_LABEL = "unbound"
_UNBOUND_PREFIX = "cockpit-unbound:"


def split_keymap(keymap: Mapping[str, str]) -> tuple[dict[str, str], frozenset[str]]:
    """(remapped ids -> keys, unbound ids) from the config's ``[keymap]`` table."""
    remap = {bid: keys for bid, keys in keymap.items() if keys.strip()}
    return remap, frozenset(bid for bid, keys in keymap.items() if not keys.strip())


def unbound_key(binding_id: str) -> str:
    """The key an unbound binding is moved to: a name no terminal sends, one per binding (no clashes)."""
    return _UNBOUND_PREFIX + binding_id


def is_unbound_key(key: str) -> bool:
    """Whether ``key`` is where an unbound binding was moved (``unbound_key``)."""
    return key.startswith(_UNBOUND_PREFIX)


def textual_keymap(keymap: Mapping[str, str]) -> dict[str, str]:
    """The config's ``[keymap]`` as ``App.set_keymap`` takes it: remapped ids to their keys, unbound
    ids to their ``unbound_key``."""
    remap, unbound = split_keymap(keymap)
    return {**remap, **{binding_id: unbound_key(binding_id) for binding_id in unbound}}


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
