import Foundation
import SQLite
import Testing

/// Drives the real `reckon` binary on a pseudo-terminal.
@Suite struct InteractiveTests {
  @Test func editingHistoryCompletionAndCtrlC() throws {
    let home = try Self.makeTemporaryFolder()
    defer { Self.removeTree(home) }
    let terminal = try Self.startReckon(home: home)
    defer { terminal.close() }
    typealias Key = PseudoTerminal.Key

    // A plain calculation.
    try terminal.send("1+2" + Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("3"))

    // An assignment.
    try terminal.send("x = 7" + Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("7"))

    // Up recalls the previous line; Enter runs it again.
    try terminal.send(Key.up)
    try terminal.expect("x = 7")
    try terminal.send(Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("7"))

    // Tab completes "sq" to the only candidate, "sqrt(" (functions come with their parenthesis); Ctrl-C abandons it.
    try terminal.send("sq")
    try terminal.expect("sq")
    try terminal.send(Key.tab)
    try terminal.expect("rt")
    #expect(terminal.output.hasSuffix("reckon> sqrt("))
    try terminal.send(Key.ctrlC)
    try terminal.expect("reckon> ")

    // A command completed whole gets its space, as in a shell: "spl" Tab is "split ".
    try terminal.send("spl")
    try terminal.expect("spl")
    try terminal.send(Key.tab)
    try terminal.expect("it")
    #expect(terminal.output.hasSuffix("reckon> split "), "\(terminal.output.suffix(40))")
    try terminal.send("100 3" + Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("100.00 split 3 ways: 2 pay 33.33, 1 pays 33.34"))

    // The session still knows x.
    try terminal.send("x*2" + Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("14"))

    // Ctrl-C on a half-typed line gives a fresh prompt and keeps the session.
    try terminal.send("x + 10")
    try terminal.expect("x + 10")
    try terminal.send(Key.ctrlC)
    let afterInterrupt = try terminal.expect("reckon> ")
    #expect(!Self.lines(afterInterrupt).contains("17"))
    try terminal.send("x" + Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("7"))

    // Ctrl-D on an empty line exits cleanly.
    try terminal.send(Key.ctrlD)
    #expect(try terminal.waitForExit() == .exited(0))
  }

  /// Ctrl-C during a calculation that would take a minute stops it within moments, and the
  /// prompt comes back with the last result and the variables as they were.
  @Test func ctrlCStopsALongCalculationAndChangesNothing() throws {
    let home = try Self.makeTemporaryFolder()
    defer { Self.removeTree(home) }
    let terminal = try Self.startReckon(home: home)
    defer { terminal.close() }
    typealias Key = PseudoTerminal.Key

    try terminal.send("x = 6*7" + Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("42"))
    // A hundred quotients of two factorials of a million digits each (each multiplied by 0):
    // seconds, even with GMP. (The line stays short: a pseudo-terminal echoes what is typed,
    // and a long line would fill its buffer while this test is still writing.)
    let long = Array(repeating: "205000!/204999!*0", count: 100).joined(separator: "+")
    try terminal.send("x = " + long + Key.enter)
    Thread.sleep(forTimeInterval: 0.2)
    try terminal.sendWhileWorking(Key.ctrlC)  // once the line is read and the calculation under way
    // (Not the next "reckon> ": libedit draws the prompt again as the long line wraps.)
    let stopped = try terminal.expect("nothing was changed")
    #expect(stopped.contains("interrupted (Ctrl-C)"))
    // The terminal shows the Ctrl-C as ^C; the answer starts on the next line, not over it.
    #expect(stopped.replacingOccurrences(of: "\r", with: "").contains("^C\n"))
    try terminal.expect("reckon> ")
    try terminal.send("x + ans" + Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("84"))
    try terminal.send(Key.ctrlD)
    #expect(try terminal.waitForExit() == .exited(0))
  }

  /// Ctrl-C while a million digits are being written stops the writing at once (it used to
  /// wait for all of them), and says so; the value is kept as the last result.
  @Test func ctrlCStopsALongAnswerBeingWritten() throws {
    let home = try Self.makeTemporaryFolder()
    defer { Self.removeTree(home) }
    let terminal = try Self.startReckon(home: home)
    defer { terminal.close() }
    typealias Key = PseudoTerminal.Key
    try terminal.send("10^999999 + 1" + Key.enter)
    // Nothing is read meanwhile: the terminal's buffer fills, and Reckon waits to write.
    Thread.sleep(forTimeInterval: 0.5)
    try terminal.sendWhileWorking(Key.ctrlC)
    let shown = try terminal.expect("the rest of this output is not shown")
    #expect(shown.utf8.count < 500_000, "\(shown.utf8.count) bytes were written")
    try terminal.expect("reckon> ")
    try terminal.send("ans - 10^999999" + Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("1"))
    try terminal.send(Key.ctrlD)
    #expect(try terminal.waitForExit() == .exited(0))
  }

  /// Ctrl-C while a line salvages a damaged database (200,000 answers, a leaf zeroed) stops
  /// the salvage: what was copied is kept and the line says so, naming the damaged file set
  /// aside and `salvage FILE`, which then adds the rest (or, when Ctrl-C came before anything
  /// was copied, nothing changes and the next line salvages it). Either way every answer the
  /// damaged file still holds ends up in the database, once.
  @Test func ctrlCStopsASalvageAndKeepsWhatWasCopied() throws {
    let home = try Self.makeTemporaryFolder()
    defer { Self.removeTree(home) }
    let path = home + "/reckon.sqlite"
    let made = try ReckonProcess.run(
      ["--profile", "ada", "-e", "set digits 14"], environment: ["RECKON_HOME": home, "HOME": home])
    #expect(made.status == 0)
    let answers = 200_000
    let page: Int
    let lost: Int
    do {
      let db = try Database(path)
      try db.execute(
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(answers))
        INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day)
          SELECT 'ada', 'drill', (i % 12) || '×' || (i % 11), 'x', i % 2, 900, i, 0 FROM n;
        PRAGMA wal_checkpoint(TRUNCATE);
        """)
      let leaves = try db.all(
        "SELECT pageno, ncell FROM dbstat WHERE name = 'answer' AND pagetype = 'leaf' ORDER BY path"
      ) { (row) throws(SQLiteError) in (try row[0] as Int, try row[1] as Int) }
      (page, lost) = leaves[leaves.count / 2]
    }
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try handle.seek(toOffset: UInt64((page - 1) * 4096))
    try handle.write(contentsOf: Data(count: 4096))
    try handle.close()
    let damaged = FileManager.default.contents(atPath: path)

    let terminal = try Self.startReckon(home: home, environment: ["USER": "ada"], columns: 1000)
    defer { terminal.close() }
    typealias Key = PseudoTerminal.Key
    try terminal.send("stats" + Key.enter)
    // Once the salvage is under way (its fresh file is there), Ctrl-C.
    let started = Date()
    while Date().timeIntervalSince(started) < 5,
      !((try? FileManager.default.contentsOfDirectory(atPath: home)) ?? []).contains(where: { $0.contains(".salvage-") }
      )
    {
      usleep(500)
    }
    try terminal.sendWhileWorking(Key.ctrlC)
    let stopped = try terminal.expect("reckon> ")
    let names = try FileManager.default.contentsOfDirectory(atPath: home)
    #expect(!names.contains { $0.contains(".salvage-") }, "\(names)")
    if stopped.contains("salvage was stopped (Ctrl-C): nothing") {
      #expect(!names.contains { $0.contains(".corrupt-") }, "\(names)")
      #expect(FileManager.default.contents(atPath: path) == damaged)
      try terminal.send("stats" + Key.enter)
      let salvaged = try terminal.expect("reckon> ")
      #expect(salvaged.contains("Reckon copied what could be read into a fresh file"), "\(salvaged)")
    } else {
      #expect(stopped.contains("when Ctrl-C stopped it; it uses what was copied from now on"), "\(stopped)")
      let aside = try #require(
        names.first { $0.contains(".corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
      #expect(stopped.contains("which was moved aside: salvage \(home)/\(aside) adds what it holds"), "\(stopped)")
      try terminal.send("salvage \(home)/\(aside)" + Key.enter)
      let merged = try terminal.expect("reckon> ")
      #expect(merged.contains("Read from \(home)/\(aside): \((answers - lost).grouped) answers"), "\(merged)")
    }
    try terminal.send(Key.ctrlD)
    #expect(try terminal.waitForExit() == .exited(0))
    let kept = try Database(path, flags: .readOnly)
    #expect(try kept.value("SELECT count(*) FROM answer") as Int? == answers - lost)
    #expect(try kept.value("SELECT count(DISTINCT answeredAt) FROM answer") as Int? == answers - lost)
  }

  /// TERM=dumb: a terminal that takes no escape codes gets none, even from the daily
  /// challenge's clock, which ticks on the prompt every second, or from pause and clear.
  @Test func aDumbTerminalGetsNoEscapeCodes() throws {
    let home = try Self.makeTemporaryFolder()
    defer { Self.removeTree(home) }
    let terminal = try Self.startReckon(home: home, environment: ["TERM": "dumb"])
    defer { terminal.close() }
    typealias Key = PseudoTerminal.Key
    try terminal.send("1/0" + Key.enter)
    try terminal.expect("reckon> ")
    try terminal.send("daily easy" + Key.enter)
    try terminal.expect("daily easy 0:00> ")
    Thread.sleep(forTimeInterval: 2.5)  // two ticks of the clock
    try terminal.send("pause" + Key.enter)
    try terminal.expect("resume")
    try terminal.send("quit" + Key.enter)
    try terminal.expect("reckon> ")
    try terminal.send("clear" + Key.enter)
    try terminal.expect("reckon> ")
    #expect(!terminal.rawOutput.contains("\u{1B}"), "\(terminal.rawOutput.debugDescription.suffix(600))")
    try terminal.send(Key.ctrlD)
    #expect(try terminal.waitForExit() == .exited(0))
  }

  /// History lands in $XDG_STATE_HOME/reckon/history (0600, in a 0700 folder), without
  /// consecutive duplicates, and a new session recalls it with Up; Ctrl-R searches it.
  @Test func historyPersistsAcrossSessions() throws {
    let home = try Self.makeTemporaryFolder()
    defer { Self.removeTree(home) }
    let environment = ["XDG_STATE_HOME": home + "/state", "RECKON_HOME": ""]
    typealias Key = PseudoTerminal.Key
    do {
      let terminal = try Self.startReckon(home: home, environment: environment)
      defer { terminal.close() }
      for line in ["6*7", "6*7", "price = 12.5", "3 × 4"] {
        try terminal.send(line + Key.enter)
        try terminal.expect("reckon> ")
      }
      try terminal.send("quit" + Key.enter)
      #expect(try terminal.waitForExit() == .exited(0))
    }
    let file = home + "/state/reckon/history"
    let saved = try String(contentsOfFile: file, encoding: .utf8)
    #expect(saved.components(separatedBy: "6*7").count == 2, "no consecutive duplicates: \(saved)")
    #expect(saved.contains("price"))
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let folder = try FileManager.default.attributesOfItem(atPath: home + "/state/reckon")
    #expect((folder[.posixPermissions] as? Int) == 0o700)

    let terminal = try Self.startReckon(home: home, environment: environment)
    defer { terminal.close() }
    try terminal.send(Key.up)
    try terminal.expect("quit")
    try terminal.send(Key.up)
    try terminal.expect("3 × 4")
    try terminal.send(Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("12"))
    // Ctrl-R finds an older line by a piece of it.
    try terminal.send("\u{12}" + "pri")
    try terminal.expect("price = 12.5")
    try terminal.send(Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("12.5"))
    try terminal.send(Key.ctrlD)
    #expect(try terminal.waitForExit() == .exited(0))
  }

  /// On a narrow terminal, help wraps at spaces to the terminal's width, and results and
  /// errors still come out whole.
  @Test func helpWrapsToANarrowTerminal() throws {
    let home = try Self.makeTemporaryFolder()
    defer { Self.removeTree(home) }
    let terminal = try Self.startReckon(home: home, columns: 40)
    defer { terminal.close() }
    typealias Key = PseudoTerminal.Key
    try terminal.send("help tip" + Key.enter)
    let help = Self.lines(try terminal.expect("reckon> "))
    #expect(help.count > 10)
    #expect(help.allSatisfy { $0.count <= 40 }, "\(help.filter { $0.count > 40 })")
    #expect(help.contains { $0.hasPrefix("tip 50 18% split 3") })
    try terminal.send("2^100" + Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("1267650600228229401496703205376"))
    try terminal.send(Key.ctrlD)
    #expect(try terminal.waitForExit() == .exited(0))
  }

  /// Ctrl-D inside a drill ends the drill with its summary, not Reckon; the calculator's
  /// variables are still there.
  @Test func ctrlDInADrillReturnsToTheCalculator() throws {
    let home = try Self.makeTemporaryFolder()
    defer { Self.removeTree(home) }
    let terminal = try Self.startReckon(home: home)
    defer { terminal.close() }
    typealias Key = PseudoTerminal.Key
    try terminal.send("x = 9" + Key.enter)
    try terminal.expect("reckon> ")
    try terminal.send("drill 7 count 5" + Key.enter)
    try terminal.expect("drill 7× 1/5> ")
    try terminal.send("14" + Key.enter)
    try terminal.expect("drill 7× 2/5> ")
    try terminal.send(Key.ctrlD)
    let summary = try terminal.expect("reckon> ")
    #expect(summary.contains("Drill over: 1 right, 0 wrong (100%)"))
    try terminal.send("x" + Key.enter)
    #expect(Self.lines(try terminal.expect("reckon> ")).contains("9"))
    try terminal.send(Key.ctrlD)
    #expect(try terminal.waitForExit() == .exited(0))
  }

  /// `stats` on a terminal shows each fact's answer in the colour of its mastery; under
  /// NO_COLOR the grid uses symbols instead, and no colour at all is written.
  @Test func statsGridIsColouredOnATerminalAndSymbolsUnderNoColour() throws {
    let home = try Self.makeTemporaryFolder()
    defer { Self.removeTree(home) }
    typealias Key = PseudoTerminal.Key
    let coloured = try Self.startReckon(home: home)
    defer { coloured.close() }
    try coloured.send("drill 3 count 2" + Key.enter)
    try coloured.expect("drill 3× 1/2> ")
    try coloured.send("6" + Key.enter)
    try coloured.expect("drill 3× 2/2> ")
    try coloured.send("10" + Key.enter)
    try coloured.expect("reckon> ")
    try coloured.send("stats" + Key.enter)
    let stats = try coloured.expect("reckon> ")
    #expect(stats.contains("Progress for"))
    // 3 × 2 was right (box 2: yellow), 3 × 3 wrong (box 1: red), 3 × 4 never asked (dim).
    #expect(coloured.rawOutput.contains("\u{1B}[33m6\u{1B}[0m"))
    #expect(coloured.rawOutput.contains("\u{1B}[4;31m9\u{1B}[0m"))
    #expect(coloured.rawOutput.contains("\u{1B}[2m12\u{1B}[0m"))
    try coloured.send(Key.ctrlD)
    #expect(try coloured.waitForExit() == .exited(0))

    let plain = try Self.startReckon(home: home, environment: ["NO_COLOR": "1"])
    defer { plain.close() }
    try plain.send("stats" + Key.enter)
    let lines = Self.lines(try plain.expect("reckon> "))
    #expect(lines.contains { $0.hasPrefix("3   ◐  ○  ·") })
    for colour in ["\u{1B}[4;31m", "\u{1B}[1;32m", "\u{1B}[33m", "\u{1B}[2m"] {
      #expect(!plain.rawOutput.contains(colour))
    }
    try plain.send(Key.ctrlD)
    #expect(try plain.waitForExit() == .exited(0))
  }

  /// A paste of a megabyte with no line break is refused as soon as it passes the limit, said
  /// once, and the rest of it is dropped without reaching libedit (whose buffers grew with
  /// the line: a 10 MB paste took 279 MB and 73 s); once the paste has stopped, the next line
  /// is read as usual, and the peak memory stays small.
  @Test func aHugePasteIsRefusedAsItArrives() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let terminal = try Self.startReckon(home: home.path)
    defer { terminal.close() }
    try terminal.sendLong(String(repeating: "7", count: 1 << 20))
    // (Cut at the terminal's width.)
    try terminal.expect("error: the line is too long (over the limit of 65,536 bytes); it is skipped to\nits end")
    try terminal.expect("reckon> ")
    usleep(1_500_000)  // the paste is over: what follows is a new line
    try terminal.send("2+2" + PseudoTerminal.Key.enter)
    try terminal.expect("4")
    try terminal.expect("reckon> ")
    #expect(terminal.output.components(separatedBy: "too long").count == 2, "said once")
    let status = try String(contentsOfFile: "/proc/\(terminal.pid)/status", encoding: .utf8)
    let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap {
      Int($0.split(separator: " ", omittingEmptySubsequences: true)[1])
    }
    #expect((peak ?? .max) < 50_000, "peak memory \(peak ?? -1) KB")
    // A pasted line break ends the refused line's rest at once.
    try terminal.sendLong(String(repeating: "8", count: 100_000) + "\n3+3" + PseudoTerminal.Key.enter)
    try terminal.expect("too long")
    try terminal.expect("6")
    try terminal.send(PseudoTerminal.Key.ctrlD)
    #expect(try terminal.waitForExit() == .exited(0))
  }

  /// Starts reckon on a new terminal with `home` as its HOME and RECKON_HOME (entries in
  /// `environment` override; an empty value leaves the variable out), and waits for the
  /// first prompt.
  static func startReckon(home: String, environment: [String: String] = [:], columns: UInt16 = 80) throws
    -> PseudoTerminal
  {
    let base = ["RECKON_HOME": home, "HOME": home, "TERM": "xterm", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
    let merged = base.merging(environment) { $1 }.filter { !$0.value.isEmpty }
    let terminal = try PseudoTerminal(executable: try ReckonBinary.debug(), environment: merged, columns: columns)
    try terminal.expect("reckon> ")
    return terminal
  }

  /// The trimmed lines of some terminal output.
  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
  }

  static func makeTemporaryFolder() throws -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("reckon-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.path
  }

  private static func removeTree(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }
}
