#!/usr/bin/env python3
"""An independent oracle for the bill's split (BillTests): Python's fractions, the rule as
the README states it, none of Reckon's code.

Reads one bill a line as JSON on standard input:
  {"people": N, "decimals": D, "round": bool,
   "items": [{"amount": "n/d", "shares": [[person, "weight"], ...]}],   (no shares: everyone)
   "adjustments": [{"kind": "tax|tip|charge|discount", "percent": "n/d" | null,
                    "amount": "n/d" | null, "afterTax": bool, "afterDiscount": bool,
                    "perItem": bool}]}
and writes one line a bill: the receipt's lines in minor units, in the bill's order, then
each person's columns (items, discounts, charges, tax, tip) and total:
  {"lines": [...], "items": [...], "discounts": [...], "charges": [...], "tax": [...],
   "tip": [...], "total": [...]}

The rule: every line of the receipt is rounded half away from zero to the minor unit as a
receipt prints it (each item; each discount, charge, tax and tip on its base in minor
units), then each line is shared in proportion to each person's exact part of its base by
the largest remainder (ties: the larger exact share, then the person named first).
"""
import json
import sys
from fractions import Fraction


def frac(text):
    return Fraction(text) if text is not None else None


def round_half_away(x):
    """x rounded to a whole number, half away from zero."""
    sign = -1 if x < 0 else 1
    a = abs(x)
    whole = a.numerator // a.denominator
    if a - whole >= Fraction(1, 2):
        whole += 1
    return sign * whole


def largest_remainder(exact, scale, given):
    """Whole minor units for each exact amount, adding up to their rounded total; at a tie
    (equal remainders, equal shares) the person given fewer cents by earlier lines first.
    Counts the cents given into `given`."""
    scaled = [e * scale for e in exact]
    floors = [s.numerator // s.denominator for s in scaled]
    total = round_half_away(sum(scaled, Fraction(0)))
    missing = total - sum(floors)
    order = sorted(range(len(scaled)), key=lambda i: (-(scaled[i] - floors[i]), -scaled[i], given[i], i))
    result = list(floors)
    for i in order:
        if missing <= 0:
            break
        result[i] += 1
        missing -= 1
    for i in range(len(result)):
        if result[i] > floors[i]:
            given[i] += 1
    return result


def proportional(amount, base):
    whole = sum(base, Fraction(0))
    if whole == 0:
        return [amount / len(base) for _ in base]
    return [amount * b / whole for b in base]


def split(bill):
    n = bill["people"]
    scale = 10 ** bill["decimals"]
    items = [Fraction(0)] * n
    subtotal = 0
    item_minor = []
    everyone = [[p, "1"] for p in range(n)]
    given = [0] * n
    columns = {k: [0] * n for k in ("items", "discounts", "charges", "tax", "tip")}
    for item in bill["items"]:
        c = round_half_away(Fraction(item["amount"]) * scale)
        item_minor.append(c)
        subtotal += c
        shares = sorted(item["shares"] or everyone, key=lambda share: share[0])
        weights = sum(Fraction(w) for _, w in shares)
        exact = [Fraction(c) * Fraction(w) / weights for _, w in shares]  # in minor units
        floors = [e.numerator // e.denominator for e in exact]
        missing = c - sum(floors)
        order = sorted(range(len(shares)),
                       key=lambda i: (-(exact[i] - floors[i]), -exact[i], given[shares[i][0]], shares[i][0]))
        for i in order[:missing]:
            floors[i] += 1
            given[shares[i][0]] += 1
        for (p, w), e, cents in zip(shares, exact, floors):
            items[p] += e / scale
            columns["items"][p] += cents
    exact = {k: [Fraction(0)] * n for k in ("discounts", "charges", "tax", "tip")}
    lines = []

    def line_amount(a, base_minor):
        if a["percent"] is not None:
            return round_half_away(Fraction(base_minor) * frac(a["percent"]) / 100)
        return round_half_away(frac(a["amount"]) * scale)

    def share_out(kind, c, base):
        parts = proportional(Fraction(c, scale), base)
        minor = largest_remainder(parts, scale, given)
        for p in range(n):
            exact[kind][p] += parts[p]
            columns[kind][p] += minor[p]

    adjustments = bill["adjustments"]
    before = 0
    for a in adjustments:
        if a["kind"] == "discount" and not a["afterTax"]:
            c = line_amount(a, subtotal)
            lines.append(c)
            before += c
            share_out("discounts", c, items)
    discounted_minor = subtotal - before
    discounted = [items[p] - exact["discounts"][p] for p in range(n)]
    charges = 0
    for a in adjustments:
        if a["kind"] == "charge":
            c = line_amount(a, discounted_minor)
            lines.append(c)
            charges += c
            share_out("charges", c, discounted)
    taxes = 0
    for a in adjustments:
        if a["kind"] != "tax":
            continue
        if a["perItem"] and a["percent"] is not None:
            factor = Fraction(discounted_minor, subtotal) if subtotal else Fraction(1)
            c = 0
            base = [Fraction(0)] * n
            for item, minor in zip(bill["items"], item_minor):
                t = round_half_away(Fraction(minor) * factor * frac(a["percent"]) / 100)
                c += t
                shares = item["shares"] or everyone
                weights = sum(Fraction(w) for _, w in shares)
                for p, w in shares:
                    base[p] += t * Fraction(w) / weights
        else:
            c = line_amount(a, discounted_minor)
            base = discounted
        lines.append(c)
        taxes += c
        share_out("tax", c, base)
    taxed_minor = discounted_minor + charges + taxes
    taxed = [discounted[p] + exact["charges"][p] + exact["tax"][p] for p in range(n)]
    for a in adjustments:
        if a["kind"] == "tip":
            if a["afterTax"]:
                base_minor, base = taxed_minor, taxed
            elif a["afterDiscount"]:
                base_minor, base = discounted_minor, discounted
            else:
                base_minor, base = subtotal, items
            c = line_amount(a, base_minor)
            lines.append(c)
            share_out("tip", c, base)
    for a in adjustments:
        if a["kind"] == "discount" and a["afterTax"]:
            c = line_amount(a, taxed_minor)
            lines.append(c)
            share_out("discounts", c, taxed)
    total = [
        columns["items"][p] - columns["discounts"][p] + columns["charges"][p] + columns["tax"][p] + columns["tip"][p]
        for p in range(n)
    ]
    if bill["round"]:
        for p in range(n):
            up = -(-total[p] // scale) * scale - total[p]
            columns["tip"][p] += up
            total[p] += up
    result = {"lines": lines, "total": total}
    result.update(columns)
    return result


def main():
    for text in sys.stdin:
        if text.strip():
            print(json.dumps(split(json.loads(text)), separators=(",", ":")))


if __name__ == "__main__":
    main()
