import Foundation
import ReckonCore
import ReckonSession
import ReckonStore

/// A transcript: lines starting with "> " are typed into the session; the lines after each
/// are what it must answer, rendered as plain text (see `plain`). Lines starting with "#"
/// are comments.
struct Transcript {
  struct Step {
    var input: String
    var expected: [String]
    var lineNumber: Int
  }

  var steps: [Step] = []

  init(text: String) {
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("> ") {
        steps.append(Step(input: String(line.dropFirst(2)), expected: [], lineNumber: index + 1))
      } else if line == ">" {
        steps.append(Step(input: "", expected: [], lineNumber: index + 1))
      } else if line.hasPrefix("#") || (line.isEmpty && steps.isEmpty) {
        continue
      } else if !steps.isEmpty {
        steps[steps.count - 1].expected.append(String(line))
      }
    }
    // Trailing blank lines belong to no answer.
    for i in steps.indices {
      while steps[i].expected.last == "" { steps[i].expected.removeLast() }
    }
  }

  /// The folder of transcript files.
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Transcripts")

  static var names: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".txt") }.sorted()
  }

  /// Files that transcripts may load (`quiz load NAME`).
  static let files = FolderFiles(folder: folder.appendingPathComponent("files"))

  /// Whether to write the answers into the files instead of comparing them.
  static let recording = ProcessInfo.processInfo.environment["RECKON_RECORD_TRANSCRIPTS"] == "1"

  /// Writes a transcript again with `answers` (one list a step) in place of the expected
  /// lines, keeping its comments.
  static func rewrite(_ name: String, answers: [[String]]) throws {
    let url = folder.appendingPathComponent(name)
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    var out: [String] = []
    var step = -1
    for line in lines {
      if line.hasPrefix("> ") || line == ">" {
        step += 1
        out.append(String(line))
        out += answers[step]
      } else if line.hasPrefix("#") || step < 0 {
        out.append(String(line))
      }
    }
    while out.last == "" { out.removeLast() }
    try (out.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
  }

  static func load(_ name: String) throws -> Transcript {
    Transcript(text: try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
  }
}

/// A reply as plain lines: results and notes as they are, tables with " | " between cells,
/// errors as "error@COLUMN: message", a cleared screen as "<clear>", warnings as "warning: …".
func plain(_ reply: Reply) -> [String] {
  var lines: [String] = []
  for output in reply.outputs {
    switch output {
    case .result(let text), .note(let text):
      lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    case .table(let rows):
      lines += rows.map { $0.joined(separator: " | ") }
    case .error(let d, _):
      lines.append("error@\(([d.span] + d.also).map { String($0.column) }.joined(separator: "+")): \(d.message)")
      lines += d.details.map { "  " + $0 }
    case .warning(let text):
      lines += ("warning: " + text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    case .clearScreen:
      lines.append("<clear>")
    case .question(let text):
      lines.append("Q " + text)
    case .choices(let answers):
      lines += zip("abcdef", answers).map { "  \($0)) \($1)" }
    case .numbered(let answers):
      lines += answers.enumerated().map { "  \($0 + 1)) \($1)" }
    case .heading(let text):
      lines.append("== \(text) ==")
    case .tiles(let letters, let fixed):
      lines.append(
        "  " + letters.enumerated().map { $0 < fixed ? " \($1) " : "[\($1)]" }.joined(separator: " "))
    case .feedback(_, let text):
      lines.append(text)
    case .grid(let grid):
      lines.append("\(grid.corner) | " + grid.columns.map(String.init).joined(separator: " "))
      for (row, cells) in zip(grid.rows, grid.cells) {
        lines.append("\(row) | " + cells.map { grid.levels[$0.level].symbol }.joined(separator: " "))
      }
      lines.append(grid.levels.reversed().map { "\($0.symbol) \($0.name)" }.joined(separator: "   "))
    case .chart(let bars):
      lines += bars.map { "\($0.label) | \($0.value)" + ($0.text.isEmpty ? "" : " | \($0.text)") }
    }
  }
  if reply.shouldExit { lines.append("<exit>") }
  return lines
}

/// A session with a seeded random source and a manual clock, as every transcript uses, and
/// no store unless one is given.
func testSession(seed: UInt64 = 42, clock: ManualClock = ManualClock(), store: (any Store)? = nil) -> Session {
  Session(clock: clock, random: SeededRandom(seed: seed), store: store, profile: "ada")
}

/// Reads files from one folder, by name: the transcripts' `FileSource`.
struct FolderFiles: FileSource {
  let folder: URL

  func open(_ path: String) throws(FileError) -> any ByteStream {
    guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) else {
      throw FileError("no such file", isMissing: true)
    }
    return MemoryStream([UInt8](data))
  }
}
