import CGMP

/// Prime factors of a whole number, as far as can be found at once: trial division by the
/// small primes, then Pollard's rho (Brent's variant) on what is left, with a budget of
/// steps and a check the caller makes a deadline of. A part that stays composite when the
/// budget runs out is given back as it is; so is a part too large to be searched at all.
public enum Factoring {
  public struct Result: Sendable, Equatable {
    /// The primes found, smallest first, each with its exponent.
    public var factors: [(prime: BigInteger, exponent: Int)]
    /// Composite parts no factor of which was found within the budget.
    public var unfactored: [BigInteger]
    /// Parts left by trial division that are too large to test or search
    /// (`maxSearchedBits`): whether they are prime is not known.
    public var untested: [BigInteger] = []

    public static func == (a: Result, b: Result) -> Bool {
      a.factors.map(\.prime) == b.factors.map(\.prime) && a.factors.map(\.exponent) == b.factors.map(\.exponent)
        && a.unfactored == b.unfactored && a.untested == b.untested
    }
  }

  /// Trial division goes up to this.
  public static let trialLimit: UInt64 = 10_000
  /// Pollard's rho takes at most this many steps for the whole number (the caller's
  /// deadline, half a second at the prompt, usually comes first).
  public static let defaultBudget = 3_000_000
  /// Parts wider than this (3,010 digits) are neither tested nor searched: GMP's Baillie–PSW
  /// test alone takes about half a second at this size, and grows with the cube of it
  /// (3.3 s at 6,500 digits). `isprime` has the same limit.
  public static let maxSearchedBits = 10_000

  /// The factors of |n| (n ≠ 0). `stop` is asked now and then (Ctrl-C); a stop gives back what
  /// is left as unfactored.
  public static func factor(_ n: BigInteger, budget: Int = defaultBudget, stop: () -> Bool = { false }) -> Result {
    precondition(!n.isZero)
    var rest = n.magnitude
    // Each prime with how many times it was found (2^3,321,900 is one entry, not millions).
    var found: [(prime: BigInteger, exponent: Int)] = []
    // Trial division: 2, 3, then 6k ± 1.
    var d: UInt64 = 2
    while d <= trialLimit && rest != 1 {
      let (quotient, count) = rest.removingFactor(d)
      if count > 0 {
        found.append((BigInteger(d), count))
        rest = quotient
      }
      d = d < 5 ? (d == 2 ? 3 : 5) : (d % 6 == 5 ? d + 2 : d + 4)
    }
    var unfactored: [BigInteger] = []
    // Parts still to split, each with how many times it divides n.
    var pending: [(part: BigInteger, times: Int)] = rest == 1 ? [] : [(rest, 1)]
    var steps = budget
    var untested: [BigInteger] = []
    while let (m, times) = pending.popLast() {
      // Below trialLimit² anything left is prime; above, GMP's Baillie–PSW test decides.
      if m.bitWidth > maxSearchedBits {
        untested += Array(repeating: m, count: times)
        continue
      }
      if m.bitWidth <= 26 || m.isProbablyPrime {
        found.append((m, times))
        continue
      }
      // A perfect power (p², p³…) is its root that many times: rho finds such a p slowly.
      if let (root, k) = perfectPower(m) {
        pending.append((root, times * k))
        continue
      }
      if steps > 0, !stop(), let divisor = rho(m, steps: &steps, stop: stop) {
        pending.append((divisor, times))
        pending.append((m.dividedExactly(by: divisor), times))
      } else {
        // At most 5,000 times (a square of 5,000 bits at the most).
        unfactored += Array(repeating: m, count: times)
      }
    }
    found.sort { $0.prime < $1.prime }
    var factors: [(prime: BigInteger, exponent: Int)] = []
    for (p, exponent) in found {
      if let last = factors.last, last.prime == p {
        factors[factors.count - 1].exponent += exponent
      } else {
        factors.append((p, exponent))
      }
    }
    return Result(factors: factors, unfactored: unfactored.sorted(), untested: untested)
  }

  /// (r, k) with r^k = n for the largest such k ≥ 2, or nil when n is no perfect power.
  static func perfectPower(_ n: BigInteger) -> (root: BigInteger, power: Int)? {
    guard __gmpz_perfect_power_p(n.pointer) != 0 else { return nil }
    for k in stride(from: n.bitWidth, through: 2, by: -1) {
      if let root = n.exactRoot(k), root > 1 { return (root, k) }
    }
    return nil
  }

  /// A proper divisor of the odd composite `n` by Brent's variant of Pollard's rho, trying
  /// x² + c for c = 1, 2, … while steps remain; nil when they run out.
  static func rho(_ n: BigInteger, steps: inout Int, stop: () -> Bool) -> BigInteger? {
    let (x, y, ys, q, t, g) = (MPZ(), MPZ(), MPZ(), MPZ(), MPZ(), MPZ())
    defer { withExtendedLifetime((x, y, ys, q, t, g)) {} }
    let np = n.pointer
    for c in 1...64 {
      __gmpz_set_ui(y.pointer, 2)
      __gmpz_set_ui(q.pointer, 1)
      __gmpz_set_ui(g.pointer, 1)
      var r = 1
      let m = 128
      // y ← y² + c mod n
      func step(_ z: UnsafeMutablePointer<__mpz_struct>) {
        __gmpz_mul(z, z, z)
        __gmpz_add_ui(z, z, UInt(c))
        __gmpz_mod(z, z, np)
      }
      while __gmpz_cmp_ui(g.pointer, 1) == 0 {
        __gmpz_set(x.pointer, y.pointer)
        for _ in 0..<r { step(y.pointer) }
        var k = 0
        while k < r && __gmpz_cmp_ui(g.pointer, 1) == 0 {
          __gmpz_set(ys.pointer, y.pointer)
          for _ in 0..<min(m, r - k) {
            step(y.pointer)
            __gmpz_sub(t.pointer, x.pointer, y.pointer)
            __gmpz_abs(t.pointer, t.pointer)
            __gmpz_mul(q.pointer, q.pointer, t.pointer)
            __gmpz_mod(q.pointer, q.pointer, np)
          }
          __gmpz_gcd(g.pointer, q.pointer, np)
          k += m
          steps -= m
          if steps <= 0 || stop() { return nil }
        }
        r *= 2
      }
      if __gmpz_cmp(g.pointer, np) == 0 {
        // Overshot: walk back one step at a time from ys.
        repeat {
          step(ys.pointer)
          __gmpz_sub(t.pointer, x.pointer, ys.pointer)
          __gmpz_abs(t.pointer, t.pointer)
          __gmpz_gcd(g.pointer, t.pointer, np)
        } while __gmpz_cmp_ui(g.pointer, 1) == 0
      }
      if __gmpz_cmp(g.pointer, np) != 0 {
        return BigInteger { __gmpz_set($0, g.pointer) }
      }
    }
    return nil
  }
}
