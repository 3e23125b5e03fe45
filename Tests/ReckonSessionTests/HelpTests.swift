import ReckonCore
import Testing

@testable import ReckonSession

/// Help fits an 80-column terminal without wrapping, whatever the topic.
@Suite struct HelpTests {
  static var topics: [String?] {
    [nil] + Commands.all.map { $0.help.name } + Help.topics + Builtins.functionNames
  }

  @Test(arguments: topics)
  func helpFitsEightyColumns(_ topic: String?) {
    for text in Help.text(for: topic) {
      for line in text.split(separator: "\n") {
        #expect(line.count <= 80, "help \(topic ?? ""): \(line)")
      }
    }
  }

  @Test func drillHelpFitsEightyColumns() {
    for line in DrillMode.help.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
  }
}
