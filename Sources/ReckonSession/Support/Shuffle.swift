/// The order every mode deals things in: a deck of facts, a quiz's questions and answers, an
/// anagram's letters.
enum Shuffle {
  /// Fisher–Yates with our own draws, so an order made from a seed is the same with any
  /// version of Swift (the standard library's shuffle may change).
  static func items<T>(_ items: [T], _ random: inout some RandomNumberGenerator) -> [T] {
    var items = items
    var i = items.count - 1
    while i > 0 {
      let j = Int(random.next() % UInt64(i + 1))
      items.swapAt(i, j)
      i -= 1
    }
    return items
  }
}
