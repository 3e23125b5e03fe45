/// One level of the anagram game: how long its words are, whether they are only the list's
/// common ones, the time to solve each, and the points each letter of a solved word is worth.
public struct AnagramLevel: Sendable, Hashable {
  public var name: String
  public var letters: ClosedRange<Int>
  public var seconds: Int
  public var points: Int
  /// The words to solve are only the list's common ones (the built-in list's first part; all of
  /// a list of your own); any word of the list made of the tiles is right, whichever.
  public var commonWords: Bool

  public init(name: String, letters: ClosedRange<Int>, seconds: Int, points: Int, commonWords: Bool = false) {
    self.name = name
    self.letters = letters
    self.seconds = seconds
    self.points = points
    self.commonWords = commonWords
  }

  /// `common` or `all`: which words the level asks.
  public var wordsLabel: String { commonWords ? "common" : "all" }

  /// `4–5` or `6`.
  public var lettersLabel: String {
    letters.lowerBound == letters.upperBound ? "\(letters.lowerBound)" : "\(letters.lowerBound)–\(letters.upperBound)"
  }
}

/// The level table: the defaults, and a user's file over them.
///
/// The file is a table, one level a line: a name, the letters (`6` or `4-5`), the seconds
/// for each word, the points a letter, and, if you like, which words (`common` or `all`: the
/// level's own by default, `all` for a new one); `#` starts a comment. A line for `easy`,
/// `medium` or `hard` replaces that level; another name adds a level.
public enum AnagramLevels {
  /// The largest level table read (a table of every length is a few hundred bytes).
  public static let maxFileBytes = 1 << 20

  /// Rebalanced on the list of 40,000 words (issue 30): easy and medium ask its 11,000 common
  /// words (2,299 of 4–5 letters, 1,667 of 6), hard any of its 13,392 of 7–8 letters, with
  /// 45 seconds rather than 30 for words that may be less familiar.
  public static let defaults = [
    AnagramLevel(name: "easy", letters: 4...5, seconds: 60, points: 10, commonWords: true),
    AnagramLevel(name: "medium", letters: 6...6, seconds: 45, points: 15, commonWords: true),
    AnagramLevel(name: "hard", letters: 7...8, seconds: 45, points: 20),
  ]

  /// One thing wrong with a line of the file.
  public struct Problem: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
  }

  public struct Problems: Error, Sendable, Hashable {
    public var all: [Problem]
  }

  /// The defaults with the file's levels over them, or every problem in the file.
  public static func read(_ text: String, over levels: [AnagramLevel] = defaults) -> Result<[AnagramLevel], Problems> {
    var levels = levels
    var problems: [Problem] = []
    var named: Set<String> = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = index + 1
      let content = raw.prefix { $0 != "#" }
      let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
      if fields.isEmpty { continue }
      func problem(_ message: String) { problems.append(Problem(line: line, message: message)) }
      guard fields.count == 4 || fields.count == 5 else {
        problem(
          "expected 4 columns and a fifth if you like (level letters seconds points [common|all], like: easy 4-5 60 10), "
            + "found \(fields.count)")
        continue
      }
      let name = fields[0].lowercased()
      guard name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }), name.count <= 16 else {
        problem("the level's name \"\(fields[0])\" should be up to 16 letters a–z")
        continue
      }
      guard name != "levels" else {
        problem("\"levels\" is a word of the anagram command: choose another name")
        continue
      }
      guard named.insert(name).inserted else {
        problem("\(name) is in the table twice")
        continue
      }
      let range = fields[1].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
      guard range.count <= 2, let low = range.first ?? nil, let high = range.last ?? nil, low >= 3, high <= 15,
        low <= high
      else {
        problem("letters \"\(fields[1])\" should be a length from 3 to 15, or two (4-5)")
        continue
      }
      guard let seconds = Int(fields[2]), (5...3600).contains(seconds) else {
        problem("seconds \"\(fields[2])\" should be a whole number from 5 to 3600")
        continue
      }
      guard let points = Int(fields[3]), (1...1000).contains(points) else {
        problem("points \"\(fields[3])\" should be a whole number from 1 to 1000")
        continue
      }
      let replaced = levels.firstIndex { $0.name == name }
      var commonWords = replaced.map { levels[$0].commonWords } ?? false
      if fields.count == 5 {
        switch fields[4].lowercased() {
        case "common": commonWords = true
        case "all": commonWords = false
        default:
          problem("words \"\(fields[4])\" should be common or all")
          continue
        }
      }
      let level = AnagramLevel(
        name: name, letters: low...high, seconds: seconds, points: points, commonWords: commonWords)
      if let i = replaced { levels[i] = level } else { levels.append(level) }
    }
    return problems.isEmpty ? .success(levels) : .failure(Problems(all: problems))
  }
}
