import ReckonCore

/// `rates`: the exchange rates the profile keeps, with their age; `rates load FILE` reads
/// the ECB's daily file or a plain list; `rates remove CODE` and `rates clear` forget them.
struct RatesCommand: Command {
  static let help = CommandHelp(
    name: "rates", usage: "rates [load FILE]", summary: "exchange rates for currencies",
    details: """
      rates               the rates you have set, each with its date and age
      rates load FILE     read rates from a file: the European Central Bank's
                          daily reference rates (eurofxref.csv, from
                          ecb.europa.eu, every rate against the euro) or a
                          plain list of lines CODE RATE (1 EUR is RATE CODE;
                          a first line "base USD" makes them against USD)
      rates remove CODE   forget the rates of one currency
      rates clear         forget them all
      set rate EUR 1.08 USD sets one rate by hand (1 EUR is 1.08 USD, today).
      Reckon has no network: 120 EUR to USD uses the rates you give it, and a
      note says when one is more than a week old. Rates are saved for your
      profile.
      """, readsSettings: true)

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    words.isEmpty ? ["load", "remove", "clear"] : nil
  }

  enum Kind: Sendable {
    case list
    case load(path: String, place: SourceSpan)
    case remove(String, SourceSpan)
    case clear
  }

  let kind: Kind

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    guard let first = words.first else {
      kind = .list
      return
    }
    switch first.lowercased {
    case "load":
      let path = arguments.path(after: first.span.end)
      guard !path.isEmpty else {
        throw Diagnostic(
          "rates load needs a file name", at: first.span, hint: "for example: rates load ~/Downloads/eurofxref.csv")
      }
      kind = .load(path: path, place: SourceSpan(first.span.end + 1, arguments.line.unicodeScalars.count))
    case "remove":
      guard words.count == 2 else {
        throw Diagnostic(
          "rates remove takes one currency code", at: words.count > 2 ? words[2].span : first.span,
          hint: "for example: rates remove JPY")
      }
      kind = .remove(words[1].text.uppercased(), words[1].span)
    case "clear":
      guard words.count == 1 else {
        throw Diagnostic("rates clear takes nothing after it", at: words[1].span)
      }
      kind = .clear
    default:
      let guess = Suggestions.closest(to: first.lowercased, in: ["load", "remove", "clear"])
      throw Diagnostic(
        "rates takes load, remove or clear, not \(Diagnostic.quoted(first.text))"
          + (guess.map { "; did you mean '\($0)'?" } ?? ""), at: first.span, hint: RatesCommand.help.usage)
    }
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    switch kind {
    case .list:
      return .stay(RatesCommand.list(state))
    case .load(let path, let place):
      return .stay(try RatesCommand.load(path, place: place, in: &state))
    case .remove(let code, let span):
      let removed = state.settings.rates.remove(code)
      guard removed > 0 else {
        throw Diagnostic("there is no rate with \(Diagnostic.quoted(code))", at: span, hint: "rates lists them")
      }
      state.saveSetting("rates", what: "the rates changed now but could not be saved")
      return .stay(Reply([.note("removed \(Wording.count(removed, "rate")) with \(code)")]))
    case .clear:
      let count = state.settings.rates.rates.count
      state.settings.rates.removeAll()
      state.saveSetting("rates", what: "the rates changed now but could not be saved")
      return .stay(Reply([.note("removed \(Wording.count(count, "rate"))")]))
    }
  }

  static func list(_ state: SessionState) -> Reply {
    let rates = state.settings.rates.rates
    guard !rates.isEmpty else {
      return Reply([
        .note(
          "No exchange rates yet. Set one with: set rate EUR 1.08 USD, or load the ECB's daily file with: "
            + "rates load eurofxref.csv")
      ])
    }
    let today = state.clock.today().number
    let formatter = NumberFormatter(digits: 10)
    var rows = [["rate", "", "inverse", "as of", "age"]]
    for rate in rates.sorted(by: { ($0.from, $0.to) < ($1.from, $1.to) }) {
      let age = today - rate.day
      rows.append([
        "1 \(rate.from) =", "\(formatter.format(.exact(rate.value))) \(rate.to)",
        "\(formatter.format(.exact(rate.value.reciprocal))) \(rate.from)", Day(number: rate.day).iso,
        age <= 0
          ? "today"
          : age == 1
            ? "1 day" + (age > ExchangeRates.staleDays ? " (old)" : "")
            : "\(age) days" + (age > ExchangeRates.staleDays ? " (old)" : ""),
      ])
    }
    return Reply([.note("\(Wording.count(rates.count, "exchange rate")):"), .table(rows)])
  }

  static func load(_ path: String, place: SourceSpan, in state: inout SessionState) throws(Diagnostic) -> Reply {
    let bytes: [UInt8]
    switch state.readFile(path, limit: 8 << 20, kind: "a file of rates") {
    case .success(let read): bytes = read
    case .failure(let problem): throw Diagnostic("nothing loaded from \(path): \(problem.message)", at: place)
    }
    let units = state.evaluator.units
    let known = Set(units.units.filter(\.isCurrency).map(\.symbol))
    switch RatesFile.read(bytes: bytes, today: state.clock.today().number, known: known) {
    case .failure(let failure):
      throw Diagnostic(
        "nothing loaded from \(path): \(Wording.count(failure.all.count, "problem")) found", at: place,
        details: failure.all.prefix(20).map(\.description)
          + (failure.all.count > 20 ? ["… and \(failure.all.count - 20) more"] : []))
    case .success(let loaded):
      for rate in loaded.rates { state.settings.rates.set(rate) }
      state.saveSetting("rates", what: "the rates apply now but could not be saved")
      let day = Day(number: loaded.rates[0].day).iso
      var outputs: [Output] = [
        .note(
          "loaded \(Wording.count(loaded.rates.count, "rate")) against \(loaded.rates[0].from), as of \(day): "
            + loaded.rates.prefix(6).map(\.to).joined(separator: " ") + (loaded.rates.count > 6 ? " …" : ""))
      ]
      if !loaded.skipped.isEmpty {
        outputs.append(.note("left out: " + loaded.skipped.joined(separator: ", ")))
      }
      return Reply(outputs)
    }
  }
}
