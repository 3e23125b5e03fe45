/// The built-in constants and functions: their names, help, and implementations.
public enum Builtins {
  /// A built-in function.
  public struct Function: Sendable {
    public let name: String
    /// The accepted argument counts.
    public let arity: ClosedRange<Int>
    public let usage: String
    public let summary: String
    /// How it treats a quantity with a unit.
    public let units: Units

    init(name: String, arity: ClosedRange<Int>, usage: String, summary: String, units: Units = .plain) {
      self.name = name
      self.arity = arity
      self.usage = usage
      self.summary = summary
      self.units = units
    }
  }

  /// How a function treats quantities with units: the one place it is said (`Functions`
  /// applies it, `help` shows it).
  public enum Units: Sendable, Equatable {
    /// Takes plain numbers: an angle is its radians (sin(30°)), a ratio its number
    /// (ln(50%)); a length or any other dimension is an error.
    case plain
    /// A root: of a unit whose powers it divides (sqrt(9 m²) is 3 m), or of a plain number.
    case root(Int)
    /// Keeps the first argument's unit: abs(-3 m) is 3 m, round(2.54 cm, 1) is 2.5 cm (a
    /// ratio rounds as its number: round(37.5%) is 0).
    case keepsUnit
    /// All of one dimension, the result in the first's unit: max(1 m, 2 ft) is 1 m.
    case sameDimension

    /// The rule as help says it; nil for plain numbers.
    public var help: String? {
      switch self {
      case .plain: nil
      case .root: "with units: of a unit whose powers it divides, sqrt(9 m²) is 3 m"
      case .keepsUnit: "with units: in the first argument's unit, abs(-3 m) is 3 m"
      case .sameDimension: "with units: of one dimension, in the first's unit, max(1 m, 2 ft) is 1 m"
      }
    }
  }

  /// Constants by every name they answer to: π, e and τ are kept exactly (as multiples of
  /// π and e), φ is worked out to the digits asked.
  public static let constants: [String: Value] = [
    "pi": .pi, "π": .pi, "e": .e, "tau": .number(.product(2, Number.Constants(pi: 1))),
    "τ": .number(.product(2, Number.Constants(pi: 1))),
    "phi": .number(.approx((Real.rational(.one) + Real.rational(5).root(2)) / Real.rational(2))),
    "φ": .number(.approx((Real.rational(.one) + Real.rational(5).root(2)) / Real.rational(2))),
  ]

  /// Constant names as help and completion show them.
  public static let constantNames = ["pi", "π", "e", "tau", "τ", "phi", "φ"]

  public static let functions: [Function] = [
    Function(
      name: "sqrt", arity: 1...1, usage: "sqrt(x)", summary: "square root; exact for perfect squares", units: .root(2)),
    Function(
      name: "cbrt", arity: 1...1, usage: "cbrt(x)", summary: "cube root (of any sign); exact for perfect cubes",
      units: .root(3)),
    Function(name: "abs", arity: 1...1, usage: "abs(x)", summary: "absolute value", units: .keepsUnit),
    Function(
      name: "round", arity: 1...2, usage: "round(x[, n])",
      summary: "round to n decimals (default 0), halves away from zero", units: .keepsUnit),
    Function(name: "floor", arity: 1...1, usage: "floor(x)", summary: "largest integer not above x", units: .keepsUnit),
    Function(name: "ceil", arity: 1...1, usage: "ceil(x)", summary: "smallest integer not below x", units: .keepsUnit),
    Function(
      name: "trunc", arity: 1...1, usage: "trunc(x)", summary: "x without its fraction (toward zero)", units: .keepsUnit
    ),
    Function(name: "min", arity: 1...1000, usage: "min(x, y, …)", summary: "smallest argument", units: .sameDimension),
    Function(name: "max", arity: 1...1000, usage: "max(x, y, …)", summary: "largest argument", units: .sameDimension),
    Function(name: "ln", arity: 1...1, usage: "ln(x)", summary: "natural logarithm"),
    Function(
      name: "log", arity: 1...2, usage: "log(x[, base])",
      summary: "logarithm, base 10 by default; exact for powers of the base"),
    Function(name: "log2", arity: 1...1, usage: "log2(x)", summary: "base-2 logarithm; exact for powers of 2"),
    Function(name: "exp", arity: 1...1, usage: "exp(x)", summary: "e to the power x"),
    Function(name: "sin", arity: 1...1, usage: "sin(x)", summary: "sine, x in radians; exact at multiples of π/6"),
    Function(name: "cos", arity: 1...1, usage: "cos(x)", summary: "cosine, x in radians; exact at multiples of π/3"),
    Function(name: "tan", arity: 1...1, usage: "tan(x)", summary: "tangent, x in radians; exact at multiples of π/4"),
    Function(name: "asin", arity: 1...1, usage: "asin(x)", summary: "inverse sine, in radians (−1 ≤ x ≤ 1)"),
    Function(name: "acos", arity: 1...1, usage: "acos(x)", summary: "inverse cosine, in radians (−1 ≤ x ≤ 1)"),
    Function(name: "atan", arity: 1...1, usage: "atan(x)", summary: "inverse tangent, in radians"),
    Function(
      name: "atan2", arity: 2...2, usage: "atan2(y, x)", summary: "the angle of the point (x, y), from −π to π"),
    Function(name: "sinh", arity: 1...1, usage: "sinh(x)", summary: "hyperbolic sine"),
    Function(name: "cosh", arity: 1...1, usage: "cosh(x)", summary: "hyperbolic cosine"),
    Function(name: "tanh", arity: 1...1, usage: "tanh(x)", summary: "hyperbolic tangent"),
    Function(name: "asinh", arity: 1...1, usage: "asinh(x)", summary: "inverse hyperbolic sine"),
    Function(name: "acosh", arity: 1...1, usage: "acosh(x)", summary: "inverse hyperbolic cosine (x ≥ 1)"),
    Function(name: "atanh", arity: 1...1, usage: "atanh(x)", summary: "inverse hyperbolic tangent (−1 < x < 1)"),
    Function(name: "gcd", arity: 2...1000, usage: "gcd(a, b, …)", summary: "greatest common divisor of whole numbers"),
    Function(name: "lcm", arity: 2...1000, usage: "lcm(a, b, …)", summary: "least common multiple of whole numbers"),
    Function(
      name: "binom", arity: 2...2, usage: "binom(n, k)",
      summary: "binomial coefficient: ways to choose k of n (also nCr)"),
    Function(name: "nCr", arity: 2...2, usage: "nCr(n, r)", summary: "combinations: binom(n, r)"),
    Function(name: "nPr", arity: 2...2, usage: "nPr(n, r)", summary: "permutations: n!/(n−r)! (also perm)"),
    Function(name: "perm", arity: 2...2, usage: "perm(n, r)", summary: "permutations: nPr(n, r)"),
    Function(
      name: "idiv", arity: 2...2, usage: "idiv(a, b)", summary: "integer division: ⌊a/b⌋ (the quotient of a mod b)"),
    Function(
      name: "rem", arity: 2...2, usage: "rem(a, b)", summary: "truncated remainder: sign of a (mod's follows b)"),
    Function(name: "isprime", arity: 1...1, usage: "isprime(n)", summary: "true when the whole number n is prime"),
    Function(name: "bitand", arity: 2...1000, usage: "bitand(a, b, …)", summary: "bitwise and of whole numbers"),
    Function(name: "bitor", arity: 2...1000, usage: "bitor(a, b, …)", summary: "bitwise or of whole numbers"),
    Function(name: "bitxor", arity: 2...1000, usage: "bitxor(a, b, …)", summary: "bitwise exclusive or"),
    Function(name: "bitnot", arity: 1...1, usage: "bitnot(a)", summary: "bitwise not: −a − 1 (two's complement)"),
    Function(name: "shl", arity: 2...2, usage: "shl(a, n)", summary: "a shifted left n bits: a·2^n"),
    Function(name: "shr", arity: 2...2, usage: "shr(a, n)", summary: "a shifted right n bits: ⌊a/2^n⌋"),
  ]

  static let functionsByName: [String: Function] = Dictionary(
    uniqueKeysWithValues: functions.map { ($0.name, $0) })

  public static func function(named name: String) -> Function? { functionsByName[name] }

  public static var functionNames: [String] { functions.map(\.name) }
}
