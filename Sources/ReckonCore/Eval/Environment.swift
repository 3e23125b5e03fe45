/// The names a calculation can see: the user's variables and the last result.
public struct Environment: Sendable, Hashable {
  public var variables: [String: Value]
  /// The last result (`ans`, also `_`), nil before the first one.
  public var answer: Value?

  public init(variables: [String: Value] = [:], answer: Value? = nil) {
    self.variables = variables
    self.answer = answer
  }

  /// The names that always mean the last result.
  public static let answerNames: Set<String> = ["ans", "_"]
}
