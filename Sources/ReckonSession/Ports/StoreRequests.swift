/// What a mode keeps, asked of the store as a value: a read (`StoreRead`) or a write
/// (`StoreWrite`), each with the type of what it answers. A mode declares its requests in its
/// own folder (`Answers.Record`, `GameResults.All`), says nothing of how they are kept, and runs them
/// through `SessionState`: `save(_:)` for writes (kept and tried again while saving fails)
/// and `load(_:)` for reads. How each one runs (its tables, their migrations, its SQL) is
/// the store's, in one file of ReckonStore per mode (see ARCHITECTURE.md, "To add a mode
/// that keeps data"). The session's own data (settings, profiles) keeps its ports.
public protocol StoreRequest: Sendable {
  /// What the store answers.
  associatedtype Answer: Sendable
}

/// A read of what a mode keeps.
public protocol StoreRead: StoreRequest {
  /// The answer when nothing was ever saved (there is no database yet, or it has none of the
  /// mode's tables): the store creates nothing to read.
  var nothingSaved: Answer { get }
}

/// A write of what a mode keeps, done in one transaction: when `Store.write` returns, it is
/// saved. A write the session keeps while saving fails is run again later, so it must give
/// the same result run late (it carries its own times, as `clock` read them when it was made).
public protocol StoreWrite: StoreRequest {}

extension StoreRead where Answer: RangeReplaceableCollection {
  public var nothingSaved: Answer { Answer() }
}

extension StoreRead where Answer: ExpressibleByDictionaryLiteral {
  public var nothingSaved: Answer { [:] }
}
