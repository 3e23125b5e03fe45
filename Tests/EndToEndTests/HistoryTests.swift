import Foundation
import Testing

/// The history file at the prompt: each entry appended (never the whole file rewritten), two
/// prompts at once both keeping their lines, trimmed to 1,000 entries at a later start, no
/// line refused for its length, and never a file or folder another user could get at.
@Suite struct HistoryTests {
  typealias Key = PseudoTerminal.Key

  /// The entries of a history file, decoded as libedit reads them (`\040` is a space).
  static func entries(_ file: String) throws -> [String] {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "_HiStOrY_V2_")
    #expect(lines.last == "")
    lines = Array(lines.dropFirst().dropLast())
    return lines.map { $0.replacingOccurrences(of: "\\040", with: " ") }
  }

  static func typeLines(_ lines: [String], into terminal: PseudoTerminal) throws {
    for line in lines {
      try terminal.send(line + Key.enter)
      try terminal.expect("reckon> ")
    }
  }

  static func quit(_ terminal: PseudoTerminal) throws {
    try terminal.send("quit" + Key.enter)
    #expect(try terminal.waitForExit() == .exited(0))
  }

  /// Every Enter appends its line and leaves what was there as it was (the same file, the
  /// same bytes): with 1,000 entries of 50 KB each, an Enter rewrote all 50 MB (about 3 s).
  @Test func enterAppendsItsLineAndLeavesTheFileAsItWas() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let file = home.path + "/history"
    var before = Data("_HiStOrY_V2_\n".utf8)
    for index in 0..<1000 { before += Data((String(repeating: "7", count: 50_000) + "+\(index)\n").utf8) }
    try before.write(to: URL(fileURLWithPath: file))
    let inode = try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int

    let terminal = try InteractiveTests.startReckon(home: home.path)
    defer { terminal.close() }
    try Self.typeLines(["6 * 7"], into: terminal)
    try Self.quit(terminal)

    let after = try Data(contentsOf: URL(fileURLWithPath: file))
    #expect(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int == inode)
    #expect(after.count == before.count + "6\\040*\\0407\nquit\n".utf8.count)
    #expect(after.prefix(before.count) == before)
    #expect(String(decoding: after.suffix(from: before.count), as: UTF8.self) == "6\\040*\\0407\nquit\n")
  }

  /// Two prompts open at once: each entry goes into the file as it is made, so both keep
  /// their lines. (Each wrote its own list over the whole file, and the last to write
  /// dropped the other's lines.)
  @Test func twoPromptsAtOnceBothKeepTheirLines() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let first = try InteractiveTests.startReckon(home: home.path)
    defer { first.close() }
    let second = try InteractiveTests.startReckon(home: home.path)
    defer { second.close() }
    try Self.typeLines(["1+1"], into: first)
    try Self.typeLines(["2+2"], into: second)
    try Self.typeLines(["3+3"], into: first)
    try Self.typeLines(["4+4"], into: second)
    try Self.quit(first)
    try Self.typeLines(["5+5"], into: second)
    try Self.quit(second)
    #expect(try Self.entries(home.path + "/history") == ["1+1", "2+2", "3+3", "4+4", "quit", "5+5", "quit"])

    // A new prompt has them all.
    let third = try InteractiveTests.startReckon(home: home.path)
    defer { third.close() }
    for expected in ["quit", "5+5", "quit", "4+4"] {
      try third.send(Key.up)
      try third.expect(expected)
    }
    try third.send(Key.ctrlC)  // leaves the line recalled
    try third.expect("reckon> ")
    try third.send(Key.ctrlD)
    #expect(try third.waitForExit() == .exited(0))
  }

  /// The file grows by appending, and a start that finds more than 1,000 entries trims it to
  /// the newest 1,000 (on a thread of its own, joined before Reckon ends).
  @Test func aLaterStartTrimsTheFileToTheNewestThousand() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let file = home.path + "/history"
    try ("_HiStOrY_V2_\n" + (1...1500).map { "\($0)+1\n" }.joined()).write(
      toFile: file, atomically: true, encoding: .utf8)
    do {
      let terminal = try InteractiveTests.startReckon(home: home.path)
      defer { terminal.close() }
      try terminal.send(Key.up)
      try terminal.expect("1500+1")
      try terminal.send(Key.enter)  // the newest entry again: not entered twice
      #expect(InteractiveTests.lines(try terminal.expect("reckon> ")).contains("1501"))
      try terminal.send("exit" + Key.enter)
      #expect(try terminal.waitForExit() == .exited(0))
    }
    // Trimmed at this start, "exit" appended after (1,001) or before the trim (1,000).
    let once = try Self.entries(file)
    #expect(once.count <= 1001)
    #expect(once.suffix(2) == ["1500+1", "exit"])
    #expect(!once.contains("500+1"))

    let again = try InteractiveTests.startReckon(home: home.path)
    defer { again.close() }
    try again.send(Key.ctrlD)
    #expect(try again.waitForExit() == .exited(0))
    let trimmed = try Self.entries(file)
    #expect(trimmed.count == 1000)
    #expect(trimmed.first == "502+1")
    #expect(trimmed.last == "exit")
    #expect(!FileManager.default.fileExists(atPath: file + ".new"))
  }

  /// A line refused for its length (over 64 KiB) is not kept in history.
  @Test func aLineRefusedForItsLengthStaysOutOfHistory() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let terminal = try InteractiveTests.startReckon(home: home.path)
    defer { terminal.close() }
    try Self.typeLines(["2+2"], into: terminal)
    try terminal.sendLong(String(repeating: "1+", count: 35_000) + "1" + Key.enter)
    try terminal.expect("the line is too long (over the limit of 65,536 bytes)")
    try terminal.expect("reckon> ")
    try Self.quit(terminal)
    #expect(try Self.entries(home.path + "/history") == ["2+2", "quit"])
  }

  /// A history file of ours that others can read is made 0600, with a warning; one that is a
  /// symbolic link is not followed, and history is not saved.
  @Test func aHistoryFileOpenToOthersIsTightenedAndALinkIsNotFollowed() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let file = home.path + "/history"
    try "_HiStOrY_V2_\n6*7\n".write(toFile: file, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
    do {
      let terminal = try InteractiveTests.startReckon(home: home.path, columns: 500)
      defer { terminal.close() }
      #expect(terminal.output.contains("history file \(file) was open to other users (0644); it is now 0600"))
      try Self.typeLines(["1+1"], into: terminal)
      try Self.quit(terminal)
    }
    #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
    #expect(try Self.entries(file) == ["6*7", "1+1", "quit"])

    let elsewhere = home.path + "/elsewhere"
    try FileManager.default.moveItem(atPath: file, toPath: elsewhere)
    try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: elsewhere)
    let terminal = try InteractiveTests.startReckon(home: home.path, columns: 500)
    defer { terminal.close() }
    #expect(terminal.output.contains("history file \(file) is a symbolic link; history will not be saved"))
    try Self.typeLines(["2+2"], into: terminal)
    try Self.quit(terminal)
    #expect(try Self.entries(elsewhere) == ["6*7", "1+1", "quit"])
  }

  /// Reckon's folder in a shared folder (/tmp), planted in advance as a link: history is not
  /// kept there, and the reason is given.
  @Test func aHistoryFolderPlantedInASharedFolderIsNotUsed() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let shared = folder.path + "/tmp"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: shared)
    let theirs = folder.path + "/theirs"
    try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: shared + "/reckon-1000", withDestinationPath: theirs)
    let terminal = try InteractiveTests.startReckon(
      home: folder.path, environment: ["RECKON_HOME": shared + "/reckon-1000"], columns: 500)
    defer { terminal.close() }
    #expect(
      terminal.output.contains(
        "\(shared)/reckon-1000 is a symbolic link in \(shared), where every user can make one, so "
          + "\(shared)/reckon-1000/history is not used: history will not be saved"))
    try Self.typeLines(["1+1"], into: terminal)
    try Self.quit(terminal)
    #expect(try FileManager.default.contentsOfDirectory(atPath: theirs) == [])
  }
}
