"""Release Cockpit: a terminal cockpit for running a PyTorch-style release."""

__version__ = "0.1.0"
