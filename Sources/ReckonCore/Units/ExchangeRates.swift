/// The exchange rates the user has given (`set rate EUR 1.08 USD`, `rates load eurofxref.csv`):
/// exact rationals with the day each was set. Reckon has no network: there are no others.
///
/// A conversion uses the rate between the two currencies if there is one (either way round),
/// or else goes through one currency both have a rate with (USD → EUR → JPY with the ECB's
/// rates, which are all against the euro).
public struct ExchangeRates: Sendable, Hashable {
  /// 1 `from` is `value` `to`, as of `day` (days since 1970-01-01).
  public struct Rate: Sendable, Hashable {
    public var from: String
    public var to: String
    public var value: Rational
    public var day: Int

    public init(from: String, to: String, value: Rational, day: Int) {
      self.from = from
      self.to = to
      self.value = value
      self.day = day
    }
  }

  /// The rates, one per pair of currencies, in the order they were set.
  public private(set) var rates: [Rate] = []

  /// A rate older than this many days gets a note when it is used.
  public static let staleDays = 7
  /// The most rates kept (the ECB's file has about 30).
  public static let limit = 1_000

  public init() {}

  public var isEmpty: Bool { rates.isEmpty }

  /// Sets a rate, replacing the one between the same currencies (either way round).
  public mutating func set(_ rate: Rate) {
    rates.removeAll { ($0.from == rate.from && $0.to == rate.to) || ($0.from == rate.to && $0.to == rate.from) }
    rates.append(rate)
    if rates.count > ExchangeRates.limit { rates.removeFirst(rates.count - ExchangeRates.limit) }
  }

  /// Removes every rate that involves `currency`; how many went.
  @discardableResult
  public mutating func remove(_ currency: String) -> Int {
    let before = rates.count
    rates.removeAll { $0.from == currency || $0.to == currency }
    return before - rates.count
  }

  public mutating func removeAll() { rates.removeAll() }

  /// How many `to` one `from` is, and the rates it took (one, or two through a third
  /// currency); nil when there is no way.
  public func rate(from: String, to: String) -> (value: Rational, used: [Rate])? {
    if from == to { return (.one, []) }
    if let direct = step(from, to) { return (direct.value, [direct.rate]) }
    // Through one other currency: the most recent such pair of rates.
    var best: (value: Rational, used: [Rate])?
    for middle in currencies where middle != from && middle != to {
      guard let a = step(from, middle), let b = step(middle, to) else { continue }
      let day = min(a.rate.day, b.rate.day)
      if best == nil || day > min(best!.used[0].day, best!.used[1].day) {
        best = (a.value * b.value, [a.rate, b.rate])
      }
    }
    return best
  }

  /// The currencies that have a rate.
  public var currencies: [String] {
    var seen: [String] = []
    for rate in rates {
      if !seen.contains(rate.from) { seen.append(rate.from) }
      if !seen.contains(rate.to) { seen.append(rate.to) }
    }
    return seen
  }

  private func step(_ from: String, _ to: String) -> (value: Rational, rate: Rate)? {
    for rate in rates {
      if rate.from == from && rate.to == to { return (rate.value, rate) }
      if rate.from == to && rate.to == from && !rate.value.isZero { return (Rational.one / rate.value, rate) }
    }
    return nil
  }

  // MARK: Kept as text

  /// The rates as the settings keep them: `EUR USD 1.08 20419` a line (the day as a number).
  public var stored: String {
    rates.map { "\($0.from) \($0.to) \(ExchangeRates.text(of: $0.value)) \($0.day)" }.joined(separator: "\n")
  }

  /// A line of the stored rates that was left out, and why: the settings' read says it once.
  public struct LeftOut: Sendable {
    public var line: Int
    public var text: String
    public var reason: String
  }

  /// The rates in `stored`, and each line left out with its reason: codes that are not three
  /// capital letters, a rate that is not a number above 0 or has more digits than a rate may
  /// (`problem(with:)`), or a day outside `days` (the session's calendar passes the years 1
  /// to 9999: the age of a rate is worked out from its day).
  public static func read(stored: String, days: ClosedRange<Int>) -> (
    rates: ExchangeRates, leftOut: [LeftOut]
  ) {
    var rates = ExchangeRates()
    var leftOut: [LeftOut] = []
    for (index, line) in stored.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.isEmpty {
      let words = line.split(separator: " ")
      func leave(_ reason: String) { leftOut.append(LeftOut(line: index + 1, text: String(line), reason: reason)) }
      guard words.count == 4, isCode(String(words[0])), isCode(String(words[1])) else {
        leave("it is not two currency codes, a rate and a day")
        continue
      }
      guard let value = number(String(words[2])) else {
        leave("the rate is not a number above 0")
        continue
      }
      if let problem = problem(with: value) {
        leave(problem)
        continue
      }
      guard let day = Int(words[3]), days.contains(day) else {
        leave("its day is not one from the year 1 to 9999")
        continue
      }
      rates.set(Rate(from: String(words[0]), to: String(words[1]), value: value, day: day))
    }
    return (rates, leftOut)
  }

  /// Whether `text` looks like an ISO 4217 code: three capital letters.
  public static func isCode(_ text: String) -> Bool {
    text.utf8.count == 3 && text.utf8.allSatisfy { (65...90).contains($0) }
  }

  /// A rate as it is kept: `27/25`, exact.
  static func text(of r: Rational) -> String {
    r.isInteger ? r.numerator.description : "\(r.numerator.description)/\(r.denominator.description)"
  }

  /// The most digits a rate's numerator or denominator may have. A rate is kept exactly, as
  /// the fraction it is, and the settings read back what they were given, so a rate typed
  /// or read from a file is held to this at once (`problem(with:)`), never dropped later.
  public static let maxDigits = 100

  /// Why `value` cannot be a rate (not above 0, or more digits than `maxDigits`); nil when it
  /// can.
  public static func problem(with value: Rational) -> String? {
    guard !value.isZero, !value.isNegative else { return "a rate must be a number above 0" }
    // Over 4 bits a digit is over 100 digits: no text is made of a number that large.
    let digits =
      value.bitWidth > 4 * maxDigits
      ? Int.max : max(value.numerator.description.utf8.count, value.denominator.description.utf8.count)
    guard digits <= maxDigits else {
      return "a rate is kept exactly, with at most \(maxDigits) digits above and below its fraction bar, "
        + "and this one has more"
    }
    return nil
  }

  /// A positive number as a file or the settings write a rate: `1.0550`, `163`, `27/25`,
  /// `1,08` (a decimal comma too); nil for anything else, 0 included. Whether it may be a rate
  /// (its digits) is `problem(with:)`'s to say.
  public static func number(_ text: String) -> Rational? {
    guard text.utf8.count <= 10 * maxDigits else { return nil }
    if let slash = text.firstIndex(of: "/") {
      guard let n = BigInteger(decimal: text[..<slash]), let d = BigInteger(decimal: text[text.index(after: slash)...]),
        !d.isZero, !n.isZero, text.utf8.allSatisfy({ $0 == 47 || (48...57).contains($0) })
      else { return nil }
      return Rational(numerator: n, denominator: d)
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false).flatMap {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    guard (1...2).contains(parts.count),
      parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }),
      let whole = BigInteger(decimal: parts[0])
    else { return nil }
    var value = Rational(whole)
    if parts.count == 2, let fraction = BigInteger(decimal: parts[1]) {
      value = value + Rational(numerator: fraction, denominator: BigInteger(10).power(parts[1].utf8.count))
    }
    return value.isZero ? nil : value
  }

  // MARK: Errors

  /// The error for a conversion with no rate: what to do about it.
  public static func missing(from: String, to: String, at span: SourceSpan) -> Diagnostic {
    Diagnostic(
      "no exchange rate from \(from) to \(to): Reckon has no network, so rates are the ones you give it",
      at: span, hint: hint(from: from, to: to, on: nil))
  }

  /// `missing`'s error with today's date in its hint (`on`, as the session knows it): the
  /// core has no clock, and the date is worked out only for this error.
  public static func dated(_ error: Diagnostic, on day: String) -> Diagnostic {
    guard isMissing(error) else { return error }
    let words = error.message.dropFirst("no exchange rate from ".count).split(separator: " ", maxSplits: 3)
    guard words.count >= 3, words[1] == "to", words[2].hasSuffix(":") else { return error }
    var dated = error
    dated.hint = hint(from: String(words[0]), to: String(words[2].dropLast()), on: day)
    return dated
  }

  /// How to give the rate `missing` lacks, the right way round: N is what 1 FROM is in TO
  /// (on `day`, or today).
  static func hint(from: String, to: String, on day: String?) -> String {
    "set rate \(from) N \(to), N the \(to) that 1 \(from) is \(day.map { "on " + $0 } ?? "today"); or load the "
      + "ECB's daily file: rates load eurofxref.csv"
  }

  /// Whether `error` is `missing`'s: the session reads the saved rates and tries again.
  public static func isMissing(_ error: Diagnostic) -> Bool {
    error.message.hasPrefix("no exchange rate from ")
  }
}
