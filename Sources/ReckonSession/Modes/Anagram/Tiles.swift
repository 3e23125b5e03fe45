/// A word's letters as tiles (lowercase here; shown in capitals): the first `fixed` in their places (a hint put them there), the
/// rest scrambled so that the tiles never spell the word, nor any other word of the list
/// made of the same letters.
enum Tiles {
  /// Whether the letters after the first `fixed` can be shown out of order: they must not
  /// all be the same letter.
  static func canScramble(_ word: String, fixed: Int) -> Bool {
    // Two different letters: no set of them (a set a word took a fifth of loading 3 million).
    var letters = word.unicodeScalars.dropFirst(fixed).makeIterator()
    guard let first = letters.next() else { return false }
    while let letter = letters.next() {
      if letter != first { return true }
    }
    return false
  }

  /// The tiles for `word`, its first `fixed` letters in place. `accepted` says whether an
  /// order spells an answer: such orders are drawn again (a few dozen times at most, then the
  /// first order that is not the word itself is taken).
  static func scramble(
    _ word: String, fixed: Int, accepted: (String) -> Bool, random: inout some RandomNumberGenerator
  ) -> [String] {
    let letters = word.unicodeScalars.map { String($0) }
    let head = Array(letters.prefix(fixed))
    let tail = Array(letters.dropFirst(fixed))
    guard canScramble(word, fixed: fixed) else { return letters }
    var fallback: [String]?
    for _ in 0..<64 {
      let tiles = head + Shuffle.items(tail, &random)
      let spelt = tiles.joined()
      if spelt == word { continue }
      if !accepted(spelt) { return tiles }
      if fallback == nil { fallback = tiles }
    }
    // Only when nearly every order is a word: a different order, at least. Turning the
    // letters round by one changes them, since they are not all the same.
    return fallback ?? head + tail.dropFirst() + [tail[0]]
  }
}
