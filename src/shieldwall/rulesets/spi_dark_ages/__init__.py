"""SPI *Dark Ages* (1971), played from its MOVES 12 errata on a hex map (rule system ``spi-dark-ages``).

The charts the errata does not give (CRT, base TEC, CUC, Summary of Units, maps, orders of battle)
are user data; the package ships an illustrative sample set that is NOT SPI's (``data/sample``).
"""
