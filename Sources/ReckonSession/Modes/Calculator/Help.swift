import ReckonCore

/// The text of `help` and `help TOPIC`.
public enum Help {
  /// Topics beyond command and function names.
  public static let topics = [
    "functions", "operators", "percent", "numbers", "conversions", "units", "constants", "keys", "variables",
  ]

  /// Help for a topic, a command or a function; the overview when `topic` is nil.
  public static func text(for topic: String?) -> [String] {
    guard let topic else { return [overview] }
    // "units" is a topic (how to calculate with units) and a command (the table): both.
    if topic == "units", let command = Commands.named(topic) { return [units, command.help.text] }
    if let command = Commands.named(topic) { return [command.help.text] }
    if let f = Builtins.function(named: topic) {
      return ["\(f.usage)\n  \(f.summary)" + (f.units.help.map { "\n  " + $0 } ?? "")]
    }
    switch topic {
    case "pi", "π":
      return ["pi (also π) ≈ 3.141592654, kept exact: sin(pi) is 0, (3pi)/(2pi) is 1.5."]
    case "e":
      return ["e ≈ 2.718281828, Euler's number, kept exact: ln(e^3) is 3. (The elementary charge is q_e.)"]
    case "tau", "τ":
      return ["tau (also τ) is 2π ≈ 6.283185307, kept exact."]
    case "phi", "φ":
      return ["phi (also φ) is the golden ratio (1 + √5)/2 ≈ 1.618033989."]
    case "constants":
      return [constants]
    case "units", "dimensions", "temperature", "currency", "currencies", "angles":
      return [units]
    case "mod", "%", "of", "operators":
      return [operators]
    case "ans", "_", "memory": return [variables]
    case "functions":
      let width = Builtins.functions.map(\.usage.count).max() ?? 0
      let lines = Builtins.functions.map { "  " + $0.usage.paddedToWidth(width) + "  " + $0.summary }
      return ["Functions (angles in radians):\n" + lines.joined(separator: "\n") + "\nConstants: pi (π), e"]
    case "percent": return [percent]
    case "numbers": return [numbers]
    case "conversions", "to", "hex", "oct", "bin", "base", "fraction", "bases": return [conversions]
    case "format", "separators", "digits", "tips": return text(for: "set")
    case "keys": return [keys]
    case "variables": return [variables]
    default:
      let table = UnitTable.standard
      if let constant = table.constant(named: topic) {
        let value = ReckonCore.NumberFormatter(digits: 12).format(.quantity(constant.value))
        return [
          "\(constant.names.joined(separator: ", ")): \(constant.summary)\n  = \(value)"
            + (constant.isExact ? ", exact" : ", measured") + " (\(constant.source))"
        ]
      }
      if let term = table.term(named: topic) {
        let entry = table.units[Int(term.unit)]
        let prefix = term.prefix == 0 ? "" : " with the prefix \(table.prefixes[Int(term.prefix) - 1].names.last!)"
        return [
          "\(table.symbol(of: term)): \(entry.names.joined(separator: ", "))\(prefix)\n  "
            + UnitsCommand.definition(of: entry, in: table, evaluator: Evaluator(), factor: table.factor(of: term))
            + " (\(entry.source))"
        ]
      }
      let all = Commands.all.map { $0.help.name } + Builtins.functionNames + topics
      let suggestion = Suggestions.closest(to: topic, in: all).map { " Did you mean '\($0)'?" } ?? ""
      return ["No help on '\(topic)'.\(suggestion) Topics: \(topics.joined(separator: ", ")), or any command."]
    }
  }

  static func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
  }

  static var overview: String {
    let width = Commands.all.map { $0.help.usage.count }.max() ?? 0
    let commands = Commands.all.map { "  " + $0.help.usage.paddedToWidth(width) + "  " + $0.help.summary }
    return """
      Type an expression and press Enter: 2+3*4, 2^100, 1/3, sqrt(2), 15% of 80.
      Variables: x = 3*4, then x/2. ans (or _) is the last result; a line that
      starts with an operator continues from it: * 2, / 3, - 5 (with a space;
      -5 is minus five). A line ending in to hex, to bin, to fraction… shows
      its result another way: 255 to hex is 0xff. full shows every digit.

      Commands:
      \(commands.joined(separator: "\n"))

      More: help functions, operators, percent, numbers, conversions, units,
      constants, variables, keys
      """
  }

  static let percent = """
    Percent is a unit: 15% is fifteen hundredths.
      15%          15%
      10% + 5%     15%                 (percentages add as they are)
      200 + 15%    200·1.15 = 230      (added to anything else, raises it by p%)
      80 - 25%     80·0.75 = 60        (subtracted, lowers it)
      15% of 80    12
      200 * 15%    30                  (in a product, a percentage is its number)
      0.155 to %   15.5%
      5 % of 2 kg  0.1 kg
    The + and - rule applies when the right-hand side is a percentage (15%, 15‰,
    or a variable holding one: tax = 8.25%, then 49.99 + tax is 54.11…) and the
    left is not. "p% of x" is one factor: 10 / 50% of 80 is 10/40. After a % or
    ‰ write an operator: 7 % (2) is refused (7% * 2, or 7 mod 2). Also ppm, ppb.
    """

  static var constants: String {
    let table = UnitTable.standard
    let width = min(table.constants.map { $0.symbol.count }.max() ?? 0, 10)
    let lines = table.constants.map { c in
      let line = "  " + c.symbol.paddedToWidth(width) + "  " + c.summary + (c.isExact ? "" : " (measured)")
      return line.count <= 78 ? line : String(line.prefix(77)) + "…"
    }
    return """
      Constants: pi (also π), e (Euler's number), tau (τ = 2π), phi (φ, the golden
      ratio), and physical constants with their units: exact where the SI fixes
      them, CODATA 2018 values otherwise (shown only to the digits measured).
      \(lines.joined(separator: "\n"))
      help NAME says more about one (help c). A variable of the same name hides a
      constant until reset, and Reckon says so.
      """
  }

  static let units = """
    Numbers may have units: 5 km, 65 mph, 2 GiB, 98.6 °F, 30°, 1 cup.
      60 km / 45 min      80 km/h               units carry through arithmetic
      (3 m)^2             9 m²
      6 ft + 3 in to cm   190.5 cm              to (also in, ->) converts
      5 ft 11 in          a mixed quantity      (also 1h 20min, 30° 15' 10")
      1.8 m to ft in      5 ft 10.86614173… in  a mixed result
      5000 s to h min s   1 h 23 min 20 s
      30 mpg to L/100km   7.840486111… L/100km  the reciprocal, when it is one
      sin(30°)            0.5                   plain numbers stay radians
      atan(1) to deg      45°
    Exact where the definition is: an inch is 2.54 cm, a pound 0.45359237 kg.
    Units cancel: 1.5 L / 250 cm^3 is 6, 1 kWh / 100 W is 10 h, 12 V / 4 Ω is
    3 A; a rate stays as written (10 km / 2 h is 5 km/h); to always wins.
    Temperatures on a scale are points: 20 °C to °F is 68 °F. Two points give a
    difference: 20 °C - 15 °C is 5 Δ°C, to °F 9 Δ°F; 20 °C + 5 Δ°C is 25 °C; a
    mean is a point: (15 °C + 25 °C)/2 is 20 °C. 20 °C * 2 asks for K first.
    Adding or comparing needs one dimension: 3 m + 2 s is an error.
    Prefixes: k M G … m µ (or u) n …, and Ki Mi Gi for bytes and bits (kB ≠ KiB).
    units lists the dimensions; units length the units of one. A variable you
    define hides a unit of the same name (m = 5), and Reckon says so.
    Money: 84.50 €, $5, 120 EUR (ISO codes). Reckon has no network, so set
    the rates: set rate EUR 1.08 USD, or rates load eurofxref.csv (the ECB's
    daily file); then 120 EUR to USD. tip 84.50 € 18% split 3 rounds to the
    currency's smallest coin (none for JPY). help rates says more.
    """

  static let operators = """
    Operators, tightest first:
      !  %       factorial (5! is 120), percent (15% is 0.15)
      ^  **      power, right to left: 2^3^2 is 2^9; -2^2 is -4
      - (sign)   minus: --3 is 3
      2pi  3(4)  side by side multiplies, before * and /: 1/2pi is 1/(2π)
      of         p% of x is p/100 · x: 15% of 80 is 12
      * / mod    multiply, divide, remainder (sign of the divisor: -7 mod 3 is 2)
      + -        add, subtract (and a + p% raises a by p percent)
    Also × ÷ · − as you would write them. help percent has more on %.
    """

  static let numbers = """
    Numbers are exact: 0.1+0.2 is 0.3, 1/3*3 is 1, and 2^200 and 100! print
    every digit. Other results print at most 10 significant digits: a decimal
    longer than that (1/3, or 10000*1.07^30 with its 60 decimals) is cut, not
    rounded, and … shows that more follow; the whole-number part is never cut.
    The value stays exact: full shows every digit (full 1/6 is 1/6 = 0.1[6],
    the digits in brackets repeating forever). set digits N asks for more or
    fewer; set format fixed 2, sci or eng writes them another way (help set).
    Multiples of pi and e stay exact: (3pi)/(2pi) is 1.5, sin(pi) is 0,
    cos(pi/3) is 0.5. Other irrational results (sqrt(2), ln 2, sin 1) are
    approximations, marked ≈, with as many digits as set digits asks (up to
    10,000), every digit certain and the last correctly rounded.
    Write numbers as 42, 3.14, .5, 1e3, 1_000_000, or in another base: 0xff
    (hexadecimal), 0o17 (octal), 0b1010 (binary), 0xffff_ffff, 0x1.8 (1.5).
    help conversions shows results in other bases; help operators the rest.
    Results over 1,000,000 digits are approximated (9^9^9 ≈ 4.28…e369693099).
    """

  static let conversions = """
    End a line with to and a form to see its result that way; ans stays the
    number, and to alone (to hex) converts ans.
      255 to hex         0xff             (0xff typed in is 255 again)
      255 to oct         0o377
      255 to bin         0b11111111
      255 to base 3      100110 (base 3)  any base from 2 to 36
      -255 to hex        -0xff
      0.5 to bin         0b0.1            in full when it ends in that base
      0.1 to bin         0b0.0001100110011…
                                          else cut at the digits setting, and …
      sqrt(2) to hex     ≈ 0x1.6a09e667f  approximations: correctly rounded
      0.75 to fraction   3/4              exact values only: pi to fraction
                                          is an error; round(pi, 4) to
                                          fraction is 3927/1250
      0.125 to percent   12.5%
    With set separators on, digits in other bases are grouped in fours with _,
    as they may be typed: 0xffff_ffff.
    """

  static let keys = """
    Editing keys (emacs style):
      Up / Down     previous / next line from history
      Ctrl-R        search history backwards
      Tab           complete a command, function, constant or variable name
      Ctrl-A / E    start / end of line
      Ctrl-K / U    delete to the end / the whole line
      Ctrl-C        abandon the line being typed (keeps everything else)
      Ctrl-D        leave, on an empty line
    """

  static let variables = """
    Variables: name = expression, for example price = 42.50, then price * 3.
    Names start with a letter or _ and may hold letters, digits and _.
    ans (or _) is always the last result. vars lists them; reset forgets them.
    Memory, as on a pocket calculator: m+ adds ans (or a value), m- subtracts,
    mr recalls, mc clears.
    """
}

extension String {
  func paddedToWidth(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
