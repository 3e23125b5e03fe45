/// One drill question: a table, a second operand and an operation.
public struct Fact: Sendable, Hashable {
  public enum Operation: String, Sendable, Hashable, CaseIterable {
    case multiply = "×"
    case add = "+"
    case subtract = "−"
    case divide = "÷"
  }

  public var table: Int
  public var operand: Int
  public var operation: Operation

  public init(_ table: Int, _ operand: Int, _ operation: Operation = .multiply) {
    self.table = table
    self.operand = operand
    self.operation = operation
  }

  /// The question as shown: `7 × 8 = ?`. Subtraction and division are the inverses of the
  /// addition and times tables: `15 − 7 = ?` (answer 8), `56 ÷ 7 = ?` (answer 8).
  public var question: String { expression + " = ?" }

  /// The sum itself: `7 × 8`.
  public var expression: String {
    switch operation {
    case .multiply: "\(table) × \(operand)"
    case .add: "\(table) + \(operand)"
    case .subtract: "\(table + operand) − \(table)"
    case .divide: "\(table * operand) ÷ \(table)"
    }
  }

  /// The question with its answer: `7 × 8 = 56`.
  public var statement: String { expression + " = \(answer)" }

  /// The fact's name in the store: the sum without spaces (`7×8`, `15−7`, `56÷7`).
  public var item: String { expression.filter { $0 != " " } }

  /// The largest operand an item read back may have (the drill asks up to 100 × 100).
  static let maxItemOperand = 1_000_000

  /// The fact an item names; nil for anything else.
  public init?(item: String) {
    // Each sign is one character: Sequence.contains, not String.contains(String), which is
    // _StringProcessing's and brings its regex engine into the binary (about 1 MB).
    guard let operation = Operation.allCases.first(where: { item.contains(Character($0.rawValue)) }) else {
      return nil
    }
    let parts = item.split(separator: Character(operation.rawValue), omittingEmptySubsequences: false)
    // Operands the drill can ask (tables and second operands to 100), with room to spare: a
    // stored item of 9223372036854775807×2 would overflow the answer.
    guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), (0...Fact.maxItemOperand).contains(a),
      (1...Fact.maxItemOperand).contains(b)
    else { return nil }
    switch operation {
    case .multiply, .add: self.init(a, b, operation)
    case .subtract:
      guard a > b else { return nil }
      self.init(b, a - b, operation)
    case .divide:
      guard a % b == 0, a > 0 else { return nil }
      self.init(b, a / b, operation)
    }
    guard self.item == item else { return nil }
  }

  public var answer: Int {
    switch operation {
    case .multiply: table * operand
    case .add: table + operand
    case .subtract, .divide: operand
    }
  }
}
