#!/usr/bin/env python3
"""Reckon's unit table and constants: check them, dump their exact factors, and make GNU units cases.

    scripts/units-table.py --check                       validate both files; exit 1 on any error
    scripts/units-table.py --dump                        every unit's dimension and exact factor
    scripts/units-table.py --gnu-units-cases N --seed S  N conversions checked against GNU units

Reads Sources/ReckonData/units.txt and constants.txt (their format: UNITS-FORMAT.md beside
them) with exact arithmetic: every factor is a Fraction times an integer power of π, and
every dimension a vector of integer exponents over Reckon's nine base dimensions. As in
Reckon's core, the dimensionless kinds (angle, solid angle, ratio) have no exponent of their
own: a unit made of one kind's units alone (deg, %, sqdeg) carries that kind as a tag, and
the lumen (cd·sr) is a luminosity. Standard library only.

--gnu-units-cases first checks every unit and constant that GNU units (Debian's `units`)
also has against it, then prints N random conversions, one a line:
    VALUE FROM -> TO<TAB>GNU units' digits<TAB>exact value from the table (p/q, or p/q*pi^k)
between units (or their prefixed forms) of one dimension; one case in 20 converts fuel
economy to L/100 km (a reciprocal), one in 25 a point on a temperature scale (°C, °F, °Ré,
K, °R). Currencies are left out (their rates come from the user) and so are measured units
(checked alone, to the digits they are known to). GNU units prints at most 15 significant
digits of a double; every case printed agrees with the exact value to all the digits shown,
a case whose last digit is off by double rounding being asked again with fewer digits (never
fewer than 12). Any other disagreement is an error: exit 1.
"""

import argparse
import math
import random
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "Sources" / "ReckonData"

# Reckon's own names: no unit, prefixed unit or constant may take them (UNITS-FORMAT.md and
# issue 26), except `min` (the minute) and `in` (the inch), which the lead tells apart.
FUNCTIONS = """sqrt cbrt abs round floor ceil trunc min max ln log log2 exp sin cos tan asin acos
    atan atan2 sinh cosh tanh asinh acosh atanh gcd lcm binom nCr nPr perm idiv rem isprime
    bitand bitor bitxor bitnot shl shr""".split()
CONSTANTS = "pi π e tau τ phi φ".split()
WORDS = "ans _ mod of to in".split()
COMMANDS = """help vars clear reset m+ m- mr mc full set tip split factor drill quiz daily
    personality anagram stats profile quit exit""".split()
RESERVED = {n: "function" for n in FUNCTIONS}
RESERVED.update({n: "constant" for n in CONSTANTS})
RESERVED.update({n: "word" for n in WORDS})
RESERVED.update({n: "command" for n in COMMANDS})
ALLOWED_CLASHES = {"min", "in"}

BASE_DIMENSIONS = ["length", "mass", "time", "current", "temperature", "amount",
                   "luminosity", "information", "money"]
NAME_SPECIALS = "°'\"$€£¥%‰℃℉"
DIGITS = "0123456789"
PI_DIGITS = Fraction("3.14159265358979323846264338327950288419716939937510582097494459")


def significant_digits(text):
    """The fewest significant digits among an expression's decimal literals (those with a
    point: `6.67430e-11` has 6), or None when it has none."""
    counts = []
    for literal in re.findall(r"\d+\.\d+(?:[eE][-+]?\d+)?", text):
        mantissa = literal.split("e")[0].split("E")[0].replace(".", "").lstrip("0")
        counts.append(len(mantissa))
    return min(counts) if counts else None


class TableError(Exception):
    """A mistake in a table file, with the line it is on."""


def is_name(word):
    """Whether `word` is one word as UNITS-FORMAT.md allows: letters (any script), the
    characters °'"$€£¥%‰, and digits and `_` after the first character."""
    if not word:
        return False
    for i, ch in enumerate(word):
        if ch.isalpha() or ch in NAME_SPECIALS:
            continue
        if i > 0 and (ch in DIGITS or ch == "_"):
            continue
        return False
    return True


class Q:
    """An exact quantity: coef × π^pi × (base units)^dims, dims a tuple over the axes."""

    __slots__ = ("coef", "pi", "dims")

    def __init__(self, coef, pi=0, dims=None):
        self.coef = Fraction(coef)
        self.pi = pi
        self.dims = dims if dims is not None else Table.zero_dims()

    def __mul__(self, other):
        return Q(self.coef * other.coef, self.pi + other.pi,
                 tuple(a + b for a, b in zip(self.dims, other.dims)))

    def __truediv__(self, other):
        if other.coef == 0:
            raise TableError("division by zero")
        return Q(self.coef / other.coef, self.pi - other.pi,
                 tuple(a - b for a, b in zip(self.dims, other.dims)))

    def __pow__(self, n):
        if self.coef == 0 and n < 0:
            raise TableError("zero to a negative power")
        return Q(self.coef ** n, self.pi * n, tuple(a * n for a in self.dims))

    def same(self, other):
        """Whether both are the same exact quantity."""
        return (self.coef, self.pi, self.dims) == (other.coef, other.pi, other.dims)

    def approx(self):
        """The value as a Fraction, π taken to 60 digits (plenty for 15-digit comparisons)."""
        return self.coef * PI_DIGITS ** self.pi

    def factor_text(self):
        """The exact factor as text: `p`, `p/q`, or either times `pi^k`."""
        text = str(self.coef)
        if self.pi == 1:
            text += "*pi"
        elif self.pi:
            text += f"*pi^{self.pi}"
        return text


# ------------------------------------------------------------------------- expressions

TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<num>\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
  | (?P<op>[*/^()+-])
  | (?P<name>(?:[^\W\d_]|[°'"$€£¥%‰])(?:[\w°'"$€£¥%‰])*)
""", re.VERBOSE)


def tokenize(text):
    """The tokens of a unit expression, with a `jux` token wherever two factors stand side
    by side (`2.54 cm`, `100km`)."""
    tokens, pos = [], 0
    while pos < len(text):
        match = TOKEN.match(text, pos)
        if not match:
            raise TableError(f"cannot read {text[pos:]!r} in {text!r}")
        pos = match.end()
        kind = match.lastgroup
        if kind == "space":
            continue
        value = match.group(kind)
        tokens.append((kind, value))
    result = []
    for token in tokens:
        if result:
            left, right = result[-1], token
            left_ends = left[0] in ("num", "name") or left == ("op", ")")
            right_starts = right[0] in ("num", "name") or right == ("op", "(")
            if left_ends and right_starts:
                result.append(("jux", " "))
        result.append(token)
    return result


class Parser:
    """A unit expression read one way: `tight` reads side-by-side factors before `*` and `/`
    (as Reckon reads `60 km / 45 min`), otherwise as a `*` of the same rank. The table is
    only accepted where both readings agree, so no reader can get it wrong."""

    def __init__(self, tokens, lookup, tight):
        self.tokens, self.lookup, self.tight, self.i = tokens, lookup, tight, 0

    def peek(self):
        """The next token, or (None, None) at the end."""
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None)

    def take(self):
        """The next token, moving past it."""
        token = self.peek()
        self.i += 1
        return token

    def parse(self):
        """The whole expression's value."""
        value = self.expr()
        if self.i != len(self.tokens):
            raise TableError(f"unexpected {self.peek()[1]!r}")
        return value

    def expr(self):
        """Factors joined by `*` and `/` (and side by side, when not tight)."""
        value = self.chain()
        while True:
            kind, text = self.peek()
            if (kind, text) == ("op", "*") or (not self.tight and kind == "jux"):
                self.take()
                value = value * self.chain()
            elif (kind, text) == ("op", "/"):
                self.take()
                value = value / self.chain()
            else:
                return value

    def chain(self):
        """Factors side by side (when tight), before any `*` or `/`."""
        value = self.power()
        while self.tight and self.peek()[0] == "jux":
            self.take()
            value = value * self.power()
        return value

    def power(self):
        """A factor, with an integer power `^N` or `^-N`."""
        value = self.atom()
        if self.peek() == ("op", "^"):
            self.take()
            sign = 1
            if self.peek() in (("op", "-"), ("op", "+")):
                sign = -1 if self.take()[1] == "-" else 1
            kind, text = self.take()
            if kind != "num" or not text.isdigit():
                raise TableError(f"an exponent must be an integer, not {text!r}")
            value = value ** (sign * int(text))
        return value

    def atom(self):
        """A number, `pi`, a unit name or a parenthesized expression."""
        kind, text = self.take()
        if kind == "num":
            return Q(Fraction(text))
        if kind == "name":
            if text == "pi":
                return Q(1, 1)
            return self.lookup(text)
        if (kind, text) == ("op", "("):
            value = self.expr()
            if self.take() != ("op", ")"):
                raise TableError("missing )")
            return value
        raise TableError(f"unexpected {text!r}")


def evaluate(text, lookup):
    """The exact value of a unit expression; an error if the two readings differ."""
    tokens = tokenize(text)
    if not tokens:
        raise TableError("empty expression")
    tight = Parser(tokens, lookup, True).parse()
    flat = Parser(tokens, lookup, False).parse()
    if not tight.same(flat):
        raise TableError(f"{text!r} reads two ways (side-by-side factors after a `/`): "
                         "write `*` or parentheses")
    return tight


# ------------------------------------------------------------------------------- tables

class Unit:
    """One unit entry: names (symbol first), value, kind, allowed prefixes, source."""

    def __init__(self, names, value, kind, prefixes, source, line, measured,
                 offset=None, digits=None, precision=None, tag=None):
        self.names, self.value, self.kind = names, value, kind
        self.tag = tag                # its dimensionless kind (angle, ratio…), if any
        self.prefixes, self.source, self.line = prefixes, source, line
        self.measured, self.offset, self.digits = measured, offset, digits
        self.precision = precision    # significant digits known, for a measured unit

    @property
    def symbol(self):
        """How Reckon writes the unit: its first name."""
        return self.names[0]


class Table:
    """Both files read: dimensions, prefixes, units and constants, with the errors found."""

    axes = list(BASE_DIMENSIONS)

    @classmethod
    def zero_dims(cls):
        """The dimension of a plain number."""
        return tuple(0 for _ in cls.axes)

    def __init__(self, units_path=DATA / "units.txt", constants_path=DATA / "constants.txt"):
        self.errors = []
        self.dimensions = {}          # name -> dims tuple over Table.axes (zero for a kind)
        self.dimension_kind = {}      # name -> base | none | derived
        self.prefixes = {}            # prefix name -> (symbol, factor Fraction, kind)
        self.prefix_entries = []      # (names, factor, kind, source, line)
        self.units = []               # Unit list, in file order
        self.by_name = {}             # unit name -> Unit
        self.constants = []           # (names, Q, exactness, description, source, line,
        #                                significant digits if measured)
        self.constant_by_name = {}
        Table.axes = list(BASE_DIMENSIONS)
        self.read_units(units_path)
        self.read_constants(constants_path)

    def error(self, where, message):
        """Records a mistake found at `where` (file:line)."""
        self.errors.append(f"{where}: {message}")

    # --- reading

    @staticmethod
    def lines(path):
        """(line number, text) of each entry line, comments and blank lines left out."""
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = raw.split("#", 1)[0].strip()
            if text:
                yield number, text

    def read_units(self, path):
        """Reads dimensions, then prefixes, then units, in that order."""
        section = "dimension"
        for number, text in self.lines(path):
            where = f"{path.name}:{number}"
            try:
                if text.startswith("dimension "):
                    if section != "dimension":
                        raise TableError("dimensions come first in the file")
                    self.read_dimension(text[len("dimension "):])
                elif text.startswith("prefix "):
                    if section == "unit":
                        raise TableError("prefixes come before the units")
                    section = "prefix"
                    self.read_prefix(text[len("prefix "):], where)
                else:
                    section = "unit"
                    self.read_unit(text, where)
            except TableError as problem:
                self.error(where, str(problem))
        missing = [d for d in BASE_DIMENSIONS if d not in self.dimensions]
        if missing:
            self.error(path.name, "base dimensions not declared: " + ", ".join(missing))

    def read_dimension(self, text):
        """`NAME = base | none | EXPRESSION` (names may have spaces; operators * / ^N)."""
        name, sep, rhs = text.partition(" = ")
        name, rhs = name.strip(), rhs.strip()
        if not sep or not name or not rhs:
            raise TableError("expected `dimension NAME = base|none|EXPRESSION`")
        if name in self.dimensions:
            raise TableError(f"dimension {name!r} declared twice")
        if rhs == "none":
            self.dimensions[name] = tuple(0 for _ in BASE_DIMENSIONS)
            self.dimension_kind[name] = rhs
            return
        if rhs == "base":
            count = list(self.dimension_kind.values()).count("base")
            expected = BASE_DIMENSIONS[count] if count < len(BASE_DIMENSIONS) else None
            if name != expected:
                raise TableError(f"base dimensions go in Reckon's order: {expected!r} "
                                 f"expected, not {name!r}")
            self.dimensions[name] = tuple(1 if d == name else 0 for d in BASE_DIMENSIONS)
            self.dimension_kind[name] = rhs
            return
        dims = self.dimension_expression(rhs)
        for other, other_dims in self.dimensions.items():
            if self.dimension_kind[other] != "none" and other_dims == dims:
                raise TableError(f"dimension {name!r} is the same as {other!r}")
        self.dimensions[name] = dims
        self.dimension_kind[name] = "derived"

    def dimension_expression(self, rhs):
        """A dimension expression's vector: names joined by `*` and `/`, each with `^N`."""
        dims = [0] * len(Table.axes)
        for sign, part in re.findall(r"(^|[*/])\s*([^*/]+)", rhs):
            part = part.strip()
            match = re.fullmatch(r"(.+?)\s*(?:\^\s*(-?\d+))?", part)
            base, power = match.group(1).strip(), int(match.group(2) or 1)
            if base not in self.dimensions:
                raise TableError(f"unknown dimension {base!r}")
            if self.dimension_kind[base] == "none":
                raise TableError(f"{base!r} is dimensionless: it cannot be part of a dimension")
            if sign == "/":
                power = -power
            for i, exponent in enumerate(self.dimensions[base]):
                dims[i] += exponent * power
        return tuple(dims)

    def read_prefix(self, text, where):
        """`SYMBOL [ALIAS…] = FACTOR ; si|binary ; SOURCE`."""
        fields = text.split(" ; ")
        if len(fields) != 3:
            raise TableError("expected `prefix NAMES = FACTOR ; KIND ; SOURCE`")
        head, kind, source = (f.strip() for f in fields)
        names_text, sep, factor_text = head.partition(" = ")
        names = names_text.split()
        if not sep or not names:
            raise TableError("expected `prefix NAMES = FACTOR`")
        if kind not in ("si", "binary"):
            raise TableError(f"prefix kind must be si or binary, not {kind!r}")
        if not source:
            raise TableError("no source")
        factor = evaluate(factor_text, self.no_names)
        if factor.pi or any(factor.dims):
            raise TableError("a prefix's factor is a plain rational number")
        for name in names:
            if not is_name(name):
                raise TableError(f"{name!r} is not a name")
            if name in self.prefixes:
                raise TableError(f"prefix name {name!r} used twice")
            self.prefixes[name] = (names[0], factor.coef, kind)
        self.prefix_entries.append((names, factor.coef, kind, source, where))

    @staticmethod
    def no_names(name):
        """For expressions that may hold no names (a prefix's factor)."""
        raise TableError(f"no names allowed here ({name!r})")

    def prefix_set(self, text):
        """The prefix symbols a PREFIXES field allows: `-`, `si`, `binary`, both, or a list
        of SI prefix symbols (which may end in `binary`)."""
        words = text.split()
        if words == ["-"]:
            return []
        allowed = []
        for word in words:
            if word in ("si", "binary"):
                allowed += [e[0][0] for e in self.prefix_entries if e[2] == word]
            elif word in self.prefixes and self.prefixes[word][0] == word \
                    and self.prefixes[word][2] == "si":
                allowed.append(word)
            else:
                raise TableError(f"{word!r} is not `-`, `si`, `binary` or an SI prefix symbol")
        if len(set(allowed)) != len(allowed):
            raise TableError("a prefix listed twice")
        return allowed

    def lookup(self, name):
        """A unit name's value: an entry's name, or an allowed prefix and a unit's name."""
        if name in self.by_name:
            return self.by_name[name].value
        for prefix_name, unit in self.decompositions(name):
            factor = self.prefixes[prefix_name][1]
            return Q(factor) * unit.value
        raise TableError(f"unknown unit {name!r} (not defined above)")

    def decompositions(self, word):
        """Every (prefix name, unit) that spells `word` with a prefix the unit allows."""
        found = []
        for prefix_name, (symbol, _, _) in self.prefixes.items():
            if word.startswith(prefix_name) and len(word) > len(prefix_name):
                unit = self.by_name.get(word[len(prefix_name):])
                if unit and symbol in unit.prefixes and unit.kind in ("unit", "base"):
                    found.append((prefix_name, unit))
        return found

    def uses_measured(self, text):
        """The measured units an expression refers to."""
        measured = []

        def spy(name):
            value = self.lookup(name)
            unit = self.by_name.get(name) or (self.decompositions(name) or [(None, None)])[0][1]
            if unit is not None and unit.measured:
                measured.append(unit)
            return value
        evaluate(text, spy)
        return measured

    def tag_of(self, text, value):
        """The dimensionless kind of a unit made of that kind's units alone (`pi/180*rad`
        is an angle), else None (`cd*sr` is a luminosity)."""
        tags = set()

        def spy(name):
            result = self.lookup(name)
            unit = self.by_name.get(name) or (self.decompositions(name) or [(None, None)])[0][1]
            tags.add(unit.tag if unit else None)
            return result
        evaluate(text, spy)
        if any(value.dims) or len(tags) != 1:
            return None
        return tags.pop()

    def precision(self, text):
        """The significant digits a measured expression is known to: its fewest-digit
        decimal literal, or the least precise measured unit it uses."""
        counts = [u.precision for u in self.uses_measured(text) if u.precision]
        own = significant_digits(text)
        return min(counts + ([own] if own else [])) if counts or own else None

    def read_unit(self, text, where):
        """`SYMBOL [NAME…] = DEFINITION ; PREFIXES ; SOURCE`."""
        fields = text.split(" ; ")
        if len(fields) != 3:
            raise TableError("expected `NAMES = DEFINITION ; PREFIXES ; SOURCE`")
        head, prefix_text, source = (f.strip() for f in fields)
        names_text, sep, definition = head.partition(" = ")
        names, definition = names_text.split(), definition.strip()
        if not sep or not names or not definition:
            raise TableError("expected `NAMES = DEFINITION`")
        if not source:
            raise TableError("no source")
        for name in names:
            if not is_name(name):
                raise TableError(f"{name!r} is not a name")
            if name in self.by_name:
                raise TableError(f"name {name!r} already names {self.by_name[name].symbol!r} "
                                 f"({self.by_name[name].line})")
            if names.count(name) > 1:
                raise TableError(f"name {name!r} listed twice")
        prefixes = self.prefix_set(prefix_text)
        said_measured = "measured" in source.lower()
        offset = digits = tag = None
        words = definition.split()
        if words[0] == "base":
            dimension = definition[len("base "):].strip()
            if dimension not in self.dimension_kind or \
                    self.dimension_kind[dimension] not in ("base", "none"):
                raise TableError(f"{dimension!r} is not a base or `none` dimension")
            if dimension == "money":
                raise TableError("money has no base unit: currencies are `currency DIGITS`")
            tag = dimension if self.dimension_kind[dimension] == "none" else None
            if any(u.kind == "base" and u.value.dims == self.dimensions[dimension]
                   and u.tag == tag for u in self.units):
                raise TableError(f"dimension {dimension!r} has two base units")
            value, kind, measured = Q(1, 0, self.dimensions[dimension]), "base", False
        elif words[0] == "affine":
            match = re.fullmatch(r"affine (.+) offset (\S+)", definition)
            if not match:
                raise TableError("expected `affine SCALE offset OFFSET`")
            value = evaluate(match.group(1), self.lookup)
            offset = Fraction(match.group(2))
            if value.dims != self.dimensions["temperature"] or value.pi:
                raise TableError("an affine scale is a rational temperature unit")
            if prefixes:
                raise TableError("an affine unit takes no prefixes")
            kind, measured = "affine", bool(self.uses_measured(match.group(1)))
        elif words[0] == "currency":
            if len(words) != 2 or not words[1].isdigit() or int(words[1]) > 4:
                raise TableError("expected `currency DIGITS` with 0 to 4 digits")
            if prefixes:
                raise TableError("a currency takes no prefixes")
            if not re.fullmatch(r"[A-Z]{3}", names[0]) or "ISO 4217" not in source:
                raise TableError("a currency's symbol is its ISO 4217 code, cited")
            digits = int(words[1])
            value, kind, measured = Q(1, 0, self.dimensions["money"]), "currency", False
        else:
            value = evaluate(definition, self.lookup)
            kind = "unit"
            measured = bool(self.uses_measured(definition))
            tag = self.tag_of(definition, value)
        if measured and not said_measured:
            raise TableError("built on a measured unit: its source must say `measured`")
        measured = measured or said_measured
        precision = None
        if measured:
            precision = self.precision(definition)
            if precision is None:
                raise TableError("measured, but no digits to tell its precision")
        unit = Unit(names, value, kind, prefixes, source, where, measured, offset, digits,
                    precision, tag)
        self.units.append(unit)
        for name in names:
            self.by_name[name] = unit

    def read_constants(self, path):
        """`SYMBOL [NAME…] = VALUE UNIT-EXPRESSION ; exact|measured ; DESCRIPTION ; SOURCE`."""
        for number, text in self.lines(path):
            where = f"{path.name}:{number}"
            try:
                fields = [f.strip() for f in text.split(" ; ")]
                if len(fields) != 4:
                    raise TableError("expected `NAMES = VALUE ; exact|measured ; "
                                     "DESCRIPTION ; SOURCE`")
                head, exactness, description, source = fields
                names_text, sep, expression = head.partition(" = ")
                names = names_text.split()
                if not sep or not names or not expression.strip():
                    raise TableError("expected `NAMES = VALUE UNIT-EXPRESSION`")
                if exactness not in ("exact", "measured"):
                    raise TableError(f"expected exact or measured, not {exactness!r}")
                if not description or not source:
                    raise TableError("no description or no source")
                for name in names:
                    if not is_name(name):
                        raise TableError(f"{name!r} is not a name")
                    if name in self.constant_by_name or names.count(name) > 1:
                        raise TableError(f"constant name {name!r} used twice")
                value = evaluate(expression, self.lookup)
                used = self.uses_measured(expression)
                if exactness == "exact" and used:
                    raise TableError("exact, but built on measured units: "
                                     + ", ".join(u.symbol for u in used))
                precision = self.precision(expression) if exactness == "measured" else None
                if exactness == "measured" and precision is None:
                    raise TableError("measured, but no digits to tell its precision")
                entry = (names, value, exactness, description, source, where, precision)
                self.constants.append(entry)
                for name in names:
                    self.constant_by_name[name] = entry
            except TableError as problem:
                self.error(where, str(problem))

    # --- derived views

    def dimension_name(self, dims, tag=None):
        """The declared name of a dimension vector (or the kind a dimensionless unit is
        tagged with), or None."""
        if tag:
            return tag
        for name, value in self.dimensions.items():
            if value == dims and self.dimension_kind[name] != "none":
                return name
        return None

    def base_units(self, dims, tag=None):
        """The base units a factor is counted in: `m^3*kg^-1*s^-2`, `rad` for an angle."""
        if tag:
            return next(u.symbol for u in self.units if u.kind == "base" and u.tag == tag)
        return self.base_expression(dims)

    def base_expression(self, dims):
        """A dimension vector in base-unit symbols: `m^3*kg^-1*s^-2` (`1` when empty)."""
        symbols = {}
        for unit in self.units:
            if unit.kind == "base" and any(unit.value.dims):
                symbols[unit.value.dims.index(1)] = unit.symbol
        parts = []
        for i, exponent in enumerate(dims):
            if exponent:
                symbol = symbols.get(i, Table.axes[i])
                parts.append(symbol if exponent == 1 else f"{symbol}^{exponent}")
        return "*".join(parts) or "1"

    def prefixed_names(self):
        """Every name a prefix makes: {word: [(prefix name, unit)]}."""
        made = {}
        for unit in self.units:
            for prefix_name, (symbol, _, _) in self.prefixes.items():
                if symbol in unit.prefixes:
                    for name in unit.names:
                        made.setdefault(prefix_name + name, []).append((prefix_name, unit))
        return made


# --------------------------------------------------------------------------------- check

def check(table):
    """Validates the table beyond reading it, prints the lists and counts; returns errors."""
    errors = list(table.errors)
    units = [u for u in table.units]
    entries = {}
    for unit in units:
        for name in unit.names:
            entries[name] = f"unit {unit.symbol}"
    for names, *_ in table.constants:
        for name in names:
            if name in entries:
                errors.append(f"constant name {name!r} is also {entries[name]}")
            entries.setdefault(name, f"constant {names[0]}")

    # Every unit's dimension has a name.
    for unit in units:
        if unit.kind != "currency" and table.dimension_name(unit.value.dims, unit.tag) is None:
            errors.append(f"{unit.line}: {unit.symbol}: its dimension "
                          f"{table.base_expression(unit.value.dims)} has no name")
    unused = [name for name, dims in table.dimensions.items()
              if table.dimension_kind[name] == "derived"
              and not any(u.value.dims == dims and not u.tag for u in units)]

    # Prefixed names: shadowed by an entry, spelt two ways, clashing with Reckon's names.
    made = table.prefixed_names()
    shadowed, twofold = [], []
    for word, ways in sorted(made.items()):
        if word in entries:
            prefix_name, unit = ways[0]
            shadowed.append(f"{word}: {prefix_name}+{word[len(prefix_name):]} "
                            f"is shadowed by {entries[word]}")
        elif len(ways) > 1:
            values = {(Q(table.prefixes[p][1]) * u.value).factor_text() for p, u in ways}
            spelt = ", ".join(f"{p}+{word[len(p):]}" for p, _ in ways)
            if len(values) > 1:
                errors.append(f"{word!r} spells different units: {spelt}")
            else:
                twofold.append(f"{word}: {spelt} (same value)")

    clashes = []
    for name, what in sorted(entries.items()):
        if name in RESERVED:
            line = f"{name}: {what} and Reckon's {RESERVED[name]}"
            if name in ALLOWED_CLASHES:
                clashes.append(line + " (allowed)")
            else:
                errors.append("clash: " + line)
    for word in sorted(made):
        if word in RESERVED and word not in entries:
            errors.append(f"clash: prefixed {word!r} and Reckon's {RESERVED[word]}")
    prefix_overlaps = sorted(f"{name}: prefix {table.prefixes[name][0]} and {entries[name]}"
                             for name in table.prefixes if name in entries)
    reserved_prefix = [n for n in table.prefixes if n in RESERVED]
    for name in reserved_prefix:
        errors.append(f"clash: prefix name {name!r} and Reckon's {RESERVED[name]}")

    print("Shadowed prefixed names (the entry wins):")
    for line in shadowed:
        print("  " + line)
    print("Prefixed names spelt two ways:")
    for line in twofold or ["(none)"]:
        print("  " + line)
    print("Prefix names that are also entries (a prefix never stands alone):")
    print("  " + "; ".join(prefix_overlaps))
    print("Clashes with Reckon's names:")
    for line in clashes:
        print("  " + line)
    if unused:
        print("Dimensions with no unit yet: " + ", ".join(unused))
    plain = [u for u in units if u.kind != "currency"]
    print(f"{len(table.dimensions)} dimensions, {len(table.prefix_entries)} prefixes, "
          f"{len(units)} units ({len(plain)} besides {len(units) - len(plain)} currencies; "
          f"{sum(len(u.names) for u in units)} names, {len(made)} prefixed names), "
          f"{len(table.constants)} constants "
          f"({sum(1 for c in table.constants if c[2] == 'exact')} exact)")
    for line in errors:
        print("error: " + line, file=sys.stderr)
    print(f"{len(errors)} errors")
    return errors


# ---------------------------------------------------------------------------------- dump

def dump(table):
    """Prints one line per prefix, unit and constant with its exact factor to base units."""
    print("# KIND\tSYMBOL\tDIMENSION\tBASE UNITS\tFACTOR (exact: p/q, times pi^k)\tNOTE "
          "(exact, measured DIGITS, affine offset OFFSET, currency DIGITS)")
    for names, factor, kind, _, _ in table.prefix_entries:
        print(f"prefix\t{names[0]}\t-\t1\t{factor}\t{kind}")
    for unit in table.units:
        dimension = table.dimension_name(unit.value.dims, unit.tag) or "-"
        base = table.base_units(unit.value.dims, unit.tag)
        note = f"measured {unit.precision}" if unit.measured else "exact"
        if unit.kind == "affine":
            note = f"affine offset {unit.offset}"
        elif unit.kind == "currency":
            note = f"currency {unit.digits}"
        print(f"unit\t{unit.symbol}\t{dimension}\t{base}\t{unit.value.factor_text()}\t{note}")
    for names, value, exactness, _, _, _, precision in table.constants:
        dimension = table.dimension_name(value.dims) or "-"
        base = table.base_expression(value.dims)
        note = f"measured {precision}" if precision else exactness
        print(f"constant\t{names[0]}\t{dimension}\t{base}\t{value.factor_text()}\t{note}")


# ----------------------------------------------------------------------- GNU units cases

# Reckon names that GNU units spells differently or defines otherwise: Reckon name -> a
# GNU units expression for the same unit (checked below against the exact factor), or None
# where GNU units has no unit with Reckon's definition. Unlisted units are looked up in
# GNU units by their symbol, then their other names, first match conforming.
GNU_NAMES = {
    "yr": "julianyear",            # GNU's year is the tropical year
    "month": "(julianyear/12)",    # GNU's month is a twelfth of the tropical year
    "decade": "(10 julianyear)", "century": "(100 julianyear)",
    "millennium": "(1000 julianyear)",
    "h": "hour",                   # GNU's h is Planck's constant
    "rad": "radian",               # GNU's rad is the dose
    "a": "julianyear",             # GNU's a is the are
    "b": "bit",                    # GNU's b is the bar
    "R": "roentgen",               # GNU's R is the gas constant
    "pt": "point",                 # GNU's pt is the pint
    "pint": "uspint", "qt": "usquart", "cup": "uscup", "gi": "usgill", "floz": "usfloz",
    "gal": "usgallon", "tbsp": "ustablespoon", "tsp": "usteaspoon", "fldr": "usfluiddram",
    "minim": "usminim",
    "gal_imp": "brgallon", "qt_imp": "brquart", "pint_imp": "brpint", "gi_imp": "brgill",
    "floz_imp": "brfloz", "fldr_imp": "brfluiddram", "minim_imp": "brminim",
    "pk_imp": "brpeck", "bu_imp": "brbushel",
    "fldr": "fluiddram", "minim": "minimvolume", "fldr_imp": "brdram", "minim_imp": "brminim",
    "bbl_liquid": "(31.5 usgallon)", "hogshead": "ushogshead", "cord_foot": "cordfoot",
    "register_ton": "registerton", "MMcf": "(1e6 ft^3)", "Bcf": "(1e9 ft^3)",
    "Tcf": "(1e12 ft^3)", "AT": "assayton", "jin": "catty", "liang": "(catty/10)",  # GNU's catty: 500 g
    "R_jup": "jupiterradius", "L_sun": "solarluminosity", "M_sun": "sunmass",
    "M_earth": "earthmass", "var": "(V A)", "unit_pole": "unitpole", "ftHg": "(12 inHg)",
    "bu": "bushel", "pk": "peck", "dry_gal": "drygallon", "dry_qt": "dryquart",
    "dry_pint": "drypint", "bbl_dry": "drybarrel", "bbl": "(42 usgallon)",
    "cwt": "shorthundredweight", "cwt_long": "longhundredweight", "ton": "shortton",
    "ton_long": "longton", "dr_ap": "apdram", "oz_ap": "apounce", "scruple": "apscruple",
    "lbt": "troypound", "dr": "dram",
    "ft_US": "surveyfoot", "mi_US": "surveymile", "acre_US": "(43560 surveyfoot^2)",
    "ch": "chain", "rd": "rod", "link": "link", "fur": "furlong", "lea": "league",
    "ftm": "fathom", "cable": "(120 fathom)",  # GNU's cable is a tenth of a nautical mile
    "pc": "(648000 au / pi)",      # GNU's parsec is au/tan(1"), not IAU 2015's 648000/π au
    "pt_TeX": "texpoint", "sp": "(texpoint/65536)", "dd": "(1238|1157 texpoint)",
    "cicero": "(12*1238|1157 texpoint)", "pica": "(12 point)",
    "gn": "gravity", "gf": "(gram force)", "ozf": "(ounce force)", "pdl": "poundal",
    "cal": "calorie_th", "cal_IT": "calorie_IT", "Cal": "kilocalorie_th",
    "BTU": "btu_IT", "BTU_th": "btu_th", "MMBtu": "(1e6 btu_IT)", "therm_EC": "(1.05506e8 J)",
    "quad": "(1e15 btu_IT)", "tTNT": "(4.184e9 J)", "toe": "(1e7 kilocalorie_IT)",
    "tce": "(7e6 kilocalorie_IT)", "ft_lbf": "(ft lbf)", "in_lbf": "(in lbf)",
    "ft_pdl": "(ft poundal)",
    "Ry": "rydberg", "hph": "(horsepower hour)", "PS": "metrichorsepower",
    "hp_E": "electrichorsepower", "tonref": "tonrefrigeration",
    "rpm": "(1/min)", "rps": "(1/s)", "bpm": "(1/min)", "Bd": "(1/s)",
    "mho": "siemens", "statohm": "statohm", "statS": "statmho", "abS": "abmho",
    "D": "debye", "gamma": "(1e-9 T)", "gauss": "gauss",
    "°R": "degR", "Δ°C": "degC", "Δ°F": "degF",
    "ph": "phot", "fc": "footcandle", "nit": "nit", "sb": "stilb", "Lb": "lambert",
    "fL": "footlambert", "asb": "apostilb",
    "rad_dose": "(0.01 gray)", "rem_dose": "(0.01 sievert)",
    "poise": "poise", "cP": "centipoise", "St": "stokes", "cSt": "centistokes",
    "dpt": "diopter", "kayser": "kayser",
    "B": "byte", "nibble": "nibble", "KB": "(1000 byte)", "Kb": "(1000 bit)",
    "bps": "(bit/s)", "Bps": "(byte/s)", "Sh": "bit",
    "arcmin": "arcmin", "arcsec": "arcsec", "mas": "(arcsec/1000)",
    "µas": "(arcsec/1000000)", "turn": "turn", "gon": "gon", "sqdeg": "(deg^2)",
    "%": "percent", "‰": "(1|1000)", "bp": "basispoint", "ppm": "ppm", "ppb": "ppb",
    "unity": "1", "dozen": "dozen", "gross": "gross",
    "mpg": "(mile/usgallon)", "mpg_imp": "(mile/brgallon)", "kmpl": "(km/l)",
    "L_per_100km": "(l/100km)",
    "sqm": "(m^2)", "sqkm": "(km^2)", "sqin": "(in^2)", "sqft": "(ft^2)", "sqyd": "(yd^2)",
    "sqmi": "(mile^2)", "cuin": "(in^3)", "cuft": "(ft^3)", "cuyd": "(yd^3)",
    "daa": "(1000 m^2)", "ha": "hectare", "acre_ft": "acrefoot", "fbm": "boardfoot",
    "gpm": "(usgallon/min)", "gpd": "(usgallon/day)", "cfm": "(ft^3/min)",
    "cfs": "(ft^3/s)", "kph": "(km/hour)", "mph": "(mile/hour)", "fpm": "(ft/min)",
    "kn": "knot", "Gal": "galileo", "cmil": "circularmil", "cmHg": "(10 mmHg)",
    "cmH2O": "(10 mmH2O)", "ftH2O": "(12 inH2O)", "psf": "(lbf/ft^2)",
    "Ba": "barye", "at": "technicalatmosphere", "Torr": "torr",
    "light_minute": "(c minute)", "light_hour": "(c hour)", "light_day": "(c day)",
    "light_second": "(c s)", "ly": "lightyear",
    "hartree": "hartree", "bohr": "bohrradius", "Da": "dalton", "u": "u",
    "wk": "week", "d": "day", "min": "minute", "common_year": "commonyear",
    "leap_year": "leapyear", "gregorian_year": "gregorianyear",
    "cup_legal": "(240 ml)", "floz_legal": "(30 ml)", "tbsp_metric": "(15 ml)",
    "tsp_metric": "(5 ml)", "bbl_beer": "(31 usgallon)", "molar": "(mol/l)",
    "nmi": "nauticalmile", "au": "au", "hand": "hand",
    "twip": "(1|20 point)", "°Ré": None,
}
# Units that GNU units has under the same name but defines otherwise: left out, with why.
GNU_DIFFERENT = {
    "Oe": "GNU units derives the oersted from the measured µ0 since 2019; the SI brochure "
          "(8th ed. Table 9) and NIST SP 811 give 1000/(4π) A/m exactly",
    "gilbert": "as the oersted: GNU units goes through the measured µ0, NIST SP 811 gives "
               "10/(4π) A exactly",
    "R_sun": "GNU units' sunradius is 6.96e8 m, not IAU 2015's nominal 6.957e8 m",
    "R_earth": "GNU units' earthradius is the mean radius (6371.01 km), not IAU 2015's "
               "nominal equatorial 6378.1 km",
    "R_earth_polar": "GNU units has no nominal polar radius",
    "R_jup_polar": "GNU units has no nominal polar radius",
    "M_jup": "GNU units' jupitermass is the Jupiter system's GM (DE440), not IAU 2015's "
             "nominal GM of the planet",
}
# Reckon's prefixes by GNU units' names for them (GNU units 2.22 has no r, q, R, Q).
GNU_PREFIXES = {"y": "yocto", "z": "zepto", "a": "atto", "f": "femto", "p": "pico",
                "n": "nano", "µ": "micro", "m": "milli", "c": "centi", "d": "deci",
                "da": "deka", "h": "hecto", "k": "kilo", "M": "mega", "G": "giga",
                "T": "tera", "P": "peta", "E": "exa", "Z": "zetta", "Y": "yotta",
                "Ki": "kibi", "Mi": "mebi", "Gi": "gibi", "Ti": "tebi", "Pi": "pebi",
                "Ei": "exbi", "Zi": "zebi", "Yi": "yobi"}
# The temperature scales as GNU units' functions (a point on the scale, not a difference).
GNU_SCALES = {"°C": "tempC", "°F": "tempF", "°Ré": "tempreaumur", "K": "tempK",
              "°R": "tempR"}
GNU_BASES = {"m": "m", "kg": "kg", "s": "s", "A": "A", "K": "K", "mol": "mol", "cd": "cd",
             "bit": "bit", "rad": "radian", "sr": "sr", "unity": "1"}
GNU_CONSTANTS = {
    "c": "c", "h_P": "h", "ħ": "hbar", "q_e": "e", "k_B": "k", "N_A": "N_A",
    "R_gas": "gasconstant", "F_Faraday": "(N_A e)", "σ": "stefanboltzmann",
    "Φ_0": "(h/(2 e))", "G_0": "conductancequantum", "K_J": "K_J", "R_K": "R_K",
    "T_0": "stdtemp", "K_cd": "(683 lm/W)", "Δν_Cs": "(9192631770 Hz)", "c_1": "(2 pi h c^2)", "c_2": "(h c / k)", "g_n": "gravity",
    "p_atm": "atm", "G": "G", "α": "alpha", "R_inf": "Rinfinity", "a_0": "bohrradius",
    "μ_0": "mu0", "ε_0": "epsilon0", "Z_0": "Z0", "m_e": "electronmass",
    "m_p": "protonmass", "m_n": "neutronmass", "m_u": "atomicmassunit",
    "m_μ": "muonmass", "m_τ": "taumass", "m_d": "deuteronmass", "m_α": "alphaparticlemass",
    "μ_B": "bohrmagneton", "μ_N": "nuclearmagneton", "r_e": "electronradius",
    "λ_C": "(h / electronmass c)", "E_h": "hartree", "l_P": "plancklength",
    "m_P": "planckmass", "t_P": "plancktime", "T_P": "plancktemperature",
    "σ_e": "(8 pi electronradius^2 / 3)",
    "V_m": "(gasconstant 273.15 K / atm)",
}


def gnu_units(have, want, digits=15, reciprocal=False):
    """GNU units' answer for `have` in `want` as a decimal string, or None if it fails;
    `reciprocal` for a conversion to the reciprocal dimension (mpg to L/100 km)."""
    terse = [] if reciprocal else ["-t"]
    result = subprocess.run(["units", *terse, "-d", str(digits), have, want],
                            capture_output=True, text=True, timeout=30)
    answer = result.stdout.strip()
    if reciprocal:
        match = re.search(r"reciprocal conversion\s*\n\s*\* (\S+)", result.stdout)
        answer = match.group(1) if match else ""
    if result.returncode != 0 or not re.fullmatch(r"-?\d+(\.\d*)?(e[-+]?\d+)?", answer):
        return None
    return answer


def agreement(printed, exact):
    """How GNU units' printed digits compare with an exact value (a Fraction): `same` when
    the exact value rounds to every digit printed, `last` when it is off by one in the last
    digit only (GNU units computes in double precision), else `differ`."""
    shown = Fraction(printed)
    mantissa = printed.split("e")[0].lstrip("-")
    exponent = int(printed.split("e")[1]) if "e" in printed else 0
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    unit = Fraction(10) ** (exponent - decimals)      # one unit in the last printed digit
    error = abs(shown - exact)
    if error * 2 <= unit:
        return "same"
    if error <= unit * Fraction(3, 2):
        return "last"
    return "differ"


def agreement_measured(printed, value, digits):
    """`same` when GNU units' value and a measured one agree to within one unit in the last
    of the `digits` significant digits the table knows (GNU units may derive it from
    other constants and carry more digits), else `differ`."""
    value = abs(value)
    exponent = math.floor(math.log10(value))
    unit = Fraction(10) ** (exponent - digits + 1)
    return "same" if abs(abs(Fraction(printed)) - value) <= unit else "differ"


def gnu_forms(unit):
    """The GNU units expressions to try for a Reckon unit: its mapping if it has one,
    else its symbol and then its other names (the first that GNU units converts is used,
    and must then agree)."""
    if unit.symbol in GNU_DIFFERENT:
        return []
    if unit.symbol in GNU_NAMES:
        return [GNU_NAMES[unit.symbol]] if GNU_NAMES[unit.symbol] else []
    if unit.symbol in GNU_BASES:
        return [GNU_BASES[unit.symbol]]
    return [name for name in unit.names if re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", name)]


def gnu_check(table):
    """Each unit's factor against GNU units; returns ({symbol: gnu form}, report lines,
    disagreements)."""
    known, lines, bad = {}, [], []
    skipped = []
    for unit in table.units:
        if unit.kind in ("currency", "affine"):
            continue
        target = table.base_units(unit.value.dims, unit.tag)
        for symbol, gnu in GNU_BASES.items():
            target = re.sub(rf"(?<![\w]){re.escape(symbol)}(?![\w])", gnu, target)
        target = target.replace("*", " ")
        form = answer = None
        for form in gnu_forms(unit):
            answer = gnu_units(f"1 {form}", target)
            if answer is not None:
                break
        if answer is None:
            skipped.append(unit.symbol)
            continue
        if unit.measured:
            verdict = agreement_measured(answer, unit.value.approx(), unit.precision)
        else:
            verdict = agreement(answer, unit.value.approx())
        if verdict == "differ":
            bad.append(f"{unit.symbol} ({form}): GNU units {answer} {target}, "
                       f"table {unit.value.factor_text()}")
        else:
            known[unit.symbol] = form
    different = [u.symbol for u in table.units if u.symbol in GNU_DIFFERENT]
    by_expression = [s for s, form in known.items() if not re.fullmatch(r"\w+", form)]
    lines.append(f"{len(known) - len(by_expression)} units checked by a GNU units name, "
                 f"{len(by_expression)} through a GNU units expression (GNU_NAMES)")
    lacking = [s for s in skipped if s not in different]
    lines.append(f"{len(known)} units agree with GNU units; {len(different)} left out as GNU "
                 f"units defines them otherwise ({' '.join(different)}); {len(lacking)} not "
                 f"in GNU units ({' '.join(lacking)})")
    return known, lines, bad


def nice_value(rng):
    """A value a person might type: an integer, a short decimal, a small or a large one."""
    pick = rng.randrange(5)
    if pick == 0:
        return str(rng.randint(1, 1000))
    if pick == 1:
        return f"{rng.randint(1, 99999) / 100:g}"
    if pick == 2:
        return f"{rng.randint(1, 999) / 1000:g}"
    if pick == 3:
        return str(rng.randint(1, 9) * 10 ** rng.randint(3, 6))
    return f"{rng.randint(1, 9999) / 10:g}"


def pick_form(table, rng, unit, gnu, chance=0.35):
    """The unit, or sometimes a prefixed form of it: (Reckon name, GNU form, exact Q)."""
    usable = [p for p in unit.prefixes if p in GNU_PREFIXES]
    if usable and rng.random() < chance:
        prefix = rng.choice(usable)
        factor = table.prefixes[prefix][1]
        gnu_prefixed = f"({GNU_PREFIXES[prefix]} {gnu})"     # GNU units' prefix as a number
        return prefix + unit.symbol, gnu_prefixed, Q(factor) * unit.value
    return unit.symbol, gnu, unit.value


def gnu_cases(table, count, seed):
    """Prints `count` conversions, each checked against GNU units, as
    `VALUE FROM -> TO<TAB>GNU units' digits<TAB>exact fraction`; returns the errors."""
    if not shutil.which("units"):
        return ["GNU units is not installed (Debian package `units`)"]
    known, report, errors = gnu_check(table)
    constant_lines, constant_errors = gnu_check_constants(table)
    errors += constant_errors
    report += constant_lines
    groups = {}
    for unit in table.units:
        if unit.symbol in known and not unit.measured:
            groups.setdefault((unit.value.dims, unit.tag), []).append(unit)
    # A dimension with one unit (katal, molar, roentgen) is tried between its prefixed forms.
    groups = {dims: units for dims, units in groups.items()
              if len(units) > 1 or units[0].prefixes}
    temperature = [u for u in table.units if u.symbol in GNU_SCALES]
    economy = [u for u in table.units if table.dimension_name(u.value.dims) == "fuel economy"
               and u.symbol in known]
    consumption = [table.by_name["L_per_100km"]]
    rng = random.Random(seed)
    dims_list = sorted(groups, key=lambda d: table.dimension_name(*d) or "")
    made, retried, per_dimension = 0, 0, {}
    while made < count:
        value = nice_value(rng)
        reciprocal = False
        if made % 20 == 9:                          # one case in 20: mpg to L/100 km
            pair = [rng.choice(economy), consumption[0]]
            rng.shuffle(pair)
            source, target = pair
            exact_q = Q(1) / (Q(Fraction(value)) * source.value * target.value)
            exact, text_exact = exact_q.approx(), exact_q.factor_text()
            have, want = f"{value} {known[source.symbol]}", known[target.symbol]
            from_name, to_name, dimension = source.symbol, target.symbol, "fuel (reciprocal)"
            reciprocal = True
        elif made % 25 == 24:                       # about one case in 25: a temperature
            source, target = rng.sample(temperature, 2)
            value = rng.choice(["-40", "0", "37", "98.6", "100", "-10", "451", "20.5",
                                "1000", "5", "300", "-17.5"])
            if from_scale(source, Fraction(value)) < 0:
                continue
            exact = to_scale(target, from_scale(source, Fraction(value)))
            have = f"{GNU_SCALES[source.symbol]}({value})"
            want = GNU_SCALES[target.symbol]
            from_name, to_name, dimension = source.symbol, target.symbol, "temperature points"
            text_exact = str(exact)
        else:
            dims = rng.choice(dims_list)
            single = len(groups[dims]) == 1
            source, target = groups[dims] * 2 if single else rng.sample(groups[dims], 2)
            chance = 0.7 if single else 0.35
            from_name, from_gnu, from_q = pick_form(table, rng, source, known[source.symbol],
                                                    chance)
            to_name, to_gnu, to_q = pick_form(table, rng, target, known[target.symbol], chance)
            if from_name == to_name:
                continue
            ratio = Q(Fraction(value)) * from_q / to_q
            exact, text_exact = ratio.approx(), ratio.factor_text()
            have, want = f"{value} {from_gnu}", to_gnu
            dimension = table.dimension_name(*dims)
        # GNU units computes in double precision: its last digit may be off, and a point on
        # a temperature scale loses digits to the offset (-6.38888888888891 for -115/18),
        # so it is asked again with fewer digits, never fewer than 12.
        answer, verdict = None, "differ"
        for digits in (15, 14, 13, 12):
            answer = gnu_units(have, want, digits, reciprocal)
            if answer is None:
                break
            verdict = agreement(answer, exact)
            if verdict == "same" or (verdict == "differ" and dimension != "temperature points"):
                break
            retried += 1
        if answer is None:
            errors.append(f"GNU units could not convert {have!r} to {want!r}")
            continue
        if verdict != "same":
            errors.append(f"{value} {from_name} -> {to_name}: GNU units {answer}, "
                          f"table {text_exact} = {float(exact)!r}")
            continue
        print(f"{value} {from_name} -> {to_name}\t{answer}\t{text_exact}")
        per_dimension[dimension] = per_dimension.get(dimension, 0) + 1
        made += 1
    report.append(f"{made} cases over {len(per_dimension)} dimensions, every one agreeing "
                  f"with GNU units to all the digits it printed ({retried} asked again with "
                  f"fewer digits, GNU units' double precision being off in the last)")
    report.append("per dimension: " + ", ".join(f"{k} {v}" for k, v in
                                                 sorted(per_dimension.items())))
    for line in report:
        print(line, file=sys.stderr)
    return errors


def from_scale(unit, x):
    """Kelvins for x on a temperature scale (affine units, or plain K and °R)."""
    if unit.kind == "affine":
        return (x + unit.offset) * unit.value.coef
    return x * unit.value.coef


def to_scale(unit, kelvins):
    """A temperature in kelvins on a scale (affine units, or plain K and °R)."""
    if unit.kind == "affine":
        return kelvins / unit.value.coef - unit.offset
    return kelvins / unit.value.coef


def gnu_check_constants(table):
    """Each constant against GNU units' value; returns (report lines, errors)."""
    errors, agreed, missing = [], 0, []
    for names, value, exactness, _, _, _, precision in table.constants:
        form = GNU_CONSTANTS.get(names[0])
        target = table.base_expression(value.dims)
        for symbol, gnu in GNU_BASES.items():
            target = re.sub(rf"(?<![\w]){re.escape(symbol)}(?![\w])", gnu, target)
        answer = gnu_units(form, target.replace("*", " ")) if form else None
        if answer is None:
            missing.append(names[0])
            continue
        verdict = (agreement_measured(answer, value.approx(), precision)
                   if exactness == "measured" else agreement(answer, value.approx()))
        if verdict == "differ":
            errors.append(f"constant {names[0]}: GNU units {answer}, table "
                          f"{value.factor_text()} = {float(value.approx())!r}")
        else:
            agreed += 1
    return [f"constants: {agreed} agree with GNU units"
            + (f"; not in GNU units: {' '.join(missing)}" if missing else "")], errors


# ---------------------------------------------------------------------------------- main

def main():
    """Reads the arguments, runs one mode, exits 1 on any error."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="validate both files")
    mode.add_argument("--dump", action="store_true", help="print every exact factor")
    mode.add_argument("--gnu-units-cases", type=int, metavar="N",
                      help="print N conversions checked against GNU units")
    parser.add_argument("--seed", type=int, default=26, help="seed for --gnu-units-cases")
    args = parser.parse_args()
    table = Table()
    if args.check:
        errors = check(table)
    elif args.dump:
        errors = table.errors
        if not errors:
            dump(table)
    else:
        errors = table.errors or gnu_cases(table, args.gnu_units_cases, args.seed)
    for line in (errors if not args.check else []):
        print("error: " + line, file=sys.stderr)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
