/// End-to-end tests of the `reckon` binary in batch mode: `-e`, files and piped
/// standard input, run as a subprocess with stdout, stderr and the exit status
/// checked separately.
///
/// Every run gets a fresh temporary folder as `RECKON_HOME` (and as `HOME`, so
/// that nothing can reach the real home folder) and `TERM=xterm`, so every test
/// also checks that piped output carries no colour.
import Foundation
import SQLite
import Testing

@Suite struct BinaryTests {
  // MARK: -e

  @Test(
    "-e prints the result alone on its line",
    arguments: [
      ("1+1", "2"),
      ("0.1+0.2", "0.3"),
      ("1/3", "0.3333333333…"),
      ("1/3*3", "1"),
      ("sqrt(2)", "≈ 1.414213562"),
      ("2^200", "1606938044258990275541962092341162602522202993782792835301376"),
      ("x = 3*4", "12"),
      ("-5", "-5"),
      ("tip 50 18%", "tip 9.00  total 59.00"),
      ("split 100 3", "100.00 split 3 ways: 2 pay 33.33, 1 pays 33.34"),
    ])
  func singleExpression(expression: String, expected: String) throws {
    let run = try ReckonProcess.run(["-e", expression])
    #expect(run.stdout == expected + "\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test("-e with big integers prints every digit", arguments: [("2^200", 61), ("100!", 158), ("1000!", 2568)])
  func bigIntegers(expression: String, digits: Int) throws {
    let run = try ReckonProcess.run(["-e", expression])
    let text = run.stdout.dropLast()
    #expect(run.stdout.last == "\n")
    #expect(text.count == digits)
    #expect(text.allSatisfy { $0.isNumber })
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func repeatedExpressionsPrintInOrderAndShareState() throws {
    let run = try ReckonProcess.run(["-e", "x = 3*4", "-e", "x + 1", "-e", "* 2", "-e", "2^10", "-e", "ans - x"])
    #expect(run.lines == ["12", "13", "26", "1024", "1012"])
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test(
    "an -e error names which -e and the column, and the others still run",
    arguments: [
      (["-e", "1/0"], "", "reckon: -e:1:2: error: division by zero\n"),
      (["-e", "1", "-e", "10 / 0", "-e", "3"], "1\n3\n", "reckon: -e:2:4: error: division by zero\n"),
      (["-e", "* 2"], "", "reckon: -e:1:1: error: there is no previous result to continue from\n"),
    ])
  func expressionError(arguments: [String], stdout: String, stderr: String) throws {
    let run = try ReckonProcess.run(arguments)
    #expect(run.stdout == stdout)
    #expect(run.stderr == stderr)
    #expect(run.status == 1)
  }

  // MARK: Files

  @Test func fileWithBlankLinesCommentsAndAnErrorOnLineThree() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = try folder.write("sums.txt", "a = 6\n# the tax\na / 0\n\n   \na * 7\n# done\n")
    let run = try ReckonProcess.run([file])
    #expect(run.stdout == "6\n42\n")
    #expect(run.stderr == "reckon: \(file):3:3: error: division by zero\n")
    #expect(run.status == 1)
  }

  @Test func fileIsNamedAsGivenOnTheCommandLine() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    _ = try folder.write("bill.txt", "1+1\n2 *\n")
    let run = try ReckonProcess.run(["bill.txt"], directory: folder.path)
    #expect(run.stdout == "2\n")
    #expect(run.stderr == "reckon: bill.txt:2:4: error: expected a number, a name or '(' here, but the line ends\n")
    #expect(run.status == 1)
  }

  @Test func fileWithoutErrorsExitsZero() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = try folder.write("ok.txt", "# only good lines\n\n0.1+0.2\n2^10")  // no final newline
    let run = try ReckonProcess.run([file])
    #expect(run.stdout == "0.3\n1024\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func severalFilesInOrderEachWithItsOwnLineNumbers() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let first = try folder.write("first.txt", "1+1\n1/0\n")
    let second = try folder.write("second.txt", "\n2*3\n4/0\n")
    let third = try folder.write("third.txt", "10^3\n")
    let run = try ReckonProcess.run([first, second, third])
    #expect(run.stdout == "2\n6\n1000\n")
    #expect(
      run.stderr
        == "reckon: \(first):2:2: error: division by zero\nreckon: \(second):3:2: error: division by zero\n")
    #expect(run.status == 1)
  }

  @Test func emptyFilePrintsNothing() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = try folder.write("empty.txt", "")
    let run = try ReckonProcess.run([file])
    #expect(run.stdout == "")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test("an unreadable file is a clear error, and the other files still run", arguments: ["missing.txt", "folder"])
  func unreadableFile(name: String) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(atPath: folder.path + "/folder", withIntermediateDirectories: false)
    let good = try folder.write("good.txt", "6*7\n")
    let bad = folder.path + "/" + name
    let run = try ReckonProcess.run([bad, good])
    #expect(run.stdout == "42\n")
    let errors = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(errors.count == 2, "one error line, then the final newline")
    #expect(run.stderr.hasPrefix("reckon: \(bad): error: "))
    #expect(run.stderr.contains(name == "folder" ? "directory" : "no such file"))
    #expect(run.status == 1)
  }

  @Test func fileWithCRLFLineEndings() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = try folder.write("dos.txt", "x = 2\r\n\r\n# note\r\nx * 21\r\nx / 0\r\n")
    let run = try ReckonProcess.run([file])
    #expect(run.stdout == "2\n42\n")
    #expect(run.stderr == "reckon: \(file):5:3: error: division by zero\n")
    #expect(run.status == 1)
  }

  @Test func fileWithInvalidUTF8() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = try folder.write("bad.txt", Data([0x31, 0x2B, 0xFF, 0x32, 0x0A]) + Data("3+4\n".utf8))
    let run = try ReckonProcess.run([file])
    #expect(run.stdout == "7\n")
    #expect(run.stderr == "reckon: \(file):1:3: error: invalid UTF-8 in the input\n")
    #expect(run.status == 1)
  }

  // MARK: Standard input

  @Test(
    "piped standard input: results, <stdin> errors and the exit status",
    arguments: [
      ("1+1\n2*3\n", "2\n6\n", "", Int32(0)),
      ("\n# comment only\n\n", "", "", 0),
      ("", "", "", 0),
      ("5", "5\n", "", 0),  // no final newline
      ("1+1\n1/0\n3\n", "2\n3\n", "reckon: <stdin>:2:2: error: division by zero\n", 1),
      ("\n\n  4 / 0\n", "", "reckon: <stdin>:3:5: error: division by zero\n", 1),
      (
        "2 +\nqqq\n1\n", "1\n",
        "reckon: <stdin>:1:4: error: expected a number, a name or '(' here, but the line ends\n"
          + "reckon: <stdin>:2:1: error: unknown name 'qqq'\n", 1
      ),
      ("1\nquit\n2\n", "1\n", "", 0),
    ])
  func pipedInput(input: String, stdout: String, stderr: String, status: Int32) throws {
    let run = try ReckonProcess.run([], input: Data(input.utf8))
    #expect(run.stdout == stdout)
    #expect(run.stderr == stderr)
    #expect(run.status == status)
  }

  @Test func variablesAndContinuationAcrossPipedLines() throws {
    let input = "x = 3*4\nx + 1\n* 2\nans - 6\n_ / 4\n- 1\n\n/ 2\nx\n"
    let run = try ReckonProcess.run([], input: Data(input.utf8))
    #expect(run.lines == ["12", "13", "26", "20", "5", "4", "2", "12"])
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  /// Nesting right up to the parser's 1,000-level limit, in every recursive construct,
  /// evaluates (the release build runs on the main thread's 8 MiB stack).
  @Test func deepestNestingEvaluates() throws {
    let n = 999
    let lines = [
      String(repeating: "(", count: n) + "1" + String(repeating: ")", count: n),
      String(repeating: "sqrt(", count: n) + "1" + String(repeating: ")", count: n),
      String(repeating: "-(", count: 498) + "1" + String(repeating: ")", count: 498),  // two levels each
      String(repeating: "(", count: n) + "15% of 80" + String(repeating: ")", count: n),
      "2" + String(repeating: "(1", count: n - 1) + String(repeating: ")", count: n - 1),
      String(repeating: "-", count: n) + "1",
    ]
    let run = try ReckonProcess.run([], input: Data((lines.joined(separator: "\n") + "\n").utf8))
    #expect(run.stderr == "")
    #expect(run.status == 0)
    // 498 minus signs around 1 cancel; 999 in a row do not.
    #expect(run.lines == ["1", "1", "1", "12", "2", "-1"])
  }

  @Test func pipedCRLFLineEndings() throws {
    let run = try ReckonProcess.run([], input: Data("1+1\r\n\r\n# c\r\n2*3\r\n1/0\r\n".utf8))
    #expect(run.stdout == "2\n6\n")
    #expect(run.stderr == "reckon: <stdin>:5:2: error: division by zero\n")
    #expect(run.status == 1)
  }

  @Test func invalidUTF8InAPipedLineIsAnErrorForThatLineOnly() throws {
    var input = Data("2+2\n".utf8)
    input += Data([0x31, 0x2B, 0xFF, 0xFE, 0x32, 0x0A])  // 1+<FF><FE>2
    input += Data("3+4\n".utf8)
    let run = try ReckonProcess.run([], input: input)
    #expect(run.stdout == "4\n7\n")
    #expect(run.stderr == "reckon: <stdin>:2:3: error: invalid UTF-8 in the input\n")
    #expect(run.status == 1)
  }

  @Test func manyPipedLinesGiveOneOutputLineEach() throws {
    let count = 20_000
    let input = (1...count).map { "\($0) * 2" }.joined(separator: "\n") + "\n"
    let run = try ReckonProcess.run([], input: Data(input.utf8))
    #expect(run.lines == (1...count).map { "\($0 * 2)" })
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  // MARK: stdout and stderr together

  @Test func errorsAndResultsKeepTheirOrderInOneStream() throws {
    let run = try ReckonProcess.run([], input: Data("1\n1/0\n2\nqqq\n3\n".utf8), mergingStderr: true)
    #expect(
      run.stdout == """
        1
        reckon: <stdin>:2:2: error: division by zero
        2
        reckon: <stdin>:4:1: error: unknown name 'qqq'
        3

        """)
    #expect(run.status == 1)
  }

  @Test func unreadableFileErrorKeepsItsPlaceInOneStream() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let first = try folder.write("first.txt", "5*5\n")
    let missing = folder.path + "/missing.txt"
    let last = try folder.write("last.txt", "6*6\n")
    let run = try ReckonProcess.run([first, missing, last], mergingStderr: true)
    #expect(run.status == 1)
    let lines = run.lines
    #expect(lines.count == 3)
    #expect(lines.first == "25")
    #expect(lines.dropFirst().first?.hasPrefix("reckon: \(missing): error: cannot read the file") == true)
    #expect(lines.last == "36")
  }

  // MARK: No colour when piped

  @Test(
    "no ANSI escape bytes in piped output, even with TERM=xterm",
    arguments: [
      "1+1\n1/0\nfoo\n",
      "x = 1\nvars\n",
      "clear\n2\n",
      "help\n",
      "tip 50\n",
    ])
  func noEscapeBytesWhenPiped(input: String) throws {
    let environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "CLICOLOR_FORCE": "1"]
    let piped = try ReckonProcess.run([], input: Data(input.utf8), environment: environment)
    #expect(!piped.stdoutBytes.contains(0x1B), "stdout: \(piped.stdout.debugDescription)")
    #expect(!piped.stderrBytes.contains(0x1B), "stderr: \(piped.stderr.debugDescription)")
    #expect(!piped.stdout.isEmpty)

    let folder = try TemporaryFolder()

    defer { folder.remove() }
    let file = try folder.write("input.txt", input)
    let fromFile = try ReckonProcess.run([file], environment: environment)
    #expect(fromFile.stdoutBytes == piped.stdoutBytes)
    #expect(!fromFile.stderrBytes.contains(0x1B))

    let expressions = input.split(separator: "\n").flatMap { ["-e", String($0)] }
    let fromArguments = try ReckonProcess.run(expressions, environment: environment)
    #expect(!fromArguments.stdoutBytes.contains(0x1B))
    #expect(!fromArguments.stderrBytes.contains(0x1B))
  }

  // MARK: Flags

  @Test func helpShowsExamples() throws {
    let run = try ReckonProcess.run(["--help"])
    #expect(run.stdout.contains("Examples"))
    #expect(run.stdout.contains("reckon -e"))
    #expect(run.stdout.contains("--data-dir"))
    #expect(run.stdout.contains("RECKON_HOME"))
    #expect(!run.stdoutBytes.contains(0x1B))
    #expect(run.status == 0)
  }

  @Test func versionPrintsAVersion() throws {
    let run = try ReckonProcess.run(["--version"])
    #expect(
      run.stdout.wholeMatch(of: /reckon \d+\.\d+\.\d+\S*\nwith GMP \d+\.\d+\.\d+, MPFR \d+\.\d+\.\d+\S*\n/) != nil,
      "got \(run.stdout.debugDescription)")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func unknownFlagIsAUsageError() throws {
    let run = try ReckonProcess.run(["--no-such-flag"])
    #expect(run.stdout == "")
    #expect(run.stderr.contains("--no-such-flag"))
    #expect(run.status != 0)
  }

  @Test func dataDirIsAccepted() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let run = try ReckonProcess.run(["--data-dir", folder.path + "/data", "-e", "x = 3*4", "-e", "x / 2"])
    #expect(run.stdout == "12\n6\n")
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func batchRunsWriteNothingIntoHome() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let reckonHome = try TemporaryFolder()
    defer { reckonHome.remove() }
    let run = try ReckonProcess.run(
      [], input: Data("x = 1\nx + 1\n".utf8),
      environment: ["HOME": home.path, "RECKON_HOME": reckonHome.path])
    #expect(run.stdout == "1\n2\n")
    #expect(run.status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == [])
  }
}

// MARK: - Running the binary

/// The outcome of one run of `reckon`.
struct ReckonRun {
  var stdoutBytes: Data
  var stderrBytes: Data
  var status: Int32

  var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
  var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }
  /// The stdout lines, without the final newline's empty line.
  var lines: [String] {
    var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }
}

/// Runs the built `reckon` with a clean environment.
enum ReckonProcess {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Inputs up to this size go through a real pipe, written before the child starts (so the
  /// write never blocks); bigger ones come from a file.
  static let pipeCapacity = 60_000

  /// Runs `reckon arguments…` and waits for it (at most `timeout` seconds).
  /// - Parameters:
  ///   - input: standard input; `nil` gives `/dev/null`.
  ///   - environment: added to, or replacing, the defaults (`RECKON_HOME` and `HOME` in a new
  ///     temporary folder, `TERM=xterm`, `PATH`).
  ///   - removing: variables left out, defaults included.
  ///   - mergingStderr: send stderr to the same file as stdout (like `2>&1`); the result's
  ///     `stdout` then holds both, in the order written.
  ///   - executable: the binary to run; the debug build by default.
  static func run(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:], removing: [String] = [],
    directory: String? = nil, mergingStderr: Bool = false, timeout: Double = 60, executable: String? = nil
  ) throws -> ReckonRun {
    let scratch = try TemporaryFolder()
    defer { scratch.remove() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try executable ?? ReckonBinary.debug())
    process.arguments = arguments
    var fullEnvironment = [
      "RECKON_HOME": scratch.path, "HOME": scratch.path, "TERM": "xterm",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
    fullEnvironment.merge(environment) { _, new in new }
    for name in removing { fullEnvironment[name] = nil }
    process.environment = fullEnvironment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }

    // stdout and stderr go to files: no pipe can fill up and stall the child.
    let stdoutPath = scratch.path + "/.stdout"
    let stderrPath = scratch.path + "/.stderr"
    _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    let stdoutHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
    let stderrHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
    defer {
      try? stdoutHandle.close()
      try? stderrHandle.close()
    }
    process.standardOutput = stdoutHandle
    process.standardError = mergingStderr ? stdoutHandle : stderrHandle

    var inputHandle: FileHandle?
    switch input {
    case nil:
      process.standardInput = FileHandle.nullDevice
    case let data? where data.count <= pipeCapacity:
      let pipe = Pipe()
      try pipe.fileHandleForWriting.write(contentsOf: data)
      try pipe.fileHandleForWriting.close()
      process.standardInput = pipe
    case let data?:
      let inputPath = scratch.path + "/.stdin"
      _ = FileManager.default.createFile(atPath: inputPath, contents: data)
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
      inputHandle = handle
      process.standardInput = handle
    }
    defer { try? inputHandle?.close() }

    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    if finished.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      finished.wait()
      throw Failure(description: "reckon \(arguments) did not finish within \(timeout) s")
    }
    guard process.terminationReason == .exit else {
      // terminationStatus holds the signal number here.
      throw Failure(description: "reckon \(arguments) was killed by signal \(process.terminationStatus)")
    }
    return ReckonRun(
      stdoutBytes: try Data(contentsOf: URL(fileURLWithPath: stdoutPath)),
      stderrBytes: try Data(contentsOf: URL(fileURLWithPath: stderrPath)),
      status: process.terminationStatus)
  }
}

/// A new folder under the system's temporary folder; `remove()` deletes it and all it holds.
struct TemporaryFolder {
  let path: String

  init() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("reckon-binary-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }

  /// Writes `contents` to `name` in this folder and returns the file's path.
  func write(_ name: String, _ contents: String) throws -> String {
    try write(name, Data(contents.utf8))
  }

  /// The file is 0600, as Reckon's own files are (a database open to others would be
  /// tightened, with a warning of its own).
  func write(_ name: String, _ contents: Data) throws -> String {
    let file = path + "/" + name
    guard FileManager.default.createFile(atPath: file, contents: contents, attributes: [.posixPermissions: 0o600])
    else {
      throw ReckonProcess.Failure(description: "cannot write \(file)")
    }
    return file
  }
}

/// `reckon --salvage FILE` (and `salvage FILE` in a script): what a damaged or set-aside
/// database holds, added to the one in use; a file that is none, or the one in use, refused
/// with the reason and status 1.
@Suite struct SalvageOptionTests {
  /// A database made by Reckon in `home` with `count` answers of the drill, closed cleanly.
  static func database(in home: String, answers count: Int) throws -> String {
    let made = try ReckonProcess.run(["-e", "set digits 14"], environment: ["RECKON_HOME": home, "HOME": home])
    #expect(made.status == 0)
    let path = home + "/reckon.sqlite"
    let db = try Database(path)
    try db.execute(
      """
      INSERT OR IGNORE INTO profile (name, createdAt) VALUES ('ada', 1);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
      INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day)
        SELECT 'ada', 'drill', (i % 12) || '×' || (i % 11), 'x', i % 2, 900, i, 0 FROM n;
      PRAGMA wal_checkpoint(TRUNCATE);
      """)
    return path
  }

  @Test func addsWhatTheFileHoldsAndTheDatabaseLacks() throws {
    let old = try TemporaryFolder()
    defer { old.remove() }
    let home = try TemporaryFolder()
    defer { home.remove() }
    let file = try Self.database(in: old.path, answers: 500)
    // The page 1 of the old copy zeroed: only its pages can say what it held.
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file))
    try handle.write(contentsOf: Data(count: 4096))
    try handle.close()
    _ = try Self.database(in: home.path, answers: 200)  // the same first 200 answers
    let run = try ReckonProcess.run(
      ["--salvage", file, "-e", "stats"], environment: ["RECKON_HOME": home.path, "HOME": home.path, "USER": "ada"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Read from \(file): 500 answers, "), "\(run.stdout)")
    #expect(run.stdout.contains("Added what was missing here: 300 answers."), "\(run.stdout)")
    let kept = try Database(home.path + "/reckon.sqlite", flags: .readOnly)
    #expect(try kept.value("SELECT count(*) FROM answer") as Int? == 500)
    // Again: nothing is missing now.
    let again = try ReckonProcess.run(
      ["--salvage", file], environment: ["RECKON_HOME": home.path, "HOME": home.path, "USER": "ada"])
    #expect(again.status == 0)
    #expect(again.stdout.contains("Nothing in it was missing here: nothing added."), "\(again.stdout)")
    #expect(try kept.value("SELECT count(*) FROM answer") as Int? == 500)
  }

  @Test func aFileThatCannotBeReadIsRefusedWithItsReason() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    _ = try Self.database(in: home.path, answers: 10)
    for (file, reason) in [
      (home.path + "/none.sqlite", "it cannot be read: no such file or directory"),
      (home.path, "it is a folder"),
      (home.path + "/reckon.sqlite", "it is the database Reckon is using: there is nothing to add from it"),
    ] {
      let run = try ReckonProcess.run(
        ["--salvage", file], environment: ["RECKON_HOME": home.path, "HOME": home.path])
      #expect(run.status == 1, "\(file)")
      #expect(run.stderr.contains("error: nothing added from \(file): \(reason)"), "\(run.stderr)")
    }
    // A file of another kind holds nothing of Reckon's.
    try Data("not a database at all\n".utf8).write(to: URL(fileURLWithPath: home.path + "/notes.txt"))
    let run = try ReckonProcess.run(
      ["-e", "salvage \(home.path)/notes.txt"], environment: ["RECKON_HOME": home.path, "HOME": home.path])
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "error: nothing added from \(home.path)/notes.txt: nothing in it could be read: it is not a database of "
          + "Reckon's, or all of it is damaged"), "\(run.stderr)")
  }
}
