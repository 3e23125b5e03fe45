import ReckonCore
import ReckonSession

// A small mode that keeps data, written in the test target as a mode folder is written under
// Sources/ReckonSession/Modes/: its requests, its state machine, its words. It uses only what
// the session makes public, as any mode may (`import ReckonSession`, nothing `@testable`).
// Its SQL is TallySQL.swift, as a mode's would be a file under Sources/ReckonStore/Modes/.

/// A tally counter: each word typed counts one more of it, saved as it is typed; `show` lists
/// the counts, `undo` takes the last one back, `quit` goes back to the calculator.
struct TallyMode: Mode {
  /// The words counted in this run, the newest last, for `undo`.
  var counted: [String] = []

  func prompt(at now: Int64) -> String { "tally> " }

  mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    let word = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ").lowercased()
    switch word {
    case "quit": return .leave(Reply([.note("Counted \(counted.count) this time.")]))
    case "show":
      do {
        let counts = try state.load(TallyRequests.Counts(profile: state.profile))
        guard !counts.isEmpty else { return .stay(Reply([.note("Nothing counted yet.")])) }
        return .stay(Reply([.table([["word", "count"]] + counts.map { [$0.word, String($0.count)] })]))
      } catch {
        return .stay(Reply([.warning("the counts could not be read: \(error.message)")]))
      }
    case "undo":
      guard let last = counted.popLast() else { return .stay(Reply([.note("Nothing to undo.")])) }
      state.save(TallyRequests.Add(profile: state.profile, word: last, by: -1, at: state.clock.nowMilliseconds()))
      return .stay(Reply([.note("\(last): one fewer")]))
    case "": return .stay(Reply([.note("Type a word to count it; show, undo or quit.")]))
    default:
      counted.append(word)
      let now = state.clock.nowMilliseconds()
      // The count as saved (nil while saving fails: the write is kept, and the count shown is
      // this run's).
      let saved = state.save(TallyRequests.Add(profile: state.profile, word: word, by: 1, at: now))
      let count = saved ?? counted.filter { $0 == word }.count
      return .stay(Reply([.note("\(word): \(count)")]))
    }
  }

  mutating func finish(in state: inout SessionState) -> Reply { Reply() }

  func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] {
    isFirstWord ? ["show", "undo", "quit"] : []
  }
}

/// What the tally keeps, asked of the store.
enum TallyRequests {
  /// Counts `word` `by` more (or fewer) for the profile; answers its count now.
  struct Add: StoreWrite {
    typealias Answer = Int
    var profile: String
    var word: String
    var by: Int
    var at: Int64
  }

  /// Every word the profile has counted, the most counted first.
  struct Counts: StoreRead {
    typealias Answer = [WordCount]
    var profile: String
  }

  struct WordCount: Sendable, Hashable {
    var word: String
    var count: Int
    /// When it was last counted (milliseconds since 1970).
    var lastAt: Int64
  }
}

/// `tally`: starts counting. Registered as a feature, as any mode is: under Sources it would
/// be one line of `Features.all`; the test runs the command as the prompt would.
struct TallyCommand: Command {
  static let help = CommandHelp(
    name: "tally", usage: "tally", summary: "count words as you type them",
    details: "Each word typed counts one more of it, saved at once.\nshow lists the counts; undo; quit.",
    takesArguments: false)

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {}

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    // The store is made ready first: a folder that cannot be written is heard now.
    state.prepareStore()
    return .enter(TallyMode(), Reply([.note("Counting. Type a word; show, undo or quit.")]))
  }
}

enum TallyFeature: Feature {
  static let commands: [any Command.Type] = [TallyCommand.self]
}
