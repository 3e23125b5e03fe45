import Glibc
import Synchronization

/// Reads one Unicode scalar at a time from a file descriptor, decoding UTF-8
/// itself, while watching ``SignalRelay`` for Ctrl-C, resizes and resumes.
///
/// This backs libedit's `EL_GETCFN`, which must deliver wide characters.
enum TerminalInput {
  /// Set once, when the editor is made on a Latin-1 terminal: each byte is one character.
  nonisolated(unsafe) static var decodesLatin1 = false

  /// What one read produced.
  enum Outcome: Equatable {
    /// One Unicode scalar value.
    case scalar(UInt32)
    /// SIGINT arrived (the flag has been consumed).
    case interrupt
    /// End of input.
    case endOfFile
    /// A read error, with its errno.
    case failure(Int32)
  }

  /// Blocks until a whole character, an interrupt, end of file or an error.
  /// `onResize` and `onContinue` run (on this thread) when SIGWINCH / SIGCONT
  /// arrived, and `onTick` after each `tickMilliseconds` without a key (never
  /// when it is negative); reading then goes on.
  static func next(
    fd: Int32, tickMilliseconds: Int32 = -1, onTick: () -> Void = {}, onResize: () -> Void,
    onContinue: () -> Void
  ) -> Outcome {
    func nextByte() -> ByteResult {
      TerminalInput.nextByte(
        fd: fd, tickMilliseconds: tickMilliseconds, onTick: onTick, onResize: onResize, onContinue: onContinue)
    }
    var pending: UInt8?
    while true {
      let lead: UInt8
      if let byte = pending {
        lead = byte
        pending = nil
      } else {
        switch nextByte() {
        case .byte(let byte): lead = byte
        case .stop(let outcome): return outcome
        }
      }
      if decodesLatin1 { return .scalar(UInt32(lead)) }
      let needed: Int
      var value: UInt32
      switch lead {
      case 0x00..<0x80: return .scalar(UInt32(lead))
      case 0xC2...0xDF: needed = 1; value = UInt32(lead & 0x1F)
      case 0xE0...0xEF: needed = 2; value = UInt32(lead & 0x0F)
      case 0xF0...0xF4: needed = 3; value = UInt32(lead & 0x07)
      default: continue  // stray continuation or invalid byte: drop it
      }
      var valid = true
      for _ in 0..<needed {
        switch nextByte() {
        case .byte(let byte) where byte & 0xC0 == 0x80:
          value = value << 6 | UInt32(byte & 0x3F)
        case .byte(let byte):
          pending = byte  // resynchronize on the unexpected byte
          valid = false
        case .stop(let outcome):
          return outcome
        }
        if !valid { break }
      }
      if valid, let scalar = Unicode.Scalar(value) {
        return .scalar(scalar.value)
      }
    }
  }

  private enum ByteResult {
    case byte(UInt8)
    case stop(Outcome)
  }

  /// Bytes read from the terminal and not yet taken: a paste arrives many bytes a read, not
  /// one (a 10 MB paste read a byte a call took two system calls a byte).
  nonisolated(unsafe) private static var pending: [UInt8] = []
  nonisolated(unsafe) private static var pendingStart = 0

  /// How many bytes one read takes at most.
  static let chunk = 1 << 12

  private static func nextByte(
    fd: Int32, tickMilliseconds: Int32, onTick: () -> Void, onResize: () -> Void, onContinue: () -> Void
  ) -> ByteResult {
    while true {
      if SignalRelay.interrupt.exchange(false, ordering: .sequentiallyConsistent) {
        return .stop(.interrupt)
      }
      if SignalRelay.resized.exchange(false, ordering: .sequentiallyConsistent) {
        onResize()
      }
      if SignalRelay.continued.exchange(false, ordering: .sequentiallyConsistent) {
        onContinue()
      }
      if pendingStart < pending.count {
        defer { pendingStart += 1 }
        return .byte(pending[pendingStart])
      }
      switch fill(fd: fd, timeout: tickMilliseconds, size: chunk) {
      case .filled: continue
      case .timedOut: onTick()
      case .woken: continue
      case .stop(let outcome): return .stop(outcome)
      }
    }
  }

  private enum Fill {
    case filled, timedOut, woken
    case stop(Outcome)
  }

  /// Waits up to `timeout` milliseconds (-1: for ever) for the terminal or the signal pipe,
  /// and reads what the terminal has, at most `size` bytes, into `pending` (which must have
  /// been taken).
  private static func fill(fd: Int32, timeout: Int32, size: Int) -> Fill {
    let wakeFD = SignalRelay.wakeReadFD.load(ordering: .relaxed)
    var fds = [
      pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
    ]
    let ready = poll(&fds, wakeFD >= 0 ? 2 : 1, timeout)
    if ready == 0 { return .timedOut }
    if ready < 0 {
      let error = errno
      if error == EINTR || error == EAGAIN { return .woken }
      return .stop(.failure(error))
    }
    if wakeFD >= 0, fds[1].revents != 0 {
      SignalRelay.drainWakePipe()
      return .woken
    }
    guard fds[0].revents != 0 else { return .woken }
    pending.removeAll(keepingCapacity: true)
    pendingStart = 0
    pending.append(contentsOf: repeatElement(0, count: size))
    let count = pending.withUnsafeMutableBytes { read(fd, $0.baseAddress, size) }
    let error = errno
    pending.removeSubrange(max(count, 0)...)
    if count > 0 { return .filled }
    if count == 0 { return .stop(.endOfFile) }
    if error == EINTR || error == EAGAIN { return .woken }
    return .stop(.failure(error))
  }

  /// Drops the rest of a line that was refused: every byte up to and including the next line
  /// break (Enter, or a line break in a paste), read in large chunks and never handed to
  /// libedit. Dropping also ends when nothing arrives for `quietMilliseconds` (a paste without
  /// a line break is over: what is typed next is a new line), at Ctrl-C (nil: the interrupt
  /// is still pending for the next read), and at the end of input or an error (their outcome).
  static func dropRestOfLine(fd: Int32, quietMilliseconds: Int32) -> Outcome? {
    while true {
      if SignalRelay.interrupt.load(ordering: .sequentiallyConsistent) { return nil }
      if pendingStart < pending.count {
        if let end = pending[pendingStart...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
          pendingStart = end + 1
          // A pasted CRLF ends the line once.
          if pending[end] == 0x0D && pendingStart < pending.count && pending[pendingStart] == 0x0A {
            pendingStart += 1
          }
          return nil
        }
        pendingStart = pending.count
      }
      switch fill(fd: fd, timeout: quietMilliseconds, size: 1 << 16) {
      case .filled, .woken: continue
      case .timedOut: return nil
      case .stop(let outcome): return outcome
      }
    }
  }
}
