#include "CDecompress.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// zlib's types come from its header (zlib1g-dev); its functions are looked up at run time.
typedef int (*inflate_init_f)(z_streamp, int, const char *, int);
typedef int (*inflate_f)(z_streamp, int);
typedef int (*inflate_end_f)(z_streamp);

// Zstandard's streaming decoder, declared from its stable API (zstd.h, v1.0 on) rather than
// built against libzstd-dev: the two buffer structures and five functions.
typedef struct { const void *src; size_t size; size_t pos; } zstd_in;
typedef struct { void *dst; size_t size; size_t pos; } zstd_out;
typedef void *(*zstd_create_f)(void);
typedef size_t (*zstd_free_f)(void *);
typedef size_t (*zstd_stream_f)(void *, zstd_out *, zstd_in *);
typedef unsigned (*zstd_is_error_f)(size_t);
typedef const char *(*zstd_error_name_f)(size_t);

static void *open_library(const char *name, char *why, size_t why_size) {
  void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!library) snprintf(why, why_size, "%s could not be opened (%s)", name, dlerror());
  return library;
}

static void *symbol(void *library, const char *name, char *why, size_t why_size) {
  void *found = dlsym(library, name);
  if (!found) snprintf(why, why_size, "a library lacks %s", name);
  return found;
}

// How the output is allocated, and when to stop.
typedef struct {
  reckon_reallocate_f reallocate;
  reckon_release_f release;
  reckon_stopped_f stopped;
  void *context;
} output_f;

// The most output made between two questions to `stopped`.
#define CHUNK ((size_t)1 << 20)

// Grows *buffer (of *capacity bytes) to hold at least `needed`, up to `limit`.
static int grow(const output_f *with, unsigned char **buffer, size_t *capacity, size_t needed, size_t limit) {
  if (needed <= *capacity) return RECKON_DECOMPRESS_OK;
  if (needed > limit) return RECKON_DECOMPRESS_TOO_LARGE;
  size_t next = *capacity < 65536 ? 65536 : *capacity;
  while (next < needed) next = next > limit / 2 ? limit : next * 2;
  if (next > limit) next = limit;
  unsigned char *bigger = with->reallocate(*buffer, next);
  if (!bigger) return RECKON_DECOMPRESS_NO_MEMORY;
  *buffer = bigger;
  *capacity = next;
  return RECKON_DECOMPRESS_OK;
}

static int inflate_raw(const unsigned char *input, size_t input_length, size_t limit, const output_f *with,
                       unsigned char **output, size_t *length, char *why, size_t why_size) {
  static void *library;
  if (!library && !(library = open_library("libz.so.1", why, why_size))) return RECKON_DECOMPRESS_NO_LIBRARY;
  inflate_init_f init = (inflate_init_f)symbol(library, "inflateInit2_", why, why_size);
  inflate_f step = (inflate_f)symbol(library, "inflate", why, why_size);
  inflate_end_f end = (inflate_end_f)symbol(library, "inflateEnd", why, why_size);
  if (!init || !step || !end) return RECKON_DECOMPRESS_NO_LIBRARY;

  z_stream stream;
  memset(&stream, 0, sizeof stream);
  // -15: a raw deflate stream, as a zip entry holds (no zlib header).
  if (init(&stream, -15, ZLIB_VERSION, (int)sizeof stream) != Z_OK) {
    snprintf(why, why_size, "zlib could not start");
    return RECKON_DECOMPRESS_NO_MEMORY;
  }
  unsigned char *buffer = NULL;
  size_t capacity = 0, used = 0;
  int status = RECKON_DECOMPRESS_OK;
  stream.next_in = (unsigned char *)input;
  for (;;) {
    // zlib counts in unsigned ints: feed it at most 1 GiB at a time.
    if (stream.avail_in == 0 && (size_t)(stream.next_in - input) < input_length) {
      size_t left = input_length - (size_t)(stream.next_in - input);
      stream.avail_in = (uInt)(left > (1u << 30) ? (1u << 30) : left);
    }
    if (with->stopped && with->stopped(with->context)) {
      status = RECKON_DECOMPRESS_STOPPED;
      break;
    }
    if (used == capacity && (status = grow(with, &buffer, &capacity, used + 1, limit)) != RECKON_DECOMPRESS_OK) break;
    size_t room = capacity - used;
    stream.next_out = buffer + used;
    stream.avail_out = (uInt)(room > CHUNK ? CHUNK : room);
    uInt before = stream.avail_out;
    int code = step(&stream, Z_NO_FLUSH);
    used += before - stream.avail_out;
    if (code == Z_STREAM_END) break;
    if (code == Z_BUF_ERROR && stream.avail_in == 0) {
      snprintf(why, why_size, "the compressed data ends early");
      status = RECKON_DECOMPRESS_CORRUPT;
      break;
    }
    if (code != Z_OK && code != Z_BUF_ERROR) {
      snprintf(why, why_size, "%s", stream.msg ? stream.msg : "the compressed data is damaged");
      status = code == Z_MEM_ERROR ? RECKON_DECOMPRESS_NO_MEMORY : RECKON_DECOMPRESS_CORRUPT;
      break;
    }
  }
  end(&stream);
  if (status != RECKON_DECOMPRESS_OK) {
    with->release(buffer);
    return status;
  }
  *output = buffer ? buffer : with->reallocate(NULL, 1);
  *length = used;
  return *output ? RECKON_DECOMPRESS_OK : RECKON_DECOMPRESS_NO_MEMORY;
}

static int decode_zstd(const unsigned char *input, size_t input_length, size_t limit, const output_f *with,
                       unsigned char **output, size_t *length, char *why, size_t why_size) {
  static void *library;
  if (!library && !(library = open_library("libzstd.so.1", why, why_size))) return RECKON_DECOMPRESS_NO_LIBRARY;
  zstd_create_f create = (zstd_create_f)symbol(library, "ZSTD_createDStream", why, why_size);
  zstd_free_f release = (zstd_free_f)symbol(library, "ZSTD_freeDStream", why, why_size);
  zstd_stream_f step = (zstd_stream_f)symbol(library, "ZSTD_decompressStream", why, why_size);
  zstd_is_error_f is_error = (zstd_is_error_f)symbol(library, "ZSTD_isError", why, why_size);
  zstd_error_name_f error_name = (zstd_error_name_f)symbol(library, "ZSTD_getErrorName", why, why_size);
  if (!create || !release || !step || !is_error || !error_name) return RECKON_DECOMPRESS_NO_LIBRARY;

  void *stream = create();
  if (!stream) return RECKON_DECOMPRESS_NO_MEMORY;
  unsigned char *buffer = NULL;
  size_t capacity = 0;
  zstd_in in = {input, input_length, 0};
  zstd_out out = {NULL, 0, 0};
  int status = RECKON_DECOMPRESS_OK;
  for (;;) {
    if (with->stopped && with->stopped(with->context)) {
      status = RECKON_DECOMPRESS_STOPPED;
      break;
    }
    if (out.pos == capacity && (status = grow(with, &buffer, &capacity, out.pos + 1, limit)) != RECKON_DECOMPRESS_OK)
      break;
    out.dst = buffer;
    out.size = capacity - out.pos > CHUNK ? out.pos + CHUNK : capacity;
    size_t before_in = in.pos, before_out = out.pos;
    size_t hint = step(stream, &out, &in);
    if (is_error(hint)) {
      snprintf(why, why_size, "%s", error_name(hint));
      status = RECKON_DECOMPRESS_CORRUPT;
      break;
    }
    // Done when a frame has ended (0) and nothing is left to read.
    if (hint == 0 && in.pos == in.size) break;
    // All read and room left over, but the frame goes on; or no progress at all.
    if ((in.pos == in.size && out.pos < out.size) || (in.pos == before_in && out.pos == before_out)) {
      snprintf(why, why_size, "the compressed data ends early");
      status = RECKON_DECOMPRESS_CORRUPT;
      break;
    }
  }
  release(stream);
  if (status != RECKON_DECOMPRESS_OK) {
    with->release(buffer);
    return status;
  }
  *output = buffer ? buffer : with->reallocate(NULL, 1);
  *length = out.pos;
  return *output ? RECKON_DECOMPRESS_OK : RECKON_DECOMPRESS_NO_MEMORY;
}

int reckon_decompress(int zstd, const unsigned char *input, size_t input_length, size_t limit,
                      reckon_reallocate_f reallocate, reckon_release_f release, reckon_stopped_f stopped,
                      void *context, unsigned char **output, size_t *length, char *why, size_t why_size) {
  *output = NULL;
  *length = 0;
  if (why_size > 0) why[0] = 0;
  output_f with = {reallocate, release, stopped, context};
  return zstd ? decode_zstd(input, input_length, limit, &with, output, length, why, why_size)
              : inflate_raw(input, input_length, limit, &with, output, length, why, why_size);
}
