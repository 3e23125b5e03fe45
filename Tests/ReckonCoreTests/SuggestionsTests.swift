import Testing

@testable import ReckonCore

/// The edit distance with a cut-off: the same answer as the whole table whenever it is within
/// the limit, nil past it, and work bounded by the band (never the product of the lengths).
@Suite struct SuggestionsTests {
  /// How many times it was asked (the interruption's check is Sendable).
  final class Counter: @unchecked Sendable {
    var count = 0
    func next() -> Int {
      count += 1
      return count
    }
  }

  @Test func theBoundedDistanceIsTheDistanceWithinItsLimit() {
    var random = PropertyTests.Generator(state: 38)  // (SplitMix64: a failure reproduces)
    let letters: [Character] = ["a", "b", "c", "é"]
    for _ in 0..<20_000 {
      let a = String((0..<Int.random(in: 0...9, using: &random)).map { _ in letters.randomElement(using: &random)! })
      // b is a few edits of a (swaps included), or anything.
      var b = Array(a)
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        let at = b.isEmpty ? 0 : Int.random(in: 0..<b.count, using: &random)
        switch Int.random(in: 0...3, using: &random) {
        case 0: b.insert(letters.randomElement(using: &random)!, at: at)
        case 1 where !b.isEmpty: b.remove(at: at)
        case 2 where !b.isEmpty: b[at] = letters.randomElement(using: &random)!
        case 3 where at + 1 < b.count: b.swapAt(at, at + 1)
        default: break
        }
      }
      let whole = Suggestions.distance(a, String(b))
      for limit in 0...4 {
        let bounded = Suggestions.distance(a, String(b), atMost: limit)
        #expect(
          bounded == (whole <= limit ? whole : nil),
          "\(a) \(String(b)) \(limit): \(whole) \(String(describing: bounded))")
      }
    }
  }

  /// Two answers of 60,000 characters (the attack that took 39 s to grade): at most 2·2 + 1
  /// cells a row, and one row when they differ from the start.
  @Test func longTextsCostTheirLengthNotItsSquare() {
    let long = Array(String(repeating: "abcdefghij", count: 6_000))
    var typo = long
    typo.swapAt(30_000, 30_001)
    typo.remove(at: 50_000)
    var cells = 0
    #expect(Suggestions.distance(long, typo, atMost: 2, cells: &cells) == 2)
    #expect(cells <= long.count * 5)
    cells = 0
    #expect(Suggestions.distance(long, Array(String(repeating: "z", count: 60_000)), atMost: 2, cells: &cells) == nil)
    #expect(cells <= 5 * 3)
    cells = 0
    #expect(Suggestions.distance(long, Array(long.prefix(40_000)), atMost: 2, cells: &cells) == nil)
    #expect(cells == 0)
    // Ctrl-C: asked every 1,024 rows, and nothing comes back.
    let asked = Counter()
    let stop = Interruption { asked.next() == 3 }
    #expect(Suggestions.distance(String(long), String(typo), atMost: 2, stop: stop) == nil)
    #expect(asked.count == 3)
  }
}
