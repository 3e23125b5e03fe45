import ReckonCore
import ReckonSession

/// A bill on arbitrary lines: `bill` first, then each line of the input typed in it (items,
/// weights, currencies, tax, tips, discounts, payments, removals, edits, joins, exports to
/// the screen).
///
/// Invariants (`Session.billProblem`): nothing traps; after every line the split adds up
/// (each column to its lines, each row to its share), the split kept between lines is the
/// split from nothing, and the bill's lines, saved and read back, replay to the bill.
enum BillTarget {
  static let maxLines = 100

  @Sendable static func run(_ bytes: [UInt8]) {
    var session = Session(clock: ManualClock(), random: SeededRandom(seed: 7), store: nil, profile: "fuzz")
    session.state.digitLimit = ExpressionTarget.digitLimit
    session.state.factorSteps = 20_000
    _ = session.restoreSettings()
    _ = session.handle("set rate USD 0.9 EUR")
    _ = session.handle("set rate JPY 0.006 EUR")
    _ = session.handle("bill")
    for (index, slice) in bytes.split(separator: 10, omittingEmptySubsequences: false).enumerated() {
      guard index < maxLines else { break }
      let line = String(decoding: slice, as: UTF8.self)
      // (Leaving the bill ends what there is to check; so would saving a file.)
      let first = line.split(separator: " ").first?.lowercased() ?? ""
      if ["quit", "done", "q", "exit", "bye"].contains(first) || (first == "export" && !line.hasSuffix(" -")) {
        continue
      }
      _ = session.handle(line)
      #if DEBUG || RECKON_CHECKS
        // (The lines replayed only at the end: each line's sums are checked as it comes.)
        if let problem = session.billProblem(replaying: false) {
          fatalError("after \(line.debugDescription): \(problem)")
        }
      #endif
    }
    #if DEBUG || RECKON_CHECKS
      if let problem = session.billProblem() { fatalError("at the end: \(problem)") }
    #endif
    _ = session.finish()
  }
}
