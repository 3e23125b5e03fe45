import ReckonData

/// The content built into the binary, unpacked on first use (`ReckonData`): why it could not
/// be, if it could not (libzstd missing, as in a container without it). The session says it
/// once, after the line that first needed it, so that an empty unit table or trivia bank is
/// explained rather than met as "unknown unit".
enum BuiltInContent {
  static var problem: String? {
    reckon_data_problem().map {
      String(cString: $0) + ": the unit table, trivia questions, quizzes and words built into Reckon are missing "
        + "(Reckon needs libzstd.so.1, Debian's libzstd1)"
    }
  }
}
