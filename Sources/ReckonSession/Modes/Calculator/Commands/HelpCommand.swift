import ReckonCore

/// `help [topic]`.
struct HelpCommand: Command {
  static let help = CommandHelp(
    name: "help", aliases: ["?"], usage: "help [topic]", summary: "this list, or help on a command or topic",
    details: """
      Topics: a command or function name, or: functions, operators, percent,
      numbers, variables, keys.
      Examples: help tip, help functions, help percent
      """)

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    words.isEmpty ? Commands.all.map { $0.help.name } + Help.topics + Builtins.functionNames : nil
  }

  let topic: String?

  init(parsing arguments: Arguments, in state: SessionState) {
    topic = arguments.words.first?.text
  }

  func run(in state: inout SessionState) -> ModeStep {
    .stay(Reply(Help.text(for: topic).map { .note($0) }))
  }
}
