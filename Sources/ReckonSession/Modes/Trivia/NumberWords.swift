/// A whole number written in English words, as people type an answer: `eight`, `twenty-one`,
/// `three hundred thousand`, `one thousand and sixty-six`, `a hundred`. The words come
/// lowercase and split (hyphens and spaces are gone); `and` may join them as British English
/// writes it.
enum NumberWords {
  static let units = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
  ]
  static let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
  static let scales: [(word: String, value: Int)] = [
    ("thousand", 1_000), ("million", 1_000_000), ("billion", 1_000_000_000),
  ]

  /// The number the words name, or nil when they are not one number (or are digits already).
  static func value(_ words: [String]) -> Int? {
    guard !words.isEmpty, words.count <= 24 else { return nil }
    var total = 0
    // The part below the last scale word (`three hundred` in `two thousand three hundred`).
    var group = 0
    var groupHasWords = false
    var lastScale = Int.max
    var previous = ""
    for (index, word) in words.enumerated() {
      defer { previous = word }
      if word == "and" {
        // Only after hundred or a scale, before what is below it: `one hundred and five`,
        // `two thousand and twenty`.
        guard previous == "hundred" || scales.contains(where: { $0.word == previous }), index < words.count - 1,
          units.contains(words[index + 1]) || tens.contains(words[index + 1])
        else { return nil }
        continue
      }
      if word == "a" {
        // `a hundred`, `a thousand`: only first, before a scale.
        guard index == 0, words.count > 1 else { return nil }
        group = 1
        groupHasWords = true
        continue
      }
      if let unit = units.firstIndex(of: word) {
        // Not after another unit (`five six`), nor `zero` in a longer number.
        guard group % 10 == 0 || !groupHasWords, group % 100 == 0 || group % 100 >= 20 || !groupHasWords else {
          return nil
        }
        if unit == 0 && words.count > 1 { return nil }
        if groupHasWords && group % 100 != 0 && unit >= 10 { return nil }
        group += unit
        groupHasWords = true
      } else if let ten = tens.firstIndex(of: word) {
        guard group % 100 == 0 else { return nil }
        group += (ten + 2) * 10
        groupHasWords = true
      } else if word == "hundred" {
        guard groupHasWords, group > 0, group < 10 else { return nil }
        group *= 100
      } else if let scale = scales.first(where: { $0.word == word }) {
        guard groupHasWords, group > 0, scale.value < lastScale else { return nil }
        total += group * scale.value
        lastScale = scale.value
        group = 0
        groupHasWords = false
      } else {
        return nil
      }
    }
    guard previous != "and", previous != "a" else { return nil }
    return total + group
  }
}
