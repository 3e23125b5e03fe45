/// What a conversion (`255 to hex`, `full 1/7`) makes of a value: its text, or why there is
/// none.
public enum Converted: Sendable, Equatable {
  case text(String)
  case refused(String, hint: String?)
}

extension NumberFormatter {
  /// `value` as a line's `to …` asks for it: a fraction, a percentage, or another base.
  public func converted(_ value: Value, to target: Conversion.Target) -> Converted {
    guard case .quantity(let q) = value else {
      return .refused("true and false are not numbers: they cannot be converted", hint: nil)
    }
    switch converted(q.number, to: target) {
    case .text(let text): return .text(text + NumberFormatter.suffix(q.unit))
    case .refused(let why, let hint): return .refused(why, hint: hint)
    }
  }

  /// `number` as a line's `to …` asks for it.
  public func converted(_ value: Number, to target: Conversion.Target) -> Converted {
    switch target {
    case .fraction: return fraction(value)
    case .percent: return .text(percent(value))
    case .hex, .oct, .bin, .base:
      let (radix, prefix) = target.radix!
      return inBase(value, radix: radix, prefix: prefix)
    case .unit:
      // The evaluator converts to units (Evaluator.converted); a number shows as itself.
      return .text(format(value))
    }
  }

  // MARK: Other bases

  /// The most zeros written between the point and the first digit of a number in another base
  /// (other bases have no scientific notation here).
  public static let maxLeadingZeros = 1000

  /// `value` written in base `radix` (2 to 36, digits then lower-case letters): after `prefix`
  /// (`0x`) when there is one, else followed by `(base N)`. Integers in full; other exact
  /// values in full when they end within `digits` significant digits of that base, else cut
  /// there with `…`; approximations with `digits` significant digits of that base, correctly
  /// rounded. With `separators`, the integer part's digits are grouped in fours with `_` (as
  /// the input allows: `0xffff_ffff`).
  public func inBase(_ value: Number, radix: Int, prefix: String?) -> Converted {
    precondition((2...36).contains(radix))
    let body: String
    let negative: Bool
    var approximate = false
    switch value {
    case .exact(let r):
      switch exactText(r, radix: radix) {
      case .text(let text): body = text
      case .refused(let why, let hint): return .refused(why, hint: hint)
      }
      negative = r.isNegative
    case .multiple, .approx:
      switch approximateText(value.real, radix: radix) {
      case .text(let text): body = text
      case .refused(let why, let hint): return .refused(why, hint: hint)
      }
      negative = value.isNegative
      approximate = true
    }
    let marked = prefix.map { $0 + body } ?? body + " (base \(radix))"
    return .text((approximate ? "≈ " : "") + (negative ? "-" : "") + marked)
  }

  /// The digits of |r| in base `radix`, with a point and `…` where they are cut.
  func exactText(_ r: Rational, radix: Int) -> Converted {
    let num = r.numerator.magnitude
    let den = r.denominator
    let (whole, rem) = num.quotientAndRemainder(dividingBy: den)
    let wholeDigits = whole.string(base: radix)
    let wholeText = separators ? NumberFormatter.grouped(wholeDigits, by: 4, with: "_", letters: true) : wholeDigits
    if rem.isZero { return .text(wholeText) }
    let allowed: Int
    if !whole.isZero {
      allowed = max(digits - wholeDigits.count, 1)
    } else {
      guard let zeros = NumberFormatter.leadingZeros(rem, den, radix: radix) else {
        return .refused(
          "too small to write in base \(radix): its first digit would be more than "
            + "\(NumberFormatter.maxLeadingZeros.grouped) places after the point", hint: nil)
      }
      allowed = zeros + digits
    }
    let ending = NumberFormatter.terminatingPlaces(den, radix: radix)
    let places = min(ending ?? allowed, allowed)
    let fraction = (rem * BigInteger.power(UInt64(radix), places)) / den
    let text = wholeText + "." + NumberFormatter.zeroPadded(fraction.string(base: radix), places)
    return .text(text + (ending.map { $0 <= allowed } == true ? "" : "…"))
  }

  /// The digits of |x| in base `radix`, `digits` significant ones correctly rounded (trailing
  /// zeros left out), with a point.
  func approximateText(_ x: Real, radix: Int) -> Converted {
    switch x.digits(digits, base: radix) {
    case .digits(let text, let exponent, _):
      // x = ±0.d₁d₂… × radix^exponent
      var significant = Substring(text)
      while significant.count > 1 && significant.hasSuffix("0") { significant = significant.dropLast() }
      let known = text.count < digits ? " (only \(text.count) digits can be known)" : ""
      if exponent > digits {
        return .refused(
          "too large to write in base \(radix) with \(digits) significant digits: its integer part has "
            + "\(exponent.grouped) digits, and only the first \(text.count) are known",
          hint: "floor(…) or round(…) converts the integer part exactly")
      }
      if exponent <= 0 {
        guard -exponent <= NumberFormatter.maxLeadingZeros else {
          return .refused(
            "too small to write in base \(radix): its first digit would be more than "
              + "\(NumberFormatter.maxLeadingZeros.grouped) places after the point", hint: nil)
        }
        return .text("0." + String(repeating: "0", count: -exponent) + significant + known)
      }
      var whole = String(significant.prefix(exponent))
      if whole.count < exponent { whole += String(repeating: "0", count: exponent - whole.count) }
      let rest = significant.dropFirst(exponent)
      if separators { whole = NumberFormatter.grouped(whole, by: 4, with: "_", letters: true) }
      return .text(whole + (rest.isEmpty ? "" : "." + rest) + known)
    case .nearZero:
      return .refused("too close to zero to write in base \(radix): not even its sign can be told", hint: nil)
    case .unknown:
      return .refused("no digit of this value could be worked out", hint: nil)
    }
  }

  /// The number of places after the point at which `1/den` ends in base `radix`; nil when it
  /// never does (`den` has a prime factor that `radix` has not).
  static func terminatingPlaces(_ den: BigInteger, radix: Int) -> Int? {
    var rest = den
    var places = 0
    var r = radix
    var p = 2
    while r > 1 {
      var power = 0  // how many times p divides the radix
      while r % p == 0 {
        r /= p
        power += 1
      }
      if power > 0 {
        let (left, count) = rest.removingFactor(UInt64(p))
        rest = left
        places = max(places, (count + power - 1) / power)
      }
      p += 1
    }
    return rest == 1 ? places : nil
  }

  /// How many zeros stand between the point and the first digit of rem/den (0 < rem < den) in
  /// base `radix`; nil when there are more than `maxLeadingZeros`.
  static func leadingZeros(_ rem: BigInteger, _ den: BigInteger, radix: Int) -> Int? {
    // A lower bound from the sizes (bits per digit rounded up), then one digit at a time.
    let bitsPerDigit = Int.bitWidth - (radix - 1).leadingZeroBitCount
    var zeros = max(0, (den.bitWidth - rem.bitWidth - 1) / bitsPerDigit - 1)
    guard zeros <= maxLeadingZeros else { return nil }
    var scaled = rem * BigInteger.power(UInt64(radix), zeros + 1)
    while scaled < den {
      zeros += 1
      if zeros > maxLeadingZeros { return nil }
      scaled = scaled * radix
    }
    return zeros
  }

  // MARK: Fractions and percentages

  /// An exact value as a fraction in lowest terms (`3/4`, `-7/3`; an integer as it is).
  public func fraction(_ value: Number) -> Converted {
    switch value {
    case .exact(let r):
      if r.isInteger { return .text(grouped(r.numerator.string())) }
      return .text(grouped(r.numerator.string()) + "/" + grouped(r.denominator.string()))
    case .multiple(let r, let c):
      return .refused(
        "\(NumberFormatter.symbolic(r, c)) is irrational: no fraction is equal to it",
        hint: "round(x, 4) to fraction gives a fraction within 0.00005 of x")
    case .approx:
      return .refused(
        "an approximation (≈) has no exact fraction: its value is only known to some digits",
        hint: "round(x, 4) to fraction gives a fraction within 0.00005 of x")
    }
  }

  /// A value as a percentage: 100 times it, as the formatter writes it, and `%`.
  public func percent(_ value: Number) -> String {
    let hundred = Rational(100)
    let times: Number =
      switch value {
      case .exact(let r): .exact(r * hundred)
      case .multiple(let r, let c): Number.product(r * hundred, c)
      case .approx(let x): .approx(x * Real.rational(hundred))
      }
    return format(times) + "%"
  }

  // MARK: Full

  /// At most this many decimals of a value whose decimals do not end.
  public static let maxRepeatingPlaces = 10_000

  /// A value in full, whatever the digits setting and format say: an integer or a terminating
  /// decimal with every digit; another exact rational as its fraction and its decimals, with
  /// the part that repeats forever in brackets (`1/6 = 0.1[6]`, as far as
  /// `maxRepeatingPlaces`); a multiple of π or e as its exact form and an approximation.
  /// An approximation has no full form.
  public func full(_ value: Value) -> Converted {
    switch value {
    case .truth(let t): return .text(t ? "true" : "false")
    case .quantity(let q):
      switch full(q.number) {
      case .text(let text): return .text(text + NumberFormatter.suffix(q.unit))
      case .refused(let why, let hint): return .refused(why, hint: hint)
      }
    }
  }

  /// A number in full (see `full(_:)` for a value).
  public func full(_ value: Number) -> Converted {
    switch value {
    case .exact(let r):
      if let text = exactDecimal(r) { return .text(grouped(text)) }
      guard case .text(let fraction) = fraction(value) else { return .text(repeatingDecimal(r)) }
      return .text(fraction + " = " + repeatingDecimal(r))
    case .multiple(let r, let c):
      return .text(NumberFormatter.symbolic(r, c) + " " + grouped("≈ " + formatApproximate(value.real)))
    case .approx:
      return .refused(
        "an approximation (≈) has no full form: its digits never end, and only some are known",
        hint: "set digits N shows up to 10,000 of them")
    }
  }

  /// The decimals of a rational that does not terminate (or terminates past `maxExactPlaces`):
  /// the part before the cycle, then the cycle in brackets; cut with `…` and a word on why
  /// past `maxRepeatingPlaces` decimals.
  func repeatingDecimal(_ r: Rational) -> String {
    let num = r.numerator.magnitude
    let den = r.denominator
    let (whole, rem) = num.quotientAndRemainder(dividingBy: den)
    let limit = NumberFormatter.maxRepeatingPlaces
    let start = (r.isNegative ? "-" : "") + grouped(whole.string()) + "."
    let twos = den.trailingZeroBitCount
    let (rest, fives) = (den >> twos).removingFactor(5)
    let before = max(twos, fives)  // decimals before the cycle
    if before >= limit {
      let shown = rem * BigInteger.power(10, limit) / den
      let why =
        rest == 1
        ? "the decimals end after \(before.grouped)" : "a cycle of repeating decimals starts after \(before.grouped)"
      return start + NumberFormatter.zeroPadded(shown.string(), limit) + "… (the first \(limit.grouped) decimals; "
        + why + ")"
    }
    let scaled = rem * BigInteger.power(10, before)
    let (head, cycleStart) = scaled.quotientAndRemainder(dividingBy: den)
    let headText = before > 0 ? NumberFormatter.zeroPadded(head.string(), before) : ""
    // The cycle's length p makes `rest` divide 10^p − 1, so p has more digits than `rest`: a
    // `rest` of that many digits is written out at once rather than digit by digit.
    let (cycle, complete) =
      Double(rest.bitWidth - 1) * 0.30102999566398 >= Double(limit - before)
      ? (
        NumberFormatter.zeroPadded((cycleStart * BigInteger.power(10, limit - before) / den).string(), limit - before),
        false
      )
      : NumberFormatter.cycle(from: cycleStart, den, maxLength: limit - before)
    if complete { return start + headText + "[" + cycle + "]" }
    return start + headText + cycle + "… (the first \(limit.grouped) decimals; they repeat in a cycle of more than "
      + "\((limit - before).grouped))"
  }

  /// The decimals of rem/den from `rem` on until the remainder comes back to `rem` (the cycle
  /// of a purely periodic part), at most `maxLength` of them; whether the cycle closed.
  static func cycle(from rem: BigInteger, _ den: BigInteger, maxLength: Int) -> (String, Bool) {
    var digits: [UInt8] = []
    if let d = den.uint64Value, let first = rem.uint64Value {
      let d = UInt128(d)
      var r = UInt128(first)
      repeat {
        r *= 10
        digits.append(UInt8(ascii: "0") + UInt8(r / d))
        r %= d
      } while r != UInt128(first) && digits.count < maxLength
      return (String(decoding: digits, as: UTF8.self), r == UInt128(first))
    }
    var r = rem
    repeat {
      let (q, next) = (r * 10).quotientAndRemainder(dividingBy: den)
      digits.append(UInt8(ascii: "0") + UInt8(q.intValue!))
      r = next
    } while r != rem && digits.count < maxLength
    return (String(decoding: digits, as: UTF8.self), r == rem)
  }

  /// r·π^a·e^b as it is written, in a form Reckon reads back: `2π`, `π^2/6`, `3/(2π)`, `-e^3`,
  /// `2π·e`.
  public static func symbolic(_ r: Rational, _ c: Number.Constants) -> String {
    func power(_ name: String, _ k: Int) -> String? {
      k == 0 ? nil : k.magnitude == 1 ? name : "\(name)^\(k.magnitude)"
    }
    let numerator = r.numerator.magnitude
    let denominator = r.denominator
    let upper = [power("π", max(c.pi, 0)), power("e", max(c.e, 0))].compactMap { $0 }
    let lower = [power("π", min(c.pi, 0)), power("e", min(c.e, 0))].compactMap { $0 }
    var top = numerator == 1 && !upper.isEmpty ? "" : numerator.string()
    top += upper.joined(separator: "·")
    var bottom = denominator == 1 ? "" : denominator.string()
    bottom += lower.joined(separator: "·")
    if !bottom.isEmpty && (denominator != 1 ? 1 : 0) + lower.count > 1 { bottom = "(" + bottom + ")" }
    return (r.isNegative ? "-" : "") + top + (bottom.isEmpty ? "" : "/" + bottom)
  }
}
