import Foundation

/// Files and folders only their owner can read: folders 0700, files 0600.
struct FileProblem: Error {
  var message: String
}

func createPrivateFolder(_ path: String) throws(FileProblem) {
  var isDirectory: ObjCBool = false
  if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
    guard isDirectory.boolValue else { throw FileProblem(message: "it is a file, not a folder") }
    guard access(path, W_OK | X_OK) == 0 else {
      throw FileProblem(message: String(cString: strerror(errno)).lowercased())
    }
    return
  }
  // Missing parents first, then this folder, each made 0700 by mkdir itself. (Foundation's
  // createDirectory makes it 0755 and then changes the mode: a kill -9 in between, found by
  // scripts/crash-safety, left the folder open to everyone for good.)
  let parent = (path as NSString).deletingLastPathComponent
  if !parent.isEmpty && parent != path && !FileManager.default.fileExists(atPath: parent) {
    try createPrivateFolder(parent)
  }
  if mkdir(path, 0o700) != 0 && errno != EEXIST {
    throw FileProblem(message: String(cString: strerror(errno)).lowercased())
  }
}

/// Creates an empty file with mode 0600 unless one is there (SQLite then keeps the mode,
/// and gives its -wal and -shm files the same).
func createPrivateFile(_ path: String) throws(FileProblem) {
  let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
  if fd >= 0 {
    close(fd)
    return
  }
  if errno == EEXIST { return }
  throw FileProblem(message: String(cString: strerror(errno)).lowercased())
}

/// Moves a damaged database (and its -wal and -shm files) aside.
func moveAside(_ path: String, to aside: String) throws {
  try FileManager.default.moveItem(atPath: path, toPath: aside)
  for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
    try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
  }
}
