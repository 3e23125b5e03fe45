#ifndef RECKON_CDECOMPRESS_H
#define RECKON_CDECOMPRESS_H

#include <stddef.h>

// Inflating a zip entry (zlib) and decoding a Zstandard frame (libzstd), for reading Anki's
// packages. Both libraries are opened with dlopen the first time one is needed, so that they
// cost nothing at start-up: zlib1g and libzstd1 are on every Debian system (dpkg needs them).

#define RECKON_DECOMPRESS_OK 0
// The library could not be opened (its message is in `why`).
#define RECKON_DECOMPRESS_NO_LIBRARY 1
// The data is not what it says (its message is in `why`).
#define RECKON_DECOMPRESS_CORRUPT 2
// It would be larger than the limit given.
#define RECKON_DECOMPRESS_TOO_LARGE 3
// Out of memory.
#define RECKON_DECOMPRESS_NO_MEMORY 4
// `stopped` said to stop.
#define RECKON_DECOMPRESS_STOPPED 5

// How the output's memory is had: `reallocate(NULL, n)` allocates n bytes and
// `reallocate(p, n)` grows p to n (NULL when there is no room: p is as it was), and `release`
// frees. (Reckon passes SQLite's, so that SQLite can be given the result to read as it is.)
typedef void *(*reckon_reallocate_f)(void *, size_t);
typedef void (*reckon_release_f)(void *);
// Asked with `context` after each mebibyte of output at most: non-zero stops (Ctrl-C).
typedef int (*reckon_stopped_f)(void *context);

// Decompresses `input` (raw deflate when `zstd` is 0, one or more Zstandard frames when it is
// 1) into a buffer of its own, of at most `limit` bytes, allocated with `reallocate`. On
// success *output (free it with `release`) and *length hold the result. On failure *output is
// NULL and `why` (of `why_size` bytes) says why in a few words.
int reckon_decompress(int zstd, const unsigned char *input, size_t input_length, size_t limit,
                      reckon_reallocate_f reallocate, reckon_release_f release, reckon_stopped_f stopped,
                      void *context, unsigned char **output, size_t *length, char *why, size_t why_size);

#endif
