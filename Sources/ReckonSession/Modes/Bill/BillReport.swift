import ReckonCore

/// What a bill shows: its items, the split, who pays whom, and its exports.
struct BillReport {
  let bill: Bill
  let split: BillSplit

  init(_ bill: Bill) {
    self.bill = bill
    split = BillSplit(bill)
  }

  /// The report, its split starting from what `cache` kept of the bill's items.
  init(_ bill: Bill, cache: inout BillSplit.ItemsPart?) {
    self.bill = bill
    split = BillSplit(bill, cache: &cache)
  }

  var decimals: Int { bill.currency?.decimals ?? 2 }

  /// An amount in minor units, as the bill writes it (`12.34`; whole yen).
  @inline(never) func money(_ cents: Int) -> String { Money.format(cents: BigInteger(cents), decimals: decimals) }

  /// An exact amount, rounded for display only.
  @inline(never) func money(_ value: Rational) -> String { Money.format(value, decimals: decimals) }

  /// `USD`, or nothing for plain numbers.
  var currencySuffix: String { bill.currency.map { " " + $0.code } ?? "" }

  /// Who had an item: `everyone`, `bob, cy`, `ada×2, bob`.
  func who(_ item: Bill.Item) -> String {
    guard !item.shares.isEmpty else { return "everyone" }
    let weighted = item.shares.contains { $0.weight != .one }
    if item.shares.contains(where: { !$0.weight.isInteger }) {
      // A bill brought into a trip: each person's part of it.
      let whole = item.shares.reduce(Rational.zero) { $0 + $1.weight }
      return item.shares.map { bill.people[$0.person] + " " + money(item.amount * $0.weight / whole) }
        .joined(separator: ", ")
    }
    if item.sharedByAll && !weighted {
      // Typed with all: everyone then; those who came later and did not join it are named.
      let left = bill.people.indices.filter { p in !item.shares.contains { $0.person == p } }
      if left.isEmpty { return "everyone" }
      if left.count < item.shares.count {
        return "everyone but " + left.map { bill.people[$0] }.joined(separator: ", ")
      }
    }
    return item.shares.map { share in
      bill.people[share.person] + (weighted ? "×" + BillReport.plain(share.weight) : "")
    }.joined(separator: ", ")
  }

  /// Who paid for an item: `ada`, `ada 20.00, bob 10.00`, or `–`.
  func paidBy(_ item: Bill.Item) -> String {
    guard !item.paidBy.isEmpty else { return "–" }
    if item.paidBy.count == 1 { return bill.people[item.paidBy[0].person] }
    return item.paidBy.map { bill.people[$0.person] + " " + money($0.amount ?? .zero) }.joined(separator: ", ")
  }

  /// A label cut to 40 characters for a table (exports keep it whole).
  static func cut(_ label: String) -> String { label.count <= 40 ? label : String(label.prefix(39)) + "…" }

  static func plain(_ r: Rational) -> String {
    r.isInteger ? r.numerator.string() : NumberFormatter(digits: 6).format(.quantity(Quantity(.exact(r), .none)))
  }

  /// What the receipt adds and takes off, in words: `tax 8.875%, tip 20% (on the subtotal)`.
  var adjustments: String? {
    guard !bill.adjustments.isEmpty || bill.roundUp else { return nil }
    var parts = bill.adjustments.map(describe)
    if bill.roundUp { parts.append("each share rounded up to a whole unit") }
    return parts.joined(separator: ", ")
  }

  /// One adjustment in words: `tip 20% on the subtotal`, `coupon 5.00 after tax`.
  func describe(_ a: Bill.Adjustment) -> String {
    let size = a.percent.map { BillReport.plain($0) + "%" + (a.perItem ? " per item" : "") } ?? money(a.amount!)
    let on: String =
      switch a.kind {
      case .tip:
        a.percent == nil
          ? "" : a.afterTax ? " on the taxed total" : a.afterDiscount ? " after discounts" : " on the subtotal"
      case .discount: a.afterTax ? " after tax" : ""
      default: ""
      }
    return "\(a.label) \(size)\(on)"
  }

  // MARK: show

  func show(title: String) -> [Output] {
    guard !bill.people.isEmpty else {
      return [.note("The bill is empty. Add an item: ada 18.50 pasta (help lists the rest).")]
    }
    var outputs: [Output] = [
      .heading(
        "\(title) · \(Wording.count(bill.people.count, "person", "people"))\(bill.currency.map { " · " + $0.code } ?? "")"
      )
    ]
    if bill.items.isEmpty {
      outputs.append(.note("No items yet: ada 18.50 pasta, bob cy 24 wine, all 14 starter."))
      return outputs
    }
    let payers = bill.items.contains { !$0.paidBy.isEmpty }
    outputs.append(
      .table(
        [["no.", "item", "who"] + (payers ? ["paid by"] : []) + ["amount"]]
          + bill.items.map { item in
            ["\(item.number)", item.label.isEmpty ? "–" : BillReport.cut(item.label), who(item)]
              + (payers ? [paidBy(item)] : []) + [money(item.amount)]
          }))
    if let adjustments { outputs.append(.note(adjustments.prefix(1).uppercased() + adjustments.dropFirst())) }
    outputs.append(.table(splitRows()))
    outputs.append(.note(roundingNote))
    if let tip = roundedTip { outputs.append(.note(tip)) }
    if let check = receiptCheck { outputs.append(check) }
    return outputs
  }

  /// The split as rows: a header, a row a person, the totals. Every row and every column
  /// adds up.
  func splitRows() -> [[String]] {
    let c = split.columns
    var columns: [(String, [Int])] = [("items", c.items)]
    if c.discounts.contains(where: { $0 != 0 }) { columns.append(("discounts", c.discounts.map { -$0 })) }
    if c.charges.contains(where: { $0 != 0 }) { columns.append(("charges", c.charges)) }
    if c.tax.contains(where: { $0 != 0 }) { columns.append(("tax", c.tax)) }
    if c.tip.contains(where: { $0 != 0 }) { columns.append(("tip", c.tip)) }
    var rows: [[String]] = [["who"] + columns.map(\.0) + ["total"]]
    for (p, name) in bill.people.enumerated() {
      rows.append([name] + columns.map { money($0.1[p]) } + [money(split.cents[p])])
    }
    let sums: [String] = columns.map { money($0.1.reduce(0, +)) }
    rows.append(["total"] + sums + [money(split.totalCents)])
    return rows
  }

  /// With every share rounded up: the tip that makes, and what part of the subtotal it is.
  var roundedTip: String? {
    guard bill.roundUp else { return nil }
    let tip = split.columns.tip.reduce(0, +)
    let subtotal = split.columns.items.reduce(0, +)
    guard subtotal != 0 else { return nil }
    let percent = (Rational(tip) / Rational(subtotal) * 100).rounded(places: 1)
    return "Every share rounded up to a whole unit: the tip comes to \(money(tip))\(currencySuffix), "
      + "\(BillReport.plain(percent))% of the subtotal."
  }

  var roundingNote: String {
    let unit = decimals == 2 ? "cent" : "unit"
    guard !split.lines.isEmpty else {
      return "Each item is shared to the \(unit) by the largest remainder: the shares add up to "
        + "\(money(split.totalCents))\(currencySuffix) exactly."
    }
    return
      "Each line of the receipt (the items, \(split.lines.map(\.adjustment.label).uniqued().joined(separator: ", "))) is "
      + "rounded to the \(unit) as a receipt prints it, then shared by the largest remainder: every row and "
      + "column adds up, to \(money(split.totalCents))\(currencySuffix)."
  }

  /// The receipt's total against the bill's, and where a difference may come from.
  var receiptCheck: Output? {
    guard let receipt = bill.receiptTotal else { return nil }
    let receiptCents = (receipt * Rational(BigInteger.power(10, decimals))).rounded(places: 0).intValue ?? 0
    let difference = receiptCents - split.totalCents
    if difference == 0 { return .note("The receipt's total, \(money(receiptCents)), matches.") }
    let more = difference > 0 ? "more" : "less"
    var reasons: [String] = []
    let absolute = abs(difference)
    let scale = Rational(BigInteger.power(10, decimals))
    /// The bill's total were its adjustments changed so.
    func total(_ change: (inout Bill.Adjustment) -> Void) -> Int {
      var other = bill
      for i in other.adjustments.indices { change(&other.adjustments[i]) }
      return BillSplit(other).totalCents
    }
    if let tip = bill.adjustments.first(where: { $0.kind == .tip && !$0.afterTax }), let p = tip.percent,
      total({ if $0.kind == .tip { $0.afterTax = true } }) == receiptCents
    {
      reasons.append("the receipt's tip is on the taxed total (tip \(BillReport.plain(p))% after tax)")
    }
    if let tax = bill.adjustments.first(where: { $0.kind == .tax && $0.percent != nil && !$0.perItem }),
      total({ if $0.kind == .tax && $0.percent != nil { $0.perItem = true } }) == receiptCents
    {
      reasons.append(
        "the receipt rounds the tax on each item (remove tax, then tax \(BillReport.plain(tax.percent!))% per item)")
    }
    for item in bill.items where ((item.amount * scale).rounded(places: 0).intValue ?? 0) == absolute {
      reasons.append(
        "item \(item.number) (\(item.label.isEmpty ? money(item.amount) : item.label)) is "
          + (difference > 0 ? "missing here" : "here twice, or not on the receipt"))
    }
    if reasons.isEmpty { reasons.append("an item, a charge or a discount may be missing or mistyped") }
    return .warning(
      "the receipt says \(money(receiptCents)), \(money(absolute)) \(more) than this bill's \(money(split.totalCents)): "
        + reasons.joined(separator: "; or "))
  }

  // MARK: Enter alone

  var totals: [Output] {
    guard !bill.items.isEmpty else {
      return [.note("No items yet. Add one: ada 18.50 pasta. help lists the rest.")]
    }
    let shares = bill.people.enumerated().map { "\($0.element) \(money(split.cents[$0.offset]))" }
    return [
      .note(
        "\(Wording.count(bill.items.count, "item")), total \(money(split.totalCents))\(currencySuffix): "
          + shares.joined(separator: ", "))
    ]
  }

  // MARK: settle

  func settle() -> [Output] {
    guard !bill.payments.isEmpty || bill.items.contains(where: { !$0.paidBy.isEmpty }) else {
      return [.note("Who paid? paid ada (all of it), or paid ada 100 bob 52.97. Then settle.")]
    }
    let paid = split.paidCents(bill)
    let paidTotal = paid.reduce(0, +)
    guard paidTotal == split.totalCents else {
      let gap = split.totalCents - paidTotal
      return [
        .warning(
          "the payments add up to \(money(paidTotal)), the bill to \(money(split.totalCents)): "
            + "\(money(abs(gap))) \(gap > 0 ? "is not paid by anyone" : "too much was paid"); say who paid what with paid"
        )
      ]
    }
    let balances = bill.people.indices.map { paid[$0] - split.cents[$0] }
    let transfers = Settlement.transfers(balances: balances)
    var outputs: [Output] = []
    let payers = bill.people.indices.filter { paid[$0] > 0 }.map { "\(bill.people[$0]) paid \(money(paid[$0]))" }
    outputs.append(.note(payers.joined(separator: ", ") + "."))
    if transfers.isEmpty {
      outputs.append(.note("Everyone has paid their share: nothing to settle."))
      return outputs
    }
    for transfer in transfers {
      outputs.append(
        .result(
          "\(bill.people[transfer.from]) pays \(bill.people[transfer.to]) \(money(transfer.cents))\(currencySuffix)"))
    }
    let involved = balances.filter { $0 != 0 }.count
    let fewest =
      involved <= Settlement.exactLimit
      ? "the fewest that can square \(involved) balances"
      : "largest debt to largest credit (with more than \(Settlement.exactLimit) balances the fewest is not searched for)"
    outputs.append(.note("\(Wording.count(transfers.count, "transfer")): \(fewest)."))
    return outputs
  }
}

extension Array where Element: Equatable {
  /// The elements in order, each once.
  func uniqued() -> [Element] {
    var seen: [Element] = []
    for e in self where !seen.contains(e) { seen.append(e) }
    return seen
  }
}
