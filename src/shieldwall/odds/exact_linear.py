"""Exact linear algebra in integers for the duel solvers (split from ``markov.py``): determinants,
adjugates (the inverse of a matrix times its determinant, with no fraction) and least common
multiples."""

from __future__ import annotations

from functools import lru_cache
from math import gcd as _gcd


def determinant(m: list[list[int]]) -> int:
    """Determinant of a small integer matrix (cofactor expansion; n <= 4)."""
    n = len(m)
    if n == 1:
        return m[0][0]
    if n == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    total = 0
    for j in range(n):
        if m[0][j]:
            minor = [row[:j] + row[j + 1 :] for row in m[1:]]
            total += (-1) ** j * m[0][j] * determinant(minor)
    return total


def adjugate4(m: tuple[tuple[int, ...], ...]) -> tuple[list[list[int]], int]:
    """``(adj(M), det(M))`` of a 4x4 integer matrix by Laplace expansion along its first two rows
    (the twelve 2x2 minors of rows 0-1 and rows 2-3, then the 3x3 cofactors from them).

    >>> adjugate4(((2, 0, 0, 0), (0, 3, 0, 0), (0, 0, 5, 0), (0, 0, 0, 7)))
    ([[105, 0, 0, 0], [0, 70, 0, 0], [0, 0, 42, 0], [0, 0, 0, 30]], 210)
    """
    (a00, a01, a02, a03), (a10, a11, a12, a13), (a20, a21, a22, a23), (a30, a31, a32, a33) = m
    s0 = a00 * a11 - a10 * a01
    s1 = a00 * a12 - a10 * a02
    s2 = a00 * a13 - a10 * a03
    s3 = a01 * a12 - a11 * a02
    s4 = a01 * a13 - a11 * a03
    s5 = a02 * a13 - a12 * a03
    c5 = a22 * a33 - a32 * a23
    c4 = a21 * a33 - a31 * a23
    c3 = a21 * a32 - a31 * a22
    c2 = a20 * a33 - a30 * a23
    c1 = a20 * a32 - a30 * a22
    c0 = a20 * a31 - a30 * a21
    det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    adj = [
        [a11 * c5 - a12 * c4 + a13 * c3, -a01 * c5 + a02 * c4 - a03 * c3,
         a31 * s5 - a32 * s4 + a33 * s3, -a21 * s5 + a22 * s4 - a23 * s3],
        [-a10 * c5 + a12 * c2 - a13 * c1, a00 * c5 - a02 * c2 + a03 * c1,
         -a30 * s5 + a32 * s2 - a33 * s1, a20 * s5 - a22 * s2 + a23 * s1],
        [a10 * c4 - a11 * c2 + a13 * c0, -a00 * c4 + a01 * c2 - a03 * c0,
         a30 * s4 - a31 * s2 + a33 * s0, -a20 * s4 + a21 * s2 - a23 * s0],
        [-a10 * c3 + a11 * c1 - a12 * c0, a00 * c3 - a01 * c1 + a02 * c0,
         -a30 * s3 + a31 * s1 - a32 * s0, a20 * s3 - a21 * s1 + a22 * s0],
    ]  # fmt: skip
    return adj, det


@lru_cache(maxsize=4096)
def adjugate(a: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """``(adj(A), det(A))`` of a small integer matrix, with ``det > 0`` (``A^-1 = adj / det``).

    >>> adjugate(((2, -1), (-1, 2)))
    (((2, 1), (1, 2)), 3)
    """
    n = len(a)
    if n == 4:
        adj4, det4 = adjugate4(a)
        if det4 < 0:
            det4, adj4 = -det4, [[-v for v in row] for row in adj4]
        if not det4:  # pragma: no cover - (I - C) is invertible on the states that can leave
            raise ArithmeticError("singular block")
        return tuple(tuple(r) for r in adj4), det4
    rows = [list(r) for r in a]
    adj = [[0] * n for _ in range(n)]
    if n == 1:
        adj[0][0] = 1
    else:
        for i in range(n):
            for j in range(n):
                minor = [row[:j] + row[j + 1 :] for r, row in enumerate(rows) if r != i]
                adj[j][i] = (-1) ** (i + j) * determinant(minor)
    det = sum(rows[0][j] * adj[j][0] for j in range(n))
    if det < 0:
        det, adj = -det, [[-v for v in row] for row in adj]
    if not det:  # pragma: no cover - (I - C) is invertible on the states that can leave
        raise ArithmeticError("singular block")
    return tuple(tuple(r) for r in adj), det


def lcm(a: int, b: int) -> int:
    return a // _gcd(a, b) * b
