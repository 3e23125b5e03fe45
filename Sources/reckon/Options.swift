import ReckonSession

/// The command line. Parsed by hand: swift-argument-parser's reflection cost about two
/// thirds of Reckon's start-up instructions (measured with callgrind), and four flags do not
/// need it.
struct Options: Equatable {
  var expressions: [String] = []
  var files: [String] = []
  var dataDir: String?
  var profile: String?
  /// Trivia files to add to the quiz's questions (`--questions FILE`, repeatable).
  var questionFiles: [String] = []
  /// Flashcard decks to load before the prompt (`--deck FILE`, repeatable).
  var deckFiles: [String] = []
  /// A word list for the anagram game (`--words FILE`).
  var wordsFile: String?
  var showHelp = false
  var showVersion = false
  /// Print the saved profiles' names and exit (`--list-profiles`, for shell completion).
  var listProfiles = false
  /// Damaged or set-aside databases whose rows are added to the one in use
  /// (`--salvage FILE`, repeatable), as `salvage FILE` adds them.
  var salvageFiles: [String] = []

  static let version = "reckon 0.1.0"

  struct UsageError: Error, Equatable {
    var message: String
  }

  /// Parses the arguments after the program name. `-` as a FILE is standard input; after
  /// `--`, everything is a FILE.
  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var index = 0
    var onlyFiles = false
    func value(for flag: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      if onlyFiles || argument == "-" || !argument.hasPrefix("-") {
        options.files.append(argument)
      } else if argument == "--" {
        onlyFiles = true
      } else if argument == "-e" || argument == "--expression" {
        options.expressions.append(try value(for: argument))
      } else if argument.hasPrefix("-e") {
        options.expressions.append(String(argument.dropFirst(2)))  // -e1+1
      } else if argument.hasPrefix("--expression=") {
        options.expressions.append(String(argument.dropFirst("--expression=".count)))
      } else if argument == "--data-dir" || argument.hasPrefix("--data-dir=") {
        let dir = argument == "--data-dir" ? try value(for: argument) : String(argument.dropFirst("--data-dir=".count))
        // Typically --data-dir "$UNSET": the files would land in / or the working folder.
        if dir.isEmpty { throw UsageError(message: "--data-dir: the folder name is empty") }
        // --data-dir=~/x: the shell expands ~ only at the start of a word, and a folder named
        // ~ would be made in the working folder.
        if dir.hasPrefix("~") {
          throw UsageError(
            message: "--data-dir: \(dir) starts with '~', which the shell did not expand: use $HOME instead, "
              + "or --data-dir ~/... (with a space)")
        }
        options.dataDir = dir
      } else if argument == "--profile" || argument.hasPrefix("--profile=") {
        let name = argument == "--profile" ? try value(for: argument) : String(argument.dropFirst("--profile=".count))
        if let problem = Profiles.problem(with: name) { throw UsageError(message: "--profile: \(problem)") }
        options.profile = name
      } else if argument == "--questions" {
        options.questionFiles.append(try value(for: argument))
      } else if argument.hasPrefix("--questions=") {
        options.questionFiles.append(String(argument.dropFirst("--questions=".count)))
      } else if argument == "--deck" {
        options.deckFiles.append(try value(for: argument))
      } else if argument.hasPrefix("--deck=") {
        options.deckFiles.append(String(argument.dropFirst("--deck=".count)))
      } else if argument == "--words" {
        options.wordsFile = try value(for: argument)
      } else if argument.hasPrefix("--words=") {
        options.wordsFile = String(argument.dropFirst("--words=".count))
      } else if argument == "--salvage" {
        options.salvageFiles.append(try value(for: argument))
      } else if argument.hasPrefix("--salvage=") {
        options.salvageFiles.append(String(argument.dropFirst("--salvage=".count)))
      } else if argument == "-h" || argument == "--help" {
        options.showHelp = true
      } else if argument == "--version" {
        options.showVersion = true
      } else if argument == "--list-profiles" {
        options.listProfiles = true
      } else {
        throw UsageError(message: "unknown option '\(argument)'")
      }
      index += 1
    }
    return options
  }

  static let help = """
    reckon: an exact calculator REPL, with tips and bill splitting, times-table
    drills that remember every answer, a trivia quiz with daily challenges,
    personality quizzes and an anagram game (drill, quiz, daily, personality,
    anagram, stats and profile at the prompt).

    Usage: reckon [-e EXPR]... [--data-dir DIR] [--profile NAME] [--questions FILE]...
                  [--words FILE] [--deck FILE]... [--salvage FILE]... [FILE...]

    With no EXPR or FILE and a terminal, Reckon starts its prompt (type help there).
    Otherwise it evaluates each -e EXPR, then each FILE (- is standard input), or
    piped input, line by line, and prints one line per result. Blank lines and
    # comments print nothing. Errors go to stderr as
      reckon: WHERE:LINE:COLUMN: error: MESSAGE
    (WHERE is -e, the file name or <stdin>; -e lines count across all -e flags),
    and the exit status is 1 if any line failed, 0 otherwise.

    Options:
      -e, --expression EXPR   evaluate EXPR and print the result (repeatable)
      --data-dir DIR          keep all of Reckon's files in DIR
      --profile NAME          whose settings and progress to use (default: your
                              login name)
      --questions FILE        add trivia questions from FILE to the quiz
                              (star-separated, CSV or Open Trivia DB JSON;
                              repeatable; see help quiz at the prompt)
      --words FILE            play the anagram game with the words of FILE,
                              one a line (/usr/share/dict/words, say): only
                              lowercase a–z words, no names or offensive words
      --deck FILE             load a flashcard deck (an Anki package, Anki's
                              plain text, CSV or Markdown; repeatable), as
                              cards load FILE does; then: cards DECK
      --salvage FILE          add to Reckon's database every row it lacks that a
                              damaged or set-aside database still holds (the
                              reckon.sqlite.corrupt-DATE file a salvage left),
                              as salvage FILE does at the prompt; repeatable
      --list-profiles         print the names of the saved profiles, one a line
                              (for shell completion), and exit
      -h, --help              show this help
      --version               show the version

    Examples:
      reckon                          start the prompt
      reckon -e '0.1+0.2'             prints 0.3
      reckon -e '2^100' -e '100!'     each result on its own line
      reckon -e 'tip 84.50 18% split 3'
      echo '1/3*3' | reckon           prints 1
      reckon bill.txt                 evaluate a file
      reckon --profile ada            start the prompt as ada (then: drill 7)
      reckon --questions mine.csv     start with your own questions (then: quiz)
      reckon --deck spanish.apkg      load an Anki deck (then: cards spanish)

    Files: history in $XDG_STATE_HOME/reckon/history (~/.local/state/reckon);
    settings, profiles and progress in $XDG_DATA_HOME/reckon/reckon.sqlite
    (~/.local/share/reckon); your anagram levels, if you write them, in
    $XDG_CONFIG_HOME/reckon/anagram-levels.txt (~/.config/reckon);
    RECKON_HOME=DIR (a path from /) or --data-dir DIR keeps all of Reckon's files
    in DIR. With no home folder at all, they go in $TMPDIR/reckon-UID (or
    /tmp/reckon-UID).
    """
}
