import Glibc

/// Runs an executable on a new pseudo-terminal, for end-to-end tests of
/// interactive behaviour.
///
/// The child gets a new session (`POSIX_SPAWN_SETSID`) and opens the terminal
/// as fds 0, 1 and 2, so it becomes the child's controlling terminal: a Ctrl-C
/// byte (0x03) written with ``send(_:)`` makes the kernel send SIGINT to the
/// child. Signal dispositions and the signal mask are reset to defaults.
///
/// Not thread-safe: use one instance from one task.
final class PseudoTerminal {
  /// A test failure with what the terminal showed so far.
  struct Failure: Error, CustomStringConvertible {
    /// What went wrong.
    let message: String
    /// Everything read from the terminal, ANSI sequences removed.
    let output: String

    var description: String { "\(message)\n--- terminal output ---\n\(output)\n---" }
  }

  /// How the child ended.
  enum Termination: Equatable, Sendable {
    /// exit(status).
    case exited(Int32)
    /// Killed by this signal.
    case signaled(Int32)
  }

  /// Keys, as the bytes a terminal sends.
  enum Key {
    static let enter = "\r"
    static let tab = "\t"
    static let ctrlC = "\u{03}"
    static let ctrlD = "\u{04}"
    static let up = "\u{1B}[A"
    static let down = "\u{1B}[B"
  }

  /// The child's process id.
  let pid: pid_t
  private let master: Int32
  private let slave: Int32
  private var raw: [UInt8] = []
  /// How many UTF-8 bytes of ``output`` earlier ``expect(_:timeout:)`` calls consumed.
  private var consumed = 0
  private var termination: Termination?
  private var isClosed = false

  /// Everything read so far, with ANSI escape sequences and `\r` removed.
  var output: String { Self.stripANSI(String(decoding: raw, as: UTF8.self)) }
  /// Everything the program wrote, escape sequences included.
  var rawOutput: String { String(decoding: raw, as: UTF8.self) }

  /// Starts `executable` on a new terminal of `columns` × `rows`.
  /// - Parameter environment: the child's whole environment ("NAME" → value).
  init(
    executable: String, arguments: [String] = [], environment: [String: String],
    columns: UInt16 = 80, rows: UInt16 = 24
  ) throws {
    var master: Int32 = -1
    var slave: Int32 = -1
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    // openpty = posix_openpt + grantpt + unlockpt + open(ptsname) + TIOCSWINSZ;
    // Swift's Glibc module does not import the posix_openpt family.
    guard openpty(&master, &slave, nil, nil, &size) == 0 else {
      throw Self.systemFailure("openpty")
    }
    // The parent keeps the slave open too, so that reading the master never
    // fails with EIO before the child has opened the terminal.
    _ = fcntl(master, F_SETFD, FD_CLOEXEC)
    _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
    var nameBuffer = [CChar](repeating: 0, count: 4096)
    guard ttyname_r(slave, &nameBuffer, nameBuffer.count) == 0 else {
      let failure = Self.systemFailure("ttyname_r")
      Glibc.close(master)
      Glibc.close(slave)
      throw failure
    }
    let slavePath = String(decoding: nameBuffer.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // glibc calls setsid() before the file actions, so opening the terminal
    // makes it the controlling terminal. 0x80 is glibc's POSIX_SPAWN_SETSID,
    // which Swift does not import (it needs _GNU_SOURCE).
    let setsid: Int32 = 0x80
    posix_spawnattr_setflags(
      &attributes, Int16(setsid | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    guard status == 0 else {
      Glibc.close(master)
      Glibc.close(slave)
      throw Failure(
        message: "posix_spawn \(executable): \(String(cString: strerror(status)))", output: "")
    }
    self.pid = child
    self.master = master
    self.slave = slave
  }

  deinit {
    close()
  }

  /// Types `text` (use ``Key`` for special keys), once the program is ready for keys.
  func send(_ text: String) throws {
    waitForLineEditing()
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw Failure(message: "write to terminal failed: \(String(cString: strerror(errno)))", output: output)
      }
      bytes = bytes.dropFirst(written)
    }
  }

  /// Types a long `text` (a line of 70,000 characters), reading what the terminal echoes
  /// meanwhile: `send` would stall once the terminal's buffers are full.
  func sendLong(_ text: String) throws {
    waitForLineEditing()
    var bytes = Array(text.utf8)[...]
    let deadline = Self.now() + 30
    while !bytes.isEmpty {
      guard Self.now() < deadline else { throw Failure(message: "typing a long text timed out", output: output) }
      var descriptor = pollfd(fd: master, events: Int16(POLLIN | POLLOUT), revents: 0)
      guard poll(&descriptor, 1, 100) > 0 else { continue }
      if descriptor.revents & Int16(POLLIN) != 0 { _ = readAvailable(waitingUpTo: 0) }
      if descriptor.revents & Int16(POLLOUT) != 0 {
        let written = bytes.prefix(256).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        if written > 0 { bytes = bytes.dropFirst(written) }
      }
    }
  }

  /// How long a wait for output or an exit may take before it counts as a hang.
  static let hangBound: Double = 60

  /// Sends `text` as soon as the line editor has given back the keyboard after a line, that
  /// is while the line is being worked on (a Ctrl-C for a long calculation): not, as `send`
  /// does, once it takes the keyboard again.
  func sendWhileWorking(_ text: String) throws {
    let deadline = Self.now() + 5
    var modes = termios()
    while Self.now() < deadline {
      if tcgetattr(master, &modes) == 0 && modes.c_lflag & tcflag_t(ICANON) != 0 { break }
      _ = readAvailable(waitingUpTo: 0.005)
    }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Waits (up to 2 s) until the terminal is out of canonical mode, that is until the line
  /// editor has taken the keyboard. Keys typed earlier would be echoed by the kernel instead
  /// (a Tab as a literal tab), as typing ahead does for a person. On Linux, `tcgetattr` on
  /// the master side reports the slave's modes.
  func waitForLineEditing() {
    let deadline = Self.now() + 2
    var modes = termios()
    while Self.now() < deadline {
      if tcgetattr(master, &modes) == 0 && modes.c_lflag & tcflag_t(ICANON) == 0 { return }
      _ = readAvailable(waitingUpTo: 0.005)
    }
  }

  /// Reads until `expected` appears in the output (ANSI sequences and `\r`
  /// removed) after what earlier calls consumed, then returns that output up
  /// to and including `expected`. Throws ``Failure`` after `timeout` seconds: a bound for a
  /// hang, not a budget (a loaded machine may take seconds where an idle one takes
  /// milliseconds, and a test must pass on both).
  @discardableResult
  func expect(_ expected: String, timeout: Double = PseudoTerminal.hangBound) throws -> String {
    let deadline = Self.now() + timeout
    while true {
      let text = output
      let bytes = Array(text.utf8)
      if let end = Self.endOfFirstMatch(of: Array(expected.utf8), in: bytes, from: consumed) {
        let result = String(decoding: bytes[consumed..<end], as: UTF8.self)
        consumed = end
        return result
      }
      let remaining = deadline - Self.now()
      guard remaining > 0, readAvailable(waitingUpTo: remaining) else {
        throw Failure(
          message: "timed out after \(timeout) s waiting for \(String(reflecting: expected))",
          output: text)
      }
    }
  }

  /// Waits for the child to exit (reading its output meanwhile); after
  /// `timeout` seconds kills it and throws.
  func waitForExit(timeout: Double = PseudoTerminal.hangBound) throws -> Termination {
    let deadline = Self.now() + timeout
    while true {
      if let termination = reap(blocking: false) { return termination }
      guard Self.now() < deadline else {
        kill(pid, SIGKILL)
        _ = reap(blocking: true)
        throw Failure(message: "process did not exit within \(timeout) s", output: output)
      }
      if !readAvailable(waitingUpTo: 0.05) {
        usleep(10_000)
      }
    }
  }

  /// Kills the child if it still runs, reaps it and closes the terminal.
  func close() {
    if termination == nil {
      if reap(blocking: false) == nil {
        kill(pid, SIGKILL)
        _ = reap(blocking: true)
      }
    }
    if !isClosed {
      isClosed = true
      Glibc.close(slave)
      Glibc.close(master)
    }
  }

  /// Removes ANSI escape sequences (CSI, OSC, two-character), BEL and `\r`.
  static func stripANSI(_ text: String) -> String {
    var output = ""
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\u{1B}":
        guard let next = scalars.popFirst() else { break }
        if next == "[" {
          while let part = scalars.popFirst(), !(0x40...0x7E).contains(part.value) {}
        } else if next == "]" {
          while let part = scalars.popFirst(), part != "\u{07}" {
            if part == "\u{1B}" {
              _ = scalars.popFirst()
              break
            }
          }
        }
      case "\r", "\u{07}":
        break
      default:
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  // MARK: - Private

  /// Waits up to `seconds` for output and appends it; false on timeout or
  /// when the terminal is closed.
  private func readAvailable(waitingUpTo seconds: Double) -> Bool {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, Int32(max(0, min(seconds, 3600)) * 1000))
    if ready < 0 && errno == EINTR { return true }
    guard ready > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(master, &buffer, buffer.count)
    guard count > 0 else { return false }
    raw += buffer[..<count]
    return true
  }

  /// The index just past the first occurrence of `needle` in `haystack` at or
  /// after `start`.
  private static func endOfFirstMatch(of needle: [UInt8], in haystack: [UInt8], from start: Int)
    -> Int?
  {
    guard !needle.isEmpty else { return start }
    var index = start
    while index + needle.count <= haystack.count {
      if haystack[index..<index + needle.count].elementsEqual(needle) {
        return index + needle.count
      }
      index += 1
    }
    return nil
  }

  private func reap(blocking: Bool) -> Termination? {
    if let termination { return termination }
    var status: Int32 = 0
    let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
    guard result == pid else { return nil }
    let signal = status & 0x7F
    termination = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    return termination
  }

  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  private static func systemFailure(_ call: String) -> Failure {
    Failure(message: "\(call): \(String(cString: strerror(errno)))", output: "")
  }
}
