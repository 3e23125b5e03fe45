import ReckonCore

/// The user's preferences for this session.
public struct Settings: Sendable, Hashable {
  /// Significant digits for non-terminating and approximate results.
  public var digits = 10
  /// The percentages `tip AMOUNT` shows.
  public var tipPresets: [Rational] = [10, 15, 18, 20]
  /// The settings the modes keep (`ModeSetting`: the drill's options), as their text by
  /// key: kept and saved here, read by each mode from its own.
  public var modes = SavedSettings()
  /// How non-integers are written (`set format`).
  public var format = NumberFormatter.Style.automatic
  /// Whether digits are grouped in threes with commas (`set separators`).
  public var separators = false
  /// The exchange rates the user has set or loaded (`set rate`, `rates load`).
  public var rates = ExchangeRates()

  public static let digitsRange = 1...10_000
  /// The keys of the settings above, as the store keeps them; any other is a mode's.
  static let ownKeys = ["digits", "format", "separators", "rates", "tips"]

  public init() {}

  /// The settings as the store keeps them: text by name.
  public var stored: SavedSettings {
    var settings: SavedSettings = [
      "digits": String(digits),
      "format": format.name,
      "separators": separators ? "on" : "off",
      "rates": rates.stored,
      "tips": tipPresets.map { NumberFormatter().format($0) }.joined(separator: " "),
    ]
    for key in modes.keys { settings[key] = modes[key] }
    return settings
  }

  /// Applies saved settings; values that do not read back (an edited or older database) are
  /// ignored, leaving the default. A saved exchange rate that does not read back is left out,
  /// and the answer says which and why (the rates are the one setting of many values: the
  /// others left are kept).
  @discardableResult
  public mutating func restore(_ stored: SavedSettings) -> [ExchangeRates.LeftOut] {
    if let text = stored["digits"], let n = Int(text), Settings.digitsRange.contains(n) { digits = n }
    if let text = stored["tips"] {
      let presets = text.split(separator: " ").compactMap { Self.percentage(String($0)) }
      if (1...8).contains(presets.count) && presets.count == text.split(separator: " ").count { tipPresets = presets }
    }
    if let text = stored["format"], let style = NumberFormatter.Style(name: text) { format = style }
    if let text = stored["separators"], ["on", "off"].contains(text) { separators = text == "on" }
    var leftOut: [ExchangeRates.LeftOut] = []
    if let text = stored["rates"] {
      (rates, leftOut) = ExchangeRates.read(stored: text, days: Day.supportedNumbers)
    }
    for key in stored.keys where !Settings.ownKeys.contains(key) { modes[key] = stored[key] }
    return leftOut
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
