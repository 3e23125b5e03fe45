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
    #expect(names.count > 5, "\(folder) declares \(names.sorted())")
    var uses: [String] = []
    for file in try swiftFiles(under: sources) where !inside.contains(file) {
      let text = try code(file)
      for name in names.sorted() where text.contains(try Regex("\\b\(name)\\b").wordBoundaryKind(.simple)) {
        uses.append(String(file.dropFirst(sources.count + 1)) + ": " + name)
      }
    }
    return uses
  }

  @Test func thePersonalityQuizIsItsFolderAndOneLine() throws {
    let uses = try Self.usesOutside("Personality")
    #expect(uses == ["ReckonSession/Modes/Registry.swift: PersonalityFeature"], "\(uses)")
  }

  @Test func theAnagramGameIsItsFolderAndOneLineAndAnOption() throws {
    // The one use outside it but the registry: `--words FILE` on the command line gives the
    // game its word list (`useWords`), an option of the executable's.
    let uses = try Self.usesOutside("Anagram")
    #expect(
      uses == ["ReckonSession/Modes/Registry.swift: AnagramFeature", "reckon/ReckonCommand.swift: useWords"],
      "\(uses)")
  }

  /// The check finds a use: the calculator's folder is used by the session, which starts in it.
  @Test func theCheckFindsUses() throws {
    #expect(try Self.usesOutside("Calculator").contains("ReckonSession/Session.swift: CalculatorMode"))
  }
}
