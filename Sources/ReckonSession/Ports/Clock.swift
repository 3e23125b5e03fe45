/// The time, injected so that a transcript replays identically in a test.
public protocol Clock: Sendable {
  /// Milliseconds since the Unix epoch.
  func nowMilliseconds() -> Int64
}

/// A clock that only moves when told to: for tests.
public final class ManualClock: Clock, @unchecked Sendable {
  private var now: Int64

  public init(startingAt now: Int64 = 1_700_000_000_000) { self.now = now }

  public func nowMilliseconds() -> Int64 { now }

  public func advance(milliseconds: Int64) { now += milliseconds }
}
