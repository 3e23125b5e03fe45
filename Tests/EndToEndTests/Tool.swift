import Foundation

/// Other programs the packaging tests run (make, bash, scdoc, dpkg-deb, lintian…): found on
/// PATH, run to the end with their output captured.
enum Tool {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  struct Run {
    let status: Int32
    let stdout: String
    let stderr: String

    /// stdout's lines, without the last line break.
    var lines: [String] {
      stdout.isEmpty ? [] : stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
  }

  /// Where `name` is on PATH, or nil when it is not installed.
  static func path(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs `name arguments…` (found on PATH) and waits for it, at most `timeout` seconds.
  /// - Parameters:
  ///   - environment: added to this process's environment, or replacing its variables.
  ///   - directory: the working folder (the package's root by default).
  static func run(
    _ name: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
    timeout: Double = 120
  ) throws -> Run {
    guard let executable = name.contains("/") ? name : path(name) else {
      throw Failure(description: "\(name) is not installed")
    }
    let scratch = try TemporaryFolder()
    defer { scratch.remove() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    process.currentDirectoryURL = URL(fileURLWithPath: directory ?? ReckonBinary.packageRoot)
    // Output to files: no pipe can fill up and stall the child.
    let stdoutPath = scratch.path + "/stdout"
    let stderrPath = scratch.path + "/stderr"
    _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    let stdoutHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
    let stderrHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
    defer {
      try? stdoutHandle.close()
      try? stderrHandle.close()
    }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdoutHandle
    process.standardError = stderrHandle
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    if finished.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      finished.wait()
      throw Failure(description: "\(name) \(arguments) did not finish within \(timeout) s")
    }
    return Run(
      status: process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: stdoutPath)), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: stderrPath)), as: UTF8.self))
  }

  /// Runs it and insists on status 0; returns stdout.
  @discardableResult
  static func succeed(
    _ name: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
    timeout: Double = 120
  ) throws -> String {
    let run = try run(name, arguments, environment: environment, directory: directory, timeout: timeout)
    guard run.status == 0 else {
      throw Failure(description: "\(name) \(arguments) failed with status \(run.status):\n\(run.stderr)\(run.stdout)")
    }
    return run.stdout
  }
}
