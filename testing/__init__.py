"""Code the tests and the benchmarks share and the site never runs.

Its own top-level package, beside the apps, rather than a module of ``tests/`` or
``benchmarks/``, because both of those import it: under ``tests/`` a benchmark would reach into
the test suite (not a package: pytest imports its files by path, ``--import-mode=importlib``),
and under ``benchmarks/`` the tests would depend on scripts. From here both import it the same
way, with the project's root on the path (pyproject's ``pythonpath`` for pytest; each benchmark
inserts it). It is kept out of the installed distribution (``packages.find`` in pyproject.toml
names the site's packages only), and an import-linter contract there forbids the site's packages
(``games``, ``accounts``, ``analytics``, ``notifications``, ``operations``, ``splendor_site``)
to import it, so nothing here can become a path the site takes.

- ``testing.synthetic``: finished games written straight into the event log, in bulk.
- ``testing.presence``: forgetting the presence marks Redis keeps between test databases.
"""
