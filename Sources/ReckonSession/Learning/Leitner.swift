/// The Leitner system: every item sits in one of five boxes. A wrong answer sends it back
/// to box 1, due again at once; a right answer moves it up one box, and each box waits
/// longer before the item is due again: from the start of the next local day in box 2, of
/// the third day in box 3, then a week, then two weeks. Days, not hours: a fact answered on
/// Monday evening is due on Tuesday morning.
///
/// A right answer moves an item up only when it was due: answering 7 × 8 five times in one
/// sitting proves less than answering it right on five different days, so it leaves the
/// item where it is. New items start in box 1 and are due at once.
public struct Leitner: Sendable, Hashable {
  public static let boxes = 5
  /// How many days an item waits in each box before it is due again (box 1 first).
  public static let intervals = [0, 1, 3, 7, 14]

  /// Local time's offset from UTC where the answer is given: where days begin.
  public var utcOffsetSeconds: Int

  public init(utcOffsetSeconds: Int = 0) { self.utcOffsetSeconds = utcOffsetSeconds }

  /// Where an item starts, or goes back to when its answer is shown: box 1, due at once.
  public static func start(at now: Int64) -> FactState { FactState(box: 1, dueAt: now) }

  /// Where an item goes after an answer at `now`.
  public func next(after state: FactState?, correct: Bool, at now: Int64) -> FactState {
    guard correct else { return Leitner.start(at: now) }
    let current = state ?? Leitner.start(at: now)
    guard current.dueAt <= now else { return current }
    let box = min(current.box + 1, Leitner.boxes)
    let today = Day(milliseconds: now, utcOffsetSeconds: utcOffsetSeconds)
    return FactState(box: box, dueAt: start(of: today.advanced(by: Leitner.intervals[box - 1])))
  }

  /// When a local day begins, in milliseconds since 1970.
  public func start(of day: Day) -> Int64 {
    Int64(day.number) * 86_400_000 - Int64(utcOffsetSeconds) * 1000
  }
}

/// How well an item is known, at a glance: what a cell of the `stats` grid shows.
public enum Mastery: Int, Sendable, Hashable, CaseIterable {
  /// Never answered.
  case new
  /// Box 1: missed lately, or only just met.
  case learning
  /// Boxes 2 and 3.
  case familiar
  /// Boxes 4 and 5.
  case known

  public init(_ state: FactState?) {
    switch state?.box {
    case nil: self = .new
    case 1?: self = .learning
    case 2?, 3?: self = .familiar
    default: self = .known
    }
  }

  /// The symbol used where there is no colour.
  public var symbol: String {
    switch self {
    case .new: "·"
    case .learning: "○"
    case .familiar: "◐"
    case .known: "●"
    }
  }

  public var name: String {
    switch self {
    case .new: "not practised"
    case .learning: "learning"
    case .familiar: "getting there"
    case .known: "known"
    }
  }
}
