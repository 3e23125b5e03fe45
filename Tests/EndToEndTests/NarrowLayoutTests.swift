import ReckonSession
import Testing

@testable import reckon

/// The stats grid and the 14-day chart on narrow terminals: every line fits the width, and
/// nothing is lost (every column of the grid, every day of the chart is still shown).
@Suite struct NarrowLayoutTests {
  /// The text without its colour.
  func plain(_ line: Painted) -> String { line.plain }

  static let grid: LevelGrid = {
    let numbers = Array(2...12)
    let cells = numbers.map { row in numbers.map { GridCell(level: row % 3 == 0 ? 3 : 0, text: String(row * $0)) } }
    let levels = [("·", "not practised"), ("○", "learning"), ("◐", "getting there"), ("●", "known")]
    return LevelGrid(
      corner: "×", rows: numbers, columns: numbers, cells: cells,
      levels: levels.map { LevelGrid.Level(symbol: $0.0, name: $0.1) })
  }()

  static let bars = (1...14).map { day in
    ChartBar(label: "Mon \(day) Nov", value: day % 4 == 0 ? 0 : day * 3, text: day % 4 == 0 ? "–" : "\(day * 3)  92%")
  }

  @Test(arguments: [20, 24, 40, 80], [false, true])
  func gridFits(width: Int, colour: Bool) {
    let lines = Renderer.layout(Self.grid, colour: colour, width: width)
    for line in lines {
      #expect(Renderer.columns(plain(line)) <= width, "\(line)")
    }
    // Every column heading appears in a header line, once.
    let headers = lines.filter { plain($0).hasPrefix("   ×") }
    let headings = headers.flatMap { plain($0).split(separator: " ").dropFirst() }
    #expect(headings == Self.grid.columns.map { Substring(String($0)) })
    #expect(lines.count(where: { plain($0).hasPrefix("  12 ") }) == headers.count)
  }

  @Test func gridIsOneBlockWithoutAWidth() {
    let lines = Renderer.layout(Self.grid, colour: false)
    #expect(lines.count(where: { $0.plain.hasPrefix("   ×") }) == 1)
  }

  @Test(arguments: [20, 30, 60, 100])
  func chartFits(width: Int) {
    let lines = Renderer.layout(Self.bars, width: width)
    for line in lines { #expect(Renderer.columns(line) <= width, "\(line)") }
    for bar in Self.bars {
      #expect(lines.contains { $0.contains(bar.label) }, "\(bar.label)")
      #expect(lines.contains { $0.hasSuffix(bar.text) }, "\(bar.text)")
    }
    // The longest bar is as long as the room allows, and the others are in proportion.
    let blocks = lines.map { $0.count(where: { $0 == "█" }) }
    #expect(blocks.max()! >= 5)
  }
}
