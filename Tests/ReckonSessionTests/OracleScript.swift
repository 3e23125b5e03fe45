import Foundation
import Testing

/// Runs one of scripts/'s Python oracles (standard library only) for a test (`python3` is
/// found with `Executables.find`).
enum DifferentialSupport {
  /// Runs `scripts/NAME` with `python`, `input` on its standard input, and returns what it
  /// printed; a failure stops the test with what the script wrote on its error stream.
  static func runScript(_ name: String, _ arguments: [String], input: String, python: URL) throws -> String {
    let process = Process()
    process.executableURL = python
    process.arguments = [FSRSTests.root.appendingPathComponent("scripts/\(name)").path] + arguments
    let (stdin, output, errors) = (Pipe(), Pipe(), Pipe())
    process.standardInput = stdin
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Written from another thread: the script's output could fill its pipe first.
    let writer = Thread {
      stdin.fileHandleForWriting.write(Data(input.utf8))
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "scripts/\(name) failed:\n\(errorText)")
    return String(decoding: data, as: UTF8.self)
  }
}
