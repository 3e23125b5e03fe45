// Only a header: libFuzzer itself comes with -sanitize=fuzzer.
#include "CLibFuzzer.h"
