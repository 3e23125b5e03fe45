import Foundation
import Glibc
import Testing

/// Inputs meant to hurt, each through the release binary: every one is answered, with an
/// approximation (results past the exact-digit limit) or a clear error (its message and
/// column, exit status 1), never a crash, and its peak memory stays under 200 MB. How long each takes is a measurement, not a test: `bench/hostile`
/// prints it for the same table (all well under 100 ms).
@Suite struct HostileInputTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let line: [UInt8]
    /// The start of what stderr must say, after "reckon: FILE:"; or, for `answered`, of the
    /// line printed (a result past the exact-digit limit is approximated, not refused).
    let error: String
    var answered = false
    var testDescription: String { name }
  }

  static func repeated(_ text: String, _ count: Int) -> [UInt8] { Array(String(repeating: text, count: count).utf8) }

  static let cases: [Case] = [
    Case(name: "a tower of powers", line: Array("9^9^9".utf8), error: "≈ 4.281247732e369693099", answered: true),
    Case(name: "a huge exponent", line: Array("2^(10^10)".utf8), error: "≈ 4.363268635e3010299956", answered: true),
    Case(name: "just over the limit", line: Array("10^1000000".utf8), error: "≈ 1e1000000", answered: true),
    Case(name: "a huge factorial", line: Array("(10^7)!".utf8), error: "≈ 1.202423401e65657059", answered: true),
    Case(name: "300000!", line: Array("300000!".utf8), error: "≈ 1.477391532e1512851", answered: true),
    Case(
      name: "beyond even MPFR", line: Array("10^10^10^10".utf8),
      error: "1:3: error: the result is too large even to approximate"),
    Case(
      name: "below even MPFR", line: Array("2^-(10^30)".utf8),
      error: "1:2: error: the result is too small even to approximate"),
    Case(name: "a huge literal exponent", line: Array("1e1000001".utf8), error: "1:3: error: exponent too large"),
    Case(
      name: "100,000 nested parentheses", line: repeated("(", 100_000) + [49] + repeated(")", 100_000),
      error: "1:1: error: the line is too long (over the limit of 65,536 bytes); it is skipped to its end"),
    Case(
      name: "30,000 nested parentheses", line: repeated("(", 30_000) + [49] + repeated(")", 30_000),
      error: "1:1001: error: nested too deeply (more than 1000 levels)"),
    Case(
      name: "a 1 MiB line", line: repeated("1+", 1 << 19) + [49],
      error: "1:1: error: the line is too long (over the limit of 65,536 bytes)"),
    Case(
      name: "100,000 repeated operators", line: [49] + repeated("+", 100_000) + [49],
      error: "1:1: error: the line is too long"),
    Case(
      name: "60,000 repeated operators", line: [49] + repeated("+", 60_000) + [49],
      error: "1:1003: error: nested too deeply"),
    Case(name: "60,000 unary minuses", line: repeated("-", 60_000) + [49], error: "1:1001: error: nested too deeply"),
    Case(
      name: "60,000 factorial signs", line: [51] + repeated("!", 60_000),
      error: "1:1003: error: too many '!' and '%' in a row"),
    Case(
      name: "a number of 100,000 digits", line: repeated("7", 100_000),
      error: "1:1: error: the line is too long (over the limit of 65,536 bytes)"),
    Case(
      name: "a number of 60,000 digits to the 20th", line: repeated("7", 60_000) + Array("^20".utf8),
      error: "≈ 6.563124028e1199997", answered: true),
    Case(
      name: "a NUL byte", line: Array("1+".utf8) + [0] + Array("+2".utf8),
      error: "1:3: error: unexpected character U+0000"),
    Case(
      name: "invalid UTF-8", line: Array("1+".utf8) + [0xFF, 0xFE], error: "1:3: error: invalid UTF-8 in the input"),
    Case(
      name: "a control character", line: Array("1+".utf8) + [7] + Array(" 2".utf8),
      error: "1:3: error: unexpected character U+0007"),
    Case(
      name: "an escape sequence", line: [27] + Array("[31m1".utf8), error: "1:1: error: unexpected character U+001B"),
  ]

  @Test(arguments: cases)
  func aClearErrorInLittleMemory(_ hostile: Case) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("line").path
    try Data(hostile.line + [10]).write(to: URL(fileURLWithPath: file))
    let run = try Self.run([try ReckonBinary.release(), file], home: folder.path)
    if hostile.answered {
      #expect(run.status == 0)
      #expect(run.stdout == hostile.error + "\n")
      #expect(run.stderr.isEmpty, "\(run.stderr.prefix(300))")
    } else {
      #expect(run.status == 1)
      #expect(run.stdout.isEmpty)
      #expect(run.stderr.hasPrefix("reckon: \(file):\(hostile.error)"), "\(run.stderr.prefix(300))")
    }
    #expect(run.peakKilobytes < 200_000, "peak memory \(run.peakKilobytes) KB")
  }

  /// A 20 MB line on standard input is refused as soon as it passes the limit and the rest of
  /// it skipped, in memory bounded by the limit (the reader used to keep the whole line, and
  /// search it again after every read); the next line is answered as usual.
  @Test func aHugeLineIsSkippedInBoundedMemory() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("input").path
    try Data(Array(repeating: UInt8(ascii: "1"), count: 20_000_000) + Array("\n2+2\n".utf8)).write(
      to: URL(fileURLWithPath: input))
    let run = try Self.run([try ReckonBinary.release()], home: folder.path, input: input)
    #expect(run.status == 1)
    #expect(run.stdout == "4\n")
    #expect(
      run.stderr
        == "reckon: <stdin>:1:1: error: the line is too long (over the limit of 65,536 bytes); it is skipped to its end\n"
    )
    #expect(run.peakKilobytes < 20_000, "peak memory \(run.peakKilobytes) KB")
  }

  /// Input that never ends and has no line break (`reckon < /dev/zero`): one error at once,
  /// then constant memory, however long it runs (it is stopped after a second here).
  @Test func endlessInputWithoutALineBreakRunsInConstantMemory() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try Self.run([try ReckonBinary.release()], home: folder.path, input: "/dev/zero", killAfter: 1)
    #expect(run.status == -SIGKILL)
    #expect(
      run.stderr
        == "reckon: <stdin>:1:1: error: the line is too long (over the limit of 65,536 bytes); it is skipped to its end\n"
    )
    #expect(run.peakKilobytes < 20_000, "peak memory \(run.peakKilobytes) KB")
  }

  /// A file given to an importer, and what must be said about it.
  struct HostileFile: Sendable, CustomStringConvertible {
    let name: String
    let contents: @Sendable () -> [UInt8]
    /// The arguments after the binary, with FILE for the file's path.
    let arguments: [String]
    let error: String
    var description: String { name }
  }

  static let hostileFiles: [HostileFile] = [
    HostileFile(
      name: "20 MB of *", contents: { Array(repeating: UInt8(ascii: "*"), count: 20_000_000) },
      arguments: ["--questions", "FILE", "-e", "1"],
      error: "line 1: the row is longer than 65,536 bytes, the most a row may be, and was not read"),
    HostileFile(
      name: "20 MB of * lines", contents: { repeated("*\n", 10_000_000) },
      arguments: ["--questions", "FILE", "-e", "1"],
      error: "it has more than 1,000,000 fields (passed at line 500,001)"),
    HostileFile(
      name: "20 MB of CSV commas", contents: { repeated(",\n", 10_000_000) },
      arguments: ["--questions", "FILE", "-e", "1"], error: "it has more than 1,000,000 fields (passed at line 500,001)"
    ),
    HostileFile(
      name: "20 MB of Open Trivia DB results",
      contents: { Array("{\"results\": [0".utf8) + repeated(",0", 10_000_000) + Array("]}".utf8) },
      arguments: ["--questions", "FILE", "-e", "1"],
      error: "it holds more than 1,000,000 JSON values (passed at line 1)"),
    HostileFile(
      name: "a 20 MB JSON array as a personality quiz",
      contents: { Array("[0".utf8) + repeated(",0", 10_000_000) + Array("]".utf8) },
      arguments: ["-e", "personality load FILE"],
      error:
        "it is larger than 1 MiB (20,000,003 bytes): a personality quiz may be at most that, so none of it was read"),
    HostileFile(
      name: "a word list of one 20 MB line", contents: { Array(repeating: UInt8(ascii: "a"), count: 20_000_000) },
      arguments: ["--words", "FILE", "-e", "1"],
      error: "it has no words of lowercase a–z only; left out 1 line longer than 1,024 bytes (line 1)"),
    HostileFile(
      name: "a 40 MB word list", contents: { repeated("ab\n", 13_333_334) }, arguments: ["--words", "FILE", "-e", "1"],
      error: "it is larger than 32 MiB (40,000,002 bytes): a word list may be at most that, so none of it was read"),
    HostileFile(
      name: "a trivia file of one 20 MB line",
      contents: { Array("Science*easy*".utf8) + Array(repeating: UInt8(ascii: "x"), count: 20_000_000) },
      arguments: ["--questions", "FILE", "-e", "1"],
      error: "line 1: the row is longer than 65,536 bytes, the most a row may be, and was not read"),
  ]

  /// A file that cannot be read, given to each reader: an error naming it with the system's
  /// reason, and exit status 1 (`reckon /proc/self/mem` printed nothing and exited 0).
  @Test(arguments: [
    (["/proc/self/mem"], "reckon: /proc/self/mem: error: cannot read the file: input/output error\n"),
    (
      ["--words", "/proc/self/mem", "-e", "1"],
      "reckon: --words /proc/self/mem: error: cannot read it: input/output error\n"
    ),
    (
      ["--questions", "/proc/self/mem", "-e", "1"],
      "reckon: --questions /proc/self/mem: error: cannot read it: input/output error; nothing loaded\n"
    ),
    (["/"], "reckon: /: error: cannot read the file: it is a directory\n"),
  ])
  func aFileThatCannotBeReadIsAnError(_ arguments: [String], _ error: String) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try Self.run([try ReckonBinary.release()] + arguments, home: folder.path)
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == error)
  }

  /// Three million different short words load, every one of them, in bounded memory (they took
  /// 211 MB and 9.6 s; the time is `bench/hostile`'s to report).
  @Test func threeMillionWordsLoadInBoundedMemory() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("words").path
    var bytes: [UInt8] = []
    bytes.reserveCapacity(18_000_000)
    for i in 0..<3_000_000 {
      var n = i
      for _ in 0..<5 {
        bytes.append(UInt8(ascii: "a") + UInt8(n % 26))
        n /= 26
      }
      bytes.append(10)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    let run = try Self.run([try ReckonBinary.release(), "--words", file, "-e", "1"], home: folder.path)
    #expect(run.status == 0)
    #expect(run.stdout == "1\n")
    // Every word is kept but those on the blocked list (five-letter ones among them).
    #expect(run.stderr.hasPrefix("reckon: \(file): loaded 2,999,9"), "\(run.stderr.prefix(300))")
    #expect(run.stderr.contains("on the blocked list; playable: "), "\(run.stderr.prefix(300))")
    #expect(run.peakKilobytes < 200_000, "peak memory \(run.peakKilobytes) KB")
  }

  /// Files that took gigabytes to import (20 MB of `*` 1.13 GB, of `*` lines 2.5 GB, a JSON
  /// array through `personality load` 0.59 GB): each is refused, or its row skipped, with
  /// the reason, in under 200 MB.
  @Test(arguments: hostileFiles)
  func anImportOfAHostileFileStaysInBoundedMemory(_ hostile: HostileFile) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("file").path
    try Data(hostile.contents()).write(to: URL(fileURLWithPath: file))
    let arguments = hostile.arguments.map { $0.replacingOccurrences(of: "FILE", with: file) }
    let run = try Self.run([try ReckonBinary.release()] + arguments, home: folder.path)
    #expect(run.status == 1)
    #expect(run.stderr.contains(hostile.error), "\(run.stderr.prefix(300))")
    #expect(run.peakKilobytes < 200_000, "peak memory \(run.peakKilobytes) KB")
  }

  struct Run {
    let status: Int32
    let stdout: String
    let stderr: String
    let peakKilobytes: Int
  }

  /// Runs a program to its end and reads its peak resident memory from `wait4`.
  /// Runs a program to its end, with standard input from `input`, and measures its peak
  /// resident memory; with `killAfter`, it is killed after that many seconds if still running.
  ///
  /// The program is started by a small Python process that forks it and reads `wait4`:
  /// started straight from this test process (posix_spawn's vfork), its peak would count the
  /// test process's own memory, since Linux carries a process's peak across `exec`.
  static func run(_ arguments: [String], home: String, input: String = "/dev/null", killAfter: Double? = nil) throws
    -> Run
  {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-out-\(UUID().uuidString)").path
    let err = out + ".err"
    let peak = out + ".peak"
    defer { for file in [out, err, peak] { unlink(file) } }
    let launcher = """
      import os, sys, signal, time
      peak, kill_after, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
      pid = os.fork()
      if pid == 0:
          os.execve(argv[0], argv, os.environ)
      if kill_after > 0:
          deadline = time.monotonic() + kill_after
          while os.waitpid(pid, os.WNOHANG) == (0, 0) and time.monotonic() < deadline:
              time.sleep(0.01)
          try:
              os.kill(pid, signal.SIGKILL)
          except ProcessLookupError:
              pass
      _, status, usage = os.wait4(pid, 0)
      open(peak, "w").write(f"{usage.ru_maxrss} {status}")
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", launcher, peak, String(killAfter ?? 0)] + arguments
    process.environment = ["RECKON_HOME": home, "HOME": home, "TERM": "dumb", "PATH": "/usr/bin:/bin"]
    process.standardInput = FileHandle(forReadingAtPath: input)
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    _ = FileManager.default.createFile(atPath: err, contents: nil)
    process.standardOutput = FileHandle(forWritingAtPath: out)
    process.standardError = FileHandle(forWritingAtPath: err)
    try process.run()
    process.waitUntilExit()
    let figures = ((try? String(contentsOfFile: peak, encoding: .utf8)) ?? "").split(separator: " ").compactMap {
      Int32($0)
    }
    guard figures.count == 2 else { throw ReckonBinary.Missing(description: "the launcher failed: \(arguments)") }
    let status = figures[1]
    let exited = status & 0x7f == 0
    return Run(
      status: exited ? (status >> 8) & 0xff : -(status & 0x7f),
      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
      peakKilobytes: Int(figures[0]))
  }
}
