/// A tip on a bill: everything in cents, so that amount + tip = total exactly as shown.
public struct Tip: Sendable, Hashable {
  /// The bill, rounded to the cent.
  public let amountCents: BigInteger
  /// The percentage asked for (15 means 15%).
  public let percent: Rational
  public let tipCents: BigInteger
  public let totalCents: BigInteger

  /// The tip on `amount` at `percent`%: tip = amount·p/100 rounded to the cent, once.
  public init(amount: Rational, percent: Rational) {
    self.amountCents = Money.cents(amount)
    self.percent = percent
    self.tipCents = Money.cents(amount * percent / 100)
    self.totalCents = amountCents + tipCents
  }

  init(amountCents: BigInteger, percent: Rational, tipCents: BigInteger) {
    self.amountCents = amountCents
    self.percent = percent
    self.tipCents = tipCents
    self.totalCents = amountCents + tipCents
  }

  /// The same tip raised so the total is a whole unit (rounded up), with the percentage that
  /// works out to.
  public var roundedUp: Tip {
    let (units, remainder) = totalCents.quotientAndRemainder(dividingBy: 100)
    let total = remainder.isZero ? totalCents : (units + (totalCents.isNegative ? 0 : 1)) * 100
    let tip = total - amountCents
    let effective =
      amountCents.isZero ? percent : Rational(numerator: tip * 100, denominator: amountCents)
    return Tip(amountCents: amountCents, percent: effective, tipCents: tip)
  }
}
