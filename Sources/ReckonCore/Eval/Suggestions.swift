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
      let d = distance(name, candidate)
      let prefix = zip(name, candidate).prefix { $0 == $1 }.count
      guard d <= limit else { continue }
      if best == nil || d < best!.distance || (d == best!.distance && prefix > best!.prefix) {
        best = (candidate, d, prefix)
      }
    }
    return best?.candidate
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
