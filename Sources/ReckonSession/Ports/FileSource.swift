/// Reading a user's file (`quiz load FILE`), injected: the session never touches the file
/// system itself, and tests hand it files from memory.
public protocol FileSource: Sendable {
  /// The bytes of the file at `path` (`~/` is the home folder), or why they cannot be read,
  /// in words for the user.
  func read(_ path: String) throws(FileError) -> [UInt8]
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

  public func read(_ path: String) throws(FileError) -> [UInt8] {
    guard let bytes = files[path] else { throw FileError("no such file", isMissing: true) }
    return bytes
  }
}
