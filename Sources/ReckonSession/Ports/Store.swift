/// Persistence, injected: the session asks for what it needs and never knows it is SQLite.
///
/// The session's own data has a port each (settings, profiles); what a mode keeps goes
/// through `read` and `write` as requests the mode declares (`StoreRequests.swift`), so that
/// a new mode adds no method here. Every write is its own transaction, finished before the
/// call returns, so whatever the session has acknowledged on screen is already saved.
///
/// What the store has to say (a folder that cannot be written, a damaged file moved aside)
/// it queues; the session takes the queue with `takeNotices()` once per reply and shows it
/// at the reply's start. Nothing else reaches the user from the store but a thrown
/// `StoreError`, which the session turns into a notice of its own.
public protocol Store: AnyObject, Sendable, SettingsStore, ProfileStore {
  /// What a mode asked to read; `request.nothingSaved` when nothing was ever saved.
  func read<Request: StoreRead>(_ request: Request) throws(StoreError) -> Request.Answer
  /// Does a mode's write in one transaction (creating the database if need be).
  @discardableResult
  func write<Request: StoreWrite>(_ request: Request) throws(StoreError) -> Request.Answer
  /// Makes ready to save, creating the database if need be: called before a mode that saves
  /// progress, so that what goes wrong is heard before the mode starts rather than after its
  /// first answer. What went wrong is queued for `takeNotices()`.
  func prepareToSave()
  /// What the store has to say that has not been said yet, oldest first; it opens nothing.
  func takeNotices() -> [String]
  /// The session is ending: the saves still to come are the last chance for what was kept,
  /// so they may wait for another Reckon's lock (a save otherwise waits a moment at most,
  /// and is kept for the next one).
  func willEnd()
  /// False when there is certainly nothing saved yet (no database file): start-up then
  /// reads no settings, and need not know whose they would be.
  var mayHaveSavedData: Bool { get }
  /// `salvage FILE`: reads what can be read of another database file (one a salvage of a
  /// damaged file set aside, say) and adds every row this store lacks; what it found and
  /// added. `interrupted` (Ctrl-C) stops the reading; what was read is added.
  func salvage(file: String, interrupted: @escaping @Sendable () -> Bool) throws(StoreError) -> SalvageSummary
}

extension Store {
  /// A store that cannot tell answers that it may have something.
  public var mayHaveSavedData: Bool { true }
  public func willEnd() {}
}

/// Why the store could not do something, in words for the user.
public struct StoreError: Error, Sendable, Equatable {
  public var message: String
  /// Whether the store has told the user already (a notice when it opened: a folder that
  /// cannot be written), so that a failed save need not say it again.
  public var isKnown: Bool
  /// Whether no later try can succeed: a mistake in the program (a request nothing runs,
  /// SQL that breaks a constraint), not the disk, the lock or the file. The session does not
  /// keep such a write to try again, since it would stop every save after it.
  public var isLasting: Bool

  public init(_ message: String, isKnown: Bool = false, isLasting: Bool = false) {
    self.message = message
    self.isKnown = isKnown
    self.isLasting = isLasting
  }
}

/// What `salvage FILE` read from a file and added to the store (`Store.salvage(file:)`).
public struct SalvageSummary: Sendable, Equatable {
  public struct Count: Sendable, Equatable {
    /// The table, and the user's words for one of its rows and for more.
    public var table: String
    public var count: Int
    public var one: String
    public var many: String

    public init(table: String, count: Int, one: String, many: String) {
      self.table = table
      self.count = count
      self.one = one
      self.many = many
    }
  }

  /// What could be read of the file, in words (`201,000 answers, 62 facts' Leitner boxes`).
  public var found: String
  /// What the store lacked and now has, by table.
  public var added: [Count]
  /// Why the reading stopped before the end of the file, if it did.
  public var stoppedEarly: String?

  public init(found: String, added: [Count], stoppedEarly: String?) {
    self.found = found
    self.added = added
    self.stoppedEarly = stoppedEarly
  }
}
