import ReckonCore

/// `set`: the settings; `set NAME VALUE`: one changed, and saved for the profile.
struct SetCommand: Command {
  static let help = CommandHelp(
    name: "set", usage: "set [setting] [value]", summary: "change a setting",
    details: """
      set                    show the settings
      set digits N           significant digits for results that are cut or
                             approximate (1 to 10,000; default 10)
      set tips P…            the percentages of a tip table (1 to 8; default
                             10 15 18 20)
      set format auto        decimals in full when they fit the digits, else
                             cut with … (the default)
      set format fixed N     N decimals (0 to 1,000), rounded half away from
                             zero; a rounded value is marked ≈ (fixed 2 for
                             money: 1896.2 is 1896.20, 2/3 is ≈ 0.67)
      set format sci         scientific: 1896.2 is 1.896200000e3
      set format eng         engineering: the exponent a multiple of 3,
                             18962.5 is 18.96250000e3
      set separators on|off  group digits in threes: 1,234,567.5 (off by
                             default; results with commas do not read back)
      set rate EUR 1.08 USD  an exchange rate: 1 EUR is 1.08 USD, as of today
                             (rates lists them; rates load FILE reads the
                             ECB's daily file)
      """ + Commands.modeSettings.compactMap(\.usage).map { "\n" + $0 }.joined() + """

        Integers always print in full, as integers, in every format.
        Settings are saved for your profile.
        """, readsSettings: true)

  static let settingNames =
    ["digits", "tips", "format", "separators", "rate"] + Commands.modeSettings.filter { $0.change != nil }.map(\.key)
  static let styleNames = ["auto", "fixed", "sci", "eng"]

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    if words.isEmpty { return settingNames }
    guard words.count == 1 else { return nil }
    switch words[0] {
    case "format": return styleNames
    case "separators": return ["on", "off"]
    default: return nil
    }
  }

  enum Change: Sendable {
    case show
    case digits(Int)
    case tips([Rational])
    case format(NumberFormatter.Style)
    case separators(Bool)
    case rate(ExchangeRates.Rate)
    /// A mode's setting (`set retention 0.85`), as the text saved.
    case mode(key: String, text: String)
  }

  let change: Change

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let list = try arguments.tokens(in: state)
    let tokens = list.tokens
    let settingsHint = "settings: " + SetCommand.settingNames.joined(separator: ", ")
    guard let what = tokens.first.flatMap({ list.name(of: $0) }) else {
      if tokens.first?.kind != .end {
        throw Diagnostic("unknown setting", at: tokens[0].span, hint: settingsHint)
      }
      change = .show
      return
    }
    switch what {
    case "digits":
      if tokens.count == 4, tokens[1].kind == .minus, tokens[2].kind == .number {
        // "set digits -1": a number, but not one of those allowed.
        let range = Settings.digitsRange
        throw Diagnostic(
          "digits must be a whole number from \(range.lowerBound) to \(range.upperBound.grouped)",
          at: tokens[1].span.union(tokens[2].span), hint: "for example: set digits 20")
      }
      guard tokens.count == 3 else {
        throw Diagnostic(
          "set digits takes one number", at: tokens[min(1, tokens.count - 1)].span, hint: "for example: set digits 20")
      }
      change = .digits(try Operands.count(tokens[1], in: list, what: "digits", range: Settings.digitsRange))
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
      change = .tips(presets)
    case "format":
      change = .format(try SetCommand.format(tokens, in: list))
    case "separators":
      let usage = "set separators on (1,234,567.5) or set separators off (1234567.5)"
      guard tokens.count > 1, let word = list.name(of: tokens[1]), ["on", "off"].contains(word) else {
        let found = tokens[1].kind == .end ? "the line ends" : "found \(list.describe(tokens[1]))"
        throw Diagnostic("set separators takes on or off, but \(found)", at: tokens[1].span, hint: usage)
      }
      guard tokens[2].kind == .end else {
        throw Diagnostic("set separators takes one word, on or off", at: tokens[2].span, hint: usage)
      }
      change = .separators(word == "on")
    case "rate", "rates":
      change = .rate(try SetCommand.rate(list, in: state))
    case let key where Commands.modeSettings.contains { $0.key == key && $0.change != nil }:
      let setting = Commands.modeSettings.first { $0.key == key }!
      let words = arguments.words.dropFirst()
      switch setting.change!(words.map(\.text)) {
      case .success(let text): change = .mode(key: key, text: text)
      case .failure(let problem):
        throw Diagnostic(
          problem.message, at: words.first.map { $0.span.union(words.last!.span) } ?? arguments.end,
          hint: problem.example)
      }
    default:
      let guess = Suggestions.closest(to: what, in: SetCommand.settingNames).map { "; did you mean '\($0)'?" } ?? ""
      throw Diagnostic("unknown setting \(Diagnostic.quoted(what))\(guess)", at: tokens[0].span, hint: settingsHint)
    }
  }

  func run(in state: inout SessionState) -> ModeStep {
    switch change {
    case .show:
      let tips = state.settings.tipPresets.map { NumberFormatter().format($0) + "%" }.joined(separator: " ")
      return .stay(
        Reply([
          .table(
            [
              ["setting", "value"], ["digits", "\(state.settings.digits)"], ["tips", tips],
              ["format", state.settings.format.name], ["separators", state.settings.separators ? "on" : "off"],
            ] + Commands.modeSettings.map { [$0.key, $0.shown(state.settings.modes[$0.key])] } + [
              [
                "rates",
                state.settings.rates.isEmpty
                  ? "none (set rate EUR 1.08 USD)" : "\(state.settings.rates.rates.count) (rates lists them)",
              ]
            ])
        ]))
    case .digits(let digits):
      state.settings.digits = digits
      state.saveSetting("digits")
      return .stay(Reply([.note("digits: \(state.settings.digits)")]))
    case .tips(let presets):
      state.settings.tipPresets = presets
      let text = "tips: " + presets.map { NumberFormatter().format($0) + "%" }.joined(separator: " ")
      state.saveSetting("tips")
      return .stay(Reply([.note(text)]))
    case .format(let style):
      state.settings.format = style
      state.saveSetting("format")
      return .stay(Reply([.note("format: \(state.settings.format.name)")]))
    case .separators(let on):
      state.settings.separators = on
      state.saveSetting("separators")
      return .stay(Reply([.note("separators: \(on ? "on" : "off")")]))
    case .mode(let key, let text):
      state.settings.modes[key] = text
      state.saveSetting(key)
      let shown = Commands.modeSettings.first { $0.key == key }?.shown(text) ?? text
      return .stay(Reply([.note("\(key): \(shown)")]))
    case .rate(let rate):
      state.settings.rates.set(rate)
      state.saveSetting("rates", what: "the rate applies now but could not be saved")
      let value = NumberFormatter(digits: 12).format(rate.value)
      return .stay(
        Reply([.note("rate: 1 \(rate.from) = \(value) \(rate.to), as of \(Day(number: rate.day).iso)")]))
    }
  }

  /// `set rate EUR 1.08 USD` (also `set rate € 1.08 $`): 1 EUR is 1.08 USD from today.
  static func rate(_ list: TokenList, in state: SessionState) throws(Diagnostic) -> ExchangeRates.Rate {
    let tokens = list.tokens
    let usage = "set rate EUR 1.08 USD: one euro is 1.08 dollars"
    guard tokens.count == 5 else {
      throw Diagnostic(
        "set rate takes a currency, a number and a currency", at: tokens[min(1, tokens.count - 1)].span, hint: usage)
    }
    let from = try currency(tokens[1], in: list, state: state, usage: usage)
    guard let value = list.number(of: tokens[2]), !value.isZero else {
      throw Diagnostic("the rate must be a number above 0", at: tokens[2].span, hint: usage)
    }
    // Kept exactly as typed, or refused now: never taken and then lost at the next start.
    if let problem = ExchangeRates.problem(with: value) {
      throw Diagnostic(problem, at: tokens[2].span, hint: usage)
    }
    let to = try currency(tokens[3], in: list, state: state, usage: usage)
    guard from != to else {
      throw Diagnostic("a rate is between two different currencies", at: tokens[3].span, hint: usage)
    }
    return ExchangeRates.Rate(from: from, to: to, value: value, day: state.clock.today().number)
  }

  /// The ISO code of the currency a token names (`EUR`, `euro`, `€`).
  static func currency(_ token: Token, in list: TokenList, state: SessionState, usage: String) throws(Diagnostic)
    -> String
  {
    let units = state.evaluator.units
    guard let name = list.name(of: token), let term = units.term(named: name), term.prefix == 0,
      units.units[Int(term.unit)].isCurrency
    else {
      let known = units.units.filter(\.isCurrency).prefix(12).map(\.symbol).joined(separator: " ")
      throw Diagnostic(
        "\(list.describe(token)) is not a currency Reckon knows", at: token.span,
        hint: "\(usage) (units money lists them: \(known)…)")
    }
    return units.units[Int(term.unit)].symbol
  }

  /// The style of `set format auto | fixed N | sci | eng`.
  static func format(_ tokens: [Token], in list: TokenList) throws(Diagnostic) -> NumberFormatter.Style {
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
      let guess = Suggestions.closest(to: name, in: styleNames).map { "; did you mean '\($0)'?" } ?? ""
      throw Diagnostic("unknown format \(Diagnostic.quoted(name))\(guess)", at: word.span, hint: usage)
    }
    guard tokens[next].kind == .end else {
      throw Diagnostic(
        "unexpected '\(list.text(of: tokens[next]))' after the format", at: tokens[next].span, hint: usage)
    }
    return style
  }
}
