#ifndef GALLERYKIT_VIPSAPI_H
#define GALLERYKIT_VIPSAPI_H

/* The part of the libvips 8.x and GLib API the shim calls, as function-pointer types and
 * constants. libvips is loaded with dlopen, not linked (see CVipsShim.h): compiling against
 * its headers would make SwiftPM add its pkg-config libraries (`-lvips -lglib-2.0 …`) to every
 * link, and the binary would load them at start again. Instead, Tests/CVipsAPICheck compiles
 * each type and constant here against libvips' own headers (through the CVips system library)
 * and fails the test build on the first mismatch. */

#include <stddef.h>

struct _VipsImage;
struct _VipsSource;
struct _VipsArea;
struct _VipsArrayDouble;

/* Each entry: name, return type, parameters. */
#define GALLERYKIT_VIPS_API(X)                                                                       \
    X(vips_init, int, (const char *))                                                                \
    X(vips_block_untrusted_set, void, (int))                                                         \
    X(vips_operation_block_set, void, (const char *, int))                                           \
    X(vips_cache_set_max, void, (int))                                                               \
    X(vips_concurrency_set, void, (int))                                                             \
    X(vips_vector_set_enabled, void, (int))                                                          \
    X(vips_vector_isenabled, int, (void))                                                            \
    X(vips_cache_set_max_files, void, (int))                                                         \
    X(vips_error_system, void, (int, const char *, const char *, ...))                               \
    X(vips_error, void, (const char *, const char *, ...))                                           \
    X(vips_error_buffer, const char *, (void))                                                       \
    X(vips_error_clear, void, (void))                                                                \
    X(vips_source_new_from_descriptor, struct _VipsSource *, (int))                                  \
    X(vips_source_new_from_memory, struct _VipsSource *, (const void *, size_t))                     \
    X(vips_image_new_from_source, struct _VipsImage *, (struct _VipsSource *, const char *, ...))    \
    X(vips_image_hasalpha, int, (struct _VipsImage *))                                               \
    X(vips_image_get_width, int, (const struct _VipsImage *))                                        \
    X(vips_image_get_height, int, (const struct _VipsImage *))                                       \
    X(vips_image_get_orientation_swap, int, (struct _VipsImage *))                                   \
    X(vips_image_get_string, int, (const struct _VipsImage *, const char *, const char **))          \
    X(vips_image_get_typeof, unsigned long, (const struct _VipsImage *, const char *))              \
    X(vips_image_get_blob, int, (const struct _VipsImage *, const char *, const void **, size_t *))  \
    X(vips_array_double_newv, struct _VipsArrayDouble *, (int, ...))                                 \
    X(vips_area_unref, void, (struct _VipsArea *))                                                   \
    X(vips_flatten, int, (struct _VipsImage *, struct _VipsImage **, ...))                           \
    X(vips_colourspace, int, (struct _VipsImage *, struct _VipsImage **, GALLERYKIT_SIGNED_ENUM, ...)) \
    X(vips_jpegsave_buffer, int, (struct _VipsImage *, void **, size_t *, ...))                      \
    X(vips_thumbnail_source, int, (struct _VipsSource *, struct _VipsImage **, int, ...))            \
    X(vips_thumbnail_buffer, int, (void *, size_t, struct _VipsImage **, int, ...))                  \
    X(vips_thumbnail_image, int, (struct _VipsImage *, struct _VipsImage **, int, ...))              \
    X(vips_image_copy_memory, struct _VipsImage *, (struct _VipsImage *))                            \
    X(vips_image_new_from_memory, struct _VipsImage *,                                               \
      (const void *, size_t, int, int, int, GALLERYKIT_SIGNED_ENUM))                                 \
    X(vips_image_write_to_memory, void *, (struct _VipsImage *, size_t *))                           \
    X(vips_resize, int, (struct _VipsImage *, struct _VipsImage **, double, ...))                    \
    X(vips_pngsave_buffer, int, (struct _VipsImage *, void **, size_t *, ...))                       \
    X(vips_text, int, (struct _VipsImage **, const char *, ...))                                     \
    X(g_markup_escape_text, char *, (const char *, long))                                            \
    X(g_object_unref, void, (void *))                                                                \
    X(g_free, void, (void *))                                                                        \
    X(g_log_set_handler, unsigned int,                                                               \
      (const char *, GALLERYKIT_SIGNED_ENUM, void (*)(const char *, GALLERYKIT_SIGNED_ENUM, const char *, void *), void *))

/* C enums: unsigned int when no value is negative, int when one is (VipsInterpretation has
 * VIPS_INTERPRETATION_ERROR = -1, VipsBandFormat has VIPS_FORMAT_NOTSET = -1, GLogLevelFlags has
 * G_LOG_LEVEL_MASK = ~…). GLib's gssize is `signed long` on LP64 (Linux, macOS). */
#define GALLERYKIT_ENUM unsigned int
#define GALLERYKIT_SIGNED_ENUM int

#define GALLERYKIT_VIPS_TYPEDEF(name, result, parameters) typedef result(*gallerykit_##name##_fn) parameters;
GALLERYKIT_VIPS_API(GALLERYKIT_VIPS_TYPEDEF)

enum {
    GALLERYKIT_VIPS_ACCESS_SEQUENTIAL = 1,
    GALLERYKIT_VIPS_INTERPRETATION_SRGB = 22,
    GALLERYKIT_VIPS_SIZE_DOWN = 2,
    GALLERYKIT_VIPS_FORMAT_UCHAR = 0,
    GALLERYKIT_VIPS_KERNEL_LINEAR = 1,
    GALLERYKIT_G_LOG_LEVEL_WARNING = 1 << 4,
    GALLERYKIT_G_LOG_LEVEL_MESSAGE = 1 << 5,
    GALLERYKIT_G_LOG_LEVEL_INFO = 1 << 6,
};

#endif
