import ReckonCore

/// What every mode shares: the calculator's names, the memory register, the settings, the
/// profile, and the injected clock, randomness and store. Leaving a mode never touches it.
public struct SessionState: Sendable {
  public var environment = Environment()
  /// The memory register (M+, M−, MR, MC); nil when empty.
  public var memory: Value?
  /// The profile's settings, once `readSettings()` has read them: most lines (`2+2`, a bill's
  /// tip in cents) print the same whatever they are, and a `reckon -e` that never needs them
  /// never opens the database. Reading them is a step of its own, taken by the line that needs
  /// them (a command says whether it does); nothing reads the store behind a getter.
  public var settings: Settings {
    get {
      // Checked in debug builds and in the fuzzer's (fuzz/run builds with RECKON_CHECKS).
      #if DEBUG || RECKON_CHECKS
        precondition(settingsAreRead, "the settings are used before readSettings()")
      #endif
      return savedSettings
    }
    set {
      savedSettings = newValue
      settingsAreRead = true
    }
  }
  private var savedSettings = Settings()
  private var settingsAreRead = false
  /// What the user must hear that is not a line's own answer: what reading the settings or
  /// saving found (a damaged database moved aside, a save that failed, saving that works
  /// again). The one channel for notices: the session takes them, with the store's own queue,
  /// once per reply and puts them at its start.
  var notices: [Output] = []
  public let clock: any Clock
  public var random: any RandomSource
  /// Where progress and settings are kept; nil runs without saving anything.
  public let store: (any Store)?
  /// Whose settings and progress these are. Worked out when first asked for: the login
  /// name may take a lookup in the password database, which a calculation that reads and
  /// saves nothing should not pay for at start-up.
  public internal(set) var profile: String {
    get { profileName.name }
    set { profileName = LazyName(newValue) }
  }
  private var profileName: LazyName
  /// What has failed to save already: the user has been told once, later failures stay quiet.
  var failedToSave: Set<String> = []
  /// Writes that failed (a full disk, say), oldest first. Each later save tries them again
  /// first, so what was acknowledged on screen is saved once saving works again.
  var unsaved: [@Sendable (any Store) throws -> Void] = []
  /// Kept writes dropped by the save under way, since they can never be saved.
  private var droppedKept = 0
  /// Beyond this many, the oldest kept writes are dropped.
  static let maxUnsaved = 10_000
  /// The variables that hide a unit or a constant and have been said to (once a session).
  public var announcedHiding: Set<String> = []
  /// Asked during long calculations: the executable makes it Ctrl-C.
  public var interruption = Interruption.never
  /// The most digits a result may have, and an approximation may show (the fuzzer lowers it,
  /// to spend its time on logic rather than on big multiplications).
  public var digitLimit = Evaluator.maxDigits
  /// How many steps of Pollard's rho `factor` may take (the fuzzer lowers it too).
  public var factorSteps = Factoring.defaultBudget
  /// Where a mode reads a user's file (`quiz load FILE`); nil when the session may read no
  /// files.
  public var files: (any FileSource)?
  /// What reads a flashcard deck packed as Anki packs it (`cards load deck.apkg`); nil: none
  /// are read.
  public var packages: (any DeckPackages)?
  /// The folder of the user's own files for Reckon (`$XDG_CONFIG_HOME/reckon`), where a mode
  /// looks for its own (the anagram game's level table); nil: none are read.
  public var configFolder: String?
  /// What each mode keeps for the session beyond its own run (the questions loaded, a word
  /// list), by the type its folder defines.
  public var content = ContentShelf()

  public init(clock: any Clock, random: any RandomSource, store: (any Store)? = nil, profile: String = "default") {
    self.clock = clock
    self.random = random
    self.store = store
    self.profileName = LazyName(profile)
  }

  /// A session whose profile is `profile()`, called when the profile is first needed.
  public init(
    clock: any Clock, random: any RandomSource, store: (any Store)?,
    lazyProfile profile: @escaping @Sendable () -> String
  ) {
    self.clock = clock
    self.random = random
    self.store = store
    self.profileName = LazyName(profile)
  }

  /// How values print: the profile's digits, format and separators.
  public var formatter: NumberFormatter {
    // (No more digits than the session's limit: the fuzzer lowers it.)
    var formatter = NumberFormatter(digits: min(settings.digits, digitLimit))
    formatter.style = settings.format
    formatter.separators = settings.separators
    formatter.maxExactPlaces = min(formatter.maxExactPlaces, digitLimit)
    return formatter
  }

  /// Whether `value` prints the same whatever the settings say (an integer of at most three
  /// digits): `reckon -e 2+2` never opens the database.
  public static func printsWithoutSettings(_ value: Value) -> Bool {
    if let r = value.exact { return NumberFormatter.settingsFree(r) != nil }
    return false
  }

  /// A value as it prints; unless it prints without them, the settings must have been read.
  public func text(of value: Value) -> String {
    if let r = value.exact, let text = NumberFormatter.settingsFree(r) { return text }
    return formatter.format(value)
  }

  /// A value as it prints, reading the settings first unless it prints without them.
  public mutating func textReadingSettings(of value: Value) -> String {
    if !SessionState.printsWithoutSettings(value) { readSettings() }
    return text(of: value)
  }

  /// Reads the profile's saved settings, unless they have been read: the step a line takes
  /// before it uses them. What the read has to say (a damaged database moved aside) comes
  /// with the reply.
  public mutating func readSettings() {
    if !settingsAreRead { loadSettings() }
  }

  // MARK: The store

  /// Reads the profile's saved settings over the defaults now; a problem is one warning.
  mutating func loadSettings() {
    settingsAreRead = true
    savedSettings = Settings()
    guard let store, store.mayHaveSavedData else { return }
    do {
      let leftOut = savedSettings.restore(try store.settings(profile: profile))
      if let first = leftOut.first {
        // One warning for them all. They stay in the setting until the rates next change,
        // which saves the rates read without them.
        let many = leftOut.count > 1
        notices.append(
          .warning(
            (many ? "\(leftOut.count) saved exchange rates are" : "a saved exchange rate is")
              + " left out: \(Diagnostic.quoted(first.text)) (line \(first.line) of the setting rates): \(first.reason)"
              + (many ? "; and \(leftOut.count - 1) more" : "")
              + ". The next change of the rates (set rate, rates load, rates remove) saves them without \(many ? "these" : "it")."
          ))
      }
    } catch {
      notices.append(.warning("saved settings could not be read: \(error.message)"))
    }
  }

  /// The notices for the reply being made: the session's own, then the store's queue; none
  /// are kept after.
  mutating func takeNotices() -> [Output] {
    let fromStore = store?.takeNotices() ?? []
    guard !notices.isEmpty || !fromStore.isEmpty else { return [] }
    defer { notices = [] }
    return fromStore.map { .warning($0) } + notices
  }

  /// Saves one setting of the profile (only that one: another Reckon may have changed the
  /// others). A failure becomes one notice; `what` names what was not saved.
  @inline(never)
  mutating func saveSetting(_ key: String, what: String = "the setting applies now but could not be saved") {
    guard let value = settings.stored[key] else { return }
    let (profile, now) = (profile, clock.nowMilliseconds())
    attempt("settings", failure: what) { store throws(StoreError) in
      try store.saveSetting(key, value: value, profile: profile, at: now)
    }
  }

  /// Gets the store ready before a mode that saves progress: what went wrong is heard with
  /// the reply that starts the mode.
  public func prepareStore() {
    store?.prepareToSave()
  }

  /// Saves what a mode keeps (an answer, a bill's line, a card's review) as it is given, and
  /// answers what the write answered; nil when there is no store, or the write failed. A write
  /// that fails (a full disk) is kept, in memory, and tried again first at each later save
  /// and at the end, so what was acknowledged on screen is saved once saving works; the user
  /// hears once that `failure` (`progress is not being saved`), and again when it works.
  @discardableResult @inline(never)
  public mutating func save<Request: StoreWrite>(
    _ request: Request, failure: String = "progress is not being saved"
  ) -> Request.Answer? {
    let answer = SavedAnswer<Request.Answer>()
    let error = attempt("progress", failure: failure, keep: true) { store throws(StoreError) in
      answer.value = try store.write(request)
    }
    return error == nil ? answer.value : nil
  }

  /// Saves a write that the user is told about at once when it fails (a deck's load:
  /// "nothing of it was loaded"), after the kept writes: what it answered, or why it failed.
  /// It is not kept: tried again later, it would stop every save after it (a deck too large
  /// for the disk) and save what the user was told was not.
  public mutating func saveOnce<Request: StoreWrite>(_ request: Request) -> Result<Request.Answer, StoreError> {
    let answer = SavedAnswer<Request.Answer>()
    let error = attempt("progress", failure: "", keep: false) { store throws(StoreError) in
      answer.value = try store.write(request)
    }
    guard let value = answer.value, error == nil else { return .failure(error ?? StoreError("nothing was saved")) }
    return .success(value)
  }

  /// Reads what a mode keeps: `request.nothingSaved` when there is no store. A failure is
  /// the mode's to say (its command's error: `stats` could not read the answers).
  public func load<Request: StoreRead>(_ request: Request) throws(StoreError) -> Request.Answer {
    guard let store else { return request.nothingSaved }
    return try store.read(request)
  }

  /// Every save goes through here: the writes kept from earlier failures first, then this
  /// one. A failure keeps the write for the next save and is one notice per kind
  /// (`settings`, `progress`), and the session goes on; once saving works again, a notice
  /// says what was kept and is now saved. Returns why it failed, nil when it was saved. A
  /// write that is not to be `keep`t is said by the caller, not here. (It takes writes that
  /// answer nothing, so it is made once, not once for each kind of request: `save` hands it
  /// one that puts its answer in a `SavedAnswer`.)
  @discardableResult
  private mutating func attempt(
    _ kind: String, failure: String, keep: Bool = true,
    _ write: @escaping @Sendable (any Store) throws(StoreError) -> Void
  ) -> StoreError? {
    guard let store else { return StoreError("there is nowhere to save it") }
    prepareStore()
    let kept = unsaved.count
    droppedKept = 0
    do {
      try saveKept(in: store)
      try write(store)
      failedToSave.removeAll()
      if kept - droppedKept > 0 { notices.append(.note(SessionState.keptNowSaved(kept - droppedKept))) }
      return nil
    } catch {
      // Kept writes that went through before one failed.
      let savedKept = kept - unsaved.count - droppedKept
      if savedKept > 0 { notices.append(.note(SessionState.keptNowSaved(savedKept))) }
      if error.isLasting {
        // No later try would save it (a mistake in the program, not the disk): kept, it
        // would stop every save after it.
        if keep { SessionState.noteLasting(error, failure: failure, in: &notices, said: &failedToSave) }
        return error
      }
      guard keep else { return error }
      if unsaved.count >= SessionState.maxUnsaved {
        unsaved.removeFirst()
        if failedToSave.insert("dropped").inserted {
          notices.append(
            .warning(
              "Reckon keeps at most \(SessionState.maxUnsaved.grouped) changes that could not be saved: the oldest "
                + "is dropped for each new one"))
        }
      }
      unsaved.append { store in try write(store) }
      if failedToSave.insert(kind).inserted && !error.isKnown {
        notices.append(.warning("\(failure): \(error.message) (Reckon keeps it and tries again with each save)"))
      }
      return error
    }
  }

  /// Writes the kept writes, oldest first, stopping at the first that fails; one that can
  /// never be saved (`StoreError.isLasting`) is dropped, said, and counted in `droppedKept`.
  private mutating func saveKept(in store: any Store) throws(StoreError) {
    while let first = unsaved.first {
      do {
        try first(store)
      } catch {
        let error = error as? StoreError ?? StoreError("\(error)")
        guard error.isLasting else { throw error }
        SessionState.noteLasting(error, failure: "a change kept since saving failed", in: &notices, said: &failedToSave)
        droppedKept += 1
      }
      unsaved.removeFirst()
    }
  }

  /// Says, once a session, that a write can never be saved and is not kept.
  static func noteLasting(
    _ error: StoreError, failure: String, in notices: inout [Output], said: inout Set<String>
  ) {
    guard said.insert("lasting").inserted else { return }
    notices.append(.warning("\(failure): \(error.message) (this cannot be saved, and is not kept)"))
  }

  static func keptNowSaved(_ count: Int) -> String {
    "saving works again: \(count) change\(count == 1 ? "" : "s") kept since saving failed \(count == 1 ? "is" : "are") saved now"
  }

  /// At the end of a session (or a mode): one more try at what was kept, and if that fails
  /// too, how much is lost.
  mutating func saveWhatWasKept() {
    guard let store, !unsaved.isEmpty else { return }
    let kept = unsaved.count
    do {
      try saveKept(in: store)
      failedToSave.removeAll()
      notices.append(.note(SessionState.keptNowSaved(kept)))
    } catch {
      notices.append(
        .warning(
          "\(unsaved.count) change\(unsaved.count == 1 ? "" : "s") could not be saved (\(error.message)); "
            + "Reckon tries again with the next save, but they are lost if it ends now"))
    }
  }
}

extension SessionState {
  /// An evaluator that stops when `interruption` asks.
  /// Its exchange rates are the profile's once the settings have been read (a line that needs
  /// a rate reads them: the calculator's `run`).
  var evaluator: Evaluator {
    var evaluator = Evaluator(interruption: interruption, digitLimit: digitLimit)
    if settingsAreRead { evaluator.rates = savedSettings.rates }
    return evaluator
  }

  /// Whether the profile's settings have been read.
  var hasReadSettings: Bool { settingsAreRead }
}

/// What a write answered, filled in by the write `SessionState.save` hands on (now, or when
/// a kept write is tried again: on the session's thread either way).
final class SavedAnswer<T>: @unchecked Sendable {
  var value: T?
}
