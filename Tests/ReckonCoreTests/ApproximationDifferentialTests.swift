/// Differential test of approximations: `scripts/approx-differential.py` generates random
/// expressions over Reckon's functions and constants together with what Reckon must print
/// for them at 10, 50 and 1,000 significant digits, computed by Python's mpmath at a much
/// higher precision (and again at twice that, to be sure of it). Every case must come out of
/// `Parser.parseExpression`, `Evaluator.evaluate` and `NumberFormatter(digits:)` with that
/// text: every printed digit correct and the last correctly rounded.
///
/// The generator's expected answer is either `≈ TEXT` or `= N/D`:
/// - `≈ TEXT`: an approximation. When Reckon approximates too, its text must be TEXT. When
///   Reckon answers exactly instead (it knows more than the generator: π − π + 1 is 1), its
///   rational, rounded to the digits asked the way approximations are, must give TEXT.
/// - `= N/D`: the generator knows the value is this rational (sin(7π) is 0, cos(π/3) + 1 is
///   3/2, floor(1e6·π) is 3141592), and Reckon must answer exactly it.
///
/// mpmath runs from the venv `.build/oracle-venv` that `scripts/oracle-python` makes (with
/// `--system-site-packages`, installing mpmath only when it cannot be imported); without a
/// venv, from a python3 that imports mpmath.
import Foundation
import ReckonCore
import Testing

@Suite struct ApproximationDifferentialTests {
  /// digits:count pairs. RECKON_APPROX_PLAN and RECKON_APPROX_SEED override them for a
  /// longer hunt, and RECKON_APPROX_JOBS runs that many generators at once
  /// (scripts/verify-approx).
  static let defaultPlan = "10:5000,50:1000,1000:200"
  static let plan = ProcessInfo.processInfo.environment["RECKON_APPROX_PLAN"] ?? defaultPlan
  static let seed = setting("RECKON_APPROX_SEED") ?? 20_261_125
  static let jobs = max(1, setting("RECKON_APPROX_JOBS") ?? 1)

  @Test func approximationsMatchMpmath() throws {
    let python = try Self.oraclePython()
    let started = Date()
    let outputs = try Self.generate(python)
    let generated = Date()
    var mismatches: [String] = []
    var checked: [Int: Int] = [:]
    var checking: [Int: TimeInterval] = [:]
    var slowest: [(time: TimeInterval, case: String)] = []
    var exactAnswers = 0
    // Per digit count: cases, exact ones, skipped near a rounding boundary, skipped as unsettled.
    var summary: [Int: [Int]] = [:]
    var oracle = ""
    for output in outputs {
      for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        if fields.first == "#" {
          let numbers = fields.dropFirst().prefix(5).compactMap { Int($0) }
          guard numbers.count == 5 else {
            mismatches.append("malformed summary from the generator: \(line)")
            continue
          }
          summary[numbers[0], default: [0, 0, 0, 0]] = zip(summary[numbers[0]] ?? [0, 0, 0, 0], numbers.dropFirst())
            .map { $0 + $1 }
          oracle = fields.last ?? ""
          continue
        }
        guard fields.count == 4, let digits = Int(fields[0]) else {
          mismatches.append("malformed line from the generator: \(line)")
          continue
        }
        checked[digits, default: 0] += 1
        let start = Date()
        let reckon = Self.reckon(fields[2], digits: digits, expected: fields[3])
        let time = Date().timeIntervalSince(start)
        checking[digits, default: 0] += time
        if slowest.count < 3 || time > slowest.last!.time {
          slowest.append((time, "\(fields[2]) at \(digits) digits"))
          slowest.sort { $0.time > $1.time }
          if slowest.count > 3 { slowest.removeLast() }
        }
        if reckon.exact { exactAnswers += 1 }
        if reckon.answer != fields[3] {
          let printed = reckon.printed == reckon.answer ? "" : " (it prints \(reckon.printed))"
          mismatches.append(
            """
            \(fields[2])  at \(digits) digits (case \(digits):\(fields[1])):
              Reckon: \(reckon.answer)\(printed)
              mpmath: \(fields[3])
            """)
        }
      }
    }
    let finished = Date()
    let counts = summary.keys.sorted().map { digits in
      let s = summary[digits]!
      return
        "\(s[0]) at \(digits) digits (\(s[1]) exact; skipped: \(s[2]) near a rounding boundary, \(s[3]) unsettled; "
        + "Reckon \(String(format: "%.2f s", checking[digits] ?? 0)))"
    }
    print(
      """
      ApproximationDifferentialTests, seed \(Self.seed), \(oracle): \(counts.joined(separator: ", ")); \
      Reckon answered \(exactAnswers) exactly; generating \(Self.seconds(started, generated)) \
      (\(Self.jobs) job\(Self.jobs == 1 ? "" : "s")), checking \(Self.seconds(generated, finished)); the slowest: \
      \(slowest.map { "\($0.case) (\(String(format: "%.3f s", $0.time)))" }.joined(separator: ", "))
      """)
    for part in Self.plan.split(separator: ",") {
      let pair = part.split(separator: ":").compactMap { Int($0) }
      guard pair.count == 2 else {
        Issue.record("RECKON_APPROX_PLAN: \(part) is not digits:count")
        continue
      }
      #expect(checked[pair[0], default: 0] == pair[1], "\(checked[pair[0], default: 0]) cases at \(pair[0]) digits")
      // Skips are replaced, but many of them would mean the oracle cannot decide what it generates.
      let skipped = (summary[pair[0]] ?? [0, 0, 0, 0]).suffix(2).reduce(0, +)
      #expect(skipped <= max(5, pair[1] / 100), "\(skipped) cases skipped at \(pair[0]) digits")
    }
    #expect(
      mismatches.isEmpty,
      """
      \(mismatches.count) cases differ (seed \(Self.seed); `scripts/approx-differential.py --seed \(Self.seed) \
      --only DIGITS:CASE` regenerates one); the first \(min(20, mismatches.count)):
      \(mismatches.prefix(20).joined(separator: "\n"))
      """)
  }

  /// What Reckon answers, in the generator's terms (the printed text of an approximation;
  /// for an exact answer "= N/D" when `expected` is one, else the rational's digits as an
  /// approximation would print them), what it prints, and whether the answer was exact.
  static func reckon(_ source: String, digits: Int, expected: String) -> (answer: String, printed: String, exact: Bool)
  {
    let value: Value
    do {
      value = try Evaluator().evaluate(Parser.parseExpression(source), in: Environment())
    } catch {
      return ("error: \(error.message)", "error: \(error.message)", false)
    }
    let formatter = NumberFormatter(digits: digits)
    let printed = formatter.format(value)
    guard let r = value.exact else { return (printed, printed, false) }
    if expected.hasPrefix("=") { return ("= \(r.numerator)/\(r.denominator)", printed, true) }
    return ("≈ " + formatter.formatApproximate(Real.rational(r)), printed, true)
  }

  /// The generator's output: `jobs` processes at once, each making its share of the slots.
  static func generate(_ python: URL) throws -> [String] {
    let script = root.appendingPathComponent("scripts/approx-differential.py").path
    let results = ResultBox<[Int: Result<String, Error>]>()
    results.value = [:]
    let lock = NSLock()
    DispatchQueue.concurrentPerform(iterations: jobs) { k in
      let result = Result {
        try run(python, [script, "--plan", plan, "--seed", String(seed), "--job", "\(k)/\(jobs)"])
      }
      lock.withLock { results.value![k] = result }
    }
    return try (0..<jobs).map { try results.value![$0]!.get() }
  }

  static func seconds(_ a: Date, _ b: Date) -> String {
    String(format: "%.1f s", b.timeIntervalSince(a))
  }

  static func setting(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
  }

  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The Python that runs the oracle: scripts/oracle-python's answer.
  static func oraclePython() throws -> URL {
    let path = try run(
      URL(fileURLWithPath: "/usr/bin/env"), ["bash", root.appendingPathComponent("scripts/oracle-python").path]
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
    try #require(!path.isEmpty, "scripts/oracle-python found no Python with mpmath")
    return URL(fileURLWithPath: path)
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs a program and returns its standard output; its standard error goes to ours.
  static func run(_ executable: URL, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = root
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read both pipes to the end at once (a full stderr pipe would stall the child).
    let errorData = ResultBox<Data>()
    let reader = Thread {
      errorData.value = errors.fileHandleForReading.readDataToEndOfFile()
      errorData.done.signal()
    }
    reader.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    errorData.done.wait()
    process.waitUntilExit()
    let errorText = String(decoding: errorData.value ?? Data(), as: UTF8.self)
    if !errorText.isEmpty { FileHandle.standardError.write(Data(errorText.utf8)) }
    guard process.terminationStatus == 0 else {
      throw Failure(
        description:
          "\(executable.path) \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus)):\n\(errorText)"
      )
    }
    return String(decoding: data, as: UTF8.self)
  }
}
