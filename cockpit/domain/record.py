"""``@record``: a frozen dataclass that costs one compiled method to define instead of six.

``@dataclass(frozen=True)`` writes and compiles six methods for every class when its module is
imported (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``).
The config and the few domain classes read before the first screen are defined on every start, and
compiling their methods was about a quarter of the cockpit's own work before that screen. A record
compiles only ``__init__``; the other five are the shared functions below, which behave as the
generated ones do: equality and hash over the fields that compare, in order, and only between
instances of the same class; ``Name(field=value, ...)`` as the repr; and no field can be set or
deleted once ``__init__`` has set it (``dataclasses.FrozenInstanceError``), nor any other attribute.

``dataclasses.fields``, ``replace``, ``asdict`` and pickling work as on any dataclass, and type
checkers treat a record as a frozen dataclass (``dataclass_transform``). Use it for classes defined
before the first screen; elsewhere ``@dataclass(frozen=True)`` is as good and more familiar.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, fields
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T", bound=type)


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, name) for name in type(self).__record_compared__)


def _eq(self: Any, other: object) -> Any:  # a bool, or NotImplemented
    if other.__class__ is self.__class__:
        return _values(self) == _values(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(_values(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self).__record_shown__)
    return f"{type(self).__qualname__}({shown})"


def _setattr(self: Any, name: str, value: object) -> None:
    # __init__ sets each field once; after that, as on a frozen dataclass, nothing can be set.
    if name in self.__dict__ or name not in type(self).__dataclass_fields__:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


@dataclass_transform(frozen_default=True)
def record(cls: T) -> T:
    """Make ``cls`` a frozen dataclass whose only compiled method is ``__init__``."""
    own = set(vars(cls))  # what the class writes itself is kept, as dataclass keeps it
    if own & {"__setattr__", "__delattr__"}:
        raise TypeError(f"record {cls.__name__} cannot define __setattr__ or __delattr__: it is frozen")
    dataclass(cls, repr=False, eq=False)  # makes cls a dataclass in place
    made: Any = cls
    made.__record_compared__ = tuple(f.name for f in fields(cls) if f.compare)
    made.__record_shown__ = tuple(f.name for f in fields(cls) if f.repr)
    shared = {"__eq__": _eq, "__hash__": _hash, "__repr__": _repr, "__setattr__": _setattr, "__delattr__": _delattr}
    for name, method in shared.items():
        if name not in own or (name == "__hash__" and vars(cls)[name] is None):
            setattr(cls, name, method)
    return cls
