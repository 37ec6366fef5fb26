"""An element on the table: identity, troop type and grade, and its rectangle in paces."""

from __future__ import annotations

from dataclasses import dataclass

from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.tables import Tables


@dataclass(frozen=True, slots=True)
class Element:
    id: str
    side: str
    command: str
    code: str
    grade: str
    fp: Footprint
    regular: bool = True
    general: bool = False
    #: the list requires a double element base (dbm-3.2:troops.bd-x)
    double_base_required: bool = False
    #: part of a double element with this other element id (dbm-3.2:basing.double-loss)
    double_with: str | None = None
    mobile: bool = True
    bow: bool = False
    chariot: bool = False
    mounted_general: bool = False

    def at(self, fp: Footprint) -> Element:
        """This element moved to ``fp`` (what ``dataclasses.replace(self, fp=fp)`` gives, made
        directly: a search moves elements tens of thousands of times a decision)."""
        return Element(
            self.id,
            self.side,
            self.command,
            self.code,
            self.grade,
            fp,
            self.regular,
            self.general,
            self.double_base_required,
            self.double_with,
            self.mobile,
            self.bow,
            self.chariot,
            self.mounted_general,
        )


def make(
    tables: Tables,
    eid: str,
    side: str,
    code: str,
    grade: str,
    x: float,
    y: float,
    heading: float,
    command: str = "c1",
    **kw: object,
) -> Element:
    """An element of type ``code`` with the data's base width and its type's depth."""
    fp = Footprint(x, y, heading, tables.bw, tables.depth(code))
    return Element(eid, side, command, code, grade, fp, **kw)  # type: ignore[arg-type]


def troop_class(tables: Tables, e: Element) -> str:
    return tables.troops.type[e.code].troop_class


def is_skirmisher(tables: Tables, e: Element) -> bool:
    return tables.troops.type[e.code].skirmisher


def is_foot(tables: Tables, e: Element) -> bool:
    return troop_class(tables, e) == "foot"


def is_mounted(tables: Tables, e: Element) -> bool:
    return troop_class(tables, e) == "mounted"
