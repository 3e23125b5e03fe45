import Testing

@testable import ReckonCore

/// `factor`: the primes found multiply back to the number, each passes GMP's primality test,
/// and known factorizations come out as known.
@Suite struct FactoringTests {
  @Test(arguments: [
    ("360", [("2", 3), ("3", 2), ("5", 1)]), ("97", [("97", 1)]), ("1024", [("2", 10)]),
    ("18446744073709551617", [("274177", 1), ("67280421310721", 1)]),  // 2^64 + 1 (Landry, 1880)
    ("4951760154835678088235319297", [("2147483647", 1), ("2305843009213693951", 1)]),  // two Mersenne primes
  ])
  func knownFactorizations(_ n: String, _ expected: [(String, Int)]) {
    let result = Factoring.factor(BigInteger(decimal: n)!)
    #expect(result.unfactored.isEmpty)
    #expect(result.factors.map(\.prime) == expected.map { BigInteger(decimal: $0.0)! })
    #expect(result.factors.map(\.exponent) == expected.map(\.1))
  }

  /// Products of random primes (up to 10^10, found by a next-prime search in the test) with
  /// random exponents: factored back exactly.
  @Test func randomProductsFactorBack() {
    var rng = PropertyTests.Generator(state: 31)
    for _ in 0..<60 {
      var n = BigInteger.one
      var primes: [BigInteger] = []
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        var p = BigInteger(UInt64.random(in: 2...10_000_000_000, using: &rng))
        while !p.isProbablyPrime { p = p + 1 }
        let e = Int.random(in: 1...3, using: &rng)
        primes += Array(repeating: p, count: e)
        n = n * p.power(e)
      }
      let result = Factoring.factor(n)
      #expect(result.unfactored.isEmpty, "\(n)")
      var product = BigInteger.one
      for (p, e) in result.factors {
        #expect(p.isProbablyPrime)
        product = product * p.power(e)
      }
      #expect(product == n)
      #expect(result.factors.flatMap { Array(repeating: $0.prime, count: $0.exponent) } == primes.sorted())
    }
  }

  /// A product of two primes past what the budget can split is given back as one composite,
  /// not mistaken for a prime.
  @Test func aHardCompositeIsLeftWhole() {
    let p = BigInteger(decimal: "59649589127497217")!
    let q = BigInteger(decimal: "5704689200685129054721")!
    let result = Factoring.factor(p * q, budget: 100_000)
    #expect(result.factors.isEmpty)
    #expect(result.unfactored == [p * q])
  }

  /// A part trial division leaves of more than 10,000 bits is neither tested nor searched (its
  /// primality test alone would take seconds): it is given back as untested, with the small
  /// primes found before it.
  @Test func aPartTooLargeToSearchIsGivenBackUntested() {
    // 10^5000 + 1 = 17 × (a 4,999-digit number with no factor below 10,000; Python's sympy
    // finds 17 the same way).
    let n = BigInteger.power(10, 5000) + 1
    let result = Factoring.factor(
      n,
      stop: {
        Issue.record("searched a part it should not"); return true
      })
    #expect(result.factors.map(\.prime) == [BigInteger(17)])
    #expect(result.untested == [n / 17])
    #expect(result.unfactored.isEmpty)
  }

  /// A prime found millions of times is one entry with its exponent (2^3,321,900 made as many
  /// entries, then sorted them: 2.2 s).
  @Test func aHugePowerOfTwoIsOneEntry() {
    let result = Factoring.factor(BigInteger.one << 3_321_900)
    #expect(result.factors.count == 1)
    #expect(result.factors.first?.prime == 2 && result.factors.first?.exponent == 3_321_900)
  }

  /// The search stops when the caller's check says so (its deadline): what is left is given
  /// back composite, and the check was asked.
  @Test func theSearchStopsWhenAsked() {
    let p = BigInteger(decimal: "59649589127497217")!
    let q = BigInteger(decimal: "5704689200685129054721")!
    var asked = 0
    let result = Factoring.factor(
      p * p * q * q,
      stop: {
        asked += 1; return asked > 3
      })
    #expect(asked > 3)
    #expect(result.factors.isEmpty)
    #expect(result.unfactored == [p * q, p * q])
  }
}
