import ReckonCore

/// What must hold of a bill after every line, for the fuzzer and the tests: the split adds
/// up (each column to its lines, each row to its share, the shares to the total), the split
/// kept between lines is the split from nothing, and the bill's saved lines, read back and
/// replayed, are the bill.
#if DEBUG || RECKON_CHECKS
  extension Session {
    /// A broken rule of the bill being written, in words, or nil (nil too outside a bill).
    /// `replaying`: also read the bill's saved lines back and replay them (the slowest check).
    public func billProblem(replaying: Bool = true) -> String? {
      guard let mode = mode as? BillMode else { return nil }
      let bill = mode.bill
      let split = BillSplit(bill)
      let columns = split.columns
      func sum(_ kind: Bill.Adjustment.Kind) -> Int {
        split.lines.filter { $0.adjustment.kind == kind }.reduce(0) { $0 + $1.cents }
      }
      guard columns.discounts.reduce(0, +) == sum(.discount), columns.charges.reduce(0, +) == sum(.charge),
        columns.tax.reduce(0, +) == sum(.tax)
      else { return "a column does not add up to its lines" }
      for line in split.lines where line.cells.reduce(0, +) != line.cents {
        return "the line \(line.adjustment.label) is not shared out in full"
      }
      for p in split.cents.indices {
        let row = columns.items[p] + columns.charges[p] + columns.tax[p] + columns.tip[p] - columns.discounts[p]
        guard row == split.cents[p] else { return "\(bill.people[p])'s row does not add up to their share" }
      }
      var fresh: BillSplit.ItemsPart?
      if BillSplit(bill, cache: &fresh) != split { return "the split from nothing differs" }
      if let kept = mode.itemsCache, kept.count == bill.items.count, kept.edits == bill.itemEdits {
        var cache: BillSplit.ItemsPart? = kept
        if BillSplit(bill, cache: &cache) != split { return "the split kept between lines differs" }
      }
      guard replaying else { return nil }
      var saved: [(number: Int, entries: [BillEntry])] = []
      for line in mode.lines {
        guard let entries = BillEntry.decoded(BillEntry.encoded(line.entries)) else {
          return "line \(line.number)'s entries cannot be read back"
        }
        guard entries == line.entries else { return "line \(line.number)'s entries read back differently" }
        saved.append((line.number, entries))
      }
      let (replayed, skipped) = BillMode.replay(saved)
      guard skipped == 0, replayed == bill else { return "the bill's lines replayed are not the bill" }
      return nil
    }
  }
#endif
