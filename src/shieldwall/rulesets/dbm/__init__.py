"""DBM 3.2 (De Bellis Multitudinis, the 3.2 amendments of 2011): the element game in paces.

The rules text (``shared/rules/dbm-3.2-amendments.txt``) holds only replacement and inserted
paragraphs; every value it does not give is user data (:mod:`.schemas`, ``docs/dbm-data.md``).
"""
