/// A physical dimension: the powers of Reckon's base dimensions (a speed is length¹·time⁻¹).
/// Angles, ratios and solid angles have none: they are plain numbers with a display of their
/// own (`UnitTable.Entry.kind`).
public struct Dimension: Sendable, Hashable {
  /// The base dimensions, in the order of `powers`' lanes.
  public static let baseNames = [
    "length", "mass", "time", "current", "temperature", "amount", "luminosity", "information", "money",
  ]

  /// The power of each base dimension (lanes past the last base dimension stay 0).
  var powers: SIMD16<Int8>

  init(powers: SIMD16<Int8>) { self.powers = powers }

  /// No dimension: a plain number, an angle, a ratio.
  public static let none = Dimension(powers: .zero)

  /// The base dimension `index` (of `baseNames`).
  static func base(_ index: Int) -> Dimension {
    var powers = SIMD16<Int8>.zero
    powers[index] = 1
    return Dimension(powers: powers)
  }

  public var isNone: Bool { powers == .zero }

  /// The power of the base dimension `index` (of `baseNames`).
  public func power(of index: Int) -> Int { Int(powers[index]) }

  /// The largest power a unit's dimension may have (a unit to the 30th is already absurd).
  static let maxPower = 60

  /// The product; nil when a power would pass `maxPower`.
  func times(_ other: Dimension) -> Dimension? {
    for lane in 0..<Dimension.baseNames.count
    where Swift.abs(Int(powers[lane]) + Int(other.powers[lane])) > Dimension.maxPower {
      return nil
    }
    return Dimension(powers: powers &+ other.powers)
  }

  /// This dimension to the power `n`; nil when a power would pass `maxPower`.
  func power(_ n: Int) -> Dimension? {
    var result = SIMD16<Int8>.zero
    for lane in 0..<Dimension.baseNames.count {
      let exact = Int(powers[lane]) * n
      if Swift.abs(exact) > Dimension.maxPower { return nil }
      result[lane] = Int8(exact)
    }
    return Dimension(powers: result)
  }

  /// Whether each power is divisible by `n` (a square root of m² is m).
  func isDivisible(by n: Int) -> Bool {
    (0..<Dimension.baseNames.count).allSatisfy { Int(powers[$0]) % n == 0 }
  }

  /// This dimension's powers divided by `n` (each divisible by it).
  func root(_ n: Int) -> Dimension {
    var result = SIMD16<Int8>.zero
    for lane in 0..<Dimension.baseNames.count { result[lane] = powers[lane] / Int8(n) }
    return Dimension(powers: result)
  }

  /// As powers of the base dimensions: `length·time⁻¹`.
  public var formula: String {
    var parts: [String] = []
    for (lane, name) in Dimension.baseNames.enumerated() where powers[lane] != 0 {
      parts.append(powers[lane] == 1 ? name : "\(name)^\(powers[lane])")
    }
    return parts.isEmpty ? "none" : parts.joined(separator: "·")
  }
}
