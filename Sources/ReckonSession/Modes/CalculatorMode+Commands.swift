import ReckonCore

extension CalculatorMode {
  /// Runs a calculator command; its arguments start at scalar offset `argumentStart`.
  func run(_ command: Command, line: String, argumentStart: Int, in state: inout SessionState) -> Reply {
    let words = CalculatorMode.words(of: line, from: argumentStart)
    if !command.takesArguments, let extra = words.first {
      let d = Diagnostic("'\(command.name)' takes nothing after it", at: extra.span, hint: "usage: \(command.usage)")
      return .error(d, line)
    }
    do {
      switch command.name {
      case "help":
        return Reply(Help.text(for: words.first?.text).map { .note($0) })
      case "vars":
        return vars(&state)
      case "clear":
        return Reply([.clearScreen])
      case "reset":
        let count = state.environment.variables.count
        state.environment = Environment()
        state.memory = nil
        let what = count == 1 ? "1 variable" : "\(count) variables"
        return Reply([.note("Reset: forgot \(what), ans and memory. Settings are kept.")])
      case "m+", "m-":
        let tokens = try argumentTokens(line, from: argumentStart, in: state)
        let value = try operand(tokens, orAnswerFor: command.name, at: argumentStart, in: state)
        let evaluator = state.evaluator
        let old = state.memory ?? .exact(.zero)
        let span = SourceSpan(argumentStart, argumentStart)
        state.memory =
          command.name == "m+"
          ? try evaluator.add(old, value, at: span) : try evaluator.add(old, evaluator.negate(value), at: span)
        return Reply([.note("memory: \(state.text(of: state.memory!))")])
      case "mr":
        guard let memory = state.memory else { return Reply([.note("memory is empty")]) }
        state.environment.answer = memory
        return Reply([.result(state.text(of: memory))])
      case "mc":
        state.memory = nil
        return Reply([.note("memory cleared")])
      case "full":
        return try full(line, from: argumentStart, in: &state)
      case "set":
        return try set(line: line, argumentStart: argumentStart, in: &state)
      case "tip":
        return try tip(line, from: argumentStart, in: &state)
      case "split":
        return try split(line, from: argumentStart, in: &state)
      case "factor":
        return try factor(line, from: argumentStart, in: &state)
      case "profile":
        return try profile(words, in: &state)
      case "stats":
        return try stats(words, in: state)
      default:  // quit, exit
        return Reply(shouldExit: true)
      }
    } catch {
      return .error(error, line)
    }
  }

  // MARK: Arguments

  /// The tokens of the line from `offset` on, ending with `.end` (literals within the
  /// session's digit limit).
  func argumentTokens(_ line: String, from offset: Int, in state: SessionState) throws(Diagnostic) -> TokenList {
    try Lexer.tokenize(line, maxExponent: state.digitLimit).dropping(before: offset)
  }

  /// Evaluates a run of tokens as one expression.
  func evaluate(_ tokens: TokenList, in state: SessionState) throws(Diagnostic) -> Value {
    var parser = Parser(tokens: tokens)
    let expr = try parser.expression()
    try parser.expectEnd()
    return try state.evaluator.evaluate(expr, in: state.environment)
  }

  /// The value of the tokens, or `ans` when there are none.
  func operand(
    _ tokens: TokenList, orAnswerFor name: String, at offset: Int, in state: SessionState
  ) throws(Diagnostic) -> Value {
    if tokens.tokens.count > 1 { return try evaluate(tokens, in: state) }
    guard let answer = state.environment.answer else {
      throw Diagnostic(
        "\(name) needs a value, and there is no previous result yet", at: SourceSpan(offset, offset),
        hint: "for example: \(name) 5")
    }
    return answer
  }

  /// A positive whole number from a number token.
  func count(_ token: Token, in list: TokenList, what: String, range: ClosedRange<Int>) throws(Diagnostic) -> Int {
    guard let r = list.number(of: token), let n = r.intValue, range.contains(n) else {
      throw Diagnostic(
        "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound.grouped)",
        at: token.span)
    }
    return n
  }

  /// Money is exact: an approximation (`tip sqrt(2000)`) is rounded to the cent first, from
  /// as many of its digits as that takes.
  func exactAmount(_ value: Value, at span: SourceSpan) throws(Diagnostic) -> Rational {
    if case .exact(let r) = value { return r }
    guard value.isNumber else { throw Diagnostic("the amount must be a number, not true or false", at: span) }
    switch value.real.exactly(maxBits: Evaluator.maxDigits * 3, { $0.rounded(places: 2) }) {
    case .value(let cents): return cents
    case .tooLarge: throw Diagnostic("the amount is too large to round to the cent", at: span)
    case .undecided: throw Diagnostic("the amount is too close to half a cent to round it", at: span)
    }
  }

  // MARK: Commands

  func vars(_ state: inout SessionState) -> Reply {
    var rows: [[String]] = [["name", "value"]]
    // A million-digit value would swamp the table: show its start and its size.
    func shown(_ value: Value) -> String {
      let text = state.text(of: value)
      guard text.count > 40 else { return text }
      return String(text.prefix(30)) + "… (\(text.filter(\.isNumber).count) digits)"
    }
    for name in state.environment.variables.keys.sorted() {
      rows.append([name, shown(state.environment.variables[name]!)])
    }
    if let answer = state.environment.answer { rows.append(["ans", shown(answer)]) }
    if let memory = state.memory { rows.append(["memory", shown(memory)]) }
    if rows.count == 1 { return Reply([.note("No variables yet. Set one with: x = 3*4")]) }
    return Reply([.table(rows)])
  }

  /// `full [expr]`: ans, or the value of expr (which becomes ans), with every digit.
  func full(_ line: String, from offset: Int, in state: inout SessionState) throws(Diagnostic) -> Reply {
    let tokens = try argumentTokens(line, from: offset, in: state)
    let value = try operand(tokens, orAnswerFor: "full", at: offset, in: state)
    switch state.formatter.full(value) {
    case .text(let text):
      if tokens.tokens.count > 1 { state.environment.answer = value }
      return Reply([.result(text)])
    case .refused(let why, let hint):
      let span =
        tokens.tokens.count > 1
        ? tokens.tokens.first!.span.union(tokens.tokens[tokens.tokens.count - 2].span)
        : SourceSpan(offset - "full".count, offset)
      throw Diagnostic(why, at: span, hint: hint)
    }
  }

  static let settingNames = ["digits", "tips", "format", "separators"]

  func set(line: String, argumentStart: Int, in state: inout SessionState) throws(Diagnostic)
    -> Reply
  {
    let list = try argumentTokens(line, from: argumentStart, in: state)
    let tokens = list.tokens
    let settingsHint = "settings: " + CalculatorMode.settingNames.joined(separator: ", ")
    guard let what = tokens.first.flatMap({ list.name(of: $0) }) else {
      if tokens.first?.kind != .end {
        throw Diagnostic("unknown setting", at: tokens[0].span, hint: settingsHint)
      }
      let tips = state.settings.tipPresets.map { NumberFormatter().format($0) + "%" }.joined(separator: " ")
      return Reply([
        .table([
          ["setting", "value"], ["digits", "\(state.settings.digits)"], ["tips", tips],
          ["format", state.settings.format.name], ["separators", state.settings.separators ? "on" : "off"],
          ["drill", state.settings.drill.arguments],
        ])
      ])
    }
    switch what {
    case "digits":
      guard tokens.count == 3 else {
        throw Diagnostic(
          "set digits takes one number", at: tokens[min(1, tokens.count - 1)].span, hint: "for example: set digits 20")
      }
      state.settings.digits = try count(tokens[1], in: list, what: "digits", range: Settings.digitsRange)
      return Reply([.note("digits: \(state.settings.digits)")] + state.saveSetting("digits"))
    case "tips":
      var presets: [Rational] = []
      var i = 1
      while tokens[i].kind != .end {
        guard let p = list.number(of: tokens[i]), p <= 1000 else {
          throw Diagnostic(
            "a tip percentage must be a number from 0 to 1000", at: tokens[i].span,
            hint: "for example: set tips 12 15 20 22")
        }
        presets.append(p)
        if presets.count > 8 {
          throw Diagnostic(
            "set tips takes 1 to 8 percentages", at: tokens[i].span, hint: "for example: set tips 12 15 20 22")
        }
        i += tokens[i + 1].kind == .percent ? 2 : 1
      }
      guard !presets.isEmpty else {
        throw Diagnostic(
          "set tips takes 1 to 8 percentages", at: tokens[i].span, hint: "for example: set tips 12 15 20 22")
      }
      state.settings.tipPresets = presets
      let text = "tips: " + presets.map { NumberFormatter().format($0) + "%" }.joined(separator: " ")
      return Reply([.note(text)] + state.saveSetting("tips"))
    case "format":
      state.settings.format = try format(tokens, in: list)
      return Reply([.note("format: \(state.settings.format.name)")] + state.saveSetting("format"))
    case "separators":
      let usage = "set separators on (1,234,567.5) or set separators off (1234567.5)"
      guard tokens.count > 1, let word = list.name(of: tokens[1]), ["on", "off"].contains(word) else {
        let found = tokens[1].kind == .end ? "the line ends" : "found \(list.describe(tokens[1]))"
        throw Diagnostic("set separators takes on or off, but \(found)", at: tokens[1].span, hint: usage)
      }
      guard tokens[2].kind == .end else {
        throw Diagnostic("set separators takes one word, on or off", at: tokens[2].span, hint: usage)
      }
      state.settings.separators = word == "on"
      return Reply([.note("separators: \(word)")] + state.saveSetting("separators"))
    default:
      let guess = Suggestions.closest(to: what, in: CalculatorMode.settingNames).map { "; did you mean '\($0)'?" } ?? ""
      throw Diagnostic("unknown setting '\(what)'\(guess)", at: tokens[0].span, hint: settingsHint)
    }
  }

  /// The style of `set format auto | fixed N | sci | eng`.
  func format(_ tokens: [Token], in list: TokenList) throws(Diagnostic) -> NumberFormatter.Style {
    let usage = "set format auto, set format fixed 2, set format sci or set format eng"
    let word = tokens[1]
    guard let name = list.name(of: word) else {
      let found = word.kind == .end ? "the line ends" : "found \(list.describe(word))"
      throw Diagnostic("set format takes auto, fixed N, sci or eng, but \(found)", at: word.span, hint: usage)
    }
    let style: NumberFormatter.Style
    var next = 2
    switch name {
    case "auto": style = .automatic
    case "sci": style = .scientific
    case "eng": style = .engineering
    case "fixed":
      let places = tokens[2]
      let range = 0...NumberFormatter.Style.maxFixedPlaces
      guard places.kind != .end else {
        throw Diagnostic(
          "set format fixed needs the number of decimals", at: places.span, hint: "for example: set format fixed 2")
      }
      guard let n = list.number(of: places)?.intValue, range.contains(n) else {
        throw Diagnostic(
          "the number of decimals must be a whole number from 0 to \(range.upperBound.grouped)", at: places.span,
          hint: "for example: set format fixed 2")
      }
      style = .fixed(n)
      next = 3
    default:
      let guess =
        Suggestions.closest(to: name, in: ["auto", "fixed", "sci", "eng"]).map { "; did you mean '\($0)'?" } ?? ""
      throw Diagnostic("unknown format '\(name)'\(guess)", at: word.span, hint: usage)
    }
    guard tokens[next].kind == .end else {
      throw Diagnostic(
        "unexpected '\(list.text(of: tokens[next]))' after the format", at: tokens[next].span, hint: usage)
    }
    return style
  }

  /// `stats [drill]`: the drill's progress for the profile.
  func stats(_ words: [(text: String, span: SourceSpan)], in state: SessionState) throws(Diagnostic) -> Reply {
    let what = words.first?.text.lowercased()
    let kinds = ["drill", "quiz", "daily", "anagram", "personality"]
    if let first = words.first, !kinds.contains(what!) || words.count > 1 {
      let extra = words.count > 1 && kinds.contains(what!) ? words[1] : first
      throw Diagnostic(
        "unknown statistics '\(extra.text)'", at: extra.span,
        hint: "stats (the drill), stats quiz, stats anagram or stats personality")
    }
    switch what {
    case "quiz", "daily": return Reply(TriviaStatistics.report(for: state))
    case "anagram": return Reply(GameStatistics.anagram(for: state))
    case "personality": return Reply(GameStatistics.personality(for: state))
    default: return Reply(Statistics.report(for: state))
    }
  }

  /// `profile`: the profiles; `profile NAME`: switch to one (created if new), with its settings.
  func profile(_ words: [(text: String, span: SourceSpan)], in state: inout SessionState) throws(Diagnostic)
    -> Reply
  {
    guard let word = words.first else { return profiles(state) }
    if words.count > 1 {
      throw Diagnostic("a profile name is one word", at: words[1].span, hint: "for example: profile ada")
    }
    if let problem = Profiles.problem(with: word.text) {
      throw Diagnostic(problem, at: word.span, hint: "for example: profile ada")
    }
    // Names match whatever their case: Ada and ada are one child.
    func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
    if same(word.text, state.profile) { return Reply([.note("Already using profile \(state.profile).")]) }
    var outputs: [Output] = []
    var existing: ProfileSummary?
    if let store = state.store {
      do {
        existing = try store.profiles().first { same($0.name, word.text) }
        if existing == nil {
          outputs += state.prepareStore()
          try store.addProfile(word.text, at: state.clock.nowMilliseconds())
        }
      } catch {
        outputs.append(.warning("the profiles could not be read or saved: \(error.message)"))
      }
    }
    let name = existing?.name ?? word.text
    state.profile = name
    outputs += state.loadSettings()
    let what: String
    if let existing, let last = existing.lastDay {
      what = "Profile \(name): \(Wording.count(existing.answers, "answer")), the last on \(last.iso)."
    } else if existing != nil {
      what = "Profile \(name)."
    } else {
      what = "New profile \(name). Its progress and settings are kept apart from the others."
    }
    // Warnings (a damaged database found while switching) come first, as everywhere.
    return Reply(outputs + [.note(what)])
  }

  func profiles(_ state: SessionState) -> Reply {
    var list: [ProfileSummary] = []
    if let store = state.store {
      do {
        list = try store.profiles()
      } catch {
        return Reply([.note("Profile: \(state.profile)"), .warning("the profiles could not be read: \(error.message)")])
      }
    }
    if !list.contains(where: { $0.name == state.profile }) {
      list.append(ProfileSummary(name: state.profile, answers: 0, lastDay: nil))
    }
    var rows = [["profile", "answers", "last practised"]]
    for p in list {
      rows.append([
        (p.name == state.profile ? "* " : "  ") + p.name, p.answers.grouped, p.lastDay?.iso ?? "–",
      ])
    }
    return Reply([.note("Using profile \(state.profile). Switch with: profile NAME"), .table(rows)])
  }

  func tip(_ line: String, from offset: Int, in state: inout SessionState) throws(Diagnostic) -> Reply {
    let list = try argumentTokens(line, from: offset, in: state)
    var tokens = list.tokens.dropLast()  // .end
    var ways: Int?
    var roundUp = false
    var optionSpan: SourceSpan?
    // Options come last, in any order: "split N", "round".
    while let last = tokens.last {
      if list.isName(last, "round") {
        roundUp = true
        optionSpan = last.span
        tokens.removeLast()
      } else if list.isName(last, "split") {
        throw Diagnostic("split needs the number of people", at: last.span, hint: "for example: tip 50 18% split 3")
      } else if tokens.count >= 2, list.isName(tokens[tokens.endIndex - 2], "split") {
        ways = try count(last, in: list, what: "the number of people", range: 1...1_000_000)
        optionSpan = tokens[tokens.endIndex - 2].span
        tokens.removeLast(2)
      } else {
        break
      }
    }
    var percent: Rational?
    if tokens.count >= 2, let p = list.number(of: tokens[tokens.endIndex - 2]), tokens.last?.kind == .percent {
      guard p <= 1000 else {
        throw Diagnostic("a tip percentage must be from 0 to 1000", at: tokens[tokens.endIndex - 2].span)
      }
      percent = p
      tokens.removeLast(2)
    }
    // "tip 84.50 18": a number right after the amount is a percentage without its sign.
    if percent == nil, tokens.count >= 2, let last = tokens.last, last.kind == .number,
      CalculatorMode.endsOperand(tokens[tokens.endIndex - 2])
    {
      throw Diagnostic(
        "the tip percentage needs a % sign", at: last.span,
        hint: "for example: tip \(list.text(of: tokens.first!.span.union(tokens[tokens.endIndex - 2].span))) "
          + "\(list.text(of: last))%")
    }
    try CalculatorMode.checkTipAmount(tokens, in: list, hasPercent: percent != nil)
    let end = Token(.end, SourceSpan(tokens.last?.span.end ?? offset, tokens.last?.span.end ?? offset))
    let amountValue = try operand(list.with(tokens + [end]), orAnswerFor: "tip", at: offset, in: state)
    let amount = try exactAmount(amountValue, at: end.span)
    guard !amount.isNegative && !amount.isZero else {
      throw Diagnostic(
        "the amount must be more than zero", at: tokens.first.map { $0.span.union(tokens.last!.span) } ?? end.span)
    }
    guard let percent else {
      if let optionSpan {
        throw Diagnostic(
          "round and split need a tip percentage before them", at: optionSpan, hint: "for example: tip 50 18% split 3")
      }
      var rows = [["%", "tip", "total"]]
      for p in state.settings.tipPresets {
        let t = Tip(amount: amount, percent: p)
        rows.append([
          NumberFormatter().format(p) + "%", Money.format(cents: t.tipCents), Money.format(cents: t.totalCents),
        ])
      }
      return Reply([.note("tip on \(Money.format(amount))"), .table(rows)])
    }
    var tip = Tip(amount: amount, percent: percent)
    var text = "tip \(Money.format(cents: tip.tipCents))  total \(Money.format(cents: tip.totalCents))"
    if roundUp && tip.roundedUp.totalCents != tip.totalCents {
      tip = tip.roundedUp
      let effective = NumberFormatter(digits: 20).format(tip.percent.rounded(places: 2))
      text =
        "tip \(Money.format(cents: tip.tipCents)) (\(effective)%, rounded up)  total \(Money.format(cents: tip.totalCents))"
    }
    state.environment.answer = .exact(Money.value(cents: tip.totalCents))
    if let ways {
      let split = Split(totalCents: tip.totalCents, ways: ways)
      state.environment.answer = .exact(Money.value(cents: split.largestShareCents))
      text += "  split \(ways) ways: \(split.description)"
    }
    return Reply([.result(text)])
  }

  /// Catches the tip lines whose amount would otherwise swallow a misplaced percentage or
  /// word, so the error names the real mistake.
  static func checkTipAmount(_ tokens: ArraySlice<Token>, in list: TokenList, hasPercent: Bool) throws(Diagnostic) {
    let usage = "tip [amount] [P%] [split N] [round], for example: tip 50 18% split 3"
    if let percentSign = tokens.first(where: { $0.kind == .percent }) {
      let index = tokens.firstIndex(where: { $0.kind == .percent })!
      if index > tokens.startIndex, list.number(of: tokens[index - 1]) != nil, index + 1 < tokens.endIndex,
        [.name, .number].contains(tokens[index + 1].kind)
      {
        // "tip 50 18% foo": something that is not an option follows the percentage.
        let extra = tokens[index + 1]
        throw Diagnostic("unexpected \(list.describe(extra)) after the tip percentage", at: extra.span, hint: usage)
      }
      throw Diagnostic(
        "write the tip percentage as a plain number after the amount", at: percentSign.span,
        hint: "for example: tip 50 18%")
    }
    if hasPercent, let last = tokens.last, [.plus, .minus, .star, .slash, .caret].contains(last.kind) {
      throw Diagnostic(
        "a tip percentage must be a plain number, like 18%", at: last.span, hint: usage)
    }
  }

  /// `split [amount] N`. Without an amount the last result is split, and the reply says so
  /// (`ans 84.50 split 4 ways: …`): `split 100` after a result means 100 people, never 100.
  func split(_ line: String, from offset: Int, in state: inout SessionState) throws(Diagnostic) -> Reply {
    let usage = "split [amount] N, for example: split 100 3 (or split 4: ans four ways)"
    let list = try argumentTokens(line, from: offset, in: state)
    var tokens = list.tokens.dropLast()  // .end
    guard let last = tokens.last else {
      throw Diagnostic("split needs the number of people", at: SourceSpan(offset, offset), hint: usage)
    }
    let word = list.text(of: last)
    if last.kind == .name && state.environment.variables[word] == nil && !Environment.answerNames.contains(word)
      && Builtins.constants[word] == nil
    {
      // "split 100 3 round": words after the number of people.
      throw Diagnostic(
        "split takes an amount and the number of people, not '\(word)'", at: last.span,
        hint: word == "round" ? "rounding up is tip's: tip 100 18% round split 3" : usage)
    }
    if tokens.count >= 2, [.minus].contains(tokens[tokens.endIndex - 2].kind),
      tokens[tokens.endIndex - 2].span.end == last.span.start,
      tokens.count == 2 || tokens[tokens.endIndex - 3].span.end < tokens[tokens.endIndex - 2].span.start
    {
      // "split 10 -2": a negative number of people, not 10 minus 2.
      throw Diagnostic(
        "the number of people must be positive", at: tokens[tokens.endIndex - 2].span.union(last.span), hint: usage)
    }
    if tokens.count == 1, let n = list.number(of: last), n.intValue == nil {
      // "split 84.50": an amount, and no number of people.
      throw Diagnostic("split needs the number of people after the amount", at: last.span, hint: usage)
    }
    let ways = try count(last, in: list, what: "the number of people", range: 1...1_000_000)
    tokens.removeLast()
    let end = Token(.end, SourceSpan(last.span.start, last.span.start))
    let amount = try exactAmount(
      operand(list.with(tokens + [end]), orAnswerFor: "split", at: offset, in: state), at: end.span)
    guard !amount.isNegative && !amount.isZero else {
      throw Diagnostic(
        "the amount must be more than zero", at: tokens.first.map { $0.span.union(tokens.last!.span) } ?? end.span)
    }
    let split = Split(amount: amount, ways: ways)
    state.environment.answer = .exact(Money.value(cents: split.largestShareCents))
    let people = ways == 1 ? "1 way" : "\(ways) ways"
    let what = (tokens.isEmpty ? "ans " : "") + Money.format(cents: split.totalCents)
    return Reply([.result("\(what) split \(people): \(split.description)")])
  }

  /// `factor [expr]`: the prime factors of a whole number (of `ans` without one).
  func factor(_ line: String, from offset: Int, in state: inout SessionState) throws(Diagnostic) -> Reply {
    let tokens = try argumentTokens(line, from: offset, in: state)
    let value = try operand(tokens, orAnswerFor: "factor", at: offset, in: state)
    let start = tokens.tokens.first.map { $0.kind == .end ? offset : $0.span.start } ?? offset
    let span = SourceSpan(start, max(start, tokens.tokens.last?.span.start ?? start))
    guard case .exact(let r) = value, r.isInteger else {
      throw Diagnostic("factor needs a whole number", at: span, hint: "for example: factor 360")
    }
    let n = r.numerator
    let text = n.string()
    if n.isZero { return Reply([.result("0 has no prime factors: every prime divides it")]) }
    if n.magnitude == 1 { return Reply([.result("\(text) has no prime factors")]) }
    let interruption = state.interruption
    let result = Factoring.factor(n, budget: state.factorSteps, stop: { interruption.isRequested })
    if interruption.isRequested { throw Interruption.diagnostic(at: span) }
    if result.unfactored.isEmpty && result.factors.count == 1 && result.factors[0].exponent == 1 && !n.isNegative {
      return Reply([.result("\(text) is prime")])
    }
    let search =
      "trial division to \(Int(Factoring.trialLimit).grouped), then \(Factoring.defaultBudget.grouped) steps of Pollard's rho"
    if result.factors.isEmpty && result.unfactored.count == 1 {
      return Reply([.result("\(text) is composite, but no factor of it turned up (\(search))")])
    }
    var parts =
      (n.isNegative ? ["-1"] : [])
      + result.factors.map { $0.exponent == 1 ? $0.prime.string() : "\($0.prime)^\($0.exponent)" }
    parts += result.unfactored.map { "\($0)" }
    var outputs: [Output] = [.result("\(text) = " + parts.joined(separator: " × "))]
    for part in result.unfactored {
      outputs.append(
        .note("\(part) is composite, but no factor of it turned up (\(search))"))
    }
    return Reply(outputs)
  }

  /// Whether a token can end an operand (a number, a name, a closing parenthesis), so that a
  /// number right after it is not part of the same expression.
  static func endsOperand(_ token: Token) -> Bool {
    [.number, .name, .rightParen].contains(token.kind)
  }
}
