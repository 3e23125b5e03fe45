/// Reading a user's file for a mode (`quiz load`, `personality load`, `--words`): the bytes,
/// or why not, and what loading it gave.
extension SessionState {
  /// Why nothing could be loaded from a file, and (when its rows were all skipped) each row
  /// skipped with its line and why, then what that came to.
  public struct LoadProblem: Error, Sendable {
    public var message: String
    public var details: [String] = []
    /// There is no file at the path (an optional file may simply be left out).
    public var isMissing = false
  }

  /// What loading a file gave: everything it left out, and one line that sums it up.
  public struct LoadReport: Sendable, Equatable {
    /// Each row left out, with its line and why (`line 5: empty question`), every one.
    public var skipped: [String]
    /// What was loaded and what was left out, in one line, without the file's name (a script
    /// says it before): `loaded 4 questions in 1 category (CSV), skipped 6 rows; the quiz now
    /// has 16`.
    public var summary: String
    /// The same, naming the file, as the session shows it last.
    public var note: String

    /// As the session shows it: the rows skipped under a heading, then the summary.
    public var outputs: [Output] {
      let rows: [Output] =
        skipped.isEmpty
        ? [] : [.note("Skipped \(Wording.count(skipped.count, "row")):")] + skipped.map { .note("  " + $0) }
      return rows + [.note(note)]
    }
  }

  /// The bytes of a whole user's file of at most `limit` bytes, through the session's
  /// `FileSource`, or why they cannot be read.
  func readFile(_ path: String, limit: Int = FileLimits.any, kind: String = "a file") -> Result<
    [UInt8], LoadProblem
  > {
    var lines: TextLines
    switch openLines(path, lineLimit: .max, budget: limit) {
    case .success(let opened): lines = opened
    case .failure(let problem): return .failure(problem)
    }
    do {
      return .success(try lines.rest())
    } catch {
      return .failure(LoadProblem(message: error.message(kind)))
    }
  }

  /// A user's file, open to be read a line at a time (`TextLines`), or why it cannot be read.
  func openLines(_ path: String, lineLimit: Int, budget: Int = FileLimits.any) -> Result<TextLines, LoadProblem> {
    guard let files else { return .failure(LoadProblem(message: "this session cannot read files")) }
    do {
      return .success(TextLines(try files.open(path), lineLimit: lineLimit, budget: budget))
    } catch {
      return .failure(LoadProblem(message: "cannot read it: \(error.message)", isMissing: error.isMissing))
    }
  }
}
