import Testing

@testable import ReckonSession

/// Units as people type them (issue 40): each line on a fresh session (after the set-up lines
/// given) and what Reckon answers, carets included (`error@COLUMN: message`).
@Suite struct UnitsAsTypedTests {
  /// The answer to `line` after `setUp`, as the transcripts write it.
  static func answer(_ line: String, after setUp: [String] = []) -> [String] {
    var session = testSession()
    for earlier in setUp { _ = session.handle(earlier) }
    let reply = session.handle(line)
    return plain(reply)
  }

  /// A mixed result carries its sign once, in front of its first part that is not 0.
  static let signs: [(String, String)] = [
    ("-30 s to min s", "-30 s"), ("-90 s to min s", "-1 min 30 s"), ("-0.5 ft to ft in", "-6 in"),
    ("-7.89 h to d h min s", "-7 h 53 min 24 s"), ("30 s to min s", "30 s"), ("90 s to min s", "1 min 30 s"),
    ("-1 d to d h", "-1 d 0 h"), ("0 s to min s", "0 s"), ("-(5 ft 11 in) to ft in", "-5 ft 11 in"),
    ("-1.8 m to ft in", "-5 ft 10.86614173… in"),
  ]

  @Test(arguments: signs)
  func aMixedResultHasItsSignInFront(_ line: String, _ expected: String) {
    #expect(UnitsAsTypedTests.answer(line) == [expected], "\(line)")
  }

  /// After `name(…)`, `number(…)` and `(…)(…)` each operator binds the same way: a name that
  /// is no function followed by a parenthesis is a product, as a number before one is, and
  /// `^`, `!` and `%` after the ")" apply to the parenthesis alone.
  static let operators = ["^ 2", "!", "%", "^ 2 !", "* 4", "/ 4", "+ 4", "- 4", "mod 4", "< 20", "== 18"]

  @Test(arguments: operators)
  func anOperatorAfterAParenthesisBindsAsAfterANumbers(_ op: String) {
    let byNumber = UnitsAsTypedTests.answer("2(3)\(op)")
    #expect(UnitsAsTypedTests.answer("x(3)\(op)", after: ["x = 2"]) == byNumber, "x(3)\(op)")
    #expect(UnitsAsTypedTests.answer("(2)(3)\(op)") == byNumber, "(2)(3)\(op)")
    #expect(UnitsAsTypedTests.answer("2 (3) \(op)") == byNumber, "2 (3) \(op)")
    #expect(!byNumber.joined().hasPrefix("error"), "2(3)\(op): \(byNumber)")
  }

  static let products: [(String, String)] = [
    ("x(2)^2", "12"), ("pi(2)^2", "≈ 12.56637061"), ("ft(3)^2", "9 ft"), ("x(2)!", "6"), ("2 x(2)^2", "24"),
    ("x(1+1)^2^2", "48"), ("-x(2)^2", "-12"), ("sqrt(4)^2", "4"), ("max(2, 3)^2", "9"),
    // GNU units' manual: units -t gives 43.533969.
    ("(8/pi^2)(lb/ft^3)ft(ft^3/s)^2(1/in^5) to psi", "≈ 43.53396932 psi"),
  ]

  @Test(arguments: products)
  func aNameBeforeAParenthesisMultiplies(_ line: String, _ expected: String) {
    #expect(UnitsAsTypedTests.answer(line, after: ["x = 3"]) == [expected], "\(line)")
  }
}

/// Temperatures as a physicist and a cook expect: a point on a scale, a difference of points.
@Suite struct TemperatureTests {
  static let lines: [(String, String)] = [
    ("(20 °C - 15 °C) to °F", "9 Δ°F"), ("(20 °C - 15 °C) to Δ°F", "9 Δ°F"),
    ("100 °F - 32 °F to °C", "37.77777777… Δ°C"),
    ("20 °C - 15 °C", "5 Δ°C"), ("(20 °C - 15 °C) to K", "5 K"), ("20 °C + 5 Δ°C", "25 °C"), ("20 °C - 5 K", "15 °C"),
    ("(15 °C + 25 °C)/2", "20 °C"), ("(50 °F + 20 °C)/2", "59 °F"), ("(10 °C + 20 °C + 30 °C)/3 to °F", "68 °F"),
    ("20 °C to °F", "68 °F"), ("300 K to °C", "26.85 °C"), ("5 Δ°C * 2", "10 Δ°C"),
    ("(15 °C + 25 °C)/3", "error@16: a sum of 2 temperatures divided by other than 2 is no temperature"),
    ("15 °C + 25 °C", "error@7: cannot add two temperatures on a scale (°C and °C): a temperature is a point"),
    ("20 °C * 2", "error@7: cannot multiply a temperature on a scale (°C): a temperature is a point, not an amount"),
    ("20 °C / 2", "error@7: cannot divide a temperature on a scale (°C): a temperature is a point, not an amount"),
    ("2 * 20 °C", "error@3: cannot multiply a temperature on a scale (°C): a temperature is a point, not an amount"),
    ("-275 °C", "error@6: the temperature is below absolute zero (0 K, -273.15 °C, -459.67 °F): no temperature is"),
    ("-1 K to °C", "error@9: the temperature is below absolute zero (0 K, -273.15 °C, -459.67 °F): no temperature is"),
    (
      "-1 °R to °F", "error@10: the temperature is below absolute zero (0 K, -273.15 °C, -459.67 °F): no temperature is"
    ),
    ("-273.15 °C", "-273.15 °C"), ("-1 K", "-1 K"), ("-300 Δ°C", "-300 Δ°C"),
    (
      "-200 °C - 100 K",
      "error@9: the temperature is below absolute zero (0 K, -273.15 °C, -459.67 °F): no temperature is"
    ),
  ]

  @Test(arguments: lines)
  func pointsAndDifferences(_ line: String, _ expected: String) {
    #expect(UnitsAsTypedTests.answer(line).first == expected, "\(line)")
  }
}

/// A percentage is one whether written, held in a variable or worked out; ‰ follows the same
/// rule; `%` before a parenthesis or a name is never a silent product.
@Suite struct PercentEverywhereTests {
  static let lines: [(String, String)] = [
    ("49.99 + tax", "54.114175"), ("49.99 + 8.25%", "54.114175"), ("49.99 - tax", "45.865825"),
    ("tax of 200", "16.5"), ("(tax + 1%) of 200", "18.5"), ("200 + (10% + 5%)", "230"), ("200 + 15‰", "203"),
    ("200 - 15‰", "197"), ("15‰ of 200", "3"), ("tax + 1%", "9.25%"), ("200 * tax", "16.5"),
    ("7 % (2)", "error@5: an operator is needed after '%': a percentage is not multiplied by what follows it"),
    ("10 % pi", "error@6: an operator is needed after '%': a percentage is not multiplied by what follows it"),
    ("10% x", "error@5: an operator is needed after '%': a percentage is not multiplied by what follows it"),
    ("15 ‰ (2)", "error@6: an operator is needed after '‰': a percentage is not multiplied by what follows it"),
    ("7% * 2", "0.14"), ("50% to percent", "50%"), ("20% in ‰", "200‰"),
  ]

  @Test(arguments: lines)
  func percent(_ line: String, _ expected: String) {
    #expect(UnitsAsTypedTests.answer(line, after: ["tax = 8.25%", "x = 3"]).first == expected, "\(line)")
  }
}

/// Units that cancel, by the rule `Evaluator.cancelled` and `Evaluator.inOneUnit` document:
/// the number is the amount.
@Suite struct UnitsThatCancelTests {
  static let lines: [(String, String)] = [
    ("60 W * 5 h * 0.25 USD/kWh", "≈ 0.08 USD"), ("full 60 W * 5 h * 0.25 USD/kWh", "0.075 USD"),
    ("1.5 L / 250 cm^3", "6"), ("1 kWh / 100 W", "10 h"),
    ("12 V / 4 Ω", "3 A"), ("100 J / 10 s", "10 W"), ("2 kg * 3 m / s^2", "6 N"), ("10 N / 2 m^2", "5 Pa"),
    ("1 kWh / 100 W to s", "36000 s"), ("12 V / 4 Ω to V/Ω", "3 V/Ω"), ("3 A to V/Ω", "3 V/Ω"),
    // What stays as written: rates, products, what no named unit is.
    ("10 km / 2 h", "5 km/h"), ("60 km / 45 min", "80 km/h"), ("3 N * 2 m", "6 N·m"), ("5 m / 2 s", "2.5 m/s"),
    ("100 J / 2 kg", "50 J/kg"), ("15 kWh / 100 km", "0.15 kWh/km"), ("1 rad / 1 s", "1 rad/s"),
    ("30 mpg to L/100km", "7.840486111… L/100km"), ("3 ft * 2 m", "19.68503937… ft²"), ("3 km / m", "3000"),
    ("100 USD/h * 30 min", "50 USD"), ("2 W * 3 h", "6 W·h"),
  ]

  @Test(arguments: lines)
  func cancels(_ line: String, _ expected: String) {
    #expect(UnitsAsTypedTests.answer(line).first == expected, "\(line)")
  }
}

/// Money shown as money: to its currency's minor unit, with ≈ when that rounded it.
@Suite struct MoneyShownTests {
  static let lines: [(String, String)] = [
    ("100 USD to EUR", "≈ 95.13 EUR"), ("full 12345.6 JPY", "12345.6 JPY"),
    ("12345.6 JPY", "≈ 12346 JPY"), ("10.5 USD", "10.50 USD"), ("8 USD", "8 USD"), ("$5 + $3", "8 USD"),
    ("1.005 USD", "≈ 1.01 USD"), ("-1.005 USD", "≈ -1.01 USD"), ("0.5 USD/kg", "0.5 USD/kg"),
    ("10.5 EUR to EUR", "10.50 EUR"),
    (
      "100 GBP to EUR",
      "error@12: no exchange rate from GBP to EUR: Reckon has no network, so rates are the ones you give it"
    ),
  ]

  @Test(arguments: lines)
  func money(_ line: String, _ expected: String) {
    #expect(UnitsAsTypedTests.answer(line, after: ["set rate EUR 1.0512 USD"]).first == expected, "\(line)")
  }

  /// The missing rate's hint has it the right way round, and today's date.
  @Test func aMissingRateSaysWhichWayRound() {
    // 1,796,688,000 s after 1970: 2026-12-08 at 00:00 UTC.
    var session = testSession(clock: ManualClock(startingAt: 1_796_688_000_000))
    let reply = session.handle("100 GBP to EUR")
    guard case .error(let d, _)? = reply.outputs.first else {
      Issue.record("no error: \(plain(reply))")
      return
    }
    #expect(
      d.hint == "set rate GBP N EUR, N the EUR that 1 GBP is on 2026-12-08; or load the ECB's daily file: "
        + "rates load eurofxref.csv")
  }
}

/// Angles, solid angles and ratios or counts are distinct for addition, comparison and
/// conversion alike; a plain number goes with each.
@Suite struct KindsTests {
  static let lines: [(String, String)] = [
    ("3 ° + 2 sr", "error@1+7: cannot add an angle (°) and a solid angle (sr)"),
    ("1 rad == 1 sr", "error@1+10: cannot compare an angle (rad) and a solid angle (sr)"),
    ("3 dozen to rad", "error@12: cannot convert a ratio (dozen) to an angle (rad)"),
    ("3 dozen + 6", "3.5 dozen"), ("30° + 1", "≈ 87.29577951°"), ("1 turn to rad", "≈ 6.283185307 rad"),
    ("90° == pi/2", "true"),
    ("1 sr + 1 sr", "2 sr"), ("sin(30°)", "0.5"),
  ]

  @Test(arguments: lines)
  func kinds(_ line: String, _ expected: String) {
    #expect(UnitsAsTypedTests.answer(line).first == expected, "\(line)")
  }
}

/// Every target the grammar allows: powers, 1/…, Reckon's own output, a quantity, a product
/// of units of several dimensions; roots of units that are whole powers by dimension.
@Suite struct TargetsTests {
  static let lines: [(String, String)] = [
    ("1 Hz to 1/s", "1 s⁻¹"), ("1 Hz to s^-1", "1 s⁻¹"), ("1 m^-1 to m⁻¹", "1 m⁻¹"),
    ("1 farad to A^2 kg^-1 m^-2 s^4", "1 A²·s⁴/(kg·m²)"), ("6 hours to 45 min", "8 × 45 min"),
    ("10 m -> 2 m", "5 × 2 m"), ("1 yard lb to kg m", "0.4147648631… kg·m"),
    ("30 mpg to L/100km", "7.840486111… L/100km"),
    ("sqrt(1 acre) to ft", "≈ 208.7103256 ft"), ("cbrt(1 L)", "0.1 m"), ("2 pi * sqrt(30 cm / gn)", "≈ 1.098955629 s"),
    ("sqrt(hbar G / c^3)", "≈ 1.6163e-35 m (only 5 digits can be known)"), ("sqrt(9 m^2)", "3 m"),
    ("1 h to min s", "60 min 0 s"),
    ("5 ft to in ft", "error@12: a mixed result's units go from the largest to the smallest"),
  ]

  @Test(arguments: lines)
  func target(_ line: String, _ expected: String) {
    #expect(UnitsAsTypedTests.answer(line).first == expected, "\(line)")
  }
}
