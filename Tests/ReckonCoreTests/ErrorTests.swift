import Testing

@testable import ReckonCore

/// Bad input: the message and the column the caret points at.
@Suite struct ErrorTests {
  static let cases: [(input: String, column: Int, message: String)] = [
    ("2 + * 3", 5, "expected a number, a name or '(' here, found '*'"),
    ("(1+2", 5, "missing ')' to close the '(' at column 1: the line ends"),
    ("((1)", 5, "missing ')' to close the '(' at column 1: the line ends"),
    ("max(1, 2", 9, "missing ')' to close the '(' at column 4: the line ends"),
    ("1/0", 2, "division by zero"),
    // Found by the fuzzer: exponents and places of exactly -2^63, whose magnitude is no Int.
    ("2^-2^63", 2, "the result would have more than 1,000,000 digits"),
    ("(-977653+ .5e-13)-2^-2^63", 20, "the result would have more than 1,000,000 digits"),
    ("round(1, -2^63)", 10, "round's second argument must be a whole number of decimal places from -1000 to 1000"),
    ("1 / (2-2)", 3, "division by zero"),
    ("5 mod 0", 3, "division by zero"),
    ("foo(3)", 1, "unknown function 'foo'"),
    ("sqr(3)", 1, "unknown function 'sqr'; did you mean 'sqrt'?"),
    ("2 * sine(1)", 5, "unknown function 'sine'; did you mean 'sin'?"),
    ("pii", 1, "unknown name 'pii'; did you mean 'pi'?"),
    ("1 + zz", 5, "unknown name 'zz'"),
    ("0^-1", 2, "division by zero: 0 to a negative power"),
    ("(-1)!", 5, "factorial needs a whole number ≥ 0"),
    ("2.5!", 4, "factorial needs a whole number ≥ 0"),
    ("sqrt(-1)", 6, "not a real number: the square root of a negative number"),
    ("sqrt(-4 + 1)", 6, "not a real number: the square root of a negative number"),
    ("(-4)^0.5", 5, "not a real number: an even root of a negative number"),
    ("(-0.5)^(1e17+0.001)", 7, "not a real number: an even root of a negative number"),
    ("(-2)^(-1e17-0.001)", 5, "not a real number: an even root of a negative number"),
    ("ln(0)", 4, "ln is defined for positive numbers only"),
    ("log(-1)", 5, "log is defined for positive numbers only"),
    ("log(8, 1)", 8, "the base of a logarithm must be positive and not 1"),
    ("2^(10^10)", 2, "the result would have more than 1,000,000 digits"),
    ("(10^7)!", 7, "the result would have more than 1,000,000 digits"),
    ("9^9^9", 2, "the result would have more than 1,000,000 digits"),
    ("10^1000000", 3, "the result would have more than 1,000,000 digits"),
    ("1e1000001", 3, "exponent too large: numbers may have at most 1000000 digits"),
    ("exp(1000)", 1, "the result is too large to approximate (beyond about 1.8e308)"),
    ("exp(-100000)", 1, "the result is too small to approximate (below about 1e-308)"),
    ("2^0.5/1e400", 6, "the result is too small to approximate (below about 1e-308)"),
    ("sin(10^1000)", 5, "the argument of sin is too large to approximate (beyond about 1.8e308)"),
    ("1_000_", 6, "a digit separator '_' must stand between two digits"),
    ("0.1+0.2==0.3", 8, "comparisons (==) are not supported"),
    ("3 × 4 × × 2", 9, "expected a number, a name or '(' here, found '×'"),
    ("sqrt 4", 6, "sqrt needs parentheses: write sqrt(4)"),
    ("SQRT(4)", 1, "unknown function 'SQRT'; did you mean 'sqrt'?"),
    ("10^600000 / (1/10^500000)", 11, "this calculation would need more than 1,000,000 digits"),
    ("(1/10^600000) * (1/10^500000)", 15, "this calculation would need more than 1,000,000 digits"),
    ("2 3", 3, "missing operator before this number"),
    ("1)", 2, "unmatched ')'"),
    ("3 of 5", 3, "'of' needs a percentage before it"),
    ("2 ^", 4, "expected a number, a name or '(' here, but the line ends"),
    ("", 1, "expected a number, a name or '(' here, but the line ends"),
    ("*", 1, "expected a number, a name or '(' here, found '*'"),
    ("2 $ 3", 3, "unexpected character '$'"),
    ("1 + \u{0}", 5, "unexpected character U+0000"),
    ("1 + \u{7}", 5, "unexpected character U+0007"),
    ("1 + \u{FFFD}", 5, "invalid UTF-8 in the input"),
    ("abs()", 1, "abs takes 1 argument, not 0"),
    ("round(1, 2, 3)", 1, "round takes 1 to 2 arguments, not 3"),
    ("round(1, 0.5)", 10, "round's second argument must be a whole number of decimal places from -1000 to 1000"),
    ("sqrt", 1, "sqrt is a function"),
    ("ans", 1, "there is no previous result yet"),
    ("max(1,)", 7, "expected a number, a name or '(' here, found ')'"),
    ("x = 1", 3, "only a name can be assigned to"),
    ("π×(", 4, "expected a number, a name or '(' here, but the line ends"),
    (
      "(" + String(repeating: "(", count: 1000) + "1" + String(repeating: ")", count: 1001), 1001,
      "nested too deeply (more than 1000 levels)"
    ),
    (String(repeating: "-", count: 5000) + "1", 1001, "nested too deeply (more than 1000 levels)"),
    (String(repeating: "2^", count: 5000) + "2", 2002, "nested too deeply (more than 1000 levels)"),
  ]

  @Test(arguments: cases)
  func reportsErrorAtColumn(_ input: String, _ column: Int, _ message: String) {
    #expect(onLargeStack { calculate(input) } == "error@\(column): \(message)", "\(input.prefix(40))")
  }

  /// Nesting up to the limit works (on the executable's large stack).
  @Test func nestingUpToTheLimitEvaluates() {
    let deep = String(repeating: "(", count: 999) + "1" + String(repeating: ")", count: 999)
    #expect(onLargeStack { calculate(deep) } == "1")
    let minus = String(repeating: "-", count: 1000) + "1"
    #expect(onLargeStack { calculate(minus) } == "1")
  }

  @Test func caretLineSitsUnderTheSpan() {
    let d = Diagnostic("division by zero", at: SourceSpan(1, 2))
    #expect(d.caretLine() == " ^")
    #expect(d.caretLine(indent: 8) == "         ^")
    #expect(d.rendered(source: "1/0") == "error: division by zero\n  1/0\n   ^")
    let wide = Diagnostic("unknown function 'foo'", at: SourceSpan(0, 3), hint: "type 'help functions' for the list")
    #expect(
      wide.rendered(source: "foo(3)")
        == "error: unknown function 'foo'\n  foo(3)\n  ^^^\nhint: type 'help functions' for the list")
  }

  /// Hostile inputs answer with an error quickly (the limit is what keeps them fast).
  @Test(arguments: [
    "2^(10^10)", "(10^7)!", "9^9^9", "10^10^10^10", "(2^3320000)*(2^3320000)", "1/(2^4000000)",
    "300000!", "2^2^2^2^2^2",
  ])
  func limitsRefuseHugeResults(_ input: String) {
    #expect(calculate(input).hasPrefix("error@"), "\(input)")
  }
}
