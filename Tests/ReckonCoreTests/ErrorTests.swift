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
    ("2^-2^63", 2, "the result is too small even to approximate (below about 10^(-1.3e18))"),
    ("(-977653+ .5e-13)-2^-2^63", 20, "the result is too small even to approximate (below about 10^(-1.3e18))"),
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
    ("10^10^10^10", 3, "the result is too large even to approximate (beyond about 10^(1.3e18))"),
    ("2^2^2^2^2^2", 2, "the result is too large even to approximate (beyond about 10^(1.3e18))"),
    ("1/10^10^10^10", 5, "the result is too large even to approximate (beyond about 10^(1.3e18))"),
    ("2^-(10^30)", 2, "the result is too small even to approximate (below about 10^(-1.3e18))"),
    ("1e1000001", 3, "exponent too large: numbers may have at most 1000000 digits"),
    ("tan(pi/2)", 5, "tan is not defined at π/2 + kπ (its cosine is 0)"),
    ("tan(-5pi/2)", 5, "tan is not defined at π/2 + kπ (its cosine is 0)"),
    ("asin(2)", 6, "asin is defined from -1 to 1 only"),
    ("acos(-1.5)", 6, "acos is defined from -1 to 1 only"),
    ("acosh(0.5)", 7, "acosh is defined for x ≥ 1 only"),
    ("atanh(1)", 7, "atanh is defined from -1 to 1 only, the ends left out"),
    ("atan2(0, 0)", 7, "atan2(0, 0) is not defined: the point (0, 0) has no angle"),
    ("ln(-pi)", 4, "ln is defined for positive numbers only"),
    ("sqrt(-pi)", 6, "not a real number: the square root of a negative number"),
    ("(-pi)^0.5", 6, "not a real number: a negative number to a fractional power"),
    ("1/(sqrt(2)^2-2)", 2, "division by a number that may be zero (it is zero to every digit that can be worked out)"),
    ("floor(sqrt(2)^2)", 7, "floor: the value is too close to a whole number (or halfway) to tell which side it is on"),
    ("(pi/2)!", 7, "factorial needs a whole number ≥ 0"),
    ("1_000_", 6, "a digit separator '_' must stand between two digits"),
    // Found by the fuzzer: reducing 2^4000000 modulo 2π needs π to 4 million bits.
    (
      "sin(2^4000000)", 5,
      "the argument of sin is too large: beyond 2^131,072, reducing it modulo 2π would need π to more digits than Reckon works with"
    ),
    ("1 < 2 < 3", 7, "comparisons do not chain"),
    ("(1 < 2) + 1", 9, "true is not a number: it cannot be calculated with"),
    ("sqrt(2)^2 == 2", 11, "cannot tell whether they are equal: they agree to every digit that can be worked out"),
    ("gcd(1.5, 3)", 5, "gcd needs whole numbers"),
    ("nPr(3, 5)", 5, "nPr needs whole numbers n ≥ r ≥ 0"),
    ("rem(7, 0)", 8, "division by zero"),
    ("shl(1, -1)", 8, "shl shifts by a whole number of bits ≥ 0"),
    ("shl(1, 10^7)", 1, "the result would have more than 1,000,000 digits"),
    ("isprime(10^4000)", 9, "isprime works on whole numbers of up to 3,000 digits"),
    ("7 % 2", 5, "missing operator before this number (% means percent; for a remainder write mod or rem)"),
    // Numbers in other bases.
    ("0x", 1, "0x starts a hexadecimal number, but no digits follow"),
    ("1 + 0B", 5, "0B starts a binary number, but no digits follow"),
    ("0o", 1, "0o starts an octal number, but no digits follow"),
    ("0x.8", 1, "0x starts a hexadecimal number, but no digits follow"),
    ("0xg", 3, "'g' is not a hexadecimal digit"),
    ("0b102", 5, "'2' is not a binary digit"),
    ("0o8", 3, "'8' is not an octal digit"),
    ("0o17_9", 6, "'9' is not an octal digit"),
    ("0xffz", 5, "'z' is not a hexadecimal digit"),
    ("0b1e3", 4, "'e' is not a binary digit"),
    ("2 * 0xffpi", 9, "'p' is not a hexadecimal digit"),
    ("0xé", 3, "'é' is not a hexadecimal digit"),
    ("0x_1", 3, "a digit separator '_' must stand between two digits"),
    ("0x1_", 4, "a digit separator '_' must stand between two digits"),
    ("0x1__2", 4, "a digit separator '_' must stand between two digits"),
    ("0b1_.1", 4, "a digit separator '_' must stand between two digits"),
    ("0x1.", 4, "a point in a hexadecimal number must have digits after it"),
    ("0b1. + 1", 4, "a point in a binary number must have digits after it"),
    ("0x1.g", 5, "'g' is not a hexadecimal digit"),
    ("0x1.8.1", 6, "missing operator before this number"),
    // A conversion ends a line; in an expression it is misplaced.
    ("(255 to hex)", 6, "'to' converts a whole line: write it at the end, after the whole expression"),
    ("sqrt(4 to hex)", 8, "'to' converts a whole line: write it at the end, after the whole expression"),
    ("2 + to", 5, "'to' converts a whole line: write it at the end, after the whole expression"),
    ("3 × 4 × × 2", 9, "expected a number, a name or '(' here, found '×'"),
    ("sqrt 4", 6, "sqrt needs parentheses: write sqrt(4)"),
    ("SQRT(4)", 1, "unknown function 'SQRT'; did you mean 'sqrt'?"),
    ("2 3", 3, "missing operator before this number"),
    ("1)", 2, "unmatched ')'"),
    ("3 of 5", 3, "'of' needs a percentage before it"),
    ("2 ^", 4, "expected a number, a name or '(' here, but the line ends"),
    ("", 1, "expected a number, a name or '(' here, but the line ends"),
    ("*", 1, "expected a number, a name or '(' here, found '*'"),
    ("2 @ 3", 3, "unexpected character '@'"),
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
    // A value of which no digit can be worked out is an error, not "≈ ?" (issue 25).
    (
      "(1+10^-30000)^(10^30000)", 2,
      "no digit of the result can be worked out: somewhere on the way it loses more precision than Reckon "
        + "works with (about 19,680 digits)"
    ),
    // Domains are decided from x itself, exactly where x is exact: the old test squared x,
    // and a wide x passed the digit limit (atanh(1 − 10^-999999) "was outside").
    ("atanh(1+10^-999999)", 7, "atanh is defined from -1 to 1 only, the ends left out"),
    ("atanh(sqrt(2))", 7, "atanh is defined from -1 to 1 only, the ends left out"),
    ("asin(-sqrt(2))", 6, "asin is defined from -1 to 1 only"),
    ("acos(1 + 10^-999999)", 6, "acos is defined from -1 to 1 only"),
    (
      "atanh(sqrt(2)^2/2)", 7,
      "atanh is defined from -1 to 1 only, the ends left out, and this is too close to 1 to tell which side it is on"
    ),
    ("shl(-1, 10^100)", 1, "the result would have more than 1,000,000 digits"),
    ("shl(1, -1)", 8, "shl shifts by a whole number of bits ≥ 0"),
    // A long unknown name is cut in the message (and found unknown in linear time).
    (
      String(repeating: "a", count: 65_000), 1,
      "unknown name 'aaaaaaaaaaaaaaaaaaaa…aaaaaaaaaaaaaaaaaaaa' (65,000 characters)"
    ),
    (
      String(repeating: "b", count: 41) + "(1)", 1,
      "unknown function 'bbbbbbbbbbbbbbbbbbbb…bbbbbbbbbbbbbbbbbbbb' (41 characters)"
    ),
    ("sqrr(2)", 1, "unknown function 'sqrr'; did you mean 'sqrt'?"),
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

  /// Past the exact-digit limit a result is approximated, not refused, and only what is
  /// beyond even MPFR's exponents is an error (expected values from mpmath).
  @Test(arguments: [
    ("2^(10^10)", "≈ 4.363268635e3010299956"), ("(10^7)!", "≈ 1.202423401e65657059"),
    ("9^9^9", "≈ 4.281247732e369693099"), ("(2^3320000)*(2^3320000)", "≈ 1.483231141e1998839"),
    ("1/(2^4000000)", "≈ 1.040744382e-1204120"), ("300000!", "≈ 1.477391532e1512851"),
    ("10^1000000", "≈ 1e1000000"), ("10^600000 / (1/10^500000)", "≈ 1e1100000"),
    ("(1/10^600000) * (1/10^500000)", "≈ 1e-1100000"), ("exp(1000)", "≈ 1.970071114e434"),
    ("exp(-100000)", "≈ 3.562949565e-43430"), ("2^0.5/1e400", "≈ 1.414213562e-400"),
    ("sin(10^1000)", "≈ 0.6533597982"), ("e^1000001", "≈ 8.245134295e434294"),
    // A large exact argument is worked out with as many more bits as it has (values from mpmath).
    ("cos(10^39000)", "≈ -0.7020575052"), ("sin(2^40000)", "≈ -0.2577849286"),
    ("exp(10^5+1/3)", "≈ 3.917014259e43429"),
  ])
  func hugeResultsAreApproximated(_ input: String, _ expected: String) {
    #expect(onLargeStack { calculate(input) } == expected, "\(input)")
  }
}
