import Foundation
import ReckonData
import Testing

/// The content built in is packed (scripts/pack-data) and unpacked on first use: every file
/// must come out as the text file it was packed from, byte for byte, and a file packed from
/// an older text must fail here rather than ship stale.
@Suite struct BuiltInDataTests {
  static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/ReckonData")

  static func bytes(_ file: reckon_data_file) -> [UInt8] {
    Array(UnsafeBufferPointer(start: file.bytes, count: Int(file.size)))
  }

  static func source(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: data.appendingPathComponent(name)))
  }

  @Test func everyPackedFileUnpacksToItsSource() throws {
    let files: [(String, reckon_data_file)] = [
      ("questions.txt", reckon_data_questions(0)), ("questions-2.txt", reckon_data_questions(1)),
      ("words.txt", reckon_data_words()), ("words-more.txt", reckon_data_more_words()),
      ("blocked-words.txt", reckon_data_blocked_words()), ("html-entities.txt", reckon_data_html_entities()),
      ("units.txt", reckon_data_units()), ("constants.txt", reckon_data_constants()),
    ]
    for (name, file) in files {
      let unpacked = Self.bytes(file)
      #expect(!unpacked.isEmpty, "\(name): \(reckon_data_problem().map { String(cString: $0) } ?? "empty")")
      #expect(unpacked == (try Self.source(name)), "\(name) is not what its packed file holds: run scripts/pack-data")
    }
    // Every quiz in the folder is built in, each once (in the order ReckonData.c lists them).
    let folder = Self.data.appendingPathComponent("personality")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
    let quizzes = (0..<reckon_data_quiz_count()).map { Self.bytes(reckon_data_quiz($0)) }
    #expect(quizzes.count == names.count)
    for name in names {
      let source = try Self.source("personality/" + name)
      #expect(quizzes.filter { $0 == source }.count == 1, "personality/\(name) is not built in once as it is")
    }
    #expect(reckon_data_question_editions() == 2)
    #expect(reckon_data_questions(2).size == 0 && reckon_data_questions(.max).bytes == nil)
    #expect(reckon_data_problem() == nil)
  }

  /// Asked for again, a file is the same bytes, unpacked once.
  @Test func aFileIsUnpackedOnce() {
    #expect(reckon_data_words().bytes == reckon_data_words().bytes)
  }
}
