import ReckonCore

/// One piece of what the session says back, tagged by meaning. Only the executable decides
/// how each looks (colour, layout).
public enum Output: Sendable, Hashable {
  /// A result: a number or a money line, printed alone on its line.
  case result(String)
  /// Information: help, confirmations, lists.
  case note(String)
  /// A table: the first row is the header; columns are aligned by the renderer.
  case table([[String]])
  /// An error at a place in `source` (the line as typed).
  case error(Diagnostic, source: String)
  /// A warning that does not stop anything.
  case warning(String)
  /// Clear the screen (only where there is a screen).
  case clearScreen
  /// A question to answer (a drill's `7 × 8 = ?`).
  case question(String)
  /// The answers of a multiple-choice question, shown labelled `a)`, `b)`, … in this order.
  case choices([String])
  /// Answers shown numbered `1)`, `2)`, … in this order (a personality quiz's).
  case numbered([String])
  /// A title or a result to stand out (`You are: Owl 🦉`).
  case heading(String)
  /// Letter tiles (the anagram game's `[T] [E] [N]`): the first `fixed` are letters a hint
  /// put in their places, the rest are scrambled.
  case tiles([String], fixed: Int)
  /// The verdict on an answer: ✓ or ✗ and what is worth knowing.
  case feedback(correct: Bool, String)
  /// A table of cells at levels, with a legend (`stats`: how well each fact is known).
  case grid(LevelGrid)
  /// A small bar chart, one bar a line.
  case chart([ChartBar])
}

/// A table of cells, each at one of a few levels, with a legend of the levels under it: how
/// well each fact of a times table is known, the cell in row 7, column 8 being 7 × 8. The
/// renderer styles the levels from the lowest (dim) to the highest (the colour of known),
/// and knows nothing of what they mean.
public struct LevelGrid: Sendable, Hashable {
  /// One level: the symbol a cell shows where there is no colour, and its name in the legend.
  public struct Level: Sendable, Hashable {
    public var symbol: String
    public var name: String

    public init(symbol: String, name: String) {
      self.symbol = symbol
      self.name = name
    }
  }

  /// What the corner shows: the operation (`×`).
  public var corner: String
  public var rows: [Int]
  public var columns: [Int]
  /// `cells[r][c]` is the cell of `rows[r]` and `columns[c]`.
  public var cells: [[GridCell]]
  /// The levels, lowest first: a cell's `level` is an index here.
  public var levels: [Level]

  public init(corner: String, rows: [Int], columns: [Int], cells: [[GridCell]], levels: [Level]) {
    self.corner = corner
    self.rows = rows
    self.columns = columns
    self.cells = cells
    self.levels = levels
  }
}

/// One cell of a `LevelGrid`: its level, and its text (shown where colour can carry the
/// level; elsewhere the level's symbol is shown).
public struct GridCell: Sendable, Hashable {
  public var level: Int
  public var text: String

  public init(level: Int, text: String) {
    self.level = level
    self.text = text
  }
}

/// One bar of a chart: a label, a length, and text after the bar.
public struct ChartBar: Sendable, Hashable {
  public var label: String
  public var value: Int
  public var text: String
  /// The value of a full bar; 0: the largest value of the chart.
  public var scale: Int

  public init(label: String, value: Int, text: String, scale: Int = 0) {
    self.label = label
    self.value = value
    self.text = text
    self.scale = scale
  }
}

/// What one line of input produced.
public struct Reply: Sendable, Hashable {
  public var outputs: [Output]
  /// The user asked to leave.
  public var shouldExit: Bool

  public init(_ outputs: [Output] = [], shouldExit: Bool = false) {
    self.outputs = outputs
    self.shouldExit = shouldExit
  }

  /// Whether any output is an error.
  public var failed: Bool {
    outputs.contains { if case .error = $0 { true } else { false } }
  }

  public static func error(_ d: Diagnostic, _ source: String) -> Reply { Reply([.error(d, source: source)]) }
}
