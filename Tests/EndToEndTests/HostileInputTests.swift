import Foundation
import Glibc
import Testing

/// Inputs meant to hurt, each through the release binary: every one is answered with a clear
/// error (its message and column), the process exits 1 rather than crashing, and its peak
/// memory stays under 200 MB. How long each takes is a measurement, not a test: `bench/hostile`
/// prints it for the same table (all well under 100 ms).
@Suite struct HostileInputTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let line: [UInt8]
    /// The start of what stderr must say, after "reckon: FILE:".
    let error: String
    var testDescription: String { name }
  }

  static func repeated(_ text: String, _ count: Int) -> [UInt8] { Array(String(repeating: text, count: count).utf8) }

  static let cases: [Case] = [
    Case(
      name: "a tower of powers", line: Array("9^9^9".utf8),
      error: "1:2: error: the result would have more than 100,000 digits"),
    Case(
      name: "a huge exponent", line: Array("2^(10^10)".utf8),
      error: "1:2: error: the result would have more than 100,000 digits"),
    Case(
      name: "just over the limit", line: Array("10^100000".utf8),
      error: "1:3: error: the result would have more than 100,000 digits"),
    Case(
      name: "a huge factorial", line: Array("(10^7)!".utf8),
      error: "1:7: error: the result would have more than 100,000 digits"),
    Case(
      name: "30000!", line: Array("30000!".utf8), error: "1:6: error: the result would have more than 100,000 digits"),
    Case(name: "a huge literal exponent", line: Array("1e100001".utf8), error: "1:3: error: exponent too large"),
    Case(
      name: "100,000 nested parentheses", line: repeated("(", 100_000) + [49] + repeated(")", 100_000),
      error: "1:1: error: the line is too long (200001 bytes; the limit is 65536)"),
    Case(
      name: "30,000 nested parentheses", line: repeated("(", 30_000) + [49] + repeated(")", 30_000),
      error: "1:1001: error: nested too deeply (more than 1000 levels)"),
    Case(
      name: "a 1 MiB line", line: repeated("1+", 1 << 19) + [49],
      error: "1:1: error: the line is too long (1048577 bytes"),
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
      error: "1:1: error: the line is too long (100000 bytes"),
    Case(
      name: "a number of 60,000 digits squared", line: repeated("7", 60_000) + Array("^2".utf8),
      error: "1:60001: error: the result would have more than 100,000 digits"),
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
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("reckon: \(file):\(hostile.error)"), "\(run.stderr.prefix(300))")
    #expect(run.peakKilobytes < 200_000, "peak memory \(run.peakKilobytes) KB")
  }

  struct Run {
    let status: Int32
    let stdout: String
    let stderr: String
    let peakKilobytes: Int
  }

  /// Runs a program to its end and reads its peak resident memory from `wait4`.
  static func run(_ arguments: [String], home: String) throws -> Run {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-out-\(UUID().uuidString)").path
    let err = out + ".err"
    defer {
      unlink(out)
      unlink(err)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let environment = ["RECKON_HOME=\(home)", "HOME=\(home)", "TERM=dumb", "PATH=/usr/bin:/bin"]
    var argv = arguments.map { strdup($0) } + [nil]
    var envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp)
    guard spawned == 0 else { throw ReckonBinary.Missing(description: "posix_spawn failed: \(spawned)") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let exited = status & 0x7f == 0
    return Run(
      status: exited ? (status >> 8) & 0xff : -(status & 0x7f),
      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
      peakKilobytes: usage.ru_maxrss)
  }
}
