import ReckonData

/// The personality quizzes built in (Sources/ReckonData/personality/*.json), read by the
/// same checker as a user's file. A test makes sure each one passes it.
enum BuiltInQuizzes {
  static let all: [PersonalityQuiz] = (0..<reckon_data_quiz_count()).compactMap { index in
    let file = reckon_data_quiz(index)
    let bytes = Array(UnsafeBufferPointer(start: file.bytes, count: Int(file.size)))
    return try? PersonalityFile.read(bytes).get()
  }

  /// The problems of each built-in quiz that does not pass the checker (for the test).
  static var problems: [[PersonalityFile.Problem]] {
    (0..<reckon_data_quiz_count()).compactMap { index in
      let file = reckon_data_quiz(index)
      guard
        case .failure(let problems) = PersonalityFile.read(
          Array(UnsafeBufferPointer(start: file.bytes, count: Int(file.size))))
      else { return nil }
      return problems.all
    }
  }
}
