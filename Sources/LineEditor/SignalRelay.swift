import Glibc
import Synchronization

/// Process-wide signal plumbing for the line editor.
///
/// SIGINT, SIGWINCH and SIGCONT are caught with `sigaction`. The handler only
/// records the signal in an atomic flag and writes one byte to a non-blocking
/// "self-pipe". The character reader polls the terminal and that pipe
/// together, so a signal wakes it up no matter which thread the kernel
/// delivered the signal to, and without relying on EINTR. That is why the
/// handlers use `SA_RESTART`: the program's own reads and writes (e.g. printing
/// a long result while the user presses Ctrl-C) are restarted instead of
/// failing with EINTR. (`poll` is never restarted; it returns EINTR anyway.)
///
/// Once installed, the handlers stay installed for the life of the process:
/// Ctrl-C never kills the program, it only sets ``interrupt``.
enum SignalRelay {
  /// Set by SIGINT; cleared by whoever consumes it.
  static let interrupt = Atomic<Bool>(false)
  /// Set by SIGWINCH.
  static let resized = Atomic<Bool>(false)
  /// Set by SIGCONT (the process was resumed after Ctrl-Z).
  static let continued = Atomic<Bool>(false)
  /// Read end of the self-pipe, or -1 before installation.
  static let wakeReadFD = Atomic<Int32>(-1)
  /// Write end of the self-pipe, or -1 before installation.
  static let wakeWriteFD = Atomic<Int32>(-1)
  private static let installed = Mutex<Bool>(false)

  /// Installs the handlers once per process. Safe to call repeatedly.
  static func install() {
    installed.withLock { done in
      guard !done else { return }
      done = true
      // Touch every global before a handler can run, so that their lazy
      // initialization never happens inside a signal handler.
      _ = interrupt.load(ordering: .relaxed)
      _ = resized.load(ordering: .relaxed)
      _ = continued.load(ordering: .relaxed)
      var fds: [Int32] = [-1, -1]
      if pipe(&fds) == 0 {
        for fd in fds {
          _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
          _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeReadFD.store(fds[0], ordering: .relaxed)
        wakeWriteFD.store(fds[1], ordering: .relaxed)
      }
      for signo in [SIGINT, SIGWINCH, SIGCONT] {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = relaySignal
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_RESTART)
        _ = sigaction(signo, &action, nil)
      }
    }
  }

  /// Empties the self-pipe (its bytes only mean "look at the flags").
  static func drainWakePipe() {
    let fd = wakeReadFD.load(ordering: .relaxed)
    guard fd >= 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(fd, &buffer, buffer.count) > 0 {}
  }
}

/// The signal handler: async-signal-safe (atomics and `write` only).
private func relaySignal(_ signo: Int32) {
  let savedErrno = errno
  switch signo {
  case SIGINT: SignalRelay.interrupt.store(true, ordering: .sequentiallyConsistent)
  case SIGWINCH: SignalRelay.resized.store(true, ordering: .sequentiallyConsistent)
  case SIGCONT: SignalRelay.continued.store(true, ordering: .sequentiallyConsistent)
  default: break
  }
  let fd = SignalRelay.wakeWriteFD.load(ordering: .sequentiallyConsistent)
  if fd >= 0 {
    var byte: UInt8 = 1
    _ = write(fd, &byte, 1)
  }
  errno = savedErrno
}
