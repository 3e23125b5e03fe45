import Testing

@testable import ReckonCore

/// The unit table (Sources/ReckonData/units.txt and constants.txt): read without a problem.
@Suite struct UnitTableTests {
  @Test func theBuiltInTableHasNoProblems() {
    let table = UnitTable.standard
    #expect(table.problems.isEmpty, "\(table.problems.prefix(40).joined(separator: "\n"))")
  }

  /// Every unit's result reads back as the same value: `2.5 km²` printed is `2.5 km²`, and
  /// typed again it is the same quantity (superscripts, `°`, `Δ°C`, `µ`, currency codes,
  /// `s⁻¹`…). A value cut short (…) or approximate (≈) is not meant to.
  @Test func everyUnitAsPrintedReadsBack() throws {
    let table = UnitTable.standard
    let evaluator = Evaluator()
    var failures: [String] = []
    for entry in table.units {
      let forms =
        entry.isAffine
        ? ["2.5 \(entry.symbol)"] : ["2.5 \(entry.symbol)", "(3 \(entry.symbol))^2 / s", "7 \(entry.symbol)/kg"]
      for source in forms {
        do throws(Diagnostic) {
          let value = try evaluator.evaluate(Parser.parseExpression(source), in: Environment())
          let printed = NumberFormatter(digits: 30).format(value)
          // A value cut short (…) or approximate (≈) is not meant to read back.
          if printed.contains("…") || printed.contains("≈") { continue }
          let again = try evaluator.evaluate(Parser.parseExpression(printed), in: Environment())
          if again != value { failures.append("\(source) → \(printed) → \(NumberFormatter(digits: 30).format(again))") }
        } catch {
          failures.append("\(source): \(error.message)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) do not read back: \(failures.prefix(30).joined(separator: "\n"))")
  }
}
