import Foundation
import Testing

@testable import ReckonSession

/// `cards DECK optimize` against the reference optimizer, `fsrs[optimizer]` version 6 (with
/// PyTorch, from the venv scripts/optimizer-python makes): on review histories simulated
/// here, the log loss of the weights Reckon fits is within 1% of the reference's fitted
/// weights' log loss, both measured by the reference's own loss function; and Reckon's loss
/// function gives the reference's figures.
@Suite struct FSRSOptimizerTests {
  /// Review histories of `cards` cards over `days` days by a learner whose memory follows
  /// `truth` (FSRS with other weights): each card is reviewed when the scheduler (default
  /// weights) says, a day or two late now and then, and recalled with the chance the truth
  /// gives then.
  static func histories(cards: Int, days: Int, seed: UInt64, truth: [Double]) -> [[FSRSOptimizer.Review]] {
    var random = SeededRandom(seed: seed)
    let scheduler = FSRS()
    let learner = FSRS(weights: truth)
    let start: Int64 = 1_700_000_000_000
    var histories: [[FSRSOptimizer.Review]] = []
    for index in 0..<cards {
      var card = FSRS.Card(due: start + Int64(index % 30) * FSRS.day)
      var memory = FSRS.Card(due: card.due)
      var reviews: [FSRSOptimizer.Review] = []
      var at = card.due
      while at < start + Int64(days) * FSRS.day {
        let chance = memory.lastReview == nil ? 0.6 : learner.retrievability(memory, at: at)
        let recalled = Double.random(in: 0..<1, using: &random) < chance
        let rating = recalled ? [2, 3, 3, 3, 3, 4][Int.random(in: 0..<6, using: &random)] : 1
        let grade = FSRS.Rating(rawValue: rating)!
        card = scheduler.review(card, grade, at: at, random: &random)
        memory = learner.review(memory, grade, at: at, random: &random)
        reviews.append(FSRSOptimizer.Review(at: at, rating: rating))
        let late = Int.random(in: 0..<10, using: &random) == 0 ? Int64.random(in: 1...2, using: &random) * FSRS.day : 0
        at = card.due + late + Int64.random(in: 0..<3_600_000, using: &random)
      }
      histories.append(reviews)
    }
    return histories
  }

  struct Reference: Decodable {
    var reference: [Double]
    var referenceLoss: Double
    var weightsLoss: Double
    var defaultLoss: Double
  }

  static func reference(_ cards: [[FSRSOptimizer.Review]], weights: [Double]) throws -> Reference? {
    let find = Process()
    find.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    find.arguments = ["bash", FSRSTests.root.appendingPathComponent("scripts/optimizer-python").path]
    let path = Pipe()
    find.standardOutput = path
    try find.run()
    let python = String(decoding: path.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    find.waitUntilExit()
    guard find.terminationStatus == 0, !python.isEmpty else { return nil }
    let input: [String: Any] = ["cards": cards.map { $0.map { [$0.at, $0.rating] } }, "weights": weights]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [FSRSTests.root.appendingPathComponent("scripts/fsrs-optimizer-oracle.py").path]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    stdin.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: input))
    try stdin.fileHandleForWriting.close()
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "the reference optimizer failed")
    return try JSONDecoder().decode(Reference.self, from: data)
  }

  @Test(arguments: [(UInt64(1), 400), (UInt64(2), 150)])
  func fitsAsWellAsTheReference(seed: UInt64, cards: Int) throws {
    var truth = FSRS.defaultWeights
    truth[0] = 0.6
    truth[2] = 4.0
    truth[8] = 1.4
    truth[20] = 0.3
    let histories = Self.histories(cards: cards, days: 120, seed: seed, truth: truth)
    let optimizer = FSRSOptimizer(cards: histories)
    var random = SeededRandom(seed: 7)
    let fit = try #require(optimizer.fit(random: &random, stop: { false }))
    #expect(fit.loss < fit.defaultLoss)
    guard let reference = try Self.reference(histories, weights: fit.weights) else {
      print("FSRSOptimizerTests: no fsrs[optimizer] (scripts/optimizer-python said why): the fit is not compared")
      return
    }
    // The loss function is the reference's.
    #expect(abs(fit.defaultLoss - reference.defaultLoss) <= 1e-9 * reference.defaultLoss)
    #expect(abs(fit.loss - reference.weightsLoss) <= 1e-9 * reference.weightsLoss)
    #expect(abs(optimizer.loss(reference.reference) - reference.referenceLoss) <= 1e-9 * reference.referenceLoss)
    // The fit is as good, to within 1%.
    let figures =
      "Reckon's fit \(fit.loss), the reference's \(reference.referenceLoss), the defaults' \(reference.defaultLoss) "
      + "(\(fit.counted) reviews)"
    #expect(abs(fit.loss - reference.referenceLoss) <= 0.01 * reference.referenceLoss, "\(figures)")
    print("FSRSOptimizerTests: " + figures)
  }

  /// Under 512 reviews a day or more after the card's last, nothing is fitted.
  @Test func tooFewReviewsFitNothing() {
    let histories = Self.histories(cards: 20, days: 60, seed: 3, truth: FSRS.defaultWeights)
    let optimizer = FSRSOptimizer(cards: histories)
    #expect(optimizer.counted < FSRSOptimizer.batchSize)
    var random = SeededRandom(seed: 7)
    #expect(optimizer.fit(random: &random, stop: { false }) == nil)
  }
}
