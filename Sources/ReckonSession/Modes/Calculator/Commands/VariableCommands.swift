import ReckonCore

/// `vars`: the variables, `ans` and the memory.
struct VarsCommand: Command {
  static let help = CommandHelp(
    name: "vars", usage: "vars", summary: "list your variables, ans and memory",
    details: "Shows the variables you have set, the last result (ans) and the memory.", takesArguments: false)

  let span: SourceSpan

  init(parsing arguments: Arguments, in state: SessionState) { span = arguments.nameSpan }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    var rows: [[String]] = [["name", "value"]]
    // A million-digit value would swamp the table: show its start and its size (worked out
    // without writing all of its digits: 30 such values took 5.4 s that way).
    func shown(_ value: Value) -> String {
      if let r = value.exact, r.isInteger, r.numerator.bitWidth > 140 {
        let (count, digits) = r.numerator.leadingDigits(30)
        return (r.isNegative ? "-" : "") + digits + "… (\(count.grouped) digits)"
      }
      let text = state.textReadingSettings(of: value)
      guard text.count > 40 else { return text }
      return String(text.prefix(30)) + "… (\(text.filter(\.isNumber).count) digits)"
    }
    var values = state.environment.variables.keys.sorted().map { ($0, state.environment.variables[$0]!) }
    if let answer = state.environment.answer { values.append(("ans", answer)) }
    if let memory = state.memory { values.append(("memory", memory)) }
    for (name, value) in values {
      if state.interruption.isRequested { throw Interruption.diagnostic(at: span) }
      rows.append([name, shown(value)])
    }
    if rows.count == 1 { return .stay(Reply([.note("No variables yet. Set one with: x = 3*4")])) }
    return .stay(Reply([.table(rows)]))
  }
}

/// `clear`: the screen, and nothing else.
struct ClearCommand: Command {
  static let help = CommandHelp(
    name: "clear", usage: "clear", summary: "clear the screen (keeps everything)",
    details: "Clears the terminal. Variables, ans, memory and settings stay as they are.", takesArguments: false)

  init(parsing arguments: Arguments, in state: SessionState) {}

  func run(in state: inout SessionState) -> ModeStep { .stay(Reply([.clearScreen])) }
}

/// `reset`: forgets the variables, `ans` and the memory.
struct ResetCommand: Command {
  static let help = CommandHelp(
    name: "reset", usage: "reset", summary: "forget variables, ans and memory",
    details: "Forgets every variable, the last result and the memory. Settings stay.", takesArguments: false)

  init(parsing arguments: Arguments, in state: SessionState) {}

  func run(in state: inout SessionState) -> ModeStep {
    let count = state.environment.variables.count
    state.environment = Environment()
    state.memory = nil
    let what = count == 1 ? "1 variable" : "\(count) variables"
    return .stay(Reply([.note("Reset: forgot \(what), ans and memory. Settings are kept.")]))
  }
}
