"""A value built on first use, once, in whichever thread asks first; typed, unlike a proxy."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar, cast

T = TypeVar("T")


class Lazy(Generic[T]):
    """``factory()`` called on the first ``get()``, its result kept; later calls return it at once.

    Building the GitHub client or the storage adapters imports httpx and builds its TLS context, the
    git adapter imports GitPython: together most of a second. Held in a ``Lazy``, that cost lands in
    the pane loads' worker threads instead of before the first screen. A factory that raises builds
    nothing: the next ``get()`` tries again.
    """

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._value: T | None = None
        self._built = False
        self._lock = threading.Lock()

    @property
    def built(self) -> bool:
        """Whether the value exists yet (asking does not build it)."""
        return self._built

    def get(self) -> T:
        """The value, built now if this is the first call."""
        if not self._built:
            with self._lock:
                if not self._built:
                    self._value = self._factory()
                    self._built = True
        return cast(T, self._value)  # set above; a cast, as T may itself allow None
