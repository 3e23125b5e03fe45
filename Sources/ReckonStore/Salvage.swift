import Glibc
import ReckonCore
import ReckonSession
import SQLite
import Synchronization

/// What a salvage kept, lost, and where the damaged file went.
struct SalvageReport {
  var copy: SalvageCopy
  var aside: String
  /// The modes' names for their tables' rows (`ModeTables.rowNames`).
  var modeRowNames: [(table: String, one: String, many: String)] = []

  /// The user's names for the tables: one, and more than one.
  static let tableNames: [String: (String, String)] = [
    "answer": ("answer", "answers"),
    "factState": ("fact's Leitner box", "facts' Leitner boxes"),
    "profile": ("profile", "profiles"),
    "setting": ("setting", "settings"),
    "daily": ("daily challenge", "daily challenges"),
    "gameResult": ("game result", "game results"),
    "personality": ("personality result", "personality results"),
    "anagramRound": ("anagram round", "anagram rounds"),
  ]
  static let order = [
    "answer", "factState", "daily", "gameResult", "personality", "anagramRound", "setting", "profile",
  ]

  /// What each table kept and lost, in words: `492 answers (108 could not be read), 3 settings`.
  var kept: String {
    // In the order above, then any other (no sort: each of its kind costs code in the binary).
    let tables =
      Self.order.compactMap { name in copy.tables.first { $0.name == name } }
      + copy.tables.filter { !Self.order.contains($0.name) }
    var parts: [String] = []
    for table in tables where table.kept > 0 || table.lost > 0 || table.garbled > 0 || !table.lostIsExact {
      let own = modeRowNames.first { $0.table == table.name }.map { ($0.one, $0.many) }
      let (one, many) = Self.tableNames[table.name] ?? own ?? (table.name, table.name)
      var part = "\(table.kept.grouped) \(table.kept == 1 ? one : many)"
      let lost = table.lost + table.garbled
      if lost > 0 {
        part += " (\(table.lostIsExact ? "" : "at least ")\(lost.grouped) could not be read)"
      } else if !table.lostIsExact {
        part += " (some may not have been readable)"
      }
      parts.append(part)
    }
    return parts.isEmpty ? "nothing could be read" : parts.joined(separator: ", ")
  }

  /// The notice: what was damaged, what was kept and lost, and where the damaged file is.
  func notice(path: String, damage: String) -> String {
    if copy.tables.allSatisfy({ $0.kept == 0 }) && copy.stoppedEarly == nil {
      return "\(path) was damaged (\(damage)), and nothing in it could be read; it was moved to \(aside) and a fresh "
        + "one started"
    }
    let rest = "The rest may still be in the damaged file, which was moved aside: salvage \(aside) adds what it holds"
    switch copy.stoppedEarly {
    case .interrupted:
      return "\(path) was damaged (\(damage)). Reckon was copying what could be read into a fresh file when Ctrl-C "
        + "stopped it; it uses what was copied from now on: \(kept). \(rest)"
    case .outOfWork:
      return "\(path) was damaged (\(damage)). Reckon copied what it could read into a fresh file, which it uses "
        + "from now on, but the damage would take too long to read whole, and it stopped before the end: \(kept). "
        + "\(rest)"
    case nil:
      return "\(path) was damaged (\(damage)). Reckon copied what could be read into a fresh file, which it uses "
        + "from now on: \(kept). The damaged file was moved to \(aside)"
    }
  }
}

/// What became of a salvage.
enum SalvageOutcome {
  /// The fresh file is at the name, the damaged one aside.
  case salvaged(SalvageReport)
  /// Another Reckon put a fresh file at the name meanwhile: nothing to do but open it.
  case replacedElsewhere
  /// Ctrl-C: nothing was changed.
  case stopped
  /// It could not be made (why): nothing was changed.
  case failed(String)
}

extension SQLiteStore {
  /// Copies what can be read of the damaged database at `path` into a fresh one (beside it,
  /// as `path.salvage-PID`), then moves the damaged one aside (with its -wal and -shm) and
  /// puts the fresh one in its place.
  ///
  /// The file is read without its write lock, so other Reckons go on saving meanwhile; then
  /// the write lock is taken (nothing can be committed from then until the files have moved)
  /// and `PRAGMA data_version` says whether anything was committed while it was read: if so,
  /// it is read again, once, holding the lock (each copy with the whole budget). The move
  /// itself holds the folder's lock too (`FolderLock`), so that no Reckon opens the name in
  /// the middle of it. Stopped part-way (Ctrl-C, through `policy`, or its work spent), what
  /// was copied is kept, the damaged file aside as always, where `salvage FILE` can read it
  /// again; Ctrl-C before anything was copied leaves everything as it was. `now` (seconds
  /// since 1970) names the damaged file aside.
  static func salvage(
    _ path: String, policy: SalvagePolicy, now: time_t? = nil, tables: [any ModeTables.Type] = RegisteredTables.all
  ) -> SalvageOutcome {
    guard let salvaged = inode(path) else { return .replacedElsewhere }
    // The connection that takes the write lock for the move, and says whether anything was
    // committed meanwhile. It must leave the file as it is when it closes: no checkpoint.
    let locker = try? Database(path, flags: .readWrite)
    try? locker?.keepWALFilesOnClose()
    try? locker?.skipCheckpointOnClose()
    locker?.setBusyTimeout(milliseconds: 2000)
    for attempt in 0..<2 {
      // Each copy has the whole budget.
      let limits = policy.limits()
      // The second copy, when another Reckon wrote during the first (it drills on, say), is
      // made holding the write lock, so that it is the last: that Reckon's saves wait half a
      // second, then it keeps them and saves them into the fresh file afterwards.
      var locked = false
      defer { if locked { try? locker?.execute("ROLLBACK") } }
      if attempt == 1 {
        guard let locker, (try? locker.execute("BEGIN IMMEDIATE")) != nil else {
          return .failed("another Reckon kept writing to it")
        }
        locked = true
      }
      let version = try? locker?.dataVersion()
      let signature = FileSignature(path)
      let temporary = path + ".salvage-\(getpid())"
      removeSalvageFiles(temporary)
      guard let marker = SalvageMarker(temporary) else {
        return .failed("\(temporary) could not be made: \(FileProblem.errno().message)")
      }
      let copy: SalvageCopy
      switch copyReadable(from: path, into: temporary, limits: limits, tables: tables) {
      case .success(let copied):
        copy = copied
      case .failure(.stopped(.interrupted)):
        marker.remove()
        return .stopped
      case .failure(.stopped(.outOfWork)):
        marker.remove()
        return .failed("it could not be read within the salvage's work")
      case .failure(.failed(let reason)):
        marker.remove()
        return .failed(reason)
      }
      // Stopped by Ctrl-C with nothing copied: nothing changes.
      guard copy.stoppedEarly != .interrupted || copy.tables.contains(where: { $0.kept > 0 }) else {
        marker.remove()
        return .stopped
      }
      // Holding the write lock: was anything committed since the copy began?
      var unchanged = locked
      if !locked {
        if let locker {
          do throws(SQLiteError) {
            try locker.execute("BEGIN IMMEDIATE")
            locked = true
            unchanged = try locker.dataVersion() == version
          } catch {
            // A file SQLite cannot lock cannot be written either; one another Reckon has
            // locked all this while is being written.
            unchanged = isCorruption(error) && FileSignature(path) == signature
          }
        } else {
          unchanged = FileSignature(path) == signature
        }
      }
      guard unchanged else {
        marker.remove()
        // (Stopped by Ctrl-C, it is not read again: nothing changes.)
        if copy.stoppedEarly == .interrupted { return .stopped }
        continue
      }
      switch install(marker, at: path, salvaged: salvaged, now: now ?? time(nil)) {
      case .installed(let aside):
        return .salvaged(
          SalvageReport(copy: copy, aside: aside, modeRowNames: tables.flatMap { $0.rowNames }))
      case .replaced:
        marker.remove()
        return .replacedElsewhere
      case .failed(let reason):
        marker.remove()
        return .failed(reason)
      }
    }
    return .failed("another Reckon kept writing to it")
  }

  /// Moves the damaged file aside and the fresh one (`marker`'s) into its place, holding the
  /// folder's lock: the name always leads to a whole database, and a Reckon killed half-way
  /// leaves what the next start puts back (`cleanSalvageLeftovers`).
  enum Install {
    /// Moved: the name the damaged file was moved to.
    case installed(String)
    /// The file at the name is no longer the one salvaged (another Reckon replaced it).
    case replaced
    case failed(String)
  }

  static func install(_ marker: SalvageMarker, at path: String, salvaged: UInt64, now: time_t) -> Install {
    // The fresh file's bytes are on the disk before its name is.
    let fd = Glibc.open(marker.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0, fsync(fd) == 0 else {
      if fd >= 0 { close(fd) }
      return .failed("\(marker.path) could not be saved: \(FileProblem.errno().message)")
    }
    close(fd)
    let folder = parentFolder(of: path)
    guard let lock = FolderLock(folder.isEmpty ? "." : folder, exclusive: true, patience: 5000) else {
      return .failed("another Reckon held \(folder) for 5 s")
    }
    defer { lock.release() }
    guard inode(path) == salvaged else { return .replaced }
    // 1. A second name for the damaged file: the name still leads to it. (Where the file
    // system has no hard links, the damaged file is renamed, and the name leads nowhere
    // until step 3.)
    let base = path + ".corrupt-" + timestamp(now)
    var aside: String?
    for number in 1...100 {
      let name = number == 1 ? base : base + "-\(number)"
      if link(path, name) == 0 {
        aside = name
        break
      }
      if errno == EEXIST { continue }
      guard errno == EPERM || errno == EOPNOTSUPP || errno == EMLINK, access(name, F_OK) != 0,
        rename(path, name) == 0
      else { return .failed("\(path) could not be moved aside: \(FileProblem.errno().message)") }
      aside = name
      break
    }
    guard let aside else { return .failed("\(base) and the 99 names after it are taken") }
    let linked = inode(path) == salvaged
    let undo = { (moved: [String]) in
      for back in moved { _ = rename(aside + back, path + back) }
      if linked { unlink(aside) } else { _ = rename(aside, path) }
    }
    // 2. Its -wal, -shm and -journal go with it (the fresh file must not find them).
    var moved: [String] = []
    for suffix in ["-wal", "-shm", "-journal"] where access(path + suffix, F_OK) == 0 {
      guard rename(path + suffix, aside + suffix) == 0 else {
        let problem = FileProblem.errno().message
        undo(moved)
        return .failed("\(path + suffix) could not be moved aside: \(problem)")
      }
      moved.append(suffix)
    }
    // 3. The fresh file takes the name, in one step.
    guard rename(marker.path, path) == 0 else {
      let problem = FileProblem.errno().message
      undo(moved)
      return .failed("\(path) could not be replaced: \(problem)")
    }
    marker.installed = true
    let dir = Glibc.open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dir >= 0 {
      fsync(dir)
      close(dir)
    }
    return .installed(aside)
  }

  /// Removes a salvage's temporary file and what SQLite may have made beside it.
  static func removeSalvageFiles(_ temporary: String) {
    for suffix in ["-journal", "-wal", "-shm", ""] { unlink(temporary + suffix) }
  }

  /// What a salvage that was killed left beside the database at `path` (its fresh file,
  /// `path.salvage-PID`, and what SQLite made beside that), removed; and a move it did not
  /// finish (the damaged file with a second name aside, some of its -wal, -shm and -journal
  /// moved to that name) undone, so that the damaged file is as it was and the next use
  /// salvages it again. A salvage still running holds its file's lock (`flock`) and is left
  /// alone; all this is done holding the folder's lock, as a salvage moves files.
  static func cleanSalvageLeftovers(of path: String) {
    let folder = parentFolder(of: path)
    let prefix = baseName(of: path) + ".salvage-"
    var names = folderEntries(folder.isEmpty ? "." : folder).filter { $0.hasPrefix(prefix) }
    guard !names.isEmpty else { return }
    guard let lock = FolderLock(folder.isEmpty ? "." : folder, exclusive: true, patience: 2000) else { return }
    defer { lock.release() }
    names = folderEntries(folder.isEmpty ? "." : folder).filter { $0.hasPrefix(prefix) }
    let inFolder = { (name: String) in folder.isEmpty ? name : folder + "/" + name }
    let suffixes = ["-journal", "-wal", "-shm"]
    let temporaries = Set(
      names.map { name in suffixes.reduce(name) { $0.hasSuffix($1) ? String($0.dropLast($1.count)) : $0 } })
    for temporary in temporaries.map(inFolder) {
      if access(temporary, F_OK) == 0 {
        let fd = Glibc.open(temporary, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { continue }
        let alive = flock(fd, LOCK_EX | LOCK_NB) != 0
        close(fd)
        if alive { continue }
        undoUnfinishedMove(path, folder: folder)
      }
      removeSalvageFiles(temporary)
    }
  }

  /// A file moved aside that is still the file at `path` (a second name, made by a salvage
  /// killed before the fresh file took the name): its -wal, -shm and -journal go back to
  /// `path`, and the second name goes.
  static func undoUnfinishedMove(_ path: String, folder: String) {
    guard let current = inode(path) else { return }
    let prefix = baseName(of: path) + ".corrupt-"
    for name in folderEntries(folder.isEmpty ? "." : folder) where name.hasPrefix(prefix) {
      guard !name.hasSuffix("-wal"), !name.hasSuffix("-shm"), !name.hasSuffix("-journal") else { continue }
      let aside = folder.isEmpty ? name : folder + "/" + name
      guard inode(aside) == current else { continue }
      for suffix in ["-wal", "-shm", "-journal"]
      where access(aside + suffix, F_OK) == 0 && access(path + suffix, F_OK) != 0 {
        _ = rename(aside + suffix, path + suffix)
      }
      unlink(aside)
    }
  }

  static func baseName(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
    return String(path[path.utf8.index(after: slash)...])
  }

  /// The names in a folder (not `.` and `..`).
  static func folderEntries(_ folder: String) -> [String] {
    guard let dir = opendir(folder) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}

/// A salvage's fresh file, made empty (0600, never over one that is there) and locked with
/// `flock` while this process works on it: a later start finds it unlocked if the salvage was
/// killed, and removes it. (An advisory `flock`, not the POSIX locks SQLite takes.)
final class SalvageMarker {
  let path: String
  private let fd: Int32
  /// Whether the file has been moved into the database's place (not to be removed then).
  var installed = false

  init?(_ path: String) {
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return nil }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      close(fd)
      unlink(path)
      return nil
    }
    self.path = path
    self.fd = fd
  }

  /// Removes the file (and SQLite's beside it), unless it was installed.
  func remove() {
    if !installed { SQLiteStore.removeSalvageFiles(path) }
  }

  deinit { close(fd) }
}

/// The lock (`flock`) on the database's folder that a salvage holds while it moves files, and
/// that opening the database holds (shared) while SQLite finds its files: so that no Reckon
/// opens the database in the middle of a move (it would find the damaged file without its
/// -wal, and make one the fresh file would then take as its own).
final class FolderLock {
  private let fd: Int32
  private var held = true

  /// Nil when the folder cannot be opened, or the lock not had within `patience` ms.
  init?(_ folder: String, exclusive: Bool, patience: Int64) {
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    let deadline = monotonicMilliseconds() + patience
    while flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, monotonicMilliseconds() < deadline else {
        close(fd)
        return nil
      }
      usleep(2000)
    }
    self.fd = fd
  }

  func release() {
    guard held else { return }
    held = false
    close(fd)
  }

  deinit { release() }
}

/// What says whether a file was written to: the size and modification time of the database
/// and its -wal, and the database's inode.
struct FileSignature: Equatable {
  var parts: [Int64]

  init(_ path: String) {
    parts = []
    for file in [path, path + "-wal"] {
      var info = stat()
      if stat(file, &info) == 0 {
        parts += [Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
      } else {
        parts += [-1]
      }
    }
  }
}

/// The files the page reader has read (damaged ones, and the settings at start-up), kept open
/// until the process ends: closing a descriptor of a file cancels every POSIX lock this
/// process holds on it, SQLite's included (a connection to the file, here or in another store
/// of this process, would lose its lock without knowing it).
enum KeptOpen {
  /// Each file kept, as three numbers: its device, its inode and the descriptor. (Integers,
  /// not a dictionary nor a list of structures: each generic type a start-up meets first
  /// costs the Swift runtime 10,000 instructions, a first dictionary 0.1 million.)
  private static let kept = Mutex<[Int]>([])

  /// A descriptor of the file now at `path` (read-only), opened once per file.
  static func descriptor(_ path: String) -> Int32? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return kept.withLock { (kept: inout [Int]) -> Int32? in
      for i in stride(from: 0, to: kept.count, by: 3)
      where kept[i] == Int(truncatingIfNeeded: info.st_dev) && kept[i + 1] == Int(truncatingIfNeeded: info.st_ino) {
        return Int32(kept[i + 2])
      }
      // Those of files deleted since (a process that salvages many: the tests) are closed:
      // no one can open such a file any more, so no lock on it matters.
      if kept.count >= 3 * 64 {
        var left: [Int] = []
        for i in stride(from: 0, to: kept.count, by: 3) {
          var gone = stat()
          if fstat(Int32(kept[i + 2]), &gone) == 0 && gone.st_nlink == 0 {
            close(Int32(kept[i + 2]))
          } else {
            left += kept[i..<(i + 3)]
          }
        }
        kept = left
      }
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { return nil }
      var opened = stat()
      guard fstat(fd, &opened) == 0 else { return fd }  // (kept open all the same)
      kept += [Int(truncatingIfNeeded: opened.st_dev), Int(truncatingIfNeeded: opened.st_ino), Int(fd)]
      return fd
    }
  }
}
