import ReckonCore

/// What each person owes, worked out exactly from a bill and then rounded once.
///
/// In order: each item is shared by weight among those who had it (everyone, for `all`);
/// discounts before tax come off each person's subtotal in proportion to it; a charge
/// (service) is on the subtotal after those discounts; a tax percentage is on that
/// discounted subtotal, and a tax amount is shared in proportion to it; a tip percentage is
/// on the subtotal before discounts and tax (after discounts with `after discount`, on the
/// taxed amount with `after tax`), and a tip amount is shared in proportion to its base;
/// discounts after tax come off the taxed amount (tip left out). An amount shared in
/// proportion to nothing (everyone's base is zero) is shared equally.
struct BillSplit: Sendable, Equatable {
  /// One person's part, exact.
  struct Part: Sendable, Equatable {
    var items = Rational.zero
    var discounts = Rational.zero
    var charges = Rational.zero
    var tax = Rational.zero
    var tip = Rational.zero
    var total: Rational { items - discounts + charges + tax + tip }
  }

  var parts: [Part]
  /// Every share rounded to the minor unit, adding up to the rounded total.
  var cents: [Int]
  var decimals: Int

  var exactTotal: Rational { parts.reduce(.zero) { $0 + $1.total } }
  var totalCents: Int { cents.reduce(0, +) }

  init(_ bill: Bill) {
    let n = bill.people.count
    decimals = bill.currency?.decimals ?? 2
    var parts = [Part](repeating: Part(), count: n)
    guard n > 0 else {
      self.parts = []
      cents = []
      return
    }
    for item in bill.items {
      let shares = item.shares.isEmpty ? (0..<n).map { Bill.Share(person: $0, weight: .one) } : item.shares
      let weights = shares.reduce(Rational.zero) { $0 + $1.weight }
      for share in shares {
        parts[share.person].items = parts[share.person].items + item.amount * share.weight / weights
      }
    }
    let subtotal = parts.map(\.items)
    func apply(_ adjustment: Bill.Adjustment, on base: [Rational]) -> [Rational] {
      if let percent = adjustment.percent { return base.map { $0 * percent / 100 } }
      return BillSplit.proportional(adjustment.amount ?? .zero, to: base)
    }
    let kinds = { (kind: Bill.Adjustment.Kind, afterTax: Bool) in
      bill.adjustments.filter { $0.kind == kind && $0.afterTax == afterTax }
    }
    for discount in kinds(.discount, false) {
      for (p, d) in apply(discount, on: subtotal).enumerated() { parts[p].discounts = parts[p].discounts + d }
    }
    let discounted = parts.map { $0.items - $0.discounts }
    for charge in bill.adjustments where charge.kind == .charge {
      for (p, c) in apply(charge, on: discounted).enumerated() { parts[p].charges = parts[p].charges + c }
    }
    for tax in bill.adjustments where tax.kind == .tax {
      for (p, t) in apply(tax, on: discounted).enumerated() { parts[p].tax = parts[p].tax + t }
    }
    let taxed = parts.map { $0.items - $0.discounts + $0.charges + $0.tax }
    for tip in bill.adjustments where tip.kind == .tip {
      let base = tip.afterTax ? taxed : tip.afterDiscount ? discounted : subtotal
      for (p, t) in apply(tip, on: base).enumerated() { parts[p].tip = parts[p].tip + t }
    }
    for discount in kinds(.discount, true) {
      for (p, d) in apply(discount, on: taxed).enumerated() { parts[p].discounts = parts[p].discounts + d }
    }
    if bill.roundUp {
      // Each total up to a whole unit; the tip takes the difference.
      for p in parts.indices {
        let total = parts[p].total
        parts[p].tip = parts[p].tip + (total.ceiling - total)
      }
    }
    self.parts = parts
    cents = Apportion.cents(parts.map(\.total), decimals: decimals)
  }

  /// `amount` shared in proportion to `base` (equally when the base adds up to zero).
  static func proportional(_ amount: Rational, to base: [Rational]) -> [Rational] {
    let whole = base.reduce(Rational.zero, +)
    if whole.isZero { return base.map { _ in amount / Rational(base.count) } }
    return base.map { amount * $0 / whole }
  }

  /// One column (items, tax, …) rounded on its own so that it adds up to its rounded total.
  func column(_ value: (Part) -> Rational) -> [Int] {
    Apportion.cents(parts.map(value), decimals: decimals)
  }

  /// What each person paid, in minor units: the payments as given, and one with no amount
  /// pays what is left of the total.
  func paidCents(_ bill: Bill) -> [Int] {
    var paid = [Int](repeating: 0, count: bill.people.count)
    let scale = Rational(BigInteger.power(10, decimals))
    var given = 0
    for payment in bill.payments {
      if let amount = payment.amount {
        let c = ((amount * scale).rounded(places: 0)).intValue ?? 0
        paid[payment.person] += c
        given += c
      }
    }
    let open = bill.payments.filter { $0.amount == nil }.map(\.person)
    if !open.isEmpty {
      // What is left, shared among those who paid "the rest", the first taking any odd cent.
      let rest = max(totalCents - given, 0)
      for (i, person) in open.enumerated() { paid[person] += rest / open.count + (i < rest % open.count ? 1 : 0) }
    }
    return paid
  }
}
