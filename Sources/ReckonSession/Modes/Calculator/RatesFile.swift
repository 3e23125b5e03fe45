import ReckonCore

/// A file of exchange rates, as `rates load` reads it: the European Central Bank's daily
/// reference rates (`eurofxref.csv`: a header line `Date, USD, JPY, …` and a line
/// `27 November 2026, 1.0550, 163.33, …`, every rate against the euro; the history file
/// `eurofxref-hist.csv`, whose newest day comes first, reads the same), or a plain list of
/// `CODE RATE` lines (1 EUR is RATE CODE; a line `base USD` makes the rates against the
/// dollar instead, `#` starts a comment).
public enum RatesFile {
  public struct Problem: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "line \(line): \(reason)" }
  }

  public struct Loaded: Sendable, Equatable {
    public var rates: [ExchangeRates.Rate]
    /// Currencies of the file that are left out, and why (the ECB writes N/A for a currency
    /// it has stopped quoting; one Reckon does not know).
    public var skipped: [String]
  }

  /// The most lines of a file read (the ECB's history file has about 7,000).
  public static let maxLines = 100_000

  /// The rates in a file's bytes: through `TextFile`, as every reader (a byte-order mark comes
  /// off and CRLF becomes LF: the ECB's file saved on Windows; "\r\n" is one `Character`,
  /// which a split on "\n" never meets), then `read(_:today:known:)`.
  public static func read(bytes: [UInt8], today: Int, known: Set<String>) -> Result<Loaded, Failure> {
    switch TextFile.decode(bytes) {
    case .success(let text):
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(maxLines).map(String.init)
      return read(lines, today: today, known: known)
    case .failure(let bad):
      return .failure(Failure([Problem(line: bad.line, reason: "not UTF-8 text (byte \(bad.byte) of the line)")]))
    }
  }

  /// The rates in `lines`, or every problem found (nothing is loaded from a file with one).
  /// `known` holds the currency codes Reckon knows (a set, not a test: the readers are then
  /// one copy in the binary, not one for each caller's closure); `today` dates a plain list.
  public static func read(_ lines: [String], today: Int, known: Set<String>) -> Result<Loaded, Failure> {
    let numbered = lines.enumerated().map { (number: $0.offset + 1, text: trimmed($0.element)) }
      .filter { !$0.text.isEmpty && !$0.text.hasPrefix("#") }
    guard let first = numbered.first else { return .failure(Failure([Problem(line: 1, reason: "the file is empty")])) }
    if first.text.lowercased().hasPrefix("date") {
      return ecb(header: first, numbered.dropFirst().first, known: known)
    }
    return plain(numbered, today: today, known: known)
  }

  public struct Failure: Error, Sendable, Equatable {
    public var all: [Problem]
    init(_ all: [Problem]) { self.all = all }
  }

  private static func ecb(
    header: (number: Int, text: String), _ row: (number: Int, text: String)?, known: Set<String>
  ) -> Result<Loaded, Failure> {
    let codes = header.text.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
    guard let row else {
      return .failure(Failure([Problem(line: header.number, reason: "a header line but no line of rates after it")]))
    }
    let values = row.text.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
    let (read, problem) = date(values[0])
    guard let day = read else { return .failure(Failure([Problem(line: row.number, reason: problem)])) }
    var problems: [Problem] = []
    var loaded = Loaded(rates: [], skipped: [])
    for (i, code) in codes.enumerated().dropFirst() where !code.isEmpty {
      guard i < values.count else {
        problems.append(Problem(line: row.number, reason: "no rate under \(code)"))
        continue
      }
      let text = values[i]
      guard ExchangeRates.isCode(code) else {
        problems.append(Problem(line: header.number, reason: "\(Diagnostic.quoted(code)) is not a currency code"))
        continue
      }
      guard !loaded.rates.contains(where: { $0.to == code }) else {
        problems.append(Problem(line: header.number, reason: "\(code) is in the header twice"))
        continue
      }
      if text == "N/A" || text.isEmpty {
        loaded.skipped.append("\(code) (no rate in the file)")
        continue
      }
      guard let value = ExchangeRates.number(text) else {
        problems.append(
          Problem(
            line: row.number, reason: "the rate under \(code) is not a number above 0: \(Diagnostic.quoted(text))"))
        continue
      }
      if let problem = ExchangeRates.problem(with: value) {
        problems.append(Problem(line: row.number, reason: "the rate under \(code): \(problem)"))
        continue
      }
      guard known.contains(code) else {
        loaded.skipped.append("\(code) (not a currency Reckon knows)")
        continue
      }
      loaded.rates.append(ExchangeRates.Rate(from: "EUR", to: code, value: value, day: day))
    }
    if !problems.isEmpty { return .failure(Failure(problems)) }
    if loaded.rates.isEmpty {
      return .failure(Failure([Problem(line: row.number, reason: "no rate in the file is one Reckon can use")]))
    }
    return .success(loaded)
  }

  private static func plain(_ lines: [(number: Int, text: String)], today: Int, known: Set<String>)
    -> Result<Loaded, Failure>
  {
    var base = "EUR"
    var seen: [String: Int] = [:]
    var problems: [Problem] = []
    var loaded = Loaded(rates: [], skipped: [])
    for (index, line) in lines.enumerated() {
      var words = line.text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ";" || $0 == "=" })
        .map(String.init)
      // USD,1.08 (a CSV line); a comma with spaces around the words is a decimal comma.
      if words.count == 1 { words = words[0].split(separator: ",").map(String.init) }
      if index == 0, words.count == 2, words[0].lowercased() == "base" {
        guard known.contains(words[1]) else {
          problems.append(
            Problem(line: line.number, reason: "\(Diagnostic.quoted(words[1])) is not a currency Reckon knows"))
          continue
        }
        base = words[1]
        continue
      }
      guard words.count == 2 else {
        problems.append(
          Problem(
            line: line.number,
            reason: "a line is a currency code and its rate (USD 1.08), not \(Diagnostic.quoted(line.text))"))
        continue
      }
      guard known.contains(words[0]) else {
        problems.append(
          Problem(line: line.number, reason: "\(Diagnostic.quoted(words[0])) is not a currency code Reckon knows"))
        continue
      }
      guard let value = ExchangeRates.number(words[1]) else {
        problems.append(
          Problem(line: line.number, reason: "the rate is not a number above 0: \(Diagnostic.quoted(words[1]))"))
        continue
      }
      if let problem = ExchangeRates.problem(with: value) {
        problems.append(Problem(line: line.number, reason: "the rate of \(words[0]): \(problem)"))
        continue
      }
      if words[0] == base {
        problems.append(Problem(line: line.number, reason: "a rate of \(base) against itself"))
        continue
      }
      if let earlier = seen[words[0]] {
        problems.append(Problem(line: line.number, reason: "a second rate for \(words[0]) (line \(earlier) has one)"))
        continue
      }
      seen[words[0]] = line.number
      loaded.rates.append(ExchangeRates.Rate(from: base, to: words[0], value: value, day: today))
    }
    if !problems.isEmpty { return .failure(Failure(problems)) }
    if loaded.rates.isEmpty { return .failure(Failure([Problem(line: 1, reason: "the file has no rates")])) }
    return .success(loaded)
  }

  static let months = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
  ]

  /// `27 November 2026` or `2026-11-27` as days since 1970-01-01, or none and why: not a date, a
  /// day the calendar does not have, or a year outside 1 to 9999 (`Day.years`: a date beyond
  /// them is no rate's, and its arithmetic could overflow).
  static func date(_ text: String) -> (day: Int?, problem: String) {
    let quoted = Diagnostic.quoted(text)
    let notADate = (
      Int?.none, "the first column should be the rates' date (27 November 2026 or 2026-11-27), not \(quoted)"
    )
    let parts: (year: Substring, month: Int, day: Substring)
    let dashed = text.split(separator: "-", omittingEmptySubsequences: false)
    let words = text.split(separator: " ")
    if dashed.count == 3, let m = Int(dashed[1]) {
      parts = (dashed[0], m, dashed[2])
    } else if words.count == 3, let m = months.firstIndex(of: words[1].lowercased()) {
      parts = (words[2], m + 1, words[0])
    } else {
      return notADate
    }
    let digits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { (48...57).contains($0) } }
    let unsigned = parts.year.first == "-" || parts.year.first == "+" ? parts.year.dropFirst() : parts.year
    guard digits(unsigned), digits(parts.day), let d = Int(parts.day) else { return notADate }
    // A year of digits too many for a 64-bit integer is out of range too, not "not a date".
    guard let y = Int(parts.year), Day.years.contains(y) else {
      return (nil, "the rates' date \(quoted) is not a day from the year 1 to 9999")
    }
    guard let day = Day(year: y, month: parts.month, day: d) else {
      return (nil, "the rates' date \(quoted) is not a day of the calendar")
    }
    return (day.number, "")
  }

  static func trimmed(_ text: String) -> String {
    var scalars = Substring(text).unicodeScalars
    while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
    while let first = scalars.first, first == " " || first == "\t" || first == "\u{FEFF}" { scalars.removeFirst() }
    return String(String.UnicodeScalarView(scalars))
  }
}
