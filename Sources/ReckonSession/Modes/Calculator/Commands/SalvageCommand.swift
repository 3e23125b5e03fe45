import ReckonCore

/// `salvage FILE`: what can be read of a damaged or set-aside database, added to Reckon's.
/// When Reckon finds its database damaged it copies what it can read into a fresh file and
/// moves the damaged one aside (`reckon.sqlite.corrupt-…`); a salvage stopped part-way
/// (Ctrl-C) leaves rows there. This reads such a file again, as the salvage reads one, and
/// adds every row the database in use lacks.
struct SalvageCommand: Command {
  static let help = CommandHelp(
    name: "salvage", usage: "salvage FILE", summary: "add what a damaged database still holds",
    details: """
      salvage FILE   read FILE as Reckon reads a damaged database (every row
                     that can be read, from its pages and through SQLite) and
                     add to the database in use every row it lacks, for every
                     profile: answers, boxes, challenges, game results, bills,
                     flashcards and settings. What is here already stays as it
                     is; FILE is not changed.
      When Reckon finds its database damaged it copies what it can read into a
      fresh file and moves the damaged one aside, as reckon.sqlite.corrupt-DATE
      beside it; if that copy was stopped (Ctrl-C), or you find an old copy of
      your database, salvage brings back what it holds. Ctrl-C stops the
      reading; what was read is added. Also: reckon --salvage FILE.
      """)

  static func completions(after words: [Substring], in state: SessionState) -> [String]? { nil }

  let path: String
  let place: SourceSpan

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let start = arguments.words.first?.span.start ?? arguments.line.unicodeScalars.count
    path = arguments.path(after: start)
    place = arguments.rest(from: start)
    guard !path.isEmpty else {
      throw Diagnostic(
        "salvage needs the file to read", at: place,
        hint: "for example: salvage ~/.local/share/reckon/reckon.sqlite.corrupt-20261207-101500")
    }
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    guard let store = state.store else {
      throw Diagnostic("nothing is being saved in this session, so there is nowhere to add what FILE holds", at: place)
    }
    let interruption = state.interruption
    let summary: SalvageSummary
    do {
      summary = try store.salvage(file: path, interrupted: { interruption.isRequested })
    } catch {
      throw Diagnostic("nothing added from \(path): \(error.message)", at: place)
    }
    var outputs: [Output] = [.note("Read from \(path): \(summary.found).")]
    if let why = summary.stoppedEarly {
      outputs.append(.warning("the reading stopped before the end of the file (\(why)): what was read is added"))
    }
    if summary.added.isEmpty {
      outputs.append(.note("Nothing in it was missing here: nothing added."))
    } else {
      let parts = summary.added.map { "\($0.count.grouped) \($0.count == 1 ? $0.one : $0.many)" }
      outputs.append(.note("Added what was missing here: \(parts.joined(separator: ", "))."))
    }
    return .stay(Reply(outputs))
  }
}
