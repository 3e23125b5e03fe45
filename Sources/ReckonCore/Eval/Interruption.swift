/// How a long calculation learns that the user wants it stopped (Ctrl-C at the prompt).
///
/// The evaluator asks before each step — every node of the expression — so no step runs long
/// after the request (each step is bounded by the 1,000,000-digit limit); `factor` asks
/// between rounds of its search. The core knows nothing of signals: the executable supplies the check.
public struct Interruption: Sendable {
  let check: @Sendable () -> Bool

  public init(_ check: @escaping @Sendable () -> Bool) { self.check = check }

  /// Never interrupted: tests, scripts, and the default.
  public static let never = Interruption { false }

  public var isRequested: Bool { check() }

  /// The error an interrupted calculation ends with: nothing it did is kept.
  public static func diagnostic(at span: SourceSpan) -> Diagnostic {
    Diagnostic(
      "interrupted (Ctrl-C): the calculation was stopped here", at: span,
      hint: "nothing was changed: the last result and the variables are as they were")
  }
}
