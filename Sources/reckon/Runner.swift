import Glibc
import LineEditor
import ReckonCore
import ReckonSession
import ReckonStore

/// The read–handle–render loops: one for -e, files and pipes, one for the interactive prompt.
struct Runner {
  let terminal: Terminal
  var out = OutputStream(fd: 1)
  var err = OutputStream(fd: 2)
  let renderer: Renderer

  init(terminal: Terminal) {
    self.terminal = terminal
    var renderer = Renderer(colour: terminal.colour, errorColour: terminal.errorColour, interactive: false)
    renderer.takesEscapes = terminal.takesEscapes
    self.renderer = renderer
  }

  /// What start-up has to say (a damaged database moved aside, say): shown first by
  /// whichever loop runs.
  var startup = Reply()

  /// Evaluates each `-e` expression, then each file (`-` is standard input). `-e` lines are
  /// located as `-e:LINE:COLUMN`, counting lines across all the `-e` flags; file lines as
  /// `FILE:LINE:COLUMN`.
  mutating func runExpressionsAndFiles(_ expressions: [String], _ files: [String], session: inout Session) -> Bool {
    var ok = true
    var lineNumber = 0
    renderer.render(startup, prompt: "", out: &out, err: &err)
    for expression in expressions {
      for line in expression.split(separator: "\n", omittingEmptySubsequences: false) {
        lineNumber += 1
        if !step(Runner.stripCR(String(line)), session: &session, source: "-e", line: lineNumber, ok: &ok) {
          return finish(&session, ok)
        }
      }
    }
    for file in files {
      if file == "-" {
        if !runLines(from: 0, named: "<stdin>", session: &session, ok: &ok) { break }
        continue
      }
      let fd = open(file, O_RDONLY | O_CLOEXEC)
      var info = stat()
      let isDirectory = fd >= 0 && fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
      if fd < 0 || isDirectory {
        let why = fd < 0 ? SystemFiles.reason(errno) : "it is a directory"
        if fd >= 0 { close(fd) }
        out.flush()  // keep the error in its place among the results
        err.line("reckon: \(file): error: cannot read the file: \(why)")
        err.flush()
        ok = false
        continue
      }
      defer { close(fd) }
      if !runLines(from: fd, named: file, session: &session, ok: &ok) { break }
    }
    return finish(&session, ok)
  }

  /// Evaluates piped standard input line by line, with no prompt; errors as `<stdin>:LINE:COLUMN`.
  mutating func runStandardInput(session: inout Session) -> Bool {
    var ok = true
    renderer.render(startup, prompt: "", out: &out, err: &err)
    _ = runLines(from: 0, named: "<stdin>", session: &session, ok: &ok)
    return finish(&session, ok)
  }

  /// Evaluates the lines of a file descriptor; returns false when the session asked to leave.
  mutating func runLines(from fd: Int32, named name: String, session: inout Session, ok: inout Bool) -> Bool {
    var reader = LineReader(fd: fd, limit: Session.maxLineBytes)
    var lineNumber = 0
    while let input = reader.next() {
      lineNumber += 1
      let inMode = !session.isInCalculator
      switch input {
      case .line(let line):
        if !step(line, session: &session, source: name, line: lineNumber, ok: &ok) { return false }
      case .tooLong:
        show(Session.tooLong(bytes: nil), source: name, line: lineNumber, ok: &ok)
      case .failed(let why):
        // Not the end of the file: say so, naming it, and fail the run.
        out.flush()  // keep the error in its place among the results
        let after = lineNumber > 1 ? " after line \(lineNumber - 1)" : ""
        err.line("reckon: \(name): error: cannot read the file\(after): \(why)")
        err.flush()
        ok = false
        return true
      }
      // Inside a drill every reply is shown at once: a question waits for its answer, and what
      // is on screen has been saved (a script driving the drill can wait for it).
      if (terminal.stdinIsTTY && fd == 0) || inMode || !session.isInCalculator { out.flush() }
    }
    return true
  }

  /// Handles one line; returns false when the session asked to leave.
  mutating func step(_ line: String, session: inout Session, source: String, line number: Int, ok: inout Bool) -> Bool {
    let reply = session.handle(line)
    show(reply, source: source, line: number, ok: &ok)
    return !reply.shouldExit
  }

  /// Shows the reply to line `number` of `source`; an error fails the run.
  mutating func show(_ reply: Reply, source: String, line number: Int, ok: inout Bool) {
    if reply.failed {
      ok = false
      out.flush()  // keep stdout and stderr in order when both go to one place
    }
    renderer.render(reply, prompt: "", location: Renderer.Place(source: source, line: number), out: &out, err: &err)
    if reply.failed { err.flush() }
  }

  /// Says goodbye for the mode, flushes, and fails the run if output could not be written.
  mutating func finish(_ session: inout Session, _ ok: Bool) -> Bool {
    renderer.render(session.finish(), prompt: "", location: Renderer.Place(source: "<end>"), out: &out, err: &err)
    out.flush()
    if let problem = out.failure {
      err.line("reckon: error: cannot write the output: \(problem)")
    }
    err.flush()
    return ok && out.failure == nil
  }

  static func stripCR(_ line: String) -> String {
    line.hasSuffix("\r") ? String(line.dropLast()) : line
  }

  // MARK: Interactive

  /// The prompt, through libedit. Errors here never change the exit status.
  mutating func runInteractive(session: inout Session, historyFile: String) -> Bool {
    let box = SessionBox(session)
    // The history's folder is checked as the database's is: never one another user owns or
    // can write to (a planted folder or link in a shared /tmp).
    var historyWarnings: [String] = []
    var history: String? = historyFile
    do {
      historyWarnings = try PrivateFiles.prepareFolder(holding: historyFile)
    } catch  where error.unsafe {
      historyWarnings = ["\(error.message), so \(historyFile) is not used: history will not be saved"]
      history = nil
    } catch {
      // The editor says what it cannot do with the file.
    }
    let editor = LineEditor(programName: "reckon", historyFile: history)
    editor.lineLimit = Session.maxLineBytes
    editor.completer = { text in box.session.completions(for: text) }
    // Ctrl-C while a line is being worked on stops the calculation (see SignalRelay).
    box.session.state.interruption = Interruption { LineEditor.interruptRequested }
    var renderer = Renderer(colour: terminal.colour, errorColour: terminal.errorColour, interactive: true)
    renderer.takesEscapes = terminal.takesEscapes
    renderer.width = terminal.columns
    // Ctrl-C while a long answer is being written stops the writing (the answer is kept).
    let stop: () -> Bool = {
      guard LineEditor.interruptRequested else { return false }
      LineEditor.clearInterruptRequest()
      return true
    }
    out.stopRequested = stop
    err.stopRequested = stop
    for warning in historyWarnings + editor.warnings {
      renderer.render(Reply([.warning(warning)]), prompt: "", out: &out, err: &err)
    }
    renderer.render(startup, prompt: "", out: &out, err: &err)
    for line in renderer.fitted("Reckon — exact calculator. Type help for commands, quit to leave.") {
      out.line(renderer.paint(line, .dim, enabled: terminal.colour))
    }
    out.flush()
    err.flush()
    // A daily challenge's clock and an anagram's countdown tick on the prompt.
    let ticker: () -> String = { [unowned editor, renderer] in
      let drops = box.session.input.dropsTypedTextOnTick
      let reply = box.session.tick()
      if !reply.outputs.isEmpty {
        // Time's up: what was being typed was an answer to what has gone, not a line for the
        // calculator or for the next word. (A warning alone leaves it.)
        if box.session.isInCalculator || drops { editor.discardTypedText() }
        editor.clearLineForOutput()
        var (out, err) = (OutputStream(fd: 1), OutputStream(fd: 2))
        renderer.render(reply, prompt: "", out: &out, err: &err)
        out.flush()
        err.flush()
      }
      return box.session.prompt
    }
    loop: while true {
      editor.ticker = box.session.input.promptIsLive ? ticker : nil
      let prompt = box.session.prompt
      switch editor.readLine(prompt: prompt) {
      case .line(let line):
        // History is for the calculator's lines, not a drill's answers.
        // (Nor a line refused for its length.)
        if box.session.isInCalculator && !line.allSatisfy(\.isWhitespace) && line.utf8.count <= Session.maxLineBytes {
          editor.addHistory(line)
        }
        let reply = box.session.handle(line)
        // A Ctrl-C that stopped the calculation has been answered; one from now on stops
        // the writing of its answer. The terminal showed it as `^C` where the answer begins.
        if LineEditor.interruptRequested && Terminal.echoesControlCharacters { out.line("") }
        LineEditor.clearInterruptRequest()
        out.resume()
        err.resume()
        renderer.width = terminal.columns  // read each time: the window may have been resized
        renderer.render(reply, prompt: prompt, out: &out, err: &err)
        out.flush()
        err.flush()
        if reply.shouldExit { break loop }
      case .interrupted:
        continue
      case .tooLong:
        // Refused as it arrived, as a piped line is: said once, and nothing changes.
        renderer.render(Session.tooLong(bytes: nil), prompt: "", out: &out, err: &err)
        out.flush()
        err.flush()
      case .endOfInput:
        // Ctrl-D inside a mode ends the mode (with its summary), not Reckon.
        if box.session.isInCalculator { break loop }
        renderer.render(box.session.finish(endingSession: false), prompt: "", out: &out, err: &err)
        out.flush()
        err.flush()
      }
    }
    renderer.render(box.session.finish(), prompt: "", out: &out, err: &err)
    out.flush()
    err.flush()
    session = box.session
    return true
  }
}

/// Lets the completion callback see the session as it is now.
final class SessionBox: @unchecked Sendable {
  var session: Session
  init(_ session: Session) { self.session = session }
}
