"""``cockpit.toml``: one release described in one file, declared once as typed classes and validated strictly.

The schema is plain ``@dataclass(frozen=True, slots=True)`` classes whose fields are declared with
``kinds.key`` (kind, meaning, default, example), and one small walker (``tables``) that reads a TOML
table into its class. From that one declaration come the validation, the one-line errors (file, key,
what was expected), the defaults, the comments and defaults of ``cockpit init`` and the README's
configuration reference (``reference``). Unknown keys are warnings naming the nearest known key.

Why our own walker rather than a library (``tests/benchmarks/bench_config.py``: each candidate imported,
five tables declared and one config read, in fresh processes; CPU time, on 2 cores shared with a load of
9-15, so only the ratios mean much). Against the 230-250 ms that importing ``textual.app`` took in the
same runs: msgspec 38 ms, attrs + cattrs 65-83 ms, pydantic 147-151 ms, for five of the twelve tables
and with no check of our own; this package declares all of them (24 tables, 94 keys) and reads the same
document with every check in 42 ms over the 39 ms of the domain modules any reader needs. So no library
is cheaper for the whole schema than the walker (msgspec comes closest), and none says what a release
manager needs: msgspec ``Expected `float`, got `str` - at `$.github.timeout``` (no file, no value);
pydantic four lines with a URL; cattrs accepted ``timeout = "5"`` and turned ``required = "pull"`` into
``["p", "u", "l", "l"]``. Each would need a translation of its errors into ours and the checks that
matter most anyway (owner/name, versions, placeholders, RC tag patterns, variant names, inert text), so
a dependency would not earn its place. Ours: ``<file>: key 'ci[0].required': expected a list of strings,
got str 'pull'``.

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
