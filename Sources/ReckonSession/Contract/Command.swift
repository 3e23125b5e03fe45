import ReckonCore

/// A command typed at the calculator's prompt (`tip 50 18%`, `drill 7`, `set digits 20`): read
/// once from its line into a typed value, which is then run.
///
/// A command belongs to the folder of the mode it serves (`drill` to Drill/, `quiz` and
/// `daily` to Trivia/) and is registered by that mode's `Feature`. `help`, Tab completion,
/// "did you mean" and the names a variable may not take all read the one registry,
/// `Commands`, so none of them can disagree with what the prompt runs.
public protocol Command: Sendable {
  /// The command's words and its help.
  static var help: CommandHelp { get }
  /// The words Tab offers for the argument being typed, after `words` (the arguments before
  /// it on the line); nil offers what an expression may hold (functions, variables), as it
  /// does by default.
  static func completions(after words: [Substring], in state: SessionState) -> [String]?
  /// Reads the arguments; a mistake is a diagnostic under the words at fault. Nothing changes.
  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic)
  /// Does what the command says: a reply at the calculator's prompt, or another mode.
  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep
}

extension Command {
  public static func completions(after words: [Substring], in state: SessionState) -> [String]? { nil }
}

/// What `help` says about a command, and the words that start it.
public struct CommandHelp: Sendable {
  public let name: String
  public let aliases: [String]
  public let usage: String
  public let summary: String
  /// Longer help, shown by `help NAME`.
  public let details: String
  /// Whether anything may follow the command word (`vars 2` is refused before parsing).
  public let takesArguments: Bool
  /// Whether it uses the profile's settings, which are then read before it runs.
  public let readsSettings: Bool

  public init(
    name: String, aliases: [String] = [], usage: String, summary: String, details: String,
    takesArguments: Bool = true, readsSettings: Bool = false
  ) {
    self.name = name
    self.aliases = aliases
    self.usage = usage
    self.summary = summary
    self.details = details
    self.takesArguments = takesArguments
    self.readsSettings = readsSettings
  }

  /// The help of `help NAME`: usage, summary, then the details indented.
  public var text: String {
    let details = self.details.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
    return "\(usage)\n  \(summary)\n\n" + details.joined(separator: "\n")
  }
}
