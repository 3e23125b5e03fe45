import Glibc
import ReckonSession

/// The real clock, in the time zone the C library finds (TZ, /etc/localtime).
struct SystemClock: Clock {
  func nowMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  func monotonicMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  func utcOffsetSeconds(atMilliseconds milliseconds: Int64) -> Int {
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil else { return 0 }
    return parts.tm_gmtoff
  }
}

/// Randomness from the system, through a seed (so a session's draws stay reproducible from it).
func systemRandom() -> SeededRandom {
  var generator = SystemRandomNumberGenerator()
  return SeededRandom(seed: generator.next())
}

/// Who is using Reckon: the login name, which is the profile a session starts with.
func loginName() -> String? {
  for name in ["USER", "LOGNAME"] {
    if let user = Terminal.variable(name), !user.isEmpty { return user }
  }
  guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
  return String(cString: name)
}

/// Opens a user's file for `quiz load`, `--questions` and `--words`. Only ever reads.
struct SystemFiles: FileSource {
  func open(_ path: String) throws(FileError) -> any ByteStream {
    var expanded = path
    if path == "~" || path.hasPrefix("~/"), let home = Terminal.variable("HOME") {
      expanded = home + path.dropFirst()
    }
    // Non-blocking, so a named pipe cannot hang the prompt; only plain files are read.
    let fd = Glibc.open(expanded, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw FileError(SystemFiles.reason(errno), isMissing: errno == ENOENT) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let error = errno
      close(fd)
      throw FileError(SystemFiles.reason(error))
    }
    if info.st_mode & S_IFMT != S_IFREG {
      close(fd)
      throw FileError(info.st_mode & S_IFMT == S_IFDIR ? "it is a folder" : "it is not a plain file")
    }
    // A file of /proc says 0 and may hold anything: its size is not known.
    return FileStream(fd: fd, knownSize: info.st_size > 0 ? Int(info.st_size) : nil)
  }

  func create(_ path: String, bytes: [UInt8]) throws(FileError) -> String {
    var expanded = path
    if path == "~" || path.hasPrefix("~/"), let home = Terminal.variable("HOME") {
      expanded = home + path.dropFirst()
    }
    // A new file only: what is there is never replaced.
    let fd = Glibc.open(expanded, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd >= 0 else {
      throw FileError(errno == EEXIST ? "there is a file there already" : SystemFiles.reason(errno))
    }
    var offset = 0
    var failure: Int32 = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        failure = errno
        break
      }
      offset += n
    }
    if failure == 0 && fsync(fd) != 0 && errno != EINVAL { failure = errno }
    if close(fd) != 0 && failure == 0 { failure = errno }
    if failure != 0 {
      unlink(expanded)
      throw FileError(
        (failure == ENOSPC
          ? "the disk is full"
          : failure == EFBIG
            ? "the file size limit (ulimit -f) is reached"
            : SystemFiles.reason(failure)) + ": nothing was written")
    }
    return path
  }

  /// The system's reason for an error, as the end of a sentence: `permission denied`.
  static func reason(_ error: Int32) -> String {
    String(cString: strerror(error)).lowercased()
  }
}

/// An open file descriptor, read a chunk at a time; closed when the stream goes.
final class FileStream: ByteStream {
  let fd: Int32
  let knownSize: Int?
  /// Whether the stream owns the descriptor (and closes it when it goes).
  let closes: Bool

  init(fd: Int32, knownSize: Int?, closes: Bool = true) {
    self.fd = fd
    self.knownSize = knownSize
    self.closes = closes
  }

  deinit { if closes { close(fd) } }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
    while true {
      let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      if errno == EINTR { continue }
      throw FileError(SystemFiles.reason(errno))
    }
  }
}
