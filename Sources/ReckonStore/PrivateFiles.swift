import Glibc

/// Files and folders only their owner can read: folders 0700, files 0600. Nothing is kept
/// in a folder that another user owns or can write to, or below one (a folder every user can
/// write to is allowed above Reckon's own only with its sticky bit, as /tmp has it).
public struct FileProblem: Error {
  public var message: String
  /// Whether another user could read or change what would be kept there (a folder that is
  /// theirs or open to them, a symbolic link in a shared folder, a file that is theirs): then
  /// nothing is read from or written to that place, not even a saved database to read.
  public var unsafe = false

  init(message: String, unsafe: Bool = false) {
    self.message = message
    self.unsafe = unsafe
  }

  /// The C library's words for `errno`, in lower case.
  static func errno() -> FileProblem {
    FileProblem(message: String(cString: strerror(Glibc.errno)).lowercased())
  }
}

/// The folder holding `path` (`/a/b` for `/a/b/c`, `/` for `/a`, empty for `a`).
func parentFolder(of path: String) -> String {
  var bytes = Array(path.utf8)
  while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
  guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
  var end = slash
  while end > 0 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
  return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
}

/// The private folders and files of Reckon's data.
public enum PrivateFiles {
  /// Makes the folder that will hold `file` (missing folders 0700, made so by `mkdir`
  /// itself), after checking every folder on the way: each must be ours or root's, and one
  /// that every user can write to must have the sticky bit. The folder itself must be ours,
  /// and not a symbolic link when it is in such a shared folder (another user could have put
  /// it there). Ours but open for every user to write (0777): it is made 0700, and the note
  /// returned says so. Throws why not, `unsafe` when another user could get in.
  public static func prepareFolder(holding file: String) throws(FileProblem) -> [String] {
    try prepareFolder(parentFolder(of: file))
  }

  static func prepareFolder(_ folder: String) throws(FileProblem) -> [String] {
    try walk(folder, create: true)
  }

  /// Whether `folder` and every folder above it are as `prepareFolder` leaves them, without
  /// making or changing anything (the start-up read).
  static func folderIsPrivate(_ folder: String) -> Bool {
    guard let notes = try? walk(folder, create: false) else { return false }
    return notes.isEmpty
  }

  static func walk(_ folder: String, create: Bool) throws(FileProblem) -> [String] {
    let user = geteuid()
    var notes: [String] = []
    var names = folder.split(separator: "/").map(String.init)
    if folder.isEmpty || !folder.hasPrefix("/") {
      // A relative folder: the folders above the working one are checked too.
      guard let cwd = workingFolder() else { throw FileProblem.errno() }
      names = cwd.split(separator: "/").map(String.init) + names
    }
    var current = "/"
    var shared = false  // the folder above is open for every user to write to (sticky)
    for (index, name) in ([""] + names).enumerated() {
      let last = index == names.count
      if !name.isEmpty { current = (current == "/" ? "" : current) + "/" + name }
      var info = stat()
      if lstat(current, &info) != 0 {
        guard Glibc.errno == ENOENT else { throw FileProblem.errno() }
        guard create else { return notes }
        if mkdir(current, 0o700) != 0 && Glibc.errno != EEXIST { throw FileProblem.errno() }
        // Made now (or by someone else at this very moment: checked like any other).
        guard lstat(current, &info) == 0 else { throw FileProblem.errno() }
      }
      if info.st_mode & S_IFMT == S_IFLNK {
        if shared {
          throw FileProblem(
            message: "\(current) is a symbolic link in \(parentFolder(of: current)), where every user can make one",
            unsafe: true)
        }
        try checkOwner(info, current, user: user, rootToo: true)
        guard stat(current, &info) == 0 else { throw FileProblem.errno() }
      }
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw FileProblem(message: last ? "it is a file, not a folder" : "\(current) is not a folder")
      }
      try checkOwner(info, current, user: user, rootToo: !last)
      let everyone = info.st_mode & S_IWOTH != 0
      let sticky = info.st_mode & S_ISVTX != 0
      if last {
        if everyone {
          guard !sticky, create else {
            throw FileProblem(
              message: "every user can write to \(current); Reckon keeps its files only in a folder of its own",
              unsafe: true)
          }
          guard chmod(current, 0o700) == 0 else { throw FileProblem.errno() }
          notes.append("\(current) was open for every user to write to (\(octal(info.st_mode))); it is now 0700")
        }
        guard !create || access(current, W_OK | X_OK) == 0 else { throw FileProblem.errno() }
      } else if everyone && !sticky {
        throw FileProblem(
          message: "every user can write to \(current), so they could replace the folders in it", unsafe: true)
      }
      shared = everyone
    }
    return notes
  }

  static func checkOwner(_ info: stat, _ path: String, user: uid_t, rootToo: Bool) throws(FileProblem) {
    guard info.st_uid != user && (!rootToo || info.st_uid != 0) else { return }
    throw FileProblem(message: "\(path) belongs to another user (uid \(info.st_uid))", unsafe: true)
  }

  /// Checks a file that may be there: a plain file of ours, not a symbolic link. One that
  /// other users can read or write (0644) is made 0600, and the note returned says so.
  static func checkFile(_ path: String) throws(FileProblem) -> [String] {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if Glibc.errno == ENOENT { return [] }
      throw FileProblem.errno()
    }
    if info.st_mode & S_IFMT == S_IFLNK {
      throw FileProblem(message: "\(path) is a symbolic link", unsafe: true)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw FileProblem(message: "\(path) is not a plain file", unsafe: true)
    }
    try checkOwner(info, path, user: geteuid(), rootToo: false)
    guard info.st_mode & 0o077 != 0 else { return [] }
    guard chmod(path, 0o600) == 0 else { throw FileProblem.errno() }
    return ["\(path) was open to other users (\(octal(info.st_mode))); it is now 0600"]
  }

  /// The -wal and -shm files of a database that this user may write but may not write
  /// themselves (an earlier run against a read-only database made them with its mode, 0400):
  /// made 0600, or every later run could save nothing, for ever. The notes say what was
  /// repaired. Files of another user are left to `checkFile`.
  static func repairLeftovers(of database: String) -> [String] {
    guard access(database, W_OK) == 0 else { return [] }
    var notes: [String] = []
    for file in [database + "-wal", database + "-shm"] {
      var info = stat()
      guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
        info.st_mode & 0o600 != 0o600
      else { continue }
      if chmod(file, 0o600) == 0 {
        notes.append(
          "\(file) could not be written (\(octal(info.st_mode)), left by a run on a read-only database); it is now 0600"
        )
      }
    }
    return notes
  }

  /// Why the database cannot be opened for writing, naming the file at fault: the database
  /// or its -wal or -shm being read-only. Nil when none of them is.
  static func whyNotWritable(_ database: String) -> String? {
    for file in [database, database + "-wal", database + "-shm"] where access(file, F_OK) == 0 {
      guard access(file, W_OK) != 0 else { continue }
      var info = stat()
      let mode = lstat(file, &info) == 0 ? " (\(octal(info.st_mode)))" : ""
      return "\(file) is read-only\(mode)"
    }
    return nil
  }

  /// Whether a file is a plain file of ours that only we can read (the start-up read).
  static func fileIsPrivate(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == geteuid()
      && info.st_mode & 0o077 == 0
  }

  /// A mode's permission bits as `chmod` takes them (`0644`, `1777`).
  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode & 0o7777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  static func workingFolder() -> String? {
    guard let cwd = getcwd(nil, 0) else { return nil }
    defer { free(cwd) }
    return String(cString: cwd)
  }
}

/// Creates an empty file with mode 0600 unless one is there (SQLite then keeps the mode,
/// and gives its -wal and -shm files the same).
func createPrivateFile(_ path: String) throws(FileProblem) {
  let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
  if fd >= 0 {
    close(fd)
    return
  }
  if Glibc.errno == EEXIST { return }
  throw FileProblem.errno()
}

/// Moves a damaged database (and its -wal and -shm files) aside, in the same folder, never
/// over a file already there (another Reckon's move of the same second).
func moveAside(_ path: String, to aside: String) throws(FileProblem) {
  guard access(aside, F_OK) != 0 else { throw FileProblem(message: "\(aside) is already there") }
  guard rename(path, aside) == 0 else { throw FileProblem.errno() }
  for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
    _ = rename(path + suffix, aside + suffix)
  }
}

/// Moves it aside as `base`, or as `base-2`, `base-3`… when that name is taken (a file of
/// the same second, or one left from before), at once: the name is never waited for.
/// Returns the name it took.
func moveAside(_ path: String, toAFreeNameFrom base: String) throws(FileProblem) -> String {
  for number in 1...100 {
    let aside = number == 1 ? base : base + "-\(number)"
    guard access(aside, F_OK) != 0 else { continue }
    try moveAside(path, to: aside)
    return aside
  }
  throw FileProblem(message: "\(base) and the 99 names after it are taken")
}
