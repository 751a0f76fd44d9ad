"""One loader per pane: adapters in, the pane's report out. Called from worker threads.

Each takes the ``Ports`` (``cockpit.ports``: its adapters, config, clock and shared results) and is the
only place that pane's data is fetched, so a pane's cost in requests and git calls is read here.
"""
