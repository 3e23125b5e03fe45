import Synchronization

/// How the store salvages a damaged database: how much work it may do, what tells it that
/// the user asked it to stop (the executable gives the flag its Ctrl-C handler sets; by
/// default nothing does), and whom it tells how far it has got.
///
/// The bound is work, not time: a busy or slow machine keeps the same rows as an idle one.
/// A unit of work is a page read by the page reader, or a thousand steps of SQLite's virtual
/// machine; a salvage may spend `baseWork` units and `workPerPage` more for each page of the
/// damaged file. Reading every row of an undamaged file takes about 15 units a page: the
/// rest is for damage SQLite reads round and round (a b-tree whose pointers loop) before it
/// notices.
public struct SalvagePolicy: Sendable {
  public var baseWork: Int
  public var workPerPage: Int
  public var interrupted: @Sendable () -> Bool
  /// Told how far the salvage has got, about every 256 units of work (`SalvageProgress`).
  public var progress: (@Sendable (SalvageProgress) -> Void)?

  public init(
    baseWork: Int = 200_000, workPerPage: Int = 100, interrupted: @escaping @Sendable () -> Bool = { false },
    progress: (@Sendable (SalvageProgress) -> Void)? = nil
  ) {
    self.baseWork = baseWork
    self.workPerPage = workPerPage
    self.interrupted = interrupted
    self.progress = progress
  }

  func limits() -> SalvageLimits {
    SalvageLimits(base: baseWork, perPage: workPerPage, interrupted: interrupted, progress: progress)
  }
}

/// How far a salvage has got: the file, what it is doing, and the part of it done.
public struct SalvageProgress: Sendable, Equatable {
  public enum Step: Sendable, Equatable {
    /// Reading the file's pages without SQLite.
    case pages
    /// Reading the tables through SQLite, for what the pages did not give.
    case tables
    /// Making the fresh file whole (its migrations, the counts).
    case finishing
  }

  public var path: String
  public var step: Step
  /// What is done of the whole, from 0 to 1.
  public var fraction: Double

  /// `reading its pages, 45 %`.
  public var description: String {
    let what =
      switch step {
      case .pages: "reading its pages"
      case .tables: "reading its tables"
      case .finishing: "finishing"
      }
    return "\(what), \(Int(fraction * 100)) %"
  }
}

/// What a salvage has spent and may spend, and whether it must stop. One salvage runs on one
/// thread; its SQLite progress handler and its page reader count into the same limits.
final class SalvageLimits: Sendable {
  enum Stop: Sendable, Equatable {
    case interrupted
    /// The work budget is spent: damage that would take too long to read.
    case outOfWork
  }

  let interrupted: @Sendable () -> Bool
  let base: Int
  let perPage: Int
  private let progress: (@Sendable (SalvageProgress) -> Void)?
  private let counters = Mutex<Counters>(Counters())

  struct Counters {
    var spent = 0
    var budget = Int.max
    /// The page count the budget was set for, and where the progress is shown as being.
    var pages = 0
    var step = SalvageProgress.Step.pages
    var stepDone = 0
    var stepTotal = 1
    var lastShown = 0
    var path = ""
  }

  init(
    base: Int, perPage: Int, interrupted: @escaping @Sendable () -> Bool,
    progress: (@Sendable (SalvageProgress) -> Void)? = nil
  ) {
    self.base = base
    self.perPage = perPage
    self.interrupted = interrupted
    self.progress = progress
  }

  /// The budget for a file of `pages` pages at `path` (once its page size is known).
  func start(pages: Int, path: String) {
    counters.withLock {
      $0.pages = pages
      $0.path = path
      let (product, overflow) = perPage.multipliedReportingOverflow(by: max(pages, 0))
      $0.budget = overflow ? Int.max : base &+ product
    }
  }

  /// The units spent so far.
  var spent: Int { counters.withLock { $0.spent } }

  /// Counts `units` of work done, and shows the progress now and then.
  func spend(_ units: Int = 1) {
    let shown: SalvageProgress? = counters.withLock {
      $0.spent &+= units
      $0.stepDone &+= units
      guard progress != nil, $0.spent - $0.lastShown >= 256 else { return nil }
      $0.lastShown = $0.spent
      return Self.progress(of: $0)
    }
    if let shown { progress?(shown) }
  }

  /// A new step of the salvage, of about `total` units.
  func begin(_ step: SalvageProgress.Step, total: Int) {
    let shown: SalvageProgress? = counters.withLock {
      $0.step = step
      $0.stepDone = 0
      $0.stepTotal = max(total, 1)
      return progress == nil ? nil : Self.progress(of: $0)
    }
    if let shown { progress?(shown) }
  }

  /// The salvage is over: the progress is shown at its end (which clears a line showing it).
  func end() {
    let shown: SalvageProgress? = counters.withLock {
      $0.step = .finishing
      $0.stepDone = $0.stepTotal
      return progress == nil ? nil : SalvageProgress(path: $0.path, step: .finishing, fraction: 1)
    }
    if let shown { progress?(shown) }
  }

  /// The steps' shares of the whole: the pages 60 %, the tables 35 %, finishing 5 %.
  private static func progress(of counters: Counters) -> SalvageProgress {
    let part = min(1, Double(counters.stepDone) / Double(counters.stepTotal))
    let fraction =
      switch counters.step {
      case .pages: 0.6 * part
      case .tables: 0.6 + 0.35 * part
      case .finishing: 0.95 + 0.05 * part
      }
    return SalvageProgress(path: counters.path, step: counters.step, fraction: fraction)
  }

  /// Why the salvage must stop now, if it must.
  var stop: Stop? {
    if interrupted() { return .interrupted }
    return counters.withLock { $0.spent > $0.budget } ? .outOfWork : nil
  }

  func check() throws(SalvageProblem) {
    if let stop { throw .stopped(stop) }
  }
}
