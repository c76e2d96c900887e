/* Compiles the shim's own declarations of the libvips API (VipsAPI.h, used because libvips is
 * loaded with dlopen) against libvips' headers: any function whose type or constant whose value
 * differs from libvips' stops the test build here, naming it. */
#include "CVipsAPICheck.h"
#include <vips/vips.h>
#include <vips/vector.h> /* vips_vector_set_enabled: not in vips.h */
#include "../../Sources/CVipsShim/VipsAPI.h"

#define GALLERYKIT_CHECK(name, result, parameters)                                            \
    _Static_assert(__builtin_types_compatible_p(gallerykit_##name##_fn, __typeof__(&name)),  \
                   #name ": VipsAPI.h does not match libvips' declaration");
GALLERYKIT_VIPS_API(GALLERYKIT_CHECK)

_Static_assert(GALLERYKIT_VIPS_ACCESS_SEQUENTIAL == VIPS_ACCESS_SEQUENTIAL, "VIPS_ACCESS_SEQUENTIAL");
_Static_assert(GALLERYKIT_VIPS_INTERPRETATION_SRGB == VIPS_INTERPRETATION_sRGB, "VIPS_INTERPRETATION_sRGB");
_Static_assert(GALLERYKIT_VIPS_SIZE_DOWN == VIPS_SIZE_DOWN, "VIPS_SIZE_DOWN");
_Static_assert(GALLERYKIT_VIPS_FORMAT_UCHAR == VIPS_FORMAT_UCHAR, "VIPS_FORMAT_UCHAR");
_Static_assert(GALLERYKIT_VIPS_KERNEL_LINEAR == VIPS_KERNEL_LINEAR, "VIPS_KERNEL_LINEAR");
_Static_assert(sizeof(GALLERYKIT_SIGNED_ENUM) == sizeof(VipsBandFormat), "VipsBandFormat size");
_Static_assert(GALLERYKIT_G_LOG_LEVEL_WARNING == G_LOG_LEVEL_WARNING, "G_LOG_LEVEL_WARNING");
_Static_assert(GALLERYKIT_G_LOG_LEVEL_MESSAGE == G_LOG_LEVEL_MESSAGE, "G_LOG_LEVEL_MESSAGE");
_Static_assert(GALLERYKIT_G_LOG_LEVEL_INFO == G_LOG_LEVEL_INFO, "G_LOG_LEVEL_INFO");
_Static_assert(sizeof(GALLERYKIT_ENUM) == sizeof(VipsAccess), "enum size");

#define GALLERYKIT_COUNT(name, result, parameters) +1
int gallerykit_vips_api_checked_count(void) {
    return 0 GALLERYKIT_VIPS_API(GALLERYKIT_COUNT);
}
