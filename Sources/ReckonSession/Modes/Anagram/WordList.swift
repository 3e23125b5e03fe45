import ReckonCore
import ReckonData

/// The anagram game's words: lowercase a–z only, with no proper nouns, possessives or
/// blocked words, whichever list they came from; and, for each set of letters, the words
/// made of exactly those letters.
public struct WordList: Sendable {
  /// Every word, once, in the order of the file.
  public let words: [String]
  /// For each set of letters (the letters sorted: `eilnst`), the first word made of them, by
  /// its place in `words`; `nextAnagram` chains the others (-1 ends a chain). One dictionary
  /// entry a set, not an array each: 3 million words took 211 MB and 9.6 s as arrays.
  private let firstAnagram: [String: Int32]
  private let nextAnagram: [Int32]
  /// The words that can be scrambled (two different letters at least), by length.
  let playable: [Int: [String]]

  /// The list of `words`, each once (a word seen before is left out).
  init(_ words: [String]) {
    var list = Builder()
    for word in words { _ = list.add(word) }
    self.init(list)
  }

  /// What reading a list builds, a word at a time.
  struct Builder {
    var words: [String] = []
    var firstAnagram: [String: Int32] = [:]
    var nextAnagram: [Int32] = []
    var playable: [Int: [String]] = [:]

    /// Adds a word of a–z; false when the list has it already.
    mutating func add(_ word: String) -> Bool {
      let key = WordList.letters(of: word)
      let index = Int32(words.count)
      if let first = firstAnagram[key] {
        // A repeat has the same letters as the word it repeats: it is in this chain.
        var at = first
        while at >= 0 {
          if words[Int(at)] == word { return false }
          at = nextAnagram[Int(at)]
        }
        nextAnagram.append(first)
      } else {
        nextAnagram.append(-1)
      }
      firstAnagram[key] = index
      words.append(word)
      if Tiles.canScramble(word, fixed: 0) { playable[word.utf8.count, default: []].append(word) }
      return true
    }
  }

  private init(_ list: Builder) {
    words = list.words
    firstAnagram = list.firstAnagram
    nextAnagram = list.nextAnagram
    playable = list.playable
  }

  /// A word's letters in alphabetical order: the same for all its anagrams. (A counting sort
  /// of its bytes for a–z, which every word of a list is.)
  static func letters(of word: String) -> String {
    var counts = (0..<26).map { _ in 0 }
    var other: [Unicode.Scalar] = []
    for byte in word.utf8 {
      if byte >= 0x61 && byte <= 0x7A { counts[Int(byte - 0x61)] += 1 } else { other.append(Unicode.Scalar(byte)) }
    }
    guard other.isEmpty else { return String(String.UnicodeScalarView(word.unicodeScalars.sorted())) }
    return String(unsafeUninitializedCapacity: word.utf8.count) { buffer in
      var at = 0
      for letter in 0..<26 {
        for _ in 0..<counts[letter] {
          buffer[at] = UInt8(0x61 + letter)
          at += 1
        }
      }
      return at
    }
  }

  /// The words made of exactly the letters of `word` (itself among them, if it is a word), in
  /// the order of the list.
  func anagrams(of word: String) -> [String] {
    guard var at = firstAnagram[WordList.letters(of: word)] else { return [] }
    var found: [String] = []
    while at >= 0 {
      found.append(words[Int(at)])
      at = nextAnagram[Int(at)]
    }
    return found.reversed()
  }

  /// Whether `guess` is a word of the list made of exactly the letters of `word`.
  func accepts(_ guess: String, for word: String) -> Bool { anagrams(of: word).contains(guess) }

  /// The words with `lengths` letters that can be scrambled (at least two different letters).
  func words(lengths: ClosedRange<Int>) -> [String] {
    lengths.flatMap { playable[$0] ?? [] }
  }

  /// How many puzzles the list has of `lengths` letters: sets of letters, at least two of them
  /// different, that some word is made of (words of the same letters are one puzzle).
  func puzzles(lengths: ClosedRange<Int>) -> Int {
    firstAnagram.keys.count { lengths.contains($0.utf8.count) && Tiles.canScramble($0, fixed: 0) }
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
    /// Lines longer than `maxLineBytes`, skipped unread, and the first one's number.
    public var tooLong = 0
    public var firstTooLong = 0

    /// `skipped 3: 1 proper noun, 2 possessives`, or nothing when nothing was skipped.
    public var skipped: String {
      let parts = [
        (properNouns, "proper noun", "proper nouns"), (possessives, "with an apostrophe", "with an apostrophe"),
        (otherCharacters, "with other characters", "with other characters"),
        (blocked, "on the blocked list", "on the blocked list"), (duplicates, "repeat", "repeats"),
        (
          tooLong, "line longer than \(WordList.maxLineBytes.grouped) bytes (line \(firstTooLong.grouped))",
          "lines longer than \(WordList.maxLineBytes.grouped) bytes (the first at line \(firstTooLong.grouped))"
        ),
      ].filter { $0.0 > 0 }.map { "\($0.0.grouped) \($0.0 == 1 ? $0.1 : $0.2)" }
      return parts.isEmpty ? "" : parts.joined(separator: ", ")
    }
  }

  /// The longest line a word list may have: longer ones are no word, and are skipped unread.
  public static let maxLineBytes = 1_024
  /// The largest word list read: about 5 million words (the largest lists of English words
  /// have half a million); larger ones are refused, as the reading that long would be.
  public static let maxFileBytes = 32 << 20

  /// The words of a list in memory, one a line (`#` lines are comments), filtered.
  public static func read(_ file: [UInt8], blocked: Set<String> = WordList.blocked) -> (WordList, Report) {
    var lines = TextLines(bytes: file, lineLimit: maxLineBytes)
    // Bytes in memory: nothing to fail.
    return (try? read(&lines, blocked: blocked)) ?? (WordList([]), Report())
  }

  /// The words of a list, one a line (`#` lines are comments), filtered. Works on bytes: a
  /// line with anything but a–z is left out whatever its encoding, so a Latin-1 list works.
  /// A byte-order mark is not part of the first word (`TextLines` drops it).
  public static func read(_ lines: inout TextLines, blocked: Set<String> = WordList.blocked) throws(TextLines.Failure)
    -> (WordList, Report)
  {
    var report = Report()
    var list = Builder()
    while let line = try lines.next() {
      guard case .text(let bytes) = line else {
        if report.tooLong == 0 { report.firstTooLong = lines.number }
        report.tooLong += 1
        continue
      }
      var (from, to) = (bytes.startIndex, bytes.endIndex)
      while from < to && (bytes[from] == 0x20 || bytes[from] == 0x09) { from += 1 }
      while to > from && (bytes[to - 1] == 0x20 || bytes[to - 1] == 0x09 || bytes[to - 1] == 0x0D) { to -= 1 }
      guard from < to, bytes[from] != UInt8(ascii: "#") else { continue }
      let slice = bytes[from..<to]
      if slice.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
        let word = String(decoding: slice, as: UTF8.self)
        if blocked.contains(word) {
          report.blocked += 1
        } else if !list.add(word) {
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
    report.kept = list.words.count
    return (WordList(list), report)
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
