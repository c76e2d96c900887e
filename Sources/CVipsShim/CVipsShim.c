#include "CVipsShim.h"
#include <string.h>

int gallerykit_vips_start(void) {
    if (vips_init("gallerykit") != 0) {
        return -1;
    }
    vips_block_untrusted_set(TRUE);
    vips_cache_set_max(0);
    vips_cache_set_max_files(0);
    return 0;
}

VipsImage *gallerykit_vips_open_header(const char *path) {
    return vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

VipsImage *gallerykit_vips_open_header_buffer(const void *bytes, size_t length) {
    return vips_image_new_from_buffer(bytes, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

void gallerykit_vips_take_error(char *buffer, size_t capacity) {
    const char *message = vips_error_buffer();
    if (capacity > 0) {
        strncpy(buffer, message ? message : "", capacity - 1);
        buffer[capacity - 1] = '\0';
    }
    vips_error_clear();
}
