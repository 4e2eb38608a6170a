// The dispatch rule: which embedded image a device of a given architecture runs. Pure, so the
// unit tests check every rule without a GPU.
#include <optiml/runtime.h>

namespace optiml::rt {
namespace {

// The index of the image with the highest arch in [lowest, highest] and the given kind, or -1.
int highest_in_range(const Image* images, std::size_t count, bool is_ptx, int lowest, int highest) {
    int best = -1;
    for (std::size_t i = 0; i < count; ++i) {
        const Image& image = images[i];
        if (image.is_ptx != is_ptx || image.arch < lowest || image.arch > highest) continue;
        if (best < 0 || image.arch > images[best].arch) best = static_cast<int>(i);
    }
    return best;
}

void say(const char** why, const char* text) {
    if (why != nullptr) *why = text;
}

}  // namespace

int select_image(const Image* images, std::size_t count, int device_arch, const char** why) {
    if (images == nullptr) count = 0;
    // A CUBIN runs on its own major version at an equal or higher minor version.
    const int major_floor = device_arch / 10 * 10;
    int chosen = highest_in_range(images, count, false, device_arch, device_arch);
    if (chosen >= 0) {
        say(why, "CUBIN tuned for exactly this architecture");
        return chosen;
    }
    chosen = highest_in_range(images, count, false, major_floor, device_arch);
    if (chosen >= 0) {
        say(why, "CUBIN of an older architecture with the same major version (binary compatible)");
        return chosen;
    }
    // PTX of any older architecture is JIT-compiled by the driver for this one.
    chosen = highest_in_range(images, count, true, 0, device_arch);
    if (chosen >= 0) {
        say(why, images[chosen].arch == device_arch
                     ? "PTX tuned for this architecture, JIT-compiled by the driver"
                     : "PTX of an older architecture, JIT-compiled by the driver");
        return chosen;
    }
    say(why, "no tuned image runs on this architecture; original kernel");
    return -1;
}

}  // namespace optiml::rt
