import ReckonSession

/// Bytes handed over three at a time, as a pipe may.
final class Trickle: ByteStream {
  let bytes: [UInt8]
  var offset = 0
  init(_ bytes: [UInt8]) { self.bytes = bytes }
  var knownSize: Int? { nil }
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
    let count = min(3, buffer.count, bytes.count - offset)
    for i in 0..<count { buffer[i] = bytes[offset + i] }
    offset += count
    return count
  }
}

/// The readers of users' files, on arbitrary bytes. Each must either read the file or say
/// what is wrong with it, with line numbers inside the file.
enum ImportTargets {
  /// The number of lines in `bytes`, for checking the line numbers of problems.
  static func lineCount(_ bytes: [UInt8]) -> Int {
    bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
  }

  @Sendable static func trivia(_ bytes: [UInt8]) {
    let whole = TriviaImport.read(bytes)
    // Read a few bytes at a time (as from a pipe), a file reads the same.
    var trickled = TextLines(Trickle(bytes), lineLimit: TriviaImport.maxLineBytes)
    switch (whole, TriviaImport.read(&trickled)) {
    case (.success(let a), .success(let b)):
      require(a.questions == b.questions && a.skipped == b.skipped, "read in pieces, the file reads otherwise")
    case (.failure(let a), .failure(let b)): require(a == b, "read in pieces, the file fails otherwise")
    default: require(false, "read in pieces, the file is read or refused otherwise")
    }
    switch whole {
    case .success(let read):
      let lines = lineCount(bytes)
      for skip in read.skipped {
        require(skip.line >= 1 && skip.line <= lines, "skip at line \(skip.line) of \(lines)")
        require(!skip.reason.isEmpty, "a skip without a reason")
      }
      for question in read.questions {
        require(!question.text.isEmpty, "a question without text")
        require(!question.correct.isEmpty, "a question without an answer")
        require(!question.incorrect.isEmpty, "a question with no wrong answers to choose from")
        require(!question.incorrect.contains(question.correct), "the answer is also a wrong answer")
      }
    case .failure(let failure):
      require(!failure.message.isEmpty, "a failure without a message")
    }
  }

  @Sendable static func personality(_ bytes: [UInt8]) {
    switch PersonalityFile.read(bytes) {
    case .success(let quiz):
      require(!quiz.questions.isEmpty, "a quiz with no questions")
      require(quiz.outcomes.count >= 2, "a quiz with \(quiz.outcomes.count) outcomes")
    case .failure(let problems):
      require(!problems.all.isEmpty, "a failure with no problem listed")
      let lines = lineCount(bytes)
      for problem in problems.all {
        require(problem.line >= 1 && problem.line <= lines, "problem at line \(problem.line) of \(lines)")
      }
    }
  }

  @Sendable static func words(_ bytes: [UInt8]) {
    let (list, report) = WordList.read(bytes)
    require(report.kept == list.words.count, "kept \(report.kept), listed \(list.words.count)")
    require(Set(list.words).count == list.words.count, "a word kept twice")
    for word in list.words {
      require(
        !word.isEmpty && word.utf8.allSatisfy { $0 >= 97 && $0 <= 122 }, "a word kept with \(word.debugDescription)")
      // A word is among its own anagrams, and every anagram has its letters.
      let anagrams = list.anagrams(of: word)
      require(anagrams.contains(word), "\(word) is not among its anagrams")
      require(
        anagrams.allSatisfy { WordList.letters(of: $0) == WordList.letters(of: word) }, "an anagram of \(word) is not")
    }
    for level in AnagramLevels.defaults {
      require(
        list.puzzles(lengths: level.letters)
          == Set(list.words(lengths: level.letters).map(WordList.letters(of:))).count,
        "the puzzles of \(level.name) are miscounted")
    }
  }

  @Sendable static func levels(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    switch AnagramLevels.read(text) {
    case .success(let levels):
      for level in levels {
        require(level.letters.lowerBound >= 1 && level.seconds > 0 && level.points > 0, "a level kept: \(level)")
      }
    case .failure(let problems):
      require(!problems.all.isEmpty, "a failure with no problem listed")
      let lines = lineCount(bytes)
      for problem in problems.all {
        require(problem.line >= 1 && problem.line <= lines, "problem at line \(problem.line) of \(lines)")
      }
    }
  }
}
