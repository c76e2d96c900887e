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

/// Opens an image from memory for header access. The bytes must outlive the image.
VipsImage *gallerykit_vips_open_header_buffer(const void *bytes, size_t length);

/// Copies the vips error buffer into `buffer` and clears it.
void gallerykit_vips_take_error(char *buffer, size_t capacity);

#endif
