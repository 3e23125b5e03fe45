/// The time, injected so that a transcript replays identically in a test.
public protocol Clock: Sendable {
  /// Milliseconds since the Unix epoch.
  func nowMilliseconds() -> Int64
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
  private let offset: Int

  /// 1_700_000_000_000 is Tuesday 14 November 2023, 22:13:20 UTC.
  public init(startingAt now: Int64 = 1_700_000_000_000, utcOffsetSeconds: Int = 0) {
    self.now = now
    offset = utcOffsetSeconds
  }

  public func nowMilliseconds() -> Int64 { now }

  public func utcOffsetSeconds(atMilliseconds milliseconds: Int64) -> Int { offset }

  public func advance(milliseconds: Int64) { now += milliseconds }
}
