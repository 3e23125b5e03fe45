/// Differential test of exact arithmetic: `scripts/differential.py` generates random expressions
/// together with their values computed independently by Python's `fractions.Fraction` (or the
/// marker that the expression must be an error), and every case must come out of
/// `Parser.parseExpression` and `Evaluator.evaluate` with exactly that numerator and
/// denominator, or with an error. Where `QuickEvaluator` (the calculator's one-pass path for
/// plain arithmetic) answers a case, its answer must be that value too. Needs `python3` on
/// the PATH.
import Foundation
import ReckonCore
import Testing

@Suite struct DifferentialTests {
  /// At least this many cases are checked.
  static let minimumCount = 10_000
  /// RECKON_DIFFERENTIAL_COUNT and RECKON_DIFFERENTIAL_SEED override these for a longer hunt.
  static let count = setting("RECKON_DIFFERENTIAL_COUNT") ?? minimumCount
  static let seed = setting("RECKON_DIFFERENTIAL_SEED") ?? 20_261_121

  @Test func exactResultsMatchPythonFractions() throws {
    guard let python = Self.findExecutable("python3") else {
      Issue.record("python3 was not found on the PATH: install python3 to run the differential test")
      return
    }
    let cases = try Self.generateCases(python: python)
    var mismatches: [String] = []
    var checked = 0
    var quickChecked = 0
    for line in cases.split(separator: "\n", omittingEmptySubsequences: true) {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 2 || fields.count == 3 else {
        mismatches.append("malformed line from the generator: \(line)")
        continue
      }
      checked += 1
      let expected = fields.count == 2 ? fields[1] : "\(fields[1])/\(fields[2])"
      let actual = Self.evaluate(fields[0])
      if actual != expected {
        mismatches.append("\(fields[0])  →  Reckon: \(actual), expected: \(expected)")
      }
      if let quick = QuickEvaluator.value(of: fields[0], evaluator: Evaluator()) {
        quickChecked += 1
        if Self.describe(quick) != expected {
          mismatches.append("\(fields[0])  →  the quick path: \(Self.describe(quick)), expected: \(expected)")
        }
      }
    }
    #expect(checked >= max(Self.count, Self.minimumCount), "only \(checked) cases were checked")
    #expect(quickChecked >= checked / 20, "the quick path answered only \(quickChecked) of \(checked) cases")
    #expect(
      mismatches.count == 0,
      """
      \(mismatches.count) of \(checked) cases differ (seed \(Self.seed)); the first \(min(20, mismatches.count)):
      \(mismatches.prefix(20).joined(separator: "\n"))
      """)
  }

  /// Reckon's answer in the generator's terms: "n/d" for an exact value, "error" for a
  /// diagnostic, and a description for anything else (an approximation).
  static func evaluate(_ source: String) -> String {
    do {
      return describe(try Evaluator().evaluate(Parser.parseExpression(source), in: Environment()))
    } catch {
      return "error"
    }
  }

  static func describe(_ value: Value) -> String {
    switch value {
    case .quantity(let q):
      // A percentage is compared as the number it is (15% is 3/20).
      let number = (try? Evaluator().plain(value, at: SourceSpan(0, 0))) ?? q.number
      switch number {
      case .exact(let r): return "\(r.numerator)/\(r.denominator)"
      case .multiple, .approx: return "≈\(number.real)"
      }
    case .truth(let t): return "\(t)"
    }
  }

  /// Runs the generator and returns its output.
  static func generateCases(python: URL) throws -> String {
    try runScript("differential.py", ["--count", String(count), "--seed", String(seed)], python: python)
  }

  /// Runs `scripts/NAME` with `python` and returns what it printed; a failure stops the test
  /// with what the script wrote on its error stream.
  static func runScript(_ name: String, _ arguments: [String], python: URL) throws -> String {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let process = Process()
    process.executableURL = python
    process.arguments = [root.appendingPathComponent("scripts/\(name)").path] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "scripts/\(name) failed:\n\(errorText)")
    return String(decoding: data, as: UTF8.self)
  }

  static func setting(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
  }

  /// The first executable called `name` in a directory of the PATH.
  static func findExecutable(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }
}
