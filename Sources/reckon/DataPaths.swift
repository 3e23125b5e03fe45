import Glibc

/// Where Reckon keeps its files. `--data-dir` or `RECKON_HOME` puts all of them in one folder;
/// otherwise they follow the XDG base directories.
struct DataPaths {
  var history: String
  var database: String
  /// The folder of the user's own files for Reckon, which modes read (the anagram game's
  /// level table).
  var configFolder: String

  init(dataDir: String?, environment: (String) -> String? = Terminal.variable) {
    func value(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
    if let dir = dataDir ?? value("RECKON_HOME") {
      history = dir + "/history"
      database = dir + "/reckon.sqlite"
      configFolder = dir
      return
    }
    let home = value("HOME") ?? getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } } ?? "/tmp"
    let state = value("XDG_STATE_HOME") ?? home + "/.local/state"
    let data = value("XDG_DATA_HOME") ?? home + "/.local/share"
    history = state + "/reckon/history"
    database = data + "/reckon/reckon.sqlite"
    configFolder = (value("XDG_CONFIG_HOME") ?? home + "/.config") + "/reckon"
  }
}
