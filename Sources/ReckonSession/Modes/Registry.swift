/// The modes, a line each. A mode is a folder under Modes/ with a `Feature` (its commands
/// and statistics); its commands join the calculator's prompt, in this order in `help`.
enum Features {
  static let all: [any Feature.Type] = [
    CalculatorFeature.self,
    DrillFeature.self,
    TriviaFeature.self,
    PersonalityFeature.self,
    AnagramFeature.self,
    BillFeature.self,
    CardsFeature.self,
    SessionFeature.self,
  ]
}
