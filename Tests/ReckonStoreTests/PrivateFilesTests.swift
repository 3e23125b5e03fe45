import Foundation
import Glibc
import ReckonSession
import SQLite
import Testing

@testable import ReckonStore

/// No other user let in: the store keeps nothing in a folder another user owns or can write
/// to, follows no link planted in a shared folder, tightens what is ours and too open, and
/// refuses what is someone else's, running unsaved (in memory) with the reason.
@Suite struct PrivateFilesTests {
  typealias Folder = SQLiteStoreTests.Folder

  static func mode(_ path: String) -> Int {
    var info = stat()
    return lstat(path, &info) == 0 ? Int(info.st_mode & 0o7777) : -1
  }

  static func names(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  /// A folder that every user can write to, with the sticky bit, as /tmp is.
  static func shared(in folder: Folder) throws -> String {
    let shared = folder.path + "/tmp"
    #expect(mkdir(shared, 0o700) == 0)
    #expect(chmod(shared, 0o1777) == 0)
    return shared
  }

  /// Saving works, and what was saved is in the file.
  static func savesToTheFile(_ store: SQLiteStore, _ path: String) throws {
    try store.saveSetting("digits", value: "12", profile: "ada", at: 0)
    #expect(SQLiteStore.open(path: path).warnings.isEmpty)
    #expect(try SQLiteStore.open(path: path).settings(profile: "ada") == ["digits": "12"])
  }

  // MARK: Other users' places

  /// The data folder is a folder of the temporary folder's that someone made in advance as a
  /// link to a folder of their own (no HOME, no password entry: /tmp/reckon-UID): the link
  /// is not followed, nothing is written there, and the session runs unsaved.
  @Test func aLinkPlantedInASharedFolderIsNotFollowed() throws {
    let folder = try Folder()
    let shared = try Self.shared(in: folder)
    let theirs = folder.path + "/theirs"
    #expect(mkdir(theirs, 0o777) == 0)
    #expect(symlink(theirs, shared + "/reckon-1000") == 0)
    let store = SQLiteStore.open(path: shared + "/reckon-1000/reckon.sqlite")
    #expect(store.path == nil)
    #expect(
      store.warnings == [
        "\(shared)/reckon-1000 is a symbolic link in \(shared), where every user can make one, so "
          + "\(shared)/reckon-1000/reckon.sqlite is not used: progress and settings will not be saved"
      ])
    try store.saveSetting("digits", value: "12", profile: "ada", at: 0)
    #expect(try store.settings(profile: "ada") == ["digits": "12"])
    #expect(Self.names(in: theirs) == [])
  }

  /// Our own folder in the shared one is made 0700 by mkdir and used.
  @Test func aFolderOfOurOwnInASharedFolderIsMadeAndUsed() throws {
    let folder = try Folder()
    let shared = try Self.shared(in: folder)
    let path = shared + "/reckon-1000/reckon.sqlite"
    let store = SQLiteStore.open(path: path)
    #expect(store.warnings.isEmpty)
    #expect(store.path == path)
    #expect(Self.mode(shared + "/reckon-1000") == 0o700)
    try Self.savesToTheFile(store, path)
  }

  /// A folder every user can write to is not a data folder: not /tmp itself (`--data-dir
  /// /tmp`), even when it is ours (root's /tmp, for root), nor any folder below one that has
  /// no sticky bit (anyone could replace the folders in it).
  @Test func aFolderEveryUserCanWriteToIsNotUsed() throws {
    let folder = try Folder()
    let shared = try Self.shared(in: folder)
    let store = SQLiteStore.open(path: shared + "/reckon.sqlite")
    #expect(store.path == nil)
    #expect(
      store.warnings == [
        "every user can write to \(shared); Reckon keeps its files only in a folder of its own, so "
          + "\(shared)/reckon.sqlite is not used: progress and settings will not be saved"
      ])
    #expect(Self.names(in: shared) == [])

    let open = folder.path + "/open"
    #expect(mkdir(open, 0o700) == 0 && chmod(open, 0o777) == 0)
    let below = SQLiteStore.open(path: open + "/data/reckon.sqlite")
    #expect(below.path == nil)
    #expect(below.warnings.first?.hasPrefix("every user can write to \(open), so they could replace") == true)
    #expect(Self.names(in: open) == [])
  }

  /// A link to the database, or to its -wal file, is not followed: another user may have
  /// put it there while the folder was open to them.
  @Test func aLinkInPlaceOfTheDatabaseOrItsWALIsNotFollowed() throws {
    for file in ["reckon.sqlite", "reckon.sqlite-wal"] {
      let folder = try Folder()
      let stolen = folder.path + "/stolen"
      #expect(FileManager.default.createFile(atPath: stolen, contents: nil))
      #expect(symlink(stolen, folder.path + "/" + file) == 0)
      let store = SQLiteStore.open(path: folder.path + "/reckon.sqlite")
      #expect(store.path == nil)
      #expect(store.warnings.first?.hasPrefix("\(folder.path)/\(file) is a symbolic link, so ") == true)
      try store.saveSetting("digits", value: "12", profile: "ada", at: 0)
      #expect(try Data(contentsOf: URL(fileURLWithPath: stolen)).isEmpty)
    }
  }

  /// A folder or a database that belongs to another user is not used. (Only root can give a
  /// file away; without root, the link and shared-folder tests above cover the same rule.)
  @Test(.enabled(if: geteuid() == 0, "making a file that another user owns needs root"))
  func aFolderOrDatabaseOfAnotherUserIsNotUsed() throws {
    let folder = try Folder()
    let theirs = folder.path + "/theirs"
    #expect(mkdir(theirs, 0o700) == 0 && chown(theirs, 65534, 65534) == 0)
    let store = SQLiteStore.open(path: theirs + "/reckon.sqlite")
    #expect(store.path == nil)
    #expect(store.warnings.first?.hasPrefix("\(theirs) belongs to another user (uid 65534), so ") == true)
    #expect(Self.names(in: theirs) == [])

    // A folder of theirs higher up: they could rename ours and put theirs in its place.
    let above = folder.path + "/above"
    #expect(mkdir(above, 0o755) == 0 && chown(above, 65534, 65534) == 0)
    #expect(
      SQLiteStore.open(path: above + "/reckon/reckon.sqlite").warnings.first?.hasPrefix("\(above) belongs") == true)

    let path = folder.path + "/reckon.sqlite"
    try SQLiteStoreTests.writePrivate(Data(), to: path)
    #expect(chown(path, 65534, 65534) == 0)
    let refused = SQLiteStore.open(path: path)
    #expect(refused.path == nil)
    #expect(refused.warnings.first?.hasPrefix("\(path) belongs to another user (uid 65534), so ") == true)
    #expect(Self.names(in: folder.path).filter { $0.hasPrefix("reckon") } == ["reckon.sqlite"])
  }

  // MARK: Loose modes

  /// A data folder of 0777 and a database of 0644 (with its -wal) are ours: each is made
  /// owner-only, once, with a warning that says so; the WAL made from then on is 0600 too.
  @Test func aLooseFolderAndDatabaseOfOursAreTightened() throws {
    let folder = try Folder()
    let data = folder.path + "/data"
    let path = data + "/reckon.sqlite"
    try SQLiteStore.open(path: path).saveSetting("digits", value: "12", profile: "ada", at: 0)
    #expect(chmod(data, 0o777) == 0 && chmod(path, 0o644) == 0)
    if FileManager.default.fileExists(atPath: path + "-wal") { #expect(chmod(path + "-wal", 0o666) == 0) }
    // The start-up read leaves such a file to the store, which says so.
    #expect(SQLiteStore.quickSettings(path: path, profile: "ada") == nil)

    let store = SQLiteStore.open(path: path)
    #expect(store.path == path)
    #expect(store.warnings.contains("\(data) was open for every user to write to (0777); it is now 0700"))
    #expect(store.warnings.contains("\(path) was open to other users (0644); it is now 0600"))
    #expect(Self.mode(data) == 0o700)
    #expect(Self.mode(path) == 0o600)
    try store.saveSetting("digits", value: "14", profile: "ada", at: 0)
    #expect(Self.mode(path + "-wal") == 0o600)
    #expect(SQLiteStore.open(path: path).warnings.isEmpty)
    #expect(SQLiteStore.quickSettings(path: path, profile: "ada") == ["digits": "14"])
  }

  /// The same for a fresh -wal file left by the release before, that copied a 0644 database's
  /// mode.
  @Test func aLooseWALIsTightened() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    let store = SQLiteStore.open(path: path)
    try store.saveSetting("digits", value: "12", profile: "ada", at: 0)
    #expect(chmod(path + "-wal", 0o644) == 0)
    let reopened = SQLiteStore.open(path: path)
    #expect(reopened.warnings == ["\(path)-wal was open to other users (0644); it is now 0600"])
    #expect(Self.mode(path + "-wal") == 0o600)
  }

  /// A data folder that is a link of our own, outside any shared folder, is followed.
  @Test func aLinkOfOurOwnToAFolderIsFollowed() throws {
    let folder = try Folder()
    #expect(mkdir(folder.path + "/real", 0o700) == 0)
    #expect(symlink(folder.path + "/real", folder.path + "/link") == 0)
    let path = folder.path + "/link/reckon.sqlite"
    let store = SQLiteStore.open(path: path)
    #expect(store.warnings.isEmpty)
    try Self.savesToTheFile(store, path)
    #expect(Self.names(in: folder.path + "/real").contains("reckon.sqlite"))
  }

  // MARK: Stuck states

  /// A damaged database whose name aside is taken (a file of that second is already there)
  /// is moved aside at once under the next name, not after 15 s of trying the same one.
  @Test func aTakenAsideNameGivesTheNextOneAtOnce() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    try SQLiteStoreTests.writePrivate(Data(repeating: 0x42, count: 8192), to: path)
    let aside = path + ".corrupt-" + SQLiteStore.timestamp(1_800_000_000)
    try SQLiteStoreTests.writePrivate(Data("an earlier one".utf8), to: aside)
    // (Before, it tried the taken name again for 15 s, then gave up: a store in memory.)
    let store = SQLiteStore.open(path: path, now: 1_800_000_000)
    #expect(store.path == path)
    #expect(store.warnings.count == 1)
    #expect(store.warnings.first?.contains("it was moved to \(aside)-2 and a fresh one started") == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data("an earlier one".utf8))
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside + "-2")) == Data(repeating: 0x42, count: 8192))
    try Self.savesToTheFile(store, path)
  }
}
