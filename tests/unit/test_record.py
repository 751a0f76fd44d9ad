"""A record behaves as the frozen dataclass it stands for, at a sixth of the compiling."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, asdict, dataclass, field, fields, replace

import pytest

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.record import record


@record
class Pin:
    package: str
    version: str = "2.5.0"
    platforms: tuple[str, ...] = ()
    note: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True)
class PinTwin:
    package: str
    version: str = "2.5.0"
    platforms: tuple[str, ...] = ()
    note: str = field(default="", compare=False, repr=False)


def test_a_record_compares_hashes_and_reads_as_its_frozen_dataclass_twin() -> None:
    a, b = Pin("triton", platforms=("linux",), note="one"), Pin("triton", platforms=("linux",), note="two")
    twin_a, twin_b = PinTwin("triton", platforms=("linux",), note="one"), PinTwin("triton", platforms=("linux",))
    assert (a == b) is (twin_a == twin_b) is True  # 'note' does not compare, in both
    assert hash(a) == hash(b) and hash(twin_a) == hash(twin_b)
    assert a != Pin("triton", "2.6.0") and {a, b} == {a}
    assert (
        repr(a)
        == repr(twin_a).replace("PinTwin", "Pin")
        == "Pin(package='triton', version='2.5.0', platforms=('linux',))"
    )
    assert a != twin_a and a.__eq__(twin_a) is NotImplemented  # another class is never equal, as with dataclasses
    assert [f.name for f in fields(a)] == [f.name for f in fields(twin_a)]
    assert asdict(a) == asdict(twin_a)


def test_no_field_of_a_record_can_be_set_or_deleted_once_it_is_built() -> None:
    pin = Pin("triton")
    with pytest.raises(FrozenInstanceError):
        pin.version = "2.6.0"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del pin.version  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        pin.extra = 1  # type: ignore[attr-defined]
    assert pin.version == "2.5.0"


def test_a_record_is_replaced_copied_and_pickled_like_a_dataclass() -> None:
    pin = Pin("triton", platforms=("linux",))
    assert replace(pin, version="2.6.0") == Pin("triton", "2.6.0", ("linux",))
    assert copy.deepcopy(pin) == pin and copy.copy(pin) == pin
    assert pickle.loads(pickle.dumps(pin)) == pin
    gate = Gate("ci_green", "CI green", GateStatus.RED, "red: release/2.5", ("job a",))
    assert pickle.loads(pickle.dumps(gate)) == gate


def test_a_record_keeps_the_methods_its_class_writes_itself() -> None:
    @record
    class Version:
        text: str

        def __repr__(self) -> str:
            return f"v{self.text}"

    assert repr(Version("2.5.0")) == "v2.5.0" and Version("2.5.0") == Version("2.5.0")

    with pytest.raises(TypeError, match="cannot define __setattr__"):

        @record
        class Loose:
            text: str

            def __setattr__(self, name: str, value: object) -> None:
                object.__setattr__(self, name, value)
