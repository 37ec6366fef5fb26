"""toy-duel: a rule system of two units, one die and one rule, that proves the plugin boundary.

It lives outside ``src/`` and registers through the same entry-point group as the built-in rule
systems (``toy_duel-0.1.dist-info/entry_points.txt`` beside it makes ``tests/toy`` an installed
distribution when that folder is on ``sys.path``). No host file knows it.
"""
