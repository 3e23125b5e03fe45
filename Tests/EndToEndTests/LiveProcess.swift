import Foundation

/// `reckon` running with pipes for stdin and stdout, driven a line at a time: a script
/// answering a drill, and waiting to see each answer acknowledged before the next.
final class LiveProcess: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let lock = NSLock()
  private var received = Data()
  private var consumed = 0

  init(executable: String, arguments: [String], environment: [String: String]) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self, !data.isEmpty else { return }
      self.lock.lock()
      self.received.append(data)
      self.lock.unlock()
    }
    try process.run()
  }

  deinit {
    output.fileHandleForReading.readabilityHandler = nil
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  func send(_ line: String) throws {
    try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  /// Waits until a whole line matching `pattern` has arrived after everything read so far,
  /// and returns it (the lines before it are passed over).
  @discardableResult
  func expectLine(matching pattern: Regex<Substring>, timeout: Double = 60) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      lock.lock()
      let text = String(decoding: received[consumed...], as: UTF8.self)
      lock.unlock()
      var offset = 0
      for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        offset += line.utf8.count + 1
        if line.wholeMatch(of: pattern) != nil {
          lock.lock()
          consumed += offset
          lock.unlock()
          return String(line)
        }
      }
      usleep(2000)
    }
    lock.lock()
    let seen = String(decoding: received, as: UTF8.self)
    lock.unlock()
    throw Failure(description: "no line matching the pattern within \(timeout) s; output so far:\n\(seen)")
  }

  /// Kills the process with SIGKILL: no clean-up, no flushing, as a power cut would.
  func killNow() {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}
