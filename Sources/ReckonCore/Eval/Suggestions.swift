/// "Did you mean …?" for misspelled names.
public enum Suggestions {
  /// The candidate nearest to `name` by edit distance, if it is close enough to be a typo.
  /// `maxDistance` caps the edits allowed (a long list, such as every unit's name, is asked
  /// for near misses only: one edit).
  public static func closest(to name: String, in candidates: [String], maxDistance: Int = 2) -> String? {
    // A difference of case only is always worth pointing out (SQRT, PI).
    let length = name.count
    let folded = name.lowercased()
    if let same = candidates.first(where: { $0 != name && $0.count == length && $0.lowercased() == folded }) {
      return same
    }
    // One- and two-letter names are too short to guess at.
    guard length >= 3 else { return nil }
    let limit = min(length <= 4 ? 1 : 2, maxDistance)
    // The nearest; between equals, the one that shares the longest start with the name
    // (pii: pi, not phi), then the first in order.
    var best: (candidate: String, distance: Int, prefix: Int)?
    // The distance is at least the difference in length: a candidate further off than the
    // limit that way is not measured (a pasted 65,000-letter name took 1.6 s, every
    // candidate measured against all of it).
    for candidate in candidates.sorted() where candidate != name && abs(candidate.count - length) <= limit {
      guard let d = distance(name, candidate, atMost: limit) else { continue }
      let prefix = zip(name, candidate).prefix { $0 == $1 }.count
      if best == nil || d < best!.distance || (d == best!.distance && prefix > best!.prefix) {
        best = (candidate, d, prefix)
      }
    }
    return best?.candidate
  }

  /// `distance(a, b)` when it is at most `limit`, else nil, in time linear in the texts'
  /// length: the lengths' difference is checked first, only the diagonal band of the table
  /// within `limit` of it is worked out (2·limit + 1 cells a row), and the work stops at the
  /// first row whose every cell is over the limit. `stop` is asked every 1,024 rows (Ctrl-C):
  /// nil then too. A typed answer of 60,000 characters graded against a long back took 39 s
  /// with the whole table.
  public static func distance(_ a: String, _ b: String, atMost limit: Int, stop: Interruption = .never) -> Int? {
    var cells = 0
    return distance(Array(a), Array(b), atMost: limit, cells: &cells, stop: stop)
  }

  /// The same over characters, counting the cells it works out (the tests bound it).
  static func distance(
    _ a: [Character], _ b: [Character], atMost limit: Int, cells: inout Int, stop: Interruption = .never
  ) -> Int? {
    guard limit >= 0, abs(a.count - b.count) <= limit else { return nil }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    // Rows of the whole table, of which only columns i - limit … i + limit are worked out;
    // a cell outside the band counts as over the limit. Each row also writes the cell just
    // left and just right of its band, which are all the next row reads outside it.
    let over = limit + 1
    var beforePrevious = [Int](repeating: over, count: b.count + 1)
    var previous = beforePrevious
    var current = beforePrevious
    for j in 0...min(b.count, limit) { previous[j] = j }
    for i in 1...a.count {
      if i % 1024 == 0 && stop.isRequested { return nil }
      let low = max(1, i - limit)
      let high = min(b.count, i + limit)
      current[low - 1] = low == 1 && i <= limit ? i : over
      var least = current[low - 1]
      for j in low...high {
        var d = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d = Swift.min(d, beforePrevious[j - 2] + 1)
        }
        current[j] = Swift.min(d, over)
        least = Swift.min(least, current[j])
      }
      cells += high - low + 1
      if high < b.count { current[high + 1] = over }
      // A cell of a later row comes from this row or, by a swap, from the row before, whose
      // cell is then at most one less than one of this row's: none can come back under.
      if least > limit { return nil }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }

  /// Edit distance counting two neighbouring letters swapped as one edit, the commonest typo
  /// (`hlep`, `tpi`): Levenshtein's insertions, deletions and substitutions plus adjacent
  /// transpositions (the optimal string alignment distance).
  public static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious: [Int] = []
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = Swift.min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = Swift.min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      beforePrevious = previous
      previous = current
    }
    return previous[b.count]
  }
}
