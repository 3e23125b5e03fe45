import Foundation
import Testing

/// Nothing that came from outside reaches the terminal raw: every control character (C0, DEL,
/// C1) and every bidirectional control, put into each importer's error path (a trivia file's
/// difficulty and type in all three formats, a personality quiz's key, a JSON string's
/// escape, the anagram level table, a file's name), through `quiz load`, `personality load`
/// and `--questions`: the output holds none of their bytes, and shows each visibly instead.
@Suite struct TerminalSafetyTests {
  static let controls: [Unicode.Scalar] =
    (Array(0x00...0x1F).filter { $0 != 0x0A } + [0x7F] + Array(0x80...0x9F)
    + [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069])
    .map { Unicode.Scalar(UInt32($0))! }

  /// How the character must be shown (written out here, not taken from the program).
  static func shown(_ c: Unicode.Scalar) -> String {
    switch c {
    case "\u{1B}": "\\e"
    case "\t": "\\t"
    case "\r": "\\r"
    default: "\\u{\(String(c.value, radix: 16, uppercase: true))}"
    }
  }

  /// Bytes that would act on a terminal: C0 but the line break, DEL, C1 in UTF-8 (C2 80–9F),
  /// and the bidirectional controls' UTF-8.
  static func actingBytes(in bytes: Data) -> [String] {
    let b = [UInt8](bytes)
    var found: [String] = []
    for i in b.indices {
      if (b[i] < 0x20 && b[i] != 0x0A) || b[i] == 0x7F { found.append("byte \(b[i]) at \(i)") }
      if b[i] == 0xC2, i + 1 < b.count, (0x80...0x9F).contains(b[i + 1]) { found.append("C1 at \(i)") }
      if b[i] == 0xD8, i + 1 < b.count, b[i + 1] == 0x9C { found.append("U+061C at \(i)") }
      if b[i] == 0xE2, i + 2 < b.count {
        let (x, y) = (b[i + 1], b[i + 2])
        if x == 0x80 && (y == 0x8E || y == 0x8F || (0xAA...0xAE).contains(y)) || x == 0x81 && (0xA6...0xA9).contains(y)
        {
          found.append("bidirectional control at \(i)")
        }
      }
    }
    return found
  }

  static func jsonEscaped(_ c: Unicode.Scalar) -> String { String(format: "\\u%04x", c.value) }

  @Test(arguments: controls)
  func everyImportersErrorShowsControlsVisibly(_ c: Unicode.Scalar) throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let raw = String(Character(c))
    func write(_ name: String, _ text: String) throws {
      try Data(text.utf8).write(to: URL(fileURLWithPath: home.path + "/" + name))
    }
    try write("star.txt", "Space*ea\(raw)sy*Which planet is closest to the Sun?*Mercury*Venus*Mars*Earth\n")
    try write("csv.csv", "Space,ea\(raw)sy,Which planet is closest to the Sun?,Mercury,Venus,Mars,Earth\n")
    try write(
      "opentdb.json",
      #"{"response_code":0,"results":[{"type":"multi\#(Self.jsonEscaped(c))ple","difficulty":"easy","category":"Space","question":"Q?","correct_answer":"A","incorrect_answers":["B","C","D"]}]}"#
    )
    try write("quiz.json", #"{"name":"pets","ti\#(Self.jsonEscaped(c))tle":"T"}"#)
    try write("escape.json", "{\"name\":\"\\\(raw)\"}")
    try write("anagram-levels.txt", "ha\(raw)rd 7-9 40 25\n")
    let environment = ["RECKON_HOME": home.path, "HOME": home.path, "TERM": "xterm", "PATH": "/usr/bin:/bin"]
    let binary = try ReckonBinary.release()

    var lines = [
      "quiz load star.txt", "quiz load csv.csv", "quiz load opentdb.json", "personality load quiz.json",
      "personality load escape.json", "anagram", "quit",
    ]
    if c != "\0" { lines.append("quiz load na\(raw)me") }  // a file name cannot hold NUL
    let run = try ReckonProcess.run(
      lines.flatMap { ["-e", $0] }, environment: environment, directory: home.path, executable: binary)
    var outputs = [run.stdoutBytes, run.stderrBytes]
    // Paths that quote the character: three trivia formats, the quiz's key, the JSON escape,
    // the level table (where a tab or a carriage return separates columns instead), the file
    // name.
    var expected = 7 - (c == "\0" ? 1 : 0) - (c == "\t" || c == "\r" ? 1 : 0)
    for file in ["star.txt", "csv.csv", "opentdb.json"] + (c == "\0" ? [] : ["na\(raw)me"]) {
      let questions = try ReckonProcess.run(
        ["--questions", file, "-e", "1"], environment: environment, directory: home.path, executable: binary)
      #expect(questions.status == 1)
      outputs += [questions.stdoutBytes, questions.stderrBytes]
      expected += 1
    }
    let all = outputs.reduce(Data(), +)
    #expect(
      Self.actingBytes(in: all).isEmpty,
      "\(Self.actingBytes(in: all).prefix(5)) in \(String(decoding: all, as: UTF8.self))")
    let text = String(decoding: all, as: UTF8.self)
    let count = text.components(separatedBy: Self.shown(c)).count - 1
    #expect(count >= expected, "\(Self.shown(c)) shown \(count) times, expected \(expected): \(text)")
  }
}
