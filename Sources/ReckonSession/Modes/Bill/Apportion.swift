import ReckonCore

/// Rounding exact shares to the minor unit once, so that they add up exactly to the rounded
/// whole: the largest remainder method (Hamilton's). Each share is first cut down to a whole
/// number of cents; the cents still missing from the whole (the exact total rounded half away
/// from zero) go one each to the shares that lost the most in the cut. So every share is
/// within one cent of its exact value, and they add up to the total to the cent.
///
/// Ties (two shares that lost the same fraction of a cent) are broken by a fixed rule: the
/// larger exact share first, then the person named first. Never "the last person absorbs
/// the remainder".
enum Apportion {
  /// The shares in whole minor units (cents for `decimals` 2), in the order given.
  ///
  /// `given`, when there is one, counts the cents each person was given before (a bill's
  /// earlier lines): at equal remainders and equal shares, the one given fewer goes first,
  /// so that one person does not take every tied cent of every line.
  @inline(never) static func cents(_ shares: [Rational], decimals: Int = 2, given: [Int]? = nil) -> [Int] {
    let scale = Rational(BigInteger.power(10, decimals))
    let scaled = shares.map { $0 * scale }
    let floors = scaled.map { $0.floor }
    let total = shares.reduce(Rational.zero, +).rounded(places: decimals) * scale
    var missing = (total - floors.reduce(Rational.zero, +)).intValue ?? 0
    var result = floors.map { $0.intValue ?? 0 }
    // Who gets a cent: the largest remainder first, then the larger share, then the earlier.
    guard missing > 0 else { return result }
    let remainders = scaled.indices.map { scaled[$0] - floors[$0] }
    let order = scaled.indices.sorted { a, b in
      let (ra, rb) = (remainders[a], remainders[b])
      if ra != rb { return ra > rb }
      if scaled[a] != scaled[b] { return scaled[a] > scaled[b] }
      if let given, given[a] != given[b] { return given[a] < given[b] }
      return a < b
    }
    // (0 ≤ missing ≤ the number of shares: each floor lost less than one cent, and the total
    // was rounded by at most half of one.)
    for index in order where missing > 0 {
      result[index] += 1
      missing -= 1
    }
    return result
  }
}
