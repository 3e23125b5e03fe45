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
      let word = words[i].lowercased()
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
        if let n = Int(word), (1...100).contains(n) {
          options.tables = [n]
        } else if let dash = word.firstIndex(of: "-"), let lo = Int(word[..<dash]),
          let hi = Int(word[word.index(after: dash)...]), 1 <= lo, lo <= hi, hi <= 100
        {
          options.tables = Array(lo...hi)
        } else {
          throw DrillOptionError(message: "unknown drill option '\(words[i])'", wordIndex: i)
        }
      }
      i += 1
    }
    return options
  }

  /// The options as `drill` arguments (`2-9 max 12 order endless ×`): how they are saved,
  /// read back with `applying`.
  public var arguments: String {
    let tables = self.tables.count == 1 ? "\(self.tables[0])" : "\(self.tables.first!)-\(self.tables.last!)"
    let count = self.count.map { "count \($0)" } ?? "endless"
    return "\(tables) max \(maximum) \(random ? "random" : "order") \(count) \(operation.rawValue)"
  }

  /// A short name for the prompt: `7×`, `2-9×`, `+`.
  var label: String {
    let tables = self.tables.count == 1 ? "\(self.tables[0])" : "\(self.tables.first!)-\(self.tables.last!)"
    return tables + operation.rawValue
  }
}

/// A drill option that could not be understood.
public struct DrillOptionError: Error, Sendable {
  public var message: String
  /// Which of the words is at fault.
  public var wordIndex: Int
}
