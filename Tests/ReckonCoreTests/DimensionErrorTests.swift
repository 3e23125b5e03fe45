import ReckonCore
import Testing

/// Dimension errors, with the carets they draw: a mismatch marks both sides.
@Suite struct DimensionErrorTests {
  @Test(arguments: [
    ("3 m + 2 s", "cannot add a length (m) and a time (s)", "^^^   ^^^"),
    ("3 m - 2 s", "cannot subtract a time (s) from a length (m)", "^^^   ^^^"),
    ("1 m + 2 m + 3 kg", "cannot add a length (m) and a mass (kg)", "^^^^^^^^^   ^^^^"),
    // (The parser keeps no parentheses: the carets are under what is inside them.)
    ("(3 m) mod (2 s)", "cannot take the remainder of a length (m) and a time (s)", " ^^^       ^^^"),
    ("5 kg to m", "cannot convert a mass (kg) to a length (m)", "        ^"),
    ("20 °C + 5 °C", "cannot add two temperatures on a scale (°C and °C): a temperature is a point", "      ^"),
    (
      "5 ft 3 kg", "the parts of a mixed quantity must be of one dimension: a length (ft), then a mass (kg)",
      "     ^^^^"
    ),
    ("1 m < 2 s", "cannot compare a length (m) and a time (s)", "^^^   ^^^"),
  ])
  func marksWhatIsWrong(_ source: String, _ message: String, _ carets: String) throws {
    do throws(Diagnostic) {
      let statement = try Parser.parseLine(source)
      let evaluator = Evaluator()
      switch statement {
      case .expression(let expr, _):
        _ = try evaluator.evaluate(expr, in: Environment())
      case .converted(.expression(let expr, _), let conversion):
        guard case .unit(let target, let text) = conversion.target else { throw Diagnostic("no unit", at: .init(0, 0)) }
        _ = try evaluator.converted(evaluator.evaluate(expr, in: Environment()), to: target, text: text)
      default:
        Issue.record("\(source) is not an expression")
      }
      Issue.record("\(source) was not refused")
    } catch {
      #expect(error.message == message)
      #expect(error.caretLine() == carets, "\(source)\n\(error.caretLine())")
    }
  }

  @Test func aHintSaysWhatAUnitConvertsTo() throws {
    let evaluator = Evaluator()
    let value = try evaluator.evaluate(Parser.parseExpression("5 kg"), in: Environment())
    #expect(throws: Diagnostic.self) { try evaluator.converted(value, to: Parser.parseExpression("m"), text: "m") }
    do throws(Diagnostic) {
      _ = try evaluator.converted(value, to: Parser.parseExpression("m"), text: "m")
    } catch {
      #expect(error.hint?.hasPrefix("kg converts to other units of mass: ") == true, "\(error.hint ?? "")")
      #expect(error.hint?.contains("lb") == true)
    }
  }
}

/// Each function treats units as its entry in `Builtins` says (`Builtins.Units`).
@Suite struct FunctionUnitTests {
  @Test(arguments: [
    ("sqrt(9 m^2)", "3 m"), ("cbrt(27 m^3)", "3 m"), ("abs(-3 m)", "3 m"), ("round(2.54 cm, 1)", "2.5 cm"),
    ("floor(2.7 kg)", "2 kg"), ("max(1 m, 2 ft)", "1 m"), ("min(1 m, 2 ft)", "0.6096 m"), ("sin(30°)", "0.5"),
    ("round(37.5%)", "0"), ("ln(5 m)", "error"), ("sqrt(2 m)", "error"), ("max(1 m, 2 s)", "error"),
  ])
  func followsItsRule(_ source: String, _ expected: String) throws {
    let evaluator = Evaluator()
    let shown: String
    do throws(Diagnostic) {
      shown = NumberFormatter().format(try evaluator.evaluate(Parser.parseExpression(source), in: Environment()))
    } catch {
      shown = "error"
    }
    #expect(shown == expected, "\(source)")
  }

  @Test func everyFunctionWithAUnitRuleSaysSoInItsHelp() {
    for function in Builtins.functions {
      #expect((function.units == .plain) == (function.units.help == nil), "\(function.name)")
    }
    #expect(
      Builtins.functions.filter { $0.units != .plain }.map(\.name) == [
        "sqrt", "cbrt", "abs", "round", "floor", "ceil", "trunc", "min", "max",
      ])
  }
}
