import Glibc
import LineEditor

/// What the process is connected to, decided once at start-up.
struct Terminal {
  let stdinIsTTY = isatty(0) == 1
  let stdoutIsTTY = isatty(1) == 1
  let stderrIsTTY = isatty(2) == 1
  let colour: Bool
  let errorColour: Bool
  /// Whether stdout is a terminal that takes escape codes (clearing the screen, say): not
  /// TERM=dumb or unset. NO_COLOR turns off colour only.
  let takesEscapes: Bool

  init(environment: (String) -> String? = Terminal.variable) {
    let allowed = environment("NO_COLOR").map { $0.isEmpty } ?? true
    let capable = environment("TERM").map { $0 != "dumb" && !$0.isEmpty } ?? false
    colour = allowed && capable && stdoutIsTTY
    errorColour = allowed && capable && stderrIsTTY
    takesEscapes = capable && stdoutIsTTY
  }

  var interactive: Bool { stdinIsTTY && stdoutIsTTY }

  /// One environment variable (getenv: building ProcessInfo's whole dictionary costs more
  /// at start-up than everything else Reckon does for `-e 1+1`).
  static func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// Whether the terminal shows a Ctrl-C typed while Reckon works as `^C` (ECHOCTL, on by
  /// default): the answer that follows then starts on a line of its own.
  static var echoesControlCharacters: Bool {
    var settings = termios()
    return tcgetattr(0, &settings) == 0 && settings.c_lflag & tcflag_t(ECHOCTL) != 0
  }

  /// The width of the terminal, or 80.
  var columns: Int {
    var size = winsize()
    if ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 { return Int(size.ws_col) }
    return 80
  }
}

/// Buffered writes to a file descriptor: one system call per flush, not per line.
struct OutputStream {
  /// Set once at start-up when the locale is Latin-1 (ISO-8859-1 or -15): output is then
  /// written in Latin-1, with ASCII for what Latin-1 lacks (`Latin1.encode`).
  nonisolated(unsafe) static var encodesLatin1 = false

  let fd: Int32
  private(set) var buffer: [UInt8] = []
  /// Why writing failed (a closed stream, a full disk), if it did; later output is dropped.
  private(set) var failure: String?
  /// Asked between pieces of a long write (at the prompt: whether Ctrl-C was pressed): true
  /// drops the rest of the reply being written, until `resume()`. A million digits take a
  /// terminal a second or more to show, and Ctrl-C used to wait for all of them.
  var stopRequested: (() -> Bool)?
  /// Whether the reply being written was stopped: the rest of it is dropped.
  private(set) var stopped = false
  /// The most written at once while a stop may come.
  static let pieceBytes = 16 << 10

  init(fd: Int32) {
    self.fd = fd
    buffer.reserveCapacity(1 << 16)
  }

  /// The escape codes Reckon sends that are not a style.
  enum Code: String {
    /// Home, clear the screen, and the scrollback too (3J).
    case clearScreen = "\u{1B}[H\u{1B}[2J\u{1B}[3J"
  }

  /// Writes text, its control characters shown visibly (`VisibleText`): whatever it holds,
  /// it cannot act on the terminal.
  mutating func write(_ text: String) {
    append(VisibleText.escaped(text))
  }

  /// Writes text with its styles as escape codes, the text made visible as above.
  mutating func write(_ text: Painted) {
    append(text.terminalText)
  }

  mutating func write(_ code: Code) {
    append(code.rawValue)
  }

  mutating func line(_ text: String) {
    write(text)
    buffer.append(10)
  }

  mutating func line(_ text: Painted) {
    write(text)
    buffer.append(10)
  }

  /// Writes again after a reply that was stopped: called before each reply.
  mutating func resume() { stopped = false }

  private mutating func append(_ text: String) {
    if stopped { return }
    if OutputStream.encodesLatin1 {
      buffer.append(contentsOf: Latin1.encode(text))
    } else {
      buffer.append(contentsOf: text.utf8)
    }
    if buffer.count >= 1 << 16 { flush() }
  }

  mutating func flush() {
    var offset = 0
    while offset < buffer.count {
      if let stopRequested, offset > 0, stopRequested() {
        stopped = true
        let notice = Array("\n^C: the rest of this output is not shown\n".utf8)
        _ = notice.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        break
      }
      let piece = stopRequested == nil ? buffer.count - offset : min(buffer.count - offset, OutputStream.pieceBytes)
      let n = buffer[offset..<(offset + piece)].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        if failure == nil { failure = String(cString: strerror(errno)) }
        break  // a closed stream or a full disk: nothing more can be shown
      }
      offset += n
    }
    buffer.removeAll(keepingCapacity: true)
  }
}

extension Terminal {
  /// Whether the locale's character set is Latin-1. The environment is looked at first, so
  /// that the usual UTF-8 or C locale costs no `setlocale` at start-up.
  static func localeIsLatin1(environment: (String) -> String? = Terminal.variable) -> Bool {
    // Plain loops over bytes: String's contains(_:) pulls in generic string processing whose
    // first use cost about 0.07 ms of start-up.
    var name = ""
    for variable in ["LC_ALL", "LC_CTYPE", "LANG"] {
      if let value = environment(variable), !value.isEmpty {
        name = value
        break
      }
    }
    let lower = name.utf8.map { $0 | 0x20 }  // ASCII lower case (what matters here)
    let namesUTF8 = lower.indices.dropLast(2).contains {
      lower[$0] == UInt8(ascii: "u") && lower[$0 + 1] == UInt8(ascii: "t") && lower[$0 + 2] == UInt8(ascii: "f")
    }
    guard !name.isEmpty, !namesUTF8, name != "C", name != "POSIX" else { return false }
    guard setlocale(LC_CTYPE, "") != nil, let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
    let set = String(cString: codeset)
    return set == "ISO-8859-1" || set == "ISO-8859-15"
  }
}
