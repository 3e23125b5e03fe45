import CLibEdit
import Glibc

/// libedit history plus its file: size limit, no consecutive duplicates, each entry
/// appended to the file as it is made. File problems become warnings, never crashes.
///
/// The file is never rewritten for an entry: one line is appended (in libedit's format,
/// under a lock), so an Enter costs the same with a 50 MB history as with an empty one, and
/// two prompts open at once both keep their lines. A file that has grown past the limit is
/// trimmed to its newest entries on a thread of its own when the next prompt starts.
final class HistoryStore {
  /// The libedit history handle (attached to the editor with `EL_HIST`).
  let handle: OpaquePointer
  /// Where history is saved; nil when there is no file or it cannot be written.
  private(set) var savePath: String?
  /// Problems worth telling the user once.
  private(set) var warnings: [String] = []
  /// The thread trimming the file, joined before the history goes.
  private var trimming: pthread_t?

  /// The first line of libedit's history file.
  static let cookie = Array("_HiStOrY_V2_\n".utf8)

  /// - Parameters:
  ///   - path: the history file, or nil for none.
  ///   - limit: the maximum number of entries kept (at least 1).
  init?(path: String?, limit: Int) {
    guard let handle = editshim_history_init() else { return nil }
    self.handle = handle
    let limit = max(1, limit)
    _ = editshim_history_setsize(handle, Int32(clamping: limit))
    _ = editshim_history_setunique(handle, 1)
    if let path, !path.isEmpty {
      prepareFile(at: path, limit: limit)
    }
  }

  deinit {
    if let trimming { pthread_join(trimming, nil) }
    history_end(handle)
  }

  /// Number of entries held.
  var count: Int { Int(editshim_history_count(handle)) }

  /// Adds a line and appends it to the file right away. Empty lines are ignored, and so is a
  /// line that repeats the newest entry.
  func add(_ line: String) {
    guard !line.allSatisfy(\.isWhitespace) else { return }
    // libedit keeps history in the terminal's character set, as it reads lines.
    let bytes = TerminalInput.decodesLatin1 ? Latin1.encode(line) : Array(line.utf8)
    if let newest = editshim_history_newest(handle), strlen(newest) == bytes.count,
      memcmp(newest, bytes, bytes.count) == 0
    {
      return  // libedit does not enter it again, and neither does the file
    }
    _ = editshim_history_enter(handle, bytes.map { CChar(bitPattern: $0) } + [0])
    guard let path = savePath else { return }
    if let problem = HistoryStore.append(HistoryStore.encoded(bytes), to: path) {
      warnings.append("cannot save history to \(path) (\(problem)); history will not be saved")
      savePath = nil
    }
  }

  private func prepareFile(at path: String, limit: Int) {
    var info = stat()
    if lstat(path, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFDIR {
        warnings.append("history file \(path) is a directory; history will not be saved")
        return
      }
      if info.st_mode & S_IFMT == S_IFLNK {
        warnings.append("history file \(path) is a symbolic link; history will not be saved")
        return
      }
    } else if let problem = Self.createParentFolders(of: path) {
      warnings.append("cannot create the folder for history file \(path) (\(problem)); history will not be saved")
      return
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      warnings.append("cannot write history file \(path) (\(Self.reason())); history will not be saved")
      return
    }
    defer { close(fd) }
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      warnings.append("history file \(path) is not a plain file; history will not be saved")
      return
    }
    guard info.st_uid == geteuid() else {
      warnings.append("history file \(path) belongs to another user (uid \(info.st_uid)); history will not be saved")
      return
    }
    if info.st_mode & 0o077 != 0 {
      guard fchmod(fd, 0o600) == 0 else {
        warnings.append("cannot make history file \(path) private (\(Self.reason())); history will not be saved")
        return
      }
      warnings.append("history file \(path) was open to other users (\(Self.octal(info.st_mode))); it is now 0600")
    }
    // An empty file (e.g. created by an earlier run) has nothing to load.
    if info.st_size > 0 {
      let entries = editshim_history_load(handle, path)
      guard entries >= 0 else {
        warnings.append("history file \(path) could not be read; history will not be saved")
        return
      }
      if entries > limit { trimInBackground(path, to: limit) }
    }
    savePath = path
  }

  /// `mkdir -p` of the parent folder with mode 0700; returns an error text.
  private static func createParentFolders(of path: String) -> String? {
    var components = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
    guard !components.isEmpty else { return nil }
    var current = path.hasPrefix("/") ? "" : "."
    while !components.isEmpty {
      current += "/" + components.removeFirst()
      var info = stat()
      if stat(current, &info) == 0 { continue }
      if mkdir(current, 0o700) != 0 && errno != EEXIST {
        return reason()
      }
    }
    return nil
  }

  // MARK: The file

  /// An entry as libedit's file has it (`strvis`): one line, a space, tab, backslash, control
  /// character or non-ASCII byte as a backslash and three octal digits, which libedit's
  /// reader (`strunvis`) turns back into the byte.
  static func encoded(_ entry: [UInt8]) -> [UInt8] {
    var line: [UInt8] = []
    line.reserveCapacity(entry.count + 1)
    for byte in entry {
      if byte <= 0x20 || byte == UInt8(ascii: "\\") || byte >= 0x7F {
        line += [UInt8(ascii: "\\"), 0x30 + (byte >> 6), 0x30 + ((byte >> 3) & 7), 0x30 + (byte & 7)]
      } else {
        line.append(byte)
      }
    }
    line.append(UInt8(ascii: "\n"))
    return line
  }

  /// Opens the history file and locks it (`flock`), making sure that the file locked is still
  /// the one at `path` (a trim may have put a new one in its place meanwhile). Returns the
  /// descriptor, or -1 with `errno` set.
  static func openLocked(_ path: String, _ flags: Int32) -> Int32 {
    for _ in 0..<100 {
      let fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, 0o600)
      guard fd >= 0 else { return -1 }
      var held = stat()
      var named = stat()
      while flock(fd, LOCK_EX) != 0 {
        guard errno == EINTR else {
          close(fd)
          return -1
        }
      }
      if fstat(fd, &held) == 0, lstat(path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
        guard held.st_mode & S_IFMT == S_IFREG, held.st_uid == geteuid() else {
          close(fd)
          errno = EPERM
          return -1
        }
        return fd
      }
      close(fd)
    }
    errno = EAGAIN
    return -1
  }

  /// Appends one encoded entry (after the first line, if the file is empty); returns what
  /// went wrong, in words.
  static func append(_ line: [UInt8], to path: String) -> String? {
    let fd = openLocked(path, O_RDWR | O_CREAT | O_APPEND)
    guard fd >= 0 else { return reason() }
    defer { close(fd) }  // and the lock with it
    var info = stat()
    guard fstat(fd, &info) == 0 else { return reason() }
    var last: UInt8 = 0
    if info.st_size > 0 && pread(fd, &last, 1, info.st_size - 1) != 1 { return reason() }
    // An empty file starts with libedit's first line; a line cut short (a Reckon killed in
    // the middle of writing it) is ended first, so this entry is not run on to it.
    let bytes = info.st_size == 0 ? cookie + line : last == UInt8(ascii: "\n") ? line : [UInt8(ascii: "\n")] + line
    return writeAll(fd, bytes) ? nil : reason()
  }

  static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
  }

  /// Keeps only the newest `limit` entries of the file: read under its lock, written to
  /// `path.new` and renamed over it (so a crash leaves the old file or the new, never half
  /// of one). Returns whether it trimmed.
  @discardableResult
  static func trim(_ path: String, to limit: Int) -> Bool {
    let fd = openLocked(path, O_RDONLY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return false }
      if count == 0 { break }
      bytes += chunk[..<count]
    }
    guard bytes.starts(with: cookie) else { return false }
    // The start of each entry's line, newest last.
    var starts: [Int] = []
    var index = cookie.count
    while index < bytes.count {
      starts.append(index)
      index = (bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count - 1) + 1
    }
    guard starts.count > limit else { return false }
    let kept = cookie + bytes[starts[starts.count - limit]...]
    let temporary = path + ".new"
    let out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard out >= 0 else { return false }
    let written = writeAll(out, kept) && fsync(out) == 0
    close(out)
    guard written, rename(temporary, path) == 0 else {
      unlink(temporary)
      return false
    }
    return true
  }

  final class Job: @unchecked Sendable {
    let path: String
    let limit: Int
    init(_ path: String, _ limit: Int) {
      self.path = path
      self.limit = limit
    }
  }

  /// Trims the file on a thread of its own (a large file takes a moment to rewrite); the
  /// prompt does not wait for it, and lines entered meanwhile wait for its lock.
  private func trimInBackground(_ path: String, to limit: Int) {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Job(path, limit)).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { context in
        let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
        HistoryStore.trim(job.path, to: job.limit)
        return nil
      }, context)
    if started == 0 {
      trimming = thread
    } else {
      Unmanaged<Job>.fromOpaque(context).release()
      HistoryStore.trim(path, to: limit)
    }
  }

  static func reason() -> String { String(cString: strerror(errno)) }

  /// A mode's permission bits as `chmod` takes them (`0644`).
  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode & 0o7777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
