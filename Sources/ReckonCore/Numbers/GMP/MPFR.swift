import CGMP

/// One MPFR number (`mpfr_t`) of a given precision, owned: made by `init`, freed in
/// `deinit`, and changed only by the function that makes it. Behind its own pointer, as
/// `MPZ` is, so one value may be several arguments of a call.
final class MPFR: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<__mpfr_struct>

  /// A NaN of `precision` bits, to be set by the caller at once.
  init(precision: Int) {
    pointer = .allocate(capacity: 1)
    mpfr_init2(pointer, mpfr_prec_t(MPFR.clamp(precision)))
  }

  deinit {
    mpfr_clear(pointer)
    pointer.deallocate()
  }

  /// Precisions MPFR accepts (it asserts, and aborts, outside them).
  static func clamp(_ bits: Int) -> Int { Swift.min(Swift.max(bits, 2), 1 << 40) }

  /// A new number of `precision` bits, set by `body`. (First the widest exponent range:
  /// 9^9^9 is about 2^1.2e9, past MPFR's default; MPFR keeps the range per thread.)
  static func make(_ precision: Int, _ body: (UnsafeMutablePointer<__mpfr_struct>) -> Void) -> MPFR {
    reckon_mpfr_widen_exponents()
    let x = MPFR(precision: precision)
    body(x.pointer)
    return x
  }

  static func rational(_ r: Rational, _ precision: Int, _ rounding: mpfr_rnd_t) -> MPFR {
    if case .small(let n, 1) = r.storage {
      return make(precision) { mpfr_set_si($0, Int(n), rounding) }
    }
    let q = r.mpq
    return withExtendedLifetime(q) { make(precision) { mpfr_set_q($0, q.pointer, rounding) } }
  }

  static func infinity(_ sign: Int32) -> MPFR { make(2) { mpfr_set_inf($0, sign) } }

  var isNaN: Bool { mpfr_nan_p(pointer) != 0 }
  var isInfinite: Bool { mpfr_inf_p(pointer) != 0 }
  var isFinite: Bool { mpfr_number_p(pointer) != 0 }
  var isZero: Bool { mpfr_zero_p(pointer) != 0 }
  /// -1, 0 or 1 (0 also for NaN).
  var sign: Int { Int(reckon_mpfr_sgn(pointer)) }
  var precision: Int { Int(mpfr_get_prec(pointer)) }

  /// The exact value of a finite number.
  var rational: Rational {
    precondition(isFinite)
    return Rational.computed { mpfr_get_q($0, pointer) }
  }

  /// -1, 0 or 1 as `self` is below, at or above `other` (NaN: 0).
  func compare(_ other: MPFR) -> Int { Int(mpfr_cmp(pointer, other.pointer)) }

  /// The `digits` significant digits in `base` (2 to 36; decimal unless asked, letters in
  /// lower case) of a finite, non-zero number, rounded as asked, and the exponent `e` such that
  /// the value is 0.d₁d₂… × base^e.
  func decimal(_ digits: Int, _ rounding: mpfr_rnd_t, base: Int = 10) -> (digits: String, exponent: Int) {
    precondition(isFinite && !isZero && digits >= 1)
    var exponent: mpfr_exp_t = 0
    let text = String(unsafeUninitializedCapacity: digits + 2) { buffer in
      buffer.withMemoryRebound(to: CChar.self) { chars in
        _ = mpfr_get_str(chars.baseAddress, &exponent, Int32(base), digits, pointer, rounding)
        var length = 0
        while chars[length] != 0 { length += 1 }
        return length
      }
    }
    return (text.hasPrefix("-") ? String(text.dropFirst()) : text, Int(exponent))
  }
}
