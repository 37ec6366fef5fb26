"""Orders of battle against an army list: validation and army points (``shieldwall army cost``).

Clauses: ``size.baggage`` (6 baggage elements at 400 AP or less, otherwise 8), ``lists.baggage``
(allied contingents bring none), ``cost.bd-ax`` (the text's cost rows, locked in :mod:`.tables`),
``basing.cv-double`` and ``lists.cv-s-double`` (double-based cavalry are paid for as Cv(O), with the
rear-rank reduction), ``size.el-general`` (an elephant general regular by the list is paid for as
Regular), ``exchange.optional-mount`` (compulsorily mounted infantry become optional),
``flank.who`` (no C-in-C or baggage flank march). Costs are exact to the half point.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shieldwall.core.errors import DataError
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.schemas import ArmyElement, ArmyList, ListEntry, OrderOfBattle
from shieldwall.rulesets.dbm.tables import Tables


def baggage_required(ap_total: float) -> int:
    """dbm-3.2:size.baggage: 6 baggage elements if the army is 400 AP or less, otherwise 8."""
    return 6 if ap_total <= 400 else 8


def list_entry_mounted(entry: ListEntry) -> str:
    """dbm-3.2:exchange.optional-mount: infantry listed as compulsorily mounted are optional."""
    return "optional" if entry.mounted == "compulsory" else entry.mounted


def paid_as(el: ArmyElement) -> tuple[bool, str, str]:
    """(regular, code, grade) an element is paid for as: double-based cavalry as Cv(O)
    (dbm-3.2:basing.cv-double, dbm-3.2:lists.cv-s-double); an elephant general regular by its list
    is paid as Regular (dbm-3.2:size.el-general: the order of battle carries the list's regularity)."""
    if el.code == "Cv" and el.double_base:
        return (el.regular, "Cv", "O")
    return (el.regular, el.code, el.grade)


@dataclass
class CostLine:
    command: str
    element: str
    what: str
    ap: float


@dataclass
class CostReport:
    army: str
    list_id: str
    lines: list[CostLine] = field(default_factory=list)
    total: float = 0.0
    ap_limit: float = 0.0
    baggage: int = 0
    baggage_required: int = 0
    problems: list[tuple[str, str]] = field(default_factory=list)  # (clause id, words)

    @property
    def ok(self) -> bool:
        return not self.problems


def _entry(lst: ArmyList, el: ArmyElement) -> int | None:
    for i, e in enumerate(lst.entries):
        if e.code == el.code and e.grade == el.grade and e.regular == el.regular:
            return i
    return None


def cost_army(oob: OrderOfBattle, tables: Tables, where: str = "army") -> CostReport:
    """Cost an order of battle and check it against its list (problems name their clause)."""
    lst = tables.lists.get(oob.army_list)
    if lst is None:
        raise DataError(
            where, "list", f"unknown army list {oob.army_list!r}; known: {', '.join(sorted(tables.lists))}"
        )
    rep = CostReport(army=oob.name, list_id=lst.id, ap_limit=oob.ap_limit, baggage=oob.baggage)
    counts = [0] * len(lst.entries)
    c_in_c = 0
    for cmd in oob.commands:
        c_in_c += cmd.c_in_c
        if cmd.c_in_c and cmd.flank_march:
            rep.problems.append((rule("flank.who"), f"{cmd.name}: a C-in-C cannot flank march"))
        if sum(e.general for e in cmd.elements) != 1:
            rep.problems.append(("", f"{cmd.name}: a command has exactly one general's element"))
        for el in cmd.elements:
            i = _entry(lst, el)
            if i is None:
                rep.problems.append(
                    (
                        "",
                        f"{el.id}: {'Reg' if el.regular else 'Irr'} {el.code}({el.grade}) "
                        f"is not in list {lst.id}",
                    )
                )
            else:
                counts[i] += 1
            reg, code, grade = paid_as(el)
            ap = tables.cost(reg, code, grade)
            what = f"{'Reg' if reg else 'Irr'} {code}({grade})"
            if el.double_base and el.code == "Cv":
                ap -= tables.costs.double_base_rear_reduction
                what += " double-based (basing.cv-double)"
            if el.general:
                ap += tables.costs.general_extra
                what += " + general"
            rep.lines.append(CostLine(cmd.name, el.id, what, ap))
    if c_in_c != 1:
        rep.problems.append(("", f"an army has exactly one C-in-C command, found {c_in_c}"))
    for e, n in zip(lst.entries, counts, strict=True):
        if not e.min <= n <= e.max:
            rep.problems.append(
                ("", f"{'Reg' if e.regular else 'Irr'} {e.code}({e.grade}): {n} not in {e.min}-{e.max}")
            )
    bag = tables.cost(False, "Bge", "O")
    rep.lines += [CostLine("baggage", f"bge{i + 1}", "Irr Bge(O)", bag) for i in range(oob.baggage)]
    rep.total = round(sum(x.ap for x in rep.lines) * 2) / 2
    rep.baggage_required = baggage_required(rep.total)
    if oob.baggage != rep.baggage_required:
        rep.problems.append(
            (
                rule("size.baggage"),
                f"{rep.total:g} AP needs {rep.baggage_required} baggage elements, has {oob.baggage}",
            )
        )
    if rep.total > oob.ap_limit:
        rep.problems.append(("", f"{rep.total:g} AP is over the limit of {oob.ap_limit:g}"))
    return rep


def format_report(rep: CostReport, label: str | None) -> str:
    out = [f"{rep.army} (list {rep.list_id})"]
    if label:
        out.append(f"[{label}]")
    for ln in rep.lines:
        out.append(f"  {ln.command:<14} {ln.element:<8} {ln.what:<40} {ln.ap:>6g}")
    out.append(
        f"  total {rep.total:g} AP of {rep.ap_limit:g}; baggage {rep.baggage} (needs {rep.baggage_required})"
    )
    out += [f"  PROBLEM {c + ': ' if c else ''}{w}" for c, w in rep.problems] or ["  valid"]
    return "\n".join(out)
