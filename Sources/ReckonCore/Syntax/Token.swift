/// One token of an input line: a plain value (no references), so that lexing and parsing
/// copy tokens for free. A number's value and a name's text live in the `TokenList`.
public struct Token: Sendable, Hashable {
  public enum Kind: UInt8, Sendable, Hashable {
    /// A number literal; its exact value is `TokenList.number(of:)`.
    case number
    /// A name: variable, constant, function or command word; its text is `TokenList.text(of:)`.
    case name
    /// The operator words.
    case mod, of
    case plus, minus, star, slash, caret, percent, bang
    case leftParen, rightParen, comma, equals
    /// Comparisons: `<`, `<=` (`≤`), `>`, `>=` (`≥`), `==`, `!=` (`≠`).
    case less, lessOrEqual, greater, greaterOrEqual, equalEqual, notEqual
    /// `->`, which converts like `to` (`5 km -> mi`).
    case arrow
    case end
  }

  public var kind: Kind
  public var span: SourceSpan
  /// Whether whitespace follows this token directly (used for "- 3" continuation lines).
  public var spaceAfter: Bool
  /// For a number: its index in `TokenList.numbers`.
  var index: Int32

  public init(_ kind: Kind, _ span: SourceSpan, spaceAfter: Bool = false) {
    self.init(kind, span, spaceAfter: spaceAfter, index: -1)
  }

  init(_ kind: Kind, _ span: SourceSpan, spaceAfter: Bool, index: Int32) {
    self.kind = kind
    self.span = span
    self.spaceAfter = spaceAfter
    self.index = index
  }
}

/// The tokens of one line, ending with `.end`, with the line's text and its numbers.
public struct TokenList: Sendable {
  public var tokens: [Token]
  /// The line, as scalars: names are read from it by span.
  public let scalars: [Unicode.Scalar]
  let numbers: [Rational]

  init(tokens: [Token], scalars: [Unicode.Scalar], numbers: [Rational]) {
    self.tokens = tokens
    self.scalars = scalars
    self.numbers = numbers
  }

  /// The same line with other tokens (a run of these): an `.end` is added if missing.
  public func with(_ tokens: some Collection<Token>) -> TokenList {
    var list = Array(tokens)
    if list.last?.kind != .end {
      let at = list.last?.span.end ?? self.tokens.last?.span.end ?? 0
      list.append(Token(.end, SourceSpan(at, at)))
    }
    return TokenList(tokens: list, scalars: scalars, numbers: numbers)
  }

  /// The tokens that start at scalar offset `offset` or later.
  public func dropping(before offset: Int) -> TokenList {
    with(tokens.filter { $0.span.start >= offset })
  }

  /// The exact value of a number token.
  public func number(of token: Token) -> Rational? {
    token.kind == .number ? numbers[Int(token.index)] : nil
  }

  /// The text of a token as typed.
  public func text(of token: Token) -> String { text(of: token.span) }

  /// The text of the line at `span`.
  public func text(of span: SourceSpan) -> String {
    let range = min(span.start, scalars.count)..<min(span.end, scalars.count)
    // Written as UTF-8 into the string's own storage: appending scalars to a
    // String.UnicodeScalarView was a fifth of a conversion line's time.
    return String(unsafeUninitializedCapacity: range.count * 4) { buffer in
      var count = 0
      for scalar in scalars[range] {
        UTF8.encode(scalar) { byte in
          buffer[count] = byte
          count += 1
        }
      }
      return count
    }
  }

  /// The text of a name token (operator words included), nil for other tokens.
  public func name(of token: Token) -> String? {
    switch token.kind {
    case .name, .mod, .of: text(of: token)
    default: nil
    }
  }

  /// Whether `token` is the name `word`, without building a string.
  public func isName(_ token: Token, _ word: String) -> Bool {
    guard token.kind == .name, token.span.end - token.span.start == word.unicodeScalars.count else { return false }
    return scalars[token.span.start..<token.span.end].elementsEqual(word.unicodeScalars)
  }

  /// How a token reads in an error message: as typed (a `×` stays a `×`).
  public func describe(_ token: Token) -> String {
    switch token.kind {
    case .number: "a number"
    case .end: "the end of the line"
    default: "'\(text(of: token))'"
    }
  }
}
