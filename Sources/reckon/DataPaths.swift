import Glibc

/// Where Reckon keeps its files. `--data-dir` or `RECKON_HOME` puts all of them in one folder;
/// otherwise they follow the XDG base directories. With no home folder at all (no `HOME`, no
/// entry in the password database: a container's arbitrary uid) they go in a folder of this
/// user's own in the temporary folder, `/tmp/reckon-UID`, which the store makes 0700 and
/// refuses to use if someone else made it first.
struct DataPaths {
  var history: String
  var database: String
  /// The folder of the user's own files for Reckon, which modes read (the anagram game's
  /// level table).
  var configFolder: String

  struct Problem: Error, Equatable {
    var message: String
  }

  /// - Parameters:
  ///   - dataDir: `--data-dir`, if given (an empty one is refused by `Options`).
  ///   - environment: the process's variables.
  ///   - passwordHome: the home folder in the password database.
  ///   - user: the user's id, which names the temporary folder.
  init(
    dataDir: String?, environment: (String) -> String? = Terminal.variable,
    passwordHome: () -> String? = DataPaths.passwordHome, user: uid_t = geteuid()
  ) throws(Problem) {
    // The XDG specification: a variable that is empty or not an absolute path is ignored
    // (XDG_DATA_HOME=reldata would put a database in every folder Reckon is run from).
    func absolute(_ name: String) -> String? { environment(name).flatMap(DataPaths.absolute) }
    if dataDir == nil, environment("RECKON_HOME") == "" {
      // Refused as --data-dir '' is: typically RECKON_HOME="$UNSET", where the files meant for
      // a folder of their own would go elsewhere without a word.
      throw Problem(message: "RECKON_HOME is set but empty: set it to a folder, or unset it")
    }
    if let dir = dataDir {
      (history, database, configFolder) = DataPaths.files(in: dir)
      return
    }
    if let dir = environment("RECKON_HOME") {
      // Refused as an empty one is, rather than ignored as a relative XDG folder is: RECKON_HOME
      // asks for one folder for everything, and the files must not go elsewhere without a word.
      if dir.hasPrefix("~") {
        // RECKON_HOME='~/x' (quoted): no shell expands it, and a folder named ~ would be made.
        throw Problem(
          message: "RECKON_HOME starts with '~' (\(dir)), which is not your home folder here (the shell expands "
            + "~ only when it is not quoted): use $HOME instead, as in RECKON_HOME=\"$HOME/...\"")
      }
      guard dir.hasPrefix("/") else {
        // RECKON_HOME=relhome would make a folder in every folder Reckon is run from.
        throw Problem(
          message: "RECKON_HOME is not an absolute path (\(dir)): it must start with /, "
            + "or the files would go in whatever folder Reckon is started from")
      }
      (history, database, configFolder) = DataPaths.files(in: dir)
      return
    }
    if let home = absolute("HOME") ?? passwordHome().flatMap(DataPaths.absolute) {
      history = (absolute("XDG_STATE_HOME") ?? home + "/.local/state") + "/reckon/history"
      database = (absolute("XDG_DATA_HOME") ?? home + "/.local/share") + "/reckon/reckon.sqlite"
      configFolder = (absolute("XDG_CONFIG_HOME") ?? home + "/.config") + "/reckon"
    } else {
      (history, database, configFolder) = DataPaths.files(in: (absolute("TMPDIR") ?? "/tmp") + "/reckon-\(user)")
      if let state = absolute("XDG_STATE_HOME") { history = state + "/reckon/history" }
      if let data = absolute("XDG_DATA_HOME") { database = data + "/reckon/reckon.sqlite" }
      if let config = absolute("XDG_CONFIG_HOME") { configFolder = config + "/reckon" }
    }
  }

  /// Every file in one folder: the history, the database, and the configuration folder.
  private static func files(in folder: String) -> (String, String, String) {
    (folder + "/history", folder + "/reckon.sqlite", folder)
  }

  /// `path` without a slash at its end (`/` is ``), or nil when it is not absolute.
  static func absolute(_ path: String) -> String? {
    guard path.hasPrefix("/") else { return nil }
    var path = Substring(path)
    while path.hasSuffix("/") { path = path.dropLast() }
    return String(path)
  }

  /// This user's home folder in the password database, if there is an entry.
  static func passwordHome() -> String? {
    guard let entry = getpwuid(geteuid()), let dir = entry.pointee.pw_dir else { return nil }
    let home = String(cString: dir)
    return home.isEmpty ? nil : home
  }
}
