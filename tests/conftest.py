"""Shared fixtures: one small sandbox world per test session, served on 127.0.0.1."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis times each example (200 ms by default) and fails a test whose first example imports a
# module on a busy machine (FlakyFailure). Speed is the benchmarks' business: no deadline, and no
# "too slow" health check. One profile, for every run.
settings.register_profile("cockpit", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("cockpit")

# A developer's own git config must never change what the tests see.
os.environ.setdefault("GIT_CONFIG_NOSYSTEM", "1")
os.environ["GIT_CONFIG_GLOBAL"] = os.devnull
os.environ.setdefault("GIT_AUTHOR_NAME", "Cockpit Tests")
os.environ.setdefault("GIT_AUTHOR_EMAIL", "tests@example.invalid")
os.environ.setdefault("GIT_COMMITTER_NAME", "Cockpit Tests")
os.environ.setdefault("GIT_COMMITTER_EMAIL", "tests@example.invalid")
for _var in ("GH_TOKEN", "GITHUB_TOKEN"):
    os.environ.pop(_var, None)

# Compiled modules are written and read again, even where PYTHONDONTWRITEBYTECODE asks otherwise (as on the
# machines this project is built on): without them each of the four workers compiles every module of the
# cockpit and pytest rewrites the asserts of every test module again, about 8 s of CPU a worker (2.8 s with
# them), and each `python -m cockpit` a test starts compiles the modules it imports. The files go to
# __pycache__, which git ignores.
sys.dont_write_bytecode = False

# The collector runs a young-generation pass every 20,000 allocations, not 700. Each end-to-end test
# builds a whole Textual app and a sandbox (some hundred thousand objects that live a few seconds): with
# Python's thresholds they were promoted to the oldest generation and scanned again and again, and the
# collector took about a third of the suite's CPU (175 of 500 s, measured with gc.callbacks). The
# cockpit itself runs with Python's own settings; this is the test processes' business only.
gc.set_threshold(20_000, 10, 10)

SMALL_WORLD = {"seed": 7, "trunk_commits": 400}


def pytest_configure(config):
    """Once, before the workers start (in xdist's controller, or in a run without it): compile the cockpit's
    modules, so that the workers and the processes the tests start read them instead of compiling them."""
    if hasattr(config, "workerinput"):
        return
    import compileall

    compileall.compile_dir(Path(__file__).resolve().parents[1] / "cockpit", quiet=1, workers=0)


@pytest.fixture(scope="session")
def sandbox_world(tmp_path_factory):
    """A small world built once for the whole run (the world builder is deterministic)."""
    from cockpit.sandbox.demo import prepare_world

    root = tmp_path_factory.mktemp("world")
    return prepare_world(SMALL_WORLD["seed"], trunk_commits=SMALL_WORLD["trunk_commits"], directory=root / "w")


@pytest.fixture()
def sandbox(sandbox_world, tmp_path):
    """The world's emulators, and a config pointing at them with a fresh state file."""
    from cockpit.config import load_config
    from cockpit.sandbox.demo import SandboxServers, write_config

    with SandboxServers(sandbox_world) as servers:
        path = write_config(sandbox_world, tmp_path, github_url=servers.github_url, index_url=servers.index_url)
        servers.config_path = path
        servers.config = load_config(path)
        yield servers


@pytest.fixture()
def world_clone_copy(sandbox_world, tmp_path) -> Path:
    """A private copy of the world's clone and remote, for tests that write to git."""
    import shutil

    dest = tmp_path / "git"
    shutil.copytree(Path(sandbox_world.clone_path).parent, dest, ignore=shutil.ignore_patterns("*.toml", "world.json"))
    return dest


@pytest.fixture
def anyio_backend():
    """Async tests (Textual's Pilot) run on asyncio."""
    return "asyncio"


@pytest.fixture()
def validation_not_started(sandbox):
    """The sandbox's release before anyone started validating: the world plants the validation issue and
    most validation comments (the evidence gates read them); the chores that write them start from none."""
    state = sandbox.github.repos[sandbox.world.repository.lower()]
    planted = {i.number for i in state.repo.issues if i.title.endswith("] Release validation")}
    state.repo.issues[:] = [i for i in state.repo.issues if i.number not in planted]
    for number in planted:
        state.items.pop(number, None)
    validated = {c.id for c in state.comments.values() if "validated for" in (c.body or "").lower()}
    state.repo.comments[:] = [c for c in state.repo.comments if c.id not in validated]
    for comment_id in validated:
        state.comments.pop(comment_id)
    return sandbox


def pytest_collection_modifyitems(config, items):
    """Every end-to-end test (a whole world, a browser) and every test that drives the whole app
    (its module uses ``CockpitApp``) is ``slow``.

    ``pytest -m "not slow"`` is then the quick edit-test loop (one pane alone, the services, the
    adapters, the emulators); the README's test command runs all.
    """
    e2e = Path(__file__).parent / "e2e"
    for item in items:
        module = getattr(item, "module", None)
        if e2e in Path(str(item.path)).parents or "CockpitApp" in vars(module or object):
            item.add_marker(pytest.mark.slow)


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: two workers a core. Many end-to-end tests wait on the emulators' planted timeouts
    and slow answers, so one worker a core leaves the cores idle a third of the time (measured on 2
    cores: 502 s with 2 workers, 325 s with 4, 367 s with 6)."""
    return 2 * (os.cpu_count() or 1)


@pytest.hookimpl(trylast=True)  # after the session's fixtures are torn down (pytest's runner)
def pytest_sessionfinish(session):
    """A worker whose tests are done keeps what is on its heap out of the collections still to come.

    After a worker's last test, pytest collects the garbage five times (to report objects whose ``__del__``
    failed). A worker holds half a million to a million objects by then, Textual's bounded caches of styles
    and lines among them, and one full collection took 0.6-2.3 s: xdist's controller, waiting at most 5 s
    for a worker to finish, interrupted the slowest, whose collection then printed "Exception ignored ...
    KeyboardInterrupt" under the summary, and the run waited those seconds. Frozen, the objects still on the
    heap are never examined again: the process is about to end, and its memory with it."""
    if hasattr(session.config, "workerinput"):
        gc.freeze()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """With ``COCKPIT_TEST_CPU=<file>``, each test's process CPU seconds (setup, call and teardown; the
    emulators' threads included) is appended to that file as ``seconds<TAB>test id``: the suite's time
    is CPU on 2 cores, and ``--durations`` says how long a test took, waits included (README: Development)."""
    target = os.environ.get("COCKPIT_TEST_CPU")
    if not target:
        yield
        return
    import time

    started = time.process_time()
    yield
    with open(target, "a", encoding="utf-8") as out:
        out.write(f"{time.process_time() - started:.3f}\t{item.nodeid}\n")
