import Testing

@testable import ReckonSession

/// What an import may hold, so that its memory stays bounded: a row's fields past 64 are
/// counted, not kept; a question file of more than a million fields, or an Open Trivia DB file
/// of more than a million JSON values, is refused with the reason; a personality quiz is at
/// most 1 MiB and 100,000 JSON values. (A 20 MB file of `*` took 1.13 GB, one of `*` lines
/// 2.5 GB, a 20 MB JSON array through `personality load` 0.59 GB: HostileInputTests measures
/// the binary's peak on such files.)
@Suite struct ImportLimitsTests {
  @Test func aRowsFieldsPastTheLimitAreCountedNotKept() throws {
    let limits = DelimitedText.Limits(fieldsPerRow: 3, fields: 100)
    let star = try DelimitedText.starRows("a*b*c*d*e\n\nx*y\n*", limits: limits).get()
    #expect(star.map(\.fields) == [["a", "b", "c"], ["x", "y"], ["", ""]])
    #expect(star.map(\.fieldCount) == [5, 2, 2])
    #expect(star.map(\.line) == [1, 3, 4])
    let csv = try DelimitedText.csvRows("a,b,c,d,e\n\"x\",\"y,z\"\n,,,\n", limits: limits).get()
    #expect(csv.map(\.fields) == [["a", "b", "c"], ["x", "y,z"], ["", "", ""]])
    #expect(csv.map(\.fieldCount) == [5, 2, 4])
  }

  @Test func pastTheFieldsInAllReadingStopsAtThatLine() {
    let limits = DelimitedText.Limits(fieldsPerRow: 10, fields: 5)
    #expect(DelimitedText.starRows("a*b\nc*d\ne*f\ng*h\n", limits: limits) == .failure(.init(line: 3)))
    #expect(DelimitedText.csvRows("a,b\nc,d\n\ne,f\ng,h\n", limits: limits) == .failure(.init(line: 4)))
    #expect((try? DelimitedText.starRows("a*b\nc*d\ne\n", limits: limits).get())?.count == 3)
  }

  /// A line of 60,000 stars is one row skipped for its columns, counted in full.
  @Test func aRowOfTooManyColumnsIsSkippedWithItsCount() throws {
    let text =
      "category*difficulty*question*correctAnswer*incorrect1*incorrect2*incorrect3\n"
      + "Science*easy*Q?*A*B*C*D\n" + String(repeating: "*", count: 60_000) + "\n"
    let read = try TriviaImport.read(Array(text.utf8)).get()
    #expect(read.questions.count == 1)
    #expect(
      read.skipped == [
        TriviaImport.Skip(line: 3, reason: "wrong number of columns: 60,001, expected 7")
      ])
  }

  /// An Open Trivia DB string longer than a row may be keeps only its first 64 KiB (the rest
  /// passed over, not kept), and its question is skipped for its length like any other; the
  /// questions around it load. A file over the JSON budget is refused unread, saying so.
  @Test func aHugeJSONStringIsCutAndItsQuestionSkipped() throws {
    func result(_ question: String) -> String {
      #"{"type": "multiple", "difficulty": "easy", "category": "C", "question": "\#(question)", "#
        + #""correct_answer": "a", "incorrect_answers": ["b", "c", "d"]}"#
    }
    let long = String(repeating: "x\\\"", count: 100_000)
    let text = #"{"results": ["# + [result("Q?"), result(long), result(#"Why \"y\"?"#)].joined(separator: ",\n") + "]}"
    let read = try TriviaImport.read(Array(text.utf8)).get()
    #expect(read.questions.map(\.text) == ["Q?", "Why \"y\"?"])
    #expect(
      read.skipped == [TriviaImport.Skip(line: 2, reason: "results[1]: question is longer than 1,000 characters")])
    let json = try JSON.parse(#"["\#(long)", 1]"#, maxStringBytes: 10).get()
    guard case .array(let values) = json, case .string(let cut) = values[0].value else {
      Issue.record("not read as an array of a string")
      return
    }
    #expect(cut.unicodeScalars.count <= 10 && cut.hasPrefix("x\"x\""))
    #expect(values[1].value == .number(1))
    let big = Array("{\"results\": [\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: TriviaImport.maxJSONBytes)
    guard case .failure(let failure) = TriviaImport.read(big) else {
      Issue.record("a JSON file over its budget was read")
      return
    }
    #expect(
      failure.message
        == "it is larger than 32 MiB (33,554,446 bytes): an Open Trivia DB file (JSON) may be at most that, "
        + "so none of it was read")
  }

  /// A line over 64 KiB is no row (seven fields of 1,000 characters fit in well under that):
  /// it is skipped with its line as soon as it passes the limit, unread, in either format, and
  /// the rows around it are kept. In CSV the line ends the row it is part of.
  @Test func aLineOverTheLimitIsSkippedUnread() throws {
    let long = String(repeating: "x", count: TriviaImport.maxLineBytes + 1)
    let skip = "the row is longer than 65,536 bytes, the most a row may be, and was not read"
    let star = "Science*easy*Q?*A*B*C*D\nScience*easy*\(long)*A*B*C*D\nScience*easy*R?*A*B*C*D\r\n"
    let starRead = try TriviaImport.read(Array(star.utf8)).get()
    #expect(starRead.questions.map(\.text) == ["Q?", "R?"])
    #expect(starRead.skipped == [TriviaImport.Skip(line: 2, reason: skip)])
    let csv = "Science,easy,Q?,A,B,C,D\nScience,easy,\"two\n\(long)\",A,B,C,D\nScience,easy,R?,A,B,C,D\n"
    let csvRead = try TriviaImport.read(Array(csv.utf8)).get()
    #expect(csvRead.questions.map(\.text) == ["Q?", "R?"])
    #expect(csvRead.skipped == [TriviaImport.Skip(line: 2, reason: skip)])
    // Exactly at the limit is a row like any other (here one of the wrong number of columns).
    let atLimit = String(repeating: "y", count: TriviaImport.maxLineBytes)
    #expect(
      try TriviaImport.read(Array("Science*easy*Q?*A*B*C*D\n\(atLimit)\n".utf8)).get().skipped == [
        TriviaImport.Skip(line: 2, reason: "wrong number of columns: 1, expected 7")
      ])
  }

  /// A file of more than a million fields is refused as a whole, saying where it passed.
  @Test(arguments: ["*\n", ",\n"])
  func aFileOfMoreThanAMillionFieldsIsRefused(_ line: String) {
    let text = String(repeating: line, count: 500_001)
    guard case .failure(let failure) = TriviaImport.read(Array(text.utf8)) else {
      Issue.record("read")
      return
    }
    #expect(
      failure.message
        == "it has more than 1,000,000 fields (passed at line 500,001): a question file may hold at most that many, "
        + "about 142,857 questions")
  }

  @Test func jsonPastItsValuesStopsWithAnErrorThatSaysSo() {
    guard case .failure(let error) = JSON.parse("[1, [2, 3],\n 4]", maxValues: 5) else {
      Issue.record("parsed")
      return
    }
    #expect(error.isTooLarge)
    #expect(error.line == 2)
    #expect((try? JSON.parse("[1, [2, 3],\n 4]", maxValues: 6).get()) != nil)
    let results = "{\"results\": [" + Array(repeating: "0", count: 1_000_000).joined(separator: ",") + "]}"
    guard case .failure(let failure) = TriviaImport.read(Array(results.utf8)) else {
      Issue.record("read")
      return
    }
    #expect(
      failure.message
        == "it holds more than 1,000,000 JSON values (passed at line 1): a question file may hold at most that many, "
        + "about 90,909 questions")
  }

  @Test func aPersonalityQuizIsAtMostOneMebibyteAndAHundredThousandValues() {
    var session = testSession()
    let values = "{\"title\": [" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]}"
    session.state.files = MemoryFiles([
      "large.json": Array(repeating: UInt8(ascii: " "), count: (1 << 20) + 1),
      "values.json": Array(values.utf8),
    ])
    #expect(
      plain(session.handle("personality load large.json")) == [
        "error@18: nothing loaded from large.json: it is larger than 1 MiB (1,048,577 bytes): "
          + "a personality quiz may be at most that, so none of it was read"
      ])
    #expect(
      plain(session.handle("personality load values.json")) == [
        "error@18: nothing loaded from values.json: 1 problem found",
        "  line 1: more than 100,000 JSON values: a personality quiz may hold at most that many",
      ])
  }
}
