import ReckonCore
import ReckonData

/// Reads a trivia bank from a user's file, in any of three formats, keeping every good row
/// and saying why each bad one was skipped.
///
/// 1. Star-separated: `category*difficulty*question*correctAnswer*incorrect1*incorrect2*incorrect3`
///    with that header line (the format of an existing trivia app's bank, and of Reckon's own);
///    a header that names an eighth column, `accepted`, lets a row give other ways to type
///    the right answer, separated by `|` (`USA|United States of America`). Without that
///    header a row of eight fields is a mistake (a `*` in a question), not an answer.
/// 2. The same columns as CSV (RFC 4180: quoted fields with commas, quotes and line breaks).
/// 3. Open Trivia DB's JSON: `results`, each with `type`, `difficulty`, `category`,
///    `question`, `correct_answer` and `incorrect_answers`; HTML entities are decoded, and a
///    `boolean` question becomes a two-choice one. A file saved with Open Trivia DB's other
///    encodings (`encode=url3986`, `urlLegacy` or `base64`, where every string is encoded) is
///    told from its strings and decoded; one whose results are in two encodings is refused.
///
/// The format is told from the text: JSON starts with `{` or `[`; otherwise the first line
/// that is not blank decides: the header names its separator, and a line without a header
/// is star-separated if it has more stars than commas.
public struct TriviaImport: Sendable {
  public enum Format: String, Sendable {
    case star = "star-separated"
    case csv = "CSV"
    case openTriviaDB = "Open Trivia DB JSON"
  }

  /// A row left out, and why.
  public struct Skip: Sendable, Equatable {
    public var line: Int
    public var reason: String
  }

  public var format: Format
  /// How an Open Trivia DB file's strings were encoded, when not with HTML's references, by
  /// Open Trivia DB's name for it: `url3986`, `urlLegacy`, `base64`.
  public var encoding: String?
  public var questions: [TriviaQuestion] = []
  public var skipped: [Skip] = []

  /// The format as the summary names it: `CSV`, `Open Trivia DB JSON, encode=base64`.
  public var formatLabel: String { format.rawValue + (encoding.map { ", encode=\($0)" } ?? "") }

  /// Why nothing could be read from a file at all.
  public struct Failure: Error, Sendable, Equatable {
    public var message: String
  }

  static let columns = [
    "category", "difficulty", "question", "correctAnswer", "incorrect1", "incorrect2", "incorrect3",
  ]
  /// Longer fields than this are a mistake (a runaway quote, say), not a question.
  static let maxFieldLength = 1000
  /// What a file's rows may hold, so that the memory a file takes stays bounded: a row's
  /// fields past 64 are only counted (it is skipped for its number of columns), and a file
  /// of more than a million fields (about 140,000 questions) is refused. A 20 MB file of
  /// `*` took 1.13 GB; one of `*` lines, 2.5 GB.
  public static let limits = DelimitedText.Limits(fieldsPerRow: 64, fields: 1_000_000)
  /// The most JSON values an Open Trivia DB file may hold (about 90,000 questions).
  public static let maxJSONValues = 1_000_000

  /// The longest line of a star-separated or CSV file, and the longest row: a row within the
  /// field limit is well within it (seven fields of 1,000 characters of four bytes). A longer
  /// one is skipped as soon as it passes the limit, unread (a 100 MB line took 416 MB).
  public static let maxLineBytes = 65_536
  /// The largest Open Trivia DB file (JSON, which is read whole): about as much as
  /// `maxJSONValues` takes (Open Trivia DB's whole bank is about 2 MB).
  public static let maxJSONBytes = 32 << 20

  /// Reads `bytes`; questions already in `bank` (the same text and answers, folded) are
  /// skipped as duplicates.
  public static func read(_ bytes: [UInt8], besides bank: QuestionBank = QuestionBank()) -> Result<
    TriviaImport, Failure
  > {
    var lines = TextLines(bytes: bytes, lineLimit: maxLineBytes)
    return read(&lines, besides: bank)
  }

  /// Reads a file a line at a time (JSON whole, up to `maxJSONBytes`); questions already in
  /// `bank` are skipped as duplicates. A line over `maxLineBytes` is a row skipped unread.
  public static func read(_ lines: inout TextLines, besides bank: QuestionBank = QuestionBank()) -> Result<
    TriviaImport, Failure
  > {
    do throws(TextLines.Failure) {
      return try readLines(&lines, besides: bank)
    } catch {
      return .failure(Failure(message: error.message("a question file")))
    }
  }

  private static func readLines(_ lines: inout TextLines, besides bank: QuestionBank) throws(TextLines.Failure)
    -> Result<TriviaImport, Failure>
  {
    guard let start = try lines.firstNonBlank() else { return .failure(Failure(message: "the file is empty")) }
    if start == UInt8(ascii: "{") || start == UInt8(ascii: "[") {
      let bytes: [UInt8]
      do {
        bytes = try lines.rest(limit: maxJSONBytes)
      } catch {
        return .failure(Failure(message: error.message("an Open Trivia DB file (JSON)")))
      }
      let text: String
      switch TextFile.decode(bytes) {
      case .success(let decoded): text = decoded
      case .failure(let bad):
        return .failure(Failure(message: "it is not UTF-8 text (line \(bad.line), byte \(bad.byte))"))
      }
      switch openTriviaDB(text) {
      case .success(var read):
        read.removeDuplicates(besides: bank)
        return .success(read)
      case .failure(let failure): return .failure(failure)
      }
    }
    var result = TriviaImport(format: .star)
    var format: Format?
    var star = DelimitedText.StarRows(limits: limits)
    var csv = DelimitedText.CSVRows(limits: limits, rowLimit: maxLineBytes)
    var headerLooked = false
    func take(_ row: DelimitedText.Row) {
      if row.tooLong {
        return result.skipRow(
          line: row.line,
          "the row is longer than \(maxLineBytes.grouped) bytes, the most a row may be, and was not read")
      }
      if !headerLooked {
        headerLooked = true
        if isHeader(row.fields) {
          result.acceptedColumn =
            row.fields.count == 8 && row.fields[7].utf8.count < 100
            && Folding.key(row.fields[7]).filter { $0 != "_" && $0 != " " } == "accepted"
          return
        }
      }
      result.add(row.fields, line: row.line, lastLine: row.lastLine, count: row.fieldCount)
    }
    // Past a million fields in all, reading stops.
    var tooMany: DelimitedText.TooManyFields?
    func rows(_ read: () throws(DelimitedText.TooManyFields) -> DelimitedText.Row?) {
      do {
        if let row = try read() { take(row) }
      } catch {
        tooMany = error
      }
    }
    while tooMany == nil, let line = try lines.next() {
      guard case .text(let bytes) = line else {
        let number = lines.number
        rows { () throws(DelimitedText.TooManyFields) in
          format == .csv
            ? try csv.rowOfLineTooLong(number: number) : DelimitedText.Row(line: number, fields: []).markedTooLong()
        }
        continue
      }
      if let byte = TextFile.firstInvalidByte(bytes) {
        return .failure(Failure(message: "it is not UTF-8 text (line \(lines.number), byte \(byte))"))
      }
      if format == nil {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
        format = TriviaImport.format(ofFirstLine: bytes)
        result.format = format!
      }
      let number = lines.number
      if format == .csv {
        rows { () throws(DelimitedText.TooManyFields) in try csv.row(after: bytes, number: number) }
      } else {
        rows { () throws(DelimitedText.TooManyFields) in try star.row(bytes, number: number) }
      }
    }
    if format == .csv { rows { () throws(DelimitedText.TooManyFields) in try csv.finish() } }
    if let tooMany {
      return .failure(
        Failure(
          message: "it has more than \(limits.fields.grouped) fields (passed at line \(tooMany.line.grouped)): "
            + "a question file may hold at most that many, about \((limits.fields / 7).grouped) questions"))
    }
    result.removeDuplicates(besides: bank)
    return .success(result)
  }

  /// Star-separated or CSV, from the first line that is not blank: its header names its
  /// separator, and a line without a header is star-separated if it has more stars than commas.
  static func format(ofFirstLine line: ArraySlice<UInt8>) -> Format {
    let stars = line.count { $0 == UInt8(ascii: "*") }
    let commas = line.count { $0 == UInt8(ascii: ",") }
    // The first two columns, split on bytes.
    func columns(_ separator: UInt8) -> [String] {
      line.split(separator: separator, maxSplits: 2).map { String(decoding: $0, as: UTF8.self) }
    }
    let isStar = isHeader(columns(UInt8(ascii: "*"))) || (!isHeader(columns(UInt8(ascii: ","))) && stars > commas)
    return isStar ? .star : .csv
  }

  /// Whether a row names the columns (in any case, with `_` or spaces as you like).
  static func isHeader(_ fields: [String]) -> Bool {
    // Only the first two columns are looked at, and a long one is no column's name (folding
    // a 20 MB first line took a second).
    guard fields.count >= 2, fields[0].utf8.count < 100, fields[1].utf8.count < 100 else { return false }
    let names = fields.prefix(2).map { Folding.key($0).filter { $0 != "_" && $0 != " " } }
    return names[0] == "category" && names[1] == "difficulty"
  }

  /// Checks one row of the seven columns; a bad one is skipped with its reason. `count` is
  /// the row's number of fields when not all were kept.
  mutating func add(_ raw: [String], line: Int, lastLine: Int? = nil, count: Int? = nil) {
    let count = count ?? raw.count
    guard count == 7 || (count == 8 && acceptedColumn) else {
      // A quote left open swallows the lines after it: say where it ran to.
      let open = lastLine.map { " (a quoted field runs on to line \($0): is a closing quote missing?)" } ?? ""
      let expected = acceptedColumn ? "7 or 8" : "7"
      skipRow(line: line, "wrong number of columns: \(count.grouped), expected \(expected)" + open)
      return
    }
    let fields = raw.map(\.trimmingSpaces)
    add(
      category: fields[0], difficulty: fields[1], question: fields[2], correct: fields[3],
      incorrect: Array(fields[4..<7]), line: line, place: nil, columns: Array(TriviaImport.columns[3...]),
      accepted: count == 8 ? fields[7].split(separator: "|").map(String.init) : [])
  }

  /// Checks a question's parts, whatever the format; `place` names it where a line does
  /// not (`results[3]`), and `columns` names the answers' places.
  mutating func add(
    category: String, difficulty: String, question: String, correct: String, incorrect: [String], line: Int,
    place: String?, columns: [String], accepted: [String] = []
  ) {
    let origin = nextOrigin(line: line, place: place)
    func skip(_ reason: String) { self.skip(reason, at: origin) }
    // Control characters never reach the terminal (an escape sequence in a file could
    // retitle the window or write the clipboard); a question may keep its line breaks.
    let question = PlainText.withoutControls(question, keepingLineBreaks: true).trimmingSpaces
    let category = PlainText.withoutControls(category).trimmingSpaces
    let correct = PlainText.withoutControls(correct).trimmingSpaces
    let incorrect = incorrect.map { PlainText.withoutControls($0).trimmingSpaces }
    if question.isEmpty { return skip("empty question") }
    if category.isEmpty { return skip("empty category") }
    guard let level = Difficulty(rawValue: difficulty) ?? Difficulty(rawValue: Folding.key(difficulty)) else {
      return skip(
        difficulty.isEmpty
          ? "empty difficulty (easy, medium or hard)" : "unknown difficulty '\(difficulty)' (easy, medium or hard)")
    }
    for (name, answer) in zip(columns, [correct] + incorrect) where answer.isEmpty {
      return skip("empty answer (\(name))")
    }
    // Characters, not bytes (a Greek or Russian question takes two bytes a letter). Bytes
    // first: counting characters is slower, and a field within the limit in bytes is within it
    // in characters.
    for (name, field) in zip(["category", "question"] + columns, [category, question, correct] + incorrect)
    where field.utf8.count > TriviaImport.maxFieldLength && field.count > TriviaImport.maxFieldLength {
      return skip("\(name) is longer than \(TriviaImport.maxFieldLength.grouped) characters")
    }
    let right = Folding.key(correct)
    let wrong = incorrect.map { Folding.key($0) }
    if wrong.contains(right) { return skip("the right answer is repeated among the wrong ones") }
    // Pairs, not a Set: three answers, a hundred thousand rows.
    for i in wrong.indices where wrong[(i + 1)...].contains(wrong[i]) { return skip("a wrong answer is repeated") }
    // Other ways to type the right answer: never a wrong one's.
    var others: [String] = []
    let looseWrong = accepted.isEmpty ? [] : incorrect.map(Choices.looseWords)
    for other in accepted.map({ PlainText.withoutControls($0).trimmingSpaces }) where !other.isEmpty {
      if other.utf8.count > TriviaImport.maxFieldLength && other.count > TriviaImport.maxFieldLength {
        return skip("an accepted answer is longer than \(TriviaImport.maxFieldLength.grouped) characters")
      }
      // As a typed answer is compared, which takes in the same text (9 would be Nine's).
      if looseWrong.contains(Choices.looseWords(other)) {
        return skip("the accepted answer '\(other)' is also a wrong one")
      }
      let folded = Folding.key(other)
      if folded != right && !others.contains(where: { Folding.key($0) == folded }) { others.append(other) }
    }
    questions.append(
      TriviaQuestion(
        category: category, difficulty: level, text: question, correct: correct, incorrect: incorrect,
        accepted: others))
    origins.append(origin)
  }

  /// Skips a row before its parts are read.
  mutating func skipRow(line: Int, _ reason: String) {
    skip(reason, at: nextOrigin(line: line, place: nil))
  }

  /// Where a row came from: its line, its place in JSON (`results[3]`), and its number
  /// among the rows read (skips are listed in that order: several JSON results share a line).
  private struct Origin {
    var line: Int
    var place: String?
    var row: Int

    /// Where, for a duplicate's message: `on line 4`, `results[3]`.
    var label: String { place ?? "on line \(line)" }
  }

  private var rowCount = 0
  /// The origin of each question kept, and the row of each skip.
  private var origins: [Origin] = []
  /// Whether the header names the `accepted` column (rows may then have eight fields).
  var acceptedColumn = false
  private var skipRows: [Int] = []

  private mutating func nextOrigin(line: Int, place: String?) -> Origin {
    rowCount += 1
    return Origin(line: line, place: place, row: rowCount)
  }

  private mutating func skip(_ reason: String, at origin: Origin) {
    skipped.append(Skip(line: origin.line, reason: origin.place.map { "\($0): \(reason)" } ?? reason))
    skipRows.append(origin.row)
  }

  init(format: Format) { self.format = format }

  /// Skips the second and later copies of a question (the same text and answers), and those
  /// the bank has already; gives each question kept its key, as the bank will
  /// (`QuestionBank.place`).
  mutating func removeDuplicates(besides bank: QuestionBank) {
    // Each key kept so far: the question's place among those kept, and its row's.
    var first: [String: (kept: Int, row: Int)] = [:]
    first.reserveCapacity(questions.count)
    var kept: [TriviaQuestion] = []
    kept.reserveCapacity(questions.count)
    for (index, question) in questions.enumerated() {
      let placement = QuestionBank.place(question) { key in
        bank.question(key: key) ?? first[key].map { kept[$0.kept] }
      }
      switch placement {
      case .duplicate(let twin):
        if let earlier = first[twin.key] {
          skip("duplicate question (as \(origins[earlier.row].label))", at: origins[index])
        } else {
          skip("duplicate question (already in the bank)", at: origins[index])
        }
      case .new(let keyed):
        first[keyed.key] = (kept.count, index)
        kept.append(keyed)
      }
    }
    questions = kept
    skipped = zip(skipped, skipRows).sorted { $0.1 < $1.1 }.map(\.0)
    (origins, skipRows) = ([], [])
  }

  // MARK: Open Trivia DB

  static func openTriviaDB(_ text: String) -> Result<TriviaImport, Failure> {
    let json: JSON
    switch JSON.parse(text, maxValues: maxJSONValues, maxStringBytes: maxLineBytes) {
    case .success(let value): json = value
    case .failure(let error) where error.isTooLarge:
      return .failure(
        Failure(
          message: "it holds more than \(maxJSONValues.grouped) JSON values (passed at line \(error.line.grouped)): "
            + "a question file may hold at most that many, about \((maxJSONValues / 11).grouped) questions"))
    case .failure(let error):
      return .failure(Failure(message: "not valid JSON: line \(error.line), column \(error.column): \(error.message)"))
    }
    guard case .array(let results)? = json["results"] else {
      return .failure(
        Failure(message: "not an Open Trivia DB file: expected an object with a \"results\" array"))
    }
    let encoding: OpenTriviaDBEncoding
    switch OpenTriviaDBEncoding.of(results.map(\.value)) {
    case .success(let found): encoding = found
    case .failure(let failure): return .failure(failure)
    }
    var result = TriviaImport(format: .openTriviaDB)
    result.encoding = encoding.label
    for (index, item) in results.enumerated() {
      result.addOpenTriviaDB(item.value, index: index, line: item.line, encoding: encoding)
    }
    return .success(result)
  }

  mutating func addOpenTriviaDB(_ item: JSON, index: Int, line: Int, encoding: OpenTriviaDBEncoding = .html) {
    func skip(_ reason: String) { skipRow(line: line, "results[\(index)]: \(reason)") }
    guard case .object = item else { return skip("expected an object, found \(item.kind)") }
    var text: [String: String] = [:]
    for name in ["type", "difficulty", "category", "question", "correct_answer"] {
      guard let value = item[name] else { return skip("\"\(name)\" is missing") }
      guard let string = value.string else { return skip("\"\(name)\" must be a string, found \(value.kind)") }
      switch encoding.decode(string) {
      case .success(let decoded): text[name] = decoded.trimmingSpaces
      case .failure(let why): return skip("\"\(name)\" \(why)")
      }
    }
    guard case .array(let wrong)? = item["incorrect_answers"] else {
      return skip(
        item["incorrect_answers"] == nil
          ? "\"incorrect_answers\" is missing" : "\"incorrect_answers\" must be an array of strings")
    }
    var incorrect: [String] = []
    for (place, answer) in wrong.enumerated() {
      guard let s = answer.value.string else { return skip("\"incorrect_answers\" must be an array of strings") }
      switch encoding.decode(s) {
      case .success(let decoded): incorrect.append(decoded.trimmingSpaces)
      case .failure(let why): return skip("\"incorrect_answers[\(place)]\" \(why)")
      }
    }
    let expected: Int
    switch text["type"]! {
    case "multiple": expected = 3
    case "boolean": expected = 1
    default: return skip("unknown type '\(text["type"]!)' (multiple or boolean)")
    }
    guard incorrect.count == expected else {
      return skip(
        "a \(text["type"]!) question needs \(Wording.count(expected, "wrong answer")), found \(incorrect.count)")
    }
    var columns = ["correct_answer"]
    columns += incorrect.indices.map { "incorrect_answers[\($0)]" }
    // Open Trivia DB's own difficulty words are ours.
    add(
      category: text["category"]!, difficulty: text["difficulty"]!, question: text["question"]!,
      correct: text["correct_answer"]!, incorrect: incorrect, line: line, place: "results[\(index)]", columns: columns)
  }
}

/// How an Open Trivia DB file's strings are written: with HTML's character references (its
/// default), or with one of the encodings it offers for downloads (`encode=url3986`,
/// `urlLegacy`, `base64`), in which every string is encoded and none has HTML references.
enum OpenTriviaDBEncoding: Sendable, Equatable {
  case html, url3986, urlLegacy, base64

  /// Open Trivia DB's name for it (`encode=base64`); nil for the default.
  var label: String? {
    switch self {
    case .html: nil
    case .url3986: "url3986"
    case .urlLegacy: "urlLegacy"
    case .base64: "base64"
    }
  }

  /// A string's text, or why it has none (`is not valid base64`).
  func decode(_ text: String) -> Result<String, DecodingProblem> {
    let bytes: [UInt8]?
    let name: String
    switch self {
    case .html: return .success(HTMLEntities.decode(text))
    case .url3986, .urlLegacy:
      bytes = TransferEncodings.percentDecoded(text, plusIsSpace: self == .urlLegacy)
      name = "URL encoding"
    case .base64:
      bytes = TransferEncodings.base64Decoded(text)
      name = "base64"
    }
    guard let bytes else { return .failure(DecodingProblem("is not valid \(name)")) }
    guard let decoded = String(validating: bytes, as: UTF8.self) else {
      return .failure(DecodingProblem("is not UTF-8 text once decoded from \(name)"))
    }
    return .success(decoded)
  }

  /// Why a string did not decode, as the end of a sentence about it.
  struct DecodingProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// The encoding of a file's results, told from their strings. Base64: a result's `type` is
  /// `multiple` or `boolean` in base64. URL-encoded: every string of a result is made of
  /// RFC 3986's unreserved characters, `%XX` and `+`, and its question has a `%XX` or `+` (a
  /// question has spaces; plain text with spaces is never URL-encoded); `+` anywhere makes it
  /// the legacy form. A file whose results do not agree is refused: an Open Trivia DB file
  /// has one encoding, and guessing would show one half as gibberish.
  static func of(_ results: [JSON]) -> Result<OpenTriviaDBEncoding, TriviaImport.Failure> {
    var firstBase64: Int?
    var firstURL: Int?
    var firstPlain: Int?
    var plus = false
    for (index, item) in results.enumerated() {
      guard case .object = item, let type = item["type"]?.string else { continue }
      if type == "bXVsdGlwbGU=" || type == "Ym9vbGVhbg==" {  // multiple, boolean
        firstBase64 = firstBase64 ?? index
        continue
      }
      let strings =
        ["type", "difficulty", "category", "question", "correct_answer"].compactMap { item[$0]?.string }
        + (item["incorrect_answers"].flatMap { answers -> [String]? in
          guard case .array(let list) = answers else { return nil }
          return list.compactMap(\.value.string)
        } ?? [])
      let question = item["question"]?.string ?? ""
      if strings.allSatisfy(TransferEncodings.looksPercentEncoded)
        && (question.utf8.contains(UInt8(ascii: "%")) || question.utf8.contains(UInt8(ascii: "+")))
      {
        firstURL = firstURL ?? index
        plus = plus || strings.contains { $0.utf8.contains(UInt8(ascii: "+")) }
      } else {
        firstPlain = firstPlain ?? index
      }
    }
    func mixed(_ a: Int, _ what: String, _ b: Int) -> Result<OpenTriviaDBEncoding, TriviaImport.Failure> {
      let (first, second) = a < b ? (a, b) : (b, a)
      let (isWhat, isNot) = a < b ? ("is \(what)", "is not") : ("is not \(what)", "is")
      return .failure(
        TriviaImport.Failure(
          message:
            "results[\(first)] \(isWhat) but results[\(second)] \(isNot): an Open Trivia DB file has one encoding"))
    }
    if let base64 = firstBase64 {
      if let other = firstURL ?? firstPlain {
        return mixed(base64, "base64-encoded (Open Trivia DB's encode=base64)", other)
      }
      return .success(.base64)
    }
    if let url = firstURL {
      if let plain = firstPlain { return mixed(url, "URL-encoded (Open Trivia DB's encode=url3986)", plain) }
      return .success(plus ? .urlLegacy : .url3986)
    }
    return .success(.html)
  }
}

/// The bank built into the binary, in editions: the first (Sources/ReckonData/questions.txt)
/// and those added since (questions-2.txt, …), each read as a user's file is read. The days
/// an edition's questions join the daily challenges (`DailyQuestions`): the first's always,
/// a later one's from the day after it was written, so that no day already played changes.
public enum BuiltInQuestions {
  static let dailyFrom: [Day?] = [nil, Day(year: 2026, month: 11, day: 28)]

  /// Read once, when a quiz first needs it.
  public static let bank: QuestionBank = {
    var bank = QuestionBank()
    for edition in 0..<editions {
      guard case .success(let read) = read(edition: edition) else { continue }
      bank.reserve(read.questions.count)
      for var question in read.questions {
        question.dailyFrom = dailyFrom[edition]
        bank.add(question)
      }
    }
    return bank
  }()

  /// How many editions there are.
  static var editions: Int { min(Int(reckon_data_question_editions()), dailyFrom.count) }

  /// Reads one edition's embedded file as a user's file is read.
  public static func read(edition: Int) -> Result<TriviaImport, TriviaImport.Failure> {
    let file = reckon_data_questions(UInt(edition))
    return TriviaImport.read(Array(UnsafeBufferPointer(start: file.bytes, count: Int(file.size))))
  }
}
