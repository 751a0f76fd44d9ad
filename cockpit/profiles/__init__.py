"""Release profiles: the defaults of one project's release, as data (``pytorch.toml``), read by ``cockpit.profile``."""
