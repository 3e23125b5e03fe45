import ReckonCore
import ReckonData

/// The anagram game's words: lowercase a–z only, with no proper nouns, possessives or
/// blocked words, whichever list they came from; and, for each set of letters, the words
/// made of exactly those letters.
public struct WordList: Sendable {
  /// Every word, once, in the order of the file.
  public let words: [String]
  /// For each set of letters (`Key.letters`), the last word made of them, by its place in
  /// `words`; `nextAnagram` chains the others (-1 ends a chain). One dictionary entry a set
  /// and a number a word: 3 million words took 211 MB and 9.6 s with an array of words for
  /// each set, keyed by the letters' text.
  private let lastAnagram: Keyed
  private let nextAnagram: [Int32]
  /// The words that can be scrambled (two different letters at least), by length, by their
  /// place in `words`.
  let playable: [Int: [Int32]]
  /// How many of `words`, from the first, are its common ones (`AnagramLevel.commonWords`):
  /// the built-in list's first part; all of any other list.
  public internal(set) var common: Int

  /// The list of `words`, each once (a word seen before is left out).
  init(_ words: [String]) {
    var list = Builder()
    for word in words { _ = list.add(word) }
    self.init(list)
  }

  /// A word, or a set of letters, as a dictionary key: a–z of at most 12 letters as a number,
  /// five bits a letter (cheap to hash, and nothing to allocate); anything else as text.
  enum Key: Hashable, Sendable {
    case packed(UInt64)
    case text(String)

    /// The word itself.
    static func word(_ word: String) -> Key {
      var value: UInt64 = 0
      var count = 0
      for byte in word.utf8 {
        guard byte >= 0x61 && byte <= 0x7A, count < 12 else { return .text(word) }
        value = value << 5 | UInt64(byte - 0x60)
        count += 1
      }
      return .packed(value)
    }

    /// The word's letters in alphabetical order: the same for all its anagrams (a counting
    /// sort of its bytes).
    static func letters(of word: String) -> Key {
      guard case .packed(let value) = Key.word(word) else { return .text(WordList.letters(of: word)) }
      return .packed(sortedLetters(value))
    }

    /// The letters of a packed word (five bits each, at most 12) in alphabetical order,
    /// packed the same way: an insertion sort of at most 12 small numbers, with no memory of
    /// its own (a counting sort over 26 letters took a sixth of loading 3 million words).
    static func sortedLetters(_ packed: UInt64) -> UInt64 {
      var letters: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      var count = 0
      withUnsafeMutableBytes(of: &letters) { slots in
        var rest = packed
        while rest != 0 {
          let letter = UInt8(rest & 31)
          rest >>= 5
          // Insert, keeping slots[0..<count] sorted.
          var i = count
          while i > 0 && slots[i - 1] > letter {
            slots[i] = slots[i - 1]
            i -= 1
          }
          slots[i] = letter
          count += 1
        }
      }
      var value: UInt64 = 0
      withUnsafeBytes(of: &letters) { slots in
        for i in 0..<count { value = value << 5 | UInt64(slots[i]) }
      }
      return value
    }

    /// How many letters: the word's length.
    var count: Int {
      switch self {
      case .packed(let value): (64 - value.leadingZeroBitCount + 4) / 5
      case .text(let text): text.unicodeScalars.count
      }
    }

    /// Whether the letters (sorted) are not all one letter: the first is not the last.
    var canScramble: Bool {
      switch self {
      case .packed(let value): value & 31 != value >> UInt64(5 * (count - 1))
      case .text(let text): Tiles.canScramble(text, fixed: 0)
      }
    }
  }

  /// A dictionary by `Key`, as two: numbers hash on the standard library's fast path for a
  /// word (a `Key` itself would go through a whole `Hasher`).
  struct Keyed: Sendable {
    var packed: [UInt64: Int32] = [:]
    var text: [String: Int32] = [:]

    subscript(key: Key) -> Int32? {
      switch key {
      case .packed(let value): packed[value]
      case .text(let value): text[value]
      }
    }

    /// Every key.
    var keys: [Key] { packed.keys.map { .packed($0) } + text.keys.map { .text($0) } }
  }

  /// What reading a list builds, a word at a time.
  struct Builder {
    var words: [String] = []
    var lastAnagram = Keyed()
    var nextAnagram: [Int32] = []
    var playable: [Int: [Int32]] = [:]
    /// The words so far, to find a repeat with one look-up (walking the chain of a word's
    /// letters would compare it with each of its anagrams: quadratic for a list of the
    /// permutations of one word).
    var seenPacked: Set<UInt64> = []
    var seenText: Set<String> = []

    init(expectedWords: Int = 0) {
      // Room made once for the words (the sets grow as they must: made room for up front,
      // they overshot and took 30 MB more for 3 million words).
      words.reserveCapacity(expectedWords)
      nextAnagram.reserveCapacity(expectedWords)
    }

    /// Adds a word of a–z (`key`: `Key.word(word)`, if known); false when the list has it
    /// already.
    mutating func add(_ word: String, key: Key? = nil) -> Bool {
      let key = key ?? Key.word(word)
      switch key {
      case .packed(let value): guard seenPacked.insert(value).inserted else { return false }
      case .text(let text): guard seenText.insert(text).inserted else { return false }
      }
      let index = Int32(words.count)
      // One look-up of the letters: the chain's last word (-1 for a new set) becomes this one.
      func chain(_ last: inout Int32, _ next: inout [Int32]) {
        next.append(last)
        last = index
      }
      switch key {
      case .packed(let value): chain(&lastAnagram.packed[Key.sortedLetters(value), default: -1], &nextAnagram)
      case .text: chain(&lastAnagram.text[WordList.letters(of: word), default: -1], &nextAnagram)
      }
      words.append(word)
      if Tiles.canScramble(word, fixed: 0) { playable[word.utf8.count, default: []].append(index) }
      return true
    }
  }

  private init(_ list: Builder) {
    words = list.words
    lastAnagram = list.lastAnagram
    nextAnagram = list.nextAnagram
    playable = list.playable
    common = list.words.count
  }

  /// A word's letters in alphabetical order: the same for all its anagrams.
  public static func letters(of word: String) -> String {
    String(String.UnicodeScalarView(word.unicodeScalars.sorted()))
  }

  /// The words made of exactly the letters of `word` (itself among them, if it is a word), in
  /// the order of the list.
  public func anagrams(of word: String) -> [String] {
    guard var at = lastAnagram[Key.letters(of: word)] else { return [] }
    var found: [String] = []
    while at >= 0 {
      found.append(words[Int(at)])
      at = nextAnagram[Int(at)]
    }
    return found.reversed()
  }

  /// Whether `guess` is a word of the list made of exactly the letters of `word`.
  func accepts(_ guess: String, for word: String) -> Bool { anagrams(of: word).contains(guess) }

  /// The words with `lengths` letters that can be scrambled (at least two different letters),
  /// only the common ones if `commonOnly`.
  public func words(lengths: ClosedRange<Int>, commonOnly: Bool = false) -> [String] {
    lengths.flatMap { (playable[$0] ?? []).filter { !commonOnly || $0 < common }.map { words[Int($0)] } }
  }

  /// How many puzzles the list has of `lengths` letters: sets of letters, at least two of them
  /// different, that some word is made of (words of the same letters are one puzzle); only
  /// those of a common word if `commonOnly`.
  public func puzzles(lengths: ClosedRange<Int>, commonOnly: Bool = false) -> Int {
    guard commonOnly && common < words.count else {
      return lastAnagram.keys.count { lengths.contains($0.count) && $0.canScramble }
    }
    return Set(words(lengths: lengths, commonOnly: true).map { Key.letters(of: $0) }).count
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
    // Six bytes a word or more (five letters and a line break, in lists of common words):
    // room for that many, but no more than the most a list may hold could need.
    var list = Builder(expectedWords: min(lines.knownSize ?? 0, maxFileBytes) / 8)
    var report = Report()
    try add(&lines, to: &list, report: &report, blocked: blocked)
    return (WordList(list), report)
  }

  /// Reads the words of `lines` into `list`, filtered, counting in `report` what it keeps and
  /// leaves out (a list may be read from several files, each word once).
  static func add(_ lines: inout TextLines, to list: inout Builder, report: inout Report, blocked: Set<String>)
    throws(TextLines.Failure)
  {
    // The blocked words as numbers too, which hash on the fast path.
    var blockedPacked: Set<UInt64> = []
    for word in blocked { if case .packed(let value) = Key.word(word) { blockedPacked.insert(value) } }
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
      var slice = bytes[from..<to]
      // A word copied with invisible marks (U+200E, a soft hyphen) is the word without them.
      if slice.contains(where: { $0 >= 0x80 }), let text = String(validating: slice, as: UTF8.self),
        text.unicodeScalars.contains(where: PlainText.isInvisible)
      {
        slice = ArraySlice(PlainText.withoutInvisibles(text).utf8)
        if slice.isEmpty { continue }
      }
      if slice.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
        let word = String(decoding: slice, as: UTF8.self)
        let key = Key.word(word)
        let isBlocked: Bool
        switch key {
        case .packed(let value): isBlocked = blockedPacked.contains(value)
        case .text: isBlocked = blocked.contains(word)
        }
        if isBlocked {
          report.blocked += 1
        } else if !list.add(word, key: key) {
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
  }

  /// The words the game never uses, from any list (Sources/ReckonData/blocked-words.txt).
  public static let blocked: Set<String> = {
    let file = reckon_data_blocked_words()
    let (list, _) = read(Array(UnsafeBufferPointer(start: file.bytes, count: Int(file.size))), blocked: [])
    return Set(list.words)
  }()

  /// The list built in, read as a user's list is: Sources/ReckonData/words.txt, its common
  /// words, then words-more.txt (scripts/word-list makes both from SCOWL, each word once).
  public static let builtIn: WordList = {
    let (common, more) = (reckon_data_words(), reckon_data_more_words())
    func lines(_ file: reckon_data_file) -> TextLines {
      TextLines(bytes: Array(UnsafeBufferPointer(start: file.bytes, count: Int(file.size))), lineLimit: maxLineBytes)
    }
    var (commonLines, moreLines) = (lines(common), lines(more))
    var list = Builder(expectedWords: Int(common.size + more.size) / 8)
    var report = Report()
    // Bytes in memory: nothing to fail. The common words are those the first file keeps
    // (counted, not assumed from its lines: a word blocked since it was made is left out).
    _ = try? add(&commonLines, to: &list, report: &report, blocked: blocked)
    let commonCount = list.words.count
    _ = try? add(&moreLines, to: &list, report: &report, blocked: blocked)
    var words = WordList(list)
    words.common = commonCount
    return words
  }()
}
