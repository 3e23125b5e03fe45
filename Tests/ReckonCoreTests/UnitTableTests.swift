import Testing

@testable import ReckonCore

/// The unit table (Sources/ReckonData/units.txt and constants.txt): read without a problem.
@Suite struct UnitTableTests {
  @Test func theBuiltInTableHasNoProblems() {
    let table = UnitTable.standard
    #expect(table.problems.isEmpty, "\(table.problems.prefix(40).joined(separator: "\n"))")
  }
}
