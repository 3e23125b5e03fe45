// The libFuzzer driver (built only by fuzz/run, with -sanitize=fuzzer,address).
// RECKON_FUZZ_TARGET names the target, one of FuzzTarget.all.
import CLibFuzzer
import Glibc
import ReckonFuzzTargets

let name = getenv("RECKON_FUZZ_TARGET").map { String(cString: $0) } ?? ""
guard let found = FuzzTarget.named(name) else {
  let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
  let message = Array("reckon-fuzz: set RECKON_FUZZ_TARGET to one of: \(names)\n".utf8)
  _ = write(2, message, message.count)
  exit(2)
}
let target = found

FuzzDriver.run(target)
