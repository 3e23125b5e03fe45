import Glibc
import LineEditor

/// Reads lines from a file descriptor in 64 KiB chunks: far cheaper per line than
/// `readLine()` for large batches. Strips "\n" and "\r\n"; invalid UTF-8 becomes U+FFFD,
/// which the lexer reports with its column (in a Latin-1 locale the line is read as Latin-1).
struct LineReader {
  let fd: Int32
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false

  init(fd: Int32) {
    self.fd = fd
    buffer.reserveCapacity(1 << 16)
  }

  mutating func next() -> String? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 10) {
        let line = Self.text(buffer[start..<newline])
        start = newline + 1
        return line
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        let line = Self.text(buffer[start...])
        start = buffer.count
        return line
      }
      fill()
    }
  }

  /// Reads more input, keeping the unfinished line at the front of the buffer.
  private mutating func fill() {
    buffer.removeSubrange(0..<start)
    start = 0
    let old = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: 1 << 16))
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
