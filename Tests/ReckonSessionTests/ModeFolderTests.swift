import Foundation
import Testing

/// A mode is a folder: the names a mode's folder declares for others to use (its types, and
/// what it adds to types declared elsewhere, such as `SessionState.anagramLevelsFile`) are
/// used by no source file outside the folder but `Modes/Registry.swift`, which names its
/// `Feature` once. If this fails, something outside the folder knows about the mode, and
/// adding or removing a mode would touch it.
@Suite struct ModeFolderTests {
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources").path

  /// Every `.swift` file under `folder`, by path.
  static func swiftFiles(under folder: String) throws -> [String] {
    let paths = try #require(FileManager.default.subpathsOfDirectory(atPath: folder) as [String]?)
    return paths.filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }.sorted()
  }

  /// The text of a Swift file without its comments (`//` to the end of a line) and string
  /// literals (`"…"` on a line, `"""` blocks), so that a comment, a help text or an SQL
  /// statement may name a mode without counting as a use.
  static func code(_ path: String) throws -> String {
    var inBlock = false
    var lines: [String] = []
    for line in try String(contentsOfFile: path, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    {
      if line.contains("\"\"\"") {
        inBlock.toggle()
        lines.append("")
        continue
      }
      if inBlock {
        lines.append("")
        continue
      }
      let code = line.replacing(#/"(?:[^"\\]|\\.)*"/#, with: "\"\"")
      lines.append(code.range(of: "//").map { String(code[..<$0.lowerBound]) } ?? String(code))
    }
    return lines.joined(separator: "\n")
  }

  /// The names a folder declares for use elsewhere: its top-level declarations, and the
  /// members of its extensions of types declared outside it.
  static func declaredNames(in files: [String]) throws -> Set<String> {
    let declaration =
      #/^(?:public |internal |private |fileprivate |static |final |mutating |indirect )*(?:struct|enum|class|protocol|typealias|actor|func|var|let) +([A-Za-z_][A-Za-z0-9_]*)/#
    var topLevel: Set<String> = []
    var members: [(extended: String, name: String)] = []
    for file in files {
      var extended: String?
      for line in try code(file).split(separator: "\n", omittingEmptySubsequences: false) {
        if let match = line.firstMatch(of: declaration) {
          topLevel.insert(String(match.1))
          extended = nil
        } else if let match = line.firstMatch(of: #/^(?:public )?extension +([A-Za-z_][A-Za-z0-9_]*)/#) {
          extended = String(match.1)
        } else if let type = extended, line.hasPrefix("  "), !line.hasPrefix("   "),
          let match = line.dropFirst(2).firstMatch(of: declaration)
        {
          members.append((type, String(match.1)))
        } else if line.hasPrefix("}") {
          extended = nil
        }
      }
    }
    // Members of the folder's own types are reached through those types' names.
    return topLevel.union(members.filter { !topLevel.contains($0.extended) }.map(\.name))
  }

  /// Where each name is used outside the folder, as `file: name`.
  static func usesOutside(_ folder: String) throws -> [String] {
    let inside = try swiftFiles(under: sources + "/ReckonSession/Modes/" + folder)
    #expect(!inside.isEmpty, "no files in \(folder)")
    let names = try declaredNames(in: inside)
    // (Every folder declares its mode, its command and its feature at least: fewer found
    // would mean the declarations are not being read.)
    #expect(names.count >= 3, "\(folder) declares \(names.sorted())")
    var uses: [String] = []
    for file in try swiftFiles(under: sources) where !inside.contains(file) {
      let text = try code(file)
      for name in names.sorted() where text.contains(try Regex("\\b\(name)\\b").wordBoundaryKind(.simple)) {
        uses.append(String(file.dropFirst(sources.count + 1)) + ": " + name)
      }
    }
    return uses
  }

  /// Every folder under Modes/.
  static func modeFolders() throws -> [String] {
    let modes = sources + "/ReckonSession/Modes"
    return try FileManager.default.contentsOfDirectory(atPath: modes).filter { name in
      var folder: ObjCBool = false
      return FileManager.default.fileExists(atPath: modes + "/" + name, isDirectory: &folder) && folder.boolValue
    }.sorted()
  }

  /// The one rule for every mode folder, with no list of exceptions: outside it, only the
  /// registry names it (its features, `…Feature`), only the executable's options that hand a
  /// mode a file (`--words`, `--questions`: `use…`) call into it, and only the mode's one
  /// file of SQL in the store (`ReckonStore/Modes/<Folder>.swift`) runs its requests.
  static func isAllowed(_ use: String, of folder: String) -> Bool {
    let parts = use.components(separatedBy: ": ")
    let (file, name) = (parts[0], parts[1])
    return (file == "ReckonSession/Modes/Registry.swift" && name.hasSuffix("Feature"))
      || (file == "reckon/ReckonCommand.swift" && name.hasPrefix("use"))
      || file == "ReckonStore/Modes/\(folder).swift"
  }

  @Test func everyModeIsItsFolderAndItsRegistration() throws {
    let folders = try Self.modeFolders()
    #expect(folders.count >= 5, "\(folders)")
    for folder in folders {
      let uses = try Self.usesOutside(folder).filter { !Self.isAllowed($0, of: folder) }
      #expect(uses.isEmpty, "\(folder) is used outside its folder: \(uses)")
    }
  }

  /// A mode's SQL is one file in the store, named after its folder: a file there for no
  /// folder would be a mode's code outside both.
  @Test func theStoreHasOneFileOfSQLPerModeAtMost() throws {
    let folders = Set(try Self.modeFolders())
    for file in try Self.swiftFiles(under: Self.sources + "/ReckonStore/Modes") {
      let name = String(file.split(separator: "/").last!.dropLast(".swift".count))
      #expect(folders.contains(name), "\(file) is named after no mode folder (\(folders.sorted()))")
    }
  }

  /// The check finds uses: every folder is named in the registry.
  @Test func theCheckFindsUses() throws {
    for folder in try Self.modeFolders() {
      let uses = try Self.usesOutside(folder)
      #expect(uses.contains { $0.hasPrefix("ReckonSession/Modes/Registry.swift: ") }, "\(folder): \(uses)")
    }
  }
}
