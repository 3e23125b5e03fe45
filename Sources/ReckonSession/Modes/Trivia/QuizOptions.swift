import ReckonCore

/// What `quiz` was asked for: a difficulty (or all mixed), a category (or all), how many.
struct QuizOptions: Sendable, Hashable {
  var difficulty: Difficulty?
  /// The category's name as the bank spells it; nil for every category.
  var category: String?
  var count = 10

  static let countRange = 1...500

  /// `quiz hard geography count 5`: the words after `quiz`, in any order. Words that are
  /// neither a difficulty nor `count N` name a category: the whole name, or enough of its
  /// start to tell it from the others (`sci`, `words`).
  static func parse(
    _ words: [Arguments.Word], bank: QuestionBank
  ) throws(Diagnostic) -> QuizOptions {
    var options = QuizOptions()
    var categoryWords: [Arguments.Word] = []
    var i = 0
    while i < words.count {
      let word = words[i]
      let lower = word.text.lowercased()
      if let level = Difficulty(rawValue: lower) {
        if let earlier = options.difficulty, earlier != level {
          throw Diagnostic("choose one difficulty: easy, medium or hard", at: word.span, hint: QuizOptions.hint)
        }
        options.difficulty = level
      } else if lower == "all" || lower == "mixed" {
        options.difficulty = nil
      } else if lower == "count" {
        guard i + 1 < words.count else {
          throw Diagnostic("count needs a number", at: word.span, hint: "for example: quiz count 5")
        }
        let n = words[i + 1]
        guard let value = Int(n.text), QuizOptions.countRange.contains(value) else {
          throw Diagnostic(
            "count must be a whole number from \(countRange.lowerBound) to \(countRange.upperBound)", at: n.span,
            hint: "for example: quiz count 5")
        }
        options.count = value
        i += 1
      } else {
        categoryWords.append(word)
      }
      i += 1
    }
    if let first = categoryWords.first {
      let span = first.span.union(categoryWords.last!.span)
      options.category = try category(named: categoryWords.map(\.text).joined(separator: " "), at: span, in: bank)
    }
    return options
  }

  static let hint = "for example: quiz, quiz easy, quiz geography count 5, quiz categories"

  /// The category a name means: the same name, else the only one it starts, else the only
  /// one with a word it starts (`nature` for Science & Nature), or starts but for a plural
  /// `s` (`maths`, `sports`).
  static func category(named name: String, at span: SourceSpan, in bank: QuestionBank) throws(Diagnostic) -> String {
    let names = bank.categories.map(\.name)
    // "science and nature" is Science & Nature; "film and tv", Film & Television.
    let wanted = Folding.key(name).split(separator: " ").map {
      $0 == "and" ? "&" : $0 == "tv" ? "television" : String($0)
    }
    .joined(separator: " ")
    if let exact = names.first(where: { Folding.key($0) == wanted }) { return exact }
    func withAWordStarting(_ start: Substring) -> [String] {
      names.filter { Folding.key($0).split(separator: " ").contains { $0.hasPrefix(start) } }
    }
    var matches = names.filter { Folding.key($0).hasPrefix(wanted) }
    if matches.isEmpty { matches = withAWordStarting(Substring(wanted)) }
    // A plural of a word's start: maths, sports, films.
    if matches.isEmpty && wanted.count > 3 && wanted.hasSuffix("s") { matches = withAWordStarting(wanted.dropLast()) }
    if matches.count == 1 { return matches[0] }
    if matches.isEmpty {
      // A mistyped level or option reads as a category: say what was probably meant.
      let words = ["easy", "medium", "hard", "count", "categories", "load"] + names.map { Folding.key($0) }
      let hint: String
      if Int(name) != nil {
        hint = "a number of questions is count N: quiz count \(name)"
      } else if let near = Suggestions.closest(to: wanted, in: words) {
        hint = "did you mean \(near)? (quiz categories lists the categories)"
      } else {
        hint = "the categories: " + names.joined(separator: ", ")
      }
      throw Diagnostic("no category \(Diagnostic.quoted(name))", at: span, hint: hint)
    }
    throw Diagnostic("'\(name)' could be \(matches.joined(separator: " or "))", at: span, hint: "type more of the name")
  }

  /// `10 questions, easy, Geography`.
  var label: String {
    [Wording.count(count, "question"), difficulty?.rawValue ?? "all difficulties", category ?? "all categories"]
      .joined(separator: ", ")
  }
}
