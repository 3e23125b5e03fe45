import Glibc
import LineEditor
import ReckonSession

/// Reads lines from a file descriptor through `TextLines` (64 KiB chunks: far cheaper per
/// line than `readLine()` for large batches). Strips "\n" and "\r\n"; invalid UTF-8 becomes
/// U+FFFD, which the lexer reports with its column (in a Latin-1 locale the line is read as
/// Latin-1).
///
/// A line longer than `limit` bytes is refused as soon as it passes the limit: `next()`
/// says so at once, and the rest of the line is read and dropped up to its line break. So
/// the buffer never holds more than the limit and one chunk, and each byte is looked at once:
/// `reckon < /dev/zero` runs in constant memory (it used to keep the whole line and search
/// it again after every read). A read that fails (`reckon /proc/self/mem`: EIO) is said, with
/// the system's reason, instead of passing for the end of the file.
struct LineReader {
  /// What the next line of input is.
  enum Input: Equatable {
    case line(String)
    /// A line over the limit: it is skipped, up to its line break.
    case tooLong
    /// Reading failed: the system's reason (`input/output error`); nothing more is read.
    case failed(String)
  }

  private var lines: TextLines
  private var failed = false

  init(fd: Int32, limit: Int) {
    lines = TextLines(FileStream(fd: fd, knownSize: nil, closes: false), lineLimit: limit, dropsByteOrderMark: false)
  }

  mutating func next() -> Input? {
    guard !failed else { return nil }
    do {
      switch try lines.next() {
      case .text(let bytes)?: return .line(Self.text(bytes))
      case .tooLong?: return .tooLong
      case nil: return nil
      }
    } catch {
      failed = true
      guard case .unreadable(let problem, _) = error else { return .failed(error.message("a file")) }
      return .failed(problem.message)
    }
  }

  private static func text(_ bytes: ArraySlice<UInt8>) -> String {
    // In a Latin-1 locale a line that is not UTF-8 is taken as Latin-1 (a file written there).
    if OutputStream.encodesLatin1 && bytes.contains(where: { $0 >= 0x80 }),
      String(validating: bytes, as: UTF8.self) == nil
    {
      return Latin1.decode(bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
