/// What a bill keeps, asked of the store (ReckonStore's `Modes/Bill.swift` runs them). A bill
/// is kept as its lines, each saved as it is typed: the text as typed and what it did, every
/// amount worked out (`BillEntry`), so that a bill reopened is the bill as it was whatever
/// `ans` and the variables hold then. Every key is made here (the bill's by the moment it
/// started, a line's by its number in the bill), so a write kept while saving fails needs no
/// answer from an earlier one.
public enum Bills {
  /// Saves one line of a bill, and the bill with it if it is its first.
  public struct AddLine: StoreWrite {
    public typealias Answer = Void
    public var profile: String
    public var startedAt: Int64
    public var day: Day
    public var number: Int
    public var text: String
    public var entries: String
    public var at: Int64
  }

  /// Takes a line back (`undo`): it stays in the store, marked undone.
  public struct Undo: StoreWrite {
    public typealias Answer = Void
    public var profile: String
    public var startedAt: Int64
    public var number: Int
    public var at: Int64
  }

  /// Names a bill (`save dinner`); a bill that had the name loses it.
  public struct Name: StoreWrite {
    public typealias Answer = Void
    public var profile: String
    public var startedAt: Int64
    public var name: String
    public var at: Int64
  }

  /// The profile's bills, the most recently changed first.
  public struct All: StoreRead {
    public typealias Answer = [Summary]
    public var profile: String
  }

  /// A bill's lines that have not been taken back, in order.
  public struct Lines: StoreRead {
    public typealias Answer = [Line]
    public var profile: String
    public var startedAt: Int64
  }

  public struct Summary: Sendable {
    public var startedAt: Int64
    public var day: Day
    public var name: String?
    public var updatedAt: Int64
    public var lines: Int

    public init(startedAt: Int64, day: Day, name: String?, updatedAt: Int64, lines: Int) {
      self.startedAt = startedAt
      self.day = day
      self.name = name
      self.updatedAt = updatedAt
      self.lines = lines
    }
  }

  public struct Line: Sendable {
    public var number: Int
    public var text: String
    public var entries: String

    public init(number: Int, text: String, entries: String) {
      self.number = number
      self.text = text
      self.entries = entries
    }
  }
}
