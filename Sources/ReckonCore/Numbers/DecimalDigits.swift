import BigInt

/// Conversions between big integers and decimal digits that stay fast for 100,000 digits.
///
/// BigInt's own `String(n)` divides by 10^19 once per word, and `BigUInt(String)` multiplies
/// by it once per word: both take time quadratic in the number of words, with a machine
/// division in each step (0.45 s for 100,000 digits). Here large numbers are split in halves
/// at powers 10^(19·2^k) instead — divide and conquer, as GMP does — so the work is a few big
/// divisions and multiplications (BigInt multiplies by Karatsuba), several times faster.
public enum DecimalDigits {
  /// Below this many words BigInt's own conversion is as fast.
  static let smallWords = 40

  /// 10^19, the largest power of ten in a 64-bit word.
  static let wordPower = BigUInt(10_000_000_000_000_000_000 as UInt64)

  /// 10^(19·2^k) for k = 0, 1, … while the power has at most `bits` bits.
  static func powers(upTo bits: Int) -> [BigUInt] {
    var powers = [wordPower]
    while powers[powers.count - 1].bitWidth * 2 - 1 <= bits {
      powers.append(powers[powers.count - 1] * powers[powers.count - 1])
    }
    return powers
  }

  /// The decimal digits of `n`, without sign or leading zeros ("0" for zero).
  public static func string(_ n: BigUInt) -> String {
    // One or two words (the usual big integer, 84^11): through UInt128, one allocation.
    if n.words.count <= 2 { return String(UInt128(n.words.first ?? 0) | UInt128(n.words.dropFirst().first ?? 0) << 64) }
    if n.words.count <= smallWords { return String(n) }
    let powers = powers(upTo: n.bitWidth)
    var out: [UInt8] = []
    out.reserveCapacity(Int(Double(n.bitWidth) * 0.30103) + 2)
    write(n, level: powers.count - 1, width: nil, powers: powers, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The digits of a signed integer, with "-" for a negative one.
  public static func string(_ n: BigInt) -> String {
    (n.sign == .minus && !n.isZero ? "-" : "") + string(n.magnitude)
  }

  /// Appends `n`'s digits, zero-padded on the left to `width` when given. With a width,
  /// n < powers[level + 1] (it is the low half of a split one level up), so each half fits
  /// in half the width.
  static func write(_ n: BigUInt, level: Int, width: Int?, powers: [BigUInt], into out: inout [UInt8]) {
    if level < 0 || n.words.count <= smallWords {
      let digits = String(n).utf8
      if let width, digits.count < width {
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count))
      }
      out.append(contentsOf: digits)
      return
    }
    let split = 19 << level  // the digits of powers[level]
    if width == nil && n < powers[level] {
      write(n, level: level - 1, width: nil, powers: powers, into: &out)
      return
    }
    let (high, low) = n.quotientAndRemainder(dividingBy: powers[level])
    write(high, level: level - 1, width: width.map { $0 - split }, powers: powers, into: &out)
    write(low, level: level - 1, width: split, powers: powers, into: &out)
  }

  /// The value of a string of ASCII digits (no sign, no separators).
  public static func value(_ digits: String) -> BigUInt {
    let bytes = Array(digits.utf8)
    if bytes.count <= smallWords * 19 { return BigUInt(digits) ?? 0 }
    // The powers up to the square root of the value, as `string` uses.
    return value(bytes[...], powers: powers(upTo: Int(Double(bytes.count) * 3.321928094887362) + 1))
  }

  /// Splits off the last 19·2^k digits (the largest power there is below the count) and
  /// joins the halves.
  static func value(_ digits: ArraySlice<UInt8>, powers: [BigUInt]) -> BigUInt {
    if digits.count <= smallWords * 19 { return BigUInt(String(decoding: digits, as: UTF8.self)) ?? 0 }
    var level = powers.count - 1
    while (19 << level) >= digits.count { level -= 1 }
    let cut = digits.endIndex - (19 << level)
    return value(digits[..<cut], powers: powers) * powers[level] + value(digits[cut...], powers: powers)
  }
}
