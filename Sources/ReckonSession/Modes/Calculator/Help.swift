import ReckonCore

/// The text of `help` and `help TOPIC`.
public enum Help {
  /// Topics beyond command and function names.
  public static let topics = ["functions", "operators", "percent", "numbers", "conversions", "keys", "variables"]

  /// Help for a topic, a command or a function; the overview when `topic` is nil.
  public static func text(for topic: String?) -> [String] {
    guard let topic else { return [overview] }
    if let command = Commands.named(topic) { return [command.help.text] }
    if let f = Builtins.function(named: topic) { return ["\(f.usage)\n  \(f.summary)"] }
    switch topic {
    case "pi", "π", "e", "constants":
      return [
        "Constants: pi (also π) ≈ 3.141592654 and e ≈ 2.718281828.\nResults that use them are approximations (≈)."
      ]
    case "mod", "%", "of", "operators":
      return [operators]
    case "ans", "_", "memory": return [variables]
    case "functions":
      let width = Builtins.functions.map(\.usage.count).max() ?? 0
      let lines = Builtins.functions.map { "  " + $0.usage.padding(width) + "  " + $0.summary }
      return ["Functions (angles in radians):\n" + lines.joined(separator: "\n") + "\nConstants: pi (π), e"]
    case "percent": return [percent]
    case "numbers": return [numbers]
    case "conversions", "to", "hex", "oct", "bin", "base", "fraction", "bases": return [conversions]
    case "format", "separators", "digits", "tips": return text(for: "set")
    case "keys": return [keys]
    case "variables": return [variables]
    default:
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
    let commands = Commands.all.map { "  " + $0.help.usage.padding(width) + "  " + $0.help.summary }
    return """
      Type an expression and press Enter: 2+3*4, 2^100, 1/3, sqrt(2), 15% of 80.
      Variables: x = 3*4, then x/2. ans (or _) is the last result; a line that
      starts with an operator continues from it: * 2, / 3, - 5 (with a space;
      -5 is minus five). A line ending in to hex, to bin, to fraction… shows
      its result another way: 255 to hex is 0xff. full shows every digit.

      Commands:
      \(commands.joined(separator: "\n"))

      More: help functions, operators, percent, numbers, conversions, variables, keys
      """
  }

  static let percent = """
    Percent:
      15%          is 0.15
      200 + 15%    is 200·1.15 = 230   (adding a percentage raises by it)
      80 - 25%     is 80·0.75 = 60     (subtracting one lowers by it)
      15% of 80    is 12
      200 * 15%    is 30
    The + and - rule applies when the right-hand side is itself a percentage (p%).
    "p% of x" is one factor: 10 / 50% of 80 is 10/40; 20% of 50% of 80 is 8.
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
  func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
