import Glibc

/// Files and folders only their owner can read: folders 0700, files 0600.
struct FileProblem: Error {
  var message: String

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

/// Whether `path` names a folder, a file (or anything else), or nothing.
enum Existence {
  case folder, other, missing
}

func existence(_ path: String) -> Existence {
  var info = stat()
  guard stat(path, &info) == 0 else { return .missing }
  return info.st_mode & S_IFMT == S_IFDIR ? .folder : .other
}

func createPrivateFolder(_ path: String) throws(FileProblem) {
  switch existence(path) {
  case .folder:
    guard access(path, W_OK | X_OK) == 0 else { throw FileProblem.errno() }
    return
  case .other:
    throw FileProblem(message: "it is a file, not a folder")
  case .missing:
    break
  }
  // Missing parents first, then this folder, each made 0700 by mkdir itself. (Making it
  // 0755 and changing the mode after, as Foundation's createDirectory did, left a folder open
  // to everyone for good when a kill -9 came in between: scripts/crash-safety found it.)
  let parent = parentFolder(of: path)
  if !parent.isEmpty && parent != path && existence(parent) == .missing {
    try createPrivateFolder(parent)
  }
  if mkdir(path, 0o700) != 0 && Glibc.errno != EEXIST { throw FileProblem.errno() }
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
