import Foundation

/// Where Reckon keeps its files. `--data-dir` or `RECKON_HOME` puts all of them in one folder;
/// otherwise they follow the XDG base directories.
struct DataPaths {
  var history: String
  var database: String

  init(dataDir: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
    if let dir = dataDir ?? environment["RECKON_HOME"].flatMap({ $0.isEmpty ? nil : $0 }) {
      history = dir + "/history"
      database = dir + "/reckon.sqlite"
      return
    }
    let home = environment["HOME"] ?? NSHomeDirectory()
    let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/state"
    let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
    history = state + "/reckon/history"
    database = data + "/reckon/reckon.sqlite"
  }
}
