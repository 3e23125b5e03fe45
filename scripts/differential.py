#!/usr/bin/env python3
"""Differential-test cases for Reckon's exact arithmetic.

Generates random expressions in Reckon's language (grammar/reckon.ebnf) as syntax trees,
computes each tree's exact value with fractions.Fraction straight from the tree (never by
parsing the printed text back), and prints one case per line, tab-separated:

    expression<TAB>numerator<TAB>denominator     (lowest terms, denominator > 0)
    expression<TAB>error                         (Reckon must refuse it)

The trees cover + - * / ^ mod of, the Unicode operators − × ÷, unary signs, postfix ! and %,
the percent rules (a + p%, a - p%, p% of a, p any value that is a percentage; a + p% is a plain sum when a is a percentage
itself: 10% + 5% is 15%), implicit multiplication, decimal, scientific
and digit-separated literals, values past 64 bits, negative and fractional exponents, and
abs floor ceil round min max sqrt log (only where the answer is exact).  Errors are division
by zero, 0 to a negative power, factorial of a negative or fractional number, and even roots
or square roots of negative numbers.

The output depends only on --seed and --count (Python >= 3.8; no hash ordering is used).
Standard library only.
"""

import argparse
import sys
from fractions import Fraction
from random import Random

DEFAULT_SEED = 20261121
# Results and intermediate values stay below this many bits (about 900 decimal digits).
MAX_BITS = 3000

# Binding levels, loosest first: a node prints bare where its level is at least the
# level its context asks for, and in parentheses otherwise.
ADD, MUL, OF, IMPL, UNARY, POWER, POSTFIX, PRIMARY = range(8)


class EvalError(Exception):
    """The expression has no value: Reckon must report an error."""


class Reject(Exception):
    """The tree is unfit (too large, or not exact): the generator tries another."""


ERROR = "error"  # the value of a node whose evaluation fails


def bits(v):
    return max(abs(v.numerator).bit_length(), v.denominator.bit_length())


def iroot(x, n):
    """The integer n-th root of x >= 0 when x is a perfect n-th power, else None."""
    if x < 2:
        return x
    r = 1 << -(-x.bit_length() // n)  # an overestimate
    while True:
        nxt = ((n - 1) * r + x // r ** (n - 1)) // n
        if nxt >= r:
            break
        r = nxt
    return r if r**n == x else None


def exact_root(v, q):
    """The exact q-th root of the fraction v, or None (negative v only for odd q)."""
    if v < 0:
        if q % 2 == 0:
            return None
        r = exact_root(-v, q)
        return None if r is None else -r
    a, b = iroot(v.numerator, q), iroot(v.denominator, q)
    return None if a is None or b is None else Fraction(a, b)


def floor_frac(v):
    return Fraction(v.numerator // v.denominator)


def round_half_away(v, places):
    scale = Fraction(10) ** places
    y = v * scale
    r = floor_frac(abs(y) + Fraction(1, 2))
    return (-r if y < 0 else r) / scale


def power(b, e):
    """b^e as Reckon defines it for exact values; raises EvalError, or Reject when too big or not exact."""
    if e.denominator == 1:
        n = e.numerator
        if b == 0:
            if n < 0:
                raise EvalError("0 to a negative power")
            return Fraction(1) if n == 0 else Fraction(0)
        if b in (1, -1):
            return b ** (n % 2) if b == -1 else b
        if (bits(b) - 1) * abs(n) > MAX_BITS:
            raise Reject("too large")
        return b**n
    p, q = e.numerator, e.denominator
    if b == 0:
        if p < 0:
            raise EvalError("0 to a negative power")
        return Fraction(0)
    if b < 0 and q % 2 == 0:
        raise EvalError("even root of a negative number")
    if q > 12:
        raise Reject("not exact")
    r = exact_root(b, q)
    if r is None:
        raise Reject("not exact")
    return power(r, Fraction(p))


class Node:
    """A syntax tree node: `level` for printing, `value` a Fraction or ERROR."""

    def __init__(self, kind, level, value, children=(), **extra):
        self.kind, self.level, self.value, self.children = kind, level, value, list(children)
        self.__dict__.update(extra)


def is_ratio(node):
    """Whether Reckon's value of `node` is a percentage (a quantity in %), which the a + p%
    rule leaves alone (10% + 5% is 15%). A p% of a plain number is one; a sum is one when
    its first term is; a chain of mod too; abs, min and max keep their first argument's unit;
    every product, power and other function gives a plain number."""
    while node.kind in ("paren", "neg"):
        node = node.children[0]
    if node.kind == "pct":
        return not is_ratio(node.children[0])
    if node.kind == "add":
        return is_ratio(node.children[0])
    if node.kind == "mul":
        return is_ratio(node.children[0]) and all(op == "mod" for op in node.ops)
    if node.kind == "call" and node.name in ("abs", "min", "max"):
        return is_ratio(node.children[0])
    return False


def starts_juxtaposable(tokens):
    return tokens[0] == "(" or tokens[0][0].isalpha()


class Printer:
    """Turns a tree into tokens and then text, with a little random spacing."""

    def __init__(self, rng):
        self.rng = rng

    def tokens(self, node, need):
        if node.level < need:
            return ["("] + self.tokens(node, ADD) + [")"]
        k, c = node.kind, node.children
        if k == "num":
            return [node.text]
        if k == "paren":
            return ["("] + self.tokens(c[0], ADD) + [")"]
        if k == "call":
            out = [node.name, "("]
            for i, a in enumerate(c):
                if i:
                    out.append(",")
                out += self.tokens(a, ADD)
            return out + [")"]
        if k in ("fact", "pct"):
            return self.tokens(c[0], POSTFIX) + ["!" if k == "fact" else "%"]
        if k == "pow":
            return self.tokens(c[0], POSTFIX) + ["^"] + self.tokens(c[1], UNARY)
        if k == "neg":
            return [node.sign] + self.tokens(c[0], UNARY)
        if k == "impl":
            out = self.tokens(c[0], UNARY)
            for f in c[1:]:
                ft = self.tokens(f, POWER)
                if not starts_juxtaposable(ft):
                    ft = ["("] + ft + [")"]
                if out[-1] == "%":
                    # Reckon refuses a factor right after a % (7 % (2): a remainder meant?).
                    out = ["("] + out + [")"]
                out += ft
            return out
        if k == "of":
            # "p% of x" is one factor, tighter than * / mod and right-associative.
            return self.tokens(c[0], UNARY) + ["of"] + self.tokens(c[1], OF)
        if k in ("mul", "add"):
            operand_level = OF if k == "mul" else MUL
            out = self.tokens(c[0], operand_level)
            for op, operand in zip(node.ops, c[1:]):
                out += [op] + self.tokens(operand, operand_level)
            return out
        raise AssertionError(k)

    def text(self, node):
        toks = self.tokens(node, ADD)
        out = toks[0]
        for prev, tok in zip(toks, toks[1:]):
            words = prev in ("mod", "of") or tok in ("mod", "of")
            if words or self.rng.random() < 0.25:
                out += " "
            out += tok
        return out


class Generator:
    def __init__(self, seed):
        self.rng = Random(seed)
        self.printer = Printer(self.rng)

    # ---- leaves -----------------------------------------------------------------------

    EDGE_INTEGERS = [
        2**31 - 1, 2**31, 2**32 - 1, 2**32, 3037000499, 3037000500, 2**62, 2**63 - 1, 2**63,
        2**63 + 1, 2**64 - 1, 2**64, 2**64 + 1, 10**18, 10**19, 10**20, 4611686018427387904,
    ]

    def digits(self, n):
        rng = self.rng
        return str(rng.randrange(10 ** (n - 1), 10**n))

    def with_separators(self, s):
        if len(s) > 3 and self.rng.random() < 0.3:
            head = len(s) % 3 or 3
            groups = [s[:head]] + [s[i : i + 3] for i in range(head, len(s), 3)]
            return "_".join(groups)
        return s

    def number(self):
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            text = str(rng.randrange(0, 13))
        elif r < 0.50:
            text = self.with_separators(self.digits(rng.randrange(2, 8)))
        elif r < 0.58:
            text = self.with_separators(self.digits(rng.randrange(19, 45)))
        elif r < 0.64:
            text = str(rng.choice(self.EDGE_INTEGERS))
        elif r < 0.84:
            whole = str(rng.randrange(0, 100)) if rng.random() < 0.8 else ""
            frac = "".join(str(rng.randrange(10)) for _ in range(rng.randrange(1, 5)))
            if whole == "" or rng.random() < 0.9:
                text = whole + "." + frac
            else:
                text = whole + "."
        else:
            mant = rng.choice(["1", "2", "5", "2.5", ".5", "1.25", "3", "12", "7.", "0.001"])
            exp = rng.choice(["", "+", "-"]) + str(rng.randrange(0, 25))
            text = mant + rng.choice("eE") + exp
        return Node("num", PRIMARY, literal_value(text), text=text)

    def small_int(self, lo, hi):
        n = self.rng.randrange(lo, hi + 1)
        leaf = Node("num", PRIMARY, Fraction(abs(n)), text=str(abs(n)))
        return self.neg(leaf) if n < 0 else leaf

    # ---- combinators (each computes its value) -------------------------------------------

    def neg(self, child, sign="-"):
        v = child.value if child.value is ERROR or sign == "+" else -child.value
        return Node("neg", UNARY, v, [child], sign=sign)

    def paren(self, child):
        return Node("paren", PRIMARY, child.value, [child])

    def checked(self, kind, level, children, compute, **extra):
        vals = [c.value for c in children]
        if ERROR in vals:
            return Node(kind, level, ERROR, children, **extra)
        try:
            v = compute(*vals)
        except EvalError:
            v = ERROR
        if v is not ERROR and bits(v) > MAX_BITS:
            raise Reject("too large")
        return Node(kind, level, v, children, **extra)

    def binop(self, op, a, b):
        if op == "+":
            return a + b
        if op in ("-", "−"):
            return a - b
        if op in ("*", "×"):
            return a * b
        if op in ("/", "÷"):
            if b == 0:
                raise EvalError("division by zero")
            return a / b
        if op == "mod":
            if b == 0:
                raise EvalError("mod 0")
            return a % b
        raise AssertionError(op)

    def chain(self, kind, first, links):
        ops = [op for op, _ in links]
        operands = [x for _, x in links]

        def compute(*vals):
            acc = vals[0]
            ratio = is_ratio(first)
            for op, operand, v in zip(ops, operands, vals[1:]):
                if kind == "add" and is_ratio(operand) and not ratio:
                    acc = acc * (1 + v) if op == "+" else acc * (1 - v)
                else:
                    acc = self.binop(op, acc, v)
            return acc

        level = ADD if kind == "add" else MUL
        return self.checked(kind, level, [first] + operands, compute, ops=ops)

    # ---- random trees -----------------------------------------------------------------------

    def expr(self, depth):
        """A random expression; retries (mostly) when it would be an error."""
        for _ in range(30):
            try:
                node = self.attempt(depth)
            except Reject:  # too large or not exact: try another
                continue
            if node.value is not ERROR or self.rng.random() < 0.25:
                return node
        return self.number()

    def attempt(self, depth):
        rng = self.rng
        if depth <= 0:
            return self.number() if rng.random() < 0.85 else self.small_int(-9, 9)
        d = depth - 1
        r = rng.random()
        if r < 0.16:
            n = rng.randrange(1, 4)
            ops = [rng.choice(["+", "+", "-", "-", "−"]) for _ in range(n)]
            links = [(op, self.expr(d) if rng.random() < 0.8 else self.percentage(d)) for op in ops]
            return self.chain("add", self.expr(d), links)
        if r < 0.32:
            n = rng.randrange(1, 4)
            ops = [rng.choice(["*", "*", "/", "/", "mod", "×", "÷"]) for _ in range(n)]
            return self.chain("mul", self.expr(d), [(op, self.expr(d)) for op in ops])
        if r < 0.40:
            return self.power(d)
        if r < 0.46:
            return self.neg(self.expr(d), rng.choice(["-", "-", "-", "−", "+"]))
        if r < 0.52:
            return self.implicit(d)
        if r < 0.60:
            return self.percent_form(d)
        if r < 0.65:
            return self.factorial(d)
        if r < 0.80:
            return self.function(d)
        if r < 0.85:
            return self.paren(self.expr(d))
        if r < 0.90:
            return self.edge()
        if r < 0.91:
            return self.error()
        return self.number()

    def error(self):
        """A deliberate error: a zero divisor (often computed), 0 to a negative power, a bad factorial."""
        rng = self.rng
        x = self.expr(0)
        zero = self.int_leaf(0) if rng.random() < 0.5 else self.chain("add", x, [("-", x)])
        r = rng.random()
        if r < 0.5:
            return self.chain("mul", self.expr(1), [(rng.choice(["/", "÷", "mod"]), zero)])
        if r < 0.7:
            return self.checked("pow", POWER, [self.paren(zero), self.small_int(-3, -1)], power)
        if rng.random() < 0.5:
            child = self.paren(self.small_int(-5, -1))
        else:
            text = rng.choice(["0.5", "2.5", "1.1", ".75", "3.000001", "1e-1"])
            child = Node("num", PRIMARY, literal_value(text), text=text)
        return self.checked("fact", POSTFIX, [child], factorial_of)

    def percentage(self, depth):
        """p%, possibly under unary signs and parentheses: the right operand of a percent rule."""
        rng = self.rng
        inner = self.number() if rng.random() < 0.6 else self.paren(self.expr(depth))
        node = self.checked("pct", POSTFIX, [inner], lambda v: v / 100)
        if rng.random() < 0.1:
            node = self.checked("pct", POSTFIX, [node], lambda v: v / 100)
        if rng.random() < 0.25:
            node = self.neg(node, rng.choice(["-", "−", "+"]))
        if rng.random() < 0.15:
            node = self.paren(node)
        return node

    def percent_form(self, depth):
        rng = self.rng
        r = rng.random()
        if r < 0.25:
            return self.percentage(depth)
        if r < 0.55:  # p% of a: one factor, tighter than * / mod, right-associative
            rest = self.expr(depth) if rng.random() < 0.6 else self.percent_form(depth)
            return self.checked("of", OF, [self.percentage(depth), rest], lambda p, a: p * a)
        if r < 0.65:  # a * p%
            return self.chain("mul", self.expr(depth), [("*", self.percentage(depth))])
        # a + p%, a - p%
        op = rng.choice(["+", "-", "−"])
        return self.chain("add", self.expr(depth), [(op, self.percentage(depth))])

    def power(self, depth):
        rng = self.rng
        r = rng.random()
        if r < 0.45:  # integer exponent, often negative
            base = self.expr(depth) if rng.random() < 0.5 else self.number()
            exponent = self.small_int(-6, 12) if rng.random() < 0.8 else self.expr(depth)
        elif r < 0.6:  # big intermediate values: 2^70 and friends
            base = self.int_leaf(rng.choice([2, 3, 7, 10, 16, 255, 1024]))
            exponent = self.small_int(40, 300)
        elif r < 0.7:  # right-associative towers: 2^3^2
            base = self.small_int(0, 4)
            exponent = self.checked("pow", POWER, [self.small_int(0, 3), self.small_int(0, 2)], power)
        else:  # fractional exponent of a perfect power: 8^(2/3), 16^0.25, (-27)^(1/3)
            return self.root_power()
        return self.checked("pow", POWER, [base, exponent], power)

    def root_power(self):
        rng = self.rng
        q = rng.choice([2, 2, 3, 3, 4, 5])
        p = rng.choice([-3, -2, -1, 1, 1, 1, 2, 3, 5])
        root = Fraction(rng.randrange(0, 13), rng.choice([1, 1, 1, 2, 3, 5]))
        if q % 2 == 1 and rng.random() < 0.3:
            root = -root
        v = root**q
        if rng.random() < 0.04:  # an even root of a negative number: an error
            v, q, p = -v - 1, 2, rng.choice([-1, 1, 3])
        if v.denominator == 1:
            base = Node("num", PRIMARY, abs(v), text=str(abs(v)))
        else:
            base = self.paren(self.chain("mul", self.int_leaf(abs(v.numerator)), [("/", self.int_leaf(v.denominator))]))
        if v < 0:
            base = self.paren(self.neg(base))
        e = Fraction(p, q)
        dec = decimal_text(e)
        if dec is not None and rng.random() < 0.4:
            exponent = Node("num", PRIMARY, abs(e), text=decimal_text(abs(e)))
            if e < 0:
                exponent = self.neg(exponent)
        else:
            frac = self.chain("mul", self.small_int_exact(p), [("/", self.int_leaf(q))])
            exponent = self.paren(frac)
        return self.checked("pow", POWER, [base, exponent], power)

    def int_leaf(self, n):
        return Node("num", PRIMARY, Fraction(n), text=str(n))

    def small_int_exact(self, n):
        leaf = self.int_leaf(abs(n))
        return self.neg(leaf) if n < 0 else leaf

    def factorial(self, depth):
        rng = self.rng
        r = rng.random()
        if r < 0.6:
            child = self.int_leaf(rng.randrange(0, 30) if rng.random() < 0.9 else rng.randrange(30, 120))
        elif r < 0.8:
            child = self.paren(self.expr(depth))
        else:
            child = self.factorial(0) if depth <= 0 else self.paren(self.small_int(-3, 6))
            if child.kind == "fact" and rng.random() < 0.5:
                child = self.int_leaf(3)

        return self.checked("fact", POSTFIX, [child], factorial_of)

    def implicit(self, depth):
        rng = self.rng
        first = self.expr(depth) if rng.random() < 0.7 else self.number()
        factors = []
        for _ in range(rng.randrange(1, 3)):
            r = rng.random()
            if r < 0.5:
                f = self.paren(self.expr(depth))
            elif r < 0.7:
                f = self.function(depth)
            elif r < 0.85:
                f = self.checked("pow", POWER, [self.paren(self.expr(depth)), self.small_int(-2, 3)], power)
            else:
                kind = rng.choice(["fact", "pct"])
                inner = self.paren(self.small_int(0, 6) if kind == "fact" else self.expr(depth))
                f = self.checked(kind, POSTFIX, [inner], factorial_of if kind == "fact" else (lambda v: v / 100))
            factors.append(f)
        return self.checked("impl", IMPL, [first] + factors, lambda *vs: product(vs))

    def function(self, depth):
        rng = self.rng
        name = rng.choice(["abs", "floor", "ceil", "round", "round", "min", "max", "sqrt", "log", "zero"])
        if name == "abs":
            return self.call("abs", [self.expr(depth)], lambda v: abs(v))
        if name == "floor":
            return self.call("floor", [self.expr(depth)], floor_frac)
        if name == "ceil":
            return self.call("ceil", [self.expr(depth)], lambda v: -floor_frac(-v))
        if name == "round":
            if rng.random() < 0.4:
                return self.call("round", [self.expr(depth)], lambda v: round_half_away(v, 0))
            places = self.small_int(-3, 8)
            return self.call("round", [self.expr(depth), places], round_half_away_checked)
        if name in ("min", "max"):
            args = [self.expr(depth) for _ in range(rng.randrange(1, 5))]
            return self.call(name, args, lambda *vs: (min if name == "min" else max)(vs))
        if name == "sqrt":
            return self.sqrt(depth)
        if name == "log":
            return self.log()
        # exp, sin, tan and ln are exact only at 0 (1 for ln).
        fn, at, result = rng.choice([("exp", 0, 1), ("sin", 0, 0), ("cos", 0, 1), ("tan", 0, 0), ("ln", 1, 1)])
        x = self.expr(depth)
        if x.value is ERROR:
            arg = x
        else:
            offset = x.value - at
            arg = self.chain("add", x, [("-", self.exact_literal(offset))])
        return self.call(fn, [arg], lambda v: Fraction(0) if fn == "ln" else Fraction(result))

    def exact_literal(self, v):
        """A node with value v: a literal or a parenthesised quotient."""
        leaf = self.int_leaf(abs(v.numerator))
        if v.denominator != 1:
            leaf = self.paren(self.chain("mul", leaf, [("/", self.int_leaf(v.denominator))]))
        return self.paren(self.neg(leaf)) if v < 0 else leaf

    def sqrt(self, depth):
        rng = self.rng
        r = rng.random()
        if r < 0.5:
            inner = self.expr(depth)
            arg = self.checked("pow", POWER, [self.paren(inner), self.int_leaf(2)], power)
        elif r < 0.85:
            v = Fraction(rng.randrange(0, 10**rng.randrange(1, 25)), rng.choice([1, 1, 4, 9, 25, 100, 10**12 + 39]))
            arg = self.exact_literal(v * v)
        else:
            arg = self.expr(depth)

        def root(v):
            if v < 0:
                raise EvalError("square root of a negative number")
            r = exact_root(v, 2)
            if r is None:
                raise Reject("not exact")
            return r

        return self.call("sqrt", [arg], root)

    def log(self):
        rng = self.rng
        base = rng.choice([Fraction(10), Fraction(2), Fraction(3), Fraction(7), Fraction(16), Fraction(1, 2), Fraction(2, 3)])
        k = rng.randrange(-8, 40)
        x = self.exact_literal(base**k)
        if base == 10 and rng.random() < 0.5:
            return self.call("log", [x], lambda v: Fraction(k))
        return self.call("log", [x, self.exact_literal(base)], lambda v, b: Fraction(k))

    def call(self, name, args, compute):
        return self.checked("call", PRIMARY, args, compute, name=name)

    def edge(self):
        """Arithmetic around the 64-bit boundary where Rational switches to BigInt."""
        rng = self.rng
        a = self.int_leaf(rng.choice(self.EDGE_INTEGERS))
        if rng.random() < 0.5:
            a = self.neg(a)
        if rng.random() < 0.3:
            a = self.paren(self.chain("mul", a, [("/", self.int_leaf(rng.choice(self.EDGE_INTEGERS + [3, 7])))]))
        b = rng.choice([self.small_int(-2, 2), self.int_leaf(rng.choice(self.EDGE_INTEGERS))])
        if rng.random() < 0.3:
            b = self.neg(b)
        op = rng.choice(["+", "-", "*", "/", "mod"])
        if op in ("+", "-"):
            return self.chain("add", a, [(op, b)])
        if rng.random() < 0.2:
            return self.checked("pow", POWER, [self.paren(a), self.small_int(-2, 3)], power)
        return self.chain("mul", a, [(op, b)])

    def case(self):
        node = self.expr(self.rng.choice([1, 1, 2, 2, 3, 3, 4]))
        text = self.printer.text(node)
        if node.value is ERROR:
            return f"{text}\terror"
        return f"{text}\t{node.value.numerator}\t{node.value.denominator}"


def factorial_of(v):
    if v.denominator != 1 or v < 0:
        raise EvalError("factorial needs a whole number >= 0")
    if v > 400:
        raise Reject("too large")
    out = 1
    for k in range(2, int(v) + 1):
        out *= k
    return Fraction(out)


def round_half_away_checked(v, places):
    assert places.denominator == 1
    return round_half_away(v, int(places))


def product(values):
    out = Fraction(1)
    for v in values:
        out *= v
    return out


def literal_value(text):
    """The exact value of a number literal: digits [. digits] [e [sign] digits], '_' ignored."""
    t = text.replace("_", "").lower()
    mant, _, exp = t.partition("e")
    whole, _, frac = mant.partition(".")
    digits = int((whole + frac) or "0")
    shift = (int(exp) if exp else 0) - len(frac)
    return Fraction(digits * 10**shift) if shift >= 0 else Fraction(digits, 10**-shift)


def decimal_text(v):
    """v as a short decimal literal when it has one (0.5, 1.25), else None."""
    for places in range(0, 4):
        scaled = v * 10**places
        if scaled.denominator == 1:
            s = str(abs(scaled.numerator)).rjust(places + 1, "0")
            text = s if places == 0 else s[:-places] + "." + s[-places:]
            return ("-" if v < 0 else "") + text
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000, help="number of cases (default 10000)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument("--out", help="write to this file instead of stdout")
    args = parser.parse_args(argv)
    gen = Generator(args.seed)
    lines = [gen.case() for _ in range(args.count)]
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.reconfigure(encoding="utf-8")
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
