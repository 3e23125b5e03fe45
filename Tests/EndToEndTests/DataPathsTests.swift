import Foundation
import Testing

@testable import reckon

/// Where Reckon's files go: the XDG folders (absolute ones only), `RECKON_HOME` or
/// `--data-dir` (never empty), and with no home folder at all a folder of the user's own in
/// the temporary folder, which no other user can have made for it.
@Suite struct DataPathsTests {
  static func paths(
    _ variables: [String: String], dataDir: String? = nil, passwordHome: String? = "/home/pw"
  ) throws -> DataPaths {
    try DataPaths(dataDir: dataDir, environment: { variables[$0] }, passwordHome: { passwordHome }, user: 1234)
  }

  @Test func theXDGFoldersAndTheirDefaults() throws {
    let xdg = try Self.paths([
      "HOME": "/home/ada", "XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s/", "XDG_CONFIG_HOME": "/c",
    ])
    #expect(xdg.database == "/d/reckon/reckon.sqlite")
    #expect(xdg.history == "/s/reckon/history")
    #expect(xdg.configFolder == "/c/reckon")
    let home = try Self.paths(["HOME": "/home/ada"])
    #expect(home.database == "/home/ada/.local/share/reckon/reckon.sqlite")
    #expect(home.history == "/home/ada/.local/state/reckon/history")
    #expect(home.configFolder == "/home/ada/.config/reckon")
  }

  /// The XDG specification: a relative value is ignored (XDG_DATA_HOME=reldata put a new
  /// database in every folder Reckon was run from), and so is an empty one.
  @Test func relativeXDGFoldersAreIgnored() throws {
    let paths = try Self.paths([
      "HOME": "/home/ada", "XDG_DATA_HOME": "reldata", "XDG_STATE_HOME": "./state", "XDG_CONFIG_HOME": "",
    ])
    #expect(paths.database == "/home/ada/.local/share/reckon/reckon.sqlite")
    #expect(paths.history == "/home/ada/.local/state/reckon/history")
    #expect(paths.configFolder == "/home/ada/.config/reckon")
  }

  /// With no HOME (or a relative one) the password database's home is used; with neither,
  /// a folder of this user's own in the temporary folder (TMPDIR, if absolute, or /tmp), all
  /// of Reckon's files in it, not the shared /tmp itself.
  @Test func noHomeAtAllGivesAFolderOfOurOwnInTheTemporaryFolder() throws {
    #expect(try Self.paths(["HOME": "relative"]).database == "/home/pw/.local/share/reckon/reckon.sqlite")
    let none = try Self.paths([:], passwordHome: nil)
    #expect(none.database == "/tmp/reckon-1234/reckon.sqlite")
    #expect(none.history == "/tmp/reckon-1234/history")
    #expect(none.configFolder == "/tmp/reckon-1234")
    #expect(try Self.paths(["TMPDIR": "/var/tmp/"], passwordHome: "").database == "/var/tmp/reckon-1234/reckon.sqlite")
    #expect(
      try Self.paths(["TMPDIR": "tmp", "XDG_DATA_HOME": "/d"], passwordHome: nil).history == "/tmp/reckon-1234/history")
    #expect(try Self.paths(["XDG_DATA_HOME": "/d"], passwordHome: nil).database == "/d/reckon/reckon.sqlite")
  }

  /// `RECKON_HOME=""` (typically `RECKON_HOME="$UNSET"`) is refused as `--data-dir ''` is:
  /// before, the one put the database at /reckon.sqlite and the other was taken as unset.
  @Test func anEmptyDataFolderIsRefusedEitherWay() throws {
    #expect(throws: DataPaths.Problem(message: "RECKON_HOME is set but empty: set it to a folder, or unset it")) {
      try Self.paths(["HOME": "/home/ada", "RECKON_HOME": ""])
    }
    #expect(try Self.paths(["RECKON_HOME": "/r"]).database == "/r/reckon.sqlite")
    #expect(try Self.paths(["RECKON_HOME": ""], dataDir: "/d").database == "/d/reckon.sqlite")

    for arguments in [["--data-dir", ""], ["--data-dir="]] {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let run = try ReckonProcess.run(arguments + ["-e", "set digits 12"], directory: folder.path)
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(run.stderr == "reckon: --data-dir: the folder name is empty\nTry 'reckon --help' for the options.\n")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") } == [])
    }
    let run = try ReckonProcess.run(["-e", "1+1"], environment: ["RECKON_HOME": ""])
    #expect(run.status == 2)
    #expect(run.stderr == "reckon: error: RECKON_HOME is set but empty: set it to a folder, or unset it\n")
  }

  /// RECKON_HOME that is relative (which would make a folder wherever Reckon is run) or that
  /// starts with ~ (quoted, so no shell expanded it: a folder named ~) is refused as an empty
  /// one is, with status 2 and the reason, and nothing is made in the working folder;
  /// `--data-dir=~/x` (which no shell expands either) likewise.
  @Test func aRelativeOrTildeDataFolderIsRefused() throws {
    #expect(throws: DataPaths.Problem.self) { try Self.paths(["RECKON_HOME": "relhome"]) }
    #expect(throws: DataPaths.Problem.self) { try Self.paths(["RECKON_HOME": "~/x"]) }
    #expect(try Self.paths(["RECKON_HOME": "relhome"], dataDir: "rel").database == "rel/reckon.sqlite")
    for (variables, arguments, error) in [
      (
        ["RECKON_HOME": "relhome"], ["-e", "set digits 12"],
        "reckon: error: RECKON_HOME is not an absolute path (relhome): it must start with /, or the files would go in "
          + "whatever folder Reckon is started from\n"
      ),
      (
        ["RECKON_HOME": "~/x"], ["-e", "set digits 12"],
        "reckon: error: RECKON_HOME starts with '~' (~/x), which is not your home folder here (the shell expands ~ "
          + "only when it is not quoted): use $HOME instead, as in RECKON_HOME=\"$HOME/...\"\n"
      ),
      (
        [:], ["--data-dir=~/x", "-e", "set digits 12"],
        "reckon: --data-dir: ~/x starts with '~', which the shell did not expand: use $HOME instead, or "
          + "--data-dir ~/... (with a space)\nTry 'reckon --help' for the options.\n"
      ),
    ] {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let run = try ReckonProcess.run(arguments, environment: variables, directory: folder.path)
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(run.stderr == error)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") } == [])
    }
  }

  /// A data folder on the kernel's file systems says so, not that the disk is full (statvfs
  /// reports no blocks free there, and none at all).
  @Test func aDataFolderInProcIsNotAFullDisk() throws {
    let run = try ReckonProcess.run(["--data-dir", "/proc/reckon", "-e", "set digits 12"])
    #expect(run.stdout == "digits: 12\n")
    #expect(!run.stderr.contains("disk is full"), "\(run.stderr)")
    #expect(
      run.stderr.hasPrefix(
        "reckon: warning: cannot write to /proc/reckon (/proc/reckon is not a place for files: it is on one of the "
          + "kernel's file systems (as /proc and /sys are))"), "\(run.stderr)")
  }

  /// The binary with XDG_DATA_HOME=reldata saves in the home folder's default place, and
  /// nothing lands in the folder it was run from.
  @Test func theBinaryIgnoresARelativeDataFolder() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let work = try TemporaryFolder()
    defer { work.remove() }
    let run = try ReckonProcess.run(
      ["-e", "set digits 12"], environment: ["HOME": home.path, "XDG_DATA_HOME": "reldata"],
      removing: ["RECKON_HOME"], directory: work.path)
    #expect(run.stdout == "digits: 12\n")
    #expect(run.stderr == "")
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).filter { !$0.hasPrefix(".") } == [])
    #expect(FileManager.default.fileExists(atPath: home.path + "/.local/share/reckon/reckon.sqlite"))
  }

  /// As a user with no home and no entry in the password database (a container's arbitrary
  /// uid): a folder another user made in advance where Reckon's would be is not used, and
  /// nothing is written into it; once it is gone, Reckon makes its own, 0700. (Needs root to
  /// run as another uid and to give a folder to a third.)
  @Test(
    .enabled(
      if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "needs root and setpriv to run as a uid with no password entry"))
  func aUserWithNoHomeGetsAFolderOfTheirOwnOrNone() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let shared = folder.path + "/tmp"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: shared)
    let uid = 54_321
    #expect(getpwuid(uid_t(uid)) == nil)
    let planted = shared + "/reckon-\(uid)"
    try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: false)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o777, .ownerAccountID: uid + 1, .groupOwnerAccountID: uid + 1], ofItemAtPath: planted)
    func run() throws -> ReckonRun {
      try ReckonProcess.run(
        ["--reuid", "\(uid)", "--regid", "\(uid)", "--clear-groups", try ReckonBinary.debug(), "-e", "set digits 12"],
        environment: ["TMPDIR": shared], removing: ["HOME", "RECKON_HOME", "USER", "LOGNAME"],
        executable: "/usr/bin/setpriv")
    }
    let refused = try run()
    #expect(refused.status == 0)
    #expect(refused.stdout == "digits: 12\n")
    #expect(
      refused.stderr
        == "reckon: warning: \(planted) belongs to another user (uid \(uid + 1)), so \(planted)/reckon.sqlite "
        + "is not used: progress and settings will not be saved\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: planted) == [])

    try FileManager.default.removeItem(atPath: planted)
    let saved = try run()
    #expect(saved.stderr == "")
    let attributes = try FileManager.default.attributesOfItem(atPath: planted)
    #expect(attributes[.posixPermissions] as? Int == 0o700)
    #expect(attributes[.ownerAccountID] as? Int == uid)
    #expect(FileManager.default.fileExists(atPath: planted + "/reckon.sqlite"))
  }
}

/// A run on a database its owner made read-only leaves its -wal and -shm files read-only too
/// (SQLite gives them the database's mode): once the database may be written again, those
/// are repaired with a note, instead of nothing being saved for ever. (Run as another uid
/// under root, since root may write a file of any mode; as the user itself otherwise.)
@Suite struct ReadOnlyLeftoversTests {
  @Test func leftoversOfARunOnAReadOnlyDatabaseAreRepaired() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let uid = 54_322
    let asRoot = getuid() == 0
    try #require(!asRoot || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"))
    if asRoot {
      try FileManager.default.setAttributes(
        [.ownerAccountID: uid, .groupOwnerAccountID: uid, .posixPermissions: 0o700], ofItemAtPath: folder.path)
    }
    let data = folder.path + "/d"
    let database = data + "/reckon.sqlite"
    func reckon(_ line: String) throws -> ReckonRun {
      let arguments = ["--data-dir", data, "-e", line]
      if !asRoot { return try ReckonProcess.run(arguments) }
      return try ReckonProcess.run(
        ["--reuid", "\(uid)", "--regid", "\(uid)", "--clear-groups", try ReckonBinary.debug()] + arguments,
        executable: "/usr/bin/setpriv")
    }
    #expect(try reckon("set digits 5").stderr == "")
    try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: database)
    let readOnly = try reckon("set digits 6")
    #expect(readOnly.stdout == "digits: 6\n")
    // The message names the file and its mode, not "the database cannot be written here".
    #expect(
      readOnly.stderr.hasPrefix(
        "reckon: warning: cannot open \(database) for writing (\(database) is read-only (0400))"), "\(readOnly.stderr)")
    // SQLite gives a -wal or -shm it makes the database's mode: at least one is left 0400.
    let leftovers = ["-wal", "-shm"].filter {
      (try? FileManager.default.attributesOfItem(atPath: database + $0)[.posixPermissions] as? Int) == 0o400
    }
    #expect(!leftovers.isEmpty)

    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: database)
    let again = try reckon("set digits 7")
    #expect(again.stdout == "digits: 7\n")
    for suffix in leftovers {
      #expect(
        again.stderr.contains(
          "\(database)\(suffix) could not be written (0400, left by a run on a read-only database); it is now 0600"),
        "\(again.stderr)")
    }
    #expect(!again.stderr.contains("could not be saved"), "\(again.stderr)")
    #expect(try reckon("1/3").stdout == "0.3333333…\n", "the setting was saved")
  }
}
