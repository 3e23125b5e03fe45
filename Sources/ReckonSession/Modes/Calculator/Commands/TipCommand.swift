import ReckonCore

/// `tip [amount] [P%] [split N] [round]`: a tip table, or the tip and the total at P%.
struct TipCommand: Command {
  static let help = CommandHelp(
    name: "tip", usage: "tip [amount] [P%] [split N] [round]", summary: "tip table, or tip and total at P%",
    details: """
      tip 50               a table: tip and total at each preset percentage
      tip 50 18%           the tip and the total at 18%
      tip 42.50+17.25 18%  any expression as the amount; without one, ans
      tip 50 18% split 3   …and each person's share, to the cent
      tip 50 18% round     round the total up to a whole unit (and say the %)
      Money is rounded half away from zero to the cent, once: amount + tip =
      total as shown. Amounts go up to 999999999999999.99 (10^15 less a cent).
      With a percentage, the total (or the largest share) becomes ans.
      """, readsSettings: true)

  let amount: Rational
  /// The amount's currency (`tip 84.50 € 18%`): what the results are rounded to and shown in.
  let currency: Money.Currency
  /// Nil: the table at each of the profile's percentages.
  let percent: Rational?
  let ways: Int?
  let roundUp: Bool

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let offset = arguments.start
    let list = try arguments.tokens(in: state)
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
      } else if tokens.count >= 3, list.isName(tokens[tokens.endIndex - 3], "split"),
        tokens[tokens.endIndex - 2].kind == .minus, last.kind == .number
      {
        // "tip 50 18% split -2"
        throw Diagnostic(
          "the number of people must be a whole number from 1 to 1,000,000",
          at: tokens[tokens.endIndex - 2].span.union(last.span), hint: "for example: tip 50 18% split 3")
      } else if tokens.count >= 2, list.isName(tokens[tokens.endIndex - 2], "split") {
        ways = try Operands.count(last, in: list, what: "the number of people", range: 1...1_000_000)
        optionSpan = tokens[tokens.endIndex - 2].span
        tokens.removeLast(2)
      } else {
        break
      }
    }
    var percent: Rational?
    // "tip 50 18 percent", "18 pct", "18 per cent": the percentage, as 18% is.
    let percentWord = tokens.last.map { list.isName($0, "percent") || list.isName($0, "pct") } ?? false
    let perCent =
      tokens.count >= 3 && list.isName(tokens[tokens.endIndex - 1], "cent")
      && list.isName(tokens[tokens.endIndex - 2], "per")
    if percentWord || perCent, tokens.count >= (perCent ? 3 : 2),
      let p = list.number(of: tokens[tokens.endIndex - (perCent ? 3 : 2)])
    {
      guard p <= 1000 else {
        throw Diagnostic(
          "a tip percentage must be from 0 to 1000", at: tokens[tokens.endIndex - (perCent ? 3 : 2)].span)
      }
      percent = p
      tokens.removeLast(perCent ? 3 : 2)
    } else if tokens.count >= 2, let p = list.number(of: tokens[tokens.endIndex - 2]), tokens.last?.kind == .percent {
      guard p <= 1000 else {
        throw Diagnostic("a tip percentage must be from 0 to 1000", at: tokens[tokens.endIndex - 2].span)
      }
      percent = p
      tokens.removeLast(2)
    }
    // "tip 84.50 18": a number right after the amount is a percentage without its sign.
    // ("tip $50": a currency's sign before the amount is not an amount before it.)
    if percent == nil, tokens.count >= 2, let last = tokens.last, last.kind == .number,
      Operands.endsOperand(tokens[tokens.endIndex - 2]),
      !(Parser.isCurrencySign(list.text(of: tokens[tokens.endIndex - 2]))
        && tokens[tokens.endIndex - 2].span.end == last.span.start
        && (tokens.count == 2 || !Operands.endsOperand(tokens[tokens.endIndex - 3])))
    {
      throw Diagnostic(
        "the tip percentage needs a % sign", at: last.span,
        hint: "for example: tip \(list.text(of: tokens.first!.span.union(tokens[tokens.endIndex - 2].span))) "
          + "\(list.text(of: last))%")
    }
    try TipCommand.checkAmount(tokens, in: list, hasPercent: percent != nil)
    let end = Token(.end, SourceSpan(tokens.last?.span.end ?? offset, tokens.last?.span.end ?? offset))
    let amountValue = try Operands.value(list.with(tokens + [end]), orAnswerFor: "tip", at: offset, in: state)
    let amountSpan = tokens.first.map { $0.span.union(tokens.last!.span) } ?? end.span
    let (amount, currency) = try MoneyInput.amount(amountValue, at: amountSpan, in: state)
    guard !amount.isNegative && !amount.isZero else {
      throw Diagnostic(
        "the amount must be more than zero", at: tokens.first.map { $0.span.union(tokens.last!.span) } ?? end.span)
    }
    if percent == nil, let optionSpan {
      throw Diagnostic(
        "round and split need a tip percentage before them", at: optionSpan, hint: "for example: tip 50 18% split 3")
    }
    self.amount = amount
    self.currency = currency
    self.percent = percent
    self.ways = ways
    self.roundUp = roundUp
  }

  func run(in state: inout SessionState) -> ModeStep {
    guard let percent else {
      var rows = [["%", "tip", "total"]]
      let decimals = currency.decimals
      for p in state.settings.tipPresets {
        let t = Tip(amount: amount, percent: p, decimals: decimals)
        rows.append([
          NumberFormatter().format(p) + "%", currency.format(cents: t.tipCents), currency.format(cents: t.totalCents),
        ])
      }
      let on = currency.format(cents: Money.cents(amount, decimals: decimals))
      return .stay(Reply([.note("tip on \(on)"), .table(rows)]))
    }
    var tip = Tip(amount: amount, percent: percent, decimals: currency.decimals)
    var text = "tip \(currency.format(cents: tip.tipCents))  total \(currency.format(cents: tip.totalCents))"
    if roundUp && tip.roundedUp.totalCents != tip.totalCents {
      tip = tip.roundedUp
      let effective = NumberFormatter(digits: 20).format(tip.percent.rounded(places: 2))
      text =
        "tip \(currency.format(cents: tip.tipCents)) (\(effective)%, rounded up)  total "
        + currency.format(cents: tip.totalCents)
    }
    state.environment.answer = currency.value(cents: tip.totalCents)
    if let ways {
      let split = Split(totalCents: tip.totalCents, ways: ways)
      state.environment.answer = currency.value(cents: split.largestShareCents)
      text += "  split \(ways) ways: \(split.description(in: currency))"
    }
    return .stay(Reply([.result(text)]))
  }

  /// Catches the tip lines whose amount would otherwise swallow a misplaced percentage or
  /// word, so the error names the real mistake.
  static func checkAmount(_ tokens: ArraySlice<Token>, in list: TokenList, hasPercent: Bool) throws(Diagnostic) {
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
}

/// `split [amount] N`. Without an amount the last result is split, and the reply says so
/// (`ans 84.50 split 4 ways: …`): `split 100` after a result means 100 people, never 100.
struct SplitCommand: Command {
  static let help = CommandHelp(
    name: "split", usage: "split [amount] N", summary: "divide a bill among N people, to the cent",
    details: """
      split 100 3   two pay 33.33, one pays 33.34: shares add up to the amount
      split 4       splits ans four ways: one number is always the number of
                    people, and the reply starts with ans to say so
      The largest share becomes ans. Amounts go up to 999999999999999.99.
      """)

  let amount: Rational
  let currency: Money.Currency
  let ways: Int
  /// The amount is `ans`.
  let isAnswer: Bool

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let offset = arguments.start
    let usage = "split [amount] N, for example: split 100 3 (or split 4: ans four ways)"
    let list = try arguments.tokens(in: state)
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
        "split takes an amount and the number of people, not \(Diagnostic.quoted(word))", at: last.span,
        hint: word == "round" ? "rounding up is tip's: tip 100 18% round split 3" : usage)
    }
    if tokens.count >= 2, tokens[tokens.endIndex - 2].kind == .name,
      case let between = list.text(of: tokens[tokens.endIndex - 2]),
      SplitCommand.joiningWords.contains(between.lowercased()), state.environment.variables[between] == nil
    {
      // "split 120 by 3": a word between the amount and the number of people.
      throw Diagnostic(
        "split takes the amount, then the number of people, with nothing between them: not \(Diagnostic.quoted(between))",
        at: tokens[tokens.endIndex - 2].span, hint: usage)
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
    ways = try Operands.count(last, in: list, what: "the number of people", range: 1...1_000_000)
    tokens.removeLast()
    let end = Token(.end, SourceSpan(last.span.start, last.span.start))
    (amount, currency) = try MoneyInput.amount(
      Operands.value(list.with(tokens + [end]), orAnswerFor: "split", at: offset, in: state),
      at: tokens.first.map { $0.span.union(tokens.last!.span) } ?? end.span, in: state)
    guard !amount.isNegative && !amount.isZero else {
      throw Diagnostic(
        "the amount must be more than zero", at: tokens.first.map { $0.span.union(tokens.last!.span) } ?? end.span)
    }
    isAnswer = tokens.isEmpty
  }

  /// Words people put between the amount and the number of people.
  static let joiningWords: Set = ["by", "between", "among", "amongst", "into", "in", "for", "with", "over", "per"]

  func run(in state: inout SessionState) -> ModeStep {
    let split = Split(amount: amount, ways: ways, decimals: currency.decimals)
    state.environment.answer = currency.value(cents: split.largestShareCents)
    let people = ways == 1 ? "1 way" : "\(ways) ways"
    let what = (isAnswer ? "ans " : "") + currency.format(cents: split.totalCents)
    return .stay(Reply([.result("\(what) split \(people): \(split.description(in: currency))")]))
  }
}
