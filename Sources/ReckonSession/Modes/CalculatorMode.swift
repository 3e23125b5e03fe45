import ReckonCore

/// The calculator: expressions, assignments, `ans` continuation and the calculator commands.
public struct CalculatorMode: Sendable {
  public init() {}

  /// Handles a line; a command that starts another mode returns it as the next mode.
  mutating func respond(_ line: String, in state: inout SessionState) -> (Reply, (any Mode)?) {
    // Bytes, not Characters: this runs for every line of a batch.
    guard let start = line.utf8.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
      line.utf8[start] != UInt8(ascii: "#")
    else { return (Reply(), nil) }
    let trimmed = line[start...]
    // Commands start with a letter (or "?"): most lines are expressions and skip the lookup.
    let first = line.utf8[start]
    let mayBeCommand = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) || first == UInt8(ascii: "?")
    let word = mayBeCommand ? String(trimmed.prefix { $0 != " " && $0 != "\t" && $0 != "#" }) : ""
    if mayBeCommand, Command.words.contains(word), let command = Command.named(word) {
      let wordStart = line.unicodeScalars.count - trimmed.unicodeScalars.count
      let argumentStart = wordStart + word.unicodeScalars.count
      let rest = line.unicodeScalars.dropFirst(argumentStart).drop { $0 == " " || $0 == "\t" }
      if rest.first == "=" {
        let d = Diagnostic(
          "'\(word)' is a command, so it cannot be a variable name",
          at: SourceSpan(wordStart, argumentStart), hint: "choose another name")
        return (.error(d, line), nil)
      }
      switch command.name {
      case "drill": return startDrill(line: line, argumentStart: argumentStart, in: &state)
      case "quiz": return startQuiz(line: line, argumentStart: argumentStart, in: &state)
      case "daily": return startDaily(line: line, argumentStart: argumentStart, in: &state)
      case "personality": return startPersonality(line: line, argumentStart: argumentStart, in: &state)
      case "anagram": return startAnagram(line: line, argumentStart: argumentStart, in: &state)
      default: break
      }
      return (run(command, line: line, argumentStart: argumentStart, in: &state), nil)
    }
    do {
      return (try evaluate(line, in: &state), nil)
    } catch {
      return (.error(CalculatorMode.misspeltCommand(in: line, failing: error, state: state) ?? error, line), nil)
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
    guard state.environment.variables[word] == nil, !Environment.answerNames.contains(word),
      Builtins.constants[word] == nil, Builtins.function(named: word) == nil,
      let guess = Suggestions.closest(to: word, in: Array(Command.words)), let command = Command.named(guess)
    else { return nil }
    return Diagnostic(
      "unknown command '\(word)' — did you mean '\(guess)'?", at: SourceSpan(start, end),
      hint: "\(command.usage): \(command.summary)")
  }

  /// `drill [options]`: the options given, over the last ones used, start a drill (and are
  /// saved as the profile's defaults). `drill review` and `drill weak` ask facts from the store.
  func startDrill(line: String, argumentStart: Int, in state: inout SessionState) -> (Reply, (any Mode)?) {
    let words = CalculatorMode.words(of: line, from: argumentStart)
    if let first = words.first, ["review", "weak"].contains(first.text.lowercased()) {
      if words.count > 1 {
        let d = Diagnostic(
          "drill \(first.text.lowercased()) takes nothing after it", at: words[1].span,
          hint: "drill review asks the facts that are due; drill weak the ten you know least")
        return (.error(d, line), nil)
      }
      return startListDrill(first.text.lowercased(), in: &state)
    }
    do {
      let options = try state.settings.drill.applying(words.map(\.text))
      var outputs = state.prepareStore()
      if options != state.settings.drill {
        state.settings.drill = options
        outputs += state.saveSetting("drill", what: "these drill options could not be saved as your defaults")
      }
      let drill = DrillMode(options: options, state: &state)
      return (Reply(outputs + drill.opening(profile: state.profile)), drill)
    } catch {
      let span =
        error.wordIndex < words.count
        ? words[error.wordIndex].span : SourceSpan(argumentStart, line.unicodeScalars.count)
      let d = Diagnostic(
        error.message, at: span, hint: "for example: drill 7, drill 2-12 random count 20, drill + range 20")
      return (.error(d, line), nil)
    }
  }

  /// `drill review` (the facts due, weakest first) or `drill weak` (the ten known least).
  func startListDrill(_ name: String, in state: inout SessionState) -> (Reply, (any Mode)?) {
    guard let store = state.store else {
      return (Reply([.note("Progress is not being saved in this session, so there is nothing to \(name).")]), nil)
    }
    let facts: [Fact]
    let practised: Bool
    do {
      let states = try store.factStates(profile: state.profile, mode: DrillMode.storeMode)
      practised = !states.isEmpty
      let totals = try store.itemTotals(profile: state.profile, mode: DrillMode.storeMode)
      if name == "review" {
        facts = FactSelection.due(states, totals: totals, now: state.clock.nowMilliseconds())
      } else {
        facts = FactSelection.weakest(states, totals: totals, limit: 10)
      }
    } catch {
      return (Reply([.warning("saved progress could not be read: \(error.message)")]), nil)
    }
    // (What opening the store found, a damaged file say, comes first: `Session` adds it.)
    guard !facts.isEmpty else {
      let why =
        practised
        ? "Nothing is due for review for \(state.profile) just now: every fact practised waits in its box until later."
        : "\(state.profile) has not practised any facts yet. Start with: drill"
      return (Reply([.note(why)]), nil)
    }
    let outputs = state.prepareStore()
    let drill = DrillMode(options: state.settings.drill, round: .list(name: name, facts: facts), state: &state)
    return (Reply(outputs + drill.opening(profile: state.profile)), drill)
  }

  /// The words of a command's arguments (up to a `#` comment), each with its place in the line.
  static func words(of line: String, from offset: Int) -> [(text: String, span: SourceSpan)] {
    let scalars = Array(line.unicodeScalars)
    var words: [(text: String, span: SourceSpan)] = []
    var i = offset
    while i < scalars.count && scalars[i] != "#" {
      if scalars[i] == " " || scalars[i] == "\t" {
        i += 1
        continue
      }
      let start = i
      while i < scalars.count && scalars[i] != " " && scalars[i] != "\t" && scalars[i] != "#" { i += 1 }
      words.append((String(String.UnicodeScalarView(scalars[start..<i])), SourceSpan(start, i)))
    }
    return words
  }

  func evaluate(_ line: String, in state: inout SessionState) throws(Diagnostic) -> Reply {
    // Plain arithmetic (most of a piped batch) needs no tokens or tree; anything else, and
    // every error, takes the full path below.
    if let value = QuickEvaluator.value(of: line, evaluator: state.evaluator) { return answer(value, in: &state) }
    return try run(Parser.parseLine(line, maxExponent: state.digitLimit), in: &state)
  }

  /// Evaluates a parsed line: prints its value (converted, for `… to hex`), makes it the last
  /// result and assigns it. Nothing changes when the line fails, its conversion included.
  func run(_ statement: Statement, conversion: Conversion? = nil, in state: inout SessionState) throws(Diagnostic)
    -> Reply
  {
    switch statement {
    case .empty:
      return Reply()
    case .expression(let expr, _):
      let value = try state.evaluator.evaluate(expr, in: state.environment)
      let text = try CalculatorMode.text(of: value, conversion, in: &state)
      return answer(value, text: text, in: &state)
    case .assignment(let name, let span, let expr):
      try CalculatorMode.checkAssignable(name, at: span)
      let value = try state.evaluator.evaluate(expr, in: state.environment)
      let text = try CalculatorMode.text(of: value, conversion, in: &state)
      state.environment.variables[name] = value
      return answer(value, text: text, in: &state)
    case .converted(let inner, let conversion):
      return try run(inner, conversion: conversion, in: &state)
    }
  }

  /// Prints `value` (as `text` when given) and makes it the last result; true and false (a
  /// comparison's answer) are printed but leave `ans` as it was, a number to go on from.
  func answer(_ value: Value, text: String? = nil, in state: inout SessionState) -> Reply {
    if value.isNumber { state.environment.answer = value }
    return Reply([.result(text ?? state.text(of: value))])
  }

  /// The text of `value` converted as `conversion` asks (as it prints without one); an error
  /// under the conversion when it has no such form (`pi to fraction`).
  static func text(of value: Value, _ conversion: Conversion?, in state: inout SessionState) throws(Diagnostic)
    -> String
  {
    guard let conversion else { return state.text(of: value) }
    let formatter = state.formatter
    let converted: Converted
    switch conversion.target {
    case .fraction: converted = formatter.fraction(value)
    case .percent: converted = .text(formatter.percent(value))
    case .hex, .oct, .bin, .base:
      let (radix, prefix) = conversion.target.radix!
      converted = formatter.inBase(value, radix: radix, prefix: prefix)
    }
    switch converted {
    case .text(let text): return text
    case .refused(let why, let hint): throw Diagnostic(why, at: conversion.span, hint: hint)
    }
  }

  /// Refuses names that already mean something else.
  static func checkAssignable(_ name: String, at span: SourceSpan) throws(Diagnostic) {
    if Environment.answerNames.contains(name) {
      throw Diagnostic("'\(name)' is the last result and cannot be assigned", at: span, hint: "choose another name")
    }
    if Builtins.constants[name] != nil {
      throw Diagnostic("'\(name)' is a constant and cannot be changed", at: span, hint: "choose another name")
    }
    if Builtins.function(named: name) != nil {
      throw Diagnostic(
        "'\(name)' is a function, so it cannot be a variable name", at: span, hint: "choose another name")
    }
    if Command.words.contains(name) {
      throw Diagnostic("'\(name)' is a command, so it cannot be a variable name", at: span, hint: "choose another name")
    }
    if name == "to" {
      throw Diagnostic(
        "'to' converts a line's result (255 to hex), so it cannot be a variable name", at: span,
        hint: "choose another name")
    }
  }

  /// The first word of each built-in category, folded (`science`, `words`).
  static let categoryWords: [String] = BuiltInQuestions.bank.categories.compactMap {
    Folding.key($0.name).split(separator: " ").first.map(String.init)
  }

  static func completionWords(isFirstWord: Bool, before: String) -> [String] {
    let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" })
    if words.first == "drill" {
      return (words.count == 1 ? ["review", "weak"] : []) + ["all", "random", "order", "max", "count", "endless"]
    }
    if words.first == "quiz" && !(words.count >= 2 && words[1] == "load") {
      // Category names complete by their first word (quiz geography, quiz science).
      let levels = Difficulty.allCases.map(\.rawValue) + ["count"]
      return (words.count == 1 ? ["categories", "load"] : []) + levels + categoryWords
    }
    if words.last == "to" && words.count >= 1 && words.first != "help" {
      return Conversion.Target.words
    }
    if words.count == 2 && words[0] == "set" {
      switch words[1] {
      case "format": return ["auto", "fixed", "sci", "eng"]
      case "separators": return ["on", "off"]
      default: break
      }
    }
    if words.count == 1 {
      switch words[0] {
      case "help": return Command.all.map(\.name) + Help.topics + Builtins.functionNames
      case "set": return CalculatorMode.settingNames
      case "stats": return ["drill", "quiz", "anagram", "personality"]
      case "anagram": return AnagramLevels.defaults.map(\.name) + ["levels"]
      case "daily": return Difficulty.allCases.map(\.rawValue)
      default: break
      }
    }
    return isFirstWord ? Command.all.map(\.name) + ["exit"] : []
  }
}

extension CalculatorMode: Mode {
  public func prompt(at now: Int64) -> String { "reckon> " }

  public mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    let (reply, next) = respond(line, in: &state)
    return next.map { .enter($0, reply) } ?? .stay(reply)
  }

  public mutating func finish(in state: inout SessionState) -> Reply { Reply() }

  /// Commands (as a first word), their words, functions, constants and variables.
  public func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] {
    var candidates = CalculatorMode.completionWords(isFirstWord: isFirstWord, before: before)
    let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" })
    if words.count == 1 && words[0] == "profile" {
      candidates = ((try? state.store?.profiles()) ?? []).map(\.name)
    } else if words.count == 1 && words[0] == "personality" {
      candidates = state.personalityQuizzes.map(\.name) + ["load"]
    } else if candidates.isEmpty || isFirstWord {
      // Functions complete with their "(", ready for the argument.
      candidates += Builtins.functionNames.map { $0 + "(" } + Builtins.constantNames
      candidates += state.environment.variables.keys
      if state.environment.answer != nil { candidates.append("ans") }
      candidates.append("to")  // 255 to hex; to hex alone converts ans
    }
    return candidates
  }

  public var input: InputPolicy { InputPolicy(isCalculator: true) }
}
