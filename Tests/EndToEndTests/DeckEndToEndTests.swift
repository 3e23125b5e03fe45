import Foundation
import SQLite
import Testing

/// Flashcard decks loaded by the built binary on a real file system that fills up.
@Suite struct DeckEndToEndTests {
  /// The script run in a user namespace of its own (`unshare -rm`: no root needed where user
  /// namespaces are allowed): a tmpfs of 4 MiB at $1 holds the data folder; a small deck and
  /// a setting are saved; then, in one session, a deck of about 12 MB is loaded (the disk
  /// fills), a setting is changed and a deck of 1.3 MB loaded, on the same disk. The data
  /// folder is copied out to $4 (what Reckon said in $4/out).
  static let script = #"""
    mount -t tmpfs -o size=4m reckon-full "$1" || exit 90
    export RECKON_HOME="$1/data"
    "$2" --deck "$3/small.csv" -e 'set digits 12' >"$4/out" 2>&1 || exit 91
    printf 'cards load %s\nset digits 13\ncards load %s\n' "$3/big.txt" "$3/medium.txt" | "$2" >>"$4/out" 2>&1
    echo $? >"$4/status"
    cp -a "$1/data/." "$4/"
    """#

  /// A full disk during a deck's load: nothing of it is saved and the user is told; the -wal
  /// gives back the space the load took at once (a rollback leaves it at its size: the next
  /// deck's pages went into it, but could never be copied into the database, whose file had
  /// no room left to grow, and the -wal stayed behind after Reckon ended); the profile keeps
  /// everything it had and what was saved after, its file passes its integrity check, and
  /// the -wal is empty at the end.
  @Test func aFullDiskDuringALoadLeavesTheProfileAsItWas() throws {
    guard (try? Tool.run("unshare", ["-rm", "true"], timeout: 30))?.status == 0 else {
      print("DeckEndToEndTests: no user namespaces here (unshare -rm): the full disk was not tried")
      return
    }
    let files = try TemporaryFolder()
    let mount = try TemporaryFolder()
    let out = try TemporaryFolder()
    defer {
      files.remove()
      mount.remove()
      out.remove()
    }
    _ = try files.write("small.csv", "Spain,Madrid\n")
    let medium = (1...300).map { "medium \($0) \(String(repeating: "m", count: 1_000))\tback" }
    _ = try files.write("medium.txt", medium.joined(separator: "\n"))
    // 3,000 notes of 1 KB a side: 12 MB of cards, each way (well within the 64 MiB a deck may
    // take, far past the 4 MiB disk).
    let side = String(repeating: "x", count: 1_000)
    _ = try files.write(
      "big.txt", (1...3_000).map { "front \($0) \(side)\tback \($0) \(side)" }.joined(separator: "\n"))
    let run = try Tool.run(
      "unshare",
      ["-rm", "/bin/sh", "-c", Self.script, "sh", mount.path, try ReckonBinary.debug(), files.path, out.path],
      environment: ["HOME": files.path, "USER": "tester", "TERM": "dumb"], timeout: 300)
    if (try? String(contentsOfFile: out.path + "/out", encoding: .utf8))?.contains("belongs to another user") == true {
      // Where the namespace shows / as nobody's (a user who is not root), Reckon rightly
      // refuses the folders on the way (PrivateFiles) and keeps nothing on disk.
      print("DeckEndToEndTests: the data folder is refused inside the user namespace: the full disk was not tried")
      return
    }
    #expect(run.status == 0, "\(run.stderr)")
    let said = try String(contentsOfFile: out.path + "/out", encoding: .utf8)
    #expect(
      said.contains("nothing loaded from \(files.path)/big.txt: the deck could not be saved (the disk is full)"),
      "\(said)")
    #expect(said.contains("Loaded medium (Anki's plain text): 300 notes; cards 600 added"), "\(said)")
    #expect(!said.contains("could not be saved (the disk is full); Reckon"), "\(said)")
    #expect(!said.contains("not being saved"), "\(said)")
    let db = try Database(out.path + "/reckon.sqlite", flags: .readOnly)
    #expect(try db.value("PRAGMA integrity_check", as: String.self) == "ok")
    let decks = try db.all("SELECT deck FROM deckCard WHERE NOT reverse ORDER BY deck") {
      (row) throws(SQLiteError) in try row[0] as String
    }
    #expect(decks == Array(repeating: "medium", count: 300) + ["small"])
    #expect(try db.value("SELECT value FROM setting WHERE key = 'digits'", as: String.self) == "13")
    let wal = try FileManager.default.attributesOfItem(atPath: out.path + "/reckon.sqlite-wal")[.size] as? Int
    #expect(wal == 0)
  }
}
