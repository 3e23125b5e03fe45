import ReckonCore

/// The user's preferences for this session.
public struct Settings: Sendable, Hashable {
  /// Significant digits for non-terminating and approximate results.
  public var digits = 10
  /// The percentages `tip AMOUNT` shows.
  public var tipPresets: [Rational] = [10, 15, 18, 20]
  /// The drill options used last: `drill` alone repeats them.
  public var drill = DrillOptions()
  /// How non-integers are written (`set format`).
  public var format = NumberFormatter.Style.automatic
  /// Whether digits are grouped in threes with commas (`set separators`).
  public var separators = false
  /// The exchange rates the user has set or loaded (`set rate`, `rates load`).
  public var rates = ExchangeRates()

  public static let digitsRange = 1...10_000

  public init() {}

  /// The settings as the store keeps them: text by name.
  public var stored: SavedSettings {
    [
      "digits": String(digits),
      "drill": drill.arguments,
      "format": format.name,
      "separators": separators ? "on" : "off",
      "rates": rates.stored,
      "tips": tipPresets.map { NumberFormatter().format($0) }.joined(separator: " "),
    ]
  }

  /// Applies saved settings; values that do not read back (an edited or older database) are
  /// ignored, leaving the default.
  public mutating func restore(_ stored: SavedSettings) {
    if let text = stored["digits"], let n = Int(text), Settings.digitsRange.contains(n) { digits = n }
    if let text = stored["tips"] {
      let presets = text.split(separator: " ").compactMap { Self.percentage(String($0)) }
      if (1...8).contains(presets.count) && presets.count == text.split(separator: " ").count { tipPresets = presets }
    }
    if let text = stored["format"], let style = NumberFormatter.Style(name: text) { format = style }
    if let text = stored["separators"], ["on", "off"].contains(text) { separators = text == "on" }
    if let text = stored["rates"] { rates = ExchangeRates(stored: text) }
    if let text = stored["drill"],
      let options = try? DrillOptions().applying(text.split(separator: " ").map(String.init))
    {
      drill = options
    }
  }

  static func percentage(_ text: String) -> Rational? {
    // Saved rates are plain numbers ("15", "12.5"): the quick path reads them without the
    // lexer and parser, which every start-up with saved settings would otherwise page in.
    let value =
      QuickEvaluator.value(of: text, evaluator: Evaluator())
      ?? (try? Parser.parseExpression(text)).flatMap { try? Evaluator().evaluate($0, in: Environment()) }
    guard let r = value?.exact, !r.isNegative, r <= 1000 else { return nil }
    return r
  }
}
