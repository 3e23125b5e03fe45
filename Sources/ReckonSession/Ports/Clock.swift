/// The time, injected so that a transcript replays identically in a test.
///
/// Two readings: the wall clock, for dates and days (when an answer was given, which day a
/// challenge is), and a monotonic one for durations (how long a question was on screen, a
/// daily challenge's clock, an anagram's countdown), which never steps back when the wall
/// clock is set back, so time already on a clock cannot drop to 0:00 or make a best time.
public protocol Clock: Sendable {
  /// Milliseconds since the Unix epoch: the wall clock, which can be set back or forward.
  func nowMilliseconds() -> Int64
  /// Milliseconds since some fixed moment, on a clock that only goes forward: only the
  /// difference between two readings means anything.
  func monotonicMilliseconds() -> Int64
  /// How far local time is ahead of UTC at that moment, in seconds (daylight saving included).
  func utcOffsetSeconds(atMilliseconds milliseconds: Int64) -> Int
}

extension Clock {
  /// The local calendar day of a moment.
  public func day(atMilliseconds milliseconds: Int64) -> Day {
    Day(milliseconds: milliseconds, utcOffsetSeconds: utcOffsetSeconds(atMilliseconds: milliseconds))
  }

  /// Today, in local time.
  public func today() -> Day { day(atMilliseconds: nowMilliseconds()) }
}

/// A clock that only moves when told to: for tests. Local time is `utcOffsetSeconds` ahead of UTC.
public final class ManualClock: Clock, @unchecked Sendable {
  private var now: Int64
  private var monotonic: Int64 = 1_000_000
  private let offset: Int

  /// 1_700_000_000_000 is Tuesday 14 November 2023, 22:13:20 UTC.
  public init(startingAt now: Int64 = 1_700_000_000_000, utcOffsetSeconds: Int = 0) {
    self.now = now
    offset = utcOffsetSeconds
  }

  public func nowMilliseconds() -> Int64 { now }

  public func utcOffsetSeconds(atMilliseconds milliseconds: Int64) -> Int { offset }

  public func monotonicMilliseconds() -> Int64 { monotonic }

  /// Time passes: both readings move on.
  public func advance(milliseconds: Int64) {
    now += milliseconds
    monotonic += milliseconds
  }

  /// The wall clock is set (back, when negative), as NTP or a user may: no time passes.
  public func setWallClock(by milliseconds: Int64) { now += milliseconds }
}
