import Synchronization
import Testing

@testable import ReckonCore

/// A long calculation stops when asked, wherever it is, with an error and no value.
@Suite struct InterruptionTests {
  /// Says "stop" from the `after`-th question on, and counts the questions.
  final class Countdown: Sendable {
    let asked = Atomic<Int>(0)
    let after: Int
    init(after: Int) { self.after = after }
    var interruption: Interruption {
      Interruption { [self] in asked.add(1, ordering: .relaxed).newValue > after }
    }
  }

  static func evaluate(_ line: String, _ countdown: Countdown) throws(Diagnostic) -> Value {
    try Evaluator(interruption: countdown.interruption).evaluate(Parser.parseExpression(line), in: Environment())
  }

  @Test func notAskedToStopItFinishes() throws {
    let countdown = Countdown(after: .max)
    #expect(try Self.evaluate("2^10 + 3!", countdown) == .rational(1030))
    #expect(countdown.asked.load(ordering: .relaxed) >= 4, "every node asks")
  }

  @Test(
    "stopping at each step of a line gives the interruption error",
    arguments: ["1 + 2*3", "sqrt(16) + 10!", "(1/3)^5 - 7 mod 4"])
  func everyStepStops(_ line: String) {
    let steps = Countdown(after: .max)
    _ = try? Self.evaluate(line, steps)
    // Every node asks: a line of several nodes asks several times (a loop of no steps would
    // check nothing).
    #expect(steps.asked.load(ordering: .relaxed) >= 3)
    for after in 0..<steps.asked.load(ordering: .relaxed) {
      #expect(throws: Diagnostic.self) { try Self.evaluate(line, Countdown(after: after)) }
      do {
        _ = try Self.evaluate(line, Countdown(after: after))
      } catch {
        #expect(error.message.hasPrefix("interrupted (Ctrl-C)"))
        #expect(error.span.end <= line.unicodeScalars.count)
      }
    }
  }

  /// A line of big factorials stops between them: each is one GMP call (the largest allowed
  /// takes milliseconds), and the evaluator asks before every node.
  @Test func aLineOfLargeFactorialsStopsBetweenThem() {
    let countdown = Countdown(after: 5)
    #expect(throws: Diagnostic.self) { try Self.evaluate("20000! + 20000! + 20000! + 20000!", countdown) }
    #expect(countdown.asked.load(ordering: .relaxed) == 6, "stopped at the sixth node")
  }
}
