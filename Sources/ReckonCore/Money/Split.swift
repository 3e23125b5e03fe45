/// A bill divided among people to the cent: the shares differ by at most one cent and add up
/// exactly to the amount.
public struct Split: Sendable, Hashable {
  public let totalCents: BigInteger
  public let ways: Int
  /// The smaller share, paid by `ways − largerCount` people.
  public let baseCents: BigInteger
  /// How many people pay one cent more than `baseCents`.
  public let largerCount: Int

  public init(amount: Rational, ways: Int, decimals: Int = 2) {
    self.init(totalCents: Money.cents(amount, decimals: decimals), ways: ways)
  }

  public init(totalCents: BigInteger, ways: Int) {
    precondition(ways >= 1)
    self.totalCents = totalCents
    self.ways = ways
    let (q, r) = Rational.floorDivide(totalCents, BigInteger(ways))
    baseCents = q
    largerCount = r.intValue!  // 0 ≤ r < ways
  }

  /// Every share, larger ones first.
  public var shares: [BigInteger] {
    Array(repeating: baseCents + 1, count: largerCount)
      + Array(repeating: baseCents, count: ways - largerCount)
  }

  /// The largest share: what each person must put in so the bill is covered.
  public var largestShareCents: BigInteger { largerCount > 0 ? baseCents + 1 : baseCents }

  /// "2 pay 33.33, 1 pays 33.34", or "20.00 each".
  public var description: String { description(in: .plain) }

  /// The same in a currency: "2 pay 33.33 EUR, 1 pays 33.34 EUR", "2 pay 333 JPY, 1 pays 334 JPY".
  public func description(in currency: Money.Currency) -> String {
    if largerCount == 0 { return "\(currency.format(cents: baseCents)) each" }
    let smaller = ways - largerCount
    let verb = { (n: Int) in n == 1 ? "pays" : "pay" }
    return "\(smaller) \(verb(smaller)) \(currency.format(cents: baseCents)), "
      + "\(largerCount) \(verb(largerCount)) \(currency.format(cents: baseCents + 1))"
  }
}
