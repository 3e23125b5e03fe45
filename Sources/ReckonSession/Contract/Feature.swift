/// What a mode adds to the calculator's prompt: the commands that start it (and any other
/// commands of its own), and what `stats` shows for it. Each mode's folder has one, and the
/// registry (`Features.all` in Modes/Registry.swift) lists them, a line each.
public protocol Feature: Sendable {
  /// The mode's commands, in the order `help` lists them.
  static var commands: [any Command.Type] { get }
  /// The mode's statistics, by the name `stats NAME` takes.
  static var statistics: [StatisticsTopic] { get }
  /// The mode the prompt starts in and comes back to when another ends: the calculator's
  /// feature has it, every other none.
  static var home: (any Mode)? { get }
  /// The settings the mode keeps (the drill's options), which `set` lists.
  static var settings: [ModeSetting] { get }
}

extension Feature {
  public static var statistics: [StatisticsTopic] { [] }
  public static var home: (any Mode)? { nil }
  public static var settings: [ModeSetting] { [] }
}

/// A setting a mode keeps: saved with the profile's other settings as text under `key`
/// (`Settings.modes`), and read back into a value by the mode alone, so that the session
/// keeps it without knowing its shape.
public struct ModeSetting: Sendable {
  /// The name it is saved and listed under (`drill`).
  public let key: String
  /// How `set` shows it, from its saved text (nil: none saved).
  public let shown: @Sendable (String?) -> String
  /// For a setting `set KEY VALUE` changes (`set retention 0.85`): its line in `help set`,
  /// and what reads the words after the key into the text saved, or says what is wrong.
  public let usage: String?
  public let change: (@Sendable ([String]) -> Result<String, SettingProblem>)?

  public init(
    key: String, usage: String? = nil, change: (@Sendable ([String]) -> Result<String, SettingProblem>)? = nil,
    shown: @escaping @Sendable (String?) -> String
  ) {
    self.key = key
    self.usage = usage
    self.change = change
    self.shown = shown
  }
}

/// Why `set KEY VALUE` refused a value, in words, with an example.
public struct SettingProblem: Error, Sendable {
  public var message: String
  public var example: String

  public init(_ message: String, example: String) {
    self.message = message
    self.example = example
  }
}

/// One `stats` topic: `stats drill`, `stats quiz`.
public struct StatisticsTopic: Sendable {
  /// The word after `stats`; `aliases` are other words for it (`daily` for `quiz`).
  public let name: String
  public let aliases: [String]
  /// What the report shows, for `help stats`: a few lines, each at most 74 columns.
  public let help: String
  /// The report for the session's profile, from a snapshot of the store.
  public let report: @Sendable (SessionState) -> [Output]

  public init(
    name: String, aliases: [String] = [], help: String, report: @escaping @Sendable (SessionState) -> [Output]
  ) {
    self.name = name
    self.aliases = aliases
    self.help = help
    self.report = report
  }
}
