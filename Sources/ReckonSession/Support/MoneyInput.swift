import ReckonCore

/// Reading an amount of money from a value, for every command and mode that takes one
/// (`tip`, `split`, a bill's items).
enum MoneyInput {
  /// An amount of money: a plain number, or one in a currency (`84.50 €`, `12 EUR`), rounded
  /// to the currency's minor unit when it is not exact.
  static func amount(_ value: Value, at span: SourceSpan, in state: SessionState) throws(Diagnostic)
    -> (amount: Rational, currency: Money.Currency)
  {
    guard let quantity = value.quantity else {
      throw Diagnostic("the amount must be a number, not true or false", at: span)
    }
    var currency = Money.Currency.plain
    let number: Number
    let units = state.evaluator.units
    if let plain = quantity.plainNumber {
      number = plain
    } else if quantity.unit.count == 1, quantity.unit[0].power == 1, quantity.unit[0].prefix == 0,
      let entry = units.currency(in: quantity.unit), let decimals = entry.currencyDigits
    {
      currency = Money.Currency(code: entry.symbol, decimals: decimals, unit: quantity.unit)
      number = quantity.number
    } else {
      throw Diagnostic(
        "the amount must be a plain number or money, not \(units.describe(quantity.unit))", at: span,
        hint: "for example: 84.50, or 84.50 EUR")
    }
    let amount: Rational
    if case .exact(let r) = number {
      amount = r
    } else {
      switch number.real.exactly(maxBits: Money.limitBits, { $0.rounded(places: currency.decimals) }) {
      case .value(let cents): amount = cents
      case .tooLarge: throw tooMuch(at: span)
      case .undecided: throw Diagnostic("the amount is too close to half a cent to round it", at: span)
      }
    }
    guard Money.isWithinLimit(amount) else { throw tooMuch(at: span) }
    return (amount, currency)
  }

  static func tooMuch(at span: SourceSpan) -> Diagnostic {
    Diagnostic(
      "the amount is too large to be money: amounts go up to \(Money.format(cents: Money.limitCents - 1))",
      at: span, hint: "that is 10^15 (a thousand trillion) of any currency, less a cent")
  }
}
