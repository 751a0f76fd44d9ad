"""The sandbox world's people, words, labels and clock: fixed data, chosen from with a seeded RNG."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import UTC, datetime

from cockpit.sandbox.gitgen import Identity

OWNER = "acme"
CORE = "acme/torchlet"
VISION = "acme/vision"
AUDIO = "acme/audio"
GITHUB = "https://github.com"

# The history's clock: main starts at T_START, the branch is cut at T_CUT, main's head is near T_END.
T_START = int(datetime(2026, 3, 2, tzinfo=UTC).timestamp())
T_CUT = int(datetime(2026, 9, 1, 16, 0, tzinfo=UTC).timestamp())
T_END = int(datetime(2026, 10, 1, 12, 0, tzinfo=UTC).timestamp())
HOUR = 3600
DAY = 24 * HOUR


def iso(ts: int | float) -> str:
    """Epoch seconds as GitHub's ISO 8601 UTC form."""
    return datetime.fromtimestamp(int(ts), tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def fake_sha(*parts: object) -> str:
    """A well-formed 40-hex SHA for things that are not in a git repository (deterministic)."""
    return hashlib.sha1(":".join(map(str, parts)).encode()).hexdigest()


@dataclass(frozen=True)
class Person:
    name: str
    login: str

    @property
    def identity(self) -> Identity:
        return Identity(self.name, f"{self.login}@users.noreply.example.com")


CONTRIBUTORS = (
    Person("Ada Okafor", "aokafor"),
    Person("José Müller", "jmuller"),
    Person("Zoë Ångström", "zangstrom"),
    Person("Łukasz Wiśniewski", "lwisniewski"),
    Person("Priya Raman", "praman"),
    Person("Wei Chen", "weichen"),
    Person("Tomás Ortega", "tortega"),
    Person("Hannah Schulz", "hschulz"),
    Person("Kwame Mensah", "kmensah"),
    Person("Mei Tanaka", "mtanaka"),
    Person("Oren Levi", "olevi"),
    Person("Sara Lindqvist", "slindqvist"),
)
REVIEWERS = ("rgoldberg", "nkumar", "fbeaumont", "dvolkov", "lhart", "ymori")
MERGEBOT = Person("Torchlet MergeBot", "torchletmergebot")
PICKBOT = Person("pytorchbot", "pytorchbot")
RELEASE_MANAGERS = (Person("Rosa Marquez", "rmarquez"), Person("Kenji Tanaka", "ktanaka"))

MODULES = ("nn", "optim", "autograd", "cuda", "distributed", "fx", "export", "onnx", "utils", "data", "mps", "inductor")
STEMS = (
    "functional",
    "init",
    "modules",
    "parallel",
    "serialization",
    "graph",
    "lowering",
    "passes",
    "scheduler",
    "kernels",
    "checkpoint",
    "hooks",
)
TITLE_PREFIXES = ("", "", "", "", "[inductor] ", "[dynamo] ", "[MPS] ", "[ONNX] ", "[c10d] ", "[export] ", "[BE] ")
VERBS = ("Fix", "Add", "Remove", "Update", "Support", "Refactor", "Avoid", "Handle", "Speed up", "Clean up")
OBJECTS = (
    "dtype promotion in",
    "stride checks for",
    "a memory leak in",
    "error messages of",
    "the fast path of",
    "dynamic shapes in",
    "recompilation in",
    "device guards in",
    "empty tensors in",
    "the fallback for",
    "broadcasting in",
    "deprecation warnings in",
    "the cache of",
    "type hints for",
    "logging in",
)
TARGETS = (
    "conv2d",
    "scaled_dot_product_attention",
    "torchlet.load",
    "DataLoader workers",
    "AdamW",
    "FSDP",
    "torchlet.compile",
    "embedding_bag",
    "the CUDA caching allocator",
    "index_put_",
    "LayerNorm",
    "the ONNX exporter",
    "checkpoint loading",
    "autocast",
    "sparse CSR matmul",
    "torchlet.export",
)
SENTENCES = (
    "This fixes a crash reported by several users when the input is empty.",
    "The old code path copied the tensor twice; now it is copied once.",
    "Benchmarks show no regression on the usual suite.",
    "Added a test that fails without this change.",
    "This is a follow-up to the review comments on the previous attempt.",
    "The behaviour now matches the documentation.",
    "Guarded by a flag so that it can be turned off if something breaks.",
    "Reverting to the previous default until the root cause is understood.",
    "Only affects builds with the experimental backend enabled.",
    "The error message now says which argument was wrong and what was expected.",
    "Tested locally on CPU and on one GPU.",
    "Split out of a larger change to make it easier to review.",
)
PR_LABELS = (
    "Merged",
    "ciflow/trunk",
    "topic: bug fixes",
    "topic: not user facing",
    "release notes: nn",
    "release notes: distributed",
    "module: inductor",
    "open source",
    "topic: improvements",
)
ISSUE_LABELS = (
    "module: nn",
    "triaged",
    "high priority",
    "module: regression",
    "oncall: pt2",
    "module: cuda",
    "module: distributed",
    "module: docs",
    "needs reproduction",
    "module: mps",
)


def title_for(rng: random.Random) -> str:
    """A plausible trunk PR title (without its ``(#N)`` suffix)."""
    return f"{rng.choice(TITLE_PREFIXES)}{rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(TARGETS)}"


def paragraph_pool(rng: random.Random, size: int = 64) -> list[str]:
    """Body paragraphs to reuse across many commits (cheap at 100k commits)."""
    return [" ".join(rng.sample(SENTENCES, rng.randint(1, 3))) for _ in range(size)]
