"""The battle simulator: many seeded battles, on one machine or a Ray cluster, with statistics.

``seeds`` derives per-battle seeds, ``runner`` plays one battle into a small row, ``backends``
spreads batches over a process pool or Ray, ``stats`` turns rows into rates with intervals,
``simulate`` ties them together and ``report`` summarises a Parquet file with DuckDB.
"""
