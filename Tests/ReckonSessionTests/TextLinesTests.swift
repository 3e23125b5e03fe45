import Testing

@testable import ReckonSession

/// Files read a line at a time: how each line comes out, a line over the limit refused as it
/// passes it, the budget, and a read that fails.
@Suite struct TextLinesTests {
  static func lines(_ bytes: [UInt8], limit: Int = 10, budget: Int = .max, chunk: Int? = nil) throws -> [String] {
    var lines =
      chunk.map { TextLines(TrickleStream(bytes, chunk: $0), lineLimit: limit, budget: budget) }
      ?? TextLines(bytes: bytes, lineLimit: limit, budget: budget)
    var read: [String] = []
    while let line = try lines.next() {
      switch line {
      case .text(let text): read.append("\(lines.number):" + String(decoding: text, as: UTF8.self))
      case .tooLong: read.append("\(lines.number):too long")
      }
    }
    return read
  }

  /// LF and CRLF end a line (a lone CR is kept), the last line needs no line break, a
  /// byte-order mark is not part of the first line, and a line over the limit is one line,
  /// however it arrives.
  @Test(arguments: [nil, 1, 3, 7])
  func linesComeOutWithoutTheirBreaks(_ chunk: Int?) throws {
    let bytes = [0xEF, 0xBB, 0xBF] + Array("one\r\ntwo\rx\n\n0123456789\r\n0123456789A\nlast".utf8)
    #expect(
      try Self.lines(bytes, chunk: chunk) == [
        "1:one", "2:two\rx", "3:", "4:0123456789", "5:too long", "6:last",
      ])
  }

  /// A line that never ends is refused once, as soon as it passes the limit, and what follows
  /// its line break is read as usual.
  @Test func anEndlessLineIsRefusedOnce() throws {
    let bytes = Array(repeating: UInt8(ascii: "1"), count: 300_000) + Array("\n2+2\n".utf8)
    #expect(try Self.lines(bytes, limit: 100) == ["1:too long", "2:2+2"])
    #expect(try Self.lines(Array(repeating: 0x31, count: 300_000), limit: 100) == ["1:too long"])
  }

  /// A file whose size says it is over the budget is not read at all; one that does not say
  /// (a pipe, a file of /proc) is read up to the budget, and the failure says how far.
  @Test func theBudgetIsKeptWhetherTheSizeIsKnownOrNot() throws {
    let bytes = Array(String(repeating: "abc\n", count: 100).utf8)
    #expect(throws: TextLines.Failure.tooLarge(size: 400, budget: 399)) { try Self.lines(bytes, budget: 399) }
    #expect(throws: TextLines.Failure.overBudget(read: 14, line: 4, budget: 10)) {
      try Self.lines(bytes, budget: 10, chunk: 7)
    }
    #expect(try Self.lines(bytes, budget: 400, chunk: 7).count == 100)
    #expect(
      TextLines.Failure.overBudget(read: 33_554_440, line: 7, budget: 32 << 20).message("a word list")
        == "it is larger than 32 MiB, the most a word list may be: reading stopped after 33,554,440 bytes, in line 7")
  }

  /// A read that fails is an error with the system's reason, not the end of the file.
  @Test func aFailedReadIsNotTheEnd() throws {
    var lines = TextLines(try FailingFiles(after: 10).open("any"), lineLimit: 100)
    #expect(throws: TextLines.Failure.unreadable(FileError("input/output error"), read: 0)) { try lines.next() }
  }

  /// The blank lines before the first byte that is not blank are passed over and counted, so
  /// JSON read whole after them keeps its line numbers.
  @Test func theFirstByteThatIsNotBlank() throws {
    var lines = TextLines(bytes: Array(" \r\n\t\n  {\"a\": 1}\n".utf8), lineLimit: 100)
    #expect(try lines.firstNonBlank() == UInt8(ascii: "{"))
    #expect(try lines.rest() == Array("\n\n  {\"a\": 1}\n".utf8))
  }
}

/// Bytes handed over a few at a time, as a pipe does.
final class TrickleStream: ByteStream {
  let bytes: [UInt8]
  let chunk: Int
  var offset = 0

  init(_ bytes: [UInt8], chunk: Int) {
    self.bytes = bytes
    self.chunk = chunk
  }

  var knownSize: Int? { nil }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
    let count = min(chunk, buffer.count, bytes.count - offset)
    for i in 0..<count { buffer[i] = bytes[offset + i] }
    offset += count
    return count
  }
}

/// Files that fail to read (with EIO's words) once `after` bytes have been asked for, as
/// /proc/self/mem does at once: for tests.
struct FailingFiles: FileSource {
  let after: Int

  init(after: Int) { self.after = after }

  func open(_ path: String) throws(FileError) -> any ByteStream { Failing(after: after) }

  final class Failing: ByteStream {
    var left: Int
    init(after: Int) { left = after }
    var knownSize: Int? { nil }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
      guard left >= buffer.count else { throw FileError("input/output error") }
      for i in 0..<buffer.count { buffer[i] = UInt8(ascii: "a") }
      left -= buffer.count
      return buffer.count
    }
  }
}
