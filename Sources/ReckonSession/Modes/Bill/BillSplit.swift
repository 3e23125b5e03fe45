import ReckonCore

/// What each person owes, as a receipt works it out: every line of the receipt is rounded
/// to the cent as it prints it, and each line is shared out by the largest remainder.
///
/// In order: each item (its amount rounded to the cent) is shared by weight among those who
/// had it; discounts before tax come off the subtotal; a charge (service) is on the subtotal
/// after those discounts; a tax percentage is on that discounted subtotal (or on each item's
/// own amount, `per item`); a tip percentage is on the subtotal before discounts and tax
/// (after discounts with `after discount`, on the taxed total with `after tax`); discounts
/// after tax come off the taxed total. Each of these lines is a whole number of cents, and is
/// shared in proportion to what each person's part of its base is (equally when no one has
/// any). So the columns add up to the receipt's lines, each person's row to their share, and
/// the total to the receipt's total: the amount on the card slip.
struct BillSplit: Sendable, Equatable {
  /// One person's part, exact (their share of each rounded line).
  struct Part: Sendable, Equatable {
    var items = Rational.zero
    var discounts = Rational.zero
    var charges = Rational.zero
    var tax = Rational.zero
    var tip = Rational.zero
    var total: Rational { items - discounts + charges + tax + tip }
  }

  /// The columns of the split: each person's part of each kind of line, in minor units.
  struct Columns: Sendable, Equatable {
    var items: [Int]
    var discounts: [Int]
    var charges: [Int]
    var tax: [Int]
    var tip: [Int]
  }

  var parts: [Part]
  var columns: Columns
  /// Each person's share in minor units: their row, added up.
  var cents: [Int]
  var decimals: Int
  /// The receipt's lines after the items, in the bill's order: each adjustment and what it
  /// came to, in minor units.
  var lines: [(adjustment: Bill.Adjustment, cents: Int, cells: [Int])] = []
  /// Each item's cells (who, and their part in minor units), in the bill's order: only when
  /// the split was asked to keep them.
  var itemCells: [[(person: Int, cents: Int)]] = []

  var exactTotal: Rational { parts.reduce(.zero) { $0 + $1.total } }
  var totalCents: Int { cents.reduce(0, +) }

  static func == (a: BillSplit, b: BillSplit) -> Bool {
    a.parts == b.parts && a.columns == b.columns && a.cents == b.cents && a.decimals == b.decimals
  }

  /// The items' part of a split, kept between lines of a bill (`BillMode`): a line that adds
  /// an item adds only that item's work, so a bill of 1,000 items is not split from its
  /// first item again after every line. Good while the bill's items only grew since
  /// (`Bill.itemEdits` is the same) and the currency's decimals are.
  struct ItemsPart: Sendable {
    var count = 0
    var edits = 0
    var decimals = 2
    var subtotal = 0
    var itemCents: [Int] = []
    /// Whole-weight items: for each sum of weights, each person's cents times their weight.
    var byWeights: [Int: [Int]] = [:]
    /// The other items' exact parts.
    var exact: [Rational] = []
    var column: [Int] = []
    var given: [Int] = []

    mutating func grow(to n: Int) {
      guard column.count < n else { return }
      let more = n - column.count
      exact += [Rational](repeating: .zero, count: more)
      column += [Int](repeating: 0, count: more)
      given += [Int](repeating: 0, count: more)
      for key in Array(byWeights.keys) { byWeights[key]! += [Int](repeating: 0, count: more) }
    }
  }

  /// `detailed`: keep each item's cells (`itemCells`), for an export.
  init(_ bill: Bill, detailed: Bool = false) {
    var none: ItemsPart?
    self.init(bill, detailed: detailed, cache: &none)
  }

  /// The split, starting from what `cache` kept of the same bill's items when it fits, and
  /// keeping this one's there.
  init(_ bill: Bill, detailed: Bool = false, cache: inout ItemsPart?) {
    let n = bill.people.count
    decimals = bill.currency?.decimals ?? 2
    let decimals = decimals
    let scale = Rational(BigInteger.power(10, decimals))
    let zeros = [Int](repeating: 0, count: n)
    var parts = [Part](repeating: Part(), count: n)
    var columns = Columns(items: zeros, discounts: zeros, charges: zeros, tax: zeros, tip: zeros)
    guard n > 0 else {
      self.parts = []
      self.columns = columns
      cents = []
      return
    }
    /// An amount rounded to the minor unit, as a receipt prints it (half away from zero).
    let scaleInt = Int64(scale.intValue ?? 100)
    @inline(never) func minor(_ amount: Rational) -> Int {
      // (Nearly every amount is a whole number of cents: no rational arithmetic for it.)
      if let (n, d) = amount.smallParts, scaleInt % d == 0 {
        let (product, overflow) = n.multipliedReportingOverflow(by: scaleInt / d)
        if !overflow, let whole = Int(exactly: product) { return whole }
      }
      return (amount * scale).rounded(places: 0).intValue ?? 0
    }
    var state = ItemsPart()
    if !detailed, let kept = cache, kept.edits == bill.itemEdits, kept.decimals == decimals,
      kept.count <= bill.items.count, kept.column.count <= n
    {
      state = kept
    }
    state.decimals = decimals
    state.grow(to: n)
    // How many cents each person was given by the largest remainder so far: at a tie, the
    // one given fewer gets the next.
    var given = state.given
    /// A line of `lineCents` shared in proportion to `base`: each part exact, and in cents.
    @inline(never) func share(_ lineCents: Int, by base: [Rational]) -> (exact: [Rational], cents: [Int]) {
      let exact = BillSplit.proportional(Rational(lineCents) / scale, to: base)
      let cents = Apportion.cents(exact, decimals: decimals, given: given)
      for p in 0..<n where Rational(cents[p]) > (exact[p] * scale).floor { given[p] += 1 }
      return (exact, cents)
    }
    func add(_ column: inout [Int], _ cents: [Int]) { for p in 0..<n { column[p] += cents[p] } }
    let everyone = (0..<n).map { Bill.Share(person: $0, weight: .one) }
    // The items: each rounded to the cent, and shared by the largest remainder.
    var itemCells: [[(person: Int, cents: Int)]] = []
    // Whole weights (nearly every item) are added up as whole numbers over each sum of
    // weights, and made rational once a person: a bill of 1,000 items shared by 100 people
    // is split after every line.
    for item in bill.items[state.count...] {
      let c = minor(item.amount)
      state.itemCents.append(c)
      state.subtotal += c
      let listed = item.shares.isEmpty ? everyone : item.shares
      let inOrder = listed.indices.dropFirst().allSatisfy { listed[$0 - 1].person < listed[$0].person }
      let shares = inOrder ? listed : listed.sorted { $0.person < $1.person }
      var weights = 0
      var whole = c >= 0 && c < 1 << 32
      var ws: [Int] = []
      ws.reserveCapacity(shares.count)
      for share in shares where whole {
        if let w = share.weight.intValue, w > 0, w <= 1000 {
          weights += w
          ws.append(w)
        } else {
          whole = false
        }
      }
      var cells: [Int]
      if whole {
        let equal = ws.allSatisfy { $0 == ws[0] }
        var sums = state.byWeights.removeValue(forKey: weights) ?? [Int](repeating: 0, count: n)
        for (share, w) in zip(shares, ws) { sums[share.person] += c * w }
        state.byWeights[weights] = sums
        cells = ws.map { c * $0 / weights }
        var extra = c - cells.reduce(0, +)
        if extra > 0 && equal {
          // Equal remainders and equal shares (nearly every item, and all of all's): the
          // order the sort below would give, fewest cents given so far, then the person
          // named first, found without sorting.
          var picked = [Bool](repeating: false, count: shares.count)
          var level = shares.map { given[$0.person] }.min()!
          while extra > 0 {
            for (i, share) in shares.enumerated() where extra > 0 && !picked[i] && given[share.person] == level {
              picked[i] = true
              extra -= 1
            }
            level += 1
          }
          for i in shares.indices where picked[i] {
            cells[i] += 1
            given[shares[i].person] += 1
          }
        } else if extra > 0 {
          let remainders = ws.map { c * $0 % weights }
          let order = shares.indices.sorted { a, b in
            if remainders[a] != remainders[b] { return remainders[a] > remainders[b] }
            if ws[a] != ws[b] { return ws[a] > ws[b] }
            if given[shares[a].person] != given[shares[b].person] {
              return given[shares[a].person] < given[shares[b].person]
            }
            return shares[a].person < shares[b].person
          }
          for i in order.prefix(extra) {
            cells[i] += 1
            given[shares[i].person] += 1
          }
        }
      } else {
        let total = shares.reduce(Rational.zero) { $0 + $1.weight }
        let exact = shares.map { Rational(c) / scale * $0.weight / total }
        for (share, part) in zip(shares, exact) {
          state.exact[share.person] = state.exact[share.person] + part
        }
        cells = Apportion.cents(exact, decimals: decimals, given: shares.map { given[$0.person] })
        for (i, share) in shares.enumerated() where Rational(cells[i]) > (exact[i] * scale).floor {
          given[share.person] += 1
        }
      }
      for (share, cents) in zip(shares, cells) { state.column[share.person] += cents }
      if detailed { itemCells.append(zip(shares, cells).map { ($0.person, $1) }) }
    }
    state.count = bill.items.count
    state.edits = bill.itemEdits
    state.given = given
    if !detailed { cache = state }
    let subtotal = state.subtotal
    let itemCents = state.itemCents
    columns.items = state.column
    for p in 0..<n { parts[p].items = state.exact[p] }
    for (weights, sums) in state.byWeights {
      let over = scale * Rational(weights)
      for p in 0..<n where sums[p] != 0 { parts[p].items = parts[p].items + Rational(sums[p]) / over }
    }
    var lines: [(adjustment: Bill.Adjustment, cents: Int, cells: [Int])] = []
    /// A line's amount in cents on a base of `baseCents`.
    @inline(never) func amount(_ adjustment: Bill.Adjustment, on baseCents: Int) -> Int {
      if let percent = adjustment.percent { return minor(Rational(baseCents) / scale * percent / 100) }
      return minor(adjustment.amount ?? .zero)
    }
    let kinds = { (kind: Bill.Adjustment.Kind, afterTax: Bool) in
      bill.adjustments.filter { $0.kind == kind && $0.afterTax == afterTax }
    }
    var discountsBefore = 0
    for discount in kinds(.discount, false) {
      let c = amount(discount, on: subtotal)
      discountsBefore += c
      let (exact, cents) = share(c, by: parts.map(\.items))
      lines.append((discount, c, cents))
      for p in 0..<n { parts[p].discounts = parts[p].discounts + exact[p] }
      add(&columns.discounts, cents)
    }
    let discountedCents = subtotal - discountsBefore
    let discounted = parts.map { $0.items - $0.discounts }
    var charges = 0
    for charge in bill.adjustments where charge.kind == .charge {
      let c = amount(charge, on: discountedCents)
      charges += c
      let (exact, cents) = share(c, by: discounted)
      lines.append((charge, c, cents))
      for p in 0..<n { parts[p].charges = parts[p].charges + exact[p] }
      add(&columns.charges, cents)
    }
    var taxes = 0
    for tax in bill.adjustments where tax.kind == .tax {
      var c: Int
      var base = discounted
      if tax.perItem, let percent = tax.percent {
        // Each item's tax rounded on its own (on its part of the discounted subtotal), as a
        // receipt that prints the tax by each item does.
        c = 0
        base = [Rational](repeating: .zero, count: n)
        let factor = subtotal == 0 ? Rational.one : Rational(discountedCents) / Rational(subtotal)
        for (item, cents) in zip(bill.items, itemCents) {
          let t = minor(Rational(cents) / scale * factor * percent / 100)
          c += t
          let shares = item.shares.isEmpty ? everyone : item.shares
          let weights = shares.reduce(Rational.zero) { $0 + $1.weight }
          for share in shares { base[share.person] = base[share.person] + Rational(t) * share.weight / weights }
        }
      } else {
        c = amount(tax, on: discountedCents)
      }
      taxes += c
      let (exact, cents) = share(c, by: base)
      lines.append((tax, c, cents))
      for p in 0..<n { parts[p].tax = parts[p].tax + exact[p] }
      add(&columns.tax, cents)
    }
    let taxedCents = discountedCents + charges + taxes
    let taxed = parts.map { $0.items - $0.discounts + $0.charges + $0.tax }
    for tip in bill.adjustments where tip.kind == .tip {
      let (baseCents, base) =
        tip.afterTax
        ? (taxedCents, taxed) : tip.afterDiscount ? (discountedCents, discounted) : (subtotal, parts.map(\.items))
      let c = amount(tip, on: baseCents)
      let (exact, cents) = share(c, by: base)
      lines.append((tip, c, cents))
      for p in 0..<n { parts[p].tip = parts[p].tip + exact[p] }
      add(&columns.tip, cents)
    }
    for discount in kinds(.discount, true) {
      let c = amount(discount, on: taxedCents)
      let (exact, cents) = share(c, by: taxed)
      lines.append((discount, c, cents))
      for p in 0..<n { parts[p].discounts = parts[p].discounts + exact[p] }
      add(&columns.discounts, cents)
    }
    var cents = zeros
    for p in 0..<n {
      let added: Int = columns.items[p] + columns.charges[p] + columns.tax[p] + columns.tip[p]
      cents[p] = added - columns.discounts[p]
    }
    if bill.roundUp {
      // Each share up to a whole unit; the tip takes the difference.
      let unit = Int(BigInteger.power(10, decimals).string()) ?? 100
      for p in 0..<n {
        let past = ((cents[p] % unit) + unit) % unit  // (a share is never below zero)
        let up = past == 0 ? 0 : unit - past
        columns.tip[p] += up
        cents[p] += up
        parts[p].tip = parts[p].tip + Rational(up) / scale
      }
    }
    self.parts = parts
    self.columns = columns
    self.cents = cents
    self.lines = lines
    self.itemCells = itemCells
  }

  /// `amount` shared in proportion to `base` (equally when the base adds up to zero).
  @inline(never) static func proportional(_ amount: Rational, to base: [Rational]) -> [Rational] {
    let whole = base.reduce(Rational.zero, +)
    if whole.isZero { return base.map { _ in amount / Rational(base.count) } }
    return base.map { amount * $0 / whole }
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
    // What was paid for an item (an expense, a bill brought into a trip).
    for item in bill.items {
      for payment in item.paidBy {
        let c = (((payment.amount ?? .zero) * scale).rounded(places: 0)).intValue ?? 0
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
