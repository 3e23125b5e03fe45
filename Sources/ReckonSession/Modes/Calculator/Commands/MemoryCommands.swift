import ReckonCore

/// `m+ [expr]` and `m- [expr]`: the value (`ans` without one) added to the memory, or
/// taken from it.
struct MemoryChange: Sendable {
  let name: String
  let value: Value
  let span: SourceSpan

  init(_ name: String, _ arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    self.name = name
    let tokens = try arguments.tokens(in: state)
    value = try Operands.value(tokens, orAnswerFor: name, at: arguments.start, in: state)
    span = SourceSpan(arguments.start, arguments.start)
  }

  func run(adding: Bool, in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    let evaluator = state.evaluator
    let old = state.memory ?? .rational(.zero)
    state.memory = try evaluator.add(old, adding ? value : evaluator.negate(value, at: span), at: span)
    return .stay(Reply([.note("memory: \(state.textReadingSettings(of: state.memory!))")]))
  }
}

struct MemoryAddCommand: Command {
  static let help = CommandHelp(
    name: "m+", usage: "m+ [expr]", summary: "add ans (or expr) to memory",
    details: "Adds the last result, or the value of expr, to the memory (M+).")

  let change: MemoryChange

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    change = try MemoryChange("m+", arguments, in: state)
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep { try change.run(adding: true, in: &state) }
}

struct MemorySubtractCommand: Command {
  static let help = CommandHelp(
    name: "m-", usage: "m- [expr]", summary: "subtract ans (or expr) from memory",
    details: "Subtracts the last result, or the value of expr, from the memory register.")

  let change: MemoryChange

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    change = try MemoryChange("m-", arguments, in: state)
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep { try change.run(adding: false, in: &state) }
}

/// `mr`: the memory, which becomes `ans`.
struct MemoryRecallCommand: Command {
  static let help = CommandHelp(
    name: "mr", usage: "mr", summary: "recall memory (it becomes ans)",
    details: "Shows the memory register; it becomes ans, so '* 2' works next.", takesArguments: false)

  init(parsing arguments: Arguments, in state: SessionState) {}

  func run(in state: inout SessionState) -> ModeStep {
    guard let memory = state.memory else { return .stay(Reply([.note("memory is empty")])) }
    state.environment.answer = memory
    return .stay(Reply([.result(state.textReadingSettings(of: memory))]))
  }
}

/// `mc`: the memory emptied.
struct MemoryClearCommand: Command {
  static let help = CommandHelp(
    name: "mc", usage: "mc", summary: "clear memory", details: "Sets the memory register back to empty.",
    takesArguments: false)

  init(parsing arguments: Arguments, in state: SessionState) {}

  func run(in state: inout SessionState) -> ModeStep {
    state.memory = nil
    return .stay(Reply([.note("memory cleared")]))
  }
}
