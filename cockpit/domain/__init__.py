"""Frozen dataclasses for everything the cockpit reasons about. No I/O, no Textual, no libraries."""
