import Glibc
import ReckonSession

/// The real clock, in the time zone the C library finds (TZ, /etc/localtime).
struct SystemClock: Clock {
  func nowMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
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
