#ifndef GALLERYKIT_CVIPSSHIM_H
#define GALLERYKIT_CVIPSSHIM_H

#include <stddef.h>

/* libvips is loaded with dlopen the first time an image is probed or thumbnailed, not linked:
 * its ~120 shared libraries and their constructors cost ~25 ms at every start, and most
 * commands never decode an image. This header therefore exposes plain C types only. */

/// Loads and starts libvips once for the process: blocks loaders marked untrusted and
/// shrinks the operation cache so a replaced file is never served stale.
/// Returns 0 on success; otherwise `gallerykit_vips_take_error` says why (e.g. the library
/// cannot be found).
int gallerykit_vips_start(void);

/// Reads the header of the image file at `path` (`access=sequential`: no pixel decode for JPEG,
/// PNG and WebP). On success returns 0 and sets the stored size, whether EXIF orientation swaps
/// width and height, and the loader's name (e.g. `jpegload_source`, truncated to `capacity`).
int gallerykit_vips_header(const char *path, int *width, int *height, int *swaps_width_and_height,
                           char *loader, size_t capacity);

/// Makes a JPEG thumbnail whose long edge is at most `size` pixels (shrink-on-load, EXIF
/// orientation applied, alpha flattened on white, sRGB), from the file at `path` or, when
/// `path` is NULL, from `length` bytes at `bytes`. On success returns 0 and sets `*jpeg` (free
/// it with `gallerykit_vips_free`) and `*jpeg_length`.
int gallerykit_vips_thumbnail(const char *path, const void *bytes, size_t length, int size,
                              void **jpeg, size_t *jpeg_length);

/// Lays out `count` JPEGs (at most 16) `across` to a row, each shrunk into a `cell`-pixel square
/// on white, and encodes the sheet as a JPEG. Returns 0 on success, as above.
int gallerykit_vips_contact_sheet(const void *const *jpegs, const size_t *lengths, int count,
                                  int across, int cell, void **jpeg, size_t *jpeg_length);

/// Frees a buffer libvips allocated.
void gallerykit_vips_free(void *buffer);

/// Copies the last error (libvips' error buffer, or why libvips could not be loaded) into
/// `buffer` and clears it.
void gallerykit_vips_take_error(char *buffer, size_t capacity);

/// Whether libvips has been loaded into this process (for tests of lazy loading).
int gallerykit_vips_is_loaded(void);

#endif
