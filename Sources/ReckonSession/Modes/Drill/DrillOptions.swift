import ReckonCore

/// What a drill asks: which tables, up to which operand, in which order, how many.
public struct DrillOptions: Sendable, Hashable {
  public var tables: [Int] = Array(2...9)
  /// The largest second operand (`max N`, also `range N`).
  public var maximum = 12
  public var random = false
  /// Questions in the round; nil: until quit.
  public var count: Int?
  public var operation: Fact.Operation = .multiply

  public init() {}

  /// Applies `drill` arguments over these options (as saved settings are read back).
  public func applying(_ words: [String]) throws(DrillOptionError) -> DrillOptions {
    applying(try Changes(parsing: words))
  }

  /// These options with what `changes` gives in their place.
  public func applying(_ changes: Changes) -> DrillOptions {
    var options = self
    if let tables = changes.tables { options.tables = tables }
    if let maximum = changes.maximum { options.maximum = maximum }
    if let random = changes.random { options.random = random }
    if let count = changes.count { options.count = count }
    if let operation = changes.operation { options.operation = operation }
    return options
  }

  /// The options a `drill` line gives; each left out keeps its value.
  public struct Changes: Sendable, Hashable {
    public var tables: [Int]?
    public var maximum: Int?
    public var random: Bool?
    /// `.some(nil)`: endless.
    public var count: Int??
    public var operation: Fact.Operation?

    public init() {}

    /// Reads `drill` arguments: tables (`7`, `2-12`, `all`), `max N`, `range N`, `random`,
    /// `order`, `count N`, `endless`, `+`, `-`, `÷`, `x`.
    ///
    /// The tables given on one line together are the list drilled, whatever joins them
    /// (`7 8`, `7,8`, `7, 8`, `7 and 8`, `3-5,8`), smallest first and each once; a line with
    /// no table keeps the tables drilled before, as it keeps every option it leaves out.
    public init(parsing words: [String]) throws(DrillOptionError) {
      var options = Changes()
      /// The tables given so far on this line; nil: none yet.
      var tables: [Int]?
      /// Whether the word before was a table, and the joining word or comma still waiting for
      /// a table after it (the word's place, and whether it was a comma).
      var afterTable = false
      var join: (index: Int, comma: Bool)?
      var i = 0
      func number(after word: String, in range: ClosedRange<Int>) throws(DrillOptionError) -> Int {
        i += 1
        guard i < words.count, let n = Int(words[i]), range.contains(n) else {
          throw DrillOptionError(
            message: "\(word) needs a number from \(range.lowerBound) to \(range.upperBound)",
            wordIndex: min(i, words.count - 1))
        }
        return n
      }
      while i < words.count {
        // lowercased() is the identity on lowercase ASCII and on the symbols, the words saved
        // settings hold: skipping it spares every start-up Unicode's case tables.
        let needsLowercasing =
          words[i] != "×" && words[i] != "÷" && words[i] != "−"
          && words[i].utf8.contains { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 >= 0x80 }
        let word = needsLowercasing ? words[i].lowercased() : words[i]
        var isTable = false
        switch word {
        case "all":
          tables = (tables ?? []) + Array(2...9)
          isTable = true
        case "and", ",":
          guard afterTable, join == nil else { throw DrillOptionError.join(comma: word == ",", at: i) }
          join = (i, word == ",")
        case "random": options.random = true
        case "order", "ordered": options.random = false
        case "max", "range": options.maximum = try number(after: word, in: 2...100)
        case "count": options.count = try number(after: word, in: 1...1000)
        case "endless": options.count = .some(nil)
        case "x", "×", "*", "times": options.operation = .multiply
        case "+", "plus", "add": options.operation = .add
        case "-", "−", "minus", "subtract": options.operation = .subtract
        case "÷", "/", "divide": options.operation = .divide
        default:
          guard word.utf8.contains(UInt8(ascii: ",")) else {
            tables = (tables ?? []) + (try DrillOptions.tables(word, at: i))
            isTable = true
            break
          }
          // Tables with commas between them (and perhaps one at either end, joining this word
          // to the one before or after).
          var pieces = word.split(separator: ",", omittingEmptySubsequences: false)
          let commaBefore = pieces.count > 1 && pieces.first!.isEmpty
          let commaAfter = pieces.count > 1 && pieces.last!.isEmpty
          if commaBefore { pieces.removeFirst() }
          if commaAfter { pieces.removeLast() }
          if pieces.contains(where: \.isEmpty) || (commaBefore && (!afterTable || join != nil)) {
            throw DrillOptionError.join(comma: true, at: i)
          }
          for piece in pieces { tables = (tables ?? []) + (try DrillOptions.tables(String(piece), at: i)) }
          isTable = true
          if commaAfter { join = (i, true) }
        }
        if isTable {
          // A table answers the join before it, unless it brought one of its own (`7,`).
          if let waiting = join, waiting.index < i { join = nil }
        } else if let waiting = join, waiting.index < i {
          throw DrillOptionError.join(comma: waiting.comma, at: waiting.index)
        }
        afterTable = isTable
        i += 1
      }
      if let waiting = join { throw DrillOptionError.join(comma: waiting.comma, at: waiting.index) }
      if let tables {
        // Smallest first, each once (without a Set: saved options are read at start-up, and
        // a first Set costs the runtime a scan of the binary's conformances).
        var sorted: [Int] = []
        for table in tables.sorted() where table != sorted.last { sorted.append(table) }
        options.tables = sorted
      }
      self = options
    }
  }

  /// A table (`7`) or a range of them (`2-12`), from 1 to 100.
  static func tables(_ word: String, at index: Int) throws(DrillOptionError) -> [Int] {
    let range = 1...100
    if let n = Int(word) {
      guard range.contains(n) else {
        throw DrillOptionError(message: "the tables go from 1 to 100, not \(n)", wordIndex: index)
      }
      return [n]
    }
    if let dash = word.firstIndex(of: "-"), let lo = Int(word[..<dash]), let hi = Int(word[word.index(after: dash)...])
    {
      guard range.contains(lo), range.contains(hi) else {
        throw DrillOptionError(message: "the tables go from 1 to 100", wordIndex: index)
      }
      guard lo <= hi else {
        throw DrillOptionError(message: "write the smaller table first: \(hi)-\(lo)", wordIndex: index)
      }
      return Array(lo...hi)
    }
    throw DrillOptionError(message: "unknown drill option \(Diagnostic.quoted(word))", wordIndex: index)
  }

  /// The options as `drill` arguments (`2-9 max 12 order endless ×`, `3-5,8 max 12 …`): how
  /// they are saved, read back with `applying`.
  public var arguments: String {
    let count = self.count.map { "count \($0)" } ?? "endless"
    return "\(tablesWord) max \(maximum) \(random ? "random" : "order") \(count) \(operation.rawValue)"
  }

  /// A short name for the prompt: `7×`, `2-9×`, `3-5,8×`, `+`.
  var label: String { tablesWord + operation.rawValue }

  /// The tables as one word, as `drill` reads them: `7`, `2-9`, `7,8`, `3-5,8`.
  var tablesWord: String {
    DrillOptions.runs(tables).flatMap { run in run.count > 2 ? ["\(run.first!)-\(run.last!)"] : run.map(String.init) }
      .joined(separator: ",")
  }

  /// The tables in words: `the 7 table`, `the 7 and 8 tables`, `tables 2–9`,
  /// `tables 3–5 and 8`, `tables 7, 9 and 12`.
  var tablesName: String {
    if tables.count == 1 { return "the \(tables[0]) table" }
    if tables.count == 2 { return "the \(tables[0]) and \(tables[1]) tables" }
    let parts = DrillOptions.runs(tables).flatMap { run in
      run.count > 2 ? ["\(run.first!)–\(run.last!)"] : run.map(String.init)
    }
    return "tables " + Wording.list(parts)
  }

  /// Sorted tables in runs of consecutive ones: [3, 4, 5, 8] is [[3, 4, 5], [8]]. Runs of
  /// three or more are written as ranges; shorter ones table by table.
  static func runs(_ tables: [Int]) -> [[Int]] {
    var runs: [[Int]] = []
    for table in tables {
      if let last = runs.last?.last, last + 1 == table {
        runs[runs.count - 1].append(table)
      } else {
        runs.append([table])
      }
    }
    return runs
  }
}

/// A drill option that could not be understood.
public struct DrillOptionError: Error, Sendable {
  public var message: String
  /// Which of the words is at fault.
  public var wordIndex: Int

  /// `and` or a comma without a table on each side of it.
  static func join(comma: Bool, at index: Int) -> DrillOptionError {
    DrillOptionError(
      message: comma
        ? "a comma goes between two tables: drill 7,8" : "'and' goes between two tables: drill 7 and 8",
      wordIndex: index)
  }
}
