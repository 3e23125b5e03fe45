import Glibc

/// A number with its derivatives by each of FSRS's 21 weights (forward-mode automatic
/// differentiation): the memory formulas run on it give the loss and its gradient at once.
/// (An array and one loop rather than 32 lanes of vector code: the binary has a size budget,
/// and the optimizer's time is not spent here.)
struct FSRSDual: FSRSNumber {
  var value: Double
  /// ∂value/∂w[i]; empty for a constant (every derivative 0).
  var gradient: [Double]

  init(_ value: Double) {
    self.value = value
    gradient = []
  }

  init(value: Double, gradient: [Double]) {
    self.value = value
    self.gradient = gradient
  }

  /// Weight `i` of `count` itself: its derivative by itself is 1.
  static func weight(_ i: Int, of count: Int, _ value: Double) -> FSRSDual {
    var gradient = [Double](repeating: 0, count: count)
    gradient[i] = 1
    return FSRSDual(value: value, gradient: gradient)
  }

  /// x·a + y·b, where an empty gradient is all zeros.
  static func sum(_ a: [Double], _ x: Double, _ b: [Double], _ y: Double) -> [Double] {
    if b.isEmpty { return a.isEmpty ? [] : a.map { $0 * x } }
    if a.isEmpty { return b.map { $0 * y } }
    var out = a
    for i in out.indices { out[i] = a[i] * x + b[i] * y }
    return out
  }

  static func + (a: FSRSDual, b: FSRSDual) -> FSRSDual {
    FSRSDual(value: a.value + b.value, gradient: sum(a.gradient, 1, b.gradient, 1))
  }
  static func - (a: FSRSDual, b: FSRSDual) -> FSRSDual {
    FSRSDual(value: a.value - b.value, gradient: sum(a.gradient, 1, b.gradient, -1))
  }
  static func * (a: FSRSDual, b: FSRSDual) -> FSRSDual {
    FSRSDual(value: a.value * b.value, gradient: sum(a.gradient, b.value, b.gradient, a.value))
  }
  static func / (a: FSRSDual, b: FSRSDual) -> FSRSDual {
    FSRSDual(
      value: a.value / b.value, gradient: sum(a.gradient, 1 / b.value, b.gradient, -a.value / (b.value * b.value)))
  }
  static prefix func - (a: FSRSDual) -> FSRSDual { FSRSDual(value: -a.value, gradient: sum(a.gradient, -1, [], 0)) }
  static func power(_ base: FSRSDual, _ exponent: FSRSDual) -> FSRSDual {
    let value = pow(base.value, exponent.value)
    return FSRSDual(
      value: value,
      gradient: sum(
        base.gradient, value * exponent.value / base.value, exponent.gradient,
        exponent.gradient.isEmpty ? 0 : value * log(base.value)))
  }
}

/// Fits FSRS's 21 weights to a deck's own reviews, as the reference optimizer does
/// (`fsrs[optimizer]` on PyPI, version 6): the loss is the log loss (binary cross-entropy)
/// of the chance of recall the weights predict at each review a day or more after the
/// card's last, against whether it was recalled (any grade but again); each card's first
/// 64 reviews count; Adam (learning rate 0.04, cosine annealing), a step every 512 counted
/// reviews, the cards shuffled for each of 5 passes, the weights kept within FSRS's bounds,
/// and the pass with the lowest loss kept. Its gradient is exact: the formulas run on
/// `FSRSDual`, through each card's whole history, where the reference back-propagates.
/// Too few counted reviews (under 512) fit nothing, as there.
struct FSRSOptimizer {
  struct Review: Sendable, Equatable {
    var at: Int64
    var rating: Int
  }

  struct Fit: Sendable {
    var weights: [Double]
    var loss: Double
    var defaultLoss: Double
    var counted: Int
  }

  static let batchSize = 512
  static let passes = 5
  static let learningRate = 0.04
  static let reviewsPerCard = 64

  static let lowerBounds: [Double] = [
    0.001, 0.001, 0.001, 0.001, 1, 0.001, 0.001, 0.001, 0, 0, 0.001, 0.001, 0.001, 0.001, 0, 0, 1, 0, 0, 0, 0.1,
  ]
  static let upperBounds: [Double] = [
    100, 100, 100, 100, 10, 4, 4, 0.75, 4.5, 0.8, 3.5, 5, 0.25, 0.9, 4, 1, 6, 2, 2, 0.8, 0.8,
  ]

  /// Each card's reviews, oldest first (only the first 64 are kept).
  let cards: [[Review]]

  init(cards: [[Review]]) {
    self.cards = cards.map { Array($0.sorted { $0.at < $1.at }.prefix(FSRSOptimizer.reviewsPerCard)) }
  }

  /// How many reviews the loss counts: those a day or more after the card's last.
  var counted: Int {
    cards.reduce(0) { total, reviews in
      total + zip(reviews, reviews.dropFirst()).filter { FSRS.days(from: $0.0.at, to: $0.1.at) > 0 }.count
    }
  }

  /// The mean log loss of `weights` over the counted reviews.
  func loss(_ weights: [Double]) -> Double {
    let memory = FSRSMemory(w: weights)
    var total = 0.0
    var count = 0
    for reviews in cards {
      var state: (stability: Double, difficulty: Double)?
      var last: Int64?
      for review in reviews {
        let elapsed = last.map { FSRS.days(from: $0, to: review.at) } ?? 0
        if let state, elapsed > 0 {
          let p = memory.retrievability(elapsedDays: elapsed, stability: state.stability)
          total += FSRSOptimizer.logLoss(p, recalled: review.rating > 1)
          count += 1
        }
        state = memory.afterReview(state, elapsedDays: elapsed, rating: review.rating)
        last = review.at
      }
    }
    return count == 0 ? 0 : total / Double(count)
  }

  /// Binary cross-entropy, each logarithm at least -100 (as PyTorch's `BCELoss`).
  static func logLoss(_ p: Double, recalled: Bool) -> Double {
    recalled ? -max(log(p), -100) : -max(log(1 - p), -100)
  }

  /// The loss's derivative by p, as PyTorch's `BCELoss` takes it.
  static func logLossSlope(_ p: Double, recalled: Bool) -> Double {
    (p - (recalled ? 1 : 0)) / max((1 - p) * p, 1e-12)
  }

  /// The fitted weights, or nil when there are too few reviews or `stop` says to stop
  /// (Ctrl-C), which it is asked between steps.
  func fit(random: inout some RandomNumberGenerator, stop: () -> Bool) -> Fit? {
    let counted = self.counted
    guard counted >= FSRSOptimizer.batchSize else { return nil }
    var weights = FSRS.defaultWeights
    var adam = Adam(count: weights.count)
    let steps = (counted + FSRSOptimizer.batchSize - 1) / FSRSOptimizer.batchSize * FSRSOptimizer.passes
    var best: (loss: Double, weights: [Double])?
    var order = Array(cards.indices)
    for _ in 0..<FSRSOptimizer.passes {
      order.shuffle(using: &random)
      var memory = FSRSOptimizer.dualMemory(weights)
      var gradient = [Double](repeating: 0, count: weights.count)
      var inBatch = 0
      func step() {
        adam.step(&weights, gradient: gradient, rate: FSRSOptimizer.annealed(step: adam.steps, of: steps))
        memory = FSRSOptimizer.dualMemory(weights)
        gradient = [Double](repeating: 0, count: weights.count)
        inBatch = 0
      }
      for index in order {
        if stop() { return nil }
        var state: (stability: FSRSDual, difficulty: FSRSDual)?
        var last: Int64?
        for review in cards[index] {
          let elapsed = last.map { FSRS.days(from: $0, to: review.at) } ?? 0
          if let state, elapsed > 0 {
            let p = memory.retrievability(elapsedDays: elapsed, stability: state.stability)
            gradient = FSRSDual.sum(
              gradient, 1, p.gradient, FSRSOptimizer.logLossSlope(p.value, recalled: review.rating > 1))
            inBatch += 1
          }
          state = memory.afterReview(state, elapsedDays: elapsed, rating: review.rating)
          last = review.at
          if inBatch == FSRSOptimizer.batchSize {
            step()
            // The card goes on from its state as it is, not as the new weights would make it.
            state = state.map { (FSRSDual($0.stability.value), FSRSDual($0.difficulty.value)) }
          }
        }
      }
      if inBatch > 0 { step() }
      let loss = self.loss(weights)
      if loss < best?.loss ?? .infinity { best = (loss, weights) }
    }
    guard let best else { return nil }
    return Fit(weights: best.weights, loss: best.loss, defaultLoss: loss(FSRS.defaultWeights), counted: counted)
  }

  static func dualMemory(_ weights: [Double]) -> FSRSMemory<FSRSDual> {
    FSRSMemory(w: weights.enumerated().map { FSRSDual.weight($0.offset, of: weights.count, $0.element) })
  }

  /// The learning rate at step `t` of `steps`: cosine annealing from 0.04 to 0.
  static func annealed(step t: Int, of steps: Int) -> Double {
    learningRate * (1 + cos(Double.pi * Double(t) / Double(max(steps, 1)))) / 2
  }

  /// Adam (β 0.9 and 0.999, ε 1e-8), as PyTorch steps it, then each weight put back within
  /// its bounds.
  struct Adam {
    var first: [Double]
    var second: [Double]
    var steps = 0

    init(count: Int) {
      first = Array(repeating: 0, count: count)
      second = Array(repeating: 0, count: count)
    }

    mutating func step(_ weights: inout [Double], gradient: [Double], rate: Double) {
      steps += 1
      let correction1 = 1 - pow(0.9, Double(steps))
      let correction2 = 1 - pow(0.999, Double(steps))
      for i in weights.indices {
        first[i] = 0.9 * first[i] + 0.1 * gradient[i]
        second[i] = 0.999 * second[i] + 0.001 * gradient[i] * gradient[i]
        let denominator = second[i].squareRoot() / correction2.squareRoot() + 1e-8
        weights[i] -= rate / correction1 * first[i] / denominator
        weights[i] = min(max(weights[i], FSRSOptimizer.lowerBounds[i]), FSRSOptimizer.upperBounds[i])
      }
    }
  }
}
