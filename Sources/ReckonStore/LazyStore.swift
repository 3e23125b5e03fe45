import Foundation
import ReckonSession
import Synchronization

/// The store as the executable uses it: the database is opened only when it is needed, and
/// created only when something is saved. A script or a pipe that saves nothing leaves no
/// files behind, and reading the settings at start-up (the one read every run makes) goes
/// through `QuickRead`, not a whole GRDB pool.
public final class LazyStore: Store, @unchecked Sendable {
  let path: String
  private var store: SQLiteStore?
  private let lock = NSLock()
  /// Whether the store has been opened and its warnings may not have been taken yet: the
  /// session asks after every line, and a 100,000-line script should not take a lock each time.
  private let mayHaveWarnings = Atomic<Bool>(false)

  public init(path: String) { self.path = path }

  /// The real store, opened on first use. A folder that cannot be written, or a damaged
  /// file, gives a store that works in memory: `takeWarnings` says so.
  func opened() -> SQLiteStore {
    lock.lock()
    defer { lock.unlock() }
    if let store { return store }
    let store = SQLiteStore.open(path: path)
    self.store = store
    mayHaveWarnings.store(true, ordering: .releasing)
    return store
  }

  /// The store if it has been opened.
  private var current: SQLiteStore? {
    lock.lock()
    defer { lock.unlock() }
    return store
  }

  private var fileExists: Bool { access(path, F_OK) == 0 }

  /// The open store, or nil when there is none yet and no file to open.
  private func existing() -> SQLiteStore? {
    current ?? (fileExists ? opened() : nil)
  }

  /// Whether the database has been opened through GRDB (start-up should not need to).
  var isOpen: Bool { current != nil }

  // MARK: Store

  public func prepareToSave() -> [String] { opened().takeWarnings() }

  public func takeWarnings() -> [String] {
    // The store gives its warnings once: after that there are none to take.
    guard mayHaveWarnings.exchange(false, ordering: .acquiring) else { return [] }
    return current?.takeWarnings() ?? []
  }

  public var mayHaveSavedData: Bool { isOpen || fileExists }

  public func settings(profile: String) throws(StoreError) -> SavedSettings {
    if !isOpen {
      guard fileExists else { return [:] }
      if let settings = QuickRead.settings(path: path, profile: profile) { return settings }
    }
    return try opened().settings(profile: profile)
  }

  public func saveSetting(_ key: String, value: String, profile: String, at milliseconds: Int64) throws(StoreError) {
    try opened().saveSetting(key, value: value, profile: profile, at: milliseconds)
  }

  public func addProfile(_ name: String, at milliseconds: Int64) throws(StoreError) {
    try opened().addProfile(name, at: milliseconds)
  }

  public func profiles() throws(StoreError) -> [ProfileSummary] {
    try existing()?.profiles() ?? []
  }

  @discardableResult
  public func record(_ answer: AnswerRecord, learning: Leitner?) throws(StoreError) -> FactState? {
    try opened().record(answer, learning: learning)
  }

  public func setBack(item: String, profile: String, mode: String, at milliseconds: Int64) throws(StoreError) {
    try opened().setBack(item: item, profile: profile, mode: mode, at: milliseconds)
  }

  public func factStates(profile: String, mode: String) throws(StoreError) -> [String: FactState] {
    try existing()?.factStates(profile: profile, mode: mode) ?? [:]
  }

  public func itemTotals(profile: String, mode: String) throws(StoreError) -> [String: ItemTotals] {
    try existing()?.itemTotals(profile: profile, mode: mode) ?? [:]
  }

  public func activity(profile: String, mode: String, from first: Day) throws(StoreError) -> [DayActivity] {
    try existing()?.activity(profile: profile, mode: mode, from: first) ?? []
  }

  public func practiceDays(profile: String, mode: String) throws(StoreError) -> [Day] {
    try existing()?.practiceDays(profile: profile, mode: mode) ?? []
  }

  public func answerGroups(profile: String, mode: String) throws(StoreError) -> [AnswerGroup] {
    try existing()?.answerGroups(profile: profile, mode: mode) ?? []
  }

  public func dailyChallenges(profile: String, from first: Day, through last: Day) throws(StoreError) -> [DailyRecord] {
    try existing()?.dailyChallenges(profile: profile, from: first, through: last) ?? []
  }

  @discardableResult
  public func saveDaily(_ challenge: DailyRecord, answer: AnswerRecord?) throws(StoreError) -> DailyRecord {
    try opened().saveDaily(challenge, answer: answer)
  }

  public func savePersonality(_ result: PersonalityRecord) throws(StoreError) {
    try opened().savePersonality(result)
  }

  public func personalityResults(profile: String) throws(StoreError) -> [PersonalityRecord] {
    try existing()?.personalityResults(profile: profile) ?? []
  }

  public func saveAnagramRound(_ round: AnagramRecord) throws(StoreError) {
    try opened().saveAnagramRound(round)
  }

  public func anagramRounds(profile: String) throws(StoreError) -> [AnagramRecord] {
    try existing()?.anagramRounds(profile: profile) ?? []
  }
}
