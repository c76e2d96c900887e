#ifndef GALLERYKIT_CVIPSSHIM_H
#define GALLERYKIT_CVIPSSHIM_H

#include <vips/vips.h>

/// Starts libvips once for the process: blocks loaders marked untrusted and
/// shrinks the operation cache so a replaced file is never served stale.
/// Returns 0 on success.
int gallerykit_vips_start(void);

/// Opens an image for header access only (`access=sequential`, no pixel decode
/// for JPEG, PNG and WebP). Returns NULL and leaves the vips error buffer set on failure.
VipsImage *gallerykit_vips_open_header(const char *path);

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

/// Copies the vips error buffer into `buffer` and clears it.
void gallerykit_vips_take_error(char *buffer, size_t capacity);

#endif
