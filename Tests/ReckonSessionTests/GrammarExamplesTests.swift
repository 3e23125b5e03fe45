import Foundation
import Testing

@testable import ReckonSession

/// Every example in grammar/reckon.ebnf ("(*> INPUT ⇒ OUTPUT *)") gives that output on a
/// fresh session: the grammar file cannot drift from what Reckon does.
@Suite struct GrammarExamplesTests {
  static let grammar = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("grammar/reckon.ebnf")

  static var examples: [(String, String)] {
    guard let text = try? String(contentsOf: grammar, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("(*> "), line.hasSuffix(" *)"), let arrow = line.range(of: " ⇒ ") else { return nil }
      let input = line[line.index(line.startIndex, offsetBy: 4)..<arrow.lowerBound]
      let output = line[arrow.upperBound..<line.index(line.endIndex, offsetBy: -3)]
      return (String(input), String(output))
    }
  }

  @Test func grammarHasExamples() {
    #expect(GrammarExamplesTests.examples.count >= 25)
  }

  @Test(arguments: examples)
  func exampleHolds(_ input: String, _ output: String) {
    var session = testSession()
    let reply = session.handle(input)  // not inside #expect: it mutates the session
    #expect(plain(reply) == [output], "\(input)")
  }
}
