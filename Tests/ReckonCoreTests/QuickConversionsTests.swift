import Testing

@testable import ReckonCore

/// The one-pass conversions must give what the full path (parser, evaluator, conversion)
/// gives for every line they answer, and decline every line where the full path differs or
/// fails.
@Suite struct QuickConversionsTests {
  /// What the calculator's full path gives for a conversion line: its statement, the
  /// converted quantity and its unit's text; nil for an error or another kind of line.
  static func full(_ line: String, evaluator: Evaluator = Evaluator(), env: Environment = Environment())
    -> (statement: Statement, quantity: Quantity, unitText: String)?
  {
    guard let statement = try? Parser.parseLine(line),
      case .converted(.expression(let expr, _), let conversion) = statement,
      case .unit(let target, let text) = conversion.target,
      let value = try? evaluator.evaluate(expr, in: env),
      case .quantity(let q, let unitText)? = try? evaluator.converted(value, to: target, text: text)
    else { return nil }
    return (statement, q, unitText)
  }

  /// Learns `first` as the calculator does (after the full path answered it), then answers
  /// each of `lines`; returns how many the quick path answered, each checked against the
  /// full path.
  @discardableResult
  static func check(
    learning first: String, then lines: [String], evaluator: Evaluator = Evaluator(), env: Environment = Environment(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Int {
    var quick = QuickConversions()
    if let (statement, q, _) = full(first, evaluator: evaluator, env: env) {
      quick.learn(first, statement: statement, answer: .quantity(q), evaluator: evaluator, in: env)
    }
    var answered = 0
    for line in lines {
      let fast = quick.answer(line, in: env)
      let slow = full(line, evaluator: evaluator, env: env)
      guard let fast else { continue }
      answered += 1
      #expect(
        slow?.quantity == fast.0, "\(line): quick \(fast.0), full \(String(describing: slow?.quantity))",
        sourceLocation: sourceLocation)
      #expect(
        slow.map { NumberFormatter.suffix(text: $0.unitText) } == fast.suffix, "\(line)", sourceLocation: sourceLocation
      )
    }
    return answered
  }

  static let numbers = ["0", "1", "2.5", "12", "98.6", "1000", ".125", "123456789.123456789", "000042"]

  /// Every unit of the table that is no currency, converted to others of its dimension and
  /// kind (a few each, chosen by a fixed rule), at numbers from 0 to 18 digits.
  @Test func agreesWithTheFullPathAcrossTheTable() {
    let units = UnitTable.standard.units.filter { !$0.isCurrency }
    var shapes = 0
    var answered = 0
    for (i, a) in units.enumerated() {
      let partners = units.enumerated().filter {
        $0.element.dimension == a.dimension && $0.element.kind == a.kind && $0.offset != i
      }.map(\.element)
      for b in partners.enumerated().filter({ ($0.offset + i) % max(1, partners.count / 3) == 0 }).map(\.element) {
        let (from, to) = (a.names.last!, b.names[0])
        let lines = Self.numbers.map { "\($0) \(from) to \(to)" }
        let n = Self.check(learning: lines[1], then: lines)
        shapes += n > 0 ? 1 : 0
        answered += n
      }
    }
    // Most shapes are learnt (not those with punctuation in a name: ', ", %).
    #expect(shapes > 400, "\(shapes) shapes learnt")
    #expect(answered > 3000, "\(answered) lines answered")
  }

  @Test(arguments: [
    ("30 mpg to L/100km", ["10 mpg to L/100km", "0 mpg to L/100km", "17.5 mpg to L/100km"], 2),
    ("98.6 °F to °C", ["0 °F to °C", "451 °F to °C", "98.6 °F to °C"], 3),
    ("20 °C to K", ["0 °C to K", "100 °C to K"], 2),
    ("5 K to °F", ["0 K to °F", "300 K to °F"], 2),
    ("3 ft 9 in to cm", ["5 ft 11 in to cm", "0 ft 0 in to cm", "6 ft 13 in to cm"], 3),
    ("1 h 20 min 5 s to s", ["2 h 0 min 59 s to s"], 1),
    ("65 mph to km/h", ["120 mph to km/h", "0.5 mph to km/h"], 2),
    ("2 GiB -> MB", ["64 GiB -> MB"], 1),
    ("4 cups to ml", ["7 cups to ml", "1 cups to ml"], 2),
    ("5 mi to   km  ", ["8 mi to   km  ", "8 mi\tto km"], 2),
    ("90 deg to rad", ["45 deg to rad"], 0),  // π: not exact
    ("3 ft 9 in to ft in", ["5 ft 11 in to ft in"], 0),  // a mixed result
    ("100 cm in in", ["200 cm in in"], 0),  // "in" is the full path's to place
    ("5 km to mi # run", ["6 km to mi # run"], 0),
    ("1 °C 5 K to K", ["2 °C 5 K to K"], 0),  // a scale in a mixed quantity
    ("3 in 1 ft to cm", ["4 in 1 ft to cm"], 1),  // added as the full path adds
    ("5 m² to ft²", ["6 m² to ft²"], 0),  // the parser reads a power: not one unit word
    ("5 ans to km", ["6 ans to km"], 0),
    ("5 to km", ["6 to km"], 0),
  ])
  func shapes(first: String, lines: [String], answered: Int) {
    #expect(Self.check(learning: first, then: lines) == answered)
  }

  /// A variable hides the unit of its name (`km = 3`, then `5 km` is 15), on every line.
  @Test func aVariableHidesTheUnit() {
    var quick = QuickConversions()
    let evaluator = Evaluator()
    let (statement, q, _) = Self.full("5 km to mi")!
    quick.learn("5 km to mi", statement: statement, answer: .quantity(q), evaluator: evaluator, in: Environment())
    #expect(quick.answer("6 km to mi", in: Environment()) != nil)
    var env = Environment()
    env.variables["km"] = .rational(3)
    #expect(quick.answer("6 km to mi", in: env) == nil)
    env.variables = ["mi": .rational(3)]  // the target is units whatever the variables
    #expect(quick.answer("6 km to mi", in: env) != nil)
  }

  /// Currencies are never learnt: rates change with `set rate`.
  @Test func currenciesTakeTheFullPath() {
    var evaluator = Evaluator()
    evaluator.rates.set(ExchangeRates.Rate(from: "EUR", to: "USD", value: Rational(108, 100), day: 0))
    #expect(Self.full("120 EUR to USD", evaluator: evaluator) != nil)
    #expect(Self.check(learning: "120 EUR to USD", then: ["100 EUR to USD"], evaluator: evaluator) == 0)
  }

  /// A shape that cannot be learnt is not tried again on every line of it; one declined for
  /// a variable hiding its unit is (after `reset` it can be learnt).
  @Test func aShapeThatCannotBeLearntIsNotTriedAgain() throws {
    var evaluator = Evaluator()
    evaluator.rates.set(ExchangeRates.Rate(from: "EUR", to: "USD", value: Rational(108, 100), day: 0))
    var quick = QuickConversions()
    let (money, q, _) = try #require(Self.full("120 EUR to USD", evaluator: evaluator))
    quick.learn("120 EUR to USD", statement: money, answer: .quantity(q), evaluator: evaluator, in: Environment())
    #expect(quick.declined == [QuickConversions.shape(of: "120 EUR to USD")?.key])

    var hidden = Environment()
    hidden.variables["km"] = .rational(3)
    let (length, km, _) = try #require(Self.full("5 km to mi"))
    quick.learn("5 km to mi", statement: length, answer: .quantity(km), evaluator: Evaluator(), in: hidden)
    #expect(quick.declined.count == 1 && quick.plans.isEmpty)
    quick.learn("5 km to mi", statement: length, answer: .quantity(km), evaluator: Evaluator(), in: Environment())
    #expect(quick.plans.count == 1)
  }

  /// A plan is kept only when it gives the full path's answer for the line it was learnt from.
  @Test func aWrongAnswerIsNotLearnt() {
    var quick = QuickConversions()
    let (statement, _, _) = Self.full("5 km to mi")!
    quick.learn("5 km to mi", statement: statement, answer: .rational(5), evaluator: Evaluator(), in: Environment())
    #expect(quick.answer("6 km to mi", in: Environment()) == nil)
  }

  /// Lines the shape reader must decline without reading past their end.
  @Test(arguments: [
    "", "5", "5 km", "5 km ", "5 km to", "5 km to ", "5 km/h to mph", "-5 km to mi", "5e3 km to mi", "1_000 m to km",
    "5 km to mi\u{1}", "1. km to mi", "5 km 3 to m", "5 'km to mi", "5 km -> ", "5 km->mi",
    "5 km in mi", "x = 5 km to mi", "(5) km to mi", "5 km to mi # note",
    String(repeating: "1 m ", count: 40) + "to km",
  ])
  func declines(line: String) {
    #expect(QuickConversions.shape(of: line) == nil)
  }

  /// The shape's key: the unit words and the target, whatever the spaces between.
  @Test func shapesOfOneKindShareAKey() throws {
    let a = try #require(QuickConversions.shape(of: "5km to mi"))
    let b = try #require(QuickConversions.shape(of: " \t12.5   km\tto mi  "))
    #expect(a.key == b.key)
    #expect(a.0 == [Rational(5)] && b.0 == [Rational(25, 2)])
    let c = try #require(QuickConversions.shape(of: "3 ft 9 in -> cm"))
    #expect(c.0 == [Rational(3), Rational(9)])
    #expect(c.key != a.key)
  }
}
