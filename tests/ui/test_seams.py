"""The seams hold: the real backend is a ``Backend`` (for the UI) and the ``Ports`` (for loaders and
actions), each real adapter fits its port, and the UI tests' fake is a whole ``Backend``, not a
partial one patched as a test needs it; the app is its panes' host (``PaneHost``), which panes ask for
with ``host_of`` instead of casting the app.

The functions prefixed ``_typed_`` are read by mypy, which checks each return against its declared
protocol: ``tests/test_code_quality.py`` runs mypy on this file together with the package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from fake_backend import FakeBackend, FakeRegistry, FakeState

from cockpit.backend import ActionCatalog, Backend
from cockpit.ports import SessionState

if TYPE_CHECKING:
    from cockpit.actions.registry import ActionRegistry
    from cockpit.adapters.git import GitRepo
    from cockpit.adapters.github import GitHubClient
    from cockpit.adapters.shell import StepCommandRunner
    from cockpit.adapters.storage import PyPIClient, WheelIndex
    from cockpit.cockpit_backend import CockpitBackend
    from cockpit.ports import GitHubPort, GitPort, Ports, PyPIPort, StepRunnerPort, WheelIndexPort
    from cockpit.state.store import StateStore
    from cockpit.ui.app import CockpitApp
    from cockpit.ui.host import PaneHost


def _typed_the_real_backend_serves_the_ui_the_loaders_and_the_actions(backend: CockpitBackend) -> tuple[Backend, Ports]:
    return backend, backend


def _typed_each_real_adapter_fits_its_port(
    github: GitHubClient,
    git: GitRepo,
    index: WheelIndex,
    pypi: PyPIClient,
    runner: StepCommandRunner,
) -> tuple[GitHubPort, GitPort, WheelIndexPort, PyPIPort, StepRunnerPort]:
    return github, git, index, pypi, runner


def _typed_the_real_state_and_registry_are_what_the_ui_uses(
    store: StateStore,
    registry: ActionRegistry,
) -> tuple[SessionState, ActionCatalog]:
    return store, registry


def _typed_the_fake_is_a_whole_backend(fake: FakeBackend) -> Backend:
    return fake


def _typed_the_app_is_the_panes_host(app: CockpitApp) -> PaneHost:
    return app


def _members(protocol: type) -> set[str]:
    return {name for name in vars(protocol) if not name.startswith("_")}


@pytest.mark.parametrize(
    ("fake", "protocol"),
    [
        (FakeBackend(), Backend),
        (FakeState(), SessionState),
        (FakeRegistry(FakeState()), ActionCatalog),
    ],
    ids=["backend", "state", "actions"],
)
def test_the_ui_tests_fake_has_every_member_of_its_protocol(fake, protocol):
    missing = sorted(name for name in _members(protocol) if not hasattr(fake, name))
    assert not missing, f"{type(fake).__name__} lacks {missing} of {protocol.__name__}"


def test_the_app_is_a_pane_host_at_run_time_and_a_plain_textual_app_is_not():
    """``host_of`` checks the running app against ``PaneHost``: the cockpit's passes, another app does not."""
    from textual.app import App

    from cockpit.ui.app import CockpitApp
    from cockpit.ui.host import PaneHost

    assert isinstance(CockpitApp(FakeBackend()), PaneHost)
    assert not isinstance(App(), PaneHost)
