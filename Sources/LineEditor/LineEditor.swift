import CLibEdit
import Glibc
import Synchronization

/// An interactive line reader over libedit: emacs key bindings, history
/// (Up/Down, Ctrl-R) kept in a file, Tab completion, and Ctrl-C handling.
///
/// Use one instance, from one thread, for the life of the REPL.
///
/// Ctrl-C never kills the process once an editor exists. While a line is being
/// read it abandons that line (``readLine(prompt:)`` returns
/// ``Event/interrupted``). At any other time it only sets
/// ``interruptRequested``, which long computations can poll.
public final class LineEditor {
  /// Both stdin and stdout are terminals (`isatty(0) && isatty(1)`).
  public static var isInteractive: Bool {
    isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
  }

  /// True when Ctrl-C (SIGINT) arrived while no line was being read, since the
  /// last ``clearInterruptRequest()`` or ``readLine(prompt:)``.
  public static var interruptRequested: Bool {
    SignalRelay.interrupt.load(ordering: .sequentiallyConsistent)
  }

  /// Forgets a pending Ctrl-C (``readLine(prompt:)`` also does this on entry).
  public static func clearInterruptRequest() {
    SignalRelay.interrupt.store(false, ordering: .sequentiallyConsistent)
  }

  /// Installs the process-wide SIGINT/SIGWINCH/SIGCONT handlers without creating
  /// an editor, so that Ctrl-C only sets ``interruptRequested`` (e.g. when
  /// input is not a terminal). ``init(programName:historyFile:historyLimit:)``
  /// does this itself. Handlers stay installed until the process exits.
  public static func installInterruptHandler() {
    SignalRelay.install()
  }

  /// Called on Tab with the text before the cursor; returns the candidates
  /// for the last word of it (letters, digits, `_`, plus an optional final `+`
  /// or `-`), each one the whole word. Candidates not starting with that word
  /// are ignored. Runs synchronously on the thread calling
  /// ``readLine(prompt:)``, so it need not be `Sendable`.
  public var completer: ((String) -> [String])?

  /// Called about once a second while a line is being typed, when set: returns
  /// the prompt to show now (a clock on it, say), which is redrawn with the
  /// text typed so far if it changed. It may write lines of its own first
  /// (after ``clearLineForOutput()``). Runs on the thread calling
  /// ``readLine(prompt:)``.
  public var ticker: (() -> String)?

  /// The longest line that may be typed, in characters: a line that would grow past it is
  /// refused as it arrives (``readLine(prompt:)`` returns ``Event/tooLong``) and the rest of
  /// it is never given to libedit, whose buffers grow with the line (a 10 MB paste took
  /// 279 MB and 73 s). A character is at least a byte, so a line within this many bytes is
  /// never refused; nil: no limit.
  public var lineLimit: Int?

  /// How long input must pause for a refused line's rest to be over when no line break ends
  /// it (a paste without one): then what is typed is a new line.
  static let quietMilliseconds: Int32 = 1000

  /// Problems to show the user once, e.g. "history file … is a directory;
  /// history will not be saved". Filled by `init`; ``addHistory(_:)`` may
  /// append one more if saving later fails.
  public var warnings: [String] { startupWarnings + (history?.warnings ?? []) }

  /// The control character libedit sees for Ctrl-C (signal turned into a key).
  static let interruptCharacter: wchar_t = 3

  private let editLine: OpaquePointer?
  private let history: HistoryStore?
  /// Whether the terminal takes cursor movement (TERM is set and not `dumb`). Without it a
  /// ticker's new prompt is not drawn over the old one each second; the prompt is drawn
  /// again only after the ticker has written lines, on a line of its own.
  private let canMoveCursor: Bool = {
    guard let term = getenv("TERM") else { return false }
    let name = String(cString: term)
    return !name.isEmpty && name != "dumb"
  }()
  private var startupWarnings: [String] = []
  /// The prompt handed to libedit (owned, NUL-terminated).
  private(set) var promptPointer: UnsafeMutablePointer<CChar>?
  /// The line being read was abandoned with Ctrl-C.
  private var lineInterrupted = false
  /// The line being read went past ``lineLimit``.
  private var lineRefused = false
  /// The rest of a refused line is still to be dropped (before the next line is read).
  var dropsRestOfLine = false
  /// libedit edits (stdin is a terminal); otherwise lines are read plainly.
  let isEditing: Bool

  /// Creates the editor.
  /// - Parameters:
  ///   - programName: the name libedit uses (e.g. for `~/.editrc` sections).
  ///   - historyFile: the history file, or nil for no file. It is loaded if
  ///     present; missing parent folders are created with mode 0700 and the
  ///     file with mode 0600 (one of ours open to others is made 0600; a
  ///     symbolic link, or another user's file, is not used). Each entry is
  ///     appended to it; a file past `historyLimit` entries is trimmed on a
  ///     thread of its own. Problems become ``warnings``.
  ///   - historyLimit: the maximum number of history entries kept.
  public init(programName: String, historyFile: String?, historyLimit: Int = 1000) {
    switch editshim_prepare_locale() {
    case 0: startupWarnings.append("no UTF-8 locale is available; non-ASCII input may not work")
    case 2: TerminalInput.decodesLatin1 = true
    default: break
    }
    SignalRelay.install()
    isEditing = isatty(STDIN_FILENO) != 0
    history = HistoryStore(path: historyFile, limit: historyLimit)
    editLine = editshim_init(programName)
    guard let el = editLine else {
      startupWarnings.append("cannot initialize line editing")
      return
    }
    _ = editshim_set_clientdata(el, Unmanaged.passUnretained(self).toOpaque())
    _ = editshim_set_editor(el, "emacs")
    _ = editshim_set_signal(el, 0)  // signals are handled by SignalRelay
    _ = editshim_set_getcfn(el, EditorCallbacks.readCharacter)
    _ = editshim_set_prompt(el, EditorCallbacks.prompt)
    if let history {
      _ = editshim_set_history(el, history.handle)
    }
    _ = editshim_addfn(
      el, "reckon-complete", "Complete the word before the cursor",
      EditorCallbacks.complete)
    _ = editshim_addfn(
      el, "reckon-interrupt", "Abandon the line (Ctrl-C)",
      EditorCallbacks.interrupt)
    for (key, command) in Self.bindings {
      _ = editshim_bind(el, key, command)
    }
  }

  deinit {
    if let editLine {
      el_end(editLine)
    }
    free(promptPointer)
  }

  /// Key bindings added to libedit's emacs map.
  private static let bindings: [(String, String)] = [
    ("^I", "reckon-complete"),
    ("^C", "reckon-interrupt"),
    ("^R", "em-inc-search-prev"),
    ("\\e[H", "ed-move-to-beg"), ("\\e[F", "ed-move-to-end"),
    ("\\e[1~", "ed-move-to-beg"), ("\\e[4~", "ed-move-to-end"),
    ("\\e[3~", "ed-delete-next-char"),
    ("\\e[1;5D", "ed-prev-word"), ("\\e[1;5C", "em-next-word"),
  ]

  /// Shows `prompt` and reads one line.
  ///
  /// A Ctrl-C that arrived before the call is forgotten. Control characters
  /// in `prompt` are shown visibly (``VisibleText``), never sent to the terminal.
  /// On Ctrl-D the newline after the echoed `^D` is printed here.
  public func readLine(prompt: String) -> Event {
    guard let el = editLine else { return .endOfInput }
    setPrompt(prompt)
    Self.clearInterruptRequest()
    SignalRelay.drainWakePipe()
    lineInterrupted = false
    lineRefused = false
    editshim_flush_stdout()
    var count: Int32 = 0
    let text = el_gets(el, &count)
    if lineInterrupted {
      lineInterrupted = false
      return .interrupted
    }
    if lineRefused {
      lineRefused = false
      return .tooLong
    }
    guard let text, count > 0 else {
      if isEditing && count == 0 {
        editshim_write(el, "\n")
      }
      return .endOfInput
    }
    // el_gets gives the line in the locale's character set: Latin-1 on a Latin-1 terminal.
    var line =
      TerminalInput.decodesLatin1
      ? Latin1.decode(UnsafeBufferPointer(start: text, count: Int(strlen(text))).map { UInt8(bitPattern: $0) })
      : String(cString: text)
    while let last = line.unicodeScalars.last, last == "\n" || last == "\r" {
      line.unicodeScalars.removeLast()
    }
    return .line(line)
  }

  /// Adds a line to history, unless it is blank or repeats the previous entry,
  /// and appends it to the history file right away so that a kill loses nothing.
  public func addHistory(_ line: String) {
    history?.add(line)
  }

  // MARK: - Used by EditorCallbacks

  /// The editor registered as `EL_CLIENTDATA` of `el`.
  static func owner(of el: OpaquePointer?) -> LineEditor? {
    guard let el, let data = editshim_get_clientdata(el) else { return nil }
    return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
  }

  /// Whether `character`, read for the line being edited, would take it past ``lineLimit``:
  /// then the line is refused, and what is left of it will be dropped.
  func refuses(_ character: UInt32, _ el: OpaquePointer) -> Bool {
    guard let lineLimit, let info = el_wline(el)?.pointee, let buffer = info.buffer else { return false }
    let count = info.lastchar - buffer
    // A key that edits (Enter, Backspace, an arrow's escape) adds nothing; one that inserts does.
    let inserts = character >= 0x20 && character != 0x7F
    guard count > lineLimit || (count >= lineLimit && inserts) else { return false }
    lineRefused = true
    dropsRestOfLine = !(character == 0x0A || character == 0x0D)
    return true
  }

  /// Records that the current read was abandoned by Ctrl-C.
  func markInterrupted() {
    lineInterrupted = true
  }

  /// Ctrl-C while editing: show `^C` at the end of the line, then end the
  /// line with a newline; ``readLine(prompt:)`` reports `.interrupted`.
  func abandonLine(_ el: OpaquePointer) -> UInt8 {
    lineInterrupted = true
    if let info = el_wline(el)?.pointee {
      _ = el_cursor(el, Int32(info.lastchar - info.cursor))
    }
    _ = el_insertstr(el, "^C")
    el_push(el, "\n")  // ed-newline moves below the line and prints the newline
    return UInt8(CC_REFRESH)
  }

  /// Tab: completes the word before the cursor.
  func completeWord(_ el: OpaquePointer) -> UInt8 {
    guard let completer, let info = el_wline(el)?.pointee, let buffer = info.buffer else {
      return UInt8(CC_ERROR)
    }
    var before = ""
    var pointer = buffer
    while pointer < info.cursor {
      if let scalar = Unicode.Scalar(UInt32(bitPattern: pointer.pointee)) {
        before.unicodeScalars.append(scalar)
      }
      pointer += 1
    }
    let word = Completion.lastWord(of: before)
    let spaceFollows = info.cursor < info.lastchar && info.cursor.pointee == 0x20
    switch Completion.action(word: word, candidates: completer(before), spaceFollows: spaceFollows) {
    case .none:
      return UInt8(CC_ERROR)
    case .insert(let text):
      if !text.isEmpty, el_insertstr(el, text) != 0 {
        return UInt8(CC_ERROR)
      }
      return UInt8(CC_REFRESH)
    case .list(let candidates):
      let width = Int(editshim_columns(el))
      editshim_write(el, "\n" + Completion.columns(candidates.map(VisibleText.escaped), width: width > 0 ? width : 80))
      return UInt8(CC_REDISPLAY)
    }
  }

  /// When the next tick is due (monotonic milliseconds).
  private var nextTick: Int64 = 0

  static func monotonicMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  /// With a ``ticker``: runs a tick that is due, and returns how long until the next
  /// (-1: no ticker, wait for keys alone).
  func millisecondsToNextTick(_ el: OpaquePointer) -> Int32 {
    guard ticker != nil else { return -1 }
    let now = Self.monotonicMilliseconds()
    if nextTick == 0 { nextTick = now + 1000 }
    if now >= nextTick { tick(el) }
    return Int32(max(1, min(1000, nextTick - Self.monotonicMilliseconds())))
  }

  /// A tick while waiting for a key: a changed prompt is drawn again, with
  /// the line typed so far.
  func tick(_ el: OpaquePointer) {
    nextTick = Self.monotonicMilliseconds() + 1000
    guard let ticker else { return }
    let before = promptText
    let prompt = ticker()
    if !canMoveCursor {
      // Only after lines were written (clearLineForOutput forgot the prompt): a fresh prompt
      // on a fresh line, with what was typed.
      if promptText != before {
        setPrompt(prompt)
        _ = editshim_refresh(el)
      }
      return
    }
    if prompt != before || promptText != before {
      setPrompt(prompt)
      // libedit redraws from where it thinks the line starts: go up to the row the prompt
      // is on (the text typed may have wrapped), back to its start, and clear from there.
      var up = ""
      let columns = Int(editshim_columns(el))
      if columns > 0, let info = el_wline(el)?.pointee {
        let visible = before.unicodeScalars.filter { $0.value >= 0x20 }.count  // no colour codes here
        let row = (visible + (info.cursor - info.buffer)) / columns
        if row > 0 { up = "\u{1B}[\(row)A" }
      }
      editshim_write(el, up + "\r\u{1B}[J")
      _ = editshim_refresh(el)
    }
  }

  /// Forgets the text typed so far on the line being edited (a ``ticker``
  /// whose question has gone: what was typed for it must not go elsewhere).
  public func discardTypedText() {
    guard let el = editLine, let info = el_wline(el)?.pointee else { return }
    _ = el_cursor(el, Int32(info.lastchar - info.cursor))
    el_deletestr(el, Int32(info.lastchar - info.buffer))
  }

  /// Moves to the start of the line being edited and clears it, so that
  /// a ``ticker`` can write lines of its own; the next redraw brings the
  /// prompt and the text back.
  public func clearLineForOutput() {
    if let editLine { editshim_write(editLine, canMoveCursor ? "\r\u{1B}[K" : "\n") }
    promptText = ""
  }

  /// The prompt as given, without the marks for libedit.
  private var promptText = ""

  private func setPrompt(_ prompt: String) {
    promptText = prompt
    free(promptPointer)
    let shown = VisibleText.escaped(prompt)
    if TerminalInput.decodesLatin1 {
      // libedit reads the prompt in the terminal's character set.
      promptPointer = strdup(Latin1.cString(shown))
    } else {
      promptPointer = strdup(shown)
    }
  }
}
