import BigInt

/// The greatest common divisor of two big integers by Lehmer's algorithm (Knuth, TAOCP
/// vol. 2, 4.5.2, Algorithm L).
///
/// BigInt's own `greatestCommonDivisor` is Stein's binary algorithm: it removes one bit per
/// pass over the whole number, so reducing a 300,000-bit fraction made 300,000 passes
/// (over a second). Lehmer runs Euclid's algorithm on the leading 62 bits of both numbers
/// in machine words, then applies the accumulated 2×2 matrix of cofactors to the full
/// numbers in one pass: about 30 bits per pass (Knuth's test stops once the cofactors
/// reach about half the leading bits). When the leading bits cannot decide a
/// quotient (the numbers differ greatly in size, or a quotient is huge), it takes one
/// ordinary division step instead.
enum LehmerGCD {
  /// gcd(a, b) for any two non-negative integers.
  static func gcd(_ a: BigUInt, _ b: BigUInt) -> BigUInt {
    var x = Array(a.words)
    var y = Array(b.words)
    trim(&x)
    trim(&y)
    if compare(x, y) < 0 { swap(&x, &y) }
    // Invariant: x >= y. Lehmer steps while y needs more than one word.
    while y.count > 1 {
      let (m, applied) = cofactors(x, y)
      if applied {
        combine(&x, &y, m)
      } else {
        let r = BigUInt(words: x) % BigUInt(words: y)
        x = y
        y = Array(r.words)
        trim(&y)
      }
    }
    if y.isEmpty { return BigUInt(words: x) }
    // y is one word: one division brings x down to a word too.
    let r = UInt64(BigUInt(words: x) % BigUInt(UInt64(y[0])))
    return BigUInt(Rational.gcd(UInt64(y[0]), r))
  }

  /// The cofactor matrix `(A, B, C, D)` of Euclid's steps that the leading 62 bits of
  /// `x >= y` decide, so that `A·x + B·y` and `C·x + D·y` are the remainders those steps
  /// reach; `applied` is false when not even one step could be decided.
  private static func cofactors(_ x: [UInt], _ y: [UInt]) -> (
    (Int64, Int64, Int64, Int64), applied: Bool
  ) {
    let shift = Swift.max(0, bitWidth(x) - 62)
    var u = Int64(bits(x, from: shift))
    var v = Int64(bits(y, from: shift))
    var (a, b, c, d): (Int64, Int64, Int64, Int64) = (1, 0, 0, 1)
    // Each quotient is taken only when both ends of its possible range agree (Knuth's
    // test), so every step is one Euclid would take on the full numbers.
    while v + c > 0 && v + d > 0 {
      let q = (u + a) / (v + c)
      guard q == (u + b) / (v + d) else { break }
      (a, c) = (c, a - q * c)
      (b, d) = (d, b - q * d)
      (u, v) = (v, u - q * v)
    }
    return ((a, b, c, d), b != 0)
  }

  /// Replaces `(x, y)` by `(A·x + B·y, C·x + D·y)` in one pass over the words. Both results
  /// are remainders of Euclid's algorithm, so they are non-negative and no longer than x.
  private static func combine(
    _ x: inout [UInt], _ y: inout [UInt], _ m: (Int64, Int64, Int64, Int64)
  ) {
    let (a, b, c, d) = (Int128(m.0), Int128(m.1), Int128(m.2), Int128(m.3))
    if y.count < x.count { y += repeatElement(0, count: x.count - y.count) }
    var carryX: Int128 = 0
    var carryY: Int128 = 0
    x.withUnsafeMutableBufferPointer { xs in
      for i in 0..<xs.count {
        let xi = Int128(UInt64(xs[i]))
        let yi = Int128(UInt64(y[i]))
        let nx = a * xi + b * yi + carryX
        let ny = c * xi + d * yi + carryY
        xs[i] = UInt(UInt64(truncatingIfNeeded: nx))
        y[i] = UInt(UInt64(truncatingIfNeeded: ny))
        carryX = nx >> 64
        carryY = ny >> 64
      }
    }
    trim(&x)
    trim(&y)
    if compare(x, y) < 0 { swap(&x, &y) }
  }

  /// The 62 bits of `w` starting at bit `shift`.
  private static func bits(_ w: [UInt], from shift: Int) -> UInt64 {
    let index = shift / 64
    let offset = UInt64(shift % 64)
    guard index < w.count else { return 0 }
    var value = UInt64(w[index]) >> offset
    if offset > 0 && index + 1 < w.count {
      value |= UInt64(w[index + 1]) << (64 - offset)
    }
    return value & ((1 << 62) - 1)
  }

  private static func bitWidth(_ w: [UInt]) -> Int {
    guard let top = w.last else { return 0 }
    return w.count * 64 - top.leadingZeroBitCount
  }

  private static func trim(_ w: inout [UInt]) {
    while let top = w.last, top == 0 { w.removeLast() }
  }

  private static func compare(_ x: [UInt], _ y: [UInt]) -> Int {
    if x.count != y.count { return x.count < y.count ? -1 : 1 }
    for i in stride(from: x.count - 1, through: 0, by: -1) where x[i] != y[i] {
      return x[i] < y[i] ? -1 : 1
    }
    return 0
  }
}
