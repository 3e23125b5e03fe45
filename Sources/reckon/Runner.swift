import Foundation
import LineEditor
import ReckonCore
import ReckonSession

/// The read–handle–render loops: one for -e, files and pipes, one for the interactive prompt.
struct Runner {
  let terminal: Terminal
  var out = OutputStream(fd: 1)
  var err = OutputStream(fd: 2)
  let renderer: Renderer

  init(terminal: Terminal) {
    self.terminal = terminal
    renderer = Renderer(colour: terminal.colour, errorColour: terminal.errorColour, interactive: false)
  }

  /// Evaluates each `-e` expression; errors are located as `-e:N:COLUMN`.
  mutating func runExpressions(_ expressions: [String], session: inout Session) -> Bool {
    var ok = true
    for (index, expression) in expressions.enumerated() {
      // An expression given on the command line may span lines; each is evaluated in turn.
      for (lineIndex, line) in expression.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let number = expressions.count == 1 ? lineIndex + 1 : index + 1
        if !step(String(line), session: &session, location: "-e:\(number)", ok: &ok) { return finish(&session, ok) }
      }
    }
    return finish(&session, ok)
  }

  /// Evaluates files line by line; errors are located as `FILE:LINE:COLUMN`.
  mutating func runFiles(_ files: [String], session: inout Session) -> Bool {
    var ok = true
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory)
        let why = !exists ? "no such file" : isDirectory.boolValue ? "it is a directory" : "permission denied"
        err.line("reckon: \(file): error: cannot read the file: \(why)")
        ok = false
        continue
      }
      var lineNumber = 0
      for line in data.split(separator: 10, omittingEmptySubsequences: false) {
        lineNumber += 1
        if lineNumber > 1 || !line.isEmpty || data.count > 0 {
          let text = Runner.decode(line)
          if !step(text, session: &session, location: "\(file):\(lineNumber)", ok: &ok) { return finish(&session, ok) }
        }
      }
    }
    return finish(&session, ok)
  }

  /// Evaluates piped standard input line by line, with no prompt; errors as `<stdin>:LINE:COLUMN`.
  mutating func runStandardInput(session: inout Session) -> Bool {
    var ok = true
    var lineNumber = 0
    while let line = Swift.readLine(strippingNewline: true) {
      lineNumber += 1
      let text = line.hasSuffix("\r") ? String(line.dropLast()) : line
      if !step(text, session: &session, location: "<stdin>:\(lineNumber)", ok: &ok) { break }
      if terminal.stdinIsTTY { out.flush() }
    }
    return finish(&session, ok)
  }

  /// Handles one line; returns false when the session asked to leave.
  mutating func step(_ line: String, session: inout Session, location: String, ok: inout Bool) -> Bool {
    let reply = session.handle(line)
    if reply.failed {
      ok = false
      out.flush()  // keep stdout and stderr in order when both go to one place
    }
    renderer.render(reply, prompt: "", location: location, out: &out, err: &err)
    if reply.failed { err.flush() }
    return !reply.shouldExit
  }

  mutating func finish(_ session: inout Session, _ ok: Bool) -> Bool {
    renderer.render(session.finish(), prompt: "", location: "<end>", out: &out, err: &err)
    out.flush()
    err.flush()
    return ok
  }

  /// A line of bytes as text; invalid UTF-8 becomes U+FFFD, which the lexer reports with its column.
  static func decode(_ bytes: Data.SubSequence) -> String {
    var text = String(decoding: bytes, as: UTF8.self)
    if text.hasSuffix("\r") { text.removeLast() }
    return text
  }

  // MARK: Interactive

  /// The prompt, through libedit. Errors here never change the exit status.
  mutating func runInteractive(session: inout Session, historyFile: String) -> Bool {
    let box = SessionBox(session)
    let editor = LineEditor(programName: "reckon", historyFile: historyFile)
    editor.completer = { text in box.session.completions(for: text) }
    let renderer = Renderer(colour: terminal.colour, errorColour: terminal.errorColour, interactive: true)
    for warning in editor.warnings {
      renderer.render(Reply([.warning(warning)]), prompt: "", location: "", out: &out, err: &err)
    }
    out.line(
      renderer.paint(
        "Reckon — exact calculator. Type help for commands, quit to leave.", .dim, enabled: terminal.colour))
    out.flush()
    err.flush()
    loop: while true {
      let prompt = box.session.prompt
      switch editor.readLine(prompt: prompt) {
      case .line(let line):
        if !line.allSatisfy(\.isWhitespace) { editor.addHistory(line) }
        let reply = box.session.handle(line)
        renderer.render(reply, prompt: prompt, location: "", out: &out, err: &err)
        out.flush()
        err.flush()
        if reply.shouldExit { break loop }
      case .interrupted:
        continue
      case .endOfInput:
        break loop
      }
    }
    renderer.render(box.session.finish(), prompt: "", location: "", out: &out, err: &err)
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
