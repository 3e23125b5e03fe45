/// `make install-only` and `make uninstall` into a temporary DESTDIR, and `make deb-only`'s
/// package: their exact file lists, modes and contents. They use the release binary as it
/// is built (never building it), and need no root. make, dpkg-deb and dpkg-shlibdeps
/// (dpkg-dev) are on a new Debian machine. lintian, and installing the package with apt,
/// are checked by scripts/check-deb instead (lintian is not, and apt needs root).
import Foundation
import Testing

/// What `make install-only` puts under PREFIX, folders with a trailing slash.
enum InstalledTree {
  static let licenses =
    (try? FileManager.default.contentsOfDirectory(atPath: ReckonBinary.packageRoot + "/licenses"))?
    .filter { $0.hasSuffix(".txt") }.sorted() ?? []

  /// `zsh`: where the zsh completion goes, under share/zsh.
  static func paths(zsh: String = "site-functions") -> Set<String> {
    var paths: Set<String> = [
      "bin/", "bin/reckon",
      "share/", "share/man/", "share/man/man1/", "share/man/man1/reckon.1.gz",
      "share/bash-completion/", "share/bash-completion/completions/", "share/bash-completion/completions/reckon",
      "share/zsh/", "share/zsh/\(zsh)/", "share/zsh/\(zsh)/_reckon",
      "share/fish/", "share/fish/vendor_completions.d/", "share/fish/vendor_completions.d/reckon.fish",
      "share/doc/", "share/doc/reckon/", "share/doc/reckon/LICENSE", "share/doc/reckon/THIRD-PARTY",
      "share/doc/reckon/licenses/",
    ]
    for name in licenses { paths.insert("share/doc/reckon/licenses/" + name) }
    return paths
  }
}

/// Every file and folder under `root`, relative to it, folders with a trailing slash.
func tree(_ root: String) throws -> Set<String> {
  var paths: Set<String> = []
  let enumerator = FileManager.default.enumerator(atPath: root)
  while let path = enumerator?.nextObject() as? String {
    var isFolder: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder)
    paths.insert(isFolder.boolValue ? path + "/" : path)
  }
  return paths
}

func mode(_ path: String) throws -> Int {
  (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

@Suite(.enabled(if: Tool.path("make") != nil, "make is not installed: make install is not tested"))
struct InstallTests {
  static let prefix = "/opt/reckon-test"

  static func make(_ target: String, destdir: String) throws {
    try Tool.succeed("make", ["-s", target, "DESTDIR=\(destdir)", "PREFIX=\(prefix)"])
  }

  @Test func installsTheStrippedBinaryManPageCompletionsAndLicencesThenUninstallsThemAll() throws {
    let release = try ReckonBinary.release()
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let destdir = folder.path + "/stage"
    let root = destdir + Self.prefix
    try Self.make("install-only", destdir: destdir)

    // Exactly these files, and the list of the folders it made for uninstall.
    let expected = InstalledTree.paths().union(["share/doc/reckon/install-manifest"])
    #expect(try tree(root) == expected)
    #expect(try tree(destdir) == Set(["opt/", "opt/reckon-test/"] + expected.map { "opt/reckon-test/" + $0 }))
    for path in expected {
      let wanted = path.hasSuffix("/") || path == "bin/reckon" ? 0o755 : 0o644
      #expect(try mode(root + "/" + path) == wanted, "the mode of \(path)")
    }

    // The binary is stripped, and runs.
    let installed = root + "/bin/reckon"
    let sections = try Tool.succeed("readelf", ["-S", "--wide", installed])
    #expect(!sections.contains(".symtab") && !sections.contains(".debug_info"))
    #expect(try mode(installed) == 0o755)
    let size = try FileManager.default.attributesOfItem(atPath: installed)[.size] as? Int ?? 0
    let built = try FileManager.default.attributesOfItem(atPath: release)[.size] as? Int ?? 0
    #expect(size > 0 && size < built)
    let run = try ReckonProcess.run(["-e", "6*7"], executable: installed)
    #expect(run.stdout == "42\n")

    // The man page, gzipped without a name or time; the completions and licences as they are.
    let manPage = root + "/share/man/man1/reckon.1.gz"
    #expect(try Tool.succeed("gzip", ["-dc", manPage]) == String(contentsOfFile: ManPageTests.page, encoding: .utf8))
    let header = try Data(contentsOf: URL(fileURLWithPath: manPage)).prefix(10)
    #expect(
      Array(header[header.startIndex + 3..<header.startIndex + 8]) == [0, 0, 0, 0, 0], "gzip -n: no name, no time")
    let sources = [
      "share/bash-completion/completions/reckon": "completions/reckon.bash",
      "share/zsh/site-functions/_reckon": "completions/_reckon",
      "share/fish/vendor_completions.d/reckon.fish": "completions/reckon.fish",
      "share/doc/reckon/LICENSE": "LICENSE", "share/doc/reckon/THIRD-PARTY": "THIRD-PARTY",
    ]
    for (path, source) in sources {
      let copy = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
      #expect(copy == (try Data(contentsOf: URL(fileURLWithPath: ReckonBinary.packageRoot + "/" + source))), "\(path)")
    }

    // Installing again changes nothing; uninstalling leaves nothing at all.
    try Self.make("install-only", destdir: destdir)
    #expect(try tree(root) == expected)
    try Self.make("uninstall", destdir: destdir)
    #expect(try tree(destdir) == [])
  }

  @Test func uninstallLeavesWhatWasThereBefore() throws {
    _ = try ReckonBinary.release()
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let destdir = folder.path + "/stage"
    let root = destdir + Self.prefix
    // Another program's man page: its folders were there before Reckon.
    try FileManager.default.createDirectory(atPath: root + "/share/man/man1", withIntermediateDirectories: true)
    #expect(
      FileManager.default.createFile(atPath: root + "/share/man/man1/other.1", contents: Data(".TH OTHER 1\n".utf8)))
    let before = try tree(destdir)
    try Self.make("install-only", destdir: destdir)
    let manifest = try String(contentsOfFile: root + "/share/doc/reckon/install-manifest", encoding: .utf8)
    let listed = Set(manifest.split(separator: "\n").map(String.init))
    // The folders it made, and not those that were there.
    #expect(!listed.contains(Self.prefix + "/share/") && !listed.contains(Self.prefix + "/share/man/man1/"))
    #expect(listed.contains(Self.prefix + "/bin/") && listed.contains(Self.prefix + "/share/zsh/site-functions/"))
    #expect(listed.contains(Self.prefix + "/share/doc/reckon/licenses/"))
    #expect(
      listed.contains(Self.prefix + "/bin/reckon") && listed.contains(Self.prefix + "/share/man/man1/reckon.1.gz"))
    try Self.make("uninstall", destdir: destdir)
    #expect(try tree(destdir) == before)
    #expect(before.contains("opt/reckon-test/share/man/man1/other.1"))
  }
}

extension InstallTests {
  @Test func uninstallRemovesWhatAnEarlierSourceInstalled() throws {
    _ = try ReckonBinary.release()
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let destdir = folder.path + "/stage"
    let root = destdir + Self.prefix
    try Self.make("install-only", destdir: destdir)
    // As if an earlier version had installed a licence text that this source no longer has.
    let old = Self.prefix + "/share/doc/reckon/licenses/Dropped.txt"
    #expect(FileManager.default.createFile(atPath: destdir + old, contents: Data("old\n".utf8)))
    let manifest = root + "/share/doc/reckon/install-manifest"
    let listed = try String(contentsOfFile: manifest, encoding: .utf8)
    try (listed + old + "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
    try Self.make("uninstall", destdir: destdir)
    #expect(try tree(destdir) == [])
  }
}

/// The package `make deb-only` builds, once for all the tests that look at it: in
/// .build/packaging-tests, compressed with gzip -1 (xz takes half a minute).
enum BuiltDeb {
  struct Package {
    let path: String
    let version: String
  }

  static let folder = ReckonBinary.packageRoot + "/.build/packaging-tests"
  static let maintainer = "Reckon Tests <tests@example.org>"

  static func build(into name: String, environment: [String: String] = [:]) throws -> Package {
    _ = try ReckonBinary.release()
    let output = folder + "/" + name
    try? FileManager.default.removeItem(atPath: output)
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    let path = try Tool.succeed(
      "make", ["-s", "deb-only"],
      environment: [
        "DEB_DIR": output, "DEB_COMPRESSION": "gzip", "DEB_COMPRESSION_LEVEL": "1", "DEB_MAINTAINER": maintainer,
      ].merging(environment) { _, new in new }
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    let version = try ReckonProcess.run(["--version"]).lines.first?.split(separator: " ").last.map(String.init) ?? ""
    return Package(path: path, version: version)
  }

  static let shared = Result { try build(into: "deb") }

  static func fields(_ package: String) throws -> [String: String] {
    var fields: [String: String] = [:]
    var last = ""
    for line in try Tool.succeed("dpkg-deb", ["-f", package]).split(separator: "\n") {
      if line.hasPrefix(" "), !last.isEmpty {
        fields[last, default: ""] += "\n" + line
      } else if let colon = line.firstIndex(of: ":") {
        last = String(line[..<colon])
        fields[last] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return fields
  }
}

@Suite(.enabled(if: Tool.path("dpkg-deb") != nil, "dpkg-deb is not installed: make deb is not tested"))
struct DebianPackageTests {
  @Test func holdsTheInstalledTreeUnderUsrOwnedByRoot() throws {
    let package = try BuiltDeb.shared.get()
    #expect(package.path == BuiltDeb.folder + "/deb/reckon_\(package.version)-1_\(try Self.architecture()).deb")
    var paths: Set<String> = []
    for line in try Tool.succeed("dpkg-deb", ["-c", package.path]).split(separator: "\n") {
      // drwxr-xr-x root/root 0 2026-11-25 02:06 ./usr/bin/
      let columns = line.split(separator: " ", omittingEmptySubsequences: true)
      guard columns.count == 6 else {
        Issue.record("unexpected line from dpkg-deb -c: \(line)")
        continue
      }
      let (permissions, owner, path) = (String(columns[0]), String(columns[1]), String(columns[5]))
      #expect(owner == "root/root", "\(path)")
      let wanted =
        permissions.hasPrefix("d") ? "drwxr-xr-x" : path == "./usr/bin/reckon" ? "-rwxr-xr-x" : "-rw-r--r--"
      #expect(permissions == wanted, "\(path)")
      if path != "./" { paths.insert(String(path.dropFirst(2))) }
    }
    let expected = Set(["usr/"] + InstalledTree.paths(zsh: "vendor-completions").map { "usr/" + $0 })
      .union([
        "usr/share/doc/reckon/copyright", "usr/share/doc/reckon/changelog.Debian.gz",
        "usr/share/lintian/", "usr/share/lintian/overrides/", "usr/share/lintian/overrides/reckon",
      ])
    #expect(paths == expected)
  }

  @Test func controlNamesTheVersionArchitectureAndWhatTheBinaryNeeds() throws {
    let package = try BuiltDeb.shared.get()
    let fields = try BuiltDeb.fields(package.path)
    #expect(!package.version.isEmpty)
    #expect(fields["Package"] == "reckon")
    #expect(fields["Version"] == package.version + "-1")
    #expect(fields["Architecture"] == (try Self.architecture()))
    #expect(fields["Maintainer"] == BuiltDeb.maintainer)
    #expect(fields["Section"] == "math")
    #expect(fields["Priority"] == "optional")
    #expect(fields["Description"]?.hasPrefix("exact calculator for the terminal") == true)
    #expect((fields["Description"]?.split(separator: "\n").count ?? 0) > 5)
    // The binary needs glibc's libc.so.6 and libm.so.6 only (everything else is static).
    let needed = try Tool.succeed("readelf", ["-d", try ReckonBinary.release()])
    #expect(needed.contains("[libc.so.6]"))
    let depends = fields["Depends"] ?? ""
    #expect(depends.hasPrefix("libc6 (>= "), "Depends: \(depends)")
    #expect(!depends.contains("libgmp") && !depends.contains("libsqlite"))
    let builtUsing = fields["Built-Using"] ?? ""
    #expect(builtUsing.contains("gmp (= ") && builtUsing.contains("mpfr4 (= "), "Built-Using: \(builtUsing)")
    // Installed-Size is in KiB, and the stripped binary is most of it.
    let size = Int(fields["Installed-Size"] ?? "") ?? 0
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try Tool.succeed("dpkg-deb", ["-x", package.path, folder.path])
    let binary = try FileManager.default.attributesOfItem(atPath: folder.path + "/usr/bin/reckon")[.size] as? Int ?? 0
    #expect(
      size >= binary / 1024 && size < binary / 1024 + 1024,
      "Installed-Size: \(size) KiB for a binary of \(binary) bytes")
  }

  @Test func shipsAMachineReadableCopyrightTheChangelogAndTheManPage() throws {
    let package = try BuiltDeb.shared.get()
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try Tool.succeed("dpkg-deb", ["-x", package.path, folder.path])
    let doc = folder.path + "/usr/share/doc/reckon/"
    let copyright = try String(contentsOfFile: doc + "copyright", encoding: .utf8)
    #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
    #expect(copyright.contains("\nFiles: *\nCopyright: 2026 the Reckon authors\nLicense: Expat\n"))
    #expect(copyright.contains(" Permission is hereby granted, free of charge"))
    #expect(copyright.contains("/usr/share/doc/reckon/THIRD-PARTY"))
    #expect(copyright.contains(" GNU MPFR "))
    let changelog = try Tool.succeed("gzip", ["-dc", doc + "changelog.Debian.gz"])
    #expect(changelog.hasPrefix("reckon (\(package.version)-1) unstable; urgency=medium\n"))
    #expect(changelog.contains("\n -- \(BuiltDeb.maintainer)  "))
    let manPage = try Tool.succeed("gzip", ["-dc", folder.path + "/usr/share/man/man1/reckon.1.gz"])
    #expect(manPage == (try String(contentsOfFile: ManPageTests.page, encoding: .utf8)))
    let run = try ReckonProcess.run(["-e", "2^64"], executable: folder.path + "/usr/bin/reckon")
    #expect(run.stdout == "18446744073709551616\n")
  }

  @Test func dependsWithoutDpkgShlibdeps() throws {
    // As on a machine without dpkg-dev: readelf, dpkg -S and the shlibs files.
    let package = try BuiltDeb.build(into: "deb-without-shlibdeps", environment: ["DEB_SHLIBDEPS": "0"])
    let depends = try BuiltDeb.fields(package.path)["Depends"] ?? ""
    #expect(depends.hasPrefix("libc6 (>= "), "Depends: \(depends)")
    try? FileManager.default.removeItem(atPath: BuiltDeb.folder + "/deb-without-shlibdeps")
  }

  static func architecture() throws -> String {
    try Tool.succeed("dpkg", ["--print-architecture"]).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
