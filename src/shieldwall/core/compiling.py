"""A marker for the optional compiled build (scripts/build_compiled.py, ``shieldwall.compiled``)."""

from __future__ import annotations

from typing import TypeVar

C = TypeVar("C", bound=type)


def python_class(cls: C) -> C:
    """Keep ``cls`` a plain Python class when its module is compiled with mypyc.

    mypyc turns a compiled module's classes into native (C) classes, which cannot subclass most
    built-in types (``list``, ``tuple``); it leaves a class with a decorator it does not know a
    Python class, so this decorator does nothing at run time (and costs nothing uncompiled).
    """
    return cls
