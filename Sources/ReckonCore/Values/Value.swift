/// What a calculation gives: a quantity (a number with its unit; a plain number has none), or
/// true or false (a comparison's answer, which is not a number: the evaluator refuses to
/// calculate with it). Open for more kinds of value (lists, dates, functions), each of
/// which says what it can be used for.
public enum Value: Sendable, Hashable {
  case quantity(Quantity)
  /// The answer to a comparison or a test (`3 < 4`, `isprime(97)`).
  case truth(Bool)

  /// A plain number.
  public static func number(_ n: Number) -> Value { .quantity(Quantity(n)) }

  /// The plain number `r`.
  public static func rational(_ r: Rational) -> Value { .number(.exact(r)) }

  public static let pi = Value.number(.pi)
  public static let e = Value.number(.e)

  /// The quantity, if this is one (not true or false).
  public var quantity: Quantity? {
    if case .quantity(let q) = self { return q }
    return nil
  }

  /// The number, when this is a plain number (a quantity with no unit).
  public var plainNumber: Number? {
    if case .quantity(let q) = self, q.unit.isNone { return q.number }
    return nil
  }

  /// Whether this is a quantity (not true or false). (Matched, not through `quantity`: a
  /// plain line's answer is asked this, and copying the quantity out cost 7% of the batch.)
  public var isNumber: Bool {
    if case .quantity = self { return true }
    return false
  }

  /// The exact rational, when this is a plain rational number.
  public var exact: Rational? {
    if case .quantity(let q) = self, q.unit.isNone, case .exact(let r) = q.number { return r }
    return nil
  }

  public var isExact: Bool { exact != nil }

  /// The sign of the quantity's number: -1, 0 or 1; nil for true and false, and for an
  /// approximation whose sign cannot be told.
  public var sign: Int? { quantity?.number.sign }

  public var isNegative: Bool { sign == -1 }

  /// Exactly zero (with any unit).
  public var isZero: Bool { quantity?.number.isZero == true }
}
