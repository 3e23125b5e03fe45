import ReckonCore

/// One piece of what the session says back, tagged by meaning. Only the executable decides
/// how each looks (colour, layout).
public enum Output: Sendable, Hashable {
  /// A result: a number or a money line, printed alone on its line.
  case result(String)
  /// Information: help, confirmations, lists.
  case note(String)
  /// A table: the first row is the header; columns are aligned by the renderer.
  case table([[String]])
  /// An error at a place in `source` (the line as typed).
  case error(Diagnostic, source: String)
  /// A warning that does not stop anything.
  case warning(String)
  /// Clear the screen (only where there is a screen).
  case clearScreen
  /// A question to answer (a drill's `7 × 8 = ?`).
  case question(String)
  /// The verdict on an answer: ✓ or ✗ and what is worth knowing.
  case feedback(correct: Bool, String)
}

/// What one line of input produced.
public struct Reply: Sendable, Hashable {
  public var outputs: [Output]
  /// The user asked to leave.
  public var shouldExit: Bool

  public init(_ outputs: [Output] = [], shouldExit: Bool = false) {
    self.outputs = outputs
    self.shouldExit = shouldExit
  }

  /// Whether any output is an error.
  public var failed: Bool {
    outputs.contains { if case .error = $0 { true } else { false } }
  }

  public static func error(_ d: Diagnostic, _ source: String) -> Reply { Reply([.error(d, source: source)]) }
}
