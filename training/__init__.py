"""Training the Expert bot's value network: self-play on the workers, a fit, a gated match.

``manage.py train_expert`` runs one training run end to end (``runs``): it queues self-play games
on the ``training`` queue (``tasks``, ``playing``), waits for the workers to store them, fits a
network on their positions in a separate process (``fitting``, numpy only, neither a worker nor
the web process), queues a match of the candidate against the current bot, and accepts the
candidate only if it scores at least the threshold; with ``--install`` it becomes the game's
network. Every run, game and match game is a row (``models``), with its seed and its CPU time.

The app reads games only through ``games.bots``, ``games.engine`` and ``games.variants``, and
nothing in ``games`` imports it (pyproject.toml's contracts). docs/decisions/0143.

This module imports nothing: the fitting process runs ``python -m training.fitting`` without
Django.
"""
