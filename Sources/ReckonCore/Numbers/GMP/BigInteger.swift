import CGMP

/// One GMP integer (`mpz_t`), owned: made by `init`, freed in `deinit`. It lives behind its
/// own pointer, so passing the same value as two arguments of one GMP call is fine (Swift's
/// exclusivity rules would refuse two `inout`s of one stored property).
final class MPZ: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<__mpz_struct>

  init() {
    pointer = .allocate(capacity: 1)
    __gmpz_init(pointer)
  }

  deinit {
    __gmpz_clear(pointer)
    pointer.deallocate()
  }
}

/// An integer of any size, with value semantics: each value is an `MPZ` that nothing changes
/// after it is made, and every operation makes a new one.
///
/// GMP aborts the process when it cannot allocate, so callers bound sizes before big
/// operations (the evaluator's digit limit does); nothing here traps otherwise: division by
/// zero is the caller's to rule out, as for Swift's own integers.
public struct BigInteger: Sendable {
  let mpz: MPZ

  /// A new integer, set by `body` (which gets an initialised, zero mpz to write).
  @inline(__always)
  init(_ body: (UnsafeMutablePointer<__mpz_struct>) -> Void) {
    let z = MPZ()
    body(z.pointer)
    mpz = z
  }

  var pointer: UnsafeMutablePointer<__mpz_struct> { mpz.pointer }

  public init(_ value: Int) { self.init { __gmpz_set_si($0, value) } }
  public init(_ value: Int64) { self.init(Int(value)) }
  public init(_ value: UInt64) { self.init { __gmpz_set_ui($0, UInt(value)) } }

  public init(_ value: UInt128) {
    self.init { z in
      __gmpz_set_ui(z, UInt(truncatingIfNeeded: value >> 64))
      __gmpz_mul_2exp(z, z, 64)
      __gmpz_add_ui(z, z, UInt(truncatingIfNeeded: value))
    }
  }

  /// The integer written in `digits` (ASCII 0–9 only, at least one); nil otherwise.
  public init?(decimal digits: some StringProtocol) {
    self.init(digits: digits, radix: 10)
  }

  /// The integer written in `digits` in base `radix` (2 to 36: ASCII digits, then letters of
  /// either case for 10 to 35; at least one, each below `radix`, no sign); nil otherwise.
  public init?(digits: some StringProtocol, radix: Int) {
    guard (2...36).contains(radix), !digits.isEmpty,
      digits.utf8.allSatisfy({ BigInteger.digitValue($0).map { $0 < radix } ?? false })
    else { return nil }
    var text = String(digits)
    let ok = text.withUTF8 { bytes in
      // A NUL-terminated copy: GMP reads a C string.
      let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
      defer { buffer.deallocate() }
      for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
      buffer[bytes.count] = 0
      let z = MPZ()
      guard __gmpz_set_str(z.pointer, buffer, Int32(radix)) == 0 else { return nil as MPZ? }
      return z
    }
    guard let ok else { return nil }
    mpz = ok
  }

  /// The value of an ASCII digit or letter as a digit (0–9, then a or A is 10 … z or Z is 35).
  static func digitValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A")) + 10
    default: nil
    }
  }

  public static let zero = BigInteger(0)
  public static let one = BigInteger(1)

  // MARK: Properties

  /// -1, 0 or 1.
  public var signum: Int { Int(reckon_mpz_sgn(pointer)) }
  public var isZero: Bool { signum == 0 }
  public var isNegative: Bool { signum < 0 }
  public var isOdd: Bool { reckon_mpz_odd_p(pointer) != 0 }

  /// The number of bits of the magnitude (0 for zero).
  public var bitWidth: Int { isZero ? 0 : Int(__gmpz_sizeinbase(pointer, 2)) }

  /// How many times 2 divides the value (0 for zero).
  public var trailingZeroBitCount: Int { isZero ? 0 : Int(__gmpz_scan1(pointer, 0)) }

  /// The value as an `Int`, when it fits.
  public var intValue: Int? { __gmpz_fits_slong_p(pointer) != 0 ? __gmpz_get_si(pointer) : nil }

  /// The value as a `UInt64`, when it is ≥ 0 and fits.
  public var uint64Value: UInt64? {
    guard !isNegative, __gmpz_fits_ulong_p(pointer) != 0 else { return nil }
    return UInt64(__gmpz_get_ui(pointer))
  }

  /// The low 64 bits of the magnitude.
  public var lowWord: UInt64 { UInt64(__gmpz_get_ui(pointer)) }

  public var magnitude: BigInteger { isNegative ? -self : self }

  /// The nearest `Double` toward zero (infinite beyond its range).
  public var doubleValue: Double {
    if bitWidth > 1024 { return isNegative ? -.infinity : .infinity }
    return __gmpz_get_d(pointer)
  }

  /// The value as `m · 2^e` with 0.5 ≤ |m| < 1 (m = 0 for zero), at any size.
  public var binaryParts: (mantissa: Double, exponent: Int) {
    var e = 0
    let m = __gmpz_get_d_2exp(&e, pointer)
    return (m, e)
  }

  // MARK: Arithmetic

  public static prefix func - (x: BigInteger) -> BigInteger { BigInteger { __gmpz_neg($0, x.pointer) } }

  public static func + (a: BigInteger, b: BigInteger) -> BigInteger {
    BigInteger { __gmpz_add($0, a.pointer, b.pointer) }
  }

  public static func - (a: BigInteger, b: BigInteger) -> BigInteger {
    BigInteger { __gmpz_sub($0, a.pointer, b.pointer) }
  }

  public static func * (a: BigInteger, b: BigInteger) -> BigInteger {
    BigInteger { __gmpz_mul($0, a.pointer, b.pointer) }
  }

  public static func * (a: BigInteger, b: Int) -> BigInteger { BigInteger { __gmpz_mul_si($0, a.pointer, b) } }

  /// The quotient rounded toward zero; `b` must not be zero.
  public static func / (a: BigInteger, b: BigInteger) -> BigInteger {
    precondition(!b.isZero, "division by zero")
    return BigInteger { __gmpz_tdiv_q($0, a.pointer, b.pointer) }
  }

  /// The remainder with the dividend's sign; `b` must not be zero.
  public static func % (a: BigInteger, b: BigInteger) -> BigInteger {
    precondition(!b.isZero, "division by zero")
    return BigInteger { __gmpz_tdiv_r($0, a.pointer, b.pointer) }
  }

  /// Quotient toward zero and remainder with the dividend's sign, as Swift's integers do.
  public func quotientAndRemainder(dividingBy b: BigInteger) -> (quotient: BigInteger, remainder: BigInteger) {
    precondition(!b.isZero, "division by zero")
    let q = MPZ()
    let r = MPZ()
    __gmpz_tdiv_qr(q.pointer, r.pointer, pointer, b.pointer)
    return (BigInteger(mpz: q), BigInteger(mpz: r))
  }

  /// Quotient rounded toward −∞ and a remainder with the divisor's sign.
  public func floorDivided(by b: BigInteger) -> (quotient: BigInteger, remainder: BigInteger) {
    precondition(!b.isZero, "division by zero")
    let q = MPZ()
    let r = MPZ()
    __gmpz_fdiv_qr(q.pointer, r.pointer, pointer, b.pointer)
    return (BigInteger(mpz: q), BigInteger(mpz: r))
  }

  /// The exact quotient when `b` is known to divide `self` (faster than a division).
  public func dividedExactly(by b: BigInteger) -> BigInteger {
    precondition(!b.isZero, "division by zero")
    return BigInteger { __gmpz_divexact($0, pointer, b.pointer) }
  }

  /// The remainder of `self` divided by a small positive number.
  public func remainder(dividingBy m: UInt64) -> UInt64 {
    precondition(m > 0, "division by zero")
    return UInt64(__gmpz_fdiv_ui(pointer, UInt(m)))
  }

  public static func << (a: BigInteger, bits: Int) -> BigInteger {
    bits >= 0 ? BigInteger { __gmpz_mul_2exp($0, a.pointer, UInt(bits)) } : a >> -bits
  }

  /// Shifted right, rounding toward −∞ (as for two's complement).
  public static func >> (a: BigInteger, bits: Int) -> BigInteger {
    bits >= 0 ? BigInteger { __gmpz_fdiv_q_2exp($0, a.pointer, UInt(bits)) } : a << -bits
  }

  /// `self` to the power `exponent` (≥ 0). The caller bounds the size first.
  public func power(_ exponent: Int) -> BigInteger {
    precondition(exponent >= 0, "negative exponent")
    return BigInteger { __gmpz_pow_ui($0, pointer, UInt(exponent)) }
  }

  /// `base^exponent` for a machine-word base.
  public static func power(_ base: UInt64, _ exponent: Int) -> BigInteger {
    precondition(exponent >= 0, "negative exponent")
    return BigInteger { __gmpz_ui_pow_ui($0, UInt(base), UInt(exponent)) }
  }

  /// `self` with every factor `f` taken out, and how many there were (`self` ≠ 0, f ≥ 2).
  public func removingFactor(_ f: UInt64) -> (rest: BigInteger, count: Int) {
    precondition(!isZero && f >= 2)
    // Most trial divisors do not divide: telling that costs no copy of a large number.
    if __gmpz_divisible_ui_p(pointer, UInt(f)) == 0 { return (self, 0) }
    let rest = MPZ()
    let factor = MPZ()
    __gmpz_set_ui(factor.pointer, UInt(f))
    let count = __gmpz_remove(rest.pointer, pointer, factor.pointer)
    return (BigInteger(mpz: rest), Int(count))
  }

  /// The greatest common divisor (≥ 0).
  public static func gcd(_ a: BigInteger, _ b: BigInteger) -> BigInteger {
    BigInteger { __gmpz_gcd($0, a.pointer, b.pointer) }
  }

  /// How many decimal digits |self| has (1 for 0), and its first `leading` of them, without
  /// writing out the rest: for a million-digit number, a power of ten and a division whose
  /// quotient is small, 5–10 times faster than all of its digits.
  public func leadingDigits(_ leading: Int) -> (count: Int, digits: String) {
    let n = magnitude
    let count = max(1, Int(__gmpz_sizeinbase(n.pointer, 10)))  // exact or one too many
    guard count > leading + 1 else {
      let text = n.string()
      return (text.count, String(text.prefix(leading)))
    }
    // n / 10^(count − leading − 1) has leading + 1 digits when count is exact, else leading.
    let top = (n / BigInteger.power(10, count - leading - 1)).string()
    return top.count > leading ? (count, String(top.prefix(leading))) : (count - 1, top)
  }

  /// The least common multiple (≥ 0).
  public static func lcm(_ a: BigInteger, _ b: BigInteger) -> BigInteger {
    BigInteger { __gmpz_lcm($0, a.pointer, b.pointer) }
  }

  /// ⌊√self⌋ for self ≥ 0.
  public var squareRoot: BigInteger {
    precondition(!isNegative, "square root of a negative number")
    return BigInteger { __gmpz_sqrt($0, pointer) }
  }

  /// The exact `n`-th root, when `self` is a perfect `n`-th power (a negative value needs an
  /// odd `n`); nil otherwise.
  public func exactRoot(_ n: Int) -> BigInteger? {
    precondition(n >= 1)
    if isNegative && n % 2 == 0 { return nil }
    let root = MPZ()
    let exact = __gmpz_root(root.pointer, pointer, UInt(n))
    return exact != 0 ? BigInteger(mpz: root) : nil
  }

  /// n! for a machine-word n; the caller bounds the size first.
  public static func factorial(_ n: Int) -> BigInteger {
    precondition(n >= 0)
    return BigInteger { __gmpz_fac_ui($0, UInt(n)) }
  }

  /// The product lo·(lo+1)·…·hi (1 when lo > hi), by halves so that the big multiplications
  /// stay balanced. The caller bounds the size first.
  public static func product(_ lo: Int, through hi: Int) -> BigInteger {
    if lo > hi { return .one }
    if hi - lo < 32 {
      return BigInteger { z in
        __gmpz_set_si(z, lo)
        var k = lo
        while k < hi {
          k += 1
          __gmpz_mul_si(z, z, k)
        }
      }
    }
    let mid = lo + (hi - lo) / 2
    return product(lo, through: mid) * product(mid + 1, through: hi)
  }

  /// The binomial coefficient C(self, k), k ≥ 0 (for any integer self, as GMP defines it).
  public func binomial(_ k: Int) -> BigInteger {
    precondition(k >= 0)
    // For n that fits a word GMP has a much faster method (products of prime powers):
    // C(3321000, 1660500), a million digits, takes 0.04 s with it and 1.5 s without.
    if !isNegative, let n = uint64Value {
      return BigInteger { __gmpz_bin_uiui($0, UInt(n), UInt(k)) }
    }
    // C(−n, k) = (−1)^k·C(n + k − 1, k).
    if isNegative, let m = (BigInteger(k) - self - 1).uint64Value {
      let c = BigInteger { __gmpz_bin_uiui($0, UInt(m), UInt(k)) }
      return k % 2 == 1 ? -c : c
    }
    return BigInteger { __gmpz_bin_ui($0, pointer, UInt(k)) }
  }

  /// Whether the value is prime: certainly for values below 2^64 … and with an error
  /// probability below 4^-30 above (GMP's Baillie–PSW plus 25 Miller–Rabin rounds).
  public var isProbablyPrime: Bool { __gmpz_probab_prime_p(pointer, 25) != 0 }

  public static func & (a: BigInteger, b: BigInteger) -> BigInteger {
    BigInteger { __gmpz_and($0, a.pointer, b.pointer) }
  }

  public static func | (a: BigInteger, b: BigInteger) -> BigInteger {
    BigInteger { __gmpz_ior($0, a.pointer, b.pointer) }
  }

  public static func ^ (a: BigInteger, b: BigInteger) -> BigInteger {
    BigInteger { __gmpz_xor($0, a.pointer, b.pointer) }
  }

  /// −self − 1, as two's complement has it.
  public static prefix func ~ (a: BigInteger) -> BigInteger { BigInteger { __gmpz_com($0, a.pointer) } }

  // MARK: Text

  /// The digits in `base` (2 to 36, lower-case letters), with a `-` when negative.
  public func string(base: Int = 10) -> String {
    precondition((2...36).contains(base))
    if let small = intValue { return String(small, radix: base) }
    // sizeinbase may overestimate by one; +2 for the sign and the NUL.
    let capacity = Int(__gmpz_sizeinbase(pointer, Int32(base))) + 2
    return String(unsafeUninitializedCapacity: capacity) { buffer in
      buffer.withMemoryRebound(to: CChar.self) { chars in
        _ = __gmpz_get_str(chars.baseAddress, Int32(base), pointer)
        var length = 0
        while chars[length] != 0 { length += 1 }
        return length
      }
    }
  }
}

extension BigInteger {
  init(mpz: MPZ) { self.mpz = mpz }
}

extension BigInteger: Comparable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { self.init(value) }

  public static func == (a: BigInteger, b: BigInteger) -> Bool { __gmpz_cmp(a.pointer, b.pointer) == 0 }
  public static func < (a: BigInteger, b: BigInteger) -> Bool { __gmpz_cmp(a.pointer, b.pointer) < 0 }

  /// Compares with a machine integer without making a BigInteger of it.
  public static func == (a: BigInteger, b: Int) -> Bool { __gmpz_cmp_si(a.pointer, b) == 0 }
  public static func != (a: BigInteger, b: Int) -> Bool { __gmpz_cmp_si(a.pointer, b) != 0 }

  public func hash(into hasher: inout Hasher) {
    let z = pointer.pointee
    hasher.combine(z._mp_size)
    let limbs = Int(z._mp_size.magnitude)
    for i in 0..<limbs { hasher.combine(z._mp_d[i]) }
  }

  public var description: String { string() }
}
