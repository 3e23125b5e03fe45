/// Turns values into the text Reckon prints.
///
/// - Exact integers and terminating decimals print exactly and in full: `0.3`, `0.0009765625`.
/// - Other exact values print `digits` significant digits, truncated, then `…`: `0.3333333333…`.
///   The integer part is never cut; tiny values switch to scientific notation.
/// - Approximations print `≈ ` and `digits` significant digits, rounded half away from zero.
public struct NumberFormatter: Sendable {
  /// Significant digits for non-terminating and approximate results (`set digits N`).
  public var digits: Int
  /// Terminating decimals with more places than this print like non-terminating ones.
  public var maxExactPlaces = 1_000_000

  public init(digits: Int = 10) {
    self.digits = digits
  }

  public func format(_ value: Value) -> String {
    switch value {
    case .exact(let r): format(r)
    case .multiple, .approx: "≈ " + formatApproximate(value.real)
    case .truth(let t): t ? "true" : "false"
    }
  }

  /// An exact rational in decimal.
  public func format(_ r: Rational) -> String {
    exactDecimal(r) ?? shortened(r)
  }

  /// A value that `exactDecimal` does not give, with `digits` significant digits and `…`.
  public func shortened(_ r: Rational) -> String {
    if case .small(let n, let d) = r.storage, let text = smallTruncated(n, UInt64(d)) { return text }
    return (r.isNegative ? "-" : "") + truncated(r.numerator.magnitude, r.denominator.magnitude)
  }

  /// An integer or a terminating decimal (of at most `maxExactPlaces` places) in full: the text
  /// that does not depend on `digits`. nil for the values that `digits` cuts short.
  public func exactDecimal(_ r: Rational) -> String? {
    if case .small(let n, let d) = r.storage {
      if d == 1 { return String(n) }
      if let text = NumberFormatter.smallTerminating(n, d) { return text }
      if !NumberFormatter.terminates(UInt64(d)) { return nil }
    }
    if r.isInteger { return r.numerator.string() }
    let den = r.denominator
    guard let (twos, fives) = NumberFormatter.twosAndFives(den), max(twos, fives) <= maxExactPlaces else {
      return nil
    }
    // num / (2^twos · 5^fives) = num · 2^(places − twos) · 5^(places − fives) / 10^places:
    // no division, and one of the two factors is 1.
    let places = max(twos, fives)
    let scaled = (r.numerator.magnitude * BigInteger.power(5, places - fives)) << (places - twos)
    return (r.isNegative ? "-" : "") + NumberFormatter.insertPoint(scaled.string(), places: places)
  }

  /// `truncated` in machine integers, by long division; nil when it does not apply (a
  /// terminating decimal, a denominator near 64 bits, or a value small enough for `e`).
  func smallTruncated(_ n: Int64, _ den: UInt64) -> String? {
    guard den < 1 << 59, !NumberFormatter.terminates(den) else { return nil }
    let num = n.magnitude
    var rem = num % den
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits + 24)
    if n < 0 { bytes.append(UInt8(ascii: "-")) }
    let count: Int
    if num >= den {
      let whole = String(num / den)
      bytes.append(contentsOf: whole.utf8)
      bytes.append(UInt8(ascii: "."))
      count = max(digits - whole.utf8.count, 1)
    } else {
      var zeros = 0
      while rem * 10 < den {
        rem *= 10
        zeros += 1
        if zeros >= 9 { return nil }  // scientific notation: the general path
      }
      bytes.append(contentsOf: "0.".utf8)
      bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: zeros))
      count = digits
    }
    for _ in 0..<count {
      rem *= 10
      bytes.append(UInt8(ascii: "0") + UInt8(rem / den))
      rem %= den
    }
    bytes.append(contentsOf: "…".utf8)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether 1/den has a terminating decimal expansion (den = 2^a·5^b).
  static func terminates(_ den: UInt64) -> Bool {
    var rest = den >> den.trailingZeroBitCount
    while rest % 5 == 0 { rest /= 5 }
    return rest == 1
  }

  /// A terminating decimal in machine integers, when the digits fit in 64 bits.
  static func smallTerminating(_ n: Int64, _ d: Int64) -> String? {
    var rest = d
    var twos = 0
    var fives = 0
    while rest % 2 == 0 {
      rest /= 2
      twos += 1
    }
    while rest % 5 == 0 {
      rest /= 5
      fives += 1
    }
    guard rest == 1 else { return nil }
    let places = max(twos, fives)
    // n/d · 10^places = n · (10^places / d), an integer.
    guard places <= 18 else { return nil }
    let (scaled, overflow) = n.multipliedReportingOverflow(by: Lexer.powersOfTen[places] / d)
    guard !overflow else { return nil }
    // Write the digits backwards into a buffer on the stack: no intermediate strings, and
    // no allocation at all for a result of up to 15 bytes (a small String).
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
      var start = buffer.count
      var remaining = scaled.magnitude
      var written = 0
      while remaining > 0 || written <= places {
        if written == places && places > 0 {
          start -= 1
          buffer[start] = UInt8(ascii: ".")
        }
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(remaining % 10)
        remaining /= 10
        written += 1
      }
      if n < 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "-")
      }
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
    }
  }

  /// `(a, b)` when `den` is 2^a·5^b, so that `1/den` has a terminating decimal expansion.
  static func twosAndFives(_ den: BigInteger) -> (twos: Int, fives: Int)? {
    let twos = den.trailingZeroBitCount
    let (rest, fives) = (den >> twos).removingFactor(5)
    return rest == 1 ? (twos, fives) : nil
  }

  static func insertPoint(_ digits: String, places: Int) -> String {
    guard places > 0 else { return digits }
    let padded =
      digits.count <= places ? String(repeating: "0", count: places - digits.count + 1) + digits : digits
    let cut = padded.index(padded.endIndex, offsetBy: -places)
    return padded[..<cut] + "." + padded[cut...]
  }

  /// `num/den` (positive, not terminating) with `digits` significant digits, truncated, and `…`.
  func truncated(_ num: BigInteger, _ den: BigInteger) -> String {
    let (whole, rem) = num.quotientAndRemainder(dividingBy: den)
    if !whole.isZero {
      let wholeText = whole.string()
      let places = max(digits - wholeText.count, 1)
      let frac = rem * BigInteger.power(10, places) / den
      return wholeText + "." + NumberFormatter.zeroPadded(frac.string(), places) + "…"
    }
    // Leading zeros after the point: the largest z with rem·10^(z+1) < den.
    var zeros = max(0, Int(Double(den.bitWidth - rem.bitWidth) * 0.30102999566398) - 1)
    var scaled = rem * BigInteger.power(10, zeros + 1)  // rem·10^(zeros+1), kept in step with zeros
    while scaled < den {
      zeros += 1
      scaled = scaled * 10
    }
    while zeros > 0 && scaled / 10 >= den {
      zeros -= 1
      scaled = scaled / 10
    }
    let significant = (scaled * BigInteger.power(10, digits - 1) / den).string()
    if zeros >= 9 {
      return NumberFormatter.scientific(significant, exponent: -(zeros + 1), ellipsis: true)
    }
    return "0." + String(repeating: "0", count: zeros) + significant + "…"
  }

  static func zeroPadded(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }

  /// `d.ddd…e±x` from a digit string whose first digit is the units digit.
  static func scientific(_ digits: String, exponent: Int, ellipsis: Bool) -> String {
    var mantissa = String(digits.prefix(1))
    let rest = digits.dropFirst()
    if !rest.isEmpty { mantissa += "." + rest }
    return mantissa + (ellipsis ? "…" : "") + "e" + String(exponent)
  }

  /// An approximation with `digits` significant digits, each certain and the last correctly
  /// rounded (trailing zeros removed); fewer, and a word on it, when no more can be known.
  public func formatApproximate(_ x: Real) -> String {
    switch x.digits(digits) {
    case .digits(let text, let exponent, let negative):
      var significant = Substring(text)
      while significant.count > 1 && significant.hasSuffix("0") { significant = significant.dropLast() }
      let known = text.count < digits ? " (only \(text.count) digits can be known)" : ""
      return (negative ? "-" : "")
        + NumberFormatter.positional(String(significant), exponent: exponent - 1, digits: digits)
        + known
    case .nearZero(let exponent):
      return "0 (to within 1e\(exponent); its sign could not be told)"
    case .unknown:
      return "? (no digit of it could be worked out)"
    }
  }

  /// Significant digits `d₁d₂…` of the value d₁.d₂… × 10^exponent, in positional notation
  /// when the exponent is small (from -5 to under `digits`), in scientific notation otherwise.
  static func positional(_ text: String, exponent: Int, digits: Int) -> String {
    if exponent < -5 || exponent >= max(digits, text.count) {
      return scientific(text, exponent: exponent, ellipsis: false)
    }
    if exponent >= 0 {
      if text.count <= exponent + 1 { return text + String(repeating: "0", count: exponent + 1 - text.count) }
      let cut = text.index(text.startIndex, offsetBy: exponent + 1)
      return text[..<cut] + "." + text[cut...]
    }
    return "0." + String(repeating: "0", count: -exponent - 1) + text
  }

  static func powerOfTen(_ e: Int) -> Rational {
    let p = Rational(BigInteger.power(10, abs(e)))
    return e >= 0 ? p : p.reciprocal
  }
}
