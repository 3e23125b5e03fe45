import Foundation
import Testing

@testable import ReckonSession

/// HTML character references as Open Trivia DB writes them, decoded as a browser (and
/// Python's `html.unescape`) decodes them. Needs `python3` on the PATH.
@Suite struct HTMLEntitiesTests {
  /// Python writes the cases and what `html.unescape` makes of each: every one of HTML5's
  /// named references (WHATWG's entities.json, as Python has it) alone, between letters and
  /// followed by more letters; numeric ones at every edge the standard names; and random text
  /// made of the characters that matter.
  static let generator = #"""
    import html, html.entities, json, random
    cases = []
    for name in sorted(html.entities.html5):
        cases += ["&" + name, "x&" + name + "y", "&" + name + "zz;", "&&" + name + "&"]
    for n in [0, 1, 9, 10, 11, 12, 13, 31, 65, 127, 128, 129, 141, 150, 159, 160, 233, 0xD7FF, 0xD800, 0xDFFF,
              0xE000, 0xFDD0, 0xFDEF, 0xFFFD, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF, 0x110000, 10**30]:
        cases += ["&#%d;" % n, "&#%d" % n, "&#x%X;" % n, "&#X%xz" % n, "&#00%d;" % n]
    cases += ["&#;", "&#x;", "&#xg;", "&;", "& amp;", "&amp", "&ampx", "&notit;", "&notin;", "&not", "&Phi;",
              "&Psi;", "&Tau;", "&Omicron;", "&Nu;", "&#233;", "&#xE9;", "AT&T", "&bogus;", "&", "&caf\u00e9;",
              "&" + "a" * 40 + ";", "&ampxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "&lt<", "&amp\t;", "&amp#;"]
    chars = list("&#xX;ampPhiNu0123456789EFabcf ") + ["\n", "\t", "\f", "<", "\u00e9", "\u03a6", "\r"]
    rng = random.Random(17)
    for _ in range(5000):
        cases.append("".join(rng.choice(chars) for _ in range(rng.randint(1, 24))))
    print(json.dumps([[c, html.unescape(c)] for c in cases]))
    """#

  @Test func decodingIsPythonsHTMLUnescape() throws {
    guard let python = Executables.find("python3") else {
      Issue.record("python3 was not found on the PATH: install python3 to run this test")
      return
    }
    let process = Process()
    process.executableURL = python
    process.arguments = ["-c", Self.generator]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0)
    let cases = try #require(try JSONSerialization.jsonObject(with: data) as? [[String]])
    #expect(cases.count > 2_231 * 4 + 5_000)
    var mismatches: [String] = []
    for pair in cases where HTMLEntities.decode(pair[0]) != pair[1] {
      mismatches.append(
        "\(pair[0].debugDescription) → \(HTMLEntities.decode(pair[0]).debugDescription), Python: \(pair[1].debugDescription)"
      )
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.prefix(30).joined(separator: "\n"))")
  }

  /// The names Open Trivia DB was seen to use, and the two numeric forms.
  @Test(arguments: [
    ("&Phi; &Psi; &Tau; &Omicron; &Nu;", "Φ Ψ Τ Ο Ν"), ("Caf&#233; caf&#xE9;", "Café café"),
    ("&NotEqualTilde;", "\u{2242}\u{338}"), ("&copy 2020", "© 2020"), ("&amp;lt;", "&lt;"),
  ])
  func namesOpenTriviaDBUses(_ text: String, _ decoded: String) {
    #expect(HTMLEntities.decode(text) == decoded)
  }

  /// The committed table is what the generator writes from Python's list today.
  @Test func theTableIsTheGeneratorsOutput() throws {
    guard let python = Executables.find("python3") else {
      Issue.record("python3 was not found on the PATH: install python3 to run this test")
      return
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let process = Process()
    process.executableURL = python
    process.arguments = [root.appendingPathComponent("scripts/html-entities").path, "--check"]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(message)")
  }
}

/// The first executable called `name` in a folder of the PATH.
enum Executables {
  static func find(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let url = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
  }
}
