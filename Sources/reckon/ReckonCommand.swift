import Glibc
import LineEditor
import ReckonCore
import ReckonSession
import ReckonStore

/// The entry point: flags, then the loop that fits how Reckon was started.
@main
enum ReckonCommand {
  static func main() {
    // A file size limit (ulimit -f) reached by the database or its WAL: the write fails with
    // EFBIG, which the store reports, instead of SIGXFSZ killing Reckon without a word in the
    // middle of a drill.
    signal(SIGXFSZ, SIG_IGN)
    let options: Options
    do {
      options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      var err = OutputStream(fd: 2)
      err.line("reckon: \(error.message)")
      err.line("Try 'reckon --help' for the options.")
      err.flush()
      exit(2)
    }
    if options.showHelp || options.showVersion {
      var out = OutputStream(fd: 1)
      out.line(options.showHelp ? Options.help : Options.version + "\nwith " + NumberLibraries.versions)
      out.flush()
      exit(0)
    }
    if options.listProfiles { exit(listProfiles(dataPaths(options).database) ? 0 : 1) }
    // Nesting up to the parser's limit (1,000 levels) recurses deeply: about 3 MiB in the
    // release build, over 8 MiB in a debug one. The main thread's stack (8 MiB by default)
    // is used when it is at least that default; a smaller one gets a thread with a large
    // stack of its own (which costs about 0.15 ms at start-up, so it is not made when not
    // needed).
    let ok = LargeStack.mainStackIsEnough ? run(options) : LargeStack.run { run(options) }
    exit(ok ? 0 : 1)
  }

  /// Where Reckon's files go; a setting that names no place (`RECKON_HOME=''`) ends Reckon
  /// with status 2.
  static func dataPaths(_ options: Options) -> DataPaths {
    do {
      return try DataPaths(dataDir: options.dataDir)
    } catch {
      var err = OutputStream(fd: 2)
      err.line("reckon: error: \(error.message)")
      err.flush()
      exit(2)
    }
  }

  static func run(_ options: Options) -> Bool {
    let terminal = Terminal()
    OutputStream.encodesLatin1 = Terminal.localeIsLatin1()
    let paths = dataPaths(options)
    // The login name is looked up only when the profile is first needed (a calculation
    // with no database never needs it; without USER it costs a password-database lookup).
    let profile = options.profile
    let batch = !options.expressions.isEmpty || !options.files.isEmpty || !terminal.interactive
    // At the prompt Ctrl-C stops the salvage of a damaged database (what was copied is kept,
    // or nothing changes if nothing was), from the start; a script keeps the default SIGINT,
    // and a salvage killed half-way is undone at the next start. A long salvage shows how far
    // it has got on a terminal.
    if !batch { LineEditor.installInterruptHandler() }
    var salvage = SalvagePolicy(interrupted: { !batch && LineEditor.interruptRequested })
    if terminal.stderrIsTTY {
      let line = SalvageProgressLine(stopsWithCtrlC: !batch)
      salvage.progress = { line.show($0) }
    }
    let store = SQLiteStore(path: paths.database, salvage: salvage)
    var session = Session(
      clock: SystemClock(), random: systemRandom(), store: store,
      lazyProfile: { profile ?? Profiles.initial(loginName: loginName()) })
    var runner = Runner(terminal: terminal)
    // At the prompt the settings are read now, so that anything the read has to say (a
    // damaged database moved aside) comes first. A script reads them when a line first needs
    // them: `reckon -e 2+2` prints the same whatever they are, and opens no database.
    if !batch { runner.startup = Reply(session.restoreSettings()) }
    session.state.files = SystemFiles()
    session.state.packages = AnkiPackage()
    for path in options.questionFiles {
      switch session.state.useQuestions(from: path) {
      case .failure(let problem):
        var err = OutputStream(fd: 2)
        err.line("reckon: --questions \(path): error: \(problem.message); nothing loaded")
        for detail in problem.details { err.line("reckon: \(path): \(detail)") }
        err.flush()
        return false
      case .success(let report): show(report, from: path, batch: batch, runner: &runner)
      }
    }
    session.state.configFolder = paths.configFolder
    if let path = options.wordsFile {
      switch session.state.useWords(from: path) {
      case .failure(let problem):
        var err = OutputStream(fd: 2)
        err.line("reckon: --words \(path): error: \(problem.message)")
        err.flush()
        return false
      case .success(let report): show(report, from: path, batch: batch, runner: &runner)
      }
    }
    // At the prompt Ctrl-C stops a deck being read (an endless or huge package), as it stops
    // a line's work; nothing of the deck is then loaded, and Reckon ends.
    if !batch && !options.deckFiles.isEmpty {
      session.state.interruption = Interruption { LineEditor.interruptRequested }
    }
    for path in options.deckFiles {
      let (reply, loaded) = session.state.useDeck(from: path)
      if batch || !loaded {
        var err = OutputStream(fd: 2)
        for output in reply.outputs {
          switch output {
          case .note(let text): err.line("reckon: --deck \(path): \(text.drop { $0 == " " })")
          case .warning(let text): err.line("reckon: --deck \(text): error: nothing loaded")
          default: break
          }
        }
        err.flush()
        if !loaded { return false }
      } else {
        runner.startup.outputs += reply.outputs
      }
    }
    if !options.salvageFiles.isEmpty {
      // `--salvage FILE`: as `salvage FILE` at the prompt; then the rest, or the end.
      var ok = true
      runner.renderer.render(runner.startup, prompt: "", out: &runner.out, err: &runner.err)
      runner.startup = Reply()
      for (number, path) in options.salvageFiles.enumerated() {
        if !batch { LineEditor.clearInterruptRequest() }
        runner.show(session.handle("salvage " + path), source: "--salvage", line: number + 1, ok: &ok)
      }
      runner.out.flush()
      guard !options.expressions.isEmpty || !options.files.isEmpty else {
        return runner.finish(&session, ok)
      }
      return runner.runExpressionsAndFiles(options.expressions, options.files, session: &session) && ok
    }
    if !options.expressions.isEmpty || !options.files.isEmpty {
      return runner.runExpressionsAndFiles(options.expressions, options.files, session: &session)
    }
    if terminal.interactive {
      return runner.runInteractive(session: &session, historyFile: paths.history)
    }
    return runner.runStandardInput(session: &session)
  }
}

extension ReckonCommand {
  /// `--list-profiles`: the saved profiles' names, one a line (none without a database), read
  /// without creating or changing anything. A database that cannot be read is an error that
  /// names the file. The names are those `--profile` takes (`SQLiteStore.profileNames`), so
  /// none can hold a line break or a control character; `line` passes them through
  /// `VisibleText` all the same. They are written as UTF-8 whatever the locale: the shell
  /// hands a completed name back to `--profile` as it was written.
  static func listProfiles(_ database: String) -> Bool {
    do throws(StoreError) {
      let names = try SQLiteStore.profileNames(path: database)
      var out = OutputStream(fd: 1)
      for name in names { out.line(name) }
      out.flush()
      return out.failure == nil
    } catch {
      var err = OutputStream(fd: 2)
      err.line("reckon: cannot read the profiles in \(database): \(error.message)")
      err.flush()
      return false
    }
  }

  /// What a file given on the command line gave (`--questions`, `--words`). At the prompt,
  /// as the session says it, before the first prompt. In a script, on stderr, so that stdout
  /// is the results alone: every row skipped and then the summary, each after the file's name.
  static func show(_ report: SessionState.LoadReport, from path: String, batch: Bool, runner: inout Runner) {
    guard batch else {
      runner.startup.outputs += report.outputs
      return
    }
    var err = OutputStream(fd: 2)
    for line in report.skipped { err.line("reckon: \(path): \(line)") }
    err.line("reckon: \(path): \(report.summary)")
    err.flush()
  }
}

/// Runs work on a thread with a 64 MiB stack and waits for it, for when the main thread's
/// is small (plain pthreads: Foundation's Thread costs start-up time for nothing here).
enum LargeStack {
  final class Job: @unchecked Sendable {
    let body: () -> Bool
    var ok = false
    init(_ body: @escaping () -> Bool) { self.body = body }
  }

  /// Whether the main thread's stack limit is 8 MiB or more (or unlimited).
  static var mainStackIsEnough: Bool {
    #if DEBUG
      return false  // a debug build's frames are several times larger: 1,000 levels need over 8 MiB
    #else
      var limit = rlimit()
      guard getrlimit(Int32(RLIMIT_STACK.rawValue), &limit) == 0 else { return false }
      return limit.rlim_cur == rlim_t.max || limit.rlim_cur >= 8 << 20  // rlim_t.max: RLIM_INFINITY
    #endif
  }

  static func run(_ body: @escaping () -> Bool) -> Bool {
    let job = Job(body)
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, 64 << 20)
    var thread = pthread_t()
    let context = Unmanaged.passRetained(job).toOpaque()
    let started = pthread_create(
      &thread, &attributes,
      { context in
        let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
        job.ok = job.body()
        return nil
      }, context)
    guard started == 0 else {
      // No thread to be had: run here, with the smaller stack.
      Unmanaged<Job>.fromOpaque(context).release()
      return body()
    }
    pthread_join(thread, nil)
    return job.ok
  }
}
