import Foundation

/// Where the `reckon` executables under test are.
enum ReckonBinary {
  struct Missing: Error, CustomStringConvertible {
    let description: String
  }

  /// The package's root folder (this file is Tests/EndToEndTests/ReckonBinary.swift).
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// The debug build `swift test` made: next to the test bundle (SwiftPM builds both into one
  /// folder), or failing that `.build/debug/reckon`.
  static func debug() throws -> String {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let beside = executable.deletingLastPathComponent().appendingPathComponent("reckon").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    let built = packageRoot + "/.build/debug/reckon"
    if FileManager.default.isExecutableFile(atPath: built) { return built }
    throw Missing(description: "reckon is neither next to \(executable.path) nor at \(built)")
  }

  /// The release binary, as it ships (`swift build -c release --static-swift-stdlib --disable-local-rpath`, which the
  /// README's test command runs first). Refused when missing or older than any source file:
  /// the test would prove nothing about the code as it is.
  static func release() throws -> String {
    let path = packageRoot + "/.build/release/reckon"
    let build =
      "build it with: swift build -c release --static-swift-stdlib --disable-local-rpath (the README's test command does)"
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw Missing(description: "there is no release binary at \(path): \(build)")
    }
    let built = try modified(path)
    let sources = FileManager.default.enumerator(atPath: packageRoot + "/Sources")
    while let file = sources?.nextObject() as? String {
      let source = packageRoot + "/Sources/" + file
      if try modified(source) > built {
        throw Missing(description: "the release binary is older than Sources/\(file): \(build)")
      }
    }
    return path
  }

  private static func modified(_ path: String) throws -> Date {
    try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date ?? .distantPast
  }
}
