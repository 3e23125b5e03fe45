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

  public var answer: Int {
    switch operation {
    case .multiply: table * operand
    case .add: table + operand
    case .subtract, .divide: operand
    }
  }
}
