/// The one rule for what a name means in a calculation, the twin of the session's command
/// registry: every reader of names (the evaluator's lookup and calls, assignment checks, the
/// note that a variable hides something, "did you mean", Tab completion and help) asks here.
///
/// The rule, in order: `ans` (and `_`), the last result; your variables; Reckon's constants
/// (`pi` `π` `e` `tau` `τ` `phi` `φ`), which cannot be assigned; units, with their prefixes
/// (`m`, `km`, `µs`; a variable of the same name hides one, and Reckon says so once); physical
/// constants (`c`, `G`, `hbar`; hidden by a variable in the same way); functions, which are
/// called with parentheses and cannot be variables. Commands are the session's and are
/// checked there. A name that is none of these is an error: it is never split into units.
public struct Names: Sendable {
  /// What a name means.
  public enum Meaning: Sendable {
    case answer
    case variable(Value)
    /// One of Reckon's own constants (π, e, τ, φ).
    case constant(Value)
    case unit(Unit.Term)
    case physicalConstant(UnitTable.Constant)
    case function(Builtins.Function)

    /// Whether it is a value a name stands for (not a function).
    public var isValue: Bool {
      if case .function = self { false } else { true }
    }
  }

  public let units: UnitTable

  public init(units: UnitTable) { self.units = units }

  /// What `name` means with `env`'s variables and last result; nil for an unknown name.
  public func meaning(of name: String, in env: Environment) -> Meaning? {
    if Environment.answerNames.contains(name) { return .answer }
    if let value = env.variables[name] { return .variable(value) }
    return builtIn(name)
  }

  /// What `name(…)` calls: a function first (`min(3, 4)`, though `min` alone is the
  /// minute), else what the name means, which a parenthesis multiplies (`x(2)`, `5 m(2)`).
  public func callee(_ name: String, in env: Environment) -> Meaning? {
    if let function = Builtins.function(named: name) { return .function(function) }
    return meaning(of: name, in: env)
  }

  /// What `name` means before any variable: what a variable of that name would hide.
  public func builtIn(_ name: String) -> Meaning? {
    if let value = Builtins.constants[name] { return .constant(value) }
    if let term = units.term(named: name) { return .unit(term) }
    if let constant = units.constant(named: name) { return .physicalConstant(constant) }
    if let function = Builtins.function(named: name) { return .function(function) }
    return nil
  }

  /// Why `name` cannot be a variable (the last result, a constant of Reckon's own, a
  /// function); nil when it can. A unit or physical constant can: the variable hides it.
  public func refusal(toAssign name: String) -> String? {
    if Environment.answerNames.contains(name) { return "'\(name)' is the last result and cannot be assigned" }
    switch builtIn(name) {
    case .constant: return "'\(name)' is a constant and cannot be changed"
    case .function: return "'\(name)' is a function, so it cannot be a variable name"
    default: return nil
    }
  }

  /// What a new variable called `name` hides, said once: nil when it hides nothing.
  public func hiddenBy(variable name: String) -> String? {
    switch builtIn(name) {
    case .unit(let term):
      let entry = units.units[Int(term.unit)]
      let others = entry.names.filter { $0 != name }.prefix(2)
      let other = term.prefix == 0 && !others.isEmpty ? " (still " + others.joined(separator: " or ") + ")" : ""
      return "\(name) is your variable now, and hides the unit \(units.symbol(of: term))\(other) until reset"
    case .physicalConstant(let constant):
      return "\(name) is your variable now, and hides the constant \(constant.symbol) (\(constant.summary)) until reset"
    default:
      return nil
    }
  }

  /// The name an unknown one most likely is: a variable or constant one edit away, two units
  /// run together (`kmh` → `km/h`), a function, a unit or physical constant.
  public func closest(to name: String, in env: Environment) -> String? {
    if let guess = Suggestions.closest(to: name, in: Array(env.variables.keys) + Builtins.constantNames) {
      return guess
    }
    if !Diagnostic.isLong(name), let guess = units.runTogether(name) { return guess }
    if let guess = Suggestions.closest(to: name, in: Builtins.functionNames + ["ans"]) { return guess }
    return Suggestions.closest(to: name, in: units.allNames, maxDistance: 1)
  }

  /// The closest function's name, for a call of one that does not exist.
  public func closestFunction(to name: String) -> String? {
    Suggestions.closest(to: name, in: Builtins.functionNames)
  }

  /// What an expression's word may complete to: functions (with their `(`), Reckon's
  /// constants, the physical constants' symbols, and `env`'s names.
  public func completions(in env: Environment) -> [String] {
    var names = Builtins.functionNames.map { $0 + "(" } + Builtins.constantNames
    names += units.constants.map(\.symbol)
    names += env.variables.keys
    if env.answer != nil { names.append("ans") }
    return names
  }

  /// What a unit's word may complete to (after a number, or a conversion's `to`): each
  /// unit's symbol and first other name (`h`, `hour`), without prefixes (`km` is `k` and `m`).
  public var unitCompletions: [String] { units.units.flatMap { $0.names.prefix(2) } }
}
