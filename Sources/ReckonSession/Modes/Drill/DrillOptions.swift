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

  /// Applies `drill` arguments over these options: `7`, `2-12`, `all`, `max N`, `range N`,
  /// `random`, `order`, `count N`, `+`, `-`, `÷`, `x`.
  public func applying(_ words: [String]) throws(DrillOptionError) -> DrillOptions {
    var options = self
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
      switch word {
      case "all": options.tables = Array(2...9)
      case "random": options.random = true
      case "order", "ordered": options.random = false
      case "max", "range": options.maximum = try number(after: word, in: 2...100)
      case "count": options.count = try number(after: word, in: 1...1000)
      case "endless": options.count = nil
      case "x", "×", "*", "times": options.operation = .multiply
      case "+", "plus", "add": options.operation = .add
      case "-", "−", "minus", "subtract": options.operation = .subtract
      case "÷", "/", "divide": options.operation = .divide
      default:
        options.tables = try DrillOptions.tables(word, at: i)
      }
      i += 1
    }
    return options
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
    throw DrillOptionError(message: "unknown drill option '\(word)'", wordIndex: index)
  }

  /// The options as `drill` arguments (`2-9 max 12 order endless ×`): how they are saved,
  /// read back with `applying`.
  public var arguments: String {
    let count = self.count.map { "count \($0)" } ?? "endless"
    return "\(tablesWord) max \(maximum) \(random ? "random" : "order") \(count) \(operation.rawValue)"
  }

  /// A short name for the prompt: `7×`, `2-9×`, `+`.
  var label: String { tablesWord + operation.rawValue }

  /// The tables as one word: `7`, `2-9`.
  var tablesWord: String {
    tables.count == 1 ? "\(tables[0])" : "\(tables.first!)-\(tables.last!)"
  }
}

/// A drill option that could not be understood.
public struct DrillOptionError: Error, Sendable {
  public var message: String
  /// Which of the words is at fault.
  public var wordIndex: Int
}
