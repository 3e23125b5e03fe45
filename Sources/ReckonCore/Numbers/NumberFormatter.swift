/// Turns values into the text Reckon prints.
///
/// - Integers print in full, in every style: `2^200` shows all 61 digits.
/// - In the automatic style (the default), other exact values print at most `digits`
///   significant digits (never cutting the integer part, and at least one decimal): a
///   terminating decimal that fits prints in full (`0.3`, `0.0009765625`); a longer one, or one
///   that does not end, is cut (truncated, not rounded) and marked `…`: `0.3333333333…`. Tiny
///   ones switch to scientific notation.
/// - `fixed(N)`: exactly N decimals, rounded half away from zero; a value that rounding
///   changed is marked `≈`. `scientific` and `engineering`: `d.ddd…e±x` with `digits`
///   significant digits (the exponent a multiple of 3 in engineering), cut and marked `…` when
///   more digits follow.
/// - Approximations print `≈ ` and `digits` significant digits, every one certain and the last
///   correctly rounded (in the fixed style, N decimals correctly rounded).
/// - `separators` puts a comma between each group of three digits of the integer part.
public struct NumberFormatter: Sendable {
  /// Significant digits for results that are cut or approximate (`set digits N`).
  public var digits: Int
  /// Terminating decimals with more places than this print like non-terminating ones.
  public var maxExactPlaces = 1_000_000
  /// How non-integers are written (`set format`).
  public var style = Style.automatic
  /// Whether the integer part's digits are grouped in threes with commas (`set separators`).
  public var separators = false

  /// The ways of writing a number that `set format` chooses from.
  public enum Style: Sendable, Hashable {
    /// Decimals in full when they fit the digits setting, else cut with `…`.
    case automatic
    /// Exactly this many decimals (0 to `maxFixedPlaces`), rounded half away from zero.
    case fixed(Int)
    /// `d.ddd…e±x`.
    case scientific
    /// `d.ddd…e±x`, `dd.dd…` or `ddd.d…` with the exponent a multiple of 3.
    case engineering

    public static let maxFixedPlaces = 1000

    /// The words `set format` takes and the settings keep: `auto`, `fixed 2`, `sci`, `eng`.
    public var name: String {
      switch self {
      case .automatic: "auto"
      case .fixed(let n): "fixed \(n)"
      case .scientific: "sci"
      case .engineering: "eng"
      }
    }

    /// The style `name` gives back; nil for any other text.
    public init?(name: String) {
      let words = name.split(separator: " ")
      switch words.first {
      case "auto" where words.count == 1: self = .automatic
      case "sci" where words.count == 1: self = .scientific
      case "eng" where words.count == 1: self = .engineering
      case "fixed" where words.count == 2:
        guard let n = Int(words[1]), (0...Style.maxFixedPlaces).contains(n) else { return nil }
        self = .fixed(n)
      default: return nil
      }
    }
  }

  public init(digits: Int = 10) {
    self.digits = digits
  }

  /// A value as Reckon prints it: a quantity's number in the formatter's style, then its
  /// unit; true or false.
  public func format(_ value: Value) -> String {
    switch value {
    case .quantity(let q): NumberFormatter.withUnit(number(of: q), q.unit)
    case .truth(let t): t ? "true" : "false"
    }
  }

  /// A quantity's number as it shows: an exact amount of money (a currency, alone) that is
  /// not whole to its minor unit, as money is written (95.13 EUR, 12346 JPY, 129.60 USD),
  /// with ≈ when that rounded it (`full` shows every digit); anything else in the
  /// formatter's style.
  public func number(of q: Quantity) -> String {
    guard style == .automatic, q.unit.count == 1, q.unit[0].power == 1, q.unit[0].prefix == 0,
      case .exact(let r) = q.number, !r.isInteger,
      let digits = UnitTable.standard.units[Int(q.unit[0].unit)].currencyDigits
    else { return format(q.number) }
    return grouped(fixed(r, places: digits))
  }

  /// A number in the formatter's style.
  public func format(_ number: Number) -> String {
    switch number {
    case .exact(let r): format(r)
    case .multiple, .approx: grouped(approximate(number.real))
    }
  }

  /// A quantity's text: its number's, then its unit, before any note on the number
  /// (`≈ 6.6743e-11 m³/(kg·s²) (only 5 digits can be known)`).
  static func withUnit(_ number: String, _ unit: Unit) -> String {
    unit.isNone ? number : withUnit(number, text: unit.description)
  }

  /// A number's text and a unit written as `text` (`L/100km`), the note on the number last.
  public static func withUnit(_ number: String, text unitText: String) -> String {
    withUnit(number, suffix: suffix(text: unitText))
  }

  /// What follows a number for a unit written as `text`: a space and the text, or the text
  /// alone for a symbol that sits on the number (`50%`, `30°`).
  public static func suffix(text unitText: String) -> String {
    (isAttached(unitText) ? "" : " ") + unitText
  }

  /// A number's text and a unit's `suffix` (as `suffix(text:)` makes it), the note on the
  /// number last.
  public static func withUnit(_ number: String, suffix: String) -> String {
    // (By bytes: a Character search breaks the text into graphemes, 4,000 instructions a line.)
    let bytes = number.utf8
    if let open = bytes.firstIndex(of: UInt8(ascii: "(")), open > bytes.startIndex,
      bytes[bytes.index(before: open)] == UInt8(ascii: " ")
    {
      return String(number[..<bytes.index(before: open)]) + suffix + " " + number[open...]
    }
    return number + suffix
  }

  /// What follows a quantity's number: a space and its unit (none before a symbol that sits
  /// on the number: `50%`, `30°`, `15'`), or nothing for a plain number.
  static func suffix(_ unit: Unit) -> String {
    unit.isNone ? "" : suffix(text: unit.description)
  }

  /// Whether a unit's text sits on the number (`attached`). Most units start with a letter,
  /// and those are told by one byte before the set is hashed.
  static func isAttached(_ text: String) -> Bool {
    guard let first = text.utf8.first,
      first == UInt8(ascii: "%") || first == UInt8(ascii: "'") || first == UInt8(ascii: "\"") || first >= 0xC0
    else { return false }
    return attached.contains(text)
  }

  /// Unit symbols written against the number, with no space.
  public static let attached: Set = ["%", "‰", "°", "'", "\"", "′", "″"]

  /// An exact rational, in the formatter's style.
  public func format(_ r: Rational) -> String {
    if case .small(let n, 1) = r.storage { return grouped(String(n)) }
    if r.isInteger { return grouped(r.numerator.string()) }
    switch style {
    case .automatic: return grouped(automatic(r))
    case .fixed(let places): return grouped(fixed(r, places: places))
    case .scientific: return scientific(r, engineering: false)
    case .engineering: return scientific(r, engineering: true)
    }
  }

  /// The text of an integer of at most three digits (which no setting changes); nil for any
  /// other value. A session prints these without reading its settings.
  public static func settingsFree(_ r: Rational) -> String? {
    guard case .small(let n, 1) = r.storage, n > -1000 && n < 1000 else { return nil }
    return String(n)
  }

  /// An approximation, with `≈ `, in the formatter's style.
  func approximate(_ x: Real) -> String {
    switch style {
    case .automatic: return "≈ " + formatApproximate(x)
    case .fixed(let places):
      // N decimals, correctly rounded, when both ends of an enclosure round alike; else (a value
      // too large, or on a half) as the automatic style writes it.
      if case .value(let q) = x.exactly(
        maxBits: NumberFormatter.maxFixedApproximationBits, { $0.rounded(places: places) })
      {
        let negativeZero = q.isZero && x.sign == -1
        return "≈ " + (negativeZero ? "-" : "") + NumberFormatter.padded(q, places: places)
      }
      return "≈ " + formatApproximate(x)
    case .scientific, .engineering:
      switch x.digits(digits) {
      case .digits(let text, let exponent, let negative):
        let known = text.count < digits ? " (only \(text.count) digits can be known)" : ""
        return "≈ " + (negative ? "-" : "")
          + NumberFormatter.mantissa(text, exponent: exponent - 1, engineering: style == .engineering, cut: false)
          + known
      default: return "≈ " + formatApproximate(x)
      }
    }
  }

  /// The largest approximation the fixed style writes out in full: about 1,200 digits.
  static let maxFixedApproximationBits = 4096

  /// A non-integer in the automatic style: in full when it terminates within the digits
  /// shown, else cut with `…`.
  func automatic(_ r: Rational) -> String {
    if case .small(let n, let d) = r.storage {
      if let text = NumberFormatter.smallTerminating(n, d) {
        return fits(text) ? NumberFormatter.tinyInScientific(text) : shortened(r)
      }
      if !NumberFormatter.terminates(UInt64(d)) { return shortened(r) }
    }
    return fittingDecimal(r).map(NumberFormatter.tinyInScientific) ?? shortened(r)
  }

  /// A terminating decimal with nine zeros or more after its point in scientific notation, as
  /// a value that does not terminate is (Planck's constant is 6.62607015e-34, not 34 zeros).
  static func tinyInScientific(_ text: String) -> String {
    let negative = text.hasPrefix("-")
    let unsigned = negative ? String(text.dropFirst()) : text
    guard unsigned.hasPrefix("0.") else { return text }
    let fraction = unsigned.dropFirst(2)
    let zeros = fraction.prefix { $0 == "0" }.count
    guard zeros >= 9, zeros < fraction.count else { return text }
    return (negative ? "-" : "")
      + scientific(String(fraction.dropFirst(zeros)), exponent: -(zeros + 1), ellipsis: false)
  }

  /// Whether a terminating decimal's text shows no more significant digits than `digits`
  /// allows (and at least one decimal, whatever the integer part).
  func fits(_ text: String) -> Bool {
    let unsigned = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
    guard let point = unsigned.firstIndex(of: UInt8(ascii: ".")) else { return true }
    let whole = unsigned.distance(from: unsigned.startIndex, to: point)
    let places = unsigned.distance(from: point, to: unsigned.endIndex) - 1
    if whole > 1 || unsigned.first != UInt8(ascii: "0") { return places <= max(digits - whole, 1) }
    let zeros = unsigned[unsigned.index(after: point)...].prefix { $0 == UInt8(ascii: "0") }.count
    return places - zeros <= digits
  }

  /// A terminating decimal that fits the digits shown, in full; nil for any other value.
  func fittingDecimal(_ r: Rational) -> String? {
    guard let (twos, fives) = NumberFormatter.twosAndFives(r.denominator) else { return nil }
    let places = max(twos, fives)
    guard places <= maxExactPlaces else { return nil }
    // Cheaply ruled out: more places than digits plus the zeros after the point can take.
    let zeros = max(0, Int(Double(r.denominator.bitWidth - r.numerator.magnitude.bitWidth + 1) * 0.30103) + 1)
    guard places <= digits + zeros else { return nil }
    let text = exactDecimal(r)!
    return fits(text) ? text : nil
  }

  /// A value in `fixed(places)`: exactly `places` decimals, and `≈ ` when they are rounded.
  func fixed(_ r: Rational, places: Int) -> String {
    let q = r.rounded(places: places)
    let sign = q.isZero && r.isNegative ? "-" : ""
    return (q == r ? "" : "≈ ") + sign + NumberFormatter.padded(q, places: places)
  }

  /// A value with at most `places` decimals, written with exactly that many.
  static func padded(_ q: Rational, places: Int) -> String {
    var text = NumberFormatter().exactDecimal(q)!  // at most `places` (≤ 1,000) decimals
    guard places > 0 else { return text }
    let have = text.firstIndex(of: ".").map { text.distance(from: text.index(after: $0), to: text.endIndex) }
    if have == nil { text += "." }
    return text + String(repeating: "0", count: places - (have ?? 0))
  }

  /// A non-integer in scientific or engineering notation: `digits` significant digits (in
  /// engineering at least those before the point), cut and marked `…` when more follow.
  func scientific(_ r: Rational, engineering: Bool) -> String {
    let num = r.numerator.magnitude
    let den = r.denominator
    let exponent = NumberFormatter.decimalExponent(num, den)
    let before = engineering ? exponent - NumberFormatter.floorDiv(exponent, 3) * 3 + 1 : 1
    let count = max(digits, before)
    // The first `count` significant digits: ⌊|r|·10^(count − 1 − exponent)⌋.
    let shift = count - 1 - exponent
    let (scaledNum, scaledDen) =
      shift >= 0 ? (num * BigInteger.power(10, shift), den) : (num, den * BigInteger.power(10, -shift))
    let (q, rem) = scaledNum.quotientAndRemainder(dividingBy: scaledDen)
    return (r.isNegative ? "-" : "")
      + NumberFormatter.mantissa(q.string(), exponent: exponent, engineering: engineering, cut: !rem.isZero)
  }

  /// `d.ddd[…]e±x` (or with 2 or 3 digits before the point in engineering notation) from the
  /// significant digits of a value whose first digit is worth 10^exponent.
  static func mantissa(_ text: String, exponent: Int, engineering: Bool, cut: Bool) -> String {
    let e = engineering ? floorDiv(exponent, 3) * 3 : exponent
    let before = exponent - e + 1
    var digits = text
    if digits.count < before { digits += String(repeating: "0", count: before - digits.count) }
    let cutAt = digits.index(digits.startIndex, offsetBy: before)
    let rest = digits[cutAt...]
    return digits[..<cutAt] + (rest.isEmpty ? "" : "." + rest) + (cut ? "…" : "") + "e" + String(e)
  }

  static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

  /// The e with 10^e ≤ num/den < 10^(e+1), for positive num and den.
  static func decimalExponent(_ num: BigInteger, _ den: BigInteger) -> Int {
    var e = Int(Double(num.bitWidth - den.bitWidth) * 0.30102999566398)
    func atLeast(_ e: Int) -> Bool {  // num/den ≥ 10^e
      e >= 0 ? num >= den * BigInteger.power(10, e) : num * BigInteger.power(10, -e) >= den
    }
    while !atLeast(e) { e -= 1 }
    while atLeast(e + 1) { e += 1 }
    return e
  }

  /// `text` with commas between the groups of three digits of its first run of digits (the
  /// integer part), when `separators` is on.
  public func grouped(_ text: String) -> String {
    separators ? NumberFormatter.grouped(text, by: 3, with: ",") : text
  }

  /// `text` with `separator` between the groups of `size` digits of its first run of digits
  /// (ASCII digits and, for other bases, letters; counted from the run's end).
  static func grouped(_ text: String, by size: Int, with separator: Character, letters: Bool = false) -> String {
    let chars = Array(text)
    func isDigit(_ c: Character) -> Bool { c.isASCII && (c.isNumber || (letters && c.isLetter)) }
    guard let start = chars.firstIndex(where: isDigit) else { return text }
    var end = start
    while end < chars.count && isDigit(chars[end]) { end += 1 }
    let run = end - start
    guard run > size else { return text }
    var out = String(chars[..<start])
    for (i, c) in chars[start..<end].enumerated() {
      if i > 0 && (run - i) % size == 0 { out.append(separator) }
      out.append(c)
    }
    out += String(chars[end...])
    return out
  }

  /// A value longer than `digits` significant digits (or one that never ends), cut there and
  /// marked `…`.
  public func shortened(_ r: Rational) -> String {
    if case .small(let n, let d) = r.storage, let text = smallTruncated(n, UInt64(d)) { return text }
    return (r.isNegative ? "-" : "") + truncated(r.numerator.magnitude, r.denominator.magnitude)
  }

  /// An integer or a terminating decimal (of at most `maxExactPlaces` places) in full, whatever
  /// `digits` says (what `full` shows); nil for a value whose decimals do not end.
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
  /// denominator near 64 bits, or a value small enough for `e`). A terminating decimal longer
  /// than `digits` (`256.17^4`) is cut the same way.
  func smallTruncated(_ n: Int64, _ den: UInt64) -> String? {
    guard den < 1 << 59 else { return nil }
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

  /// `num/den` (positive; not terminating, or longer than `digits`) with `digits` significant
  /// digits, truncated, and `…`.
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
