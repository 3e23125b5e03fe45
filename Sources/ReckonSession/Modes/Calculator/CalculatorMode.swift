import ReckonCore

/// The calculator: expressions, assignments, `ans` continuation and the calculator commands.
public struct CalculatorMode: Sendable {
  /// The shapes of conversion lines learnt this session (`5 km to mi`), answered in one pass.
  var conversions = QuickConversions()

  public init() {}

  /// Handles a line: a command (whose mode's folder reads and runs it), or an expression.
  mutating func respond(_ line: String, in state: inout SessionState) -> ModeStep {
    // Bytes, not Characters: this runs for every line of a batch.
    guard let start = line.utf8.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
      line.utf8[start] != UInt8(ascii: "#")
    else { return .stay(Reply()) }
    let trimmed = line[start...]
    // Commands start with a letter (or "?"): most lines are expressions and skip the lookup.
    let first = line.utf8[start]
    let mayBeCommand = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) || first == UInt8(ascii: "?")
    let word = mayBeCommand ? String(trimmed.prefix { $0 != " " && $0 != "\t" && $0 != "#" }) : ""
    if mayBeCommand, Commands.words.contains(word), let command = Commands.named(word) {
      let wordStart = line.unicodeScalars.count - trimmed.unicodeScalars.count
      let nameSpan = SourceSpan(wordStart, wordStart + word.unicodeScalars.count)
      let rest = line.unicodeScalars.dropFirst(nameSpan.end).drop { $0 == " " || $0 == "\t" }
      if rest.first == "=" {
        let d = Diagnostic(
          "'\(word)' is a command, so it cannot be a variable name", at: nameSpan, hint: "choose another name")
        return .stay(.error(d, line))
      }
      return Commands.run(command, Arguments(line: line, nameSpan: nameSpan), in: &state)
    }
    do {
      return .stay(try evaluate(line, in: &state))
    } catch {
      return .stay(.error(CalculatorMode.misspeltCommand(in: line, failing: error, state: state) ?? error, line))
    }
  }

  /// A line that failed to evaluate at its first word or just after it, whose first word is no
  /// name Reckon knows but close to a command's (`splt 100 3`, `hlep`): the error says which
  /// command was probably meant, rather than asking for an operator between `splt` and `100`.
  static func misspeltCommand(in line: String, failing error: Diagnostic, state: SessionState) -> Diagnostic? {
    let scalars = Array(line.unicodeScalars)
    guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return nil }
    var end = start
    while end < scalars.count && scalars[end].properties.isAlphabetic { end += 1 }
    guard end > start, end == scalars.count || !(scalars[end] == "_" || ("0"..."9").contains(scalars[end])) else {
      return nil
    }
    let next = scalars[end...].firstIndex { $0 != " " && $0 != "\t" } ?? scalars.count
    guard error.span.start == start || error.span.start == next, next == scalars.count || scalars[next] != "=" else {
      return nil
    }
    let word = String(String.UnicodeScalarView(scalars[start..<end]))
    guard state.evaluator.names.meaning(of: word, in: state.environment) == nil,
      let guess = Suggestions.closest(to: word, in: Array(Commands.words)), let command = Commands.named(guess)
    else { return nil }
    return Diagnostic(
      "unknown command \(Diagnostic.quoted(word)) — did you mean '\(guess)'?", at: SourceSpan(start, end),
      hint: "\(command.help.usage): \(command.help.summary)")
  }

  mutating func evaluate(_ line: String, in state: inout SessionState) throws(Diagnostic) -> Reply {
    // Plain arithmetic (most of a piped batch) needs no tokens or tree, nor does a conversion
    // of a shape seen before; anything else, and every error, takes the full path below.
    if let value = QuickEvaluator.value(of: line, evaluator: state.evaluator) { return answer(value, in: &state) }
    if let (q, suffix) = conversions.answer(line, in: state.environment) {
      state.readSettings()
      let text = ReckonCore.NumberFormatter.withUnit(state.formatter.format(q.number), suffix: suffix)
      return answer(.quantity(q), text: text, in: &state)
    }
    let statement = try Parser.parseLine(line, maxExponent: state.digitLimit)
    let reply = try run(statement, in: &state)
    if case .converted = statement {
      conversions.learn(
        line, statement: statement, answer: state.environment.answer, evaluator: state.evaluator,
        in: state.environment)
    }
    return reply
  }

  /// Evaluates a parsed line: prints its value (converted, for `… to hex`), makes it the last
  /// result and assigns it. Nothing changes when the line fails, its conversion included.
  func run(_ statement: Statement, conversion: Conversion? = nil, in state: inout SessionState) throws(Diagnostic)
    -> Reply
  {
    do {
      var reply = try runOnce(statement, conversion: conversion, in: &state)
      if let note = CalculatorMode.staleRates(statement, in: state) { reply.outputs.append(.note(note)) }
      return reply
    } catch let error where ExchangeRates.isMissing(error) {
      // Still no rate with the saved ones read: say how to give it, dated today.
      guard !state.hasReadSettings else { throw ExchangeRates.dated(error, on: state.clock.today().iso) }
      // The rates are kept with the settings, read only by the lines that need them.
      state.readSettings()
      return try run(statement, conversion: conversion, in: &state)
    }
  }

  /// A note when a line used an exchange rate more than a week old: which, and how old.
  static func staleRates(_ statement: Statement, in state: SessionState) -> String? {
    guard state.hasReadSettings, !state.settings.rates.isEmpty else { return nil }
    let units = state.evaluator.units
    var codes: [String] = []
    for name in statement.names {
      guard let term = units.term(named: name), units.units[Int(term.unit)].isCurrency else { continue }
      let code = units.units[Int(term.unit)].symbol
      if !codes.contains(code) { codes.append(code) }
    }
    let today = state.clock.today().number
    var stale: [ExchangeRates.Rate] = []
    for (i, a) in codes.enumerated() {
      for b in codes[(i + 1)...] {
        for rate in state.settings.rates.rate(from: a, to: b)?.used ?? []
        where today - rate.day > ExchangeRates.staleDays && !stale.contains(rate) {
          stale.append(rate)
        }
      }
    }
    guard !stale.isEmpty else { return nil }
    let list = stale.map { "\($0.from)→\($0.to) is \(today - $0.day) days old" }.joined(separator: ", ")
    return "the rate \(list): set a newer one (set rate, rates load) for today's value"
  }

  func runOnce(_ statement: Statement, conversion: Conversion? = nil, in state: inout SessionState)
    throws(Diagnostic) -> Reply
  {
    switch statement {
    case .empty:
      return Reply()
    case .expression(let expr, _):
      let value = try state.evaluator.evaluate(expr, in: state.environment)
      if conversion == nil, let parts = state.evaluator.mixedParts(of: expr, value: value, in: state.environment) {
        // 1h 20min shows as written, in its parts (and is 1.333… h as ans).
        state.readSettings()
        return answer(
          value, text: parts.map { state.formatter.format(.quantity($0)) }.joined(separator: " "), in: &state)
      }
      let (shownValue, text) = try CalculatorMode.shown(value, conversion, in: &state)
      return answer(shownValue, text: text, in: &state)
    case .assignment(let name, let span, let expr):
      try CalculatorMode.checkAssignable(name, at: span, in: state)
      let (value, text) = try CalculatorMode.shown(
        state.evaluator.evaluate(expr, in: state.environment), conversion, in: &state)
      let hides = CalculatorMode.hiddenName(name, in: state)
      state.environment.variables[name] = value
      var reply = answer(value, text: text, in: &state)
      if let hides, state.announcedHiding.insert(name).inserted { reply.outputs.append(.note(hides)) }
      return reply
    case .converted(let inner, let conversion):
      return try runOnce(inner, conversion: conversion, in: &state)
    }
  }

  /// Prints `value` (as `text` when given) and makes it the last result; true and false (a
  /// comparison's answer) are printed but leave `ans` as it was, a number to go on from.
  func answer(_ value: Value, text: String? = nil, in state: inout SessionState) -> Reply {
    if value.isNumber { state.environment.answer = value }
    return Reply([.result(text ?? state.textReadingSettings(of: value))])
  }

  /// The value a line shows, and its text, converted as `conversion` asks: to units (the
  /// value becomes the quantity in them: `5 mi to km` is 8.04672 km, and that is ans; a mixed
  /// result keeps the value as it was), or to a format (the value stays as it is); an error
  /// under the conversion when the value has no such form (`pi to fraction`, `5 kg to m`).
  static func shown(_ value: Value, _ conversion: Conversion?, in state: inout SessionState) throws(Diagnostic)
    -> (Value, String)
  {
    guard let conversion else { return (value, state.textReadingSettings(of: value)) }
    state.readSettings()
    if case .unit(let target, let written) = conversion.target {
      switch try state.evaluator.converted(value, to: target, text: written) {
      case .quantity(let q, let unitText):
        return (.quantity(q), ReckonCore.NumberFormatter.withUnit(state.formatter.number(of: q), text: unitText))
      case .mixed(let parts):
        let text = parts.map { state.formatter.format(.quantity($0)) }.joined(separator: " ")
        return (value, text)
      }
    }
    var value = value
    if case .percent = conversion.target, let q = value.quantity, state.evaluator.units.kind(of: q.unit) == "ratio",
      let plain = try? state.evaluator.plain(value, at: conversion.span)
    {
      // 50% to percent is 50%, 15‰ to percent 1.5%: a ratio as its number first.
      value = .number(plain)
    }
    switch state.formatter.converted(value, to: conversion.target) {
    case .text(let text): return (value, text)
    case .refused(let why, let hint): throw Diagnostic(why, at: conversion.span, hint: hint)
    }
  }

  /// What a new variable hides, said once a session: a variable comes first, so `m = 5`
  /// makes `m` 5 until `reset`, and the unit is still there under its other names.
  static func hiddenName(_ name: String, in state: SessionState) -> String? {
    guard state.environment.variables[name] == nil else { return nil }
    return state.evaluator.names.hiddenBy(variable: name)
  }

  /// Refuses names that already mean something else: what `Names` refuses (the last result,
  /// Reckon's constants, functions), and the session's own words (commands, `to`).
  static func checkAssignable(_ name: String, at span: SourceSpan, in state: SessionState) throws(Diagnostic) {
    if let refusal = state.evaluator.names.refusal(toAssign: name) {
      throw Diagnostic(refusal, at: span, hint: "choose another name")
    }
    if Commands.words.contains(name) {
      throw Diagnostic("'\(name)' is a command, so it cannot be a variable name", at: span, hint: "choose another name")
    }
    if name == "to" {
      throw Diagnostic(
        "'to' converts a line's result (255 to hex), so it cannot be a variable name", at: span,
        hint: "choose another name")
    }
  }
}

extension CalculatorMode: Mode {
  public func prompt(at now: Int64) -> String { "reckon> " }

  public mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    respond(line, in: &state)
  }

  public mutating func finish(in state: inout SessionState) -> Reply { Reply() }

  /// Commands (as a first word), a command's own words after it, and otherwise what an
  /// expression may hold: functions, constants, variables, `to`.
  public func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] {
    let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" })
    if let first = words.first, let command = Commands.named(String(first)),
      let own = command.completions(after: Array(words.dropFirst()), in: state)
    {
      return own
    }
    let names = state.evaluator.names
    if ["to", "in", "->"].contains(words.last ?? "") && words.first != "help" {
      return Conversion.Target.words + names.unitCompletions
    }
    // After a number, a unit is likely (5 k → km, kg…), but so is an operator's word (to).
    var candidates = CalculatorMode.expectsUnit(after: before) ? names.unitCompletions : []
    if isFirstWord {
      candidates += Commands.all.flatMap { [$0.help.name] + $0.help.aliases.filter { $0.allSatisfy(\.isLetter) } }
    }
    // Functions complete with their "(", ready for the argument.
    candidates += names.completions(in: state.environment)
    candidates.append("to")  // 255 to hex; to hex alone converts ans
    return candidates
  }

  public var input: InputPolicy { InputPolicy(isCalculator: true) }

  /// Whether the word being typed is where a unit goes: right after a number (`5 k`, `5k`)
  /// or after a unit's `/` (`60 km/`).
  static func expectsUnit(after before: String) -> Bool {
    var scalars = Substring(before).unicodeScalars
    while let last = scalars.last, last == " " { scalars.removeLast() }
    guard let last = scalars.last else { return false }
    if last == "/" { return before.unicodeScalars.contains { $0.properties.isAlphabetic } }
    guard ("0"..."9").contains(last) else { return false }
    // A digit that ends a name (x2) is no number.
    while let c = scalars.last, ("0"..."9").contains(c) || c == "." || c == "_" { scalars.removeLast() }
    return !(scalars.last.map { $0.properties.isAlphabetic } ?? false)
  }
}
