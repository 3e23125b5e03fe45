import ReckonSession

/// The readers of users' files, on arbitrary bytes. Each must either read the file or say
/// what is wrong with it, with line numbers inside the file.
enum ImportTargets {
  /// The number of lines in `bytes`, for checking the line numbers of problems.
  static func lineCount(_ bytes: [UInt8]) -> Int {
    bytes.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
  }

  @Sendable static func trivia(_ bytes: [UInt8]) {
    switch TriviaImport.read(bytes) {
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
    let (list, _) = WordList.read(bytes)
    for word in list.words {
      require(
        !word.isEmpty && word.utf8.allSatisfy { $0 >= 97 && $0 <= 122 }, "a word kept with \(word.debugDescription)")
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
