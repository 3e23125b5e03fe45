import Foundation
import ReckonSession

/// The real clock.
struct SystemClock: Clock {
  func nowMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}

/// Randomness from the system, through a seed (so a session's draws stay reproducible from it).
func systemRandom() -> SeededRandom {
  var generator = SystemRandomNumberGenerator()
  return SeededRandom(seed: generator.next())
}
