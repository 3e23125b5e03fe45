import ReckonStore
import Testing

@testable import ReckonSession

/// The trivia importers: each format with good rows and every kind of bad one.
@Suite struct TriviaImportTests {
  static let header = "category*difficulty*question*correctAnswer*incorrect1*incorrect2*incorrect3"

  func read(_ text: String, besides bank: QuestionBank = QuestionBank()) throws -> TriviaImport {
    try read(Array(text.utf8), besides: bank)
  }

  func read(_ bytes: [UInt8], besides bank: QuestionBank = QuestionBank()) throws -> TriviaImport {
    switch TriviaImport.read(bytes, besides: bank) {
    case .success(let result): return result
    case .failure(let failure): throw failure
    }
  }

  @Test func starSeparatedRowsLoad() throws {
    let result = try read(
      TriviaImportTests.header + "\n"
        + "Space*easy*Which planet is closest to the Sun?*Mercury*Venus*Mars*Earth\r\n"
        + "\n"
        + "Food* Hard *Which spice is red?* Paprika *Saffron*Cumin*Turmeric\n")
    #expect(result.format == .star)
    #expect(result.skipped.isEmpty)
    #expect(result.questions.count == 2)
    #expect(result.questions[1].difficulty == .hard)
    #expect(result.questions[1].correct == "Paprika")
    #expect(result.questions[1].incorrect == ["Saffron", "Cumin", "Turmeric"])
  }

  @Test func aFileWithoutAHeaderLoadsEveryRow() throws {
    let result = try read("Space*easy*Which planet is closest to the Sun?*Mercury*Venus*Mars*Earth\n")
    #expect(result.questions.count == 1)
  }

  /// Each bad row is skipped with its line and reason; the good rows around it load.
  @Test(arguments: [
    ("Food*easy*Q?*A*B*C", "wrong number of columns: 6, expected 7"),
    ("Food*easy*Q?*A*B*C*D*E", "wrong number of columns: 8, expected 7"),
    ("Food*easy* *A*B*C*D", "empty question"),
    ("*easy*Q?*A*B*C*D", "empty category"),
    ("Food*expert*Q?*A*B*C*D", "unknown difficulty 'expert' (easy, medium or hard)"),
    ("Food**Q?*A*B*C*D", "empty difficulty (easy, medium or hard)"),
    ("Food*easy*Q?*A*B**D", "empty answer (incorrect2)"),
    ("Food*easy*Q?*Paris*Rome*paris*Oslo", "the right answer is repeated among the wrong ones"),
    ("Food*easy*Q?*Zürich*Rome*ZURICH*Oslo", "the right answer is repeated among the wrong ones"),
    ("Food*easy*Q?*A*B*C*b", "a wrong answer is repeated"),
    // The same question with the same answers, in another order, case and spacing.
    ("Food*hard*which planet is  closest to the sun?*MERCURY*Earth*Venus*Mars", "duplicate question (as on line 2)"),
  ])
  func badRowsAreSkippedWithTheirReason(_ row: String, _ reason: String) throws {
    let text = [
      TriviaImportTests.header, "Space*easy*Which planet is closest to the Sun?*Mercury*Venus*Mars*Earth", row,
      "Food*medium*Which nut is used in marzipan?*Almond*Walnut*Pecan*Cashew",
    ].joined(separator: "\n")
    let result = try read(text)
    #expect(result.skipped == [TriviaImport.Skip(line: 3, reason: reason)])
    #expect(result.questions.map(\.correct) == ["Mercury", "Almond"])
  }

  @Test func aQuestionTheBankHasIsADuplicate() throws {
    let bank = QuestionBank([
      TriviaQuestion(
        category: "Space", difficulty: .easy, text: "Which planet is closest to the Sun?", correct: "Mercury",
        incorrect: ["Venus", "Mars", "Earth"])
    ])
    // The same text, spelt with other spaces and case, is the same question.
    let result = try read("Space*hard*which planet is  closest to the sun?*Mercury*Venus*Mars*Earth\n", besides: bank)
    #expect(result.questions.isEmpty)
    #expect(result.skipped == [TriviaImport.Skip(line: 1, reason: "duplicate question (already in the bank)")])
  }

  @Test func csvHasQuotedFieldsWithCommasQuotesAndLineBreaks() throws {
    let text = """
      category,difficulty,question,correctAnswer,incorrect1,incorrect2,incorrect3\r
      Music,medium,"Who wrote ""The Four Seasons""?","Vivaldi, Antonio",Bach,Handel,Purcell\r
      Music,easy,"A question
      over two lines?",Yes,No,Maybe,Never\r
      Music,easy,Too few?,A,B,C\r
      Music,hard,"Last, with no line break?",Yes,No,Maybe,Never
      """
    let result = try read(text)
    #expect(result.format == .csv)
    #expect(
      result.questions.map(\.text) == [
        "Who wrote \"The Four Seasons\"?", "A question\nover two lines?", "Last, with no line break?",
      ])
    #expect(result.questions[0].correct == "Vivaldi, Antonio")
    // The row after the two-line question starts on line 5.
    #expect(
      result.skipped == [
        TriviaImport.Skip(line: 5, reason: "wrong number of columns: 6, expected 7")
      ])
  }

  /// A quote inside an unquoted field is a character, not the start of a quoted field that
  /// would swallow the rest of the file; CRLF in a quoted field is a line break; a last line
  /// ending in CR alone ends there.
  @Test func csvQuotesOnlyOpenAField() throws {
    let text =
      "Sport,easy,How tall is a 6'2\" player in cm?,188,178,198,168\r\n"
      + "Sport,easy,\"Two\r\nlines?\",Yes,No,Maybe,Never\r\n"
      + "Sport,easy,Which game uses a shuttlecock?,Badminton,Tennis,Squash,Golf\r"
    let result = try read(text)
    #expect(result.skipped.isEmpty)
    #expect(
      result.questions.map(\.text) == [
        "How tall is a 6'2\" player in cm?", "Two\nlines?", "Which game uses a shuttlecock?",
      ])
    #expect(result.questions.last?.incorrect.last == "Golf")
    // A quote left open takes the rest of the file with it, and the skip says so.
    let open = try read("A,easy,\"Unterminated,B,C,D\nA,easy,Next?,1,2,3,4\nA,easy,After?,1,2,3,4\n")
    #expect(
      open.skipped == [
        TriviaImport.Skip(
          line: 1,
          reason:
            "wrong number of columns: 3, expected 7 (a quoted field runs on to line 3: is a closing quote missing?)"
        )
      ])
    #expect(open.questions.isEmpty)
  }

  @Test(arguments: [
    ("\n\n" + header + "\nA*easy*What is 6,7?*1*2*3*4\n", TriviaImport.Format.star),
    ("A*easy*What is 6,7?*1*2*3*4\n", .star),
    ("A,easy,What is 6*7?,42,41,43,44\n", .csv),
    (
      "category,difficulty,question,correctAnswer,incorrect1,incorrect2,incorrect3\nA,easy,What is 6*7?,42,41,43,44\n",
      .csv
    ),
  ])
  func theFormatIsToldFromTheFirstLineThatIsNotBlank(_ text: String, _ format: TriviaImport.Format) throws {
    let result = try read(text)
    #expect(result.format == format)
    #expect(result.questions.count == 1)
  }

  /// Escape sequences in a file never reach the terminal.
  @Test func controlCharactersBecomeSpaces() throws {
    let result = try read("Cat*easy*Bell\u{7}?*Yes\u{1B}]52;c;x\u{7}*No*Maybe*Never\n")
    #expect(result.questions.first?.text == "Bell ?")
    #expect(result.questions.first?.correct == "Yes ]52;c;x")
  }

  @Test func aByteOrderMarkIsNotPartOfTheHeader() throws {
    let bytes: [UInt8] =
      [0xEF, 0xBB, 0xBF]
      + Array("category,difficulty,question,correctAnswer,incorrect1,incorrect2,incorrect3\nA,easy,Q?,1,2,3,4\n".utf8)
    guard case .success(let result) = TriviaImport.read(bytes) else { Issue.record("not read"); return }
    #expect(result.questions.count == 1)
    #expect(result.skipped.isEmpty)
  }

  @Test func openTriviaDBJSONDecodesEntitiesAndTrueOrFalse() throws {
    let text = """
      {"response_code": 0, "results": [
        {"type": "multiple", "difficulty": "hard", "category": "Art",
         "question": "Who painted &#039;The Persistence of Memory&#039;?",
         "correct_answer": "Salvador Dal&iacute;",
         "incorrect_answers": ["Ren&eacute; Magritte", "Joan Mir&oacute;", "Max Ernst &amp; co"]},
        {"type": "boolean", "difficulty": "easy", "category": "Geography",
         "question": "Mont Blanc is in the Alps.", "correct_answer": "False", "incorrect_answers": ["True"]},
        {"type": "multiple", "difficulty": "medium", "category": "Art", "question": "Two wrong?",
         "correct_answer": "A", "incorrect_answers": ["B", "C"]},
        {"type": "slider", "difficulty": "easy", "category": "Art", "question": "Slide?",
         "correct_answer": "A", "incorrect_answers": ["B"]},
        {"type": "boolean", "difficulty": "easy", "category": "Art", "question": 12,
         "correct_answer": "True", "incorrect_answers": ["False"]},
        "not an object"
      ]}
      """
    let result = try read(text)
    #expect(result.format == .openTriviaDB)
    #expect(result.questions.count == 2)
    #expect(result.questions[0].text == "Who painted 'The Persistence of Memory'?")
    #expect(result.questions[0].correct == "Salvador Dalí")
    #expect(result.questions[0].incorrect == ["René Magritte", "Joan Miró", "Max Ernst & co"])
    #expect(result.questions[1].isTrueOrFalse)
    #expect(result.questions[1].incorrect == ["True"])
    #expect(
      result.skipped == [
        TriviaImport.Skip(line: 8, reason: "results[2]: a multiple question needs 3 wrong answers, found 2"),
        TriviaImport.Skip(line: 10, reason: "results[3]: unknown type 'slider' (multiple or boolean)"),
        TriviaImport.Skip(line: 12, reason: "results[4]: \"question\" must be a string, found a number"),
        TriviaImport.Skip(line: 14, reason: "results[5]: expected an object, found a string"),
      ])
    // Open Trivia DB's own files are one line: skips say which result.
    let oneLine = try read(
      #"{"results": [{"type": "boolean", "difficulty": "easy", "category": "A", "question": "Q?", "correct_answer": "True", "incorrect_answers": ["False"]}, {"type": "boolean", "difficulty": "hard", "category": "A", "question": "q?", "correct_answer": "True", "incorrect_answers": ["False"]}, {"type": "boolean", "difficulty": "huge", "category": "A", "question": "R?", "correct_answer": "True", "incorrect_answers": ["False"]}]}"#
    )
    #expect(
      oneLine.skipped == [
        TriviaImport.Skip(line: 1, reason: "results[1]: duplicate question (as results[0])"),
        TriviaImport.Skip(line: 1, reason: "results[2]: unknown difficulty 'huge' (easy, medium or hard)"),
      ])
    // True or false keeps that order on screen.
    var random = SeededRandom(seed: 1)
    #expect(Choices(result.questions[1], random: &random).answers == ["True", "False"])
  }

  @Test(arguments: [
    (
      "{\"results\": [}",
      "not valid JSON: line 1, column 14: expected a value (a string, number, object, array, true, false or null)"
    ),
    ("{\"results\": 3}", "not an Open Trivia DB file: expected an object with a \"results\" array"),
    (
      "{\"results\": [\n  {\"a\": \"b\n\"}]}",
      "not valid JSON: line 2, column 11: a string cannot run over the end of a line (write \\n)"
    ),
    ("   \n ", "the file is empty"),
  ])
  func aFileThatIsNotABankLoadsNothing(_ text: String, _ message: String) {
    guard case .failure(let failure) = TriviaImport.read(Array(text.utf8)) else {
      Issue.record("read")
      return
    }
    #expect(failure.message == message)
  }

  @Test func invalidUTF8LoadsNothingAndSaysWhere() {
    let bytes = Array("category*difficulty\nFood*easy*Caf".utf8) + [0xE9] + Array("*A*B*C*D\n".utf8)
    guard case .failure(let failure) = TriviaImport.read(bytes) else {
      Issue.record("read")
      return
    }
    #expect(failure.message == "it is not UTF-8 text (line 2, byte 14)")
  }

  @Test(
    arguments: [
      ([0xC3, 0xA9], true), ([0xC3], false), ([0xC0, 0x80], false), ([0xED, 0xA0, 0x80], false),
      ([0xF0, 0x9F, 0x98, 0x80], true), ([0xF4, 0x90, 0x80, 0x80], false), ([0xE2, 0x82], false), ([0xFF], false),
    ] as [([UInt8], Bool)])
  func utf8IsCheckedStrictly(_ bytes: [UInt8], _ valid: Bool) {
    if case .success = TextFile.decode(bytes) { #expect(valid) } else { #expect(!valid) }
  }

  /// A missing file, or one that is not UTF-8: a clear message, and the quiz's questions
  /// are as they were.
  @Test func aFileThatCannotBeReadLeavesTheSessionUnchanged() {
    var session = testSession()
    session.state.files = MemoryFiles([
      "bad.txt": [0x66, 0xFF, 0x0A], "notes.txt": Array("just some notes\nabout nothing\n".utf8),
      "header.csv": Array("category,difficulty,question,correctAnswer,incorrect1,incorrect2,incorrect3\n".utf8),
    ])
    let before = session.state.trivia.questions.count
    #expect(
      plain(session.handle("quiz load nowhere.csv")) == [
        "error@11: nothing loaded from nowhere.csv: cannot read it: no such file"
      ])
    #expect(
      plain(session.handle("quiz load bad.txt")) == [
        "error@11: nothing loaded from bad.txt: it is not UTF-8 text (line 1, byte 2)"
      ])
    // A file that is not a question file at all: nothing loaded, and why.
    #expect(
      plain(session.handle("quiz load notes.txt")) == [
        "error@11: nothing loaded from notes.txt: none of its 2 rows is a question it can use (read as CSV)",
        "  line 1: wrong number of columns: 1, expected 7",
        "  line 2: wrong number of columns: 1, expected 7",
        "  loaded no questions, skipped 2 rows",
      ])
    #expect(
      plain(session.handle("quiz load header.csv")) == [
        "error@11: nothing loaded from header.csv: it has no questions (read as CSV)"
      ])
    #expect(session.state.trivia.questions.count == before)
  }

  /// Every skipped row is listed with its line and reason, however many there are, and one
  /// line ends the reply with what was loaded and skipped.
  @Test func everySkippedRowIsListedThenOneSummary() {
    var session = testSession()
    var rows = [TriviaImportTests.header]
    rows += (1...5).map { "Cat*easy*Good question \($0)?*A*B*C*D" }
    rows += (1...29).map { "Cat*expert*Bad question \($0)?*A*B*C*D" }
    let allBad = [TriviaImportTests.header] + (1...25).map { "Cat*expert*Bad question \($0)?*A*B*C*D" }
    session.state.files = MemoryFiles([
      "many.txt": Array(rows.joined(separator: "\n").utf8), "bad.txt": Array(allBad.joined(separator: "\n").utf8),
    ])
    let reason = "unknown difficulty 'expert' (easy, medium or hard)"
    #expect(
      plain(session.handle("quiz load many.txt"))
        == ["Skipped 29 rows:"] + (7...35).map { "  line \($0): \(reason)" } + [
          "Loaded 5 questions in 1 category from many.txt (star-separated), skipped 29 rows; the quiz now has \((BuiltInQuestions.bank.count + 5).grouped)."
        ])
    // A file refused as a whole: every row under the error, on the error's own stream, then
    // the same summary.
    #expect(
      plain(session.handle("quiz load bad.txt"))
        == [
          "error@11: nothing loaded from bad.txt: none of its 25 rows is a question it can use (read as star-separated)"
        ]
        + (2...26).map { "  line \($0): \(reason)" } + ["  loaded no questions, skipped 25 rows"])
  }

  /// A byte-order mark and CRLF line ends change nothing, in each format: the same
  /// questions, the same rows skipped on the same lines.
  @Test(arguments: [
    TriviaImportTests.header + "\n"
      + "Space*easy*Which planet is closest to the Sun?*Mercury*Venus*Mars*Earth\n"
      + "Space*expert*Bad?*A*B*C*D\n"
      + "Food*hard*Which spice is red?*Paprika*Saffron*Cumin*Turmeric\n",
    "category,difficulty,question,correctAnswer,incorrect1,incorrect2,incorrect3\n"
      + "Space,easy,\"Which planet, of all, is closest?\",Mercury,Venus,Mars,Earth\n"
      + "Food,hard,\"A question\nover two lines?\",Yes,No,Maybe,Never\n"
      + "Space,expert,Bad?,A,B,C,D\n"
      + "Food,hard,Which spice is red?,Paprika,Saffron,Cumin,Turmeric\n",
    "{\n  \"response_code\": 0,\n  \"results\": [\n"
      + "    {\"type\": \"multiple\", \"difficulty\": \"easy\", \"category\": \"Space\",\n"
      + "     \"question\": \"Which planet is &quot;closest&quot;?\", \"correct_answer\": \"Mercury\",\n"
      + "     \"incorrect_answers\": [\"Venus\", \"Mars\", \"Earth\"]},\n"
      + "    {\"type\": \"boolean\", \"difficulty\": \"expert\", \"category\": \"Space\",\n"
      + "     \"question\": \"Bad?\", \"correct_answer\": \"True\", \"incorrect_answers\": [\"False\"]},\n"
      + "    {\"type\": \"boolean\", \"difficulty\": \"hard\", \"category\": \"Food\",\n"
      + "     \"question\": \"Paprika is red.\", \"correct_answer\": \"True\", \"incorrect_answers\": [\"False\"]}\n"
      + "  ]\n}\n",
  ])
  func aByteOrderMarkAndCRLFLoadTheSame(_ text: String) throws {
    let plain = try read(text)
    #expect(plain.questions.count == 2 || plain.questions.count == 3)
    #expect(plain.skipped.count == 1)
    let crlf = Array(text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n").utf8)
    for bytes in [[0xEF, 0xBB, 0xBF] + Array(text.utf8), crlf, [0xEF, 0xBB, 0xBF] + crlf] {
      let other = try read(bytes)
      #expect(other.format == plain.format)
      #expect(other.questions == plain.questions)
      #expect(other.questions.map(\.key) == plain.questions.map(\.key))
      #expect(other.skipped == plain.skipped)
    }
  }

  /// Two questions with the same text and other answers are two questions, each with its
  /// own key; the same text with the same answers (in any order, case or spacing) is a
  /// duplicate.
  @Test func theSameTextWithOtherAnswersIsAnotherQuestion() throws {
    let germany = "Which of these cities is in Germany?"
    let text = [
      TriviaImportTests.header, "Geography*easy*\(germany)*Munich*Vienna*Zurich*Prague",
      "Geography*easy*\(germany)*Hamburg*Lyon*Milan*Porto",
      "Geography*hard*which of these cities is in  GERMANY?*munich*Prague*Zürich*Vienna",
      "Geography*easy*\(germany)*Hamburg*Porto*Lyon*Milan",
    ].joined(separator: "\n")
    let result = try read(text)
    try #require(result.questions.count == 2)
    #expect(result.questions.map(\.correct) == ["Munich", "Hamburg"])
    #expect(
      result.skipped == [
        TriviaImport.Skip(line: 4, reason: "duplicate question (as on line 2)"),
        TriviaImport.Skip(line: 5, reason: "duplicate question (as on line 3)"),
      ])
    // The first keeps the key of its text (as every question had before), the second has one of its own.
    #expect(result.questions[0].key == TriviaQuestion.key(for: germany))
    #expect(result.questions[1].key != result.questions[0].key)
    #expect(result.questions[1].key.count == 16)
    // Reading the file again gives the same keys (the store knows its questions again).
    #expect(try read(text).questions.map(\.key) == result.questions.map(\.key))

    // Against a bank that has them: both are duplicates; a third set of answers is new.
    let bank = QuestionBank(result.questions)
    #expect(bank.count == 2)
    let again = try read(text, besides: bank)
    #expect(again.questions.isEmpty)
    #expect(again.skipped.map(\.reason) == Array(repeating: "duplicate question (already in the bank)", count: 4))
    let third = try read(
      TriviaImportTests.header + "\nGeography*easy*\(germany)*Cologne*Bern*Graz*Oslo\n", besides: bank)
    try #require(third.questions.count == 1)
    #expect(!result.questions.map(\.key).contains(third.questions[0].key))
    var grown = bank
    let added = grown.add(third.questions[0])
    let addedAgain = grown.add(third.questions[0])
    #expect(added && !addedAgain)
    #expect(grown.count == 3)

    // In a session: both load, and a quiz can ask both.
    var session = testSession()
    session.state.files = MemoryFiles(["germany.txt": Array(text.utf8)])
    let before = session.state.trivia.questions.count
    #expect(plain(session.handle("quiz load germany.txt")).contains { $0.hasPrefix("Loaded 2 questions") })
    #expect(session.state.trivia.questions.count == before + 2)
    #expect(session.state.trivia.questions.matching(difficulty: .easy, category: "geography").count >= 2)
  }

  /// Open Trivia DB's other encodings (`encode=url3986`, `urlLegacy`, `base64`) encode every
  /// string; they are told from the text and decoded, and give the same questions.
  /// (The fixtures were written by Python's urllib.parse.quote(s, safe=""), quote_plus and
  /// base64.b64encode, one line with no spaces as Open Trivia DB sends them.)
  @Test(arguments: [
    ("opentdb-url3986.json", "url3986"), ("opentdb-urllegacy.json", "urlLegacy"), ("opentdb-base64.json", "base64"),
  ])
  func openTriviaDBsOtherEncodingsAreDecoded(_ name: String, _ encoding: String) throws {
    let result = try read(try Transcript.files.read(name))
    #expect(result.format == .openTriviaDB)
    #expect(result.encoding == encoding)
    #expect(result.formatLabel == "Open Trivia DB JSON, encode=\(encoding)")
    #expect(result.skipped.isEmpty)
    try #require(result.questions.count == 3)
    #expect(
      result.questions.map(\.text) == [
        "Which Greek letter, Φ, names the golden ratio? (\"phi\" & 100% sure)",
        "Salvador Dalí painted 'The Persistence of Memory'.",
        "Who wrote «\u{A0}Les Misérables\u{A0}»?\nIn 1862, that is.",
      ])
    #expect(result.questions.map(\.category) == ["Science: Mathematics", "Art", "Entertainment: Books"])
    #expect(result.questions.map(\.difficulty) == [.medium, .easy, .hard])
    #expect(result.questions[0].incorrect == ["Psi Ψ", "Tau Τ", "Omicron Ο"])
    #expect(result.questions[1].isTrueOrFalse)
    #expect(result.questions[2].incorrect == ["Émile Zola", "Gustave Flaubert", "Honoré de Balzac + Co"])
  }

  /// What cannot be told apart is refused with the reason; a field that does not decode
  /// skips its row.
  @Test func anOpenTriviaDBFileInMixedEncodingsIsRefused() throws {
    func results(_ items: [String]) -> String {
      "{\"response_code\": 0, \"results\": [" + items.joined(separator: ",") + "]}"
    }
    let plainItem =
      #"{"type": "boolean", "difficulty": "easy", "category": "Art", "question": "Is it plain?", "correct_answer": "True", "incorrect_answers": ["False"]}"#
    // "boolean", "easy", "Art", "Is it base64?", "True", "False"
    let base64Item =
      #"{"type": "Ym9vbGVhbg==", "difficulty": "ZWFzeQ==", "category": "QXJ0", "question": "SXMgaXQgYmFzZTY0Pw==", "correct_answer": "VHJ1ZQ==", "incorrect_answers": ["RmFsc2U="]}"#
    guard case .failure(let failure) = TriviaImport.read(Array(results([base64Item, plainItem]).utf8)) else {
      Issue.record("a file in two encodings was read")
      return
    }
    #expect(
      failure.message
        == "results[0] is base64-encoded (Open Trivia DB's encode=base64) but results[1] is not: "
        + "an Open Trivia DB file has one encoding")
    let badBase64 = base64Item.replacingOccurrences("SXMgaXQgYmFzZTY0Pw==", "SXMg*XQ")
    let read = try self.read(results([base64Item, badBase64]))
    #expect(read.questions.count == 1)
    #expect(read.skipped == [TriviaImport.Skip(line: 1, reason: "results[1]: \"question\" is not valid base64")])
  }

  /// The limit on a field counts characters, not bytes: Greek letters take two bytes each.
  @Test func theLengthLimitCountsCharacters() throws {
    let greek = Array("αβγδεζηθικλμνξοπρστυφχψω")
    func question(_ count: Int) -> String { String((0..<count - 1).map { greek[$0 % greek.count] }) + ";" }
    let text = [
      TriviaImportTests.header, "Greek*easy*\(question(613))*Α*Β*Γ*Δ", "Greek*easy*\(question(1000))*Α*Β*Γ*Δ",
      "Greek*easy*\(question(1001))*Α*Β*Γ*Δ", "Greek*easy*Long answer?*\(question(1001))*Β*Γ*Δ",
    ].joined(separator: "\n")
    let result = try read(text)
    #expect(result.questions.map(\.text.count) == [613, 1000])
    #expect(result.questions[0].text.utf8.count == 1225)
    #expect(
      result.skipped == [
        TriviaImport.Skip(line: 4, reason: "question is longer than 1,000 characters"),
        TriviaImport.Skip(line: 5, reason: "correctAnswer is longer than 1,000 characters"),
      ])
  }

  /// Issue 30: a header that names the `accepted` column lets rows give other ways to type
  /// the right answer; without it, eight fields are a `*` too many, as before.
  @Test func anAcceptedColumnOnlyWhereTheHeaderNamesIt() throws {
    let header = TriviaImportTests.header + "*accepted"
    let file = try read(
      [
        header, "Places*easy*Which country has Ohio?*United States*Canada*Mexico*Brazil*USA| US |",
        "Places*easy*Capital of Peru?*Lima*Quito*Bogotá*Santiago",
        "Places*easy*Q1?*Eight*Nine*Ten*Six*9", "Places*easy*Q2?*A1*B1*C1*D1*b1",
        "Places*easy*Q3?*A1*B1*C1*D1*E1*F1",
      ].joined(separator: "\n"))
    #expect(file.questions.map(\.accepted) == [["USA", "US"], []])
    #expect(
      file.skipped == [
        TriviaImport.Skip(line: 4, reason: "the accepted answer '9' is also a wrong one"),
        TriviaImport.Skip(line: 5, reason: "the accepted answer 'b1' is also a wrong one"),
        TriviaImport.Skip(line: 6, reason: "wrong number of columns: 9, expected 7 or 8"),
      ])
    // A question with a star in it, in a file without the column: refused, not misread.
    let stray = try read(TriviaImportTests.header + "\nMaths*easy*What is 2*3?*6*5*8*9\n")
    #expect(stray.questions.isEmpty)
    #expect(stray.skipped == [TriviaImport.Skip(line: 2, reason: "wrong number of columns: 8, expected 7")])
  }

  /// Issues 8 and 30: a year of daily questions, every one of them sound as a question.
  @Test func theBuiltInBankIsWhatTheIssueAsks() throws {
    let bank = BuiltInQuestions.bank
    var read = 0
    for edition in 0..<BuiltInQuestions.editions {
      let file = try #require(try? BuiltInQuestions.read(edition: edition).get())
      #expect(file.skipped.isEmpty, "edition \(edition + 1): \(file.skipped)")
      read += file.questions.count
    }
    #expect(BuiltInQuestions.editions == 2)
    // No question twice (folded, whatever the edition), nor a text twice with other answers.
    #expect(bank.count == read)
    #expect(Set(bank.questions.map { Folding.key($0.text) }).count == bank.count)
    #expect(bank.count >= 1_100)
    for level in Difficulty.allCases {
      #expect(bank.matching(difficulty: level, category: nil).count >= 365, "\(level)")
    }
    // At least ten categories, each with questions of every difficulty.
    let categories = bank.categories
    #expect(categories.count >= 10)
    for category in categories {
      #expect(Difficulty.allCases.allSatisfy { category.counts[$0, default: 0] >= 10 }, "\(category.name)")
    }
    for question in bank.questions {
      let answers = question.answers.map { Folding.key($0) }
      #expect(question.incorrect.count == 3 && Set(answers).count == 4, "\(question.text)")
      // Nothing another way of typing the right answer shares with a wrong one.
      let accepted = Set(question.accepted.map { Folding.key($0) })
      #expect(accepted.isDisjoint(with: answers.dropFirst()), "\(question.text)")
      // Every answer can be told by its text: no answer is a letter a–d alone.
      #expect(answers.allSatisfy { !["a", "b", "c", "d"].contains($0) }, "\(question.text)")
    }
  }
}

/// The small readers underneath.
@Suite struct TextFormatTests {
  @Test(arguments: [
    ("Curaçao", "curacao"), ("  CRÈME   brûlée ", "creme brulee"), ("Straße", "strasse"),
    ("Cafe\u{301}", "cafe"), ("l’été", "l'ete"), ("Dvořák", "dvorak"), ("Łódź", "lodz"),
  ])
  func foldingIgnoresCaseAccentsAndSpacing(_ text: String, _ folded: String) {
    #expect(Folding.key(text) == folded)
  }

  @Test(arguments: [
    ("Tom &amp; Jerry", "Tom & Jerry"), ("&quot;Hi&quot;", "\"Hi\""), ("It&#039;s", "It's"), ("&#x27;", "'"),
    ("Beyonc&eacute;", "Beyoncé"), ("&Uuml;ber", "Über"), ("AT&T", "AT&T"), ("&bogus;", "&bogus;"), ("&", "&"),
    ("&hellip;&rsquo;", "…’"),
  ])
  func htmlEntitiesDecode(_ text: String, _ decoded: String) {
    #expect(HTMLEntities.decode(text) == decoded)
  }

  /// A byte-order mark is taken off in one place, for every reader, and CRLF line ends
  /// become LF there: a word list (read as bytes, so a Latin-1 list works) keeps its first
  /// word, and a level table and a personality quiz read as they do without them.
  @Test func aByteOrderMarkIsTakenOffForEveryReader() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let (list, report) = WordList.read(bom + Array("camel\nnotes\n".utf8), blocked: [])
    #expect(list.words == ["camel", "notes"])
    #expect(report.skipped == "")
    let (latin1, _) = WordList.read(bom + [0x63, 0x61, 0x66, 0xE9, 0x0A, 0x6E, 0x6F, 0x74, 0x65, 0x0A], blocked: [])
    #expect(latin1.words == ["note"])
    #expect(TextFile.withoutByteOrderMark(bom + [0x61]) == [0x61])
    #expect(TextFile.withoutByteOrderMark([0xEF, 0xBB]) == [0xEF, 0xBB])
    let levels = try TextFile.decode(bom + Array("easy 4 10 3\r\n# a comment\r\ngiant 9-10 120 30\r\n".utf8)).get()
    #expect(levels == "easy 4 10 3\n# a comment\ngiant 9-10 120 30\n")
    #expect(
      AnagramLevels.read(levels).map { $0.map(\.name) + $0.map(\.seconds).map(String.init) }
        == .success(["easy", "medium", "hard", "giant", "10", "45", "45", "120"]))
    let pets = try Transcript.files.read("pets.json")
    let windows = bom + Array(String(decoding: pets, as: UTF8.self).replacingOccurrences("\n", "\r\n").utf8)
    #expect(try PersonalityFile.read(windows).get() == PersonalityFile.read(pets).get())
  }

  /// RFC 4648's test vectors, padding left off, and what is not base64.
  @Test(
    arguments: [
      ("", ""), ("Zg==", "f"), ("Zm8=", "fo"), ("Zm9v", "foo"), ("Zm9vYg==", "foob"), ("Zm9vYmE=", "fooba"),
      ("Zm9vYmFy", "foobar"), ("Zm8", "fo"), ("4pyTIM6m", "✓ Φ"), ("Z", nil), ("Zm8==", nil), ("Zg=", nil),
      ("Zg==Zg==", nil), ("Zm9v=", nil), ("Zm 9v", nil), ("Zm9v-_", nil),
    ] as [(String, String?)])
  func base64Decodes(_ text: String, _ decoded: String?) {
    #expect(TransferEncodings.base64Decoded(text).map { String(decoding: $0, as: UTF8.self) } == decoded)
  }

  @Test(
    arguments: [
      ("a%20b", false, "a b"), ("%E2%9C%93%c3%a9", false, "✓é"), ("a+b", false, "a+b"), ("a+b%2B", true, "a b+"),
      ("100%", false, nil), ("%2", false, nil), ("%zz", false, nil),
    ] as [(String, Bool, String?)])
  func percentEncodingDecodes(_ text: String, _ plusIsSpace: Bool, _ decoded: String?) {
    #expect(
      TransferEncodings.percentDecoded(text, plusIsSpace: plusIsSpace).map { String(decoding: $0, as: UTF8.self) }
        == decoded)
  }

  /// Bytes that are not UTF-8 once decoded skip the row and say so.
  @Test(arguments: [
    (OpenTriviaDBEncoding.url3986, "caf%E9", "is not UTF-8 text once decoded from URL encoding"),
    (.base64, "/w==", "is not UTF-8 text once decoded from base64"), (.base64, "/w=", "is not valid base64"),
  ])
  func aStringThatDoesNotDecodeSaysWhy(_ encoding: OpenTriviaDBEncoding, _ text: String, _ why: String) {
    guard case .failure(let problem) = encoding.decode(text) else {
      Issue.record("decoded")
      return
    }
    #expect(problem.description == why)
  }

  /// A level table with a problem is not used, and every problem is listed with its line
  /// (only the first ten were).
  @Test func everyProblemOfALevelTableIsListed() {
    var session = testSession()
    let lines = "abcdefghijkl".map { "level\($0) 4 2 10" }
    session.state.files = MemoryFiles(["levels.txt": Array(lines.joined(separator: "\n").utf8)])
    session.state.anagramLevelsFile = "levels.txt"
    let reply = plain(session.handle("anagram levels"))
    #expect(reply.first == "warning: the anagram levels in levels.txt are not used:")
    #expect(
      Array(reply.dropFirst().prefix(12))
        == (1...12).map { "  line \($0): seconds \"2\" should be a whole number from 5 to 3600" })
  }

  @Test func jsonReadsEveryKindOfValue() throws {
    let json = try JSON.parse(#"{"a": [1, -2.5e3, true, false, null, "x\"\u00e9\ud83d\ude00\n"], "b": {}}"#).get()
    guard case .array(let items)? = json["a"] else {
      Issue.record("no array")
      return
    }
    #expect(items.map(\.value) == [.number(1), .number(-2500), .bool(true), .bool(false), .null, .string("x\"é😀\n")])
    #expect(json["b"] == .object([]))
  }

  @Test(arguments: [
    ("[1,]", 1, 4), ("{\"a\" 1}", 1, 6), ("[01]", 1, 2), ("\"\\q\"", 1, 2), ("[\n\n  tru]", 3, 3), ("", 1, 1),
    ("[1] 2", 1, 5), ("\"\\ud800\"", 1, 8),
  ])
  func jsonErrorsSayWhere(_ text: String, _ line: Int, _ column: Int) {
    guard case .failure(let error) = JSON.parse(text) else {
      Issue.record("parsed \(text)")
      return
    }
    #expect((error.line, error.column) == (line, column), "\(error.message)")
  }

  @Test func jsonNestingIsLimited() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    guard case .failure(let error) = JSON.parse(deep) else {
      Issue.record("parsed")
      return
    }
    #expect(error.message.contains("nested more than"))
  }
}
