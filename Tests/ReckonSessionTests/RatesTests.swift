import ReckonCore
import Testing

@testable import ReckonSession

/// Exchange rates: the ECB's file read as the ECB writes it, rates exact, cross rates
/// through the euro, and the plain list.
@Suite struct RatesTests {
  static let known: Set = ["USD", "JPY", "GBP", "EUR", "CHF", "SEK", "BGN"]

  @Test func theECBFileGivesExactRatesAndCrossRatesThroughTheEuro() throws {
    let lines = ["Date, USD, JPY, BGN, CYP, GBP, ", "27 November 2026, 1.0550, 163.33, 1.9558, N/A, 0.84120, "]
    guard case .success(let loaded) = RatesFile.read(lines, today: 0, isCurrency: { Self.known.contains($0) }) else {
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
    #expect(ExchangeRates(stored: rates.stored) == rates)
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
    guard case .failure(let failure) = RatesFile.read(lines, today: 0, isCurrency: { Self.known.contains($0) }) else {
      Issue.record("\(lines) was loaded")
      return
    }
    #expect(failure.all.map(\.description).contains(problem), "\(failure.all)")
  }

  @Test func aPlainListIsAgainstItsBase() throws {
    let lines = ["# from the bank", "base USD", "CHF 0.88", "SEK\t10,5"]
    guard case .success(let loaded) = RatesFile.read(lines, today: 7, isCurrency: { Self.known.contains($0) }) else {
      Issue.record("the file was refused")
      return
    }
    #expect(
      loaded.rates == [
        ExchangeRates.Rate(from: "USD", to: "CHF", value: Rational(22, 25), day: 7),
        ExchangeRates.Rate(from: "USD", to: "SEK", value: Rational(21, 2), day: 7),
      ])
  }
}
