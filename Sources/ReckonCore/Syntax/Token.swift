/// One token of an input line.
public struct Token: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// A number literal, already exact.
    case number(Rational)
    /// A name: variable, constant, function, command word, `mod`, `of`.
    case name(String)
    case plus, minus, star, slash, caret, percent, bang
    case leftParen, rightParen, comma, equals
    case end
  }

  public var kind: Kind
  public var span: SourceSpan
  /// Whether whitespace follows this token directly (used for "- 3" continuation lines).
  public var spaceAfter: Bool

  public init(_ kind: Kind, _ span: SourceSpan, spaceAfter: Bool = false) {
    self.kind = kind
    self.span = span
    self.spaceAfter = spaceAfter
  }

  /// The name, if this token is one.
  public var name: String? {
    if case .name(let n) = kind { return n }
    return nil
  }

  /// How the token reads in an error message.
  public var describe: String {
    switch kind {
    case .number: "a number"
    case .name(let n): "'\(n)'"
    case .plus: "'+'"
    case .minus: "'-'"
    case .star: "'*'"
    case .slash: "'/'"
    case .caret: "'^'"
    case .percent: "'%'"
    case .bang: "'!'"
    case .leftParen: "'('"
    case .rightParen: "')'"
    case .comma: "','"
    case .equals: "'='"
    case .end: "the end of the line"
    }
  }
}
