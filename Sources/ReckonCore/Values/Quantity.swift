/// A number with its unit (`5 km`, `9.81 m/s²`); a plain number has the empty unit. The
/// numeric code below works on the number alone: dimensions are checked once, here.
public struct Quantity: Sendable, Hashable {
  public var number: Number
  public var unit: Unit

  public init(_ number: Number, _ unit: Unit = .none) {
    self.number = number
    self.unit = unit
  }

  /// The number, when this is a plain number (no unit).
  public var plainNumber: Number? { unit.isNone ? number : nil }
}
