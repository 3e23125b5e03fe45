import ReckonCore
import ReckonData

/// The anagram game's words: lowercase a–z only, with no proper nouns, possessives or
/// blocked words, whichever list they came from; and, for each set of letters, the words
/// made of exactly those letters.
public struct WordList: Sendable {
  /// Every word, once, in the order of the file.
  public let words: [String]
  /// The words made of each set of letters, by the letters sorted (`eilnst` → listen, silent).
  let anagrams: [String: [String]]
  /// The words that can be scrambled (two different letters at least), by length.
  let playable: [Int: [String]]

  init(_ words: [String]) {
    self.words = words
    var anagrams: [String: [String]] = [:]
    var playable: [Int: [String]] = [:]
    for word in words {
      anagrams[WordList.letters(of: word), default: []].append(word)
      if Tiles.canScramble(word, fixed: 0) { playable[word.utf8.count, default: []].append(word) }
    }
    self.anagrams = anagrams
    self.playable = playable
  }

  /// A word's letters in alphabetical order: the same for all its anagrams.
  static func letters(of word: String) -> String {
    String(String.UnicodeScalarView(word.unicodeScalars.sorted()))
  }

  /// The words made of exactly the letters of `word` (itself among them, if it is a word).
  func anagrams(of word: String) -> [String] { anagrams[WordList.letters(of: word)] ?? [] }

  /// Whether `guess` is a word of the list made of exactly the letters of `word`.
  func accepts(_ guess: String, for word: String) -> Bool { anagrams(of: word).contains(guess) }

  /// The words with `lengths` letters that can be scrambled (at least two different letters).
  func words(lengths: ClosedRange<Int>) -> [String] {
    lengths.flatMap { playable[$0] ?? [] }
  }

  /// What reading a list kept and left out.
  public struct Report: Sendable, Hashable {
    public var kept = 0
    /// Capitalised (names of people and places), with an apostrophe (possessives, `don't`),
    /// with anything but a–z (accents, digits, hyphens), on the blocked list, or seen before.
    public var properNouns = 0
    public var possessives = 0
    public var otherCharacters = 0
    public var blocked = 0
    public var duplicates = 0

    /// `skipped 3: 1 proper noun, 2 possessives`, or nothing when nothing was skipped.
    public var skipped: String {
      let parts = [
        (properNouns, "proper noun", "proper nouns"), (possessives, "with an apostrophe", "with an apostrophe"),
        (otherCharacters, "with other characters", "with other characters"),
        (blocked, "on the blocked list", "on the blocked list"), (duplicates, "repeat", "repeats"),
      ].filter { $0.0 > 0 }.map { "\($0.0.grouped) \($0.0 == 1 ? $0.1 : $0.2)" }
      return parts.isEmpty ? "" : parts.joined(separator: ", ")
    }
  }

  /// The words of a list, one a line (`#` lines are comments), filtered. Works on bytes: a
  /// line with anything but a–z is left out whatever its encoding, so a Latin-1 list works.
  /// A byte-order mark is not part of the first word.
  public static func read(_ file: [UInt8], blocked: Set<String> = WordList.blocked) -> (WordList, Report) {
    let bytes = TextFile.withoutByteOrderMark(file)
    var report = Report()
    var words: [String] = []
    var seen: Set<String> = []
    var start = bytes.startIndex
    func line(_ end: Int) {
      var (from, to) = (start, end)
      while from < to && (bytes[from] == 0x20 || bytes[from] == 0x09) { from += 1 }
      while to > from && (bytes[to - 1] == 0x20 || bytes[to - 1] == 0x09 || bytes[to - 1] == 0x0D) { to -= 1 }
      guard from < to, bytes[from] != UInt8(ascii: "#") else { return }
      let slice = bytes[from..<to]
      if slice.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
        let word = String(decoding: slice, as: UTF8.self)
        if blocked.contains(word) {
          report.blocked += 1
        } else if seen.insert(word).inserted {
          words.append(word)
        } else {
          report.duplicates += 1
        }
      } else if slice.contains(UInt8(ascii: "'")) || String(decoding: slice, as: UTF8.self).contains("\u{2019}") {
        report.possessives += 1
      } else if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(slice.first!) {
        report.properNouns += 1
      } else {
        report.otherCharacters += 1
      }
    }
    for i in bytes.indices where bytes[i] == 0x0A {
      line(i)
      start = i + 1
    }
    line(bytes.endIndex)
    report.kept = words.count
    return (WordList(words), report)
  }

  /// The words the game never uses, from any list (Sources/ReckonData/blocked-words.txt).
  public static let blocked: Set<String> = {
    let file = reckon_data_blocked_words()
    let (list, _) = read(Array(UnsafeBufferPointer(start: file.bytes, count: Int(file.size))), blocked: [])
    return Set(list.words)
  }()

  /// The list built in (Sources/ReckonData/words.txt), read as a user's list is.
  public static let builtIn: WordList = {
    let file = reckon_data_words()
    return read(Array(UnsafeBufferPointer(start: file.bytes, count: Int(file.size)))).0
  }()
}
