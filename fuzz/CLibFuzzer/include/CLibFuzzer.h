// libFuzzer's driver, called from the fuzz executable's main (SwiftPM names an executable's
// entry point itself, so libFuzzer's own main cannot be used).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
