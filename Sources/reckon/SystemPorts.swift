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

/// Reads a user's file, whole, for `quiz load` and `--questions`. Only ever reads.
struct SystemFiles: FileSource {
  func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
    var expanded = path
    if path == "~" || path.hasPrefix("~/"), let home = Terminal.variable("HOME") {
      expanded = home + path.dropFirst()
    }
    // Non-blocking, so a named pipe cannot hang the prompt; only plain files are read.
    let fd = open(expanded, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw FileError(String(cString: strerror(errno)).lowercased(), isMissing: errno == ENOENT) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw FileError(String(cString: strerror(errno)).lowercased()) }
    if info.st_mode & S_IFMT == S_IFDIR { throw FileError("it is a folder") }
    if info.st_mode & S_IFMT != S_IFREG { throw FileError("it is not a plain file") }
    if info.st_size > limit { throw FileLimits.tooLarge(limit) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count == 0 { break }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileError(String(cString: strerror(errno)).lowercased())
      }
      bytes.append(contentsOf: chunk[..<count])
      if bytes.count > limit { throw FileLimits.tooLarge(limit) }
    }
    return bytes
  }
}
