import Glibc
import LineEditor

/// Reads lines from a file descriptor in 64 KiB chunks: far cheaper per line than
/// `readLine()` for large batches. Strips "\n" and "\r\n"; invalid UTF-8 becomes U+FFFD,
/// which the lexer reports with its column (in a Latin-1 locale the line is read as Latin-1).
///
/// A line longer than `limit` bytes is refused as soon as it passes the limit: `next()`
/// says so at once, and the rest of the line is read and dropped up to its line break. So
/// the buffer never holds more than the limit and one chunk, and each byte is looked at once:
/// `reckon < /dev/zero` runs in constant memory (it used to keep the whole line and search
/// it again after every read).
struct LineReader {
  /// What the next line of input is.
  enum Input: Equatable {
    case line(String)
    /// A line over the limit: it is skipped, up to its line break.
    case tooLong
  }

  let fd: Int32
  let limit: Int
  private var buffer: [UInt8] = []
  private var start = 0
  /// Where the search for the next line break goes on from: bytes before it have been looked at.
  private var scanned = 0
  private var atEnd = false
  /// Inside a line that was refused: its bytes are dropped up to the next line break.
  private var skipping = false

  static let chunk = 1 << 16

  init(fd: Int32, limit: Int) {
    self.fd = fd
    self.limit = limit
    buffer.reserveCapacity(min(limit, 1 << 20) + Self.chunk + 1)
  }

  mutating func next() -> Input? {
    while true {
      if let newline = buffer[scanned...].firstIndex(of: 10) {
        defer { (start, scanned) = (newline + 1, newline + 1) }
        if skipping {
          skipping = false
          continue
        }
        let bytes = buffer[start..<newline]
        return Self.length(bytes) > limit ? .tooLong : .line(Self.text(bytes))
      }
      if skipping {
        (start, scanned) = (buffer.count, buffer.count)
      } else {
        scanned = buffer.count
        if Self.length(buffer[start...]) > limit + 1 {  // + 1: it may still end with "\r"
          skipping = true
          (start, scanned) = (buffer.count, buffer.count)
          return .tooLong
        }
      }
      if atEnd {
        guard start < buffer.count, !skipping else { return nil }
        let bytes = buffer[start...]
        (start, scanned) = (buffer.count, buffer.count)
        return Self.length(bytes) > limit ? .tooLong : .line(Self.text(bytes))
      }
      fill()
    }
  }

  /// A line's length without its "\r".
  private static func length(_ bytes: ArraySlice<UInt8>) -> Int {
    bytes.count - (bytes.last == 13 ? 1 : 0)
  }

  /// Reads more input, keeping the unfinished line at the front of the buffer.
  private mutating func fill() {
    buffer.removeSubrange(0..<start)
    scanned -= start
    start = 0
    let old = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: Self.chunk))
    var n: Int
    repeat {
      n = buffer[old...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    } while n < 0 && errno == EINTR
    buffer.removeSubrange((old + max(n, 0))...)
    if n <= 0 { atEnd = true }
  }

  private static func text(_ bytes: ArraySlice<UInt8>) -> String {
    let trimmed = bytes.last == 13 ? bytes.dropLast() : bytes
    // In a Latin-1 locale a line that is not UTF-8 is taken as Latin-1 (a file written there).
    if OutputStream.encodesLatin1 && trimmed.contains(where: { $0 >= 0x80 }),
      String(validating: trimmed, as: UTF8.self) == nil
    {
      return Latin1.decode(trimmed)
    }
    return String(decoding: trimmed, as: UTF8.self)
  }
}
