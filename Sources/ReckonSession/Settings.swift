import ReckonCore

/// The user's preferences for this session.
public struct Settings: Sendable, Hashable {
  /// Significant digits for non-terminating and approximate results.
  public var digits = 10
  /// The percentages `tip AMOUNT` shows.
  public var tipPresets: [Rational] = [10, 15, 18, 20]

  public static let digitsRange = 1...1000

  public init() {}

  public var formatter: NumberFormatter { NumberFormatter(digits: digits) }
}
