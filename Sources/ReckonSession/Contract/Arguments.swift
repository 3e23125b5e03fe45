import ReckonCore

/// The rest of a command's line: what its parser reads. Places are scalar offsets into the
/// whole line, so that a diagnostic's caret lands under the word at fault.
public struct Arguments: Sendable {
  /// The line as typed.
  public let line: String
  /// Where the command's word is.
  public let nameSpan: SourceSpan
  /// The words after the command's (up to a `#` comment), each with its place.
  public let words: [Word]

  public struct Word: Sendable {
    public let text: String
    public let span: SourceSpan
    /// The word in lower case (`Hard` is `hard`).
    public var lowercased: String { text.lowercased() }
  }

  public init(line: String, nameSpan: SourceSpan) {
    self.line = line
    self.nameSpan = nameSpan
    self.words = Arguments.words(of: line, from: nameSpan.end)
  }

  /// Where the arguments start: just after the command's word.
  public var start: Int { nameSpan.end }

  /// A place for an error about something missing at the end of the line.
  public var end: SourceSpan { SourceSpan(line.unicodeScalars.count, line.unicodeScalars.count) }

  /// The tokens of the arguments, ending with `.end` (literals within the session's digit
  /// limit), for commands that take an expression.
  public func tokens(in state: SessionState) throws(Diagnostic) -> TokenList {
    try Lexer.tokenize(line, maxExponent: state.digitLimit).dropping(before: start)
  }

  /// The rest of the line after `offset`, trimmed, without quotes around it: a file's name.
  public func path(after offset: Int) -> String {
    var text = String(String.UnicodeScalarView(line.unicodeScalars.dropFirst(offset))).trimmingSpaces
    if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
      text = String(text.dropFirst().dropLast())
    }
    return text
  }

  /// From `offset` to the end of the line.
  public func rest(from offset: Int) -> SourceSpan { SourceSpan(offset, line.unicodeScalars.count) }

  /// The words from `offset` on, split at spaces and tabs, up to a `#` comment.
  static func words(of line: String, from offset: Int) -> [Word] {
    let scalars = Array(line.unicodeScalars)
    var words: [Word] = []
    var i = offset
    while i < scalars.count && scalars[i] != "#" {
      if scalars[i] == " " || scalars[i] == "\t" {
        i += 1
        continue
      }
      let start = i
      while i < scalars.count && scalars[i] != " " && scalars[i] != "\t" && scalars[i] != "#" { i += 1 }
      words.append(Word(text: String(String.UnicodeScalarView(scalars[start..<i])), span: SourceSpan(start, i)))
    }
    return words
  }

  /// The item a typed word names: the one of that name, else the only one whose name starts
  /// with it. Otherwise the error says `unknown`, or which items it could be, with a hint
  /// made from every name.
  public static func one<T>(
    _ word: Word, of items: [T], by name: (T) -> String, unknown: String, hint: (String) -> String
  ) throws(Diagnostic) -> T {
    let typed = word.lowercased
    let exact = items.filter { name($0) == typed }
    let matches = exact.isEmpty ? items.filter { name($0).hasPrefix(typed) } : exact
    if matches.count == 1 { return matches[0] }
    let message =
      matches.isEmpty ? unknown : "'\(word.text)' could be \(Wording.list(matches.map(name), or: true))"
    throw Diagnostic(message, at: word.span, hint: hint(items.map(name).joined(separator: ", ")))
  }
}
