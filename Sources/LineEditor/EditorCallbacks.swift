import CLibEdit
import Glibc

/// The C callbacks handed to libedit. Each finds its ``LineEditor`` through
/// `EL_CLIENTDATA` and forwards to it.
enum EditorCallbacks {
  /// `EL_PROMPT_ESC`: returns the current prompt.
  static let prompt: editshim_prompt_t = { el in
    guard let editor = LineEditor.owner(of: el) else { return nil }
    return editor.promptPointer
  }

  /// `EL_GETCFN`: reads one wide character (see ``TerminalInput``).
  static let readCharacter: editshim_getc_t = { el, out in
    guard let el, let out else { return -1 }
    let editor = LineEditor.owner(of: el)
    if let editor, editor.dropsRestOfLine {
      // The line before was refused for its length: what is left of it is dropped first.
      editor.dropsRestOfLine = false
      switch TerminalInput.dropRestOfLine(fd: STDIN_FILENO, quietMilliseconds: LineEditor.quietMilliseconds) {
      case .endOfFile?:
        out.pointee = 0
        return 0
      case .failure(let error)?:
        errno = error
        out.pointee = 0
        return -1
      default: break
      }
    }
    // A tick that fell due while keys were arriving is not put off by them.
    let wait = editor?.millisecondsToNextTick(el) ?? -1
    let outcome = TerminalInput.next(
      fd: STDIN_FILENO,
      tickMilliseconds: wait,
      onTick: { editor?.tick(el) },
      onResize: { el_resize(el) },
      onContinue: {
        // The shell may have reset the terminal while we were stopped.
        _ = editshim_prep_term(el, 0)
        _ = editshim_prep_term(el, 1)
        _ = editshim_refresh(el)
      })
    switch outcome {
    case .scalar(let value):
      if let editor, editor.refuses(value, el) {
        // Past the limit: libedit gets nothing more of this line. A line break ends it at once
        // (readLine says it was refused), and the rest of it is dropped before the next line.
        out.pointee = 0x0A
        return 1
      }
      out.pointee = wchar_t(bitPattern: value)
      return 1
    case .interrupt:
      guard let editor = LineEditor.owner(of: el), editor.isEditing else {
        // Not editing (input is not a terminal): end the read with EINTR,
        // which makes libedit discard the partial line.
        LineEditor.owner(of: el)?.markInterrupted()
        errno = EINTR
        out.pointee = 0
        return -1
      }
      out.pointee = LineEditor.interruptCharacter  // bound to "reckon-interrupt"
      return 1
    case .endOfFile:
      out.pointee = 0
      return 0
    case .failure(let error):
      errno = error
      out.pointee = 0
      return -1
    }
  }

  /// "reckon-interrupt" (bound to ^C): abandons the line.
  static let interrupt: editshim_func_t = { el, _ in
    guard let el, let editor = LineEditor.owner(of: el) else { return UInt8(CC_ERROR) }
    return editor.abandonLine(el)
  }

  /// "reckon-complete" (bound to Tab).
  static let complete: editshim_func_t = { el, _ in
    guard let el, let editor = LineEditor.owner(of: el) else { return UInt8(CC_ERROR) }
    return editor.completeWord(el)
  }
}
