/// The evaluator's operations on values: true and false are refused, dimensions are checked
/// and units combined here, once, and the numbers go to the numeric operations
/// (`NumberArithmetic`).
///
/// The rules, as ARCHITECTURE.md and `help units` give them:
/// - `+`, `-`, `mod` and comparisons need one dimension on both sides; the result is in the
///   left side's unit (`6 ft + 3 in` is 6.25 ft). A plain number and an angle or a ratio add
///   (both have no dimension): the result is in the left side's unit.
/// - `×` and `÷` combine units, then simplify them by three steps, in order: units of one
///   dimension met in a product are made one (the later converted into the earlier: `3 m * 2
///   km` is 6000 m²), and a ratio (`%`, `ppm`) in a product is its number (`200 * 15%` is 30);
///   units apart from money that have no dimension together cancel (`1.5 L / 250 cm^3` is 6,
///   `60 W * 5 h * 0.25 USD/kWh` is 0.075 USD); a quotient of units whose dimension is a
///   unit's is shown in it (`1 kWh / 100 W` is 10 h, `12 V / 4 Ω` is 3 A: `acrossDimensions`). A rate
///   keeps its units (`km/h`), a product too (`N·m`), and `to` always wins.
/// - Temperatures on a scale (`°C`, `°F`) are points: a point plus or minus a difference
///   (`K`, `Δ°C`) is a point, a point minus a point is a difference, two points cannot be
///   added.
extension Evaluator {
  /// `a op b` for one link of a chain; `leftSpan` is where `a` was written (all of the chain
  /// before the link), for an error that marks both sides.
  func apply(_ link: Expr.Link, _ a: Value, _ b: Value, leftExpr: Expr, leftSpan: SourceSpan) throws(Diagnostic)
    -> Value
  {
    do {
      return try apply(link, a, b, leftExpr: leftExpr)
    } catch var error {
      // 3 m + 2 s: a caret under each side, as well as the operator's place.
      if error.span == link.operatorSpan, error.also.isEmpty, [.add, .subtract, .modulo].contains(link.op),
        let (x, y) = try? (quantity(a, at: leftSpan), quantity(b, at: leftSpan)),
        units.dimension(of: x.unit) != units.dimension(of: y.unit) || !sameKind(x.unit, y.unit)
      {
        error.span = leftSpan
        error.also = [link.operand.span]
      }
      throw error
    }
  }

  func apply(_ link: Expr.Link, _ a: Value, _ b: Value, leftExpr: Expr) throws(Diagnostic) -> Value {
    let span = link.operatorSpan
    switch link.op {
    case .add, .subtract:
      // a ± p%: a·(1 ± p), unless a is a percentage itself (10% + 5% is 15%); p% written,
      // held in a variable (tax = 8.25%) or worked out, and per mille alike.
      if isPercentage(b), !isRatio(a) {
        let one = Value.rational(1)
        let change = link.op == .add ? try add(one, b, at: span) : try subtract(one, b, at: span)
        return try multiply(a, change, at: span)
      }
      return link.op == .add ? try add(a, b, at: span) : try subtract(a, b, at: span)
    case .multiply, .implicitMultiply:
      if link.op == .multiply || !link.operand.isName {
        // 20 °C * 2 is refused; 20 °C (a number, then its unit's name) is the temperature.
        try noScale(quantity(a, at: span), quantity(b, at: span), "multiply", scaling: true, at: span)
      }
      if link.op == .implicitMultiply, link.operand.isName, let n = a.plainNumber, let q = b.quantity,
        units.kind(of: q.unit) == "ratio", q.unit.count == 1
      {
        // 15‰, 3 ppm: a number and a ratio's name are a quantity in it, as 15% is (in a
        // product, later, it is its number).
        return .quantity(Quantity(try multiply(n, q.number, at: span), q.unit))
      }
      return try multiply(a, b, at: span)
    case .mixed:
      // 5 ft 11 in: the parts of one quantity, in its first part's unit.
      let (x, y) = (try quantity(a, at: span), try quantity(b, at: span))
      guard units.dimension(of: x.unit) == units.dimension(of: y.unit), !x.unit.isNone, !y.unit.isNone else {
        throw Diagnostic(
          "the parts of a mixed quantity must be of one dimension: \(units.describe(x.unit)), then "
            + "\(units.describe(y.unit))", at: link.operand.span, hint: "for example: 5 ft 11 in, 1 h 20 min")
      }
      return try add(a, b, at: span)
    case .of:
      guard isPercentage(a) || leftExpr.isWrittenPercentage else {
        throw Diagnostic("'of' needs a percentage before it", at: span, hint: "for example: 15% of 80")
      }
      return try multiply(a, b, at: span)
    case .divide:
      try noScale(quantity(a, at: span), quantity(b, at: span), "divide", scaling: true, at: span)
      return try divide(a, b, at: span)
    case .modulo:
      return try modulo(a, b, at: span)
    }
  }

  /// Whether `v` is a percentage or a per mille (`15%`, `tax` when it is 8.25%, `15‰`): the
  /// values the `a + p%` and `p% of x` rules are for.
  func isPercentage(_ v: Value) -> Bool {
    guard let q = v.quantity, q.unit.count == 1, q.unit[0].power == 1, q.unit[0].prefix == 0 else { return false }
    let symbol = units.units[Int(q.unit[0].unit)].symbol
    return symbol == "%" || symbol == "‰"
  }

  /// Whether two units of no dimension are of one kind, as conversion asks: an angle, a
  /// solid angle and a ratio or count do not add or compare (3° + 2 sr is an error). A
  /// plain number goes with any of them (radians and ratios are numbers: 30° + 1).
  func sameKind(_ a: Unit, _ b: Unit) -> Bool {
    a.isNone || b.isNone || !units.dimension(of: a).isNone || units.kind(of: a) == units.kind(of: b)
  }

  /// Whether `v` is a quantity in a ratio unit (`%`, `‰`, `ppm`).
  func isRatio(_ v: Value) -> Bool {
    guard let q = v.quantity, !q.unit.isNone else { return false }
    return units.kind(of: q.unit) == "ratio"
  }

  /// -a: the number negated, the unit kept. (A temperature on a scale has no negative: -20 °C
  /// is the point 20 degrees below 0 °C, written so.)
  public func negate(_ v: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    let q = try quantity(v, at: span)
    return try checkedPoint(Quantity(negate(q.number), q.unit), at: span)
  }

  public func add(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    try sum(a, b, subtracting: false, at: span)
  }

  public func subtract(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    try sum(a, b, subtracting: true, at: span)
  }

  /// a + b or a − b: one dimension, the result in a's unit.
  func sum(_ a: Value, _ b: Value, subtracting: Bool, at span: SourceSpan) throws(Diagnostic) -> Value {
    let (x, y) = (try quantity(a, at: span), try quantity(b, at: span))
    func combine(_ p: Number, _ q: Number) throws(Diagnostic) -> Number {
      subtracting ? try add(p, negate(q), at: span) : try add(p, q, at: span)
    }
    if x.unit == y.unit && units.scale(of: x.unit) == nil {
      return .quantity(Quantity(try combine(x.number, y.number), x.unit))
    }
    let (dx, dy) = (units.dimension(of: x.unit), units.dimension(of: y.unit))
    guard dx == dy, sameKind(x.unit, y.unit) else {
      throw Diagnostic(
        subtracting
          ? "cannot subtract \(units.describe(y.unit)) from \(units.describe(x.unit))"
          : "cannot add \(units.describe(x.unit)) and \(units.describe(y.unit))", at: span,
        hint: "only quantities of one dimension add: convert one of them, or check the units")
    }
    switch (units.scale(of: x.unit), units.scale(of: y.unit)) {
    case (let left?, let right?):
      guard subtracting else {
        throw Diagnostic(
          "cannot add two temperatures on a scale (\(left.symbol) and \(right.symbol)): a temperature is a point",
          at: span, hint: "add a difference (20 °C + 5 Δ°C), or take their mean: (15 °C + 25 °C)/2")
      }
      // A point minus a point: the difference, in the left scale's degrees.
      let difference = try add(
        kelvins(x.number, on: left, at: span), negate(kelvins(y.number, on: right, at: span)), at: span)
      let degrees = differenceUnit(of: left)
      return .quantity(Quantity(try divide(difference, factor(of: degrees, at: span), at: span), degrees))
    case (let left?, nil):
      // A point and a difference: the difference in the scale's degrees.
      let degrees = try divide(
        multiply(y.number, factor(of: y.unit, at: span), at: span), left.factor, at: span)
      return try checkedPoint(Quantity(try combine(x.number, degrees), x.unit), at: span)
    case (nil, let right?):
      guard !subtracting else {
        throw Diagnostic(
          "cannot subtract a temperature on a scale (\(right.symbol)) from a difference", at: span,
          hint: "subtract the difference from the temperature instead")
      }
      let degrees = try divide(
        multiply(x.number, factor(of: x.unit, at: span), at: span), right.factor, at: span)
      return try checkedPoint(Quantity(try add(degrees, y.number, at: span), y.unit), at: span)
    case (nil, nil):
      return .quantity(Quantity(try combine(x.number, convert(y, to: x.unit, at: span)), x.unit))
    }
  }

  /// The unit a difference of two temperatures on `scale` is given in: the scale's own
  /// difference unit (`Δ°C`, `Δ°F`) when the table has one of its size, else kelvins.
  func differenceUnit(of scale: UnitTable.Entry) -> Unit {
    let temperature = scale.dimension
    if let index = units.units.firstIndex(where: {
      !$0.isAffine && $0.dimension == temperature && $0.factor == scale.factor && $0.symbol.hasPrefix("Δ")
    }) {
      return Unit(Unit.Term(unit: UInt16(index), prefix: 0, power: 1))
    }
    let kelvin = units.units.firstIndex { !$0.isAffine && $0.dimension == temperature && $0.factor == .exact(.one) }
    return kelvin.map { Unit(Unit.Term(unit: UInt16($0), prefix: 0, power: 1)) } ?? .none
  }

  public func multiply(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    let (x, y) = (try quantity(a, at: span), try quantity(b, at: span))
    let number = try multiply(x.number, y.number, at: span)
    if x.unit.isNone && y.unit.isNone { return .number(number) }
    try noScale(x, y, "multiply", at: span)
    guard let unit = x.unit.multiplied(by: y.unit) else { throw tooManyUnits(at: span) }
    // -275 °C is no temperature.
    if units.scale(of: unit) != nil { return try checkedPoint(Quantity(number, unit), at: span) }
    return .quantity(try simplified(Quantity(number, unit), at: span))
  }

  public func divide(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    let (x, y) = (try quantity(a, at: span), try quantity(b, at: span))
    let number = try divide(x.number, y.number, at: span)
    if x.unit.isNone && y.unit.isNone { return .number(number) }
    try noScale(x, y, "divide", at: span)
    guard let unit = x.unit.divided(by: y.unit) else { throw tooManyUnits(at: span) }
    return .quantity(try perHour(simplified(Quantity(number, unit), at: span), at: span))
  }

  /// A speed in kilometres, miles or nautical miles per any time is shown per hour, as such
  /// speeds are given (`60 km / 45 min` is 80 km/h; 60 mi / 45 min is 80 mph, and knots).
  func perHour(_ q: Quantity, at span: SourceSpan) throws(Diagnostic) -> Quantity {
    let terms = q.unit.termList
    guard terms.count == 2, terms[0].power == 1, terms[1].power == -1 else { return q }
    let length = units.symbol(of: terms[0])
    let time = units.units[Int(terms[1].unit)]
    guard let timeIndex = Dimension.baseNames.firstIndex(of: "time"), time.dimension == .base(timeIndex),
      units.symbol(of: terms[1]) != "h"
    else { return q }
    let target: String
    switch length {
    case "km": target = "km/h"
    case "mi": target = "mph"
    case "nmi": target = "kn"
    default: return q
    }
    guard let unit = try? unitTarget(Parser.parseExpression(target)).unit else { return q }
    return Quantity(try convert(q, to: unit, at: span), unit)
  }

  /// A temperature on a scale is a point, which has no product (20 °C is not twice 10 °C,
  /// which is 283.15 K): neither by a number nor by a quantity.
  func noScale(_ x: Quantity, _ y: Quantity, _ verb: String, scaling: Bool = false, at span: SourceSpan)
    throws(Diagnostic)
  {
    let byNumber = x.unit.isNone || y.unit.isNone
    // (20 °C itself is 20 times the unit °C: the one product a scale has.)
    guard scaling || !byNumber else { return }
    for q in [x, y] {
      guard let scale = units.scale(of: q.unit) else { continue }
      let by = byNumber ? "" : " by another quantity"
      throw Diagnostic(
        "cannot \(verb) a temperature on a scale (\(scale.symbol))\(by): a temperature is a point, not an amount",
        at: span,
        hint: "convert it to K first (20 °C to K), or scale a difference: 20 Δ\(scale.symbol) * 2")
    }
  }

  func tooManyUnits(at span: SourceSpan) -> Diagnostic {
    Diagnostic("too many units in one quantity (at most \(Unit.capacity), each to a power up to 60)", at: span)
  }

  /// A product's unit made simple: terms of one dimension made one (the later converted into
  /// the earlier's unit), ratios folded into the number, and what cancels dropped.
  func simplified(_ q: Quantity, at span: SourceSpan) throws(Diagnostic) -> Quantity {
    var number = q.number
    var unit = q.unit
    var changed = true
    while changed {
      changed = false
      let terms = unit.termList
      search: for i in terms.indices {
        let ei = units.units[Int(terms[i].unit)]
        if ei.kind == "ratio" {
          // 15% in a product is 0.15.
          let f = try power(units.factor(of: terms[i]), .exact(Rational(Int(terms[i].power))), at: span)
          number = try multiply(number, f, at: span)
          unit = unit.divided(by: Unit(terms[i])) ?? unit
          changed = true
          break search
        }
        for j in terms.indices where j > i {
          let ej = units.units[Int(terms[j].unit)]
          guard ei.kind == ej.kind, ei.dimension == ej.dimension, !ei.isCurrency, !ej.isCurrency, !ei.isAffine,
            !ej.isAffine
          else { continue }
          // terms[j]^p as terms[i]^p: times (f_j / f_i)^p.
          let ratio = try divide(units.factor(of: terms[j]), units.factor(of: terms[i]), at: span)
          number = try multiply(number, power(ratio, .exact(Rational(Int(terms[j].power))), at: span), at: span)
          var moved = terms[i]
          moved.power = terms[j].power
          var removed = terms[j]
          removed.power = -terms[j].power
          guard let merged = unit.multiplied(by: Unit(removed))?.multiplied(by: Unit(moved)) else {
            throw tooManyUnits(at: span)
          }
          unit = merged
          changed = true
          break search
        }
      }
    }
    return try acrossDimensions(Quantity(number, unit), at: span)
  }

  /// The named units a quotient of others is shown in (V/Ω is A, J/s is W, kg·m/s² is N):
  /// the SI's base units and those derived for mechanics and electricity, never a gray for
  /// J/kg or a hertz for a rate.
  static let namedQuotients = ["m", "kg", "s", "A", "K", "mol", "N", "Pa", "J", "W", "C", "V", "Ω", "F", "S"]

  /// Units across dimensions made simple, after `simplified`, by the rule in this file's
  /// notes. Apart from money and from units with a kind (angles, ratios) or a scale:
  /// - units that have no dimension together cancel, their factor going into the number
  ///   (1.5 L / 250 cm³ is 6; 60 W · 5 h · 0.25 USD/kWh is 0.075 USD);
  /// - a quotient (units above the line and below) whose dimension is a unit's is shown in
  ///   that unit: one its units are defined with (kWh / W is in h, as a watt-hour is W·h;
  ///   V/Ω in A, as a volt is W/A), or else, when every unit is the SI's own, the SI's named
  ///   unit (J/s is W, kg·m/s² is N). A rate keeps its units (km/h, mpg, L/100km), a product
  ///   too (N·m stays a torque); `to` says otherwise.
  @inline(never)
  func acrossDimensions(_ q: Quantity, at span: SourceSpan) throws(Diagnostic) -> Quantity {
    var rest = Unit.none
    var above = false
    var below = false
    var coherent = true
    var candidates: [Int] = []
    for term in q.unit.termList {
      let entry = units.units[Int(term.unit)]
      if entry.isCurrency { continue }
      guard entry.kind == nil, !entry.isAffine, let product = rest.multiplied(by: Unit(term)) else { return q }
      rest = product
      if term.power > 0 { above = true } else { below = true }
      coherent = coherent && term.prefix == 0 && entry.factor == .exact(.one)
      candidates += entry.parts.termList.map { Int($0.unit) }
    }
    guard rest.count >= 2, let left = q.unit.divided(by: rest) else { return q }
    let dimension = units.dimension(of: rest)
    var number = try multiply(q.number, factor(of: rest, at: span), at: span)
    if dimension.isNone { return Quantity(number, left) }
    guard above && below else { return q }
    let table = units.units
    var chosen = candidates.first { table[$0].dimension == dimension && table[$0].kind == nil }
    if chosen == nil && coherent {
      chosen = table.firstIndex {
        $0.dimension == dimension && $0.kind == nil && Evaluator.namedQuotients.contains($0.symbol)
      }
    }
    guard let index = chosen else { return q }
    let target = Unit(Unit.Term(unit: UInt16(index), prefix: 0, power: 1))
    guard let unit = target.multiplied(by: left) else { return q }
    number = try divide(number, factor(of: target, at: span), at: span)
    return Quantity(number, unit)
  }

  /// `x mod y`: one dimension, in x's unit.
  func modulo(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    let (x, y) = (try quantity(a, at: span), try quantity(b, at: span))
    let other = try inUnitOf(x, y, "take the remainder of", at: span)
    return .quantity(Quantity(try modulo(x.number, other, at: span), x.unit))
  }

  /// y's number in x's unit, for an operation that needs both in one dimension.
  func inUnitOf(_ x: Quantity, _ y: Quantity, _ verb: String, at span: SourceSpan) throws(Diagnostic) -> Number {
    if x.unit == y.unit { return y.number }
    guard units.dimension(of: x.unit) == units.dimension(of: y.unit), sameKind(x.unit, y.unit) else {
      throw Diagnostic(
        "cannot \(verb) \(units.describe(x.unit)) and \(units.describe(y.unit))", at: span,
        hint: "both sides need one dimension")
    }
    return try convert(y, to: x.unit, at: span)
  }

  /// `base ^ exponent`: the exponent a plain number; a unit to a whole power, or to a fraction
  /// whose denominator divides every power of the unit (`(9 m²)^(1/2)` is 3 m).
  func power(_ base: Value, _ exponent: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    let (b, e) = (try quantity(base, at: span), try plain(exponent, at: span))
    guard !b.unit.isNone else { return .number(try power(b.number, e, at: span)) }
    // A ratio in a power is its number, as in a product: (10%)^2 is 0.01.
    if units.kind(of: b.unit) == "ratio" { return .number(try power(plain(base, at: span), e, at: span)) }
    if units.scale(of: b.unit) != nil {
      throw Diagnostic(
        "a temperature on a scale has no powers", at: span, hint: "convert it to K first: (20 °C to K)^2")
    }
    if case .exact(let r) = e, r.isZero { return .number(try power(b.number, e, at: span)) }
    let pastTheLimit = Diagnostic(
      "the power of a unit can be at most 60: \(b.unit.text(in: units)) to this power is past it", at: span,
      hint: "divide by the unit first to raise its number: ((3 m) / m)^1000")
    // Either sign: (m⁻³)^32 would be m⁻⁹⁶.
    if case .exact(let r) = e, r.isInteger,
      r.magnitude > Rational(60)
        || b.unit.termList.contains(where: { (Rational(Int($0.power)) * r).magnitude > 60 })
    {
      throw pastTheLimit
    }
    if case .exact(let r) = e, let p = r.numerator.intValue, let q = r.denominator.intValue, p.magnitude <= 60,
      q <= 60, !b.unit.termList.allSatisfy({ Int($0.power) * p % q == 0 }), let base = baseUnits(of: b.unit),
      base.termList.allSatisfy({ Int($0.power) * p % q == 0 })
    {
      // sqrt(1 acre), cbrt(1 L): a unit that is a whole power only by its dimension, taken
      // through the SI base units (an acre is 4046.8564224 m², its root in m).
      let inBase = Quantity(try multiply(b.number, factor(of: b.unit, at: span), at: span), base)
      return try power(.quantity(inBase), exponent, at: span)
    }
    guard case .exact(let r) = e, let p = r.numerator.intValue, let q = r.denominator.intValue,
      p.magnitude <= 60, q <= 60, b.unit.termList.allSatisfy({ Int($0.power) * p % q == 0 })
    else {
      throw Diagnostic(
        "a quantity with a unit can be raised only to a whole power, or to a fraction that leaves whole powers of "
          + "its units", at: span, hint: "(3 m)^2 is 9 m²; (9 m^2)^(1/2) is 3 m")
    }
    var unit = Unit.none
    for term in b.unit.termList {
      var t = term
      // A fraction too ((m⁶⁰)^(59/2)): checked before it is narrowed to the term's Int8.
      let raised = Int(term.power) * p / q
      guard raised.magnitude <= 60 else { throw pastTheLimit }
      t.power = Int8(raised)
      guard let product = unit.multiplied(by: Unit(t)) else { throw tooManyUnits(at: span) }
      unit = product
    }
    return .quantity(Quantity(try power(b.number, e, at: span), unit))
  }

  /// The SI base units of `unit`'s dimension (m² for an acre, m³ for a litre); nil for a
  /// unit with a kind, money or a scale, or a dimension past the unit's capacity.
  func baseUnits(of unit: Unit) -> Unit? {
    let dimension = units.dimension(of: unit)
    guard !dimension.isNone, units.kind(of: unit) == nil, units.currency(in: unit) == nil else { return nil }
    var result = Unit.none
    for index in Dimension.baseNames.indices where dimension.power(of: index) != 0 {
      guard
        let base = units.units.firstIndex(where: {
          $0.dimension == .base(index) && $0.factor == .exact(.one) && $0.kind == nil && !$0.isAffine
            && !$0.isCurrency
        }), let term = Unit(Unit.Term(unit: UInt16(base), prefix: 0, power: 1)).power(dimension.power(of: index)),
        let product = result.multiplied(by: term)
      else { return nil }
      result = product
    }
    return result
  }

  func factorial(_ v: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    .number(try factorial(plain(v, at: span), at: span))
  }

  /// -1, 0 or 1 as `a` is below, equal to or above `b` (one dimension; b in a's unit).
  public func compare(_ a: Value, _ b: Value, at span: SourceSpan, equality: Bool = false) throws(Diagnostic) -> Int {
    let (x, y) = (try quantity(a, at: span), try quantity(b, at: span))
    let other = try inUnitOf(x, y, "compare", at: span)
    return try compare(x.number, other, at: span, equality: equality)
  }

  /// The plain number `v` is: not true or false, and of no dimension (an angle in radians, a
  /// ratio as its number: 30° is π/6, 15% is 0.15, 3 km/m is 3000).
  public func plain(_ v: Value, at span: SourceSpan) throws(Diagnostic) -> Number {
    let q = try quantity(v, at: span)
    if q.unit.isNone { return q.number }
    guard units.dimension(of: q.unit).isNone, units.currency(in: q.unit) == nil else {
      throw Diagnostic(
        "a plain number is needed here, not \(units.describe(q.unit))", at: span,
        hint: "divide by a unit to get its number: (5 km) / m is 5000")
    }
    return try multiply(q.number, factor(of: q.unit, at: span), at: span)
  }

  /// `(a + b + …)/n` where a, b… are temperatures on a scale and n is how many: their mean,
  /// a temperature on the first one's scale (each point is 0 K plus a difference, and the
  /// mean of those differences is one). Nil when `sum` is not a sum of such points; an error
  /// when it is and `n` is not their count (the sum of two points alone is no temperature).
  @inline(never)
  func meanOfPoints(_ sum: Expr, over divisor: Expr.Link, in env: Environment) throws(Diagnostic) -> Value? {
    guard divisor.op == .divide, case .chain(let first, let links) = sum, !links.isEmpty,
      links.allSatisfy({ $0.op == .add }), let kelvin = units.term(named: "K")
    else { return nil }
    var total = Number.exact(.zero)
    var scale = Unit.none
    for term in [first] + links.map(\.operand) {
      guard let q = try value(of: term, in: env).quantity, units.scale(of: q.unit) != nil else { return nil }
      if scale.isNone { scale = q.unit }
      total = try add(total, convert(q, to: Unit(kelvin), at: term.span), at: term.span)
    }
    let span = divisor.operatorSpan
    let count = links.count + 1
    guard case .exact(let n)? = try value(of: divisor.operand, in: env).plainNumber, n == Rational(count) else {
      throw Diagnostic(
        "a sum of \(count) temperatures divided by other than \(count) is no temperature", at: span,
        hint: "their mean is (15 °C + 25 °C)/2; to scale temperatures, convert them to K first")
    }
    let mean = Quantity(try divide(total, .exact(n), at: span), Unit(kelvin))
    return .quantity(Quantity(try convert(mean, to: scale, at: span), scale))
  }
}
