"""``cockpit.toml``: one release described in one file, declared once as typed classes and validated strictly.

The schema is plain ``@dataclass(frozen=True, slots=True)`` classes whose fields are declared with
``kinds.key`` (kind, meaning, default, example), and one small walker (``tables``) that reads a TOML
table into its class. From that one declaration come the validation, the one-line errors (file, key,
what was expected), the defaults, the comments and defaults of ``cockpit init`` and the README's
configuration reference (``reference``). Unknown keys are warnings naming the nearest known key.

Why our own walker, not a library (measured on this machine, Python 3.11, 2 shared cores; see the
report of issue 26): pydantic (2.x) costs about 10x the import time of the whole config today and
msgspec and attrs+cattrs a little less, while
none of them gives our error wording (file, dotted key with ``repo[1] (vision)``, the expectation in a
release manager's words, the value got) without a translation layer per error kind; the checks that
matter most (owner/name, versions, placeholders, RC tag patterns, variant names, inert text) are ours
in any case. The walker is ~150 lines and loads in well under a millisecond.

Modules: ``where`` (file and dotted key of messages), ``kinds`` (value kinds, ``key``), ``tables``
(the walker), ``pytorch`` (PyTorch's defaults, in one place), the schema (``release``, ``storage``,
``evidence``, ``schedule``, ``repos``, ``document``), ``model`` (``Config``), ``loading``
(``load_config``) and ``reference`` (the README's reference). No module imports this package's
``__init__``; they import each other one way only.
"""

from cockpit.config.loading import CONFIG_NAME, load_config, parse_config
from cockpit.config.model import Config
from cockpit.config.release import GitConfig, GitHubConfig
from cockpit.config.storage import StorageConfig

__all__ = ["CONFIG_NAME", "Config", "GitConfig", "GitHubConfig", "StorageConfig", "load_config", "parse_config"]
