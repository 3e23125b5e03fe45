/// What `to` (`in`, `->`) with units makes of a value.
public enum UnitConversion: Sendable, Equatable {
  /// The value in the target: `8.04672 km`, `7.84 L/100km`. `unitText` is the target as the
  /// result writes it (its unit's symbols, or the target as typed when it holds a number).
  case quantity(Quantity, unitText: String)
  /// A mixed result: a whole number of each unit but the last, which takes the rest
  /// (`5 ft 10.866… in`, `1 h 23 min 20 s`), from the first unit that is not 0, the sign in
  /// front (`-1 min 30 s`).
  case mixed([Quantity])
}

extension Evaluator {
  /// `value` converted to the units of `target` (an expression of units, as the line wrote
  /// it after `to`): the same dimension (a temperature from one scale to another), the
  /// reciprocal dimension (`30 mpg to L/100km`), or several units of one dimension side by
  /// side for a mixed result.
  public func converted(_ value: Value, to target: Expr, text: String) throws(Diagnostic) -> UnitConversion {
    let span = target.span
    let q = try quantity(value, at: span)
    if let parts = try mixedTarget(target), parts.count >= 2 {
      return .mixed(try mixed(q, into: parts, at: span))
    }
    var t = try unitTarget(target)
    if let scale = units.scale(of: t.unit), isDifference(q.unit) {
      // (20 °C - 15 °C) to °F: a difference (5 Δ°C) converts to the scale's differences, 9 Δ°F,
      // not to the point 5 K above absolute zero.
      t.unit = differenceUnit(of: scale)
    }
    // A quantity as the target (6 h to 45 min) counts how many of it: 8 × 45 min.
    var unitText = t.number == .exact(.one) ? t.unit.text(in: units) : text
    switch target {
    case .number, .chain(.number, _): if t.number != .exact(.one) { unitText = "× " + text }
    default: break
    }
    let (from, to) = (units.dimension(of: q.unit), units.dimension(of: t.unit))
    if from.isNone, to.isNone, !q.unit.isNone, !sameKind(q.unit, t.unit) {
      // 3 dozen to rad, 1 sr to °: kinds of their own, as for + and ==.
      throw Diagnostic(
        "cannot convert \(units.describe(q.unit)) to \(units.describe(t.unit))", at: span,
        hint: convertibleHint(q.unit))
    }
    if from == to, !q.unit.isNone, hasAngle(q.unit) != hasAngle(t.unit) {
      // rpm is turns (a count) per minute, rad/s an angle per second: with angles plain
      // numbers, 3000 rpm would be 50 rad/s, 2π too few. Say how instead.
      let (a, b) = (q.unit.text(in: units), t.unit.text(in: units))
      let (angle, count) = hasAngle(q.unit) ? (a, b) : (b, a)
      throw Diagnostic(
        "cannot convert \(a) to \(b) directly: \(count) counts turns or cycles, \(angle) measures an angle", at: span,
        hint: "a turn is 2π rad: (3000 rpm) * 2pi rad to rad/s, or 1 turn to rad")
    }
    if from == to {
      let n = try divide(convert(q, to: t.unit, at: span), t.number, at: span)
      return .quantity(Quantity(n, t.unit), unitText: unitText)
    }
    if !from.isNone, let inverse = to.power(-1), inverse == from,
      units.scale(of: q.unit) == nil, units.scale(of: t.unit) == nil
    {
      // 30 mpg to L/100km: 1/value, in the target's units.
      let base = try multiply(q.number, factor(of: q.unit, at: span), at: span)
      let targetBase = try multiply(t.number, factor(of: t.unit, at: span), at: span)
      try requireNonZero(base, at: span)
      let n = try divide(divide(.exact(.one), base, at: span), targetBase, at: span)
      return .quantity(Quantity(n, t.unit), unitText: unitText)
    }
    let symbols = [q.unit.text(in: units), t.unit.text(in: units)]
    let temperature = symbols.contains("F") || symbols.contains("C")
    throw Diagnostic(
      "cannot convert \(units.describe(q.unit)) to \(units.describe(t.unit))", at: span,
      hint: temperature
        ? "F is the farad and C the coulomb; temperatures are °F and °C (or degF, degC): 98.6 °F to °C"
        : convertibleHint(q.unit))
  }

  /// Whether a unit is a difference of temperatures on a scale (Δ°C, Δ°F): K and °R are
  /// absolute too, and convert to a scale as points.
  func isDifference(_ unit: Unit) -> Bool {
    unit.count == 1 && unit[0].power == 1 && units.units[Int(unit[0].unit)].symbol.hasPrefix("Δ")
  }

  /// Whether a unit holds an angle (rad, °, turn…).
  func hasAngle(_ unit: Unit) -> Bool {
    (0..<Int(unit.count)).contains { units.isAngle[Int(unit[$0].unit)] }
  }

  /// What a unit could be converted to, for an error's hint.
  func convertibleHint(_ unit: Unit) -> String {
    if unit.isNone { return "a plain number converts to angles (deg), ratios (%) and formats (hex, fraction)" }
    let dimension = units.dimension(of: unit)
    let kind = units.kind(of: unit)
    let symbol = unit.text(in: units)
    let others = units.units.filter {
      $0.dimension == dimension && $0.kind == kind && $0.symbol != symbol && !$0.isCurrency
    }.prefix(8).map(\.symbol)
    guard let name = units.name(of: dimension, kind: kind), !others.isEmpty else {
      return "\(symbol) converts only to units of the same dimension (\(dimension.formula))"
    }
    return "\(symbol) converts to other units of \(name): " + others.joined(separator: ", ")
  }

  /// The units of a mixed target (`ft in`, `h min s`): names side by side, each a unit of one
  /// dimension, largest first; nil when the target is not that.
  func mixedTarget(_ target: Expr) throws(Diagnostic) -> [(Unit, SourceSpan)]? {
    guard case .chain(.name(let first, let firstSpan), let links) = target,
      links.allSatisfy({ $0.op == .implicitMultiply })
    else { return nil }
    var parts: [(Unit, SourceSpan)] = []
    for (name, span) in [(first, firstSpan)]
      + links.compactMap({ link -> (String, SourceSpan)? in
        if case .name(let n, let s) = link.operand { return (n, s) }
        return nil
      })
    {
      guard let term = units.term(named: name) else { return nil }
      parts.append((Unit(term), span))
    }
    guard parts.count == links.count + 1 else { return nil }
    let dimension = units.dimension(of: parts[0].0)
    // Units of several dimensions side by side are a product (to kg m), not a mixed result.
    if parts.contains(where: { units.dimension(of: $0.0) != dimension }) { return nil }
    for (unit, span) in parts where units.scale(of: unit) != nil {
      throw Diagnostic(
        "a mixed result's units must be of one dimension, and not a temperature scale", at: span,
        hint: "for example: to ft in, to h min s")
    }
    for i in 1..<parts.count {
      let bigger = try compare(
        factor(of: parts[i - 1].0, at: parts[i].1), factor(of: parts[i].0, at: parts[i].1),
        at: parts[i].1)
      guard bigger > 0 else {
        throw Diagnostic(
          "a mixed result's units go from the largest to the smallest", at: parts[i].1,
          hint: "for example: to ft in, to h min s")
      }
    }
    return parts
  }

  /// `q` as a whole number of each unit but the last, and the rest in the last.
  func mixed(_ q: Quantity, into parts: [(Unit, SourceSpan)], at span: SourceSpan) throws(Diagnostic)
    -> [Quantity]
  {
    let dimension = units.dimension(of: parts[0].0)
    guard units.dimension(of: q.unit) == dimension else {
      throw Diagnostic(
        "cannot convert \(units.describe(q.unit)) to \(units.describe(parts[0].0))", at: span,
        hint: convertibleHint(q.unit))
    }
    var rest = try convert(q, to: parts[0].0, at: span)
    let negative = rest.sign == -1
    if negative { rest = negate(rest) }
    var result: [Quantity] = []
    for (i, (unit, partSpan)) in parts.enumerated() {
      if i == parts.count - 1 {
        result.append(Quantity(rest, unit))
        break
      }
      guard let whole = try exactly(rest, at: partSpan, what: "a mixed result", { $0.floor }) else {
        throw Diagnostic("the value is too large to be split into \(unit.text(in: units)) and smaller units", at: span)
      }
      result.append(Quantity(.exact(whole), unit))
      let left = try add(rest, .exact(-whole), at: span)
      rest = try convert(Quantity(left, unit), to: parts[i + 1].0, at: span)
    }
    // The sign once, in front of the first part that is not zero (-30 s in min s is -30 s,
    // not 0 min 30 s, which would read as positive): leading parts of 0 are left out.
    while result.count > 1, case .exact(let r) = result[0].number, r.isZero { result.removeFirst() }
    if negative { result[0].number = negate(result[0].number) }
    return result
  }

  /// A conversion's target worked out as a quantity: names are units (or a dimensionless
  /// format word's unit: `%`), numbers and `*` `/` `^` as usual.
  func unitTarget(_ expr: Expr) throws(Diagnostic) -> Quantity {
    switch expr {
    case .number(let r, _):
      return Quantity(.exact(r))
    case .name(let name, let span):
      if let term = units.term(named: name) { return Quantity(.exact(.one), Unit(term)) }
      let guess =
        Suggestions.closest(to: name, in: Conversion.Target.words) ?? units.runTogether(name)
        ?? Suggestions.closest(to: name, in: units.allNames)
      throw Diagnostic(
        "unknown conversion \(Diagnostic.quoted(name)): it is no unit or format"
          + (guess.map { "; did you mean '\($0)'?" } ?? ""),
        at: span, hint: "convert to units (to km, to km/h, to ft in) or a format (to hex, to fraction, to percent)")
    case .power(let base, let exponent, let span):
      return try quantity(power(.quantity(unitTarget(base)), .quantity(unitTarget(exponent)), at: span), at: span)
    case .negate(let inner, _):
      // s^-1, m⁻¹ (as Reckon writes it).
      let q = try unitTarget(inner)
      return Quantity(negate(q.number), q.unit)
    case .chain(let first, let links):
      // The units as written, none cancelled or renamed: to V/Ω is V/Ω.
      var value = try unitTarget(first)
      for link in links {
        let other = try unitTarget(link.operand)
        let span = link.operatorSpan
        switch link.op {
        case .multiply, .implicitMultiply:
          guard let unit = value.unit.multiplied(by: other.unit) else { throw tooManyUnits(at: span) }
          value = Quantity(try multiply(value.number, other.number, at: span), unit)
        case .divide:
          guard let unit = value.unit.divided(by: other.unit) else { throw tooManyUnits(at: span) }
          value = Quantity(try divide(value.number, other.number, at: span), unit)
        default:
          throw Diagnostic("a conversion's target multiplies and divides units only", at: span)
        }
      }
      return value
    default:
      throw Diagnostic(
        "a conversion's target is units (to km/h, to ft in) or a format (to hex)", at: expr.span)
    }
  }
}

extension Evaluator {
  /// How a mixed quantity as written (`1h 20min`, `5 ft 11 in`) shows: in the units it was
  /// written in (`1 h 20 min`), when `value` is that line's value and its parts are one unit
  /// each, largest first; nil otherwise (the value shows in its first part's unit).
  public func mixedParts(of expr: Expr, value: Value, in env: Environment) -> [Quantity]? {
    guard case .chain(let first, let links) = expr, !links.isEmpty, links.allSatisfy({ $0.op == .mixed }),
      let q = value.quantity
    else { return nil }
    var parts: [(Unit, SourceSpan)] = []
    for part in [first] + links.map(\.operand) {
      guard let unit = (try? self.value(of: part, in: env))?.quantity?.unit, unit.count == 1 else { return nil }
      parts.append((unit, part.span))
    }
    for i in 1..<parts.count {
      guard
        let order = try? compare(
          factor(of: parts[i - 1].0, at: parts[i].1), factor(of: parts[i].0, at: parts[i].1), at: parts[i].1), order > 0
      else { return nil }
    }
    return try? mixed(q, into: parts, at: expr.span)
  }
}
