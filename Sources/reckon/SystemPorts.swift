import Glibc
import ReckonSession

/// The real clock.
struct SystemClock: Clock {
  func nowMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }
}

/// Randomness from the system, through a seed (so a session's draws stay reproducible from it).
func systemRandom() -> SeededRandom {
  var generator = SystemRandomNumberGenerator()
  return SeededRandom(seed: generator.next())
}
