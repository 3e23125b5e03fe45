#!/usr/bin/env python3
"""Differential-test cases for Reckon's approximations, with mpmath as the oracle.

Generates random expressions in Reckon's language (grammar/reckon.ebnf) that use its
functions (sqrt cbrt abs round floor ceil trunc min max ln log log2 exp sin cos tan asin
acos atan atan2 sinh cosh tanh asinh acosh atanh), its constants (pi e tau phi, and π τ φ),
arithmetic (+ - * / and − × ÷ ·, unary signs, implicit multiplication as in 2pi), integer,
rational and real powers (^ and **), nested a few levels, each function's argument inside
its domain; and edge cases: tiny and huge magnitudes (1e-300, 10^50, exp(700)), cancellation
(exp(1e-30) - 1, 1 - cos(1e-10), atan(1e40) - pi/2), rational multiples of π, arguments near
the ends of a domain (asin(1 - 1e-30), acosh(1 + 1e-40), atanh(-(1 - 1e-20))), values that
round up to a power of ten, and a scale factor 10^k that moves the result across the
positional and scientific layouts.

Each case is computed with mpmath from the tree (never by parsing the printed text back) and
printed as one line, tab-separated:

    digits<TAB>index<TAB>expression<TAB>≈ TEXT     Reckon prints exactly this at `digits`
    digits<TAB>index<TAB>expression<TAB>= N/D      the value is the rational N/D, exactly

The rule for the expected answer:

* The generator knows some values to be exact: rational arithmetic, rational multiples of
  π and powers of e, sin/cos/tan at rational multiples of π where Niven's theorem makes them
  rational, asin/acos/atan of 0, ±1/2, ±1, ln(e^k), perfect roots and powers, and
  floor/ceil/round/trunc, which Reckon makes exact. When the whole expression is such a
  rational (sin(3π) is 0, cos(π/3) + 1 is 3/2) the case is "= N/D" and Reckon must answer
  exactly that rational. The oracle still checks the claim numerically with mpmath.
* Otherwise the case is "≈ TEXT", the text Reckon prints for an approximation: "≈ ", the N
  significant digits correctly rounded, trailing zeros removed, in the layout of
  NumberFormatter.positional (scientific when the decimal exponent is below -5 or at least
  N). When Reckon answers exactly there anyway (sqrt(2)^2 is approximated, but π - π + 1 is
  exactly 1), the test compares the value: Reckon's rational, rounded to N digits the same
  way, must give the same text.

How mpmath is made sure of its digits: the tree is evaluated at mp.dps = N + 50 + S, where S
is the number of decimal orders of magnitude its values span (so that 1e-300 is never lost
next to 1), and again at twice that, doubling (up to max(8·(N + 50 + S), 2000) digits) until
two successive precisions agree to N + 25 significant digits. A precision at which some
subexpression comes out exactly 0 or ±1 without being known to (1 - cos(1e-100) is 0, and
tanh(837) is 1, below a few hundred digits), or a sum cancels to fewer than 64 good bits, does
not count: identical garbage at two precisions would agree. The value is then rounded to N
digits from the higher precision. When it lies close to a rounding boundary (ln(1 + 1e-50) at
50 digits), agreement to as many more digits as it takes is asked for, as long as Reckon's own
precision bound (Real.digits: 4·start or start + 4096 bits) could tell the side too.

A case is skipped when the precisions never agree (a value indistinguishable from zero, say)
or when it lies too close to a rounding boundary for that bound, and another tree takes its
slot; each digit count ends with a summary line, tab-separated:

    #<TAB>digits<TAB>cases<TAB>exact ones<TAB>skipped near a boundary<TAB>skipped as unsettled<TAB>mpmath VERSION

The case in slot i at N digits comes from its own random generator (seeded with "SEED:N:i",
then "SEED:N:i/1"… if skipped), so `--only N:i` regenerates one case (naming any it skipped),
and `--job K/J` makes the slots equal to K modulo J: J processes share a run. Needs mpmath (scripts/oracle-python makes a venv with it).
"""

import argparse
import sys
from fractions import Fraction
from random import Random

try:
    import mpmath
    from mpmath import mp
except ImportError:  # pragma: no cover - reported to the caller
    sys.stderr.write("approx-differential.py: mpmath is missing (scripts/oracle-python makes a venv with it)\n")
    sys.exit(3)

DEFAULT_SEED = 20261125
DEFAULT_PLAN = "10:5000,50:1000,1000:200"

# Binding levels, loosest first (grammar/reckon.ebnf): a node prints bare where its level is
# at least what its context asks for, and in parentheses otherwise.
ADD, MUL, IMPL, UNARY, POWER, PRIMARY = range(6)

# Values of subexpressions stay within these magnitudes (mpmath and MPFR go much further;
# this keeps every case quick).
MAX_MAG = mpmath.mpf(10) ** 400
MIN_MAG = mpmath.mpf(10) ** -400
# The largest power of π or e that Reckon keeps symbolically (Value.Constants.maxPower).
MAX_CONSTANT_POWER = 10_000
LOG2_10 = 3.321928094887362


class Reject(Exception):
    """The subtree is unfit (out of a domain, too large, zero, unsettled): try another."""


class Unsettled(Exception):
    """At this precision the value cannot be told (floor of a value near an integer, a
    division by a value near zero, a complex result): a higher precision may tell it."""


# ---- exact helpers ------------------------------------------------------------------------


def iroot(x, n):
    """The integer n-th root of x >= 0 when x is a perfect n-th power, else None."""
    if x < 2:
        return x
    r = 1 << -(-x.bit_length() // n)
    while True:
        nxt = ((n - 1) * r + x // r ** (n - 1)) // n
        if nxt >= r:
            break
        r = nxt
    return r if r**n == x else None


def exact_root(v, q):
    """The exact q-th root of a fraction v >= 0, or None."""
    if v < 0:
        return None
    a, b = iroot(v.numerator, q), iroot(v.denominator, q)
    return None if a is None or b is None else Fraction(a, b)


def bits(v):
    return max(abs(v.numerator).bit_length(), v.denominator.bit_length())


def sine_of_multiple_of_pi(r):
    """sin(rπ) when it is rational (Niven: 0, ±1/2, ±1), else None."""
    t = r - 2 * (r / 2).__floor__()  # in [0, 2)
    table = {
        Fraction(0): Fraction(0), Fraction(1): Fraction(0), Fraction(1, 2): Fraction(1),
        Fraction(3, 2): Fraction(-1), Fraction(1, 6): Fraction(1, 2), Fraction(5, 6): Fraction(1, 2),
        Fraction(7, 6): Fraction(-1, 2), Fraction(11, 6): Fraction(-1, 2),
    }
    return table.get(t)


# ---- the trees ----------------------------------------------------------------------------


class Node:
    """A syntax tree node.

    `sym` is the exact value when the generator knows it, as (r, a, b) for r·π^a·e^b (a
    Fraction and two ints), else None. `compute` gives the value from the children's values
    at mpmath's current precision (raising Unsettled when it cannot); `cache` keeps values
    by precision in bits; `g` is the value to about 20 digits, for the generator's choices.
    """

    __slots__ = ("kind", "level", "children", "sym", "compute", "cache", "g", "extra", "transcendental", "span")

    def __init__(self, kind, level, children, sym, compute, **extra):
        self.kind, self.level, self.children, self.sym, self.compute = kind, level, list(children), sym, compute
        self.cache = {}
        self.g = None
        self.span = None
        self.extra = extra
        # Whether an irrational value may be in it: a constant or a function that gives one.
        self.transcendental = (
            kind == "const"
            or (kind == "call" and extra["name"] not in ("abs", "min", "max", "floor", "ceil", "round", "trunc"))
            or any(c.transcendental for c in self.children))

    @property
    def rational(self):
        """The exact rational value, when the generator knows it."""
        if self.sym is not None and self.sym[1] == 0 and self.sym[2] == 0:
            return self.sym[0]
        return None


def value(node, prec):
    """The node's value at `prec` bits (mpmath working precision), from its children's."""
    v = node.cache.get(prec)
    if v is None:
        args = [value(c, prec) for c in node.children]
        with mp.workprec(prec):
            v = node.compute(*args)
            if not isinstance(v, mpmath.mpf):
                raise Unsettled("complex")
            v = +v  # rounded to the working precision
        if v == 0 and not (node.sym is not None and node.sym[0] == 0):
            # Nothing here is zero but what the generator knows to be: a zero is a value
            # lost at this precision (1 - cos(1e-100) with 1e-100 below an ulp of 1).
            raise Unsettled("zero")
        if abs(v) == 1 and node.rational is None:
            # Nor is anything exactly ±1 (an end of the domains of asin, acos, atanh and
            # acosh) unless known: tanh(837) rounds to 1 below 730 digits.
            raise Unsettled("one")
        node.cache[prec] = v
    return v


def span(node):
    """How many decimal orders of magnitude the nonzero values in the subtree cover: the
    precision it takes to keep the smallest of them next to the largest."""
    lo, hi = magnitudes(node)
    return hi - lo if lo <= hi else 0.0


def magnitudes(node):
    """The least and greatest log10 |value| over the subtree's nonzero values (kept)."""
    if node.span is None:
        lo, hi = float("inf"), float("-inf")
        if node.g is not None and node.g != 0:
            _sign, man, exp, bc = node.g._mpf_
            lo = hi = (exp + bc) * 0.30102999566398
        for c in node.children:
            clo, chi = magnitudes(c)
            lo, hi = min(lo, clo), max(hi, chi)
        node.span = (lo, hi)
    return node.span


def agree(a, b, digits):
    """Whether a and b (nonzero) agree to `digits` significant digits."""
    if a == 0 or b == 0:
        return False
    with mp.workprec(int(digits * LOG2_10) + 128):
        return abs(a - b) <= abs(b) * mpmath.mpf(10) ** (-digits)


def settle(node, start_bits, max_bits, digits):
    """The value to `digits` significant digits: at `start_bits` and doubling until two
    successive precisions agree (neither zero). Raises Unsettled past `max_bits`."""
    prev = None
    prec = start_bits
    while prec <= max_bits:
        try:
            v = value(node, prec)
        except (Unsettled, ZeroDivisionError, ValueError):
            v = None
        if v is not None and prev is not None and agree(prev, v, digits):
            return v
        prev = v
        prec *= 2
    raise Unsettled("no agreement")


def gen_value(node):
    """`g`: the value to about 20 digits, from the exact value when it is known."""
    if node.g is not None:
        return node.g
    if node.sym is not None and node.sym[0] == 0:
        node.g = mpmath.mpf(0)
        return node.g
    # Start with the precision to hold every value of the subtree next to the largest (the
    # node's own value is not known yet: its children's are).
    ranges = [magnitudes(c) for c in node.children]
    lo, hi = min((r[0] for r in ranges), default=0.0), max((r[1] for r in ranges), default=0.0)
    extra = int(max(hi - lo, 0.0) * LOG2_10)
    start = 128
    while start < 128 + extra:  # on a ladder of precisions, so that the children's values serve
        start *= 2
    try:
        node.g = settle(node, start, 8192 + 4 * extra, 22)
    except Unsettled:
        raise Reject("unsettled") from None
    if not (MIN_MAG < abs(node.g) < MAX_MAG):
        raise Reject("magnitude")
    return node.g


def mpf_of(fr):
    return mpmath.mpf(fr.numerator) / fr.denominator


# Printing


def tokens(node, need):
    if node.level < need:
        return ["("] + tokens(node, ADD) + [")"]
    k, c, x = node.kind, node.children, node.extra
    if k in ("num", "const"):
        return [x["text"]]
    if k == "paren":
        return ["("] + tokens(c[0], ADD) + [")"]
    if k == "call":
        out = [x["name"], "("]
        for i, a in enumerate(c):
            if i:
                out.append(",")
            out += tokens(a, ADD)
        return out + [")"]
    if k == "neg":
        return [x["sign"]] + tokens(c[0], UNARY)
    if k == "pow":
        return tokens(c[0], PRIMARY) + [x["op"]] + tokens(c[1], UNARY)
    if k == "impl":
        return tokens(c[0], UNARY) + tokens(c[1], POWER)
    if k in ("add", "mul"):
        left, right = (ADD, MUL) if k == "add" else (MUL, IMPL)
        out = tokens(c[0], left)
        for op, operand in zip(x["ops"], c[1:]):
            out += [op] + tokens(operand, right)
        return out
    raise AssertionError(k)


def text(node, rng):
    toks = tokens(node, ADD)
    out = toks[0]
    for prev, tok in zip(toks, toks[1:]):
        # A space where two tokens would lex otherwise: a number then a name that starts with
        # e ("2e5"), or a name then a name; "2pi" and "3sqrt(2)" may stay together.
        number_then_e = (prev[-1].isdigit() or prev[-1] == ".") and (tok[0] in "eE" or tok[0].isdigit())
        name_then_name = prev[-1].isalpha() and (tok[0].isalnum() or tok[0] == "_")
        if number_then_e or name_then_name or rng.random() < 0.2:
            out += " "
        out += tok
    return out


# ---- the generator ------------------------------------------------------------------------


def add_syms(ops, syms):
    """The exact value of a sum, folded left to right as Reckon adds: rationals, or the same
    multiples of π and e (2π + 3π is 5π, π - π is 0). An exact 0 plus a multiple (π - π - τ)
    Reckon approximates (a missed exactness, not a wrong digit), so the sum is unknown."""
    if any(s is None for s in syms):
        return None
    acc = syms[0]
    for op, s in zip(ops, syms[1:]):
        if (acc[1], acc[2]) != (s[1], s[2]):
            return None
        total = acc[0] + s[0] if op == "+" else acc[0] - s[0]
        acc = (total, 0, 0) if total == 0 else (total, acc[1], acc[2])
    return acc


def mul_syms(ops, syms):
    if any(s is None for s in syms):
        return None
    r, a, b = syms[0]
    for op, s in zip(ops, syms[1:]):
        if op in ("/", "÷"):
            if s[0] == 0:
                return None
            r, a, b = r / s[0], a - s[1], b - s[2]
        else:
            r, a, b = r * s[0], a + s[1], b + s[2]
    if r == 0:
        return (Fraction(0), 0, 0)
    if abs(a) > MAX_CONSTANT_POWER or abs(b) > MAX_CONSTANT_POWER or bits(r) > 20_000:
        return None
    return (r, a, b)


class Generator:
    def __init__(self, rng, digits):
        self.rng = rng
        self.digits = digits
        self.zero_ok = False

    # ---- building nodes (each checked: its value settles, is nonzero and not too large) --

    def make(self, kind, level, children, sym, compute, **extra):
        node = Node(kind, level, children, sym, compute, **extra)
        if node.sym is not None and node.sym[0] == 0:
            if not self.zero_ok:
                raise Reject("zero")  # zero only where a case asks for it (exact_case)
            return node
        gen_value(node)
        return node

    def num(self, v, text=None):
        """A literal with value v >= 0 (its text given, or the shortest plain one)."""
        if text is None:
            text = str(v.numerator) if v.denominator == 1 else None
        assert text is not None
        node = Node("num", PRIMARY, [], (v, 0, 0), lambda v=v: mpf_of(v), text=text)
        node.g = mpf_of(v) if v else mpmath.mpf(0)
        return node

    def const(self, name):
        rng = self.rng
        spelled = {"pi": ["pi", "pi", "π"], "tau": ["tau", "τ"], "e": ["e"], "phi": ["phi", "φ"]}[name]
        sym = {"pi": (Fraction(1), 1, 0), "tau": (Fraction(2), 1, 0), "e": (Fraction(1), 0, 1), "phi": None}[name]
        compute = {
            "pi": lambda: +mp.pi, "tau": lambda: 2 * mp.pi, "e": lambda: +mp.e, "phi": lambda: +mp.phi,
        }[name]
        return self.make("const", PRIMARY, [], sym, compute, text=rng.choice(spelled))

    def paren(self, child):
        node = Node("paren", PRIMARY, [child], child.sym, lambda x: x)
        node.g = child.g
        return node

    def neg(self, child, sign=None):
        sign = sign or self.rng.choice(["-", "-", "-", "−"])
        sym = None if child.sym is None else (-child.sym[0], child.sym[1], child.sym[2])
        node = Node("neg", UNARY, [child], sym, lambda x: -x, sign=sign)
        node.g = -child.g
        return node

    def chain(self, kind, first, links):
        ops = [op for op, _ in links]
        operands = [first] + [x for _, x in links]
        if kind == "add":
            sym = add_syms(["+" if op == "+" else "-" for op in ops], [o.sym for o in operands])
            known_zero = sym is not None and sym[0] == 0

            def compute(*vals):
                acc = vals[0]
                largest = abs(acc)
                for op, v in zip(ops, vals[1:]):
                    acc = acc + v if op == "+" else acc - v
                    largest = max(largest, abs(v), abs(acc))
                # Cancellation that leaves fewer than 64 good bits: try a higher precision.
                if not known_zero and (acc == 0 or largest > abs(acc) * mpmath.mpf(2) ** (mp.prec - 64)):
                    raise Unsettled("cancellation")
                return acc

            return self.make("add", ADD, operands, sym, compute, ops=ops)

        def compute(*vals):
            acc = vals[0]
            for op, v in zip(ops, vals[1:]):
                if op in ("/", "÷"):
                    if v == 0:
                        raise Unsettled("division by zero")
                    acc = acc / v
                else:
                    acc = acc * v
            return acc

        for op, operand in links:
            if op in ("/", "÷") and gen_value(operand) == 0:
                raise Reject("division by zero")
        sym = mul_syms(ops, [o.sym for o in operands])
        return self.make("mul", MUL, operands, sym, compute, ops=ops)

    def call(self, name, args, compute, sym=None):
        return self.make("call", PRIMARY, args, sym, compute, name=name)

    def quotient(self, v):
        """A node with the exact value v (any sign): a literal or a parenthesised p/q."""
        node = self.num(abs(v.numerator))
        if v.denominator != 1:
            op = self.rng.choice(["/", "/", "/", "÷"])
            node = self.paren(self.chain("mul", node, [(op, self.num(Fraction(v.denominator)))]))
        if v < 0:
            node = self.neg(node)
            if self.rng.random() < 0.5:
                node = self.paren(node)
        return node

    # ---- leaves ----------------------------------------------------------------------------

    def literal(self):
        rng = self.rng
        r = rng.random()
        if r < 0.30:
            return self.num(Fraction(rng.randrange(1, 13)))
        if r < 0.45:
            return self.num(Fraction(rng.randrange(10, 10 ** rng.randrange(2, 8))))
        if r < 0.70:
            whole = rng.randrange(0, 100)
            places = rng.randrange(1, 5)
            frac = rng.randrange(1, 10**places)
            t = f"{whole}.{frac:0{places}d}"
            if whole == 0 and rng.random() < 0.3:
                t = t[1:]
            return self.num(Fraction(t), t)
        if r < 0.85:
            mant = rng.choice(["1", "2", "5", "2.5", "1.25", "3", "7", "1.5", "9.99"])
            e = rng.choice([rng.randrange(-30, 31), rng.randrange(-300, 301)]) if rng.random() < 0.9 else rng.choice([-300, 300, -100, 100])
            t = mant + rng.choice("eE") + (str(e) if e < 0 or rng.random() < 0.7 else "+" + str(e))
            return self.num(Fraction(mant) * Fraction(10) ** e, t)
        q = rng.choice([3, 7, 9, 11, 13, 17, 113, 1000003])
        p = rng.randrange(1, 5 * q)
        if Fraction(p, q).denominator == 1:
            p += 1
        return self.quotient(Fraction(p, q))

    def leaf(self):
        rng = self.rng
        r = rng.random()
        if r < 0.55:
            return self.literal()
        if r < 0.85:
            return self.const(rng.choice(["pi", "pi", "e", "e", "tau", "phi"]))
        if r < 0.93:  # implicit multiplication: 2pi, 3 sqrt(2), 4(…)
            k = self.num(Fraction(rng.randrange(2, 10)))
            kind = rng.random()
            if kind < 0.5:
                second = self.const(rng.choice(["pi", "tau", "phi"]))
            elif kind < 0.8:
                second = self.call("sqrt", [self.num(Fraction(rng.choice([2, 3, 5, 7, 10])))], lambda x: mp.sqrt(x))
            else:
                second = self.paren(self.chain("add", self.literal(), [("+", self.const("pi"))]))
            sym = mul_syms(["*"], [k.sym, second.sym])
            return self.make("impl", IMPL, [k, second], sym, lambda a, b: a * b)
        return self.edge()

    # ---- random trees ----------------------------------------------------------------------

    def expr(self, depth):
        for _ in range(25):
            try:
                return self.attempt(depth)
            except Reject:
                continue
        return self.literal()

    def attempt(self, depth):
        rng = self.rng
        if depth <= 0:
            return self.leaf()
        d = depth - 1
        r = rng.random()
        if r < 0.15:
            n = rng.randrange(1, 3)
            links = [(rng.choice(["+", "+", "-", "-", "−"]), self.expr(d)) for _ in range(n)]
            return self.chain("add", self.expr(d), links)
        if r < 0.30:
            n = rng.randrange(1, 3)
            links = [(rng.choice(["*", "*", "/", "/", "×", "÷", "·"]), self.expr(d)) for _ in range(n)]
            return self.chain("mul", self.expr(d), links)
        if r < 0.40:
            return self.power(d)
        if r < 0.44:
            return self.neg(self.expr(d))
        if r < 0.86:
            return self.function(d)
        if r < 0.94:
            return self.edge()
        return self.leaf()

    # ---- powers -------------------------------------------------------------------------------

    def power(self, depth):
        rng = self.rng
        op = "^" if rng.random() < 0.85 else "**"
        base = self.expr(depth)
        g = gen_value(base)
        r = rng.random()
        if r < 0.45:  # an integer power
            n = rng.choice([2, 2, 3, 3, 4, 5, -1, -2, -3, 7, 10, 12, -5, 20])
            if abs(g) ** n > MAX_MAG or abs(g) ** n < MIN_MAG:
                raise Reject("magnitude")
            exponent = self.num(Fraction(abs(n))) if n > 0 else self.neg(self.num(Fraction(-n)))
            if n < 0 and rng.random() < 0.5:
                exponent = self.paren(exponent)

            def compute(x, _e, n=n):
                if x == 0 and n < 0:
                    raise Unsettled("zero to a negative power")
                return x**n

            sym = None
            if base.sym is not None:
                s = base.sym
                if abs(s[1] * n) <= MAX_CONSTANT_POWER and abs(s[2] * n) <= MAX_CONSTANT_POWER and bits(s[0]) * abs(n) < 20_000:
                    sym = (s[0] ** n, s[1] * n, s[2] * n)
            return self.make("pow", POWER, [base, exponent], sym, compute, op=op)
        if r < 0.80:  # a rational power p/q
            q = rng.choice([2, 2, 3, 3, 4, 5, 6, 7, 12])
            p = rng.choice([1, 1, 1, 2, 3, 5, -1, -2, 7])
            e = Fraction(p, q)
            if e.denominator == 1:
                e = Fraction(p, q + 1) if Fraction(p, q + 1).denominator != 1 else Fraction(1, 2)
            p, q = e.numerator, e.denominator
            if g < 0 and (q % 2 == 0 or base.rational is None):
                # Reckon takes odd roots of negative exact rationals only; a negative
                # approximation to a fractional power is an error there.
                base = self.neg(base)
                g = -g
            if abs(mpmath.log(abs(g), 10) * e) > 390:
                raise Reject("magnitude")
            if e.denominator in (2, 4, 5) and rng.random() < 0.4:
                s = str(float(abs(e)))
                s = s[1:] if s.startswith("0.") and rng.random() < 0.3 else s
                exponent = self.num(abs(e), s)
                if e < 0:
                    exponent = self.neg(exponent)
            else:
                exponent = self.paren(self.chain("mul", self.num(Fraction(abs(p))), [("/", self.num(Fraction(q)))]))
                if p < 0:
                    exponent = self.paren(self.neg(exponent)) if rng.random() < 0.5 else self.neg(exponent)

            def compute(x, _e, p=p, q=q):
                if x == 0:
                    raise Unsettled("zero base")
                if x < 0:
                    y = mp.root(-x, q) ** p
                    return -y if p % 2 else y
                return mp.root(x, q) ** p

            sym = None
            if base.rational is not None and base.rational > 0:
                root = exact_root(base.rational, q)
                if root is not None:
                    sym = (root**p, 0, 0)
            return self.make("pow", POWER, [base, exponent], sym, compute, op=op)
        # a real power: a positive base to an irrational exponent
        if g < 0:
            base = self.paren(self.neg(base))
            g = -g
        exponent = self.expr(max(depth - 1, 0))
        ge = gen_value(exponent)
        if exponent.rational is not None:
            raise Reject("rational exponent")
        if abs(ge * mpmath.log(abs(g), 10)) > 390:
            raise Reject("magnitude")
        if abs(g - 1) < mpmath.mpf(10) ** -15:
            raise Reject("base near 1")

        def compute(x, y):
            if x <= 0:
                raise Unsettled("base not positive")
            return mp.power(x, y)

        sym = None
        if base.sym == (Fraction(1), 0, 1) and exponent.rational is not None and exponent.rational.denominator == 1:
            sym = (Fraction(1), 0, int(exponent.rational))
        return self.make("pow", POWER, [base, exponent], sym, compute, op=op)

    # ---- functions ----------------------------------------------------------------------------

    def positive(self, node):
        """The node, or its negation, made positive."""
        g = gen_value(node)
        if g == 0:
            raise Reject("zero")
        if g > 0:
            return node
        if self.rng.random() < 0.5:
            return self.call("abs", [node], lambda x: abs(x), None if node.sym is None else (abs(node.sym[0]),) + node.sym[1:])
        return self.neg(node)

    def unit(self, depth, strict):
        """A node with a value inside (-1, 1): a function's argument (asin, acos, atanh)."""
        rng = self.rng
        r = rng.random()
        if r < 0.15:  # near an end of the domain
            k = rng.choice([5, 10, 20, 30, 40, 60, 100, 300])
            mant = rng.choice(["1", "1", "2.5", "5"])
            eps = self.num(Fraction(mant) * Fraction(10) ** -k, f"{mant}e-{k}")
            node = self.chain("add", self.num(Fraction(1)), [("-", eps)])
            if rng.random() < 0.5:
                node = self.neg(self.paren(node))
            return node
        if r < 0.25:  # 0.999…9, or an exact value with an exact answer
            if not strict and rng.random() < 0.5:
                v = rng.choice([Fraction(1, 2), Fraction(-1, 2), Fraction(1), Fraction(-1)])
                return self.quotient(v)
            n = rng.randrange(3, 25)
            t = "0." + "9" * n
            node = self.num(Fraction(t), t)
            return self.neg(node) if rng.random() < 0.4 else node
        x = self.expr(depth)
        g = gen_value(x)
        if abs(g) < 1 - mpmath.mpf(10) ** -12:
            return x
        r = rng.random()
        if r < 0.4:
            return self.chain("mul", self.num(Fraction(1)), [(rng.choice(["/", "÷"]), x)])  # 1/x
        if r < 0.7:
            f = rng.choice(["sin", "cos", "tanh"])
            return self.call(f, [x], {"sin": mp.sin, "cos": mp.cos, "tanh": mp.tanh}[f])
        # x / (1 + abs(x))
        den = self.paren(self.chain("add", self.num(Fraction(1)), [("+", self.call("abs", [x], lambda v: abs(v)))]))
        return self.chain("mul", x, [("/", den)])

    def function(self, depth):
        rng = self.rng
        name = rng.choice(
            ["sqrt", "cbrt", "abs", "rounding", "rounding", "min", "max", "ln", "log", "log2",
             "exp", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh",
             "acosh", "atanh", "sin", "cos", "exp", "ln", "sqrt"])
        if name == "rounding":  # exact results: half the weight of the other functions
            name = rng.choice(["round", "floor", "ceil", "trunc"])
        if name in ("sqrt", "cbrt"):
            n = 2 if name == "sqrt" else 3
            x = self.expr(depth)
            if n == 2:
                x = self.positive(x)
            sym = None
            s = x.sym
            if s is not None and s[0] > 0 and s[1] % n == 0 and s[2] % n == 0:
                root = exact_root(s[0], n)
                if root is not None:
                    sym = (root, s[1] // n, s[2] // n)

            def compute(v, n=n):
                if v < 0:
                    if n == 2:
                        raise Unsettled("negative")
                    return -mp.cbrt(-v)
                return mp.sqrt(v) if n == 2 else mp.cbrt(v)

            return self.call(name, [x], compute, sym)
        if name == "abs":
            x = self.expr(depth)
            sym = None if x.sym is None else (abs(x.sym[0]), x.sym[1], x.sym[2])
            return self.call("abs", [x], lambda v: abs(v), sym)
        if name in ("round", "floor", "ceil", "trunc"):
            return self.rounding(name, depth)
        if name in ("min", "max"):
            args = [self.expr(depth) for _ in range(rng.randrange(2, 4))]
            gs = sorted(gen_value(a) for a in args)
            for a, b in zip(gs, gs[1:]):
                if abs(b - a) <= mpmath.mpf(10) ** -12 * max(abs(a), abs(b)):
                    raise Reject("too close")
            pick = min if name == "min" else max
            chosen = pick(args, key=lambda a: a.g)

            def compute(*vals, pick=pick):
                best = pick(vals)
                if sum(1 for v in vals if abs(v - best) <= abs(best) * mpmath.mpf(2) ** (-mp.prec // 2)) > 1:
                    raise Unsettled("too close")
                return best

            return self.call(name, args, compute, chosen.sym)
        if name in ("ln", "log", "log2"):
            x = self.positive(self.expr(depth))
            if gen_value(x) == 1:
                raise Reject("zero")
            sym = None
            if x.sym is not None and x.sym[0] == 1 and x.sym[1] == 0 and name == "ln":
                sym = (Fraction(x.sym[2]), 0, 0)
            if name == "ln":
                return self.call("ln", [x], lambda v: mp.log(v) if v > 0 else mp.mpc(0, 1), sym)
            if name == "log2":
                return self.call("log2", [x], lambda v: mp.log(v, 2) if v > 0 else mp.mpc(0, 1), self.log_sym(x, Fraction(2)))
            if rng.random() < 0.5:
                return self.call("log", [x], lambda v: mp.log10(v) if v > 0 else mp.mpc(0, 1), self.log_sym(x, Fraction(10)))
            base = self.positive(self.expr(max(depth - 1, 0)) if rng.random() < 0.6 else self.literal())
            gb = gen_value(base)
            if abs(gb - 1) < mpmath.mpf(10) ** -10:
                raise Reject("base near 1")

            def compute(v, b):
                if v <= 0 or b <= 0 or b == 1:
                    raise Unsettled("log")
                return mp.log(v) / mp.log(b)

            sym = self.log_sym(x, base.rational) if base.rational is not None else None
            return self.call("log", [x, base], compute, sym)
        if name in ("exp", "sinh", "cosh"):
            x = self.expr(depth)
            g = gen_value(x)
            if abs(g) > 900:
                raise Reject("magnitude")
            sym = None
            if name == "exp" and x.rational is not None and x.rational.denominator == 1:
                sym = (Fraction(1), 0, int(x.rational))
            return self.call(name, [x], {"exp": mp.exp, "sinh": mp.sinh, "cosh": mp.cosh}[name], sym)
        if name in ("sin", "cos", "tan"):
            return self.trig(name, self.angle(depth))
        if name in ("asin", "acos", "atanh"):
            x = self.unit(depth, strict=name == "atanh")
            g = gen_value(x)
            at_end = x.rational in (Fraction(1), Fraction(-1)) and name != "atanh"
            if abs(g) > 1 or (abs(g) == 1 and not at_end):
                raise Reject("domain")
            sym = None
            if x.rational is not None:
                table = {
                    "asin": {Fraction(1, 2): Fraction(1, 6), Fraction(-1, 2): Fraction(-1, 6), Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(-1, 2)},
                    "acos": {Fraction(1, 2): Fraction(1, 3), Fraction(-1, 2): Fraction(2, 3), Fraction(-1): Fraction(1)},
                }.get(name, {})
                if x.rational in table:
                    sym = (table[x.rational], 1, 0)
                if name == "acos" and x.rational == 1:
                    raise Reject("zero")

            def compute(v, name=name, at_end=at_end):
                if abs(v) > 1 or (abs(v) == 1 and not at_end):
                    raise Unsettled("domain")
                return {"asin": mp.asin, "acos": mp.acos, "atanh": mp.atanh}[name](v)

            return self.call(name, [x], compute, sym)
        if name == "acosh":
            r = rng.random()
            if r < 0.2:
                k = rng.choice([5, 10, 20, 30, 40, 100, 300])
                x = self.chain("add", self.num(Fraction(1)), [("+", self.num(Fraction(10) ** -k, f"1e-{k}"))])
            else:
                x = self.expr(depth)
                g = gen_value(x)
                if g < 1 or g == 1:
                    x = self.chain("add", self.num(Fraction(1)), [("+", self.call("abs", [x], lambda v: abs(v)))])
            return self.call("acosh", [x], lambda v: mp.acosh(v) if v >= 1 else mp.mpc(0, 1))
        if name in ("atan", "tanh", "asinh"):
            x = self.expr(depth)
            sym = None
            if name == "atan" and x.rational in (Fraction(1), Fraction(-1)):
                sym = (x.rational / 4, 1, 0)
            return self.call(name, [x], {"atan": mp.atan, "tanh": mp.tanh, "asinh": mp.asinh}[name], sym)
        if name == "atan2":
            y, x = self.expr(depth), self.expr(depth)
            if gen_value(y) == 0 or gen_value(x) == 0:
                raise Reject("zero")
            sym = None
            if y.rational is not None and x.rational is not None and abs(y.rational) == abs(x.rational):
                k = 1 if x.rational > 0 else 3
                sym = (Fraction(k if y.rational > 0 else -k, 4), 1, 0)
            return self.call("atan2", [y, x], lambda a, b: mp.atan2(a, b), sym)
        raise AssertionError(name)

    def trig(self, name, x):
        """sin, cos or tan of x: exact at the rational multiples of π where the value is
        rational (Niven's theorem: 0, ±1/2, ±1; tan: 0, ±1)."""
        sym = None
        if x.sym is not None and x.sym[1] == 1 and x.sym[2] == 0:
            r = x.sym[0]
            if name == "sin":
                s = sine_of_multiple_of_pi(r)
            elif name == "cos":
                s = sine_of_multiple_of_pi(r + Fraction(1, 2))
            else:
                t = r - r.__floor__()
                if t == Fraction(1, 2):
                    raise Reject("pole")
                s = {Fraction(0): Fraction(0), Fraction(1, 4): Fraction(1), Fraction(3, 4): Fraction(-1)}.get(t)
            sym = None if s is None else (s, 0, 0)
        if name == "tan" and sym is None:
            with mp.workprec(512):
                if abs(mpmath.cos(gen_value(x))) < mpmath.mpf(10) ** -70:
                    raise Reject("near a pole")
        return self.call(name, [x], {"sin": mp.sin, "cos": mp.cos, "tan": mp.tan}[name], sym)

    def log_sym(self, x, base):
        """log(x) to `base` when both are rational and it is p/q with q <= 12."""
        if x.rational is None or base is None or base <= 0 or base == 1:
            return None
        est = float(mpmath.log(mpf_of(x.rational)) / mpmath.log(mpf_of(base)))
        for q in range(1, 13):
            p = round(est * q)
            if abs(p / q - est) < 1e-9 and abs(p) < 5000 and bits(x.rational) * q < 20000 and bits(base) * abs(p) < 20000:
                if x.rational**q == base**p:
                    return (Fraction(p, q), 0, 0)
        return None

    def angle(self, depth):
        """An argument for sin, cos, tan: any expression, a rational multiple of π, or a
        huge or tiny one."""
        rng = self.rng
        r = rng.random()
        if r < 0.3:
            return self.multiple_of_pi()
        if r < 0.38:
            k = rng.choice([10, 20, 50, 100, 300])
            if rng.random() < 0.5:
                return self.num(Fraction(10) ** k, f"1e{k}")
            return self.pow_literal(10, k)
        if r < 0.45:  # near a multiple of π: 355/113, 103993/33102, 22
            v = rng.choice([Fraction(355, 113), Fraction(103993, 33102), Fraction(22), Fraction(355), Fraction(710, 113), Fraction(52163, 16604)])
            return self.quotient(v)
        return self.expr(depth)

    def multiple_of_pi(self, offset=True):
        """k·π/d (k, d small or k huge), written in one of several ways."""
        rng = self.rng
        d = rng.choice([1, 2, 3, 4, 6, 6, 5, 7, 8, 12, 180])
        k = rng.randrange(-24, 25) or 1
        if rng.random() < 0.1:
            k = rng.choice([10**20, 10**50, 2**70 + 1, -(10**30)])
        r = Fraction(k, d)
        pi = self.const(rng.choice(["pi", "pi", "tau"]))
        if pi.sym[0] == 2:
            r /= 2
        form = rng.random()
        num_r = abs(r.numerator)
        if form < 0.4:  # k*pi/d
            node = self.chain("mul", self.num(Fraction(num_r)), [("*", pi)] + ([("/", self.num(Fraction(r.denominator)))] if r.denominator != 1 else []))
        elif form < 0.7:  # pi*k/d
            node = self.chain("mul", pi, [("*", self.num(Fraction(num_r)))] + ([("/", self.num(Fraction(r.denominator)))] if r.denominator != 1 else []))
        else:  # (k/d)pi or kpi/d
            if r.denominator == 1:
                node = self.make("impl", IMPL, [self.num(Fraction(num_r)), pi], (Fraction(num_r) * pi.sym[0], 1, 0), lambda a, b: a * b)
            else:
                node = self.chain("mul", self.make("impl", IMPL, [self.num(Fraction(num_r)), pi], (Fraction(num_r) * pi.sym[0], 1, 0), lambda a, b: a * b), [("/", self.num(Fraction(r.denominator)))])
        if r < 0:
            node = self.neg(node)
        if offset and rng.random() < 0.2:  # a little off the multiple
            j = rng.choice([5, 10, 20, 40])
            off = self.num(Fraction(1, 10**j), f"1e-{j}")
            node = self.chain("add", node, [(rng.choice(["+", "-"]), off)])
        return node

    def pow_literal(self, b, k):
        """b^k written as a power (k may be negative)."""
        e = self.num(Fraction(abs(k)))
        if k < 0:
            e = self.neg(e)
        return self.make("pow", POWER, [self.num(Fraction(b)), e], (Fraction(b) ** k, 0, 0), lambda x, _e, k=k: x**k, op="^")

    def rounding(self, name, depth):
        """floor/ceil/round/trunc of a value not near the boundary: Reckon makes it exact."""
        rng = self.rng
        x = self.expr(depth)
        g = gen_value(x)
        places = 0
        args = [x]
        if name == "round" and rng.random() < 0.5:
            places = rng.randrange(-2, 12)
            pnode = self.num(Fraction(abs(places)))
            args.append(self.neg(pnode) if places < 0 else pnode)
        scaled = g * mpmath.mpf(10) ** places
        if abs(scaled) > 10**12:
            raise Reject("too large")
        frac = scaled - mpmath.floor(scaled)
        boundary = mpmath.mpf(0.5) if name == "round" else 0
        if min(abs(frac - boundary), abs(frac - boundary - 1), abs(frac - boundary + 1)) < mpmath.mpf(10) ** -8:
            raise Reject("near a boundary")

        def exact(v):
            """The rounded value of a Fraction v."""
            s = v * Fraction(10) ** places
            if name == "floor":
                out = Fraction(s.__floor__())
            elif name == "ceil":
                out = Fraction(s.__ceil__())
            elif name == "trunc":
                out = Fraction(int(s))
            else:
                out = Fraction((abs(s) + Fraction(1, 2)).__floor__()) * (1 if s >= 0 else -1)
            return out / Fraction(10) ** places

        def compute(v, *_rest):
            s = v * mpmath.mpf(10) ** places
            base = mpmath.floor(s)
            f = s - base
            b = mpmath.mpf(0.5) if name == "round" else 0
            tol = mpmath.mpf(2) ** (-(mp.prec // 2)) * max(1, abs(s))
            if min(abs(f - b), abs(f - b - 1), abs(f - b + 1)) < tol:
                raise Unsettled("near a boundary")
            # The exact rule applied to a rational inside the same cell as the value.
            if name == "round":
                inside = Fraction(int(base)) + (Fraction(1, 4) if f < b else Fraction(3, 4))
            else:
                inside = Fraction(int(base)) + Fraction(1, 2)
            return mpf_of(exact(inside / Fraction(10) ** places))

        value_g = exact(rational_of(g))
        if value_g == 0:
            raise Reject("zero")
        return self.call(name, args, compute, (value_g, 0, 0))

    # ---- edge cases -------------------------------------------------------------------------

    def edge(self):
        rng = self.rng
        kind = rng.randrange(16)
        k = rng.choice([10, 15, 20, 30, 40, 50, 100, 200, 300])
        mant = rng.choice(["1", "2.5", "3", "7.25"])
        tiny_text = f"{mant}e-{k}"
        tiny_v = Fraction(mant) * Fraction(10) ** -k
        tiny = lambda: self.num(tiny_v, tiny_text)  # noqa: E731
        one = lambda: self.num(Fraction(1))  # noqa: E731
        if kind == 0:  # exp(t) - 1
            t = tiny() if rng.random() < 0.7 else self.neg(tiny())
            return self.chain("add", self.call("exp", [t], mp.exp), [("-", one())])
        if kind == 1:  # ln(1 + t)
            return self.call("ln", [self.chain("add", one(), [(rng.choice(["+", "-"]), tiny())])], mp.log)
        if kind == 2:  # 1 - cos(t), cos(t) - 1
            t = self.num(Fraction(10) ** -min(k, 150), f"1e-{min(k, 150)}")
            c = self.call("cos", [t], mp.cos)
            return self.chain("add", one(), [("-", c)]) if rng.random() < 0.5 else self.chain("add", c, [("-", one())])
        if kind == 3:  # sin, tan, sinh, asinh, atan, tanh, asin, atanh of a tiny value: ≈ the value
            f = rng.choice(["sin", "tan", "sinh", "asinh", "atan", "tanh", "asin", "atanh", "sqrt", "cbrt"])
            fn = {"sin": mp.sin, "tan": mp.tan, "sinh": mp.sinh, "asinh": mp.asinh, "atan": mp.atan,
                  "tanh": mp.tanh, "asin": mp.asin, "atanh": mp.atanh, "sqrt": mp.sqrt, "cbrt": mp.cbrt}[f]
            return self.call(f, [tiny()], fn)
        if kind == 4:  # atan(huge) - π/2, or π/2 - atan(huge)
            big = self.num(Fraction(10) ** min(k, 150), f"1e{min(k, 150)}")
            a = self.call("atan", [big], mp.atan)
            half = self.chain("mul", self.const("pi"), [("/", self.num(Fraction(2)))])
            return self.chain("add", a, [("-", half)])
        if kind == 5:  # huge and tiny values of exp, ln, sqrt, powers
            which = rng.randrange(6)
            if which == 0:
                n = rng.choice([700, -700, 800, -800, 230.5, -745])
                return self.call("exp", [self.quotient(Fraction(n))], mp.exp)
            if which == 1:
                return self.call("ln", [tiny()], mp.log)
            if which == 2:
                return self.call("sqrt", [self.num(Fraction(10) ** -k * 2, f"2e-{k}")], mp.sqrt)
            if which == 3:
                return self.chain("mul", self.const("pi"), [("*", self.pow_literal(10, rng.choice([50, -50, 100, -200, 300])))])
            if which == 4:
                return self.call("cosh", [self.quotient(Fraction(rng.choice([500, -600, 850])))], mp.cosh)
            return self.pow_literal(rng.choice([2, 3, 7]), rng.choice([-1000, 300, 500, -300]))
        if kind == 6:  # near the ends of a domain
            f = rng.choice(["asin", "acos", "atanh", "acosh"])
            if f == "acosh":
                x = self.chain("add", one(), [("+", tiny())])
                return self.call("acosh", [x], mp.acosh)
            x = self.chain("add", one(), [("-", tiny())])
            if rng.random() < 0.5:
                x = self.neg(self.paren(x))
            return self.call(f, [x], {"asin": mp.asin, "acos": mp.acos, "atanh": mp.atanh}[f])
        if kind == 7:  # a large value plus a small one, minus the large value
            big = self.pow_literal(10, rng.choice([20, 30, 50]))
            small = self.call("sqrt", [self.num(Fraction(rng.choice([2, 3, 5])))], mp.sqrt)
            return self.chain("add", big, [("+", small), ("-", self.pow_literal(10, big.children[1].sym[0].numerator))])
        if kind == 8:  # 1 - tanh(x), which is about 2e^(-2x)
            x = self.num(Fraction(rng.choice([5, 10, 20, 50, 100])))
            return self.chain("add", one(), [("-", self.call("tanh", [x], mp.tanh))])
        if kind == 9:  # values that round up to a power of ten: 10^k - tiny·π
            p = rng.choice([0, 1, 2, 5, 9, 10, 11, 49, 50, 999, 1000])
            d = self.digits + rng.choice([0, 1, 2, 3])
            t = self.chain("mul", self.const("pi"), [("*", self.pow_literal(10, p - d))])
            big = self.pow_literal(10, p) if p else one()
            return self.chain("add", big, [(rng.choice(["-", "+"]), t)])
        if kind == 10:  # sqrt(1 + t) - 1
            r = self.call("sqrt", [self.chain("add", one(), [("+", tiny())])], mp.sqrt)
            return self.chain("add", r, [("-", one())])
        if kind == 11:  # sin, cos or tan of a huge argument, a multiple of π, or near one
            return self.trig(rng.choice(["sin", "cos", "tan"]), self.angle(0))
        if kind == 12:  # tan next to a pole: tan(π/2 + 1e-40) is -1e40
            j = rng.choice([5, 10, 20, 40, 60])
            k = rng.choice([1, 1, -1, 3, 5, 21])
            two = ("/", self.num(Fraction(2)))
            if abs(k) == 1:
                half = self.chain("mul", self.const("pi"), [two])
            else:
                half = self.chain("mul", self.num(Fraction(abs(k))), [("*", self.const("pi")), two])
            if k < 0:
                half = self.neg(half)
            x = self.chain("add", half, [(rng.choice(["+", "-"]), self.num(Fraction(1, 10**j), f"1e-{j}"))])
            return self.trig("tan", x)
        if kind == 13:  # atan2 next to its branch cut: atan2(±1e-30, -1) is ±(π - 1e-30)
            y = self.num(tiny_v, tiny_text)
            if rng.random() < 0.5:
                y = self.neg(y)
            x = self.neg(self.literal()) if rng.random() < 0.8 else self.literal()
            return self.call("atan2", [y, x], lambda a, b: mp.atan2(a, b))
        if kind == 14:  # (1 + 1e-k)^(10^k), about e
            j = rng.choice([5, 10, 15, 18])
            base = self.chain("add", one(), [("+", self.num(Fraction(1, 10**j), f"1e-{j}"))])
            n = 10**j
            node = self.make("pow", POWER, [base, self.pow_literal(10, j)], None, lambda x, _e, n=n: x**n, op="^")
            node.transcendental = True  # rational, but not one Reckon works out exactly
            return node
        # Near-integers: e^(π√163) is 262537412640768743.99999999999925…
        n = rng.choice([163, 67, 43, 58, 37, 19])
        x = self.call("exp", [self.chain("mul", self.const("pi"), [("*", self.call("sqrt", [self.num(Fraction(n))], mp.sqrt))])], mp.exp)
        if rng.random() < 0.5:
            return x
        return self.near_integer_rounding(x)

    def near_integer_rounding(self, x):
        """floor, ceil, round or trunc of a value that may lie within 1e-12 of an integer: the
        oracle rounds exactly, from a value settled far past that."""
        name = self.rng.choice(["floor", "ceil", "round", "trunc"])
        g = gen_value(x)
        if abs(g) > 10**30:
            raise Reject("too large")

        def compute(v):
            base = mpmath.floor(v)
            f = v - base
            b = mpmath.mpf(0.5) if name == "round" else 0
            tol = mpmath.mpf(2) ** (-(mp.prec // 2)) * max(1, abs(v))
            if min(abs(f - b), abs(f - b - 1), abs(f - b + 1)) < tol:
                raise Unsettled("near a boundary")
            k = int(base)
            if name == "floor" or (name == "trunc" and v > 0):
                return mpmath.mpf(k)
            if name in ("ceil", "trunc"):
                return mpmath.mpf(k + 1)
            return mpmath.mpf(k if f < b else k + 1)  # round: a half is not this close

        # The exact value: from the value settled to 60 digits past its integer part.
        try:
            v = settle(x, int((80 + max(0, float(mpmath.log10(abs(g))))) * LOG2_10), 20000, 60)
            with mp.workprec(400):
                r = compute(v)
        except Unsettled:
            raise Reject("unsettled") from None
        if r == 0:
            raise Reject("zero")
        return self.call(name, [x], compute, (Fraction(int(r)), 0, 0))

    def exact_case(self):
        """A whole expression whose value Reckon knows exactly, zero included: sin(7π),
        2cos(π/3) - 1, tan(3π/4) + 1, ln(e^3), asin(1/2)/π, log(8, 2), floor(1e6·π)."""
        rng = self.rng
        self.zero_ok = True
        try:
            r = rng.random()
            if r < 0.6:
                node = self.trig(rng.choice(["sin", "cos", "tan"]), self.multiple_of_pi(offset=False))
            elif r < 0.7:
                k = rng.randrange(-20, 21)
                e = self.const("e")
                inner = self.make("pow", POWER, [e, self.quotient(Fraction(k))], (Fraction(1), 0, k), lambda x, _e, k=k: x**k, op="^") if k else e
                if k == 1:
                    inner = e
                node = self.call("ln", [inner], mp.log, (Fraction(k if k else 1), 0, 0))
            elif r < 0.8:
                f = rng.choice(["asin", "acos", "atan"])
                v = rng.choice([Fraction(1, 2), Fraction(-1, 2), Fraction(1), Fraction(-1)])
                sym = {"asin": {Fraction(1, 2): Fraction(1, 6), Fraction(-1, 2): Fraction(-1, 6), Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(-1, 2)},
                       "acos": {Fraction(1, 2): Fraction(1, 3), Fraction(-1, 2): Fraction(2, 3), Fraction(1): Fraction(0), Fraction(-1): Fraction(1)},
                       "atan": {Fraction(1): Fraction(1, 4), Fraction(-1): Fraction(-1, 4)}}[f].get(v)
                if sym is None:
                    v, sym = Fraction(1), {"asin": Fraction(1, 2), "acos": Fraction(0), "atan": Fraction(1, 4)}[f]
                fn = {"asin": mp.asin, "acos": mp.acos, "atan": mp.atan}[f]
                a = self.call(f, [self.quotient(v)], fn, (sym, 1, 0) if sym else (Fraction(0), 0, 0))
                if sym == 0:
                    node = a
                else:
                    node = self.chain("mul", a, [("/", self.const("pi"))])
            elif r < 0.9:
                b = rng.choice([2, 3, 10, 16, Fraction(1, 2)])
                k = rng.randrange(-10, 30)
                x = self.quotient(Fraction(b) ** k)
                if b == 10 and rng.random() < 0.5:
                    node = self.call("log", [x], mp.log10, (Fraction(k), 0, 0))
                elif b == 2 and rng.random() < 0.5:
                    node = self.call("log2", [x], lambda v: mp.log(v, 2), (Fraction(k), 0, 0))
                else:
                    node = self.call("log", [x, self.quotient(Fraction(b))], lambda v, w: mp.log(v) / mp.log(w), (Fraction(k), 0, 0))
            else:
                self.zero_ok = False
                node = self.rounding(rng.choice(["floor", "ceil", "round", "trunc"]), rng.randrange(0, 3))
            # Sometimes inside a little rational arithmetic.
            if rng.random() < 0.3 and node.rational is not None:
                c = self.quotient(Fraction(rng.randrange(-9, 10) or 1, rng.choice([1, 2, 3])))
                node = self.chain("add", node, [(rng.choice(["+", "-"]), c)]) if rng.random() < 0.5 else self.chain("mul", c, [("*", node)])
            return node
        finally:
            self.zero_ok = False

    def scaled(self, node):
        """node·10^k, written 1e-7 or 10^12: the result crosses the layouts."""
        rng = self.rng
        k = rng.randrange(-14, 16)
        factor = self.pow_literal(10, k) if rng.random() < 0.5 else self.num(Fraction(10) ** k, f"1e{k}")
        return self.chain("mul", node, [(rng.choice(["*", "×"]), factor)])

    def case(self):
        """One tree with at least one function or constant (else another)."""
        rng = self.rng
        for _ in range(100):
            try:
                if rng.random() < 0.05:
                    node = self.exact_case()
                else:
                    node = self.expr(rng.choice([1, 1, 2, 2, 2, 3, 3, 4]))
                    if rng.random() < 0.2:
                        node = self.scaled(node)
            except Reject:
                continue
            if node.transcendental:
                return node
        raise AssertionError("no tree found")


def rational_of(x):
    """The exact value of an mpf, as a Fraction."""
    sign, man, exp, _bc = x._mpf_
    v = Fraction(man) * (Fraction(2) ** exp)
    return -v if sign else v


# ---- the oracle ---------------------------------------------------------------------------


def round_digits(v, n):
    """v (a nonzero mpf) to n significant digits, correctly rounded: (digits, exponent of the
    leading digit, distance from a rounding boundary in units of the last digit)."""
    x = abs(rational_of(v))
    e = int(mpmath.floor(mpmath.log10(abs(v))))
    # Adjust e so that 10^e <= x < 10^(e+1).
    while x >= Fraction(10) ** (e + 1):
        e += 1
    while x < Fraction(10) ** e:
        e -= 1
    scaled = x * Fraction(10) ** (n - 1 - e)
    q = scaled.numerator // scaled.denominator
    frac = scaled - q
    margin = abs(frac - Fraction(1, 2))
    if frac > Fraction(1, 2):
        q += 1
        if q == 10**n:
            q //= 10
            e += 1
    return str(q), e, margin


def layout(digits_text, exponent, n, negative):
    """NumberFormatter.formatApproximate's text for these significant digits."""
    t = digits_text.rstrip("0") or "0"
    if exponent < -5 or exponent >= max(n, len(t)):
        mantissa = t[0] + ("." + t[1:] if len(t) > 1 else "")
        body = f"{mantissa}e{exponent}"
    elif exponent >= 0:
        if len(t) <= exponent + 1:
            body = t + "0" * (exponent + 1 - len(t))
        else:
            body = t[: exponent + 1] + "." + t[exponent + 1 :]
    else:
        body = "0." + "0" * (-exponent - 1) + t
    return ("-" if negative else "") + body


class Skip(Exception):
    pass


def expected(node, n):
    """The expected answer for the tree at n digits, or Skip with the reason."""
    # N + 50 digits, and as many more as the values in the tree span (1e-300 next to 1).
    start_digits = n + 50 + int(span(node))
    start = int(start_digits * LOG2_10) + 16
    cap = int(max(8 * start_digits, 2000) * LOG2_10) + 16
    exact = node.rational
    if exact is not None:
        # Check the generator's claim: the value at two precisions is within their error of it.
        ok = False
        prec = start
        while prec <= cap and not ok:
            try:
                a, b = value(node, prec), value(node, 2 * prec)
            except (Unsettled, ZeroDivisionError, ValueError):
                prec *= 2
                continue
            with mp.workprec(4 * prec):
                s = mpf_of(exact)
                scale = max(1, abs(s))
                ok = abs(a - s) <= scale * mpmath.mpf(2) ** (-prec // 2) and abs(b - s) <= scale * mpmath.mpf(2) ** (-prec)
            prec *= 2
        if not ok:
            raise AssertionError(f"the generator claims {exact} for a value mpmath does not find it to be: {text(node, Random(0))}")
        return f"= {exact.numerator}/{exact.denominator}"
    # Agreement to N + 25 digits; near a rounding boundary, to as many more as it takes to
    # tell the side (as long as Reckon's own precision bound could tell it too).
    need = n + 25
    while True:
        try:
            v = settle(node, start, cap, need)
        except Unsettled:
            raise Skip("unsettled") from None
        digits_text, e, margin = round_digits(v, n)
        # The agreement bounds the error by about 10^(n - need) units of the last digit.
        if margin > Fraction(1, 10 ** (need - n - 5)):
            return "≈ " + layout(digits_text, e, n, v < 0)
        closeness = -int(mpmath.floor(mpmath.log10(margin))) if margin else None
        if closeness is None or n + closeness + 25 > reckon_digit_bound(n) - span(node) - 100:
            raise Skip("boundary")
        need = n + closeness + 25
        cap = max(cap, int((2 * need + 2 * span(node)) * LOG2_10) + 16)


def reckon_digit_bound(n):
    """About the most digits Real.digits(n) works to before it gives up (its precision cap,
    4·start or start + 4096 bits from start = n·log2(10) + 32): a value closer to a rounding
    boundary than that is printed with fewer digits, and the oracle skips it."""
    start = int(n * LOG2_10) + 32
    return int(max(4 * start, start + 4096) / LOG2_10)


# ---- main ---------------------------------------------------------------------------------


def parse_plan(text):
    plan = []
    for part in text.split(","):
        n, _, count = part.partition(":")
        plan.append((int(n), int(count)))
    return plan


def generate(seed, n, slot, skipped, show_skips=False):
    """The case in `slot` at n digits: (name, expression, expected). A skipped tree is
    replaced by another from the same slot ("SLOT/1", "SLOT/2"…), counted in `skipped`, so
    that a slot's case does not depend on the others (or on how the slots are shared out)."""
    attempt = 0
    while True:
        name = f"{slot}/{attempt}" if attempt else str(slot)
        rng = Random(f"{seed}:{n}:{name}")
        node = Generator(rng, n).case()
        expression = text(node, rng)
        try:
            return name, expression, expected(node, n)
        except Skip as s:
            skipped[str(s)] += 1
            if show_skips:
                sys.stderr.write(f"skipped {n}:{name} ({s}): {expression}\n")
            attempt += 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plan", default=DEFAULT_PLAN, help=f"digits:count,… (default {DEFAULT_PLAN})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument("--job", default="0/1", help="K/J: only the slots equal to K modulo J (default 0/1: all)")
    parser.add_argument("--only", help="one case, DIGITS:SLOT, whatever its fate")
    parser.add_argument("--out", help="write to this file instead of stdout")
    parser.add_argument("--show-skips", action="store_true", help="name each skipped case on stderr")
    args = parser.parse_args(argv)
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
    if not args.out:
        sys.stdout.reconfigure(encoding="utf-8")
    if args.only:
        n, _, slot = args.only.partition(":")
        skipped = {"boundary": 0, "unsettled": 0}
        name, expr, answer = generate(args.seed, int(n), int(slot.partition("/")[0]), skipped, True)
        out.write(f"{n}\t{name}\t{expr}\t{answer}\n")
        return
    k, _, jobs = args.job.partition("/")
    k, jobs = int(k), int(jobs)
    for n, count in parse_plan(args.plan):
        skipped = {"boundary": 0, "unsettled": 0}
        exact = emitted = 0
        for slot in range(k, count, jobs):
            name, expr, answer = generate(args.seed, n, slot, skipped, args.show_skips)
            exact += answer.startswith("=")
            emitted += 1
            out.write(f"{n}\t{name}\t{expr}\t{answer}\n")
        # digits, cases, exact ones, skipped near a rounding boundary, skipped as unsettled
        out.write(
            f"#\t{n}\t{emitted}\t{exact}\t{skipped['boundary']}\t{skipped['unsettled']}\t"
            f"mpmath {mpmath.__version__}\n")
        out.flush()


if __name__ == "__main__":
    main()
