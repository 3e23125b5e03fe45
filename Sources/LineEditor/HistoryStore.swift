import CLibEdit
import Glibc

/// libedit history plus its file: size limit, no consecutive duplicates,
/// saved after every entry. File problems become warnings, never crashes.
final class HistoryStore {
  /// The libedit history handle (attached to the editor with `EL_HIST`).
  let handle: OpaquePointer
  /// Where history is saved; nil when there is no file or it cannot be written.
  private(set) var savePath: String?
  /// Problems worth telling the user once.
  private(set) var warnings: [String] = []

  /// - Parameters:
  ///   - path: the history file, or nil for none.
  ///   - limit: the maximum number of entries kept (at least 1).
  init?(path: String?, limit: Int) {
    guard let handle = editshim_history_init() else { return nil }
    self.handle = handle
    _ = editshim_history_setsize(handle, Int32(clamping: max(1, limit)))
    _ = editshim_history_setunique(handle, 1)
    if let path, !path.isEmpty {
      prepareFile(at: path)
    }
  }

  deinit {
    history_end(handle)
  }

  /// Number of entries held.
  var count: Int { Int(editshim_history_count(handle)) }

  /// Adds a line and saves the file right away. Empty lines are ignored.
  func add(_ line: String) {
    guard !line.allSatisfy(\.isWhitespace) else { return }
    if TerminalInput.decodesLatin1 {
      // libedit keeps history in the terminal's character set, as it reads lines.
      _ = editshim_history_enter(handle, Latin1.cString(line))
    } else {
      _ = editshim_history_enter(handle, line)
    }
    guard let path = savePath else { return }
    if editshim_history_save(handle, path) < 0 {
      let reason = String(cString: strerror(errno))
      warnings.append("cannot save history to \(path) (\(reason)); history will not be saved")
      savePath = nil
    }
  }

  private func prepareFile(at path: String) {
    var info = stat()
    if stat(path, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFDIR {
        warnings.append("history file \(path) is a directory; history will not be saved")
        return
      }
      // An empty file (e.g. created by an earlier run) has nothing to load.
      if info.st_size > 0, editshim_history_load(handle, path) < 0 {
        warnings.append(
          "history file \(path) could not be read; history will not be saved")
        return
      }
    } else if let problem = Self.createParentFolders(of: path) {
      warnings.append("cannot create the folder for history file \(path) (\(problem)); history will not be saved")
      return
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      warnings.append("cannot write history file \(path) (\(reason)); history will not be saved")
      return
    }
    close(fd)
    savePath = path
  }

  /// `mkdir -p` of the parent folder with mode 0700; returns an error text.
  private static func createParentFolders(of path: String) -> String? {
    var components = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
    guard !components.isEmpty else { return nil }
    var current = path.hasPrefix("/") ? "" : "."
    while !components.isEmpty {
      current += "/" + components.removeFirst()
      var info = stat()
      if stat(current, &info) == 0 { continue }
      if mkdir(current, 0o700) != 0 && errno != EEXIST {
        return String(cString: strerror(errno))
      }
    }
    return nil
  }
}
