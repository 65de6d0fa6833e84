"""What the Expert bot learns: a value network over positions as the mover sees them.

- ``network``: the network itself, a small multilayer perceptron in numpy that gives each seat
  its chance to win, read from and written to one ``.npz`` file with its provenance.
- ``fit``: training it on recorded positions and results (plain gradient descent, Adam).
- ``selfplay``: one game between bots, its positions encoded for training and its result.
- ``gate``: a match between a candidate network's bot and the current one's.

Each game's package says how its positions are encoded (``features`` beside its bots) and where
its network lies. Nothing here reads the database: the ``training`` app runs these on the
workers and stores what they return (docs/decisions/0143-a-bot-that-learns.md).
"""
