"""How a release-branch PR may be merged: GitHub's merge methods and the cockpit's default.

Apart from ``cockpit.domain.merging`` so that reading the config does not build the merge's
dataclasses (each costs the first screen about a tenth of a millisecond).
"""

MERGE_METHODS = ("merge", "squash", "rebase")
DEFAULT_MERGE_METHOD = "squash"
