import ReckonCore
import Testing

@testable import ReckonSession

/// A clock whose monotonic reading moves on by `step` milliseconds each time it is read: a
/// long job sees its time go by as it asks.
final class TickingClock: Clock, @unchecked Sendable {
  private var monotonic: Int64 = 0
  let step: Int64
  init(step: Int64) { self.step = step }
  func nowMilliseconds() -> Int64 { 1_700_000_000_000 + monotonic }
  func monotonicMilliseconds() -> Int64 {
    monotonic += step
    return monotonic
  }
  func utcOffsetSeconds(atMilliseconds milliseconds: Int64) -> Int { 0 }
}

/// Issue 25: every long job keeps to a budget and stops on Ctrl-C.
@Suite struct LongJobTests {
  /// 2^89 − 1 and 2^107 − 1 are Mersenne primes: their product needs about 2^44 steps of
  /// Pollard's rho, far past any budget.
  static let hard = "factor (2^89-1)*(2^107-1)"

  @Test func factorStopsAtHalfASecond() {
    var session = Session(clock: TickingClock(step: 100), random: SeededRandom(seed: 1), store: nil, profile: "ada")
    let reply = plain(session.handle(LongJobTests.hard))
    #expect(
      reply.first?.hasSuffix(
        "is composite, but no factor of it turned up (trial division to 10,000, then half a second of Pollard's rho)"
      ) == true, "\(reply)")
  }

  @Test func factorStopsAtItsStepBudgetWhenTimeStandsStill() {
    var session = testSession()
    session.state.factorSteps = 10_000
    let reply = plain(session.handle(LongJobTests.hard))
    #expect(
      reply.first?.hasSuffix("(trial division to 10,000, then 10,000 steps of Pollard's rho)") == true, "\(reply)")
  }

  @Test func factorNamesAPartTooLargeToSearch() {
    var session = testSession()
    let reply = plain(session.handle("factor 10^5000+1"))
    // 10^5000 + 1 = 17 × 5882352941176470588235294117647058823529411764705882352941176470588…2353
    let part = "the 4,999-digit part 588235294117…764705882353"
    #expect(reply.first?.hasSuffix(" = 17 × (\(part))") == true, "\(reply.first?.suffix(80) ?? "")")
    #expect(
      reply.dropFirst().first
        == "\(part) is not factored further: it may be prime or not, and factor searches no further in "
        + "numbers of more than 3,010 digits")
  }

  @Test func aCompositeSquareIsWrittenOnceWithItsExponent() {
    var session = testSession()
    session.state.factorSteps = 10_000
    let pq = "100433627766186892221372630609062766858404681029709092356097"  // (2^89 − 1)(2^107 − 1)
    let reply = plain(session.handle("factor 3*((2^89-1)*(2^107-1))^2"))
    #expect(reply.first?.hasSuffix(" = 3 × (\(pq))^2") == true, "\(reply)")
    #expect(reply.count == 2)
  }

  /// `vars` shows a huge number's start and size without writing it out, and the same start
  /// as the number's own text; Ctrl-C stops it.
  @Test func varsShowsTheStartOfHugeNumbers() {
    var session = testSession()
    let full = plain(session.handle("x = 3^2000"))[0]
    let rows = plain(session.handle("vars"))
    #expect(rows.contains("x | \(full.prefix(30))… (\(full.count.grouped) digits)"), "\(rows)")
    _ = session.handle("y = -7^300000")
    #expect(plain(session.handle("vars")).contains { $0.hasPrefix("y | -") && $0.hasSuffix("… (253,530 digits)") })
    session.state.interruption = Interruption { true }
    let stopped = session.handle("vars")
    #expect(stopped.failed)
    #expect(plain(stopped).joined().contains("interrupted (Ctrl-C)"))
  }
}
