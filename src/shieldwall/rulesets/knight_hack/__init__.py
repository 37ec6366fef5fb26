"""Knight Hack (2nd edition, 1995) as restated by its 1997 errata sheet: percentile casualties and
points-based morale (``shared/rules/percentile-rules-errata-1997.txt``; rule-system id
``knight-hack``).

The errata gives rules and two numbers only (heavy infantry, C class: 3 points a figure; heavy
infantry base cost 40); every other table is user data (:mod:`.tables`), and the package ships an
illustrative sample set (``data/sample``) that is *not* the published charts.
"""
