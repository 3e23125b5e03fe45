#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built-in constants and functions: their names, help, and implementations.
public enum Builtins {
  /// A built-in function.
  public struct Function: Sendable {
    public let name: String
    /// The accepted argument counts.
    public let arity: ClosedRange<Int>
    public let usage: String
    public let summary: String
  }

  /// Constants by every name they answer to.
  public static let constants: [String: Value] = [
    "pi": .approx(Double.pi), "π": .approx(Double.pi), "e": .approx(M_E),
  ]

  /// Constant names as help and completion show them.
  public static let constantNames = ["pi", "π", "e"]

  public static let functions: [Function] = [
    Function(name: "sqrt", arity: 1...1, usage: "sqrt(x)", summary: "square root; exact for perfect squares"),
    Function(name: "abs", arity: 1...1, usage: "abs(x)", summary: "absolute value"),
    Function(
      name: "round", arity: 1...2, usage: "round(x[, n])",
      summary: "round to n decimals (default 0), halves away from zero"),
    Function(name: "floor", arity: 1...1, usage: "floor(x)", summary: "largest integer not above x"),
    Function(name: "ceil", arity: 1...1, usage: "ceil(x)", summary: "smallest integer not below x"),
    Function(name: "min", arity: 1...1000, usage: "min(x, y, …)", summary: "smallest argument"),
    Function(name: "max", arity: 1...1000, usage: "max(x, y, …)", summary: "largest argument"),
    Function(name: "ln", arity: 1...1, usage: "ln(x)", summary: "natural logarithm"),
    Function(
      name: "log", arity: 1...2, usage: "log(x[, base])",
      summary: "logarithm, base 10 by default; exact for powers of the base"),
    Function(name: "exp", arity: 1...1, usage: "exp(x)", summary: "e to the power x"),
    Function(name: "sin", arity: 1...1, usage: "sin(x)", summary: "sine, x in radians"),
    Function(name: "cos", arity: 1...1, usage: "cos(x)", summary: "cosine, x in radians"),
    Function(name: "tan", arity: 1...1, usage: "tan(x)", summary: "tangent, x in radians"),
  ]

  static let functionsByName: [String: Function] = Dictionary(
    uniqueKeysWithValues: functions.map { ($0.name, $0) })

  public static func function(named name: String) -> Function? { functionsByName[name] }

  public static var functionNames: [String] { functions.map(\.name) }
}
