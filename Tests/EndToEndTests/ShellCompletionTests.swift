/// The shell completions in completions/ (bash, zsh, fish), driven as each shell drives them,
/// and `reckon --list-profiles`, which they complete --profile from. bash is always there;
/// the zsh and fish tests are skipped, and say so, when that shell is not installed.
import Foundation
import SQLite
import Testing

@Suite struct ShellCompletionTests {
  static let completions = ReckonBinary.packageRoot + "/completions"

  /// A folder to complete in: files (one with a space, one starting with a dash), folders,
  /// and two data folders with saved profiles: `home` (RECKON_HOME: ada and bob) and `other`
  /// (zed).
  struct Fixture {
    let folder: TemporaryFolder
    var path: String { folder.path }
    var home: String { folder.path + "/home" }
    /// The environment a shell completes in: the debug build's reckon first on PATH.
    let environment: [String: String]

    init() throws {
      folder = try TemporaryFolder()
      for name in ["home", "other", "sub"] {
        try FileManager.default.createDirectory(atPath: folder.path + "/" + name, withIntermediateDirectories: true)
      }
      for name in ["my file.csv", "notes.txt", "-dash.txt"] { _ = try folder.write(name, "") }
      let home = folder.path + "/home"
      let made = try ReckonProcess.run(["-e", "profile ada", "-e", "profile bob"], environment: ["RECKON_HOME": home])
      let other = try ReckonProcess.run(["--data-dir", folder.path + "/other", "-e", "profile zed"])
      guard made.status == 0, other.status == 0 else { throw Tool.Failure(description: "could not make the profiles") }
      let binaries = URL(fileURLWithPath: try ReckonBinary.debug()).deletingLastPathComponent().path
      environment = [
        "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        "RECKON_HOME": home, "HOME": folder.path,
      ]
    }

    func remove() { folder.remove() }
  }

  /// Every option `reckon --help` lists, and the long ones.
  static func helpOptions() throws -> (all: Set<String>, long: Set<String>) {
    let options = Set(try HelpText.options())
    return (options, options.filter { $0.hasPrefix("--") })
  }

  // MARK: bash

  /// Each case: the words on the line (the last is the one being completed) and what bash
  /// should offer.
  @Test func bashCompletesOptionsFilesFoldersAndProfiles() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let options = try Self.helpOptions()
    let files: Set = ["my file.csv", "notes.txt", "-dash.txt", "home", "other", "sub"]
    let cases: [([String], Set<String>)] = [
      (["reckon", "-"], options.all.union(["--"])),
      (["reckon", "--pro"], ["--profile"]),
      (["reckon", "--profile", ""], ["ada", "bob"]),
      (["reckon", "--profile", "a"], ["ada"]),
      // --profile=… arrives as three words (= is one of bash's word breaks).
      (["reckon", "--profile", "=", ""], ["ada", "bob"]),
      (["reckon", "--data-dir", "other", "--profile", ""], ["zed"]),
      (["reckon", "--data-dir", "=", "other", "--profile", ""], ["zed"]),
      (["reckon", "--data-dir=other", "--profile", ""], ["zed"]),
      (["reckon", "--questions", "my"], ["my file.csv"]),
      (["reckon", "--words", ""], files),
      (["reckon", "--data-dir", ""], ["home", "other", "sub"]),
      (["reckon", ""], files),
      (["reckon", "-e", ""], []),
      (["reckon", "--expression", "1"], []),
      (["reckon", "--", "-"], ["-dash.txt"]),
    ]
    var script = """
      source "$1"
      t() {
        COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
        _reckon
        local IFS='|'; echo "${COMPREPLY[*]}"
      }

      """
    for (words, _) in cases {
      script += "t " + words.map { "'\($0)'" }.joined(separator: " ") + "\n"
    }
    // Without = among the word breaks, --profile=b is one word, and so is each answer.
    script += "COMP_WORDBREAKS=$' \\t\\n'; t reckon --profile=b\n"
    let run = try Tool.run(
      "bash", ["--norc", "--noprofile", "-c", script, "bash", Self.completions + "/reckon.bash"],
      environment: fixture.environment, directory: fixture.path)
    #expect(run.stderr == "")
    let lines = run.lines
    #expect(lines.count == cases.count + 1)
    for (index, (words, expected)) in cases.enumerated() where index < lines.count {
      let offered = Set(lines[index].split(separator: "|").map(String.init))
      #expect(offered == expected, "bash, completing \(words)")
    }
    #expect(lines.last == "--profile=bob")
  }

  @Test func bashCompletionIsRegisteredForReckon() throws {
    let run = try Tool.run(
      "bash",
      ["--norc", "--noprofile", "-c", "source \"$1\" && complete -p reckon", "bash", Self.completions + "/reckon.bash"])
    #expect(run.stdout == "complete -F _reckon reckon\n")
  }

  // MARK: zsh

  @Test(
    .enabled(if: Tool.path("zsh") != nil, "zsh is not installed: its completion is not tested (apt-get install zsh)"))
  func zshCompletesOptionsFilesFoldersAndProfiles() throws {
    let syntax = try Tool.run("zsh", ["-n", Self.completions + "/_reckon"])
    #expect(syntax.status == 0 && syntax.stderr == "", "zsh -n: \(syntax.stderr)")
    let fixture = try Fixture()
    defer { fixture.remove() }
    let cases: [(String, Set<String>)] = [
      ("reckon --", try Self.helpOptions().long),
      ("reckon --profile ", ["ada", "bob"]),
      ("reckon --profile=a", ["ada"]),
      ("reckon --data-dir other --profile ", ["zed"]),
      ("reckon --data-dir=other --profile=", ["zed"]),
      ("reckon --questions my", ["my file.csv"]),
      ("reckon --data-dir ", ["home", "other", "sub"]),
    ]
    // zsh completes only in its line editor: each line is typed, then Tab, into an
    // interactive zsh on a pseudo-terminal (zpty), whose compadd also writes what it is
    // given to a file; a function run after completion writes <done>.
    let capture = """
      zmodload zsh/zpty || exit 3
      export RECKON_TEST_FPATH=$1
      shift
      for line in "$@"; do
        export RECKON_TEST_CAPTURE=$(mktemp)
        zpty z zsh -f -i
        zpty -w z 'PROMPT=""; fpath=($RECKON_TEST_FPATH $fpath); autoload -U compinit; compinit -u -D'
        zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd "$@"; return; fi; local -a hits; builtin compadd -O hits "$@"; print -rl -- $hits >> $RECKON_TEST_CAPTURE; builtin compadd "$@"; }'
        zpty -w z 'comppostfuncs=(reckon_test_done); reckon_test_done() { print -r -- "<done>" >> $RECKON_TEST_CAPTURE; }'
        zpty -w -n z "$line"$'\\t'
        for i in {1..200}; do
          grep -q '<done>' $RECKON_TEST_CAPTURE && break
          sleep 0.05
        done
        zpty -d z
        print -r -- "== $line"
        cat $RECKON_TEST_CAPTURE
        rm -f $RECKON_TEST_CAPTURE
      done
      """
    let script = try fixture.folder.write(".capture.zsh", capture)
    let run = try Tool.run(
      "zsh", ["-f", script, Self.completions] + cases.map(\.0), environment: fixture.environment,
      directory: fixture.path)
    #expect(run.status == 0, "\(run.stderr)")
    let results = Self.sections(run.lines)
    for (line, expected) in cases {
      guard let offered = results[line] else {
        Issue.record("zsh did not complete '\(line)' within 10 s")
        continue
      }
      // zsh hands file names to compadd quoted for the line (my\ file.csv).
      #expect(Set(offered.map { $0.replacingOccurrences(of: "\\", with: "") }) == expected, "zsh, completing '\(line)'")
    }
  }

  /// "== LINE" headers, each followed by what was offered and "<done>", as a dictionary
  /// (a case without its "<done>" is left out).
  static func sections(_ lines: [String]) -> [String: [String]] {
    var results: [String: [String]] = [:]
    var current: String?
    var items: [String] = []
    for line in lines {
      if line.hasPrefix("== ") {
        current = String(line.dropFirst(3))
        items = []
      } else if line == "<done>", let key = current {
        results[key] = items
        current = nil
      } else if !line.isEmpty {
        items.append(line)
      }
    }
    return results
  }

  // MARK: fish

  @Test(
    .enabled(if: Tool.path("fish") != nil, "fish is not installed: its completion is not tested (apt-get install fish)")
  )
  func fishCompletesOptionsFilesFoldersAndProfiles() throws {
    let syntax = try Tool.run("fish", ["--no-execute", Self.completions + "/reckon.fish"])
    #expect(syntax.status == 0 && syntax.stderr == "", "fish -n: \(syntax.stderr)")
    let fixture = try Fixture()
    defer { fixture.remove() }
    let cases: [(String, Set<String>)] = [
      ("reckon --", try Self.helpOptions().long),
      ("reckon -", try Self.helpOptions().all),
      ("reckon --profile ", ["ada", "bob"]),
      ("reckon --profile=", ["--profile=ada", "--profile=bob"]),
      ("reckon --data-dir other --profile ", ["zed"]),
      ("reckon --data-dir=other --profile ", ["zed"]),
      ("reckon --questions my", ["my file.csv"]),
      ("reckon --data-dir ", ["home/", "other/", "sub/"]),
      ("reckon -e ", []),
      ("reckon ", ["my file.csv", "notes.txt", "-dash.txt", "home/", "other/", "sub/"]),
      ("reckon -- -", ["-dash.txt"]),
    ]
    // complete -C lists what fish offers for a line: each candidate, a tab, its description.
    let script = """
      source $argv[1]
      for line in $argv[2..-1]
        echo "== $line"
        complete -C $line
        echo '<done>'
      end
      """
    let run = try Tool.run(
      "fish", ["--no-config", "-c", script, Self.completions + "/reckon.fish"] + cases.map(\.0),
      environment: fixture.environment, directory: fixture.path)
    #expect(run.status == 0, "\(run.stderr)")
    let results = Self.sections(run.lines)
    for (line, expected) in cases {
      let offered = Set((results[line] ?? []).map { String($0.prefix { $0 != "\t" }) })
      #expect(offered == expected, "fish, completing '\(line)'")
    }
  }

  // MARK: reckon --list-profiles

  @Test func listProfilesPrintsNothingWithoutADatabaseAndCreatesNothing() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let run = try ReckonProcess.run(["--list-profiles"], environment: ["RECKON_HOME": home.path])
    #expect(run.stdout == "")
    #expect(run.stderr == "")
    #expect(run.status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == [])
  }

  @Test func listProfilesPrintsTheSavedNamesInOrderAndOnlyReads() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let environment = ["RECKON_HOME": home.path]
    let made = try ReckonProcess.run(
      ["-e", "profile bob", "-e", "profile Ada", "-e", "profile carol", "-e", "profile Zoë"], environment: environment)
    #expect(made.status == 0)
    let database = home.path + "/reckon.sqlite"
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    // (The store leaves an empty -wal and its -shm when it closes.)
    let files = try FileManager.default.contentsOfDirectory(atPath: home.path).sorted()
    let run = try ReckonProcess.run(["--list-profiles"], environment: environment)
    #expect(run.lines == ["Ada", "bob", "carol", "Zoë"])
    #expect(run.stderr == "")
    #expect(run.status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == files)
    #expect(files.first == "reckon.sqlite")
    // --data-dir comes before RECKON_HOME, in either form.
    let other = try TemporaryFolder()
    defer { other.remove() }
    #expect(try ReckonProcess.run(["--data-dir", other.path, "-e", "profile zed"]).status == 0)
    #expect(
      try ReckonProcess.run(["--data-dir", other.path, "--list-profiles"], environment: environment).lines == ["zed"])
    #expect(
      try ReckonProcess.run(["--list-profiles", "--data-dir=\(other.path)"], environment: environment).lines == ["zed"])
  }

  @Test func listProfilesLeavesOutNamesProfileWouldNotTake() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let environment = ["RECKON_HOME": home.path]
    #expect(try ReckonProcess.run(["-e", "profile ada", "-e", "profile Zoë"], environment: environment).status == 0)
    // Names only a damaged or hand-edited file can hold: a line break would make two names
    // of one, an escape sequence would act on the terminal, a space would split the word.
    do {
      let db = try Database(home.path + "/reckon.sqlite")
      try db.run(
        "INSERT INTO profile (name, createdAt) VALUES (?, 0), (?, 0), (?, 0), (?, 0)", "evil\nname",
        "\u{1B}]0;title\u{7}", "two words", "-e")
    }
    let run = try ReckonProcess.run(["--list-profiles"], environment: environment)
    #expect(run.lines == ["ada", "Zoë"])
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test func listProfilesFailsOnADatabaseItCannotRead() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let database = try home.write("reckon.sqlite", String(repeating: "not a database ", count: 100))
    let run = try ReckonProcess.run(["--list-profiles"], environment: ["RECKON_HOME": home.path])
    #expect(run.stdout == "")
    #expect(run.stderr == "reckon: cannot read the profiles in \(database): file is not a database\n")
    #expect(run.status == 1)
  }
}
