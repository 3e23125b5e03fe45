import ReckonCore
import ReckonSession

/// Turns the session's tagged outputs into text: colour only on a terminal that allows it.
/// Lines are `Painted`: their styles are not text, and `OutputStream` shows every piece of
/// text with its control characters made visible (`VisibleText`).
struct Renderer {
  var colour: Bool
  var errorColour: Bool
  /// Interactive: errors show the caret under the line just typed, after the prompt.
  var interactive: Bool
  /// The terminal's width, to wrap long notes (help) at; nil: no wrapping.
  var width: Int? = nil
  /// Whether the screen can be cleared with escape codes (not TERM=dumb).
  var takesEscapes = true

  typealias Style = Painted.Style

  func paint(_ text: String, _ style: Style, enabled: Bool) -> Painted {
    Renderer.paint(text, style, enabled: enabled)
  }

  static func paint(_ text: String, _ style: Style, enabled: Bool = true) -> Painted {
    Painted(text, enabled ? style : nil)
  }

  /// Where a line came from, for non-interactive errors: `<stdin>:3`, or a name (`<end>`).
  /// Text only when an error is shown: a script of 100,000 lines builds none for the others
  /// (a plain value, not a closure, so that the renderer is compiled once, not once for each
  /// kind of closure: 11 KB).
  struct Place {
    var source = ""
    var line: Int? = nil
    var text: String { line.map { "\(source):\($0)" } ?? source }
  }

  /// Writes one reply. `location` names the input for non-interactive errors.
  func render(
    _ reply: Reply, prompt: String, location: Place = Place(), out: inout OutputStream, err: inout OutputStream
  ) {
    for output in reply.outputs {
      switch output {
      case .result(let text):
        out.line(text)
      case .question(let text):
        for line in interactive && width != nil ? Renderer.wrap(text, width: width!) : [text] {
          out.line(paint(line, .bold, enabled: colour))
        }
      case .choices(let answers):
        for (letter, answer) in zip("abcdef", answers) {
          out.line("  " + paint("\(letter))", .bold, enabled: colour) + " " + answer)
        }
      case .numbered(let answers):
        let width = String(answers.count).count
        for (i, answer) in answers.enumerated() {
          let number = String(repeating: " ", count: width - String(i + 1).count) + "\(i + 1))"
          out.line("  " + paint(number, .bold, enabled: colour) + " " + answer)
        }
      case .heading(let text):
        out.line(paint(text, .bold, enabled: colour))
      case .tiles(let letters, let fixed):
        out.line("  " + Renderer.tiles(letters, fixed: fixed, colour: colour))
      case .feedback(let correct, let text):
        for line in interactive && width != nil ? Renderer.wrap(text, width: width!) : [text] {
          out.line(paint(line, correct ? .right : .error, enabled: colour))
        }
      case .note(let text):
        if interactive, let width {
          for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            for piece in Renderer.wrap(String(line), width: width) { out.line(piece) }
          }
        } else {
          out.line(text)
        }
      case .table(let rows):
        // Too wide for the terminal: one block a row, "heading: cell" a line, rather than
        // rows that wrap in the middle of their cells.
        let lines =
          if let width, !rows.allSatisfy({ Renderer.columns(Renderer.tableLine($0)) <= width }) {
            Renderer.stacked(rows, width: width).map { Painted($0) }
          } else {
            Renderer.layout(rows, colour: colour)
          }
        for line in lines { out.line(line) }
      case .warning(let text):
        out.flush()  // in its place among the other lines, when both go to one terminal
        if interactive {
          for line in fitted("warning: " + text) { err.line(paint(line, .warning, enabled: errorColour)) }
        } else {
          err.line("reckon: warning: " + text)
        }
        err.flush()
      case .grid(let grid):
        for line in Renderer.layout(grid, colour: colour, width: width) { out.line(line) }
      case .chart(let bars):
        for line in Renderer.layout(bars, width: width) { out.line(line) }
      case .clearScreen:
        // The scrollback too (3J): a paused question must not be one scroll away. A terminal
        // without escape codes gets blank lines instead, enough to scroll a screen away.
        if takesEscapes && (colour || interactive) {
          out.write(.clearScreen)
        } else if interactive {
          out.write(String(repeating: "\n", count: 60))
        }
      case .error(let d, let source):
        if interactive {
          out.flush()
          if !source.isEmpty {
            // The caret goes under the span's first character as drawn: wide characters
            // (CJK, emoji) take two columns before it.
            let before = String(String.UnicodeScalarView(source.unicodeScalars.prefix(d.span.start)))
            let shift = Renderer.columns(before) - before.unicodeScalars.count
            err.line(paint(d.caretLine(indent: prompt.unicodeScalars.count + shift), .error, enabled: errorColour))
          }
          // Cut at spaces to the terminal's width: the terminal would cut words in two.
          let message = fitted("error: " + d.message)
          err.line(paint("error: ", .error, enabled: errorColour) + String(message[0].dropFirst("error: ".count)))
          for line in message.dropFirst() { err.line(line) }
          if let hint = d.hint {
            for line in fitted("hint: " + hint) { err.line(paint(line, .dim, enabled: errorColour)) }
          }
          for detail in d.details {
            for line in fitted("  " + detail) { err.line(line) }
          }
          err.flush()
        } else {
          let place = location.text
          err.line("reckon: \(place):\(d.column): error: \(d.message)")
          for detail in d.details { err.line("reckon: \(place): \(detail)") }
        }
      }
    }
  }

  /// `[T] [E] [N]`; letters a hint has placed show as ` L ` (in green on a terminal).
  static func tiles(_ letters: [String], fixed: Int, colour: Bool) -> Painted {
    letters.enumerated().map { i, letter in
      i < fixed ? paint(" \(letter) ", .known, enabled: colour) : paint("[\(letter)]", .bold, enabled: colour)
    }.joined(separator: " ")
  }

  /// A grid of levels and its legend: on a terminal each cell is its text in its level's
  /// style (weight and underline as well as colour, for those who cannot tell red from
  /// green), from dim for the lowest to the colour of known for the highest; without
  /// colour, the level's symbol.
  static func layout(_ grid: LevelGrid, colour: Bool, width: Int? = nil) -> [Painted] {
    let cellWidth =
      max(
        grid.columns.map { String($0).count }.max() ?? 1,
        colour ? grid.cells.joined().map(\.text.count).max() ?? 1 : 1) + 1
    let labelWidth = max(grid.rows.map { String($0).count }.max() ?? 1, grid.corner.count) + 2
    func pad(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    func styled(_ text: String, _ level: Int) -> Painted {
      let style: Style =
        switch level {
        case grid.levels.count - 1: .known
        case 0: .dim
        case 1: .learning
        default: .warning
        }
      return paint(text, style)
    }
    func symbol(_ level: Int) -> String { grid.levels.indices.contains(level) ? grid.levels[level].symbol : "?" }
    // On a terminal too narrow for every column, the grid comes in blocks of the columns
    // that fit, one under the other (as cal does with months), rather than wrapped rows.
    let perBlock = width.map { max(1, ($0 - labelWidth - 1) / cellWidth) } ?? grid.columns.count
    var lines: [Painted] = []
    for first in stride(from: 0, to: grid.columns.count, by: max(1, perBlock)) {
      let block = first..<min(first + perBlock, grid.columns.count)
      if first > 0 { lines.append("") }
      let header = pad(grid.corner, labelWidth) + " " + grid.columns[block].map { pad(String($0), cellWidth) }.joined()
      lines.append(paint(header, .bold, enabled: colour))
      for (row, cells) in zip(grid.rows, grid.cells) {
        let body = cells[block].map { cell in
          colour
            ? String(repeating: " ", count: max(0, cellWidth - cell.text.count)) + styled(cell.text, cell.level)
            : Painted(pad(symbol(cell.level), cellWidth))
        }
        lines.append(pad(String(row), labelWidth) + " " + body.joined())
      }
    }
    // The legend, a line as long as the terminal allows.
    let legend = grid.levels.indices.reversed().map { i in
      (i, colour ? grid.levels[i].name : "\(grid.levels[i].symbol) \(grid.levels[i].name)")
    }
    var line = Painted()
    var shown = 0
    for (level, text) in legend {
      let entry = colour ? styled(text, level) : Painted(text)
      if let width, shown > 0, shown + 3 + text.count > width {
        lines.append(line)
        (line, shown) = (Painted(), 0)
      }
      line += (shown == 0 ? "  " : "   ") + entry
      shown += (shown == 0 ? 2 : 3) + text.count
    }
    lines.append(line)
    return lines
  }

  /// A bar chart: label, a bar as long as its value allows (at most 30 blocks), then the text.
  /// When the terminal leaves fewer than 5 columns for the bars, each bar and its text go on
  /// a line of their own under the label.
  static func layout(_ bars: [ChartBar], width: Int? = nil) -> [String] {
    let most = max(bars.map(\.value).max() ?? 0, bars.map(\.scale).max() ?? 0)
    let labelWidth = bars.map(\.label.count).max() ?? 0
    let textWidth = bars.map { columns($0.text) }.max() ?? 0
    let room = width.map { $0 - 2 - labelWidth - 2 - 2 - textWidth } ?? 30
    let narrow = room < 5
    let longest = max(1, min(30, narrow ? (width ?? 34) - 4 - 2 - textWidth : room))
    let lengths = bars.map { most == 0 || $0.value == 0 ? 0 : max(1, $0.value * longest / most) }
    let barWidth = lengths.max() ?? 0
    func trimmed(_ line: String) -> String { String(line.reversed().drop { $0 == " " }.reversed()) }
    return zip(bars, lengths).flatMap { bar, length in
      let label = "  " + bar.label + String(repeating: " ", count: labelWidth - bar.label.count) + "  "
      if narrow {
        // An empty day on one line when it fits; otherwise the label, then bar and text.
        if length == 0, let width, columns(label + bar.text) <= width { return [trimmed(label + bar.text)] }
        return [trimmed(label), "    " + String(repeating: "█", count: length) + (length > 0 ? "  " : "") + bar.text]
      }
      return [
        trimmed(
          label + String(repeating: "█", count: length) + String(repeating: " ", count: barWidth - length) + "  "
            + bar.text)
      ]
    }
  }

  /// Text (each of its lines) cut at spaces to the terminal's width, when it is known.
  func fitted(_ text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let width else { return lines }
    return lines.flatMap { Renderer.wrap($0, width: width) }
  }

  /// A line cut at spaces to fit `width`. Continuation lines hang under the second column
  /// of a two-column line ("  tip 50   a table: …"), or under the line's own indentation.
  static func wrap(_ line: String, width: Int) -> [String] {
    let characters = Array(line)
    guard characters.count > width, width >= 20 else { return [line] }
    let indent = characters.prefix { $0 == " " }.count
    var hang = indent
    // The second column starts after the first run of two or more spaces past the indent.
    // (Plain loops: Foundation's range(of:) would pull ICU into the binary.)
    var i = indent
    while i + 1 < characters.count && !(characters[i] == " " && characters[i + 1] == " ") { i += 1 }
    if i + 1 < characters.count {
      var text = i
      while text < characters.count && characters[text] == " " { text += 1 }
      if text < width / 2 { hang = text }
    }
    var lines: [String] = []
    var rest = characters[...]
    var first = true
    while !rest.isEmpty {
      let lead = first ? 0 : hang
      let room = width - lead
      if rest.count <= room {
        lines.append(String(repeating: " ", count: lead) + String(rest))
        break
      }
      let window = rest.prefix(room + 1)
      let cut =
        window.lastIndex(of: " ").flatMap { $0 > rest.startIndex + (first ? indent : 0) ? $0 : nil }
        ?? rest.startIndex + room
      lines.append(String(repeating: " ", count: lead) + String(rest[..<cut]))
      rest = rest[cut...].drop { $0 == " " }
      first = false
    }
    return lines
  }

  /// A single number (possibly ≈, negative, a percentage or with …): aligned right.
  static func isNumeric(_ cell: String) -> Bool {
    let body = cell.hasPrefix("≈ ") ? cell.dropFirst(2) : Substring(cell)
    return !body.isEmpty && body.allSatisfy { $0.isNumber || "-.,%…e".contains($0) }
  }

  /// Aligned columns: text left, numbers right; a rule under the header when in colour.
  /// The columns a text takes on a terminal: an emoji shown as a picture takes two.
  static func columns(_ text: String) -> Int {
    text.count + text.unicodeScalars.filter { $0.properties.isEmojiPresentation || isWide($0) }.count
  }

  /// East Asian wide and full-width characters: two columns on a terminal.
  static func isWide(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
      true
    default: false
    }
  }

  /// A table's row as `layout` would draw it, widths aside (for "does it fit?").
  static func tableLine(_ row: [String]) -> String { "  " + row.joined(separator: "   ") }

  /// A table for a narrow terminal: each row's first cell, then its other cells under it
  /// as "heading: cell", cut at spaces to the width.
  static func stacked(_ rows: [[String]], width: Int) -> [String] {
    guard let header = rows.first else { return [] }
    var lines: [String] = []
    for row in rows.dropFirst() {
      lines += wrap(row.first ?? "", width: width)
      for (heading, cell) in zip(header.dropFirst(), row.dropFirst()) where !cell.isEmpty {
        lines += wrap("  " + (heading.isEmpty ? "" : heading + ": ") + cell, width: width)
      }
    }
    return lines
  }

  static func layout(_ rows: [[String]], colour: Bool) -> [Painted] {
    guard let header = rows.first else { return [] }
    let columns = header.count
    var widths = Array(repeating: 0, count: columns)
    for row in rows {
      for (i, cell) in row.enumerated() where i < columns { widths[i] = max(widths[i], Renderer.columns(cell)) }
    }
    let numeric = (0..<columns).map { i in
      rows.dropFirst().allSatisfy { row in i < row.count && isNumeric(row[i]) }
    }
    return rows.enumerated().map { index, row in
      let cells = (0..<columns).map { i -> String in
        let cell = i < row.count ? row[i] : ""
        let pad = String(repeating: " ", count: widths[i] - Renderer.columns(cell))
        return numeric[i] ? pad + cell : cell + pad
      }
      let line = "  " + cells.joined(separator: "   ")
      let trimmed = String(line.reversed().drop { $0 == " " }.reversed())
      return Painted(trimmed, index == 0 && colour ? .bold : nil)
    }
  }
}
