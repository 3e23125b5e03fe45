/// What the table knows about a whole unit (a product of its terms): its dimension, its kind,
/// its factor to the base units, and how a quantity goes from one unit to another.
extension UnitTable {
  /// The unit's dimension.
  public func dimension(of unit: Unit) -> Dimension {
    var result = Dimension.none
    for i in 0..<Int(unit.count) {
      let term = unit[i]
      // A unit holds at most six terms of powers up to 60: within Int8 after checks made
      // when it was built; a product past them was refused there.
      if let d = units[Int(term.unit)].dimension.power(Int(term.power)), let product = result.times(d) {
        result = product
      }
    }
    return result
  }

  /// The dimensionless kind the unit is made of (`angle`, `ratio`), if it is one kind's
  /// units alone.
  public func kind(of unit: Unit) -> String? {
    var kind: String?
    for i in 0..<Int(unit.count) {
      guard let k = units[Int(unit[i].unit)].kind, kind == nil || kind == k else { return nil }
      kind = k
    }
    return kind
  }

  /// The temperature scale a unit is, when it is one alone (`°C`, `°F`): a point on it.
  public func scale(of unit: Unit) -> Entry? {
    guard unit.count == 1, unit[0].power == 1, unit[0].prefix == 0 else { return nil }
    let entry = units[Int(unit[0].unit)]
    return entry.isAffine ? entry : nil
  }

  /// The currency a unit is, when it holds one (`EUR`, `EUR/kg`).
  public func currency(in unit: Unit) -> Entry? {
    for i in 0..<Int(unit.count) where units[Int(unit[i].unit)].isCurrency { return units[Int(unit[i].unit)] }
    return nil
  }

  /// The currency in a unit and its power (`EUR` 1 in EUR/kg, -1 in kg/EUR).
  func currencyTerm(of unit: Unit) -> (String, Int)? {
    for i in 0..<Int(unit.count) where units[Int(unit[i].unit)].isCurrency {
      return (units[Int(unit[i].unit)].symbol, Int(unit[i].power))
    }
    return nil
  }

  /// How the unit reads in a message: `a length (m)`, `a speed (km/h)`, `a quantity in kg·m`.
  public func describe(_ unit: Unit) -> String {
    if unit.isNone { return "a plain number" }
    let symbol = unit.text(in: self)
    if let scale = scale(of: unit) { return "a temperature on the \(scale.symbol) scale (\(symbol))" }
    if let name = name(of: dimension(of: unit), kind: kind(of: unit)) {
      // Mass nouns take "an amount of": an amount of money (EUR).
      let noun = ["money", "information"].contains(name) ? "an amount of " + name : Wording.article(name)
      return noun + " (\(symbol))"
    }
    return "a quantity in \(symbol)"
  }
}

/// An English article for a noun: `a length`, `an amount`.
enum Wording {
  static func article(_ noun: String) -> String {
    guard let first = noun.unicodeScalars.first else { return noun }
    return ("aeiou".unicodeScalars.contains(first) ? "an " : "a ") + noun
  }
}

extension Evaluator {
  /// The unit table this evaluator reads units from (the built-in one, read on first use).
  public var units: UnitTable { unitTable ?? .standard }

  /// One of `unit` in the base units: the product of its terms' factors to their powers. A
  /// temperature scale's factor is the size of its degree.
  func factor(of unit: Unit, at span: SourceSpan) throws(Diagnostic) -> Number {
    var result = Number.exact(.one)
    for i in 0..<Int(unit.count) {
      let term = unit[i]
      var f = units.factor(of: term)
      let p = Int(term.power)
      // Most terms are to the first power, and most factors exact: no general power then.
      if p != 1 {
        if case .exact(let r) = f, !r.isZero {
          f = .exact(p > 0 ? r.power(p) : r.power(-p).reciprocal)
        } else {
          f = try power(f, .exact(Rational(p)), at: span)
        }
      }
      result = i == 0 ? f : try multiply(result, f, at: span)
    }
    return result
  }

  /// `q`'s number in `target` units (of the same dimension): through the base units, a
  /// temperature scale's zero taken into account (20 °C is 293.15 K, is 68 °F).
  func convert(_ q: Quantity, to target: Unit, at span: SourceSpan) throws(Diagnostic) -> Number {
    if q.unit == target { return q.number }
    var base = try multiply(q.number, factor(of: q.unit, at: span), at: span)
    if let (from, power) = units.currencyTerm(of: q.unit), let (to, _) = units.currencyTerm(of: target), from != to {
      // 120 EUR to USD, 3 EUR/kg to USD/kg: the user's rate, to the currency's power.
      guard let rate = rates.rate(from: from, to: to) else {
        throw ExchangeRates.missing(from: from, to: to, at: span)
      }
      base = try multiply(base, .exact(rate.value.power(power)), at: span)
    }
    if let scale = units.scale(of: q.unit) {
      base = try kelvins(q.number, on: scale, at: span)
      try aboveAbsoluteZero(base, scale, at: span)
    }
    if let scale = units.scale(of: target) {
      // Into a point on a scale (-1 K to °C): none is below absolute zero either.
      try aboveAbsoluteZero(base, scale, at: span)
      return try add(divide(base, scale.factor, at: span), .exact(-scale.offset!), at: span)
    }
    return try divide(base, factor(of: target, at: span), at: span)
  }

  /// Refuses a temperature of `kelvins` below 0 K, on `scale` or entering it.
  func aboveAbsoluteZero(_ kelvins: Number, _ scale: UnitTable.Entry, at span: SourceSpan) throws(Diagnostic) {
    guard try compare(kelvins, .exact(.zero), at: span) < 0 else { return }
    throw Diagnostic(
      "the temperature is below absolute zero (0 K, -273.15 °C, -459.67 °F): no temperature is", at: span,
      hint: "a difference of temperatures is in K or Δ\(scale.symbol): 500 Δ\(scale.symbol)")
  }

  /// A temperature of `degrees` on `scale` in kelvins: (degrees + offset)·factor.
  func kelvins(_ degrees: Number, on scale: UnitTable.Entry, at span: SourceSpan) throws(Diagnostic) -> Number {
    try multiply(add(degrees, .exact(scale.offset!), at: span), scale.factor, at: span)
  }

  /// `q` checked as a temperature when it is a point on a scale (-275 °C is refused).
  func checkedPoint(_ q: Quantity, at span: SourceSpan) throws(Diagnostic) -> Value {
    if let scale = units.scale(of: q.unit) {
      try aboveAbsoluteZero(kelvins(q.number, on: scale, at: span), scale, at: span)
    }
    return .quantity(q)
  }
}
