import Testing

@testable import ReckonCore

/// The one-pass evaluator for plain arithmetic must agree with the full path (lexer, parser,
/// evaluator) on everything it answers, and leave everything else to it.
@Suite struct QuickEvaluatorTests {
  /// The full path, as the calculator runs it: the value, or nil for an error.
  static func full(_ line: String, evaluator: Evaluator = Evaluator()) -> Value? {
    guard case .expression(let expr, _) = try? Parser.parseLine(line) else { return nil }
    return try? evaluator.evaluate(expr, in: Environment())
  }

  static func quick(_ line: String, evaluator: Evaluator = Evaluator()) -> Value? {
    QuickEvaluator.value(of: line, evaluator: evaluator)
  }

  /// The quick path's second lane (the evaluator's numbers) without the first.
  static func exactLaneOnly(_ line: String, evaluator: Evaluator) -> Value? {
    var line = line
    return line.withUTF8 { bytes in
      let quick = QuickEvaluator(bytes: bytes)
      guard quick.isPlainArithmetic() else { return nil }
      return quick.evaluate(in: ExactLane(evaluator: evaluator)).map { .number($0) }
    }
  }

  /// Lines it must answer, each with what Reckon prints for it.
  @Test(arguments: [
    ("1+2", "3"),
    ("7795 + 9571", "17366"),
    ("3901 - 3312", "589"),
    ("1258 * 6808 * 9327", "79880755728"),
    ("829 / 132", "6.280303030…"),
    ("84^11", "1469170321634239709184"),
    ("256.17^4", "4306387171.8…"),
    ("(9618 + 1239) * (6056 - 423.75) / 73", "837662.1678…"),
    ("((3432 * 473.07) + 9575) * (61 + 269.40)", "539593169.6…"),
    ("(-2^2)", "-4"),
    ("2^3^2", "512"),
    ("2^-1", "0.5"),
    ("2*-3", "-6"),
    ("10 - -3", "13"),
    ("2^500 / 2^499", "2"),
    (".5 + 1", "1.5"),
    ("0.1+0.2", "0.3"),
    ("((((7))))", "7"),
    ("\t 3 * 4  ", "12"),
    ("1/3", "0.3333333333…"),
    ("(1/3)*3", "1"),
    ("0^0", "1"),
    ("123456789012345678 * 10", "1234567890123456780"),
    ("2^64 - 1", "18446744073709551615"),
    ("(-8)^2 / -4", "-16"),
  ])
  func answers(line: String, printed: String) throws {
    let value = try #require(Self.quick(line), "the quick path declined \(line)")
    #expect(NumberFormatter(digits: 10).format(value) == printed)
    #expect(Self.full(line) == value)
  }

  /// The edges of machine words: whatever overflows there is computed again in the
  /// evaluator's numbers, and the answer is the full path's.
  @Test(arguments: [
    "3037000499^2", "3037000500^2", "(0-2)^63", "(0-2)^64", "2^62 + 2^62", "(0-2)^62 - 2^62", "2^62 * 2",
    "(0-2^62)*2", "1^1000", "(0-1)^1001", "(0-1)^1000", "(1/2)^-3", "2^-64", "(2/3)^40",
    "999999999999999999/999999999999999998", "1/10^18 + 1", "123456789.123456789 * 987654321",
    "(1/3 + 1/7) * 21", "(2^62 - 1 + 2^62) - 1", "1/999999999999999999 - 1/999999999999999998",
  ])
  func machineWordEdges(line: String) throws {
    let value = try #require(Self.quick(line), "the quick path declined \(line)")
    #expect(Self.full(line) == value)
  }

  /// Lines it must leave to the full path: other syntax, and every error (whose message
  /// and place only the full path knows).
  @Test(arguments: [
    "", "   ", "# a comment", "3 # a comment", "x", "pi", "2pi", "x = 3", "ans", "sqrt(4)", "2(3)",
    "(1+2)(3+4)", "2 3", "1e3", "2.5e-3", "1_000", "15%", "200 + 15%", "3!", "1.", "1.5.3", "2**10",
    "3 mod 2", "3 × 4", "0xff", "0b1010 + 1", "1 + 0o17", "0x1.8 * 2", "0XF", "0x", "255 to hex", "1 to", "to hex",
    "3 − 1", "- 3", "-3", "+3", "* 2", "1/0", "0^-1", "10^100000", "2^(10^10)",
    "(1", "1)", "()", "1 +", "1234567890123456789", "--3", "4^(1/2)", "2^0.5", "2^1025", "3^700", "(2^600)^2",
    "7^200 * 7^200 * 7^200",
    String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100),
    "1" + String(repeating: " + 1", count: 64),
  ])
  func declines(line: String) {
    #expect(Self.quick(line) == nil, "the quick path answered \(line)")
  }

  /// After Ctrl-C it does no more work in the evaluator's numbers: the line goes to the full
  /// path, which reports the interruption. (A line in machine words takes well under a
  /// microsecond and is answered.)
  @Test func leavesAnInterruptedLineToTheFullPath() {
    let interrupted = Evaluator(interruption: Interruption { true })
    #expect(Self.quick("2^70 + 1", evaluator: interrupted) == nil)
    #expect(Self.quick("(3^200 + 1) / (7^100 + 1)", evaluator: interrupted) == nil)
    #expect(Self.quick("2^70 + 1") != nil)
    #expect(Self.quick("2^70 + 1") == Self.full("2^70 + 1"))
    #expect(Self.quick("1 + 2", evaluator: interrupted) == .rational(3))
  }

  /// A line that is not plain arithmetic is found out before any arithmetic is done: a
  /// mistake at its end costs nothing before the full path reports it. (The evaluator asks
  /// for Ctrl-C before each operation, which counts them.)
  @Test(arguments: [
    "1+2)", "(1+2", "1+2 # a note", "2*3 x", "(3^200 + 1) / (7^100 + 1) 2", "1+2+3+4+5+6+7+8+9+1e3", "((1+2)*(3+4)",
  ])
  func findsOutBeforeComputing(line: String) {
    let counter = OperationCounter()
    let evaluator = Evaluator(
      interruption: Interruption {
        counter.count += 1
        return false
      })
    #expect(Self.quick(line, evaluator: evaluator) == nil)
    #expect(counter.count == 0)
    // 2^70 is past machine words: two powers and two sums in the evaluator's numbers.
    #expect(Self.quick("2^70 + 2^70 + 1", evaluator: evaluator) == Self.full("2^71 + 1"))
    #expect(counter.count == 4)
  }

  final class OperationCounter: @unchecked Sendable {
    var count = 0
  }

  /// Random lines of plain arithmetic (and some that are not): whatever the quick path
  /// answers, the full path answers the same; and it answers most plain lines that the
  /// full path evaluates, so the batch really takes it. (It leaves the rest on purpose:
  /// their powers of numbers up to 2^59 go past its 1,024-bit operands.)
  @Test func agreesWithTheFullPathOnRandomLines() {
    var rng = PropertyTests.Generator(state: 20_261_123)
    let evaluator = Evaluator(digitLimit: 2_000)  // powers that are refused are checked too
    var answered = 0
    var plainEvaluated = 0
    for _ in 0..<20_000 {
      var plain = true
      let line = Self.randomLine(depth: 0, rng: &rng, plain: &plain)
      let quick = Self.quick(line, evaluator: evaluator)
      let full = Self.full(line, evaluator: evaluator)
      // The second lane on its own, for the lines the first takes.
      if let exact = Self.exactLaneOnly(line, evaluator: evaluator) {
        #expect(full == exact, "\(line)")
      }
      if let quick {
        answered += 1
        #expect(full == quick, "\(line)")
        if full != quick { return }
      }
      // (A line starting with "-" is the lexer's: "- 3" continues from ans.)
      if plain && full != nil && line.utf8.count <= QuickEvaluator.maxLineBytes && !line.hasPrefix("-") {
        plainEvaluated += 1
      }
    }
    #expect(answered > 10_000)
    #expect(answered >= plainEvaluated * 85 / 100)
  }

  static func randomLine(depth: Int, rng: inout PropertyTests.Generator, plain: inout Bool) -> String {
    let operators = ["+", "-", "*", "/", "^", " + ", " - ", " * ", " / ", "^-", "\t+ ", " *\t", "\r/ "]
    var line = randomOperand(depth: depth, rng: &rng, plain: &plain)
    for _ in 0..<Int.random(in: 0...4, using: &rng) {
      var op = operators.randomElement(using: &rng)!
      if Int.random(in: 0..<200, using: &rng) == 0 {
        op = ["%", " mod ", "**", "×", ""].randomElement(using: &rng)!
        plain = false
      }
      line += op + randomOperand(depth: depth, rng: &rng, plain: &plain)
    }
    return line
  }

  static func randomOperand(depth: Int, rng: inout PropertyTests.Generator, plain: inout Bool) -> String {
    switch Int.random(in: 0..<100, using: &rng) {
    case 0..<15 where depth < 4:
      return "(" + randomLine(depth: depth + 1, rng: &rng, plain: &plain) + ")"
    case 15..<22:
      return "-" + randomOperand(depth: depth, rng: &rng, plain: &plain)
    case 22..<35:
      let whole = Int.random(in: 0...999, using: &rng)
      return "\(whole).\(Int.random(in: 0...99, using: &rng))"
    case 35..<40:
      return "." + String(Int.random(in: 0...999, using: &rng))
    case 40:
      plain = false
      return ["1e3", "1_000", "2.", "pi", "x", "3!", "15%", "sqrt(2)"].randomElement(using: &rng)!
    case 41..<45:
      return String(UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 5...63, using: &rng))  // up to 18 digits
    default:
      return String(Int.random(in: 0...12, using: &rng))
    }
  }
}
