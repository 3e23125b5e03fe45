import ReckonCore

/// A bill as text to paste elsewhere: plain text, Markdown or CSV.
enum BillExport {
  enum Format: String, Sendable, Hashable, CaseIterable {
    case text, markdown, csv

    /// A format by its name or a file's ending: `csv`, `markdown` or `md`, `text` or `txt`.
    init?(word: String) {
      switch word {
      case "text", "txt": self = .text
      case "markdown", "md": self = .markdown
      case "csv": self = .csv
      default: return nil
      }
    }

    var ending: String { self == .markdown ? "md" : self == .csv ? "csv" : "txt" }
  }

  /// The bill as a spreadsheet reads it: a row for each item and each line of the receipt
  /// (tax, tip, service, discounts: these negative), then the total; columns for the
  /// amount, the currency's code, and each person's part. Every row adds up to its amount,
  /// and every person's column to their share (the total row). Amounts are plain numbers
  /// with a decimal point, no thousands separator, so that a spreadsheet and Python's csv
  /// read them as numbers.
  static func spreadsheet(of report: BillReport, lineEnd: String = "\r\n") -> String {
    let bill = report.bill
    let split = BillSplit(bill, detailed: true)
    let code = bill.currency?.code ?? ""
    let plain = { (cents: Int) in Money.format(cents: BigInteger(cents), decimals: split.decimals) }
    var rows: [[String]] = [["no.", "item", "who", "amount", "currency"] + bill.people]
    for (item, cells) in zip(bill.items, split.itemCells) {
      var row = [String](repeating: plain(0), count: bill.people.count)
      for cell in cells { row[cell.person] = plain(cell.cents) }
      let amount = cells.reduce(0) { $0 + $1.cents }
      rows.append(["\(item.number)", item.label, report.who(item), plain(amount), code] + row)
    }
    for line in split.lines {
      let sign = line.adjustment.kind == .discount ? -1 : 1
      rows.append(
        ["", report.describe(line.adjustment), "", plain(sign * line.cents), code]
          + line.cells.map { plain(sign * $0) })
    }
    let tips =
      split.columns.tip.reduce(0, +) - split.lines.filter { $0.adjustment.kind == .tip }.reduce(0) { $0 + $1.cents }
    if tips != 0 {
      // Each share rounded up: what that added to the tip.
      let before = split.lines.filter { $0.adjustment.kind == .tip }
      var cells = split.columns.tip
      for line in before { for p in cells.indices { cells[p] -= line.cells[p] } }
      rows.append(["", "rounded up to whole units (tip)", "", plain(tips), code] + cells.map(plain))
    }
    rows.append(["", "total", "", plain(split.totalCents), code] + split.cents.map(plain))
    if bill.isTrip || !bill.payments.isEmpty || bill.items.contains(where: { !$0.paidBy.isEmpty }) {
      // What each paid (expenses, bills brought in, payments): settle squares it with the
      // total row.
      let paid = split.paidCents(bill)
      rows.append(["", "paid", "", plain(paid.reduce(0, +)), code] + paid.map(plain))
    }
    return rows.map { row in row.map(csvField).joined(separator: ",") }.joined(separator: lineEnd) + lineEnd
  }

  /// The export; `lineEnd` ends a CSV's rows (RFC 4180's CRLF in a file; a line feed on the
  /// screen).
  static func text(of report: BillReport, title: String, as format: Format, lineEnd: String = "\r\n") -> String {
    let items =
      [["no.", "item", "who", "amount"]]
      + report.bill.items.map { item in
        ["\(item.number)", item.label, report.who(item), report.money(item.amount)]
      }
    let split = report.splitRows()
    let currency = report.bill.currency?.code
    switch format {
    case .text:
      var lines = ["\(title)\(currency.map { " (\($0))" } ?? "")", ""] + aligned(items) + [""]
      if let adjustments = report.adjustments { lines += [adjustments, ""] }
      lines += aligned(split)
      return lines.joined(separator: "\n")
    case .markdown:
      var lines = ["## \(title)\(currency.map { " (\($0))" } ?? "")", ""] + markdown(items, leftColumns: 3) + [""]
      if let adjustments = report.adjustments { lines += [adjustments, ""] }
      lines += markdown(split, leftColumns: 1)
      return lines.joined(separator: "\n")
    case .csv:
      return spreadsheet(of: report, lineEnd: lineEnd)
    }
  }

  /// Columns padded to their widest cell; amounts (the last columns) to the right.
  static func aligned(_ rows: [[String]]) -> [String] {
    let widths = rows[0].indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { c, cell in
        let pad = String(repeating: " ", count: widths[c] - cell.count)
        return c == 0 || (c < 3 && rows[0].first == "no.") ? cell + pad : pad + cell
      }.joined(separator: "  ").trimmingTrailingSpaces()
    }
  }

  /// A Markdown table; the columns after the first `leftColumns` (the amounts) to the right.
  static func markdown(_ rows: [[String]], leftColumns: Int) -> [String] {
    let escape = { (cell: String) in String(cell.flatMap { $0 == "|" ? ["\\", "|"] : [$0] }) }
    let header = "| " + rows[0].map(escape).joined(separator: " | ") + " |"
    let rule = "|" + rows[0].indices.map { $0 < leftColumns ? " --- |" : " ---: |" }.joined()
    return [header, rule] + rows.dropFirst().map { "| " + $0.map(escape).joined(separator: " | ") + " |" }
  }

  /// RFC 4180: a field with a comma, quote or line break in quotes, its quotes doubled.
  static func csvField(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + String(field.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
  }
}

extension String {
  func trimmingTrailingSpaces() -> String {
    var s = self
    while s.last == " " { s.removeLast() }
    return s
  }
}
