/// Reading a user's file (`quiz load FILE`, `--words FILE`), injected: the session never
/// touches the file system itself, and tests hand it files from memory.
public protocol FileSource: Sendable {
  /// The file at `path` (`~/` is the home folder), open for reading a chunk at a time, or why
  /// it cannot be read, in words for the user. Readers take it through `TextLines`, which
  /// bounds what they hold.
  func open(_ path: String) throws(FileError) -> any ByteStream

  /// Writes a new file at `path` (`~/` is the home folder) holding `bytes`, and returns the
  /// path it wrote; never replaces a file that is there. A file half written (a full disk)
  /// is removed, and the error says why.
  func create(_ path: String, bytes: [UInt8]) throws(FileError) -> String
}

extension FileSource {
  public func create(_ path: String, bytes: [UInt8]) throws(FileError) -> String {
    throw FileError("this session cannot write files")
  }
}

extension FileSource {
  /// The bytes of a whole file of at most `limit` bytes (a JSON file, which is not read by
  /// lines); a larger one is refused, unread when its size says so.
  /// `kind` names such a file in a refusal: `a personality quiz may be at most 1 MiB`.
  public func read(_ path: String, limit: Int = FileLimits.any, kind: String = "a file") throws(FileError) -> [UInt8] {
    var lines = TextLines(try open(path), lineLimit: .max, budget: limit, dropsByteOrderMark: false)
    do {
      return try lines.rest()
    } catch {
      if case .unreadable(let problem, 0) = error { throw problem }
      throw FileError(error.message(kind))
    }
  }
}

/// How large a user's file may be: larger ones are refused rather than read into memory.
public enum FileLimits {
  /// Any file (a trivia bank read by lines); a mode may set a lower limit of its own.
  public static let any = 256 << 20
}

public struct FileError: Error, Sendable, Equatable {
  public var message: String
  /// Whether there is no file at the path (a file that is optional can be left out).
  public var isMissing: Bool

  public init(_ message: String, isMissing: Bool = false) {
    self.message = message
    self.isMissing = isMissing
  }
}

/// A folder in memory that files are written into (and read back from): for tests.
public final class MemoryFolder: FileSource, @unchecked Sendable {
  public private(set) var files: [String: [UInt8]] = [:]

  public init() {}

  public func open(_ path: String) throws(FileError) -> any ByteStream {
    guard let bytes = files[path] else { throw FileError("no such file", isMissing: true) }
    return MemoryStream(bytes)
  }

  public func create(_ path: String, bytes: [UInt8]) throws(FileError) -> String {
    guard files[path] == nil else { throw FileError("there is a file there already") }
    files[path] = bytes
    return path
  }
}

/// Files held in memory, by path: for tests.
public struct MemoryFiles: FileSource {
  public var files: [String: [UInt8]]

  public init(_ files: [String: [UInt8]] = [:]) { self.files = files }

  public func open(_ path: String) throws(FileError) -> any ByteStream {
    guard let bytes = files[path] else { throw FileError("no such file", isMissing: true) }
    return MemoryStream(bytes)
  }
}
