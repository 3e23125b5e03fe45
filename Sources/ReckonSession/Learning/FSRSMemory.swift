import Glibc

/// FSRS's memory formulas, written once over any number that supports them: `Double` for
/// scheduling, and `FSRSDual` (a value with its derivatives by the 21 weights) for fitting
/// the weights to a deck's reviews (`FSRSOptimizer`). Each step is the reference's, in its
/// order (`fsrs` on PyPI, version 6), so a `Double` gives its results to the last bit.
protocol FSRSNumber {
  init(_ value: Double)
  var value: Double { get }
  static func + (a: Self, b: Self) -> Self
  static func - (a: Self, b: Self) -> Self
  static func * (a: Self, b: Self) -> Self
  static func / (a: Self, b: Self) -> Self
  static prefix func - (a: Self) -> Self
  /// `base` to the `exponent`, `base` > 0.
  static func power(_ base: Self, _ exponent: Self) -> Self
}

extension FSRSNumber {
  /// e to the `x`, as the reference computes it (Python's `math.e ** x`, which is `pow`, not
  /// `exp`: they differ in the last bit, and over a long history that shows).
  static func powE(_ x: Self) -> Self { power(Self(2.718281828459045), x) }
  /// The larger of the two (the first when they are equal), derivatives and all.
  static func larger(_ a: Self, _ b: Self) -> Self { b.value > a.value ? b : a }
  static func smaller(_ a: Self, _ b: Self) -> Self { b.value < a.value ? b : a }
}

extension Double: FSRSNumber {
  var value: Double { self }
  static func power(_ base: Double, _ exponent: Double) -> Double { pow(base, exponent) }
}

/// The memory model of FSRS-6 over weights `w`: a new card's stability and difficulty, and
/// how a review changes them; the chance of recall after some days.
struct FSRSMemory<N: FSRSNumber> {
  let w: [N]

  static var minimumStability: N { N(0.001) }

  var decay: N { -w[20] }
  /// Chosen so that the retrievability after `stability` days is 90%.
  var factor: N { N.power(N(0.9), N(1) / decay) - N(1) }

  func retrievability(elapsedDays: Int64, stability: N) -> N {
    N.power(N(1) + factor * N(Double(elapsedDays)) / stability, decay)
  }

  func initialStability(_ rating: Int) -> N { N.larger(w[rating - 1], Self.minimumStability) }

  func initialDifficulty(_ rating: Int) -> N { w[4] - N.powE(w[5] * N(Double(rating - 1))) + N(1) }

  func clampDifficulty(_ d: N) -> N { N.smaller(N.larger(d, N(1)), N(10)) }

  func shortTermStability(_ stability: N, _ rating: Int) -> N {
    var increase = N.powE(w[17] * (N(Double(rating)) - N(3) + w[18])) * N.power(stability, -w[19])
    if rating != 1 { increase = N.larger(increase, N(1)) }
    return N.larger(stability * increase, Self.minimumStability)
  }

  func nextDifficulty(_ difficulty: N, _ rating: Int) -> N {
    let delta = -(w[6] * N(Double(rating - 3)))
    let damped = difficulty + (N(10) - difficulty) * delta / N(9)
    return clampDifficulty(w[7] * initialDifficulty(4) + (N(1) - w[7]) * damped)
  }

  func nextStability(_ difficulty: N, _ stability: N, _ r: N, _ rating: Int) -> N {
    let next: N
    if rating == 1 {
      let longTerm =
        w[11] * N.power(difficulty, -w[12]) * (N.power(stability + N(1), w[13]) - N(1)) * N.powE((N(1) - r) * w[14])
      next = N.smaller(longTerm, stability / N.powE(w[17] * w[18]))
    } else {
      let hard = rating == 2 ? w[15] : N(1)
      let easy = rating == 4 ? w[16] : N(1)
      next =
        stability
        * (N(1) + N.powE(w[8]) * (N(11) - difficulty) * N.power(stability, -w[9])
          * (N.powE((N(1) - r) * w[10]) - N(1)) * hard * easy)
    }
    return N.larger(next, Self.minimumStability)
  }

  /// A review's new memory state: the first review's, or one after `elapsedDays` (a review on
  /// the same day, under one day, changes it by the short-term rule).
  func afterReview(_ state: (stability: N, difficulty: N)?, elapsedDays: Int64, rating: Int) -> (
    stability: N, difficulty: N
  ) {
    guard let (stability, difficulty) = state else {
      return (initialStability(rating), clampDifficulty(initialDifficulty(rating)))
    }
    let next =
      elapsedDays < 1
      ? shortTermStability(stability, rating)
      : nextStability(
        difficulty, stability, retrievability(elapsedDays: max(0, elapsedDays), stability: stability), rating)
    return (next, nextDifficulty(difficulty, rating))
  }
}
