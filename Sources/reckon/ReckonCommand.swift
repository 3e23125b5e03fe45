import ArgumentParser
import Foundation
import LineEditor
import ReckonSession

@main
struct ReckonCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reckon",
    abstract: "An exact calculator REPL: arithmetic, tips and bill splitting.",
    discussion: """
      With no FILE and a terminal, Reckon starts an interactive prompt (type 'help' there).
      With FILEs, or with input piped in, it evaluates line by line and prints one line per
      result. Errors go to stderr as 'reckon: FILE:LINE:COLUMN: error: MESSAGE'; the exit
      status is 1 if any line failed, 0 otherwise.

      Examples:
        reckon                          start the prompt
        reckon -e '0.1+0.2'             prints 0.3
        reckon -e '2^100' -e '100!'     each result on its own line
        reckon -e 'tip 84.50 18% split 3'
        echo '1/3*3' | reckon           prints 1
        reckon bill.txt                 evaluate a file (blank lines and # comments are skipped)

      Files: history in $XDG_STATE_HOME/reckon/history; RECKON_HOME or --data-dir moves
      all of Reckon's files into one folder.
      """,
    version: "reckon 0.1.0"
  )

  @Option(
    name: .customShort("e"), parsing: .unconditionalSingleValue,
    help: ArgumentHelp("Evaluate EXPR and print the result (repeatable).", valueName: "EXPR"))
  var expressions: [String] = []

  @Option(help: ArgumentHelp("Keep all of Reckon's files in DIR.", valueName: "DIR"))
  var dataDir: String?

  @Argument(help: ArgumentHelp("Files to evaluate line by line.", valueName: "FILE"))
  var files: [String] = []

  mutating func run() throws {
    let (expressions, files, dataDir) = (self.expressions, self.files, self.dataDir)
    // Nesting up to the parser's limit (1,000 levels) recurses deeply: give the session a
    // large stack of its own instead of the main thread's 8 MiB.
    let ok = LargeStack.run {
      let terminal = Terminal()
      var session = Session(clock: SystemClock(), random: systemRandom())
      var runner = Runner(terminal: terminal)
      if !expressions.isEmpty { return runner.runExpressions(expressions, session: &session) }
      if !files.isEmpty { return runner.runFiles(files, session: &session) }
      if terminal.interactive {
        let paths = DataPaths(dataDir: dataDir)
        return runner.runInteractive(session: &session, historyFile: paths.history)
      }
      return runner.runStandardInput(session: &session)
    }
    if !ok { throw ExitCode(1) }
  }
}

/// Runs work on a thread with a 64 MiB stack and waits for it.
enum LargeStack {
  final class Result: @unchecked Sendable {
    var ok = false
    let done = DispatchSemaphore(value: 0)
  }

  static func run(_ body: @escaping @Sendable () -> Bool) -> Bool {
    let result = Result()
    let thread = Thread {
      result.ok = body()
      result.done.signal()
    }
    thread.stackSize = 64 << 20
    thread.start()
    result.done.wait()
    return result.ok
  }
}
