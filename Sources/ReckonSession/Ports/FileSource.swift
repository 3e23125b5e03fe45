/// Reading a user's file (`quiz load FILE`), injected: the session never touches the file
/// system itself, and tests hand it files from memory.
public protocol FileSource: Sendable {
  /// The bytes of the file at `path` (`~/` is the home folder), or why they cannot be read,
  /// in words for the user. A file larger than `limit` bytes is refused, unread.
  func read(_ path: String, limit: Int) throws(FileError) -> [UInt8]
}

extension FileSource {
  /// The bytes of a file of at most `FileLimits.any`.
  public func read(_ path: String) throws(FileError) -> [UInt8] { try read(path, limit: FileLimits.any) }
}

/// How large a user's file may be: larger ones are refused rather than read into memory.
public enum FileLimits {
  /// Any file (a trivia bank, a word list); a mode may set a lower limit of its own.
  public static let any = 256 << 20

  /// Why a file is refused: `it is larger than 1 MiB`.
  public static func tooLarge(_ limit: Int) -> FileError {
    FileError("it is larger than \(limit >> 20) MiB")
  }
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

/// Files held in memory, by path: for tests.
public struct MemoryFiles: FileSource {
  public var files: [String: [UInt8]]

  public init(_ files: [String: [UInt8]] = [:]) { self.files = files }

  public func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
    guard let bytes = files[path] else { throw FileError("no such file", isMissing: true) }
    if bytes.count > limit { throw FileLimits.tooLarge(limit) }
    return bytes
  }
}
