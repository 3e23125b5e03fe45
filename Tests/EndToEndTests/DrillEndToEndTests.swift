import Foundation
import ReckonSession
import ReckonStore
import SQLite
import Testing

/// The drill and its store, through the release binary as it ships: scripted rounds on a
/// pipe, progress that lasts across runs, and answers that survive `kill -9`.
@Suite struct DrillEndToEndTests {
  static func environment(home: String) -> [String: String] {
    ["RECKON_HOME": home, "HOME": home, "TERM": "xterm", "USER": "tester", "PATH": "/usr/bin:/bin"]
  }

  /// What the store holds: every answer, oldest first, for a profile.
  static func answers(in home: String, profile: String) throws -> [(item: String, correct: Bool)] {
    let db = try Database(home + "/reckon.sqlite", flags: .readOnly)
    return try db.all("SELECT item, correct FROM answer WHERE profile = ? ORDER BY id", profile) {
      (row) throws(SQLiteError) in (try row[0], try row[1])
    }
  }

  /// `PRAGMA integrity_check` of a database, through a connection of its own.
  static func integrityCheck(_ path: String) throws -> [String] {
    try Database(path).all("PRAGMA integrity_check") { (row) throws(SQLiteError) in try row[0] as String }
  }

  @Test func aScriptedRoundPipedIntoTheReleaseBinary() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let script = "x = 6\ndrill 4 count 5\n8\n12\n15\n\n\nfour\nskip\nx * 2\n"
    let run = try ReckonProcess.run(
      [], input: Data(script.utf8), environment: Self.environment(home: home.path),
      executable: try ReckonBinary.release())
    // The two right answers take about the same real time: which was slower is up to the
    // machine, so the slowest are compared in the order of their names.
    let lines = run.lines.map { line in
      let timed = line.replacing(/\d+\.\d s/, with: "T s").replacing(/in \d+:\d\d/, with: "in M:SS")
      guard timed.hasPrefix("Slowest: ") else { return timed }
      return "Slowest: " + timed.dropFirst(9).split(separator: ", ").sorted().joined(separator: ", ")
    }
    #expect(
      lines == [
        "6",
        "Drill for tester: the 4 table (×) up to 12, in order, 5 questions.",
        "Type the answer. Enter alone shows it; skip, stats, help, quit.",
        "4 × 2 = ?", "✓ T s",
        "4 × 3 = ?", "✓ T s",
        "4 × 4 = ?", "✗ 4 × 4 = 16",
        "4 × 5 = ?", "4 × 5 = 20  (not scored; Enter for the next question)",
        "4 × 6 = ?", "type a number (or quit)", "skipped: 4 × 6 = 24",
        "Drill over: 2 right, 1 wrong (67%) in M:SS, T s a question.",
        "Missed: 4 × 4 = 16",
        "Slowest: 4 × 2 (T s), 4 × 3 (T s)",
        "12",
      ])
    #expect(run.stderr == "")
    #expect(run.status == 0)
    let saved = try Self.answers(in: home.path, profile: "tester")
    #expect(saved.map(\.item) == ["4×2", "4×3", "4×4"])
    #expect(saved.map(\.correct) == [true, true, false])

    // The next run remembers: the options are the profile's defaults, and the missed fact
    // and the one whose answer was shown are due.
    let again = try ReckonProcess.run(
      [], input: Data("drill\nquit\ndrill review\n16\n20\n".utf8), environment: Self.environment(home: home.path),
      executable: try ReckonBinary.release())
    #expect(again.lines.first == "Drill for tester: the 4 table (×) up to 12, in order, 5 questions.")
    #expect(again.lines.contains("Drill for tester: review of the 2 facts due, weakest first."))
    #expect(again.lines.contains("4 × 4 = ?"))
    #expect(again.lines.contains("4 × 5 = ?"))
    #expect(try Self.answers(in: home.path, profile: "tester").count == 5)
  }

  /// kill -9 in the middle of a round: the database opens, passes its integrity check, and
  /// holds every answer that was acknowledged on screen, in order.
  @Test func killedMidRoundEveryAcknowledgedAnswerIsSaved() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let binary = try ReckonBinary.release()
    var saved: [(item: String, correct: Bool)] = []
    for round in 0..<3 {
      let reckon = try LiveProcess(
        executable: binary, arguments: ["--profile", "kid"], environment: Self.environment(home: home.path))
      try reckon.send("drill 6-9 random")
      var acknowledged: [(item: String, correct: Bool)] = []
      for n in 0..<(10 + 7 * round) {
        let question = try reckon.expectLine(matching: /\d+ × \d+ = \?/)
        let numbers = question.split(separator: " ").compactMap { Int($0) }
        let correct = n % 4 != 3
        try reckon.send(String(numbers[0] * numbers[1] + (correct ? 0 : 1)))
        try reckon.expectLine(matching: /[✓✗] .*/)
        acknowledged.append(("\(numbers[0])×\(numbers[1])", correct))
      }
      // One more answer on its way, not yet acknowledged, when the kill comes: it may or may
      // not have been saved, but nothing before it may be missing.
      let question = try reckon.expectLine(matching: /\d+ × \d+ = \?/)
      let numbers = question.split(separator: " ").compactMap { Int($0) }
      try reckon.send(String(numbers[0] * numbers[1]))
      reckon.killNow()

      #expect(try Self.integrityCheck(home.path + "/reckon.sqlite") == ["ok"])
      let now = try Self.answers(in: home.path, profile: "kid")
      let added = Array(now.dropFirst(saved.count))
      #expect(now.prefix(saved.count).map(\.item) == saved.map(\.item), "earlier rounds' answers are intact")
      #expect(added.count == acknowledged.count || added.count == acknowledged.count + 1)
      #expect(added.prefix(acknowledged.count).map(\.item) == acknowledged.map(\.item))
      #expect(added.prefix(acknowledged.count).map(\.correct) == acknowledged.map(\.correct))
      if added.count > acknowledged.count {
        #expect(added.last?.item == "\(numbers[0])×\(numbers[1])")
      }
      saved = now
    }
  }

  /// Two Reckons drilling one profile on one database at the same moment: every answer of
  /// both is saved, once.
  @Test func twoProcessesDrillingAtOnceLoseNothing() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let binary = try ReckonBinary.release()
    // In order, all right: 3 × 2 … 3 × 12, 4 × 2 … 4 × 12, 3 × 2 … (no misses to reorder it).
    let facts = (0..<300).map { n in (3 + (n / 11) % 2, 2 + n % 11) }
    let script = "drill 3-4 count 300\n" + facts.map { "\($0.0 * $0.1)\n" }.joined()
    let runs = Runs()
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      let run = Result {
        try ReckonProcess.run(
          [], input: Data(script.utf8), environment: Self.environment(home: home.path), executable: binary)
      }
      runs.add(run)
    }
    for run in runs.all {
      let output = try run.get()
      #expect(output.status == 0)
      #expect(output.stderr == "")
      #expect(output.lines.contains { $0.hasPrefix("Drill over: 300 right, 0 wrong (100%)") })
    }
    let saved = try Self.answers(in: home.path, profile: "tester")
    #expect(saved.count == 600)
    #expect(saved.allSatisfy { $0.correct })
    let perItem = try Database(home.path + "/reckon.sqlite", flags: .readOnly).all(
      "SELECT COUNT(*) FROM answer GROUP BY item ORDER BY item"
    ) { (row) throws(SQLiteError) in try row[0] as Int }
    // 300 questions over 22 facts in turn: the first 14 come up 14 times a run, the other 8
    // 13 times; two runs, so 28 and 26, none more.
    #expect(perItem.sorted() == Array(repeating: 26, count: 8) + Array(repeating: 28, count: 14))
  }

  final class Runs: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [Result<ReckonRun, any Error>] = []
    func add(_ run: Result<ReckonRun, any Error>) {
      lock.lock()
      runs.append(run)
      lock.unlock()
    }
    var all: [Result<ReckonRun, any Error>] {
      lock.lock()
      defer { lock.unlock() }
      return runs
    }
  }

  @Test func settingsAndProfilesLastAcrossRuns() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let environment = Self.environment(home: home.path)
    #expect(try ReckonProcess.run(["-e", "set digits 4"], environment: environment).stdout == "digits: 4\n")
    #expect(try ReckonProcess.run(["-e", "1/3"], environment: environment).stdout == "0.3333…\n")
    #expect(
      try ReckonProcess.run(["--profile", "bob", "-e", "1/3"], environment: environment).stdout == "0.3333333333…\n")
    let bad = try ReckonProcess.run(["--profile", "a b", "-e", "1"], environment: environment)
    #expect(bad.stderr.hasPrefix("reckon: --profile: a profile name holds only letters"))
    #expect(bad.status == 2)
  }

  /// A data folder that cannot be written: one clear warning, the drill still runs, and at
  /// the end what could not be saved is counted.
  @Test func anUnwritableDataFolderStillDrills() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let blocked = try home.write("blocked", "a file where the data folder should be")
    var environment = Self.environment(home: home.path)
    environment["RECKON_HOME"] = blocked
    let run = try ReckonProcess.run([], input: Data("drill 2 count 2\n4\n6\n1+1\n".utf8), environment: environment)
    #expect(run.lines.last == "2")
    #expect(run.lines.contains("Drill over: 2 right, 0 wrong (100%) in 0:00, 0.0 s a question."))
    let warnings = run.stderr.split(separator: "\n")
    #expect(warnings.count == 2, "\(warnings)")
    #expect(warnings.first?.hasPrefix("reckon: warning: cannot write to \(blocked)") == true)
    // The drill's options and its two answers.
    #expect(
      warnings.last?.hasPrefix("reckon: warning: 3 changes could not be saved (it is a file, not a folder)") == true)
    #expect(run.status == 0)
  }

  /// A file size limit (`ulimit -f`) that the database's WAL reaches in the middle of a drill:
  /// the write fails and the store says so, and the drill goes on to its end. (SIGXFSZ
  /// killed Reckon there, silently, before anything it had written to a pipe was flushed.)
  @Test func aFileSizeLimitReachedMidDrillDoesNotKillReckon() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let answers = (2...11).map { "\(7 * $0)\n" }.joined()
    // 360 blocks of 512 bytes (dash's, which is /bin/sh on Debian): the database is made and
    // migrated (the modes' tables too), and the WAL passes the limit a few answers in.
    let run = try ReckonProcess.run(
      ["-c", "ulimit -f 360 && exec \"$0\"", try ReckonBinary.debug()],
      input: Data(("drill 7 count 10\n" + answers).utf8), environment: Self.environment(home: home.path),
      executable: "/bin/sh")
    #expect(run.status == 0)
    #expect(run.lines.filter { $0.hasPrefix("✓") }.count == 10)
    #expect(run.lines.contains { $0.hasPrefix("Drill over: 10 right, 0 wrong (100%)") })
    #expect(
      run.stderr.hasPrefix("reckon: warning: progress is not being saved: the file size limit (ulimit -f) is reached"),
      "\(run.stderr)")
  }

  /// Every command that opens the database says so when it finds it damaged, on the line
  /// that opened it (in a script nothing else reads it first).
  @Test(arguments: ["profile", "profile bob", "daily", "personality", "stats", "stats quiz", "stats anagram"])
  func aDamagedDatabaseIsReportedByTheCommandThatOpensIt(_ command: String) throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    _ = try home.write("reckon.sqlite", Data(repeating: 0x5A, count: 10_000))
    let run = try ReckonProcess.run(["-e", command], environment: Self.environment(home: home.path))
    #expect(run.stderr.hasPrefix("reckon: warning: \(home.path)/reckon.sqlite was damaged"), "\(command)")
    #expect(run.stderr.components(separatedBy: "was damaged").count == 2, "\(command): said once")
    #expect(run.status == 0)
    let files = try FileManager.default.contentsOfDirectory(atPath: home.path)
    #expect(files.contains { $0.hasPrefix("reckon.sqlite.corrupt-") })
  }

  /// A database that is not one: moved aside with a message, a fresh one started, when a line
  /// first needs it (1/3 needs the digits setting). A line that needs nothing from it (1+1)
  /// leaves it as it is.
  @Test func aDamagedDatabaseIsMovedAside() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let garbage = Data(repeating: 0x5A, count: 10_000)
    _ = try home.write("reckon.sqlite", garbage)
    let untouched = try ReckonProcess.run(["-e", "1+1"], environment: Self.environment(home: home.path))
    #expect(untouched.stdout == "2\n")
    #expect(untouched.stderr == "")
    #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == ["reckon.sqlite"])
    #expect(FileManager.default.contents(atPath: home.path + "/reckon.sqlite") == garbage)

    let run = try ReckonProcess.run(["-e", "1+1", "-e", "1/3"], environment: Self.environment(home: home.path))
    #expect(run.stdout == "2\n0.3333333333…\n")
    #expect(run.stderr.hasPrefix("reckon: warning: \(home.path)/reckon.sqlite was damaged"))
    #expect(run.status == 0)
    let files = try FileManager.default.contentsOfDirectory(atPath: home.path)
    #expect(files.contains { $0.hasPrefix("reckon.sqlite.corrupt-") })
  }
}
