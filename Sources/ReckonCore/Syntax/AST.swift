/// The syntax tree of an expression. Left-associative runs of operators are kept flat in
/// `chain`, so a long sum never makes a deep tree (nor a deep recursion).
public indirect enum Expr: Sendable, Hashable {
  case number(Rational, SourceSpan)
  case name(String, SourceSpan)
  /// `name(arguments)`: a function call, or a multiplication when `name` is a variable.
  case call(name: String, nameSpan: SourceSpan, arguments: [Expr], span: SourceSpan)
  case negate(Expr, operatorSpan: SourceSpan)
  /// `base ^ exponent` (right-associative).
  case power(Expr, Expr, operatorSpan: SourceSpan)
  case factorial(Expr, operatorSpan: SourceSpan)
  /// `p%`, which is p/100 and, as the right operand of + or -, changes its meaning.
  case percent(Expr, operatorSpan: SourceSpan)
  /// `first op₁ operand₁ op₂ operand₂ …`, evaluated left to right.
  case chain(Expr, [Link])
  /// `a < b` and the other comparisons: true or false.
  case comparison(Expr, Comparison, Expr, operatorSpan: SourceSpan)

  /// One step of a chain.
  public struct Link: Sendable, Hashable {
    public var op: BinaryOperator
    public var operatorSpan: SourceSpan
    public var operand: Expr

    public init(_ op: BinaryOperator, _ operatorSpan: SourceSpan, _ operand: Expr) {
      self.op = op
      self.operatorSpan = operatorSpan
      self.operand = operand
    }
  }

  /// The whole extent of the expression in the line.
  public var span: SourceSpan {
    switch self {
    case .number(_, let s), .name(_, let s): s
    case .call(_, _, _, let s): s
    case .negate(let e, let op): op.union(e.span)
    case .power(let a, let b, _): a.span.union(b.span)
    case .factorial(let e, let op), .percent(let e, let op): e.span.union(op)
    case .chain(let first, let links): first.span.union(links.last?.operand.span ?? first.span)
    case .comparison(let a, _, let b, _): a.span.union(b.span)
    }
  }

  /// Whether this is written as a percentage (`p%`, possibly under a sign): the left side
  /// `p% of x` takes (as well as any value that is a percentage).
  public var isWrittenPercentage: Bool {
    switch self {
    case .percent: true
    case .negate(let e, _): e.isWrittenPercentage
    default: false
    }
  }

  /// Whether this is a name alone (`°C` in `20 °C`).
  public var isName: Bool {
    if case .name = self { return true }
    return false
  }
}

/// The comparisons, which give true or false.
public enum Comparison: String, Sendable, Hashable {
  case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", equal = "==", notEqual = "!="

  /// Whether the comparison holds when `a` is below (-1), equal to (0) or above (1) `b`.
  public func holds(_ order: Int) -> Bool {
    switch self {
    case .less: order < 0
    case .lessOrEqual: order <= 0
    case .greater: order > 0
    case .greaterOrEqual: order >= 0
    case .equal: order == 0
    case .notEqual: order != 0
    }
  }
}

/// The binary operators of a chain.
public enum BinaryOperator: Sendable, Hashable {
  case add, subtract, multiply, divide, modulo, of
  /// Multiplication written by juxtaposition: `2pi`, `3(4+5)`.
  case implicitMultiply
  /// The parts of a mixed quantity, added: `5 ft 11 in`, `1 h 20 min`, `30° 15'`.
  case mixed
}
