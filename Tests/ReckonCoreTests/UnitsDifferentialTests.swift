/// Differential test of unit conversions against GNU units (Debian's `units`, which
/// `scripts/deps test` installs): `scripts/units-table.py --gnu-units-cases` picks random
/// conversions across every dimension of the table, asks GNU units each one, and writes GNU
/// units' digits beside the exact value worked out with Python's `fractions` from the table's
/// definitions. Reckon's conversion (`VALUE FROM to TO`, parsed and evaluated as a line is)
/// must be that exact value, and agree with GNU units to every digit GNU units printed (GNU
/// units works in doubles: its last digit may be one off, which is allowed).
import Foundation
import ReckonCore
import Testing

@Suite struct UnitsDifferentialTests {
  static let count = DifferentialTests.setting("RECKON_UNITS_COUNT") ?? 600
  static let seed = DifferentialTests.setting("RECKON_UNITS_SEED") ?? 20_261_127

  @Test func conversionsAgreeWithGNUUnitsAndWithExactFractions() throws {
    guard let python = DifferentialTests.findExecutable("python3") else {
      Issue.record("python3 was not found on the PATH")
      return
    }
    guard DifferentialTests.findExecutable("units") != nil else {
      Issue.record("GNU units was not found on the PATH: scripts/deps test installs it (Debian's units)")
      return
    }
    let output = try DifferentialTests.runScript(
      "units-table.py", ["--gnu-units-cases", String(Self.count), "--seed", String(Self.seed)], python: python)

    var mismatches: [String] = []
    var checked = 0
    var dimensions: Set<String> = []
    let evaluator = Evaluator()
    for line in output.split(separator: "\n") {
      let fields = line.split(separator: "\t").map(String.init)
      guard fields.count == 3 else { continue }
      checked += 1
      let (conversion, gnu, exact) = (fields[0], fields[1], fields[2])
      let source = conversion.replacingOccurrences(of: " -> ", with: " to ")
      let result: Number
      do {
        guard case .converted(.expression(let expr, _), let target) = try Parser.parseLine(source),
          case .unit(let unitExpr, let text) = target.target
        else {
          mismatches.append("\(source): not read as a conversion")
          continue
        }
        let value = try evaluator.evaluate(expr, in: Environment())
        guard case .quantity(let q, _) = try evaluator.converted(value, to: unitExpr, text: text) else {
          mismatches.append("\(source): a mixed result")
          continue
        }
        result = q.number
        dimensions.insert(evaluator.units.describe(q.unit).split(separator: "(")[0].description)
      } catch {
        mismatches.append("\(source): \(error.message)")
        continue
      }
      if let problem = Self.compare(result, exact: exact, gnu: gnu) { mismatches.append("\(source): \(problem)") }
    }
    #expect(checked >= Self.count, "only \(checked) cases came from the generator")
    #expect(dimensions.count >= 20, "the cases covered only \(dimensions.count) dimensions: \(dimensions.sorted())")
    #expect(
      mismatches.isEmpty,
      """
      \(mismatches.count) of \(checked) conversions differ (seed \(Self.seed)); the first \(min(20, mismatches.count)):
      \(mismatches.prefix(20).joined(separator: "\n"))
      """)
  }

  /// nil when `number` is the exact value (`p/q` or `p/q*pi^k`) and within one unit of GNU
  /// units' last digit; else what differs.
  static func compare(_ number: Number, exact: String, gnu: String) -> String? {
    var expectedPi = 0
    var fraction = Substring(exact)
    if let star = exact.range(of: "*pi") {
      let power = exact[star.upperBound...]
      expectedPi = power.isEmpty ? 1 : Int(power.dropFirst()) ?? 0
      fraction = exact[..<star.lowerBound]
    }
    let negative = fraction.hasPrefix("-")
    let parts = fraction.drop(while: { $0 == "-" }).split(separator: "/")
    guard let p = BigInteger(decimal: parts[0]), let q = parts.count > 1 ? BigInteger(decimal: parts[1]) : BigInteger(1)
    else { return "unreadable exact value \(exact)" }
    let expected = negative ? -Rational(numerator: p, denominator: q) : Rational(numerator: p, denominator: q)
    let (r, pi): (Rational, Int)
    switch number {
    case .exact(let value): (r, pi) = (value, 0)
    case .multiple(let value, let constants) where constants.e == 0: (r, pi) = (value, constants.pi)
    default: return "an approximation (\(number.real)), where the exact value is \(exact)"
    }
    guard r == expected, pi == expectedPi else {
      return "Reckon \(r.numerator)/\(r.denominator)\(pi == 0 ? "" : "*pi^\(pi)"), exact \(exact)"
    }
    // GNU units' digits: a decimal with an optional exponent.
    guard let shown = Double(gnu) else { return "unreadable GNU units value \(gnu)" }
    let mantissa = gnu.split(separator: "e")[0]
    let significant = mantissa.filter(\.isNumber).drop(while: { $0 == "0" }).count
    let reckon = r.doubleValue * Foundation.pow(Double.pi, Double(pi))
    // One unit in the last digit shown (and a little for the double Reckon's value is read as).
    let lastDigit = Foundation.pow(
      10, Foundation.floor(Foundation.log10(Swift.abs(shown))) - Double(max(significant - 1, 0)))
    let allowed = shown == 0 ? 1e-300 : lastDigit * 1.000001 + Swift.abs(shown) * 1e-15
    guard Swift.abs(reckon - shown) <= allowed else { return "Reckon ≈ \(reckon), GNU units \(gnu)" }
    return nil
  }
}
