import ReckonCore
import ReckonStore
import Testing

@testable import ReckonSession

/// Exchange rates: the ECB's file read as the ECB writes it, rates exact, cross rates
/// through the euro, and the plain list.
@Suite struct RatesTests {
  static let known: Set = ["USD", "JPY", "GBP", "EUR", "CHF", "SEK", "BGN"]

  @Test func theECBFileGivesExactRatesAndCrossRatesThroughTheEuro() throws {
    let lines = ["Date, USD, JPY, BGN, CYP, GBP, ", "27 November 2026, 1.0550, 163.33, 1.9558, N/A, 0.84120, "]
    guard case .success(let loaded) = RatesFile.read(lines, today: 0, known: Self.known) else {
      Issue.record("the file was refused")
      return
    }
    #expect(loaded.rates.map(\.to) == ["USD", "JPY", "BGN", "GBP"])
    #expect(loaded.skipped == ["CYP (no rate in the file)"])
    #expect(loaded.rates.allSatisfy { $0.from == "EUR" && $0.day == Day(year: 2026, month: 11, day: 27)!.number })
    var rates = ExchangeRates()
    for rate in loaded.rates { rates.set(rate) }
    #expect(rates.rate(from: "EUR", to: "USD")?.value == Rational(211, 200))
    #expect(rates.rate(from: "USD", to: "EUR")?.value == Rational(200, 211))
    // 1 USD = 163.33 / 1.055 JPY, exactly: 16333/105.5 = 32666/211.
    #expect(rates.rate(from: "USD", to: "JPY")?.value == Rational(32666, 211))
    #expect(rates.rate(from: "USD", to: "JPY")?.used.count == 2)
    #expect(rates.rate(from: "USD", to: "CHF") == nil)
    // Kept as text and read back the same.
    let stored = ExchangeRates.read(stored: rates.stored, days: Day.supportedNumbers)
    #expect(stored.rates == rates && stored.leftOut.isEmpty)
  }

  @Test(arguments: [
    (
      ["Date, USD", "yesterday, 1.05"],
      "line 2: the first column should be the rates' date (27 November 2026 or 2026-11-27), not 'yesterday'"
    ),
    (["Date, USD"], "line 1: a header line but no line of rates after it"),
    (["Date, USD", "2026-11-27, -1"], "line 2: the rate under USD is not a number above 0: '-1'"),
    (["USD 1.08", "JPY"], "line 2: a line is a currency code and its rate (USD 1.08), not 'JPY'"),
    (["EUR 1"], "line 1: a rate of EUR against itself"),
    ([""], "line 1: the file is empty"),
    (["USD 1.08", "JPY 160", "USD 1.09"], "line 3: a second rate for USD (line 1 has one)"),
    (["Date, USD, USD", "2026-11-27, 1.05, 1.06"], "line 1: USD is in the header twice"),
  ])
  func badFilesAreRefusedWhole(_ lines: [String], _ problem: String) {
    guard case .failure(let failure) = RatesFile.read(lines, today: 0, known: Self.known) else {
      Issue.record("\(lines) was loaded")
      return
    }
    #expect(failure.all.map(\.description).contains(problem), "\(failure.all)")
  }

  @Test func aPlainListIsAgainstItsBase() throws {
    let lines = ["# from the bank", "base USD", "CHF 0.88", "SEK\t10,5"]
    guard case .success(let loaded) = RatesFile.read(lines, today: 7, known: Self.known) else {
      Issue.record("the file was refused")
      return
    }
    #expect(
      loaded.rates == [
        ExchangeRates.Rate(from: "USD", to: "CHF", value: Rational(22, 25), day: 7),
        ExchangeRates.Rate(from: "USD", to: "SEK", value: Rational(21, 2), day: 7),
      ])
  }

  /// A date is a day from the year 1 to 9999: one near the limits of a 64-bit integer is
  /// refused with its line and why (it used to overflow the calendar's arithmetic and kill
  /// Reckon).
  @Test(arguments: [
    ("9223372036854775807-01-01", "the rates' date '9223372036854775807-01-01' is not a day from the year 1 to 9999"),
    (
      "27 November 99999999999999999",
      "the rates' date '27 November 99999999999999999' is not a day from the year 1 to 9999"
    ),
    (
      "1 January -25252734927764584",
      "the rates' date '1 January -25252734927764584' is not a day from the year 1 to 9999"
    ),
    (
      "99999999999999999999999-01-01",
      "the rates' date '99999999999999999999999-01-01' is not a day from the year 1 to 9999"
    ),
    ("0000-12-31", "the rates' date '0000-12-31' is not a day from the year 1 to 9999"),
    ("10000-01-01", "the rates' date '10000-01-01' is not a day from the year 1 to 9999"),
    ("2026-02-30", "the rates' date '2026-02-30' is not a day of the calendar"),
    ("31 November 2026", "the rates' date '31 November 2026' is not a day of the calendar"),
    ("2026-01--1", "the first column should be the rates' date (27 November 2026 or 2026-11-27), not '2026-01--1'"),
  ])
  func aDateOutsideTheCalendarIsRefused(_ date: String, _ reason: String) {
    let lines = ["Date, USD", "\(date), 1.05"]
    guard case .failure(let failure) = RatesFile.read(lines, today: 0, known: Self.known) else {
      Issue.record("\(date) was loaded")
      return
    }
    #expect(failure.all.map(\.description) == ["line 2: \(reason)"])
  }

  @Test func theFirstAndLastDaysOfTheCalendarAreDates() throws {
    #expect(RatesFile.date("0001-01-01").day == Day.supportedNumbers.lowerBound)
    #expect(RatesFile.date("31 December 9999").day == Day.supportedNumbers.upperBound)
    #expect(Day(number: Day.supportedNumbers.upperBound).iso == "9999-12-31")
  }

  /// A rate is kept exactly with up to 100 digits above and below its bar, from a file too;
  /// past that it is refused with the reason, not taken and lost at the next start.
  @Test func aRateHasAtMost100Digits() {
    let long = "1." + String(repeating: "3", count: 98)  // 99 decimals: 10^99 below the bar
    let tooLong = "1." + String(repeating: "3", count: 100)
    guard case .success(let loaded) = RatesFile.read(["USD \(long)"], today: 7, known: Self.known)
    else {
      Issue.record("a rate of 100 digits was refused")
      return
    }
    var rates = ExchangeRates()
    for rate in loaded.rates { rates.set(rate) }
    #expect(ExchangeRates.read(stored: rates.stored, days: Day.supportedNumbers).rates.rates == loaded.rates)
    guard
      case .failure(let failure) = RatesFile.read(["USD \(tooLong)"], today: 7, known: Self.known)
    else {
      Issue.record("a rate of 101 digits was loaded")
      return
    }
    #expect(
      failure.all.map(\.description) == [
        "line 1: the rate of USD: a rate is kept exactly, with at most 100 digits above and below its fraction bar, and this one has more"
      ])
  }

  /// A saved rate that does not read back (an edited or damaged database: a day near the
  /// limits of a 64-bit integer, a huge number) is left out with one warning, and the rest
  /// work; the next change of the rates saves them without it.
  @Test func aBadSavedRateIsLeftOutWithOneWarning() throws {
    let store = SQLiteStore.inMemory()
    try store.saveSetting(
      "rates",
      value:
        "EUR USD 21/20 19675\nEUR JPY 163 -25252734927764584\nEUR GBP 1\(String(repeating: "0", count: 300)) 19675\nnonsense",
      profile: "ada", at: 0)
    var session = testSession(store: store)
    let first = session.handle("rates")
    let warnings = first.outputs.compactMap { if case .warning(let text) = $0 { text } else { nil } }
    #expect(
      warnings == [
        "3 saved exchange rates are left out: 'EUR JPY 163 -25252734927764584' (line 2 of the setting rates): its day "
          + "is not one from the year 1 to 9999; and 2 more. The next change of the rates (set rate, rates load, "
          + "rates remove) saves them without these."
      ])
    #expect(
      first.outputs.contains {
        if case .table(let rows) = $0 { rows.count == 2 && rows[1][1] == "1.05 USD" } else { false }
      })
    #expect(session.handle("rates").outputs.allSatisfy { if case .warning = $0 { false } else { true } })
    #expect(
      session.handle("100 EUR to USD").outputs.first.map {
        if case .result(let text) = $0 { text == "105 USD" } else { false }
      } == true)
    _ = session.handle("set rate EUR 0.85 GBP")
    #expect(try store.settings(profile: "ada")["rates"] == "EUR USD 21/20 19675\nEUR GBP 17/20 19675")
  }
}
