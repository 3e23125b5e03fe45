import ReckonCore

/// A bill as text to paste elsewhere: plain text, Markdown or CSV.
enum BillExport {
  enum Format: String, Sendable, Hashable, CaseIterable {
    case text, markdown, csv
  }

  static func text(of report: BillReport, title: String, as format: Format) -> String {
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
      return split.map { row in row.map(csvField).joined(separator: ",") }.joined(separator: "\n")
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
