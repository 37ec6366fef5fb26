"""The built-in rule systems, one package each. Each package defines a ``plugin.PLUGIN``
(:class:`shieldwall.plugin.RuleSystem`) registered under the entry-point group
``shieldwall.rulesets``; the host layers find them through :mod:`shieldwall.registry` and never
import these packages."""
