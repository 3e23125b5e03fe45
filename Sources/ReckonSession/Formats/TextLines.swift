import ReckonCore

/// A file read a line at a time, in chunks, with a limit on a line and a budget for the file:
/// the one way every reader of a user's file (word lists, trivia banks, personality quizzes,
/// the anagram level table) and the executable's script and pipe loop take their bytes, so
/// none holds more than a line and a chunk of its input at once, besides what it keeps.
///
/// A line longer than `lineLimit` bytes is refused as soon as it passes the limit: `next()`
/// says so at once (`.tooLong`, with its number in `number`) and the rest of it is read and
/// dropped up to its line break, never kept (a word list of one 100 MB line took 1.23 GB and
/// was "loaded 1 word"). Reading past `budget` bytes in all stops with
/// `Failure.overBudget`, which says how much was read; a file whose size says it is over
/// the budget is refused before a byte is read (`Failure.tooLarge`).
///
/// Lines are given without their "\n" and one "\r" before it (a CRLF file reads as LF), and
/// the first without a UTF-8 byte-order mark (EF BB BF) when `dropsByteOrderMark`.
public struct TextLines {
  /// What the next line is.
  public enum Line: Equatable {
    /// A line's bytes (within the limit), without its line break.
    case text(ArraySlice<UInt8>)
    /// A line over the limit: it is skipped, up to its line break.
    case tooLong
  }

  /// Why reading stopped before the end.
  public enum Failure: Error, Equatable {
    /// The file could not be read (an I/O error, say), after `read` bytes.
    case unreadable(FileError, read: Int)
    /// The file is `size` bytes, over the budget: nothing was read.
    case tooLarge(size: Int, budget: Int)
    /// More than `budget` bytes were read (a file that does not say its size, or grew): reading
    /// stopped after `read` bytes, in line `line`.
    case overBudget(read: Int, line: Int, budget: Int)

    /// In words, for a file of the kind `kind` (`a word list`): `cannot read it: input/output
    /// error`, `it is larger than 32 MiB (104,857,601 bytes): a word list may be at most that,
    /// so none of it was read`.
    public func message(_ kind: String) -> String {
      switch self {
      case .unreadable(let error, let read):
        "cannot read it: \(error.message)" + (read == 0 ? "" : " (after \(Wording.count(read, "byte")))")
      case .tooLarge(let size, let budget):
        "it is larger than \(TextLines.size(budget)) (\(Wording.count(size, "byte"))): "
          + "\(kind) may be at most that, so none of it was read"
      case .overBudget(let read, let line, let budget):
        "it is larger than \(TextLines.size(budget)), the most \(kind) may be: "
          + "reading stopped after \(Wording.count(read, "byte")), in line \(line.grouped)"
      }
    }
  }

  /// The number of the line `next()` gave last (from 1).
  public private(set) var number = 0
  /// How many bytes have been read from the file so far.
  public private(set) var bytesRead = 0
  /// The file's size, when it says so before it is read.
  public var knownSize: Int? { source.knownSize }
  /// The longest line, in bytes, without its line break.
  public var lineLimit: Int
  /// The most bytes the file may have.
  public let budget: Int

  private let source: any ByteStream
  private var buffer: [UInt8] = []
  private var start = 0
  /// Where the search for the next line break goes on from: bytes before it have been looked at.
  private var scanned = 0
  private var atEnd = false
  /// Inside a line that was refused: its bytes are dropped up to the next line break.
  private var skipping = false
  private var dropsByteOrderMark: Bool
  private var checkedSize = false
  /// What one read fills.
  private var chunk: [UInt8] = []

  /// How much is read at once.
  public static let chunk = 1 << 16

  public init(_ source: any ByteStream, lineLimit: Int, budget: Int = .max, dropsByteOrderMark: Bool = true) {
    self.source = source
    self.lineLimit = lineLimit
    self.budget = budget
    self.dropsByteOrderMark = dropsByteOrderMark
    buffer.reserveCapacity(min(lineLimit, 1 << 20) + Self.chunk + 1)
  }

  /// Lines of bytes in memory (a file's bytes a test or the fuzzer hands over, a built-in file).
  public init(bytes: [UInt8], lineLimit: Int, budget: Int = .max) {
    self.init(MemoryStream(bytes), lineLimit: lineLimit, budget: budget)
  }

  /// The next line, nil at the end of the file, or why reading stopped.
  public mutating func next() throws(Failure) -> Line? {
    while true {
      if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
        defer { (start, scanned) = (newline + 1, newline + 1) }
        if skipping {
          skipping = false
          continue
        }
        number += 1
        let bytes = Self.withoutCR(buffer[start..<newline])
        return bytes.count > lineLimit ? .tooLong : .text(bytes)
      }
      if skipping {
        (start, scanned) = (buffer.count, buffer.count)
      } else {
        scanned = buffer.count
        if buffer.count - start - 1 > lineLimit {  // - 1: it may still end with "\r"
          skipping = true
          number += 1
          (start, scanned) = (buffer.count, buffer.count)
          return .tooLong
        }
      }
      if atEnd {
        guard start < buffer.count, !skipping else {
          skipping = false
          return nil
        }
        let bytes = Self.withoutCR(buffer[start...])
        (start, scanned) = (buffer.count, buffer.count)
        number += 1
        return bytes.count > lineLimit ? .tooLong : .text(bytes)
      }
      try fill()
    }
  }

  /// The first byte that is not a space, tab, CR or line break, without taking it (nil: the
  /// file is blank). Lines of blanks before it are passed over, and counted.
  public mutating func firstNonBlank() throws(Failure) -> UInt8? {
    while true {
      var i = start
      while i < buffer.count, buffer[i] == 0x20 || buffer[i] == 0x09 || buffer[i] == 0x0D || buffer[i] == 0x0A {
        if buffer[i] == 0x0A {
          number += 1
          (start, scanned) = (i + 1, i + 1)
        }
        i += 1
      }
      if i < buffer.count { return buffer[i] }
      if atEnd { return nil }
      try fill()
    }
  }

  /// Everything not read yet, whole (for JSON, which is not read by lines), with a line break
  /// for each line passed over before it so that its lines count from the file's first; at
  /// most `limit` bytes in all.
  public mutating func rest(limit: Int? = nil) throws(Failure) -> [UInt8] {
    let limit = min(limit ?? budget, budget)
    if let size = source.knownSize, size > limit { throw .tooLarge(size: size, budget: limit) }
    while !atEnd {
      try fill()
      if bytesRead > limit { throw .overBudget(read: bytesRead, line: lineReached, budget: limit) }
    }
    var all = [UInt8](repeating: 0x0A, count: number)
    all.append(contentsOf: buffer[start...])
    (start, scanned) = (buffer.count, buffer.count)
    return all
  }

  /// The line the last byte read is in.
  private var lineReached: Int { number + 1 + buffer[start...].count { $0 == 0x0A } }

  /// A line's bytes without the "\r" of a CRLF.
  private static func withoutCR(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    bytes.last == 0x0D ? bytes.dropLast() : bytes
  }

  /// Reads more, keeping the unfinished line at the front of the buffer.
  private mutating func fill() throws(Failure) {
    if !checkedSize {
      checkedSize = true
      if let size = source.knownSize, size > budget { throw .tooLarge(size: size, budget: budget) }
    }
    buffer.removeSubrange(0..<start)
    scanned -= start
    start = 0
    // Read into a chunk of its own and copy what came: a pipe or a terminal gives a line at a
    // time, and making room in the buffer for a whole chunk each time cost 64 KiB a line.
    if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: Self.chunk) }
    var failure: FileError?
    let count = chunk.withUnsafeMutableBytes { room in
      do throws(FileError) {
        return try source.read(into: room)
      } catch {
        failure = error
        return 0
      }
    }
    if let failure { throw .unreadable(failure, read: bytesRead) }
    buffer.append(contentsOf: chunk[..<count])
    if count == 0 { atEnd = true }
    bytesRead += count
    if bytesRead > budget { throw .overBudget(read: bytesRead, line: lineReached, budget: budget) }
    if dropsByteOrderMark && buffer.count >= 3 || atEnd {
      if dropsByteOrderMark && buffer.starts(with: [0xEF, 0xBB, 0xBF]) {
        buffer.removeFirst(3)
        scanned = 0  // (start is 0: nothing has been taken yet)
      }
      dropsByteOrderMark = false
    }
  }

  /// A budget in words: `32 MiB`, `64 KiB`, or `1,000 bytes`.
  static func size(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\((bytes >> 20).grouped) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\((bytes >> 10).grouped) KiB" }
    return Wording.count(bytes, "byte")
  }
}

/// A file's bytes as they are read, a chunk at a time.
public protocol ByteStream: AnyObject {
  /// The file's size, when it says so before it is read (a plain file; not a pipe, nor a file
  /// of /proc, which says 0).
  var knownSize: Int? { get }
  /// Reads at most `buffer.count` bytes into `buffer`: how many (0 at the end), or why not.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int
}

/// Bytes in memory, as a stream.
public final class MemoryStream: ByteStream {
  private let bytes: [UInt8]
  private var offset = 0

  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  public var knownSize: Int? { bytes.count }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
    let count = min(buffer.count, bytes.count - offset)
    bytes.withUnsafeBytes { all in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<offset + count]))
    }
    offset += count
    return count
  }
}
