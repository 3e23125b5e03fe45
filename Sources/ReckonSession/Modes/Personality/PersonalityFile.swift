import ReckonCore

/// Reads a personality quiz from JSON and checks every part of it. A file with any problem
/// gives no quiz, and every problem is named by its place (`questions[2].answers[1].outcome`,
/// counting from 0 as JSON does) and its line.
public enum PersonalityFile {
  /// One thing wrong in a file.
  public struct Problem: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    /// Where in the JSON: `questions[2].answers[1].outcome`; empty for the file as a whole.
    public var path: String
    public var message: String

    public var description: String {
      "line \(line): " + (path.isEmpty ? "" : "\(path): ") + message
    }
  }

  /// Every problem of a file, in the order found.
  public struct Problems: Error, Sendable, Hashable {
    public var all: [Problem]
  }

  /// The most answers a question may have (each is typed by its number).
  public static let maxAnswers = 20
  /// The most points a scale may have.
  public static let maxSteps = 10
  /// The most JSON values a quiz may hold (the built-in ones hold about 300); a file is also
  /// at most `FileLimits.personality` bytes.
  public static let maxJSONValues = 100_000

  /// The quiz in `bytes`, or every problem found in them.
  public static func read(_ bytes: [UInt8]) -> Result<PersonalityQuiz, Problems> {
    let text: String
    switch TextFile.decode(bytes) {
    case .success(let decoded): text = decoded
    case .failure(let bad):
      return .failure(
        Problems(all: [Problem(line: bad.line, path: "", message: "not UTF-8 text (byte \(bad.byte) of the line)")]))
    }
    switch JSON.parse(text, maxValues: maxJSONValues) {
    case .success(let json): return read(json)
    case .failure(let error) where error.isTooLarge:
      return .failure(
        Problems(all: [
          Problem(
            line: error.line, path: "",
            message: "more than \(maxJSONValues.grouped) JSON values: a personality quiz may hold at most that many")
        ]))
    case .failure(let error):
      return .failure(
        Problems(all: [
          Problem(line: error.line, path: "", message: "not valid JSON at column \(error.column): \(error.message)")
        ]))
    }
  }

  /// The quiz described by `json`, or every problem in it.
  public static func read(_ json: JSON) -> Result<PersonalityQuiz, Problems> {
    var checker = Checker()
    let quiz = checker.quiz(json)
    if let quiz, checker.problems.isEmpty { return .success(quiz) }
    // By line, and in the order found within a line.
    let sorted = checker.problems.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
    return .failure(Problems(all: sorted.map(\.element)))
  }

  /// Walks the JSON, collecting problems instead of stopping at the first.
  struct Checker {
    var problems: [Problem] = []
    /// The id of each outcome, in order (nil where an outcome has none): answers name them.
    var ids: [String?] = []

    mutating func problem(_ line: Int, _ path: String, _ message: String) {
      problems.append(Problem(line: line, path: path, message: message))
    }

    /// The members of an object, with unknown keys reported; nil (reported) when it is not one.
    mutating func object(_ value: JSON, line: Int, path: String, keys: Set<String>) -> [(
      key: String, value: JSON, line: Int
    )]? {
      guard case .object(let members) = value else {
        problem(line, path, "should be an object ({…}), not \(value.kind)")
        return nil
      }
      var seen: Set<String> = []
      for member in members {
        if !keys.contains(member.key) {
          let known = keys.sorted().joined(separator: ", ")
          problem(member.line, join(path, member.key), "unknown key (the keys here are: \(known))")
        } else if !seen.insert(member.key).inserted {
          problem(member.line, join(path, member.key), "given twice")
        }
      }
      return members
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A member that must be present and a string (non-empty unless `empty`); reports otherwise.
    mutating func string(
      _ members: [(key: String, value: JSON, line: Int)], _ key: String, at line: Int, path: String,
      required: Bool = true
    ) -> String? {
      guard let member = members.last(where: { $0.key == key }) else {
        if required { problem(line, path, "missing \"\(key)\"") }
        return nil
      }
      guard case .string(let text) = member.value else {
        problem(member.line, join(path, key), "should be a string, not \(member.value.kind)")
        return nil
      }
      let trimmed = PlainText.withoutInvisibles(text).trimmingSpaces
      if trimmed.isEmpty && required {
        problem(member.line, join(path, key), "is empty")
        return nil
      }
      if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
        problem(member.line, join(path, key), "has a control character (a tab or line break, say) in it")
        return nil
      }
      return trimmed
    }

    /// A member that must be an array; its items with their lines.
    mutating func array(
      _ members: [(key: String, value: JSON, line: Int)], _ key: String, at line: Int, path: String
    ) -> [(value: JSON, line: Int)]? {
      guard let member = members.last(where: { $0.key == key }) else {
        problem(line, path, "missing \"\(key)\"")
        return nil
      }
      guard case .array(let items) = member.value else {
        problem(member.line, join(path, key), "should be an array ([…]), not \(member.value.kind)")
        return nil
      }
      return items
    }

    mutating func quiz(_ json: JSON) -> PersonalityQuiz? {
      let keys: Set = ["name", "title", "description", "outcomes", "questions"]
      guard let members = object(json, line: 1, path: "", keys: keys) else { return nil }
      let name = string(members, "name", at: 1, path: "")
      if let name, !PersonalityFile.isName(name) {
        let line = members.last { $0.key == "name" }!.line
        problem(
          line, "name",
          name == "load"
            ? "\"load\" is a word of the personality command: choose another name"
            : "\"\(name)\" should be 1 to 32 lowercase letters, digits or '-', starting with a letter (it is typed to start the quiz)"
        )
      }
      let title = string(members, "title", at: 1, path: "")
      let description = string(members, "description", at: 1, path: "", required: false) ?? ""
      let outcomes = self.outcomes(members)
      let questions = self.questions(members)
      if let outcomes, let questions, case .array(let items)? = members.last(where: { $0.key == "outcomes" })?.value {
        // An outcome no answer points to could never be the result.
        var used = Set<Int>()
        for question in questions { for answer in question.answers { used.insert(answer.outcome) } }
        for (i, outcome) in outcomes.enumerated() where !used.contains(i) {
          problem(items[i].line, "outcomes[\(i)]", "no answer leads to \"\(outcome.id)\"")
        }
      }
      guard let name, let title, let outcomes, let questions else { return nil }
      return PersonalityQuiz(
        name: name, title: title, description: description, outcomes: outcomes, questions: questions)
    }

    mutating func outcomes(_ members: [(key: String, value: JSON, line: Int)]) -> [PersonalityQuiz.Outcome]? {
      guard let items = array(members, "outcomes", at: 1, path: "") else { return nil }
      let line = members.last { $0.key == "outcomes" }!.line
      if items.count < 2 { problem(line, "outcomes", "needs at least 2 outcomes (it has \(items.count))") }
      var outcomes: [PersonalityQuiz.Outcome] = []
      var seen: Set<String> = []
      var complete = items.count >= 2
      for (i, item) in items.enumerated() {
        let path = "outcomes[\(i)]"
        guard
          let fields = object(item.value, line: item.line, path: path, keys: ["id", "name", "symbol", "description"])
        else {
          ids.append(nil)
          complete = false
          continue
        }
        let id = string(fields, "id", at: item.line, path: path)
        ids.append(id)
        let name = string(fields, "name", at: item.line, path: path)
        let symbol = string(fields, "symbol", at: item.line, path: path)
        let description = string(fields, "description", at: item.line, path: path)
        if let id, !seen.insert(id).inserted {
          problem(fields.last { $0.key == "id" }!.line, "\(path).id", "\"\(id)\" is the id of an earlier outcome too")
        }
        if let symbol, symbol.count > 4 {
          problem(
            fields.last { $0.key == "symbol" }!.line, "\(path).symbol",
            "should be one symbol or emoji, not \"\(symbol)\"")
        }
        guard let id, let name, let symbol, let description else {
          complete = false
          continue
        }
        outcomes.append(PersonalityQuiz.Outcome(id: id, name: name, symbol: symbol, description: description))
      }
      return complete ? outcomes : nil
    }

    mutating func questions(_ members: [(key: String, value: JSON, line: Int)]) -> [PersonalityQuiz.Question]? {
      guard let items = array(members, "questions", at: 1, path: "") else { return nil }
      if items.isEmpty { problem(members.last { $0.key == "questions" }!.line, "questions", "has no questions") }
      var questions: [PersonalityQuiz.Question] = []
      var complete = !items.isEmpty
      for (i, item) in items.enumerated() {
        if let question = self.question(item.value, line: item.line, path: "questions[\(i)]") {
          questions.append(question)
        } else {
          complete = false
        }
      }
      return complete ? questions : nil
    }

    mutating func question(_ value: JSON, line: Int, path: String) -> PersonalityQuiz.Question? {
      guard let fields = object(value, line: line, path: path, keys: ["text", "kind", "scale", "answers"]) else {
        return nil
      }
      let text = string(fields, "text", at: line, path: path)
      var kind: PersonalityQuiz.Kind? = .single
      if let word = string(fields, "kind", at: line, path: path, required: false) {
        kind = PersonalityQuiz.Kind(rawValue: word)
        if kind == nil {
          problem(
            fields.last { $0.key == "kind" }!.line, "\(path).kind",
            "\"\(word)\" is not a kind of question (single, multiple or scale)")
        }
      }
      let answers = self.answers(fields, line: line, path: path)
      var scale: PersonalityQuiz.Scale?
      let scaleMember = fields.last { $0.key == "scale" }
      if kind == .scale {
        if let scaleMember {
          scale = self.scale(scaleMember.value, line: scaleMember.line, path: "\(path).scale", answers: answers?.count)
        } else {
          problem(line, path, "a scale question needs \"scale\": {\"steps\": 5, \"low\": \"…\", \"high\": \"…\"}")
        }
      } else if let scaleMember, let kind {
        problem(
          scaleMember.line, "\(path).scale",
          "only a question of kind \"scale\" has a scale (this one is \(kind.rawValue))")
      }
      guard let text, let kind, let answers, kind != .scale || scale != nil else { return nil }
      return PersonalityQuiz.Question(text: text, kind: kind, scale: scale, answers: answers)
    }

    mutating func answers(
      _ fields: [(key: String, value: JSON, line: Int)], line: Int, path: String
    ) -> [PersonalityQuiz.Answer]? {
      guard let items = array(fields, "answers", at: line, path: path) else { return nil }
      let listLine = fields.last { $0.key == "answers" }!.line
      var complete = true
      if items.count < 2 || items.count > PersonalityFile.maxAnswers {
        problem(listLine, "\(path).answers", "needs 2 to \(PersonalityFile.maxAnswers) answers (it has \(items.count))")
        complete = false
      }
      var answers: [PersonalityQuiz.Answer] = []
      var texts: [String: Int] = [:]
      for (i, item) in items.enumerated() {
        let place = "\(path).answers[\(i)]"
        guard let answer = object(item.value, line: item.line, path: place, keys: ["text", "outcome"]) else {
          complete = false
          continue
        }
        let text = string(answer, "text", at: item.line, path: place)
        let id = string(answer, "outcome", at: item.line, path: place)
        if let text, let earlier = texts.updateValue(i, forKey: Folding.key(text)) {
          problem(answer.last { $0.key == "text" }!.line, "\(place).text", "the same as answers[\(earlier)]")
        }
        var outcome: Int?
        if let id {
          outcome = ids.firstIndex { $0 == id }
          if outcome == nil, !ids.isEmpty {
            let known = Wording.list(
              ids.compactMap { $0 }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.map {
                "\"\($0)\""
              })
            problem(
              answer.last { $0.key == "outcome" }!.line, "\(place).outcome",
              "unknown outcome \"\(id)\" (the outcomes are \(known))")
          }
        }
        guard let text, let outcome else {
          complete = false
          continue
        }
        answers.append(PersonalityQuiz.Answer(text: text, outcome: outcome))
      }
      return complete ? answers : nil
    }

    mutating func scale(_ value: JSON, line: Int, path: String, answers: Int?) -> PersonalityQuiz.Scale? {
      guard let fields = object(value, line: line, path: path, keys: ["steps", "low", "high"]) else { return nil }
      let low = string(fields, "low", at: line, path: path)
      let high = string(fields, "high", at: line, path: path)
      var steps = max(5, answers ?? 0)
      if let member = fields.last(where: { $0.key == "steps" }) {
        if case .number(let n) = member.value, n == n.rounded(), n >= 2, n <= Double(PersonalityFile.maxSteps) {
          steps = Int(n)
          if let answers, steps < answers {
            problem(
              member.line, "\(path).steps",
              "\(steps) points cannot reach all \(answers) answers: give at least \(answers)")
            return nil
          }
        } else {
          problem(member.line, "\(path).steps", "should be a whole number from 2 to \(PersonalityFile.maxSteps)")
          return nil
        }
      } else if steps > PersonalityFile.maxSteps {
        problem(
          line, path,
          "a scale has at most \(PersonalityFile.maxSteps) points, so its question at most \(PersonalityFile.maxSteps) answers"
        )
        return nil
      }
      guard let low, let high else { return nil }
      return PersonalityQuiz.Scale(steps: steps, low: low, high: high)
    }
  }

  /// 1 to 32 of a–z, 0–9 and `-`, starting with a letter, and not `load` (a word of the command).
  static func isName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, ("a"..."z").contains(first), text.unicodeScalars.count <= 32 else {
      return false
    }
    return text != "load"
      && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
  }
}

extension FileLimits {
  /// A personality quiz (the built-in ones are 6 KB): its JSON takes about 30 times its size
  /// in memory, and a 20 MB array took 0.59 GB.
  public static let personality = 1 << 20
}
