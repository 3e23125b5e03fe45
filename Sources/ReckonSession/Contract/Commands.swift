import ReckonCore

/// Every command of every mode, read from the registered features: what the calculator's
/// prompt runs, `help` lists, Tab completes, "did you mean" guesses from, and what a
/// variable may not be called.
public enum Commands {
  /// In the order `help` lists them: the features' order, then each feature's.
  public static let all: [any Command.Type] = Features.all.flatMap { $0.commands }

  /// Every word that starts a command, aliases included.
  public static let words: Set<String> = Set(all.flatMap { [$0.help.name] + $0.help.aliases })

  /// The settings the modes keep, the features' order.
  public static let modeSettings: [ModeSetting] = Features.all.flatMap { $0.settings }

  /// The `stats` topics, the features' order (the first is `stats` alone).
  public static let statistics: [StatisticsTopic] = Features.all.flatMap { $0.statistics }

  /// The mode the prompt starts in and comes back to: the first registered feature's `home`.
  public static func homeMode() -> any Mode {
    for feature in Features.all {
      if let mode = feature.home { return mode }
    }
    preconditionFailure("no registered feature has a home mode")
  }

  /// The command a word names, if any.
  public static func named(_ word: String) -> (any Command.Type)? {
    all.first { $0.help.name == word || $0.help.aliases.contains(word) }
  }

  /// What to say when a line typed inside a mode starts with a calculator command: how to get
  /// back to the calculator, then `here` (what the mode wants instead). Nil for other lines.
  public static func typedInMode(_ input: String, here: String) -> String? {
    let first = String(input.prefix { $0 != " " }).lowercased()
    guard words.contains(first) else { return nil }
    return "'\(input)' is a calculator command: quit first, then type it at reckon>. \(here)"
  }

  /// Reads a command's arguments and runs it; a mistake in either is an error under the
  /// words at fault, and changes nothing.
  static func run(_ command: any Command.Type, _ arguments: Arguments, in state: inout SessionState) -> ModeStep {
    do throws(Diagnostic) {
      if !command.help.takesArguments, let extra = arguments.words.first {
        throw Diagnostic(
          "'\(command.help.name)' takes nothing after it", at: extra.span, hint: "usage: \(command.help.usage)")
      }
      let parsed = try command.init(parsing: arguments, in: state)
      if command.help.readsSettings { state.readSettings() }
      return try parsed.run(in: &state)
    } catch {
      return .stay(.error(error, arguments.line))
    }
  }
}
