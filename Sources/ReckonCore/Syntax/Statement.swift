/// What one calculator line means, once parsed.
public enum Statement: Sendable, Hashable {
  /// A blank line or a comment.
  case empty
  /// An expression to evaluate and print. `continuesAnswer` is set when the line started with
  /// a binary operator and the parser put `ans` in front of it ("* 2" is "ans * 2").
  case expression(Expr, continuesAnswer: Bool)
  /// `name = expression`.
  case assignment(name: String, nameSpan: SourceSpan, value: Expr)
  /// An expression or assignment line ending in `to hex`, `to fraction`…: its value is shown
  /// converted (and stays a number). `to hex` alone converts `ans`.
  indirect case converted(Statement, Conversion)
}

/// What `to` converts a line's value to, and where `to` and its target stand in the line.
public struct Conversion: Sendable, Hashable {
  public enum Target: Sendable, Hashable {
    /// `to hex`, `to oct`, `to bin`: with the prefix Reckon reads (`0xff`).
    case hex, oct, bin
    /// `to base N`, 2 to 36: the digits and `(base N)`.
    case base(Int)
    /// `to fraction`: an exact value as a fraction in lowest terms.
    case fraction
    /// `to percent`: 100 times the value, and `%`.
    case percent
    /// `to km`, `to km/h`, `in °F`, `-> L/100km`: a unit (an expression of units, which may
    /// hold a number: `L/100km`), or several of one dimension for a mixed result (`to ft in`,
    /// `to h min s`); `text` is the target as written.
    case unit(Expr, text: String)

    /// The words after `to`, for help, completion and suggestions.
    public static let words = ["hex", "oct", "bin", "base", "fraction", "percent"]

    /// The base a conversion writes in, and the prefix it marks the digits with.
    public var radix: (radix: Int, prefix: String?)? {
      switch self {
      case .hex: (16, "0x")
      case .oct: (8, "0o")
      case .bin: (2, "0b")
      case .base(let n): (n, nil)
      case .fraction, .percent, .unit: nil
      }
    }
  }

  public var target: Target
  public var span: SourceSpan

  public init(_ target: Target, at span: SourceSpan) {
    self.target = target
    self.span = span
  }
}

extension Statement {
  /// Every name the line uses, its conversion's target included, in order (a name may repeat).
  public var names: [String] {
    switch self {
    case .empty: []
    case .expression(let expr, _): expr.names
    case .assignment(_, _, let expr): expr.names
    case .converted(let inner, let conversion):
      if case .unit(let target, _) = conversion.target { inner.names + target.names } else { inner.names }
    }
  }
}

extension Expr {
  /// Every name in the expression, functions' names included.
  public var names: [String] {
    switch self {
    case .number: []
    case .name(let name, _): [name]
    case .call(let name, _, let arguments, _): [name] + arguments.flatMap(\.names)
    case .negate(let e, _), .factorial(let e, _), .percent(let e, _): e.names
    case .power(let a, let b, _), .comparison(let a, _, let b, _): a.names + b.names
    case .chain(let first, let links): first.names + links.flatMap(\.operand.names)
    }
  }
}
