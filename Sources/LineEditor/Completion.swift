/// Pure helpers behind Tab completion: which word is being completed, what to
/// insert, and how to lay candidates out in columns.
enum Completion {
  /// What Tab should do.
  enum Action: Equatable {
    /// Nothing matches: beep.
    case none
    /// Insert this text at the cursor.
    case insert(String)
    /// Several candidates and nothing to add: show them.
    case list([String])
  }

  /// The word being completed: the trailing run of letters, digits and `_`,
  /// optionally followed by one final `+` or `-` (for names like `m+`).
  static func lastWord(of text: String) -> String {
    var characters = Substring(text)
    var suffix = ""
    if let last = characters.last, last == "+" || last == "-" {
      suffix = String(last)
      characters = characters.dropLast()
    }
    var start = characters.endIndex
    while start > characters.startIndex {
      let previous = characters.index(before: start)
      guard isWordCharacter(characters[previous]) else { break }
      start = previous
    }
    return String(characters[start...]) + suffix
  }

  /// Decides what Tab does for `word` given the completer's `candidates`
  /// (candidates not starting with `word` are ignored, duplicates dropped). A word completed
  /// whole gets a space after it, as shells do (`spl` → `split `), unless one follows already
  /// or the candidate ends with `(` (a function, ready for its argument).
  static func action(word: String, candidates: [String], spaceFollows: Bool = false) -> Action {
    var seen = Set<String>()
    let matches = candidates.filter { $0.hasPrefix(word) && seen.insert($0).inserted }
    guard let first = matches.first else { return .none }
    if matches.count == 1 {
      let space = spaceFollows || first.hasSuffix("(") ? "" : " "
      return .insert(String(first.dropFirst(word.count)) + space)
    }
    let common = commonPrefix(matches)
    if common.count > word.count {
      return .insert(String(common.dropFirst(word.count)))
    }
    return .list(matches)
  }

  /// Longest common prefix, in characters.
  static func commonPrefix(_ strings: [String]) -> String {
    guard var prefix = strings.first.map(Array.init) else { return "" }
    for string in strings.dropFirst() {
      let characters = Array(string)
      var length = 0
      while length < min(prefix.count, characters.count), prefix[length] == characters[length] {
        length += 1
      }
      prefix.removeLast(prefix.count - length)
    }
    return String(prefix)
  }

  /// Candidates in columns (filled top to bottom, like `ls`) fitting `width`;
  /// every row ends with a newline.
  static func columns(_ items: [String], width: Int) -> String {
    guard !items.isEmpty else { return "" }
    let columnWidth = (items.map(\.count).max() ?? 0) + 2
    let columnCount = max(1, min(items.count, max(width, 1) / columnWidth))
    let rowCount = (items.count + columnCount - 1) / columnCount
    var output = ""
    for row in 0..<rowCount {
      var line = ""
      for column in 0..<columnCount {
        let index = column * rowCount + row
        guard index < items.count else { break }
        let item = items[index]
        line += item
        line += String(repeating: " ", count: columnWidth - item.count)
      }
      while line.last == " " { line.removeLast() }
      output += line + "\n"
    }
    return output
  }

  private static func isWordCharacter(_ character: Character) -> Bool {
    character == "_" || character.isLetter || character.isNumber
  }
}
