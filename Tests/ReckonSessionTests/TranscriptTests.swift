import ReckonStore
import Testing

@testable import ReckonSession

/// Replays every transcript in Transcripts/ through a fresh session on an in-memory SQLite
/// store, with profile "ada", a seeded random source and a manual clock, and compares each
/// answer.
///
/// Directives: `> @wait 2500` moves the clock on by 2.5 s (`2d`, `3h`, `10m`, `5s` for
/// days, hours, minutes, seconds); `> @end` is the end of input (Ctrl-D); `> @restart`
/// leaves Reckon and starts it again on the same store (what follows is what start-up says);
/// `> @bank FILE` makes Transcripts/files/FILE the built-in trivia bank; `> @words FILE` the
/// anagram game's word list; `> @levels FILE` the user's anagram level table. `quiz load
/// FILE` and `personality load FILE` read from Transcripts/files too.
///
/// `RECKON_RECORD_TRANSCRIPTS=1 swift test --filter TranscriptTests` writes what the session
/// says into the files instead of comparing (for a new transcript: read every line of it
/// before committing).
@Suite struct TranscriptTests {
  @Test(arguments: Transcript.names)
  func replays(_ name: String) throws {
    let transcript = try Transcript.load(name)
    #expect(!transcript.steps.isEmpty)
    let clock = ManualClock()
    let store = SQLiteStore.inMemory()
    var bank: QuestionBank?
    var words: (list: WordList, source: String)?
    var levels: String?
    func start() -> Session {
      var session = testSession(clock: clock, store: store)
      session.state.files = Transcript.files
      session.state.builtInQuestions = bank
      session.state.content[AnagramContent.self].words = words
      session.state.anagramLevelsFile = levels
      return session
    }
    var session = start()
    var recorded: [[String]] = []
    for step in transcript.steps {
      var got: [String] = []
      if step.input.hasPrefix("@wait ") {
        clock.advance(milliseconds: try #require(TranscriptTests.duration(step.input.dropFirst(6))))
      } else if step.input.hasPrefix("@words ") {
        // The anagram game's words, for this transcript: a file of Transcripts/files.
        switch session.state.useWords(from: String(step.input.dropFirst(7))) {
        case .success(let report): got = plain(Reply(report.outputs))
        case .failure(let problem): got = ["failure: \(problem.message)"]
        }
        words = session.state.anagram.words
      } else if step.input.hasPrefix("@levels ") {
        // The user's anagram level table, for this transcript: a file of Transcripts/files.
        levels = String(step.input.dropFirst(8))
        session.state.anagramLevelsFile = levels
      } else if step.input.hasPrefix("@bank ") {
        // The built-in bank, for this transcript: a file of Transcripts/files.
        let bytes = try #require(try? Transcript.files.read(String(step.input.dropFirst(6))))
        guard case .success(let read) = TriviaImport.read(bytes) else { Issue.record("bad bank"); return }
        bank = QuestionBank(read.questions)
        session.state.builtInQuestions = bank
      } else {
        switch step.input {
        case "@end":
          got = plain(session.finish())
        case "@restart":
          session = start()
          got = plain(Reply(session.restoreSettings()))
        default:
          got = plain(session.handle(step.input))
        }
      }
      // A last expected line "[prompt> ]" checks the prompt shown next.
      if let last = step.expected.last, last.hasPrefix("["), last.hasSuffix("]") { got.append("[\(session.prompt)]") }
      recorded.append(got)
      if !Transcript.recording {
        #expect(got == step.expected, "\(name):\(step.lineNumber): > \(step.input)")
      }
    }
    if Transcript.recording { try Transcript.rewrite(name, answers: recorded) }
  }

  /// `1500` milliseconds, or a number with a unit: `2d`, `3h`, `10m`, `5s`.
  static func duration(_ text: Substring) -> Int64? {
    let units: [Character: Int64] = ["d": 86_400_000, "h": 3_600_000, "m": 60_000, "s": 1000]
    if let unit = text.last.flatMap({ units[$0] }) { return Int64(text.dropLast()).map { $0 * unit } }
    return Int64(text)
  }

  @Test func transcriptsExist() {
    #expect(Transcript.names.count >= 5)
  }
}

/// Tab completion: the candidates come from the session, for the word before the cursor.
@Suite struct CompletionTests {
  @Test(arguments: [
    ("sq", ["sqrt("]),
    ("2+sq", ["sqrt("]),
    ("(1+si", ["sin(", "sinh("]),
    // The physical constants complete by their symbols (m_e, the electron's mass).
    ("m", ["m+", "m-", "m_P", "m_d", "m_e", "m_n", "m_p", "m_u", "m_α", "m_μ", "m_τ", "max(", "mc", "min(", "mr"]),
    ("m+", ["m+"]),
    ("help t", ["tan", "tanh", "tip", "trip", "trunc"]),
    ("set d", ["digits"]),
    ("drill r", ["random", "review"]),
    ("drill 7 c", ["count"]),
    ("pri", ["price"]),
    ("2*pr", ["price"]),
    ("tip pr", ["price"]),
    ("qu", ["quit", "quiz"]),
    ("da", ["daily"]),
    ("daily m", ["medium"]),
    ("quiz ge", ["general", "geography"]), ("quiz geo", ["geography"]),
    ("quiz c", ["categories", "count"]),
    ("stats q", ["quiz"]),
    ("st", ["stats"]),
    ("2 + qu", []),
    ("fu", ["full"]),
    ("t", ["t_P", "tan(", "tanh(", "tau", "tip", "to", "trip", "trunc("]),
    ("set ", ["digits", "format", "rate", "retention", "separators", "tips"]),
    ("set f", ["format"]),
    ("set format ", ["auto", "eng", "fixed", "sci"]),
    ("set format f", ["fixed"]),
    ("set separators o", ["off", "on"]),
    ("help co", ["constants", "conversions", "cos", "cosh"]),
    ("help fu", ["full", "functions"]),
  ])
  func completes(_ text: String, _ expected: [String]) {
    var session = testSession()
    _ = session.handle("price = 12")
    #expect(session.completions(for: text) == expected, "\(text)")
  }

  /// Where a unit goes (after a number, after `to`, `in` or `->`, after a unit's `/`), units
  /// complete by their symbols and first names, beside what completes there anyway; nowhere
  /// else do they.
  @Test(arguments: [
    ("255 to h", ["hex", "h", "hour", "hp"], ["hanoi"]),
    ("255 to ", ["base", "bin", "fraction", "hex", "oct", "percent", "m", "USD", "°F"], ["tip"]),
    ("x = 2 to p", ["percent", "pint", "psi"], ["price"]),
    ("255 t", ["to", "tan(", "tau", "t", "tbsp", "turn"], []),
    ("5 c", ["cup", "cd", "c", "cos("], []),
    ("60 km/", ["h", "hour", "s"], []),
    ("5 km in m", ["mi", "mile", "mph"], []),
    ("5 km -> ", ["mi", "ft"], []),
    ("x2 c", ["cos("], ["cup"]),
    ("2 + cu", [], ["cup"]),
  ])
  func completesUnitsWhereAUnitGoes(_ text: String, _ present: [String], _ absent: [String]) {
    var session = testSession()
    _ = session.handle("price = 12")
    let found = session.completions(for: text)
    for name in present { #expect(found.contains(name), "\(text): no \(name)") }
    for name in absent { #expect(!found.contains(name), "\(text): \(name)") }
  }
}
