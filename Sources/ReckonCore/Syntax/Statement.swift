/// What one calculator line means, once parsed.
public enum Statement: Sendable, Hashable {
  /// A blank line or a comment.
  case empty
  /// An expression to evaluate and print. `continuesAnswer` is set when the line started with
  /// a binary operator and the parser put `ans` in front of it ("* 2" is "ans * 2").
  case expression(Expr, continuesAnswer: Bool)
  /// `name = expression`.
  case assignment(name: String, nameSpan: SourceSpan, value: Expr)
}
