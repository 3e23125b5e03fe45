import Foundation
import ReckonStore
import Testing

@testable import ReckonSession

/// Issue 30: text imported from real public data carries invisible format characters (a
/// left-to-right mark after `Jamaica`, two before `Edvard Munch` in a real Open Trivia DB
/// dump and Athena's medium file). They are dropped when a question, answer, category,
/// quiz, word or card is read, so nothing shows them as escapes, and a question that differs
/// from another only by them is a duplicate.
@Suite struct InvisibleMarksTests {
  static let lrm = "\u{200E}"

  /// Every scalar the terminal would show as an escape (`VisibleText`): controls and the
  /// invisible format characters.
  static func showsAnEscape(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      PlainText.isInvisible($0) || $0.properties.generalCategory == .control && $0 != "\n"
    }
  }

  @Test func theMarksGoAndWhatJoinsAnEmojiStays() {
    #expect(PlainText.withoutInvisibles("Jamaica\u{200E}") == "Jamaica")
    #expect(PlainText.withoutInvisibles("\u{200E}\u{200E}Edvard Munch") == "Edvard Munch")
    #expect(PlainText.withoutInvisibles("\u{202B}ירושלים\u{202C}") == "ירושלים")
    #expect(
      PlainText.withoutInvisibles("\u{2067}abc\u{2069} x\u{200B}y soft\u{00AD}ware \u{FEFF}z") == "abc xy software z")
    // A zero-width joiner between two emoji makes one (woman + laptop: a technologist), and stays.
    #expect(PlainText.withoutInvisibles("👩\u{200D}💻 and a\u{200D}b") == "👩\u{200D}💻 and ab")
    #expect(PlainText.withoutInvisibles("plain text, café") == "plain text, café")
  }

  /// A real Open Trivia DB file's shape, with the marks where the real dump has them.
  @Test func anOpenTriviaDBFileLoadsWithTheMarksGone() throws {
    let json = """
      {"response_code":0,"results":[
      {"category":"Geography\(Self.lrm)","type":"multiple","difficulty":"easy",
       "question":"Which country is Kingston the capital of?","correct_answer":"Jamaica\(Self.lrm)",
       "incorrect_answers":["Barbados","Trinidad and Tobago","Bahamas"]},
      {"category":"Art","type":"multiple","difficulty":"medium",
       "question":"Who painted &quot;The Scream&quot;?","correct_answer":"\(Self.lrm)\(Self.lrm)Edvard Munch",
       "incorrect_answers":["Gustav Klimt","Egon Schiele","Wassily Kandinsky"]},
      {"category":"Geography","type":"multiple","difficulty":"easy",
       "question":"Which country is Kingston\(Self.lrm) the capital of?","correct_answer":"Jamaica",
       "incorrect_answers":["Barbados","Trinidad and Tobago","Bahamas"]}
      ]}
      """
    let read = try TriviaImport.read(Array(json.utf8)).get()
    #expect(read.questions.map(\.correct) == ["Jamaica", "Edvard Munch"])
    #expect(read.questions.map(\.category) == ["Geography", "Art"])
    for question in read.questions {
      #expect(
        !([question.text, question.correct, question.category] + question.incorrect).contains(where: Self.showsAnEscape)
      )
    }
    // The third differs from the first only by a mark: a duplicate.
    #expect(read.skipped.count == 1)
    #expect(read.skipped.map(\.reason) == ["results[2]: duplicate question (as results[0])"])
  }

  /// A star-separated file as Athena's has them, through a quiz played at the prompt: what
  /// the session shows holds no mark.
  @Test func aStarSeparatedFileLoadsWithTheMarksGoneAndShowsNone() throws {
    let file = """
      category*difficulty*question*correctAnswer*incorrect1*incorrect2*incorrect3
      Art\(Self.lrm)*medium*Who painted The Scream?*\(Self.lrm)\(Self.lrm)Edvard Munch*Gustav Klimt*Egon Schiele*Wassily Kandinsky
      Geography*easy*Which country is Kingston the capital of?*Jamaica\(Self.lrm)*Barbados*Cuba*Haiti
      """
    var session = testSession(store: SQLiteStore.inMemory())
    session.state.files = MemoryFiles(["athena.txt": Array(file.utf8)])
    let loaded = plain(session.handle("quiz load athena.txt"))
    #expect(loaded.last?.hasPrefix("Loaded 2 questions") == true, "\(loaded)")
    var shown = plain(session.handle("quiz art count 1"))
    shown += plain(session.handle("a"))
    #expect(shown.contains { $0.hasSuffix("Edvard Munch") }, "\(shown)")
    #expect(!shown.contains(where: Self.showsAnEscape), "\(shown)")
  }

  @Test func aWordCopiedWithAMarkIsTheWord() {
    let (list, report) = WordList.read(Array("opts\u{200E}\nsoft\u{00AD}ware\n\u{200B}\ncafé\n".utf8))
    #expect(list.words.sorted() == ["opts", "software"])
    #expect(report.otherCharacters == 1)
  }

  @Test func aPersonalityQuizLosesItsMarks() throws {
    var text = String(
      decoding: try Data(contentsOf: Transcript.files.folder.appendingPathComponent("pets.json")), as: UTF8.self)
    text = text.replacingOccurrences(of: "Which pet are you?", with: "Which pet are you?\u{200F}")
    text = text.replacingOccurrences(of: "\"Cat\"", with: "\"\u{200E}Cat\"")
    let quiz = try PersonalityFile.read(Array(text.utf8)).get()
    #expect(quiz.title == "Which pet are you?")
    #expect(quiz.outcomes.map(\.name).contains("Cat"))
  }
}
