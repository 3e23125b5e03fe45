import ReckonCore

/// `stats [topic]`: a mode's statistics for the profile; each mode's `Feature` names its
/// topics, and the first registered (the drill's) is the one without a word.
struct StatsCommand: Command {
  /// The help lists each topic's, as its feature describes it.
  static let help = CommandHelp(
    name: "stats", usage: "stats [\(Commands.statistics.prefix(2).map(\.name).joined(separator: "|"))|…]",
    summary: "your progress in a game, day by day",
    details: Commands.statistics.map(\.help).joined(separator: "\n"), readsSettings: true)

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    words.isEmpty ? Commands.statistics.map(\.name) : nil
  }

  let topic: StatisticsTopic

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    let topics = Commands.statistics
    guard let first = words.first else {
      topic = topics[0]
      return
    }
    let typed = first.lowercased
    let named = topics.first { $0.name == typed || $0.aliases.contains(typed) }
    guard let named, words.count == 1 else {
      let extra = words.count > 1 && named != nil ? words[1] : first
      let others = topics.dropFirst().map { "stats \($0.name)" }
      let hint = "stats (the \(topics[0].name)), " + Wording.list(others, or: true)
      throw Diagnostic("unknown statistics '\(extra.text)'", at: extra.span, hint: hint)
    }
    topic = named
  }

  func run(in state: inout SessionState) -> ModeStep {
    .stay(Reply(topic.report(state)))
  }
}

/// `quit` (also `exit`): leaves Reckon.
struct QuitCommand: Command {
  static let help = CommandHelp(
    name: "quit", aliases: ["exit"], usage: "quit", summary: "leave Reckon (also exit, Ctrl-D)",
    details: "Leaves Reckon. Ctrl-D on an empty line does the same.", takesArguments: false)

  init(parsing arguments: Arguments, in state: SessionState) {}

  func run(in state: inout SessionState) -> ModeStep { .stay(Reply(shouldExit: true)) }
}
