import ReckonCore

/// `units [DIMENSION]`: the dimensions the unit table has, or the units of one of them with
/// what each is.
struct UnitsCommand: Command {
  static let help = CommandHelp(
    name: "units", usage: "units [dimension]", summary: "the kinds of units, or one kind's units",
    details: """
      units          every dimension (length, mass, speed…) and its units' count
      units length   the units of length: each with its other names and what it is
      units angle    also ratio, money (the currencies), temperature…
      """)

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    words.isEmpty ? state.evaluator.units.dimensions.map(\.name).filter { !$0.contains(Character(" ")) } : nil
  }

  let dimension: String?
  let span: SourceSpan

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let asked = arguments.words.isEmpty ? nil : arguments.words.map(\.text).joined(separator: " ").lowercased()
    // Other words people use for a dimension.
    dimension = asked.map { ["currency": "money", "currencies": "money", "temperatures": "temperature"][$0] ?? $0 }
    span = arguments.words.first.map { $0.span.union(arguments.words.last!.span) } ?? arguments.nameSpan
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    let table = state.evaluator.units
    guard let dimension else {
      var rows = [["dimension", "units", "for example"]]
      for named in table.dimensions {
        let units = table.units(of: named.name) ?? []
        guard !units.isEmpty else { continue }
        rows.append([named.name, "\(units.count)", units.prefix(4).map(\.symbol).joined(separator: " ")])
      }
      return .stay(
        Reply([
          .note("\(table.units.count) units in \(rows.count - 1) dimensions; units NAME lists one:"), .table(rows),
        ]))
    }
    guard let units = table.units(of: dimension) else {
      let names = table.dimensions.map(\.name)
      let guess = Suggestions.closest(to: dimension, in: names).map { "; did you mean '\($0)'?" } ?? ""
      throw Diagnostic(
        "no dimension \(Diagnostic.quoted(dimension))\(guess)", at: span, hint: "units alone lists them all")
    }
    var rows = [["unit", "also", "is"]]
    let evaluator = state.evaluator
    for entry in units {
      let also = entry.names.dropFirst().prefix(4).joined(separator: " ")
      rows.append([entry.symbol, also, UnitsCommand.definition(of: entry, in: table, evaluator: evaluator)])
    }
    return .stay(Reply([.note("\(units.count) units of \(dimension):"), .table(rows)]))
  }

  /// What a unit is, in the base units: `0.0254 m`, `(x + 273.15) K`, `a currency (2 decimals)`.
  static func definition(
    of entry: UnitTable.Entry, in table: UnitTable, evaluator: Evaluator, factor number: Number? = nil
  ) -> String {
    if let digits = entry.currencyDigits {
      return "a currency (\(digits) decimal\(digits == 1 ? "" : "s"))"
    }
    let base = baseUnit(of: entry.dimension, in: table)
    let factor = ReckonCore.NumberFormatter(digits: 10).format(number ?? entry.factor)
    if let offset = entry.offset {
      return "(x + \(ReckonCore.NumberFormatter(digits: 10).format(offset))) × \(factor) \(base)"
    }
    return base.isEmpty ? factor : factor + " " + base
  }

  /// The base units of a dimension, written as SI writes them: `m`, `kg·m/s²`.
  static func baseUnit(of dimension: Dimension, in table: UnitTable) -> String {
    var above: [String] = []
    var below: [String] = []
    let symbols = ["m", "kg", "s", "A", "K", "mol", "cd", "bit", "¤"]
    for (lane, symbol) in symbols.enumerated() {
      let power = dimension.power(of: lane)
      if power > 0 { above.append(symbol + (power == 1 ? "" : "^\(power)")) }
      if power < 0 { below.append(symbol + (power == -1 ? "" : "^\(-power)")) }
    }
    if above.isEmpty && below.isEmpty { return "" }
    let top = above.isEmpty ? "1" : above.joined(separator: "·")
    return below.isEmpty ? top : top + "/" + below.joined(separator: "·")
  }
}
