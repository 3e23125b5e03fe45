/// The calculator's own commands, first in `help`.
enum CalculatorFeature: Feature {
  static let commands: [any Command.Type] = [
    HelpCommand.self, VarsCommand.self, ClearCommand.self, ResetCommand.self, MemoryAddCommand.self,
    MemorySubtractCommand.self, MemoryRecallCommand.self, MemoryClearCommand.self, FullCommand.self,
    SetCommand.self, TipCommand.self, SplitCommand.self, FactorCommand.self, UnitsCommand.self, RatesCommand.self,
  ]
  /// The prompt starts in the calculator, and every other mode ends back in it.
  static var home: (any Mode)? { CalculatorMode() }
}

/// The commands about the session itself (progress, profiles, leaving), last in `help`.
enum SessionFeature: Feature {
  static let commands: [any Command.Type] = [
    StatsCommand.self, ProfileCommand.self, SalvageCommand.self, QuitCommand.self,
  ]
}
